#version 450

layout(local_size_x = 1, local_size_y = 1, local_size_z = 1) in;

layout(set = 0, binding = 0, std430) readonly buffer mats_block {
    layout(offset = 0) mat2 m2x2_;
    layout(offset = 16) mat3x2 m3x2_;
    layout(offset = 40) mat4x2 m4x2_;
    layout(offset = 80) mat2x3 m2x3_;
    layout(offset = 112) mat3 m3x3_;
    layout(offset = 160) mat4x3 m4x3_;
    layout(offset = 224) mat2x4 m2x4_;
    layout(offset = 256) mat3x4 m3x4_;
    layout(offset = 304) mat4 m4x4_;
    layout(offset = 368) float scalar_after;
} mats;
layout(set = 0, binding = 1, std430) buffer out_block {
    layout(offset = 0) float value[10];
} out_;

void main() {
    const float _e6 = mats.m2x2_[1].y;
    out_.value[0] = _e6;
    const float _e13 = mats.m3x2_[2].x;
    out_.value[1] = _e13;
    const float _e20 = mats.m4x2_[3].y;
    out_.value[2] = _e20;
    const float _e27 = mats.m2x3_[1].z;
    out_.value[3] = _e27;
    const float _e34 = mats.m3x3_[2].y;
    out_.value[4] = _e34;
    const float _e41 = mats.m4x3_[3].z;
    out_.value[5] = _e41;
    const float _e48 = mats.m2x4_[1].w;
    out_.value[6] = _e48;
    const float _e55 = mats.m3x4_[2].w;
    out_.value[7] = _e55;
    const float _e62 = mats.m4x4_[3].w;
    out_.value[8] = _e62;
    const float _e67 = mats.scalar_after;
    out_.value[9] = _e67;
    return;
}
