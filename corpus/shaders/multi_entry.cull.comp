#version 450

layout(local_size_x = 64, local_size_y = 1, local_size_z = 1) in;

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
layout(set = 0, binding = 2, std430) buffer visible_block {
    layout(offset = 0) uint value[];
} visible;
layout(set = 0, binding = 3, std430) buffer draw_args_block {
    layout(offset = 0) uint vertex_count;
    layout(offset = 4) uint instance_count;
    layout(offset = 8) uint first_vertex;
    layout(offset = 12) uint first_instance;
} draw_args;

bool sphere_visible(vec3 center, float radius) {
    uint i = 0u;
    bool _s_loop_init1 = true;
    while (true) {
        if (!_s_loop_init1) {
            const uint _e20 = i;
            i = _e20 + 1u;
        }
        _s_loop_init1 = false;
        const uint _e4 = i;
        if (_e4 < 6u) {
        } else {
            break;
        }
        {
            const uint _e9 = i;
            const vec4 plane_e11 = view.frustum[min(_e9, 5u)];
            if ((dot(plane_e11.xyz, center) + plane_e11.w) < (-radius)) {
                return false;
            }
        }
    }
    return true;
}

void main() {
    uvec3 id = gl_GlobalInvocationID;
    const uint _e4 = view.instance_count;
    if (id.x >= _e4) {
        return;
    }
    const Instance inst_e9 = instances.value[min(id.x, uint(instances.value.length()) - 1u)];
    const vec3 center_e16 = (inst_e9.transform * vec4(inst_e9.bounds.xyz, 1.0)).xyz;
    bool _e19 = sphere_visible(center_e16, inst_e9.bounds.w);
    if (_e19) {
        uint slot_e23 = atomicAdd(draw_args.instance_count, 1u);
        visible.value[min(slot_e23, uint(visible.value.length()) - 1u)] = id.x;
        return;
    } else {
        return;
    }
}
