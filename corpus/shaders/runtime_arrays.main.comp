#version 450

layout(local_size_x = 64, local_size_y = 1, local_size_z = 1) in;

struct Segment {
    vec3 start;
    float len;
    vec3 dir;
    uint id;
};

layout(set = 0, binding = 0, std430) readonly buffer segments_block {
    layout(offset = 0) Segment value[];
} segments;
layout(set = 0, binding = 1, std430) buffer mesh_block {
    layout(offset = 0) uint vertex_count;
    layout(offset = 4) float scale;
    layout(offset = 16) vec3 positions[];
} mesh;
layout(set = 0, binding = 2, std430) buffer grid_block {
    layout(offset = 0) uvec2 dims;
    layout(offset = 8) uint cells[][4];
} grid;
layout(set = 0, binding = 3, std430) buffer lengths_block {
    layout(offset = 0) uint value[];
} lengths;

uint _s_mod_uint(uint a, uint b) {
    return a % (b == 0u ? 1u : b);
}

uint clamp_index(uint i, uint count) {
    return min(i, max(count, 1u) - 1u);
}

void main() {
    uvec3 gid = gl_GlobalInvocationID;
    float sum = 0.0;
    uint k = 0u;
    const uint seg_count_e2 = uint(segments.value.length());
    const uint vert_count_e5 = uint(mesh.positions.length());
    const uint cell_count_e8 = uint(grid.cells.length());
    const uint i_e9 = gid.x;
    if (i_e9 < vert_count_e5) {
        const Segment s_e16 = segments.value[min(_s_mod_uint(i_e9, max(seg_count_e2, 1u)), uint(segments.value.length()) - 1u)];
        const float _e27 = mesh.scale;
        mesh.positions[min(i_e9, uint(mesh.positions.length()) - 1u)] = (s_e16.start + (s_e16.dir * s_e16.len)) * _e27;
        const uint c_e31 = _s_mod_uint(i_e9, max(cell_count_e8, 1u));
        const uint _e39 = grid.cells[min(c_e31, uint(grid.cells.length()) - 1u)][min(_s_mod_uint(s_e16.id, 4u), 3u)];
        grid.cells[min(c_e31, uint(grid.cells.length()) - 1u)][min(_s_mod_uint(s_e16.id, 4u), 3u)] = _e39 + 1u;
    }
    if (i_e9 == 0u) {
        mesh.vertex_count = vert_count_e5;
        lengths.value[0] = seg_count_e2;
        lengths.value[1] = cell_count_e8;
        bool _s_loop_init1 = true;
        while (true) {
            if (!_s_loop_init1) {
                const uint _e65 = k;
                k = _e65 + 1u;
            }
            _s_loop_init1 = false;
            const uint _e55 = k;
            if (_e55 < uint(segments.value.length())) {
            } else {
                break;
            }
            {
                const float _e58 = sum;
                const uint _e59 = k;
                const float _e62 = segments.value[min(_e59, uint(segments.value.length()) - 1u)].len;
                sum = _e58 + _e62;
            }
        }
        const float _e69 = sum;
        lengths.value[2] = floatBitsToUint(_e69);
        lengths.value[3] = uint(lengths.value.length());
        uint _e79 = clamp_index(cell_count_e8, cell_count_e8);
        const uint _e82 = grid.cells[min(_e79, uint(grid.cells.length()) - 1u)][3];
        grid.dims = uvec2(cell_count_e8, _e82);
        return;
    } else {
        return;
    }
}
