#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require

layout(local_size_x = 1, local_size_y = 1, local_size_z = 1) in;

layout(set = 0, binding = 0, std140) uniform u_block {
    layout(offset = 0) float16_t x;
    layout(offset = 2) float16_t y;
    layout(offset = 16) mat2x3 a;
    layout(offset = 48) f16vec2 b_c0;
    layout(offset = 52) f16vec2 b_c1;
    layout(offset = 56) f16vec2 b_c2;
    layout(offset = 72) float c;
} u;
layout(set = 0, binding = 1, std430) buffer out_block {
    layout(offset = 0) float value[];
} out_;

void main() {
    const float16_t _e4 = u.y;
    const float _e10 = u.a[1].z;
    const float16_t _e16 = u.b_c2.y;
    const float _e21 = u.c;
    out_.value[0] = ((float(_e4) + _e10) + float(_e16)) + _e21;
    return;
}
