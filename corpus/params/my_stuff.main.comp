#version 450

layout(local_size_x = 1, local_size_y = 1, local_size_z = 1) in;

layout(set = 0, binding = 0, std430) readonly buffer stuff_f32_block {
    layout(offset = 0) int a;
    layout(offset = 4) float b;
    layout(offset = 8) int c;
} stuff_f32_;
layout(set = 0, binding = 1, std430) readonly buffer stuff_vec3_block {
    layout(offset = 0) int a;
    layout(offset = 16) vec3 b;
    layout(offset = 28) int c;
} stuff_vec3_;
layout(set = 0, binding = 2, std430) readonly buffer ordered_f32_block {
    layout(offset = 0) int a;
    layout(offset = 4) int c;
    layout(offset = 8) float b;
} ordered_f32_;
layout(set = 0, binding = 3, std430) readonly buffer ordered_vec3_block {
    layout(offset = 0) int a;
    layout(offset = 4) int c;
    layout(offset = 16) vec3 b;
} ordered_vec3_;
layout(set = 0, binding = 4, std430) buffer out_block {
    layout(offset = 0) int c[4];
} out_;

void main() {
    const int _e5 = stuff_f32_.c;
    const float _e8 = stuff_f32_.b;
    out_.c[0] = _e5 + int(clamp(_e8, -2147483648.0, 2147483520.0));
    const int _e16 = stuff_vec3_.c;
    const float _e20 = stuff_vec3_.b.x;
    out_.c[1] = _e16 + int(clamp(_e20, -2147483648.0, 2147483520.0));
    const int _e28 = ordered_f32_.c;
    const float _e31 = ordered_f32_.b;
    out_.c[2] = _e28 + int(clamp(_e31, -2147483648.0, 2147483520.0));
    const int _e39 = ordered_vec3_.c;
    const float _e43 = ordered_vec3_.b.x;
    out_.c[3] = _e39 + int(clamp(_e43, -2147483648.0, 2147483520.0));
    return;
}
