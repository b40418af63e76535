#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require

layout(local_size_x = 8, local_size_y = 1, local_size_z = 1) in;

struct Inner {
    float16_t h;
    int k;
    f16vec3 v;
    float16_t tail;
};

layout(set = 0, binding = 0, std430) buffer data_block {
    layout(offset = 0) uint count;
    layout(offset = 4) float16_t lo;
    layout(offset = 6) float16_t hi;
    layout(offset = 8) float16_t halves[5];
    layout(offset = 24) Inner inner;
    layout(offset = 40) int n;
    layout(offset = 48) f16vec3 values[];
} data;
layout(set = 0, binding = 1, std140) uniform params_block {
    layout(offset = 0) f16vec4 weights_c0;
    layout(offset = 8) f16vec4 weights_c1;
    layout(offset = 16) float16_t scale;
} params;

uint _s_mod_uint(uint a, uint b) {
    return a % (b == 0u ? 1u : b);
}

void main() {
    uint i = gl_LocalInvocationIndex;
    float16_t[5] halves = float16_t[5](float16_t(0), float16_t(0), float16_t(0), float16_t(0), float16_t(0));
    Inner inner = Inner(float16_t(0), 0, f16vec3(float16_t(0)), float16_t(0));
    const f16mat2x4 w_e3 = f16mat2x4(params.weights_c0, params.weights_c1);
    const float16_t[5] _e6 = data.halves;
    halves = _e6;
    const float16_t _e14 = halves[min(_s_mod_uint(i, 5u), 4u)];
    const float16_t _e17 = params.scale;
    halves[min(_s_mod_uint(i, 5u), 4u)] = (_e14 * _e17) + w_e3[min(_s_mod_uint(i, 2u), 1u)][min(_s_mod_uint(i, 4u), 3u)];
    if (i == 0u) {
        const float16_t[5] _e30 = halves;
        data.halves = _e30;
        const float16_t _e35 = data.hi;
        const float16_t _e38 = data.lo;
        data.lo = _e35 - _e38;
        const Inner _e42 = data.inner;
        inner = _e42;
        const float16_t _e49 = inner.tail;
        inner.v[min(_s_mod_uint(i, 3u), 2u)] = _e49;
        const int _e52 = inner.k;
        const int _e55 = data.n;
        inner.k = _e52 + _e55;
        const Inner _e59 = inner;
        data.inner = _e59;
    }
    uint _e63 = atomicAdd(data.count, 1u);
    const uint n_e66 = uint(data.values.length());
    if (i < n_e66) {
        const f16vec3 v_e71 = data.values[min(i, uint(data.values.length()) - 1u)];
        const float16_t _e79 = data.inner.h;
        data.values[min(i, uint(data.values.length()) - 1u)] = v_e71.zyx * _e79;
        const uint _e89 = data.count;
        data.values[min(i, uint(data.values.length()) - 1u)][min(_s_mod_uint(i, 3u), 2u)] = float16_t(_e89);
        return;
    } else {
        return;
    }
}
