#version 450

layout(local_size_x = 1, local_size_y = 1, local_size_z = 1) in;

struct Inner {
    float value;
};

layout(set = 0, binding = 0, std140) uniform attributed_block {
    layout(offset = 0) float first;
    layout(offset = 4) float second;
    layout(offset = 16) vec2 third;
    layout(offset = 32) vec4 fourth;
    layout(offset = 96) Inner inner;
    layout(offset = 112) float inner_tail;
    layout(offset = 128) uint last;
} attributed;
layout(set = 0, binding = 1, std430) buffer packed_block {
    layout(offset = 0) uint a;
    layout(offset = 4) uint b;
    layout(offset = 64) vec3 c;
    layout(offset = 76) float d;
} packed;

void main() {
    const uint _e4 = attributed.last;
    packed.a = _e4;
    const float _e9 = attributed.first;
    const float _e12 = attributed.second;
    packed.b = uint(clamp(_e9 + _e12, 0.0, 4294967040.0));
    const vec2 _e19 = attributed.third;
    const float _e23 = attributed.fourth.w;
    packed.c = vec3(_e19, _e23);
    const float _e30 = attributed.inner.value;
    const float _e33 = attributed.inner_tail;
    packed.d = _e30 + _e33;
    return;
}
