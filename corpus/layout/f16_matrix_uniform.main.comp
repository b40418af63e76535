#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require

layout(local_size_x = 2, local_size_y = 1, local_size_z = 1) in;

struct Inner {
    f16mat3 a;
    f16vec2 b;
    f16mat2x4 c;
};
struct Params {
    float scale;
    f16mat2x3 m;
    f16mat4 n;
    Inner inner;
    f16mat4x3[2] cols;
    float16_t tail;
};

struct _s_f16mat4x3_cols {
    f16vec3 c0;
    f16vec3 c1;
    f16vec3 c2;
    f16vec3 c3;
};

struct _s_f16mat4_cols {
    f16vec4 c0;
    f16vec4 c1;
    f16vec4 c2;
    f16vec4 c3;
};

struct Inner_std140 {
    f16vec3 a_c0;
    f16vec3 a_c1;
    f16vec3 a_c2;
    f16vec2 b;
    f16vec4 c_c0;
    f16vec4 c_c1;
};


layout(set = 0, binding = 0, std140) uniform params_block {
    layout(offset = 0) float scale;
    layout(offset = 8) f16vec3 m_c0;
    layout(offset = 16) f16vec3 m_c1;
    layout(offset = 24) f16vec4 n_c0;
    layout(offset = 32) f16vec4 n_c1;
    layout(offset = 40) f16vec4 n_c2;
    layout(offset = 48) f16vec4 n_c3;
    layout(offset = 64) Inner_std140 inner;
    layout(offset = 112) _s_f16mat4x3_cols cols[2];
    layout(offset = 176) float16_t tail;
} params;
layout(set = 0, binding = 1, std140) uniform list_block {
    layout(offset = 0) _s_f16mat4_cols value[2];
} list;
layout(set = 0, binding = 2, std430) buffer result_block {
    layout(offset = 0) float value[];
} result;

void main() {
    uint i = gl_LocalInvocationIndex;
    Params whole_e2;
    whole_e2.scale = params.scale;
    whole_e2.m = f16mat2x3(params.m_c0, params.m_c1);
    whole_e2.n = f16mat4(params.n_c0, params.n_c1, params.n_c2, params.n_c3);
    whole_e2.inner.a = f16mat3(params.inner.a_c0, params.inner.a_c1, params.inner.a_c2);
    whole_e2.inner.b = params.inner.b;
    whole_e2.inner.c = f16mat2x4(params.inner.c_c0, params.inner.c_c1);
    for (int _s_i0 = 0; _s_i0 < 2; ++_s_i0) {
        whole_e2.cols[_s_i0] = f16mat4x3(params.cols[_s_i0].c0, params.cols[_s_i0].c1, params.cols[_s_i0].c2, params.cols[_s_i0].c3);
    }
    whole_e2.tail = params.tail;
    Inner inner_e5;
    inner_e5.a = f16mat3(params.inner.a_c0, params.inner.a_c1, params.inner.a_c2);
    inner_e5.b = params.inner.b;
    inner_e5.c = f16mat2x4(params.inner.c_c0, params.inner.c_c1);
    const f16mat2x3 m_e8 = f16mat2x3(params.m_c0, params.m_c1);
    const f16vec4 column_e12 = f16mat4(params.n_c0, params.n_c1, params.n_c2, params.n_c3)[min(i, 3u)];
    const f16mat4 s_e15 = f16mat4(list.value[1].c0, list.value[1].c1, list.value[1].c2, list.value[1].c3);
    const float _e24 = params.scale;
    const float16_t _e43 = params.cols[min(i, 1u)].c3[min(i, 2u)];
    const float16_t _e51 = params.inner.c_c1.w;
    const float16_t _e58 = f16mat4(list.value[min(i, 1u)].c0, list.value[min(i, 1u)].c1, list.value[min(i, 1u)].c2, list.value[min(i, 1u)].c3)[min(i, 3u)].y;
    const float16_t _e67 = params.tail;
    const float16_t _e74 = f16mat4(params.n_c0, params.n_c1, params.n_c2, params.n_c3)[min(i, 3u)][min(i, 3u)];
    result.value[min(i, uint(result.value.length()) - 1u)] = (((((((((float(whole_e2.n[1].z) * _e24) + float(inner_e5.a[2].y)) + float(m_e8[1].z)) + float(column_e12.w)) + float(_e43)) + float(_e51)) + float(_e58)) + float(s_e15[2].w)) + float(_e67)) + float(_e74);
    return;
}
