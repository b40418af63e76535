#version 450

layout(local_size_x = 1, local_size_y = 1, local_size_z = 1) in;

layout(set = 0, binding = 0, std430) readonly buffer input_block {
    layout(offset = 0) float f;
    layout(offset = 4) int i;
    layout(offset = 8) uint u;
    layout(offset = 16) vec2 v2f;
    layout(offset = 32) vec3 v3f;
    layout(offset = 44) float after_v3f;
    layout(offset = 48) vec4 v4f;
    layout(offset = 64) ivec2 v2i;
    layout(offset = 80) ivec3 v3i;
    layout(offset = 96) ivec4 v4i;
    layout(offset = 112) uint lone_u;
    layout(offset = 120) uvec2 v2u;
    layout(offset = 128) uvec3 v3u;
    layout(offset = 144) uvec4 v4u;
    layout(offset = 160) uint tail;
} input_;
layout(set = 0, binding = 1, std430) buffer output_block {
    layout(offset = 0) vec4 value;
} output_;

void main() {
    const float _e2 = input_.f;
    const float _e6 = input_.v2f.x;
    const float _e11 = input_.v3f.y;
    const float _e15 = input_.after_v3f;
    const float _e20 = input_.v4f.w;
    const float fsum_e21 = (((_e2 + _e6) + _e11) + _e15) + _e20;
    const int _e24 = input_.i;
    const int _e28 = input_.v2i.y;
    const int _e33 = input_.v3i.z;
    const int _e38 = input_.v4i.x;
    const int isum_e39 = ((_e24 + _e28) + _e33) + _e38;
    const uint _e42 = input_.u;
    const uint _e45 = input_.lone_u;
    const uint _e50 = input_.v2u.x;
    const uint _e55 = input_.v3u.y;
    const uint _e60 = input_.v4u.z;
    const uint _e64 = input_.tail;
    const uint usum_e65 = ((((_e42 + _e45) + _e50) + _e55) + _e60) + _e64;
    output_.value = vec4(fsum_e21, float(isum_e39), float(usum_e65), 1.0);
    return;
}
