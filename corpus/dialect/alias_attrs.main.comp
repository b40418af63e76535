#version 450

layout(local_size_x = 1, local_size_y = 1, local_size_z = 1) in;

layout(set = 0, binding = 0, std140) uniform palette_block {
    layout(offset = 0) vec3 base;
    layout(offset = 16) float base_weight;
    layout(offset = 20) uint count;
    layout(offset = 32) float key;
    layout(offset = 36) float weight;
    layout(offset = 48) vec3 colors[3];
    layout(offset = 96) float rows[2][4];
} palette;
layout(set = 0, binding = 1, std430) buffer out_block {
    layout(offset = 0) vec4 value[4];
} out_;

uint _s_mod_uint(uint a, uint b) {
    return a % (b == 0u ? 1u : b);
}

void main() {
    uint i = 0u;
    const vec3 _e4 = palette.base;
    const float _e7 = palette.base_weight;
    out_.value[0] = vec4(_e4, _e7);
    bool _s_loop_init1 = true;
    while (true) {
        if (!_s_loop_init1) {
            const uint _e47 = i;
            i = _e47 + 1u;
        }
        _s_loop_init1 = false;
        const uint _e11 = i;
        const uint _e14 = palette.count;
        if (_e11 < min(_e14, 3u)) {
        } else {
            break;
        }
        {
            const uint _e19 = i;
            const uint _e25 = i;
            const vec3 _e27 = palette.colors[min(_e25, 2u)];
            const uint _e30 = i;
            const uint _e34 = i;
            const float _e36 = palette.rows[min(_s_mod_uint(_e30, 2u), 1u)][min(_e34, 3u)];
            const float _e39 = palette.key;
            const float _e42 = palette.weight;
            out_.value[min(_e19 + 1u, 3u)] = vec4(_e27, _e36 + (_e39 * _e42));
        }
    }
    return;
}
