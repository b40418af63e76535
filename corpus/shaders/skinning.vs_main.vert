#version 450

struct SkinnedVertex {
    vec3 position;
    vec3 normal;
    uvec4 joints;
    vec4 weights;
};
struct VsOut {
    vec4 clip;
    vec3 normal;
};

layout(set = 0, binding = 0, std140) uniform mesh_block {
    layout(offset = 0) mat4 view_proj;
    layout(offset = 64) mat4 model;
    layout(offset = 128) uint bone_offset;
    layout(offset = 132) uint bone_count;
} mesh;
layout(set = 0, binding = 1, std430) readonly buffer bones_block {
    layout(offset = 0) mat4 value[];
} bones;

layout(location = 0) in vec3 _s_attr0;
layout(location = 1) in vec3 _s_attr1;
layout(location = 2) in uvec4 _s_attr2;
layout(location = 3) in vec4 _s_attr3;
layout(location = 0) out vec3 _s_vary0;

mat4 bone(uint index) {
    const uint _e3 = mesh.bone_count;
    const uint _e9 = mesh.bone_offset;
    const uint i_e10 = min(index, _e3 - 1u) + _e9;
    const mat4 _e13 = bones.value[min(i_e10, uint(bones.value.length()) - 1u)];
    return _e13;
}

void main() {
    SkinnedVertex v = SkinnedVertex(_s_attr0, _s_attr1, _s_attr2, _s_attr3);
    VsOut out_ = VsOut(vec4(0.0), vec3(0.0));
    const float total_e4 = dot(v.weights, vec4(1.0));
    const vec4 w_e9 = v.weights / vec4(max(total_e4, 1e-5));
    mat4 _e12 = bone(v.joints.x);
    mat4 _e17 = bone(v.joints.y);
    mat4 _e23 = bone(v.joints.z);
    mat4 _e29 = bone(v.joints.w);
    const mat4 skin_e32 = (((_e12 * w_e9.x) + (_e17 * w_e9.y)) + (_e23 * w_e9.z)) + (_e29 * w_e9.w);
    const mat4 _e35 = mesh.model;
    const vec4 world_e40 = (_e35 * skin_e32) * vec4(v.position, 1.0);
    const mat3 skin3_e47 = mat3(skin_e32[0].xyz, skin_e32[1].xyz, skin_e32[2].xyz);
    const mat4 _e52 = mesh.view_proj;
    out_.clip = _e52 * world_e40;
    out_.normal = normalize(skin3_e47 * v.normal);
    const VsOut _e58 = out_;
    gl_Position = _e58.clip;
    gl_Position.y = -gl_Position.y;
    _s_vary0 = _e58.normal;
    return;
}
