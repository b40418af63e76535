#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require

layout(local_size_x = 1, local_size_y = 1, local_size_z = 1) in;

layout(set = 0, binding = 0, std430) buffer data_block {
    layout(offset = 0) float16_t a;
    layout(offset = 2) float16_t b;
    layout(offset = 4) float c;
    layout(offset = 8) f16vec2 h2_;
    layout(offset = 16) f16vec3 h3_;
    layout(offset = 22) float16_t after_h3_;
    layout(offset = 24) f16vec4 h4_;
    layout(offset = 32) f16mat2 m2_;
    layout(offset = 40) f16mat3 m3_;
    layout(offset = 64) f16mat4x2 m4x2_;
    layout(offset = 80) f16mat2x4 m2x4_;
    layout(offset = 96) float16_t last;
} data;

void main() {
    const float16_t _e4 = data.b;
    const float16_t _e8 = data.h2_.x;
    const float16_t _e13 = data.h3_.z;
    const float16_t _e17 = data.after_h3_;
    const float16_t _e22 = data.h4_.w;
    data.a = (((_e4 + _e8) + _e13) + _e17) + _e22;
    const float16_t _e30 = data.m2_[1].x;
    const float16_t _e35 = data.m3_[2].z;
    const float16_t _e41 = data.m4x2_[3].y;
    const float16_t _e47 = data.m2x4_[1].w;
    data.c = float(((_e30 + _e35) + _e41) + _e47);
    const float16_t _e54 = data.a;
    data.last = _e54 * float16_t(2.0);
    return;
}
