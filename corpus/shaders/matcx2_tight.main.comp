#version 450

layout(local_size_x = 1, local_size_y = 1, local_size_z = 1) in;

struct S {
    mat2 m;
    float x;
};

layout(set = 0, binding = 0, std140) uniform u_block {
    layout(offset = 0) vec2 a_c0;
    layout(offset = 8) vec2 a_c1;
    layout(offset = 16) vec2 s_m_c0;
    layout(offset = 24) vec2 s_m_c1;
    layout(offset = 32) float s_x;
} u;
layout(set = 0, binding = 1, std430) buffer sink_block {
    layout(offset = 0) float value[];
} sink;

void main() {
    const float _e7 = u.s_m_c1.x;
    const float _e11 = u.s_x;
    const float _e17 = u.a_c1.y;
    sink.value[0] = (_e7 + _e11) + _e17;
    return;
}
