#version 450

layout(local_size_x = 1, local_size_y = 1, local_size_z = 1) in;

layout(set = 0, binding = 0, std140) uniform block_block {
    layout(offset = 0) vec2 m2x2_c0;
    layout(offset = 8) vec2 m2x2_c1;
    layout(offset = 16) vec2 m3x2_c0;
    layout(offset = 24) vec2 m3x2_c1;
    layout(offset = 32) vec2 m3x2_c2;
    layout(offset = 40) vec2 m4x2_c0;
    layout(offset = 48) vec2 m4x2_c1;
    layout(offset = 56) vec2 m4x2_c2;
    layout(offset = 64) vec2 m4x2_c3;
    layout(offset = 80) mat2x3 m2x3_;
    layout(offset = 112) mat3 m3x3_;
    layout(offset = 160) mat4x3 m4x3_;
    layout(offset = 224) mat2x4 m2x4_;
    layout(offset = 256) mat3x4 m3x4_;
    layout(offset = 304) mat4 m4x4_;
    layout(offset = 368) vec2 after_x2_;
} block;
layout(set = 0, binding = 1, std430) buffer out_block {
    layout(offset = 0) vec4 value[9];
} out_;

void main() {
    const vec2 _e5 = block.m2x2_c0;
    const vec2 _e9 = block.m2x2_c1;
    out_.value[0] = vec4(_e5, _e9);
    const vec2 _e16 = block.m3x2_c2;
    const vec2 _e19 = block.after_x2_;
    out_.value[1] = vec4(_e16, _e19);
    const vec2 _e26 = block.m4x2_c3;
    const vec2 _e30 = block.m4x2_c0;
    out_.value[2] = vec4(_e26, _e30);
    const vec3 _e37 = block.m2x3_[1];
    out_.value[3] = vec4(_e37, 0.0);
    const mat3 _e44 = block.m3x3_;
    out_.value[4] = vec4(_e44 * vec3(1.0, 2.0, 3.0), 0.0);
    const mat4x3 _e56 = block.m4x3_;
    out_.value[5] = vec4(_e56 * vec4(1.0), 1.0);
    const vec4 _e67 = block.m2x4_[1];
    out_.value[6] = _e67;
    const mat3x4 _e72 = block.m3x4_;
    out_.value[7] = _e72 * vec3(0.5);
    const mat4 _e80 = block.m4x4_;
    out_.value[8] = _e80 * vec4(1.0, 0.0, 0.0, 1.0);
    return;
}
