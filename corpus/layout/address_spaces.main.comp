#version 450

layout(local_size_x = 1, local_size_y = 1, local_size_z = 1) in;

struct Params {
    vec3 origin;
    float scale;
    vec2 extent;
    uint steps;
    uint flags;
};

layout(set = 0, binding = 0, std140) uniform uniform_params_block {
    layout(offset = 0) vec3 origin;
    layout(offset = 12) float scale;
    layout(offset = 16) vec2 extent;
    layout(offset = 24) uint steps;
    layout(offset = 28) uint flags;
} uniform_params;
layout(set = 0, binding = 1, std430) readonly buffer read_params_block {
    layout(offset = 0) Params value[4];
} read_params;
layout(set = 0, binding = 2, std430) buffer write_params_block {
    layout(offset = 0) vec3 origin;
    layout(offset = 12) float scale;
    layout(offset = 16) vec2 extent;
    layout(offset = 24) uint steps;
    layout(offset = 28) uint flags;
} write_params;

void main() {
    Params merged = Params(vec3(0.0), 0.0, vec2(0.0), 0u, 0u);
    uint i = 0u;
    const Params _e1 = Params(uniform_params.origin, uniform_params.scale, uniform_params.extent, uniform_params.steps, uniform_params.flags);
    merged = _e1;
    bool _s_loop_init1 = true;
    while (true) {
        if (!_s_loop_init1) {
            const uint _e32 = i;
            i = _e32 + 1u;
        }
        _s_loop_init1 = false;
        const uint _e5 = i;
        if (_e5 < 4u) {
        } else {
            break;
        }
        {
            const vec3 _e9 = merged.origin;
            const uint _e11 = i;
            const vec3 _e14 = read_params.value[min(_e11, 3u)].origin;
            const uint _e16 = i;
            const float _e19 = read_params.value[min(_e16, 3u)].scale;
            merged.origin = _e9 + (_e14 * _e19);
            const uint _e24 = merged.steps;
            const uint _e26 = i;
            const uint _e29 = read_params.value[min(_e26, 3u)].steps;
            merged.steps = max(_e24, _e29);
        }
    }
    const uint _e35 = merged.flags;
    merged.flags = _e35 | 1u;
    const Params _e39 = merged;
    write_params.origin = _e39.origin;
    write_params.scale = _e39.scale;
    write_params.extent = _e39.extent;
    write_params.steps = _e39.steps;
    write_params.flags = _e39.flags;
    return;
}
