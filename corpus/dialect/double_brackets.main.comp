#version 450

layout(local_size_x = 1, local_size_y = 1, local_size_z = 1) in;

layout(set = 0, binding = 0, std140) uniform vertex_data_block {
    layout(offset = 0) vec3 position;
    layout(offset = 16) vec3 normal;
    layout(offset = 28) float weight;
    layout(offset = 32) float uv[2];
} vertex_data;
layout(set = 0, binding = 1, std430) buffer out_block {
    layout(offset = 0) vec4 value[];
} out_;

void main() {
    uvec3 id = gl_GlobalInvocationID;
    const vec3 _e6 = vertex_data.position;
    const vec3 _e9 = vertex_data.normal;
    const float _e12 = vertex_data.weight;
    const float _e18 = vertex_data.uv[1];
    out_.value[min(id.x, uint(out_.value.length()) - 1u)] = vec4(_e6 + (_e9 * _e12), _e18);
    return;
}
