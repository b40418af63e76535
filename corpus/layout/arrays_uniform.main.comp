#version 450

layout(local_size_x = 1, local_size_y = 1, local_size_z = 1) in;

struct Pair {
    vec2 a;
    vec2 b;
};

struct _s_mat2_cols {
    vec2 c0;
    vec2 c1;
};


layout(set = 0, binding = 0, std140) uniform block_block {
    layout(offset = 0) vec4 colors[4];
    layout(offset = 64) vec3 normals[3];
    layout(offset = 112) _s_mat2_cols rotations[2];
    layout(offset = 144) Pair pairs[3];
    layout(offset = 192) uvec4 table[3][2];
    layout(offset = 288) uint count;
} block;
layout(set = 0, binding = 1, std430) buffer out_block {
    layout(offset = 0) vec4 value;
} out_;

void main() {
    vec4 acc = vec4(0.0);
    uint i = 0u;
    bool _s_loop_init1 = true;
    while (true) {
        if (!_s_loop_init1) {
            const uint _e52 = i;
            i = _e52 + 1u;
        }
        _s_loop_init1 = false;
        const uint _e5 = i;
        const uint _e8 = block.count;
        if (_e5 < min(_e8, 3u)) {
        } else {
            break;
        }
        {
            const vec4 _e12 = acc;
            const uint _e15 = i;
            const vec4 _e17 = block.colors[min(_e15, 3u)];
            const uint _e20 = i;
            const vec3 _e22 = block.normals[min(_e20, 2u)];
            acc = _e12 + (_e17 + vec4(_e22, 0.0));
            const vec4 _e27 = acc;
            const uint _e30 = i;
            const vec2 _e33 = block.pairs[min(_e30, 2u)].a;
            const uint _e36 = i;
            const vec2 _e39 = block.pairs[min(_e36, 2u)].b;
            acc = _e27 + vec4(_e33, _e39);
            const vec4 _e42 = acc;
            const uint _e45 = i;
            const uvec4 _e48 = block.table[min(_e45, 2u)][1];
            acc = _e42 + vec4(_e48);
        }
    }
    const float _e55 = acc.x;
    const mat2 _e59 = mat2(block.rotations[1].c0, block.rotations[1].c1);
    acc.x = _e55 + (_e59 * vec2(1.0, 0.0)).y;
    const vec4 _e67 = acc;
    out_.value = _e67;
    return;
}
