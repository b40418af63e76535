#version 450

layout(local_size_x = 64, local_size_y = 1, local_size_z = 1) in;

struct Header {
    uint count;
    float scale;
};

layout(set = 0, binding = 0, std430) readonly buffer raw_block {
    layout(offset = 0) vec2 value[];
} raw;
layout(set = 0, binding = 1, std430) buffer verts_block {
    layout(offset = 0) Header header;
    layout(offset = 16) vec3 bounds_min;
    layout(offset = 32) vec3 positions[];
} verts;
layout(set = 0, binding = 2, std430) readonly buffer indices_block {
    layout(offset = 0) uint first;
    layout(offset = 4) uint values[];
} indices;

uint _s_mod_uint(uint a, uint b) {
    return a % (b == 0u ? 1u : b);
}

void main() {
    uvec3 id = gl_GlobalInvocationID;
    const uint n_e7 = min(uint(verts.positions.length()), uint(indices.values.length()));
    if (id.x >= n_e7) {
        return;
    }
    const uint _e15 = indices.values[min(id.x, uint(indices.values.length()) - 1u)];
    const vec2 src_e20 = raw.value[min(_s_mod_uint(_e15, uint(raw.value.length())), uint(raw.value.length()) - 1u)];
    const float _e28 = verts.header.scale;
    const vec3 _e34 = verts.bounds_min;
    verts.positions[min(id.x, uint(verts.positions.length()) - 1u)] = vec3(src_e20 * _e28, 0.0) + _e34;
    return;
}
