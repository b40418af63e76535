#version 450

layout(local_size_x = 1, local_size_y = 1, local_size_z = 1) in;

struct S {
    mat2 m;
    float x;
};

struct S_std140 {
    vec2 m_c0;
    vec2 m_c1;
    float x;
};


layout(set = 0, binding = 0, std140) uniform u_block {
    layout(offset = 0) vec4 a;
    layout(offset = 16) S_std140 s;
} u;
layout(set = 0, binding = 1, std430) buffer sink_block {
    layout(offset = 0) uint value[];
} sink;

void main() {
    const float _e7 = u.s.m_c1.x;
    sink.value[0] = floatBitsToUint(_e7);
    return;
}
