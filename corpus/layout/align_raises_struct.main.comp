#version 450

layout(local_size_x = 1, local_size_y = 1, local_size_z = 1) in;

struct Raised {
    float value;
    float other;
};

struct Raised_std140 {
    float value;
    float other;
    uvec4 _s_pad0;
};

struct Raised_std430 {
    float value;
    float other;
    uvec4 _s_pad0;
};


layout(set = 0, binding = 0, std140) uniform holder_block {
    layout(offset = 0) vec4 head;
    layout(offset = 32) Raised_std140 raised;
    layout(offset = 64) float after;
} holder;
layout(set = 0, binding = 1, std430) buffer holders_block {
    layout(offset = 0) uint lead;
    layout(offset = 32) Raised_std430 items[3];
} holders;

void main() {
    const float _e5 = holder.head.x;
    holders.lead = uint(clamp(_e5, 0.0, 4294967040.0));
    Raised _e12;
    _e12.value = holder.raised.value;
    _e12.other = holder.raised.other;
    holders.items[0].value = _e12.value;
    holders.items[0].other = _e12.other;
    const float _e19 = holder.after;
    holders.items[1].value = _e19;
    const float _e27 = holder.raised.other;
    const float _e31 = holder.head.w;
    holders.items[2].other = _e27 + _e31;
    return;
}
