#version 450

layout(local_size_x = 64, local_size_y = 1, local_size_z = 1) in;

struct Tint {
    vec3 color;
    float strength;
};

const float PI = 3.1415927;
const float TAU = 6.2831855;
const vec2 GOLDEN = vec2(1.0, 1.618034);
const float[5] WEIGHTS = float[5](0.227027, 0.1945946, 0.1216216, 0.054054, 0.016216);
const ivec2[4] OFFSETS = ivec2[4](ivec2(0, 1), ivec2(1, 0), ivec2(0, -1), ivec2(-1, 0));
const Tint DEFAULT_TINT = Tint(vec3(1.0, 0.5, 0.25), 0.75);
const uint block_size = 64u;
const float gain = 1.5;
const bool use_tint = true;
const int bias = -3;
const float scale = 0.5;
const float threshold = 3.5;
const uint half_block = 32u;

layout(set = 0, binding = 0, std140) uniform settings_block {
    layout(offset = 0) vec4 base;
    layout(offset = 16) uint index;
    layout(offset = 20) uint count;
} settings;
layout(set = 0, binding = 1, std430) buffer samples_block {
    layout(offset = 0) vec4 value[];
} samples;

shared vec4[64] tile;

uint _s_mod_uint(uint a, uint b) {
    return a % (b == 0u ? 1u : b);
}

void main() {
    if (gl_LocalInvocationIndex == 0u) {
        for (uint _s_z0 = 0u; _s_z0 < 64u; _s_z0++) {
            tile[_s_z0] = vec4(0.0);
        }
    }
    barrier();
    uint li = gl_LocalInvocationIndex;
    uvec3 gid = gl_GlobalInvocationID;
    vec4 acc = vec4(0.0);
    uint k = 1u;
    vec4 result = vec4(0.0);
    bool local = false;
    const uint n_e3 = uint(samples.value.length());
    const uint i_e7 = min(gid.x, n_e3 - 1u);
    const vec4 _e12 = samples.value[min(i_e7, uint(samples.value.length()) - 1u)];
    tile[min(li, 63u)] = _e12;
    memoryBarrierShared();
    barrier();
    const vec4 _e15 = tile[min(li, 63u)];
    acc = _e15 * 0.227027;
    bool _s_loop_init1 = true;
    while (true) {
        if (!_s_loop_init1) {
            const uint _e48 = k;
            k = _e48 + 1u;
        }
        _s_loop_init1 = false;
        const uint _e21 = k;
        if (_e21 < 5u) {
        } else {
            break;
        }
        {
            const uint _e27 = k;
            const vec4 left_e32 = tile[min(_s_mod_uint((li + block_size) - _e27, block_size), 63u)];
            const uint _e34 = k;
            const vec4 right_e39 = tile[min(_s_mod_uint(li + _e34, block_size), 63u)];
            const vec4 _e40 = acc;
            const uint _e43 = k;
            acc = _e40 + ((left_e32 + right_e39) * WEIGHTS[min(_e43, 4u)]);
        }
    }
    const uint _e53 = settings.index;
    const ivec2 o_e56 = OFFSETS[min(_s_mod_uint(_e53, 4u), 3u)];
    const uint _e60 = settings.count;
    const float w_e63 = WEIGHTS[min(_s_mod_uint(_e60, 5u), 4u)];
    const vec4 _e64 = acc;
    result = ((_e64 * gain) * scale) + vec4(float(o_e56.x + bias), float(o_e56.y), w_e63, TAU);
    if (use_tint) {
        const float _e83 = result.w;
        local = _e83 > threshold;
    } else {
        local = false;
    }
    const bool _e87 = local;
    if (_e87) {
        const vec4 _e88 = result;
        const float _e98 = result.w;
        result = vec4((_e88.xyz * vec3(1.0, 0.5, 0.25)) * 0.75, _e98);
    }
    if (li < half_block) {
        const vec4 _e102 = result;
        const vec4 _e105 = settings.base;
        result = _e102 + (_e105 * 1.618034);
    }
    const vec4 _e111 = result;
    samples.value[min(i_e7, uint(samples.value.length()) - 1u)] = _e111;
    return;
}
