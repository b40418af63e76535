#version 450

layout(local_size_x = 4, local_size_y = 3, local_size_z = 1) in;

struct _s_float_a3_s64 {
    float v[3];
    uvec4 _s_pad0;
};


layout(set = 0, binding = 0, std140) uniform grid_block {
    layout(offset = 0) _s_float_a3_s64 cells[4];
    layout(offset = 256) vec2 offsets[2][2];
    layout(offset = 320) float scale;
} grid;
layout(set = 0, binding = 1, std430) buffer out_block {
    layout(offset = 0) float value[12];
} out_;

uint _s_mod_uint(uint a, uint b) {
    return a % (b == 0u ? 1u : b);
}

void main() {
    uvec3 id = gl_LocalInvocationID;
    const vec2 o_e11 = grid.offsets[min(_s_mod_uint(id.x, 2u), 1u)][min(_s_mod_uint(id.y, 2u), 1u)];
    const float _e25 = grid.cells[min(id.x, 3u)].v[min(id.y, 2u)];
    const float _e28 = grid.scale;
    out_.value[min((id.x * 3u) + id.y, 11u)] = ((_e25 * _e28) + o_e11.x) - o_e11.y;
    return;
}
