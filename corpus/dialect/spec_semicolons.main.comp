#version 450

layout(local_size_x = 1, local_size_y = 1, local_size_z = 1) in;

struct A {
    float u;
    float v;
    vec2 w;
    float x;
};

layout(set = 0, binding = 0, std430) readonly buffer storage_buffer_block {
    layout(offset = 0) vec2 a;
    layout(offset = 16) vec3 b;
    layout(offset = 28) float c;
    layout(offset = 32) float d;
    layout(offset = 40) A e;
    layout(offset = 64) vec3 f;
    layout(offset = 80) A g[3];
    layout(offset = 152) float h;
} storage_buffer;
layout(set = 0, binding = 1, std430) buffer sink_block {
    layout(offset = 0) float value[2];
} sink;

void main() {
    const float _e5 = storage_buffer.e.x;
    const float _e11 = storage_buffer.g[2].w.y;
    sink.value[0] = _e5 + _e11;
    const float _e17 = storage_buffer.h;
    sink.value[1] = _e17;
    return;
}
