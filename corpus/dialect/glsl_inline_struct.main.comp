#version 450

layout(local_size_x = 1, local_size_y = 1, local_size_z = 1) in;

struct Inner {
    vec3 v;
    float w;
};
struct Outer {
    uint k;
    mat2 m;
    Inner inner;
    uint[2] arr;
};
struct Pair {
    mat2 m;
    float x;
};
struct Params {
    mat2 a;
    Pair p;
};

struct Inner_std430 {
    vec3 v;
    uint _s_pad0;
    float w;
};


layout(set = 0, binding = 0, std430) buffer data_block {
    layout(offset = 0) uint o_k;
    layout(offset = 8) mat2 o_m;
    layout(offset = 32) vec3 o_inner_v;
    layout(offset = 48) float o_inner_w;
    layout(offset = 52) uint o_arr[2];
    layout(offset = 60) float tail;
    layout(offset = 64) int n;
    layout(offset = 80) Inner_std430 last;
} data;
layout(set = 0, binding = 1, std140) uniform params_block {
    layout(offset = 0) vec2 a_c0;
    layout(offset = 8) vec2 a_c1;
    layout(offset = 16) vec2 p_m_c0;
    layout(offset = 24) vec2 p_m_c1;
    layout(offset = 32) float p_x;
} params;

void main() {
    const Outer whole_e2 = Outer(data.o_k, data.o_m, Inner(data.o_inner_v, data.o_inner_w), data.o_arr);
    const float _e16 = data.o_m[1].x;
    data.tail = (whole_e2.inner.w + float(whole_e2.arr[1])) + _e16;
    const float _e24 = params.p_x;
    const float _e30 = params.a_c1.x;
    Inner _s_v1 = Inner(vec3(_e24), _e30);
    data.o_inner_v = _s_v1.v;
    data.o_inner_w = _s_v1.w;
    const uint _e39 = data.o_k;
    data.o_arr[0] = _e39;
    int _e43 = atomicAdd(data.n, 2);
    const Params all_e45 = Params(mat2(params.a_c0, params.a_c1), Pair(mat2(params.p_m_c0, params.p_m_c1), params.p_x));
    const Pair p_e48 = Pair(mat2(params.p_m_c0, params.p_m_c1), params.p_x);
    Inner _s_v2 = Inner(p_e48.m[0].xyx, all_e45.p.m[1].y + all_e45.a[0].y);
    data.last.v = _s_v2.v;
    data.last.w = _s_v2.w;
    return;
}
