#version 450

struct Instance {
    mat4 transform;
    vec4 color;
    vec4 bounds;
};
struct VsOut {
    vec4 clip;
    vec4 color;
    uint id;
};

const uint TILE = 64u;

layout(set = 0, binding = 0, std140) uniform view_block {
    layout(offset = 0) mat4 view_proj;
    layout(offset = 64) vec4 frustum[6];
    layout(offset = 160) uint instance_count;
} view;
layout(set = 0, binding = 1, std430) readonly buffer instances_block {
    layout(offset = 0) Instance value[];
} instances;
layout(set = 0, binding = 4, std430) readonly buffer visible_ro_block {
    layout(offset = 0) uint value[];
} visible_ro;

layout(location = 0) in vec3 _s_attr0;
layout(location = 0) out vec4 _s_vary0;
layout(location = 1) flat out uint _s_vary1;

void main() {
    vec3 position = _s_attr0;
    uint instance = uint(gl_InstanceIndex);
    VsOut out_ = VsOut(vec4(0.0), vec4(0.0), 0u);
    const uint index_e4 = visible_ro.value[min(instance, uint(visible_ro.value.length()) - 1u)];
    const Instance inst_e7 = instances.value[min(index_e4, uint(instances.value.length()) - 1u)];
    const mat4 _e12 = view.view_proj;
    out_.clip = (_e12 * inst_e7.transform) * vec4(position, 1.0);
    out_.color = inst_e7.color;
    out_.id = index_e4;
    const VsOut _e21 = out_;
    gl_Position = _e21.clip;
    gl_Position.y = -gl_Position.y;
    _s_vary0 = _e21.color;
    _s_vary1 = _e21.id;
    return;
}
