#version 450

layout(local_size_x = 1, local_size_y = 1, local_size_z = 1) in;

struct S1_ {
    float a;
    float b;
};

layout(set = 0, binding = 0, std430) buffer h_block {
    layout(offset = 0) float m0_a;
    layout(offset = 32) float m0_b;
    layout(offset = 40) float after;
} h;

void main() {
    const float _e5 = h.m0_b;
    h.after = _e5;
    return;
}
