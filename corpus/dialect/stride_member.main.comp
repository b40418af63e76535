#version 450

layout(local_size_x = 1, local_size_y = 1, local_size_z = 1) in;

struct A {
    vec2 w;
    float x;
};

struct A_std430_s32 {
    vec2 w;
    float x;
    uvec2 _s_pad0;
    uvec2 _s_pad1;
};

struct _s_float_s12 {
    float v;
    uint _s_pad0;
    uint _s_pad1;
};


layout(set = 0, binding = 0, std430) buffer holder_block {
    layout(offset = 0) uint head;
    layout(offset = 8) A_std430_s32 g[3];
    layout(offset = 104) float tail;
    layout(offset = 108) _s_float_s12 dense[2];
} holder;

void main() {
    uint i = 0u;
    bool _s_loop_init1 = true;
    while (true) {
        if (!_s_loop_init1) {
            const uint _e31 = i;
            i = _e31 + 1u;
        }
        _s_loop_init1 = false;
        const uint _e2 = i;
        if (_e2 < 3u) {
        } else {
            break;
        }
        {
            const uint _e7 = i;
            const uint _e12 = i;
            const float _e16 = holder.g[min(_e12, 2u)].w.x;
            const uint _e19 = i;
            const float _e23 = holder.g[min(_e19, 2u)].w.y;
            const uint _e27 = holder.head;
            holder.g[min(_e7, 2u)].x = (_e16 + _e23) + float(_e27);
        }
    }
    const float _e38 = holder.dense[0].v;
    const float _e42 = holder.dense[1].v;
    holder.tail = _e38 + _e42;
    return;
}
