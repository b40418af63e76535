#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require

layout(local_size_x = 1, local_size_y = 1, local_size_z = 1) in;

layout(set = 0, binding = 0, std140) uniform gu_block {
    layout(offset = 0) f16vec3 value_c0;
    layout(offset = 8) f16vec3 value_c1;
    layout(offset = 16) f16vec3 value_c2;
    layout(offset = 24) f16vec3 value_c3;
} gu;
layout(set = 0, binding = 1, std430) buffer out_block {
    layout(offset = 0) float value[];
} out_;

void main() {
    const float16_t _e5 = gu.value_c1.y;
    const float16_t _e10 = gu.value_c3.z;
    out_.value[0] = float(_e5) + float(_e10);
    return;
}
