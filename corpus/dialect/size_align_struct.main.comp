#version 450

layout(local_size_x = 4, local_size_y = 1, local_size_z = 1) in;

struct S {
    uint i;
};

struct S_std430_s32 {
    uint i;
    uvec4 _s_pad0;
};


layout(set = 0, binding = 0, std140) uniform holder_block {
    layout(offset = 0) uint a;
    layout(offset = 32) S s;
    layout(offset = 48) uint b;
} holder;
layout(set = 0, binding = 1, std430) buffer items_block {
    layout(offset = 0) S_std430_s32 value[4];
} items;

void main() {
    uint i = gl_LocalInvocationIndex;
    const uint _e6 = holder.a;
    const uint _e10 = holder.s.i;
    const uint _e15 = holder.b;
    items.value[min(i, 3u)].i = (_e6 + (_e10 * i)) + _e15;
    return;
}
