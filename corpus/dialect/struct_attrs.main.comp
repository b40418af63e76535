#version 450

layout(local_size_x = 1, local_size_y = 1, local_size_z = 1) in;

struct Particle {
    vec2 pos;
    float mass;
};
struct Block {
    uint id;
    float value;
};
struct Both {
    vec3 v;
};

struct Block_std140 {
    uint id;
    float value;
    uvec4 _s_pad0;
    uvec4 _s_pad1;
    uvec4 _s_pad2;
};

struct Both_std140 {
    vec3 v;
    uvec4 _s_pad0;
    uvec4 _s_pad1;
};

struct Both_std430_s64 {
    vec3 v;
    uvec4 _s_pad0;
    uvec4 _s_pad1;
    uvec4 _s_pad2;
};


layout(set = 0, binding = 0, std140) uniform uses_block {
    layout(offset = 0) Particle p;
    layout(offset = 16) Block_std140 b;
    layout(offset = 96) Both_std140 both;
    layout(offset = 144) uint tail;
} uses;
layout(set = 0, binding = 1, std430) buffer boths_block {
    layout(offset = 0) Both_std430_s64 value[2];
} boths;

void main() {
    const vec2 _e6 = uses.p.pos;
    const float _e10 = uses.p.mass;
    boths.value[0].v = vec3(_e6, _e10);
    const vec3 _e18 = uses.both.v;
    const float _e22 = uses.b.value;
    const uint _e27 = uses.b.id;
    const uint _e30 = uses.tail;
    boths.value[1].v = (_e18 * _e22) + vec3(float(_e27 + _e30));
    return;
}
