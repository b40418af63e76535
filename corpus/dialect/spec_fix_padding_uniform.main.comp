#version 450

layout(local_size_x = 1, local_size_y = 1, local_size_z = 1) in;

struct A {
    float u;
    float v;
    vec2 w;
    float x;
    float _pad0_;
    vec2 _pad1_;
};

layout(set = 0, binding = 0, std140) uniform uniform_buffer_block {
    layout(offset = 0) vec2 a;
    layout(offset = 16) vec3 b;
    layout(offset = 28) float c;
    layout(offset = 32) float d;
    layout(offset = 36) float _pad0_;
    layout(offset = 40) vec2 _pad1_;
    layout(offset = 48) A e;
    layout(offset = 80) vec3 f;
    layout(offset = 96) A g[3];
    layout(offset = 192) float h;
} uniform_buffer;
layout(set = 0, binding = 1, std430) buffer sink_block {
    layout(offset = 0) float value[2];
} sink;

void main() {
    const float _e5 = uniform_buffer.e.x;
    const float _e11 = uniform_buffer.g[1].w.y;
    const float _e15 = uniform_buffer.h;
    sink.value[0] = (_e5 + _e11) + _e15;
    const float _e22 = uniform_buffer.f.x;
    const float _e27 = uniform_buffer.g[2].u;
    sink.value[1] = _e22 + _e27;
    return;
}
