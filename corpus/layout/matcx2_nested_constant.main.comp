#version 450

layout(local_size_x = 2, local_size_y = 1, local_size_z = 1) in;

struct Pair {
    mat2 m;
    mat3x2 k;
    vec2 w;
};
struct Root {
    vec4 a;
    Pair p;
    mat4x2 top;
    Pair[2] pairs;
};

struct Pair_std140 {
    vec2 m_c0;
    vec2 m_c1;
    vec2 k_c0;
    vec2 k_c1;
    vec2 k_c2;
    vec2 w;
};


const Root base = Root(vec4(1.0), Pair(mat2(vec2(1.0, 0.0), vec2(0.0, 1.0)), mat3x2(0.0), vec2(0.5)), mat4x2(0.0), Pair[2](Pair(mat2(0.0), mat3x2(0.0), vec2(0.0)), Pair(mat2(0.0), mat3x2(0.0), vec2(0.0))));

layout(set = 0, binding = 0, std140) uniform root_block {
    layout(offset = 0) vec4 a;
    layout(offset = 16) Pair_std140 p;
    layout(offset = 64) vec2 top_c0;
    layout(offset = 72) vec2 top_c1;
    layout(offset = 80) vec2 top_c2;
    layout(offset = 88) vec2 top_c3;
    layout(offset = 96) Pair_std140 pairs[2];
} root;
layout(set = 0, binding = 1, std430) buffer result_block {
    layout(offset = 0) float value[];
} result;

void main() {
    uint i = gl_LocalInvocationIndex;
    Pair p_e3;
    p_e3.m = mat2(root.p.m_c0, root.p.m_c1);
    p_e3.k = mat3x2(root.p.k_c0, root.p.k_c1, root.p.k_c2);
    p_e3.w = root.p.w;
    const mat2 _e14 = mat2(root.p.m_c0, root.p.m_c1);
    const mat2 m_e15 = mat2(vec2(1.0, 0.0), vec2(0.0, 1.0)) * _e14;
    const float _e28 = root.top_c3.y;
    const float _e36 = mat3x2(root.pairs[min(i, 1u)].k_c0, root.pairs[min(i, 1u)].k_c1, root.pairs[min(i, 1u)].k_c2)[min(i, 2u)].y;
    const float _e41 = root.a.x;
    const float _e50 = root.pairs[1].w[min(i, 1u)];
    result.value[min(i, uint(result.value.length()) - 1u)] = (((((m_e15[min(i, 1u)].y + p_e3.k[2][min(i, 1u)]) + _e28) + _e36) + _e41) + 0.5) + _e50;
    return;
}
