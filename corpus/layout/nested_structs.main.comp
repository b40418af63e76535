#version 450

layout(local_size_x = 1, local_size_y = 1, local_size_z = 1) in;

struct Material {
    vec3 albedo;
    float roughness;
};
struct Transform {
    mat4 model;
    mat3 normal;
};
struct Object {
    Transform transform;
    Material material;
    uint id;
};
struct Tiny {
    uint flag;
};

layout(set = 0, binding = 0, std140) uniform frame_block {
    layout(offset = 0) float time;
    layout(offset = 16) Object object;
    layout(offset = 160) float exposure;
} frame;
layout(set = 0, binding = 1, std430) buffer record_block {
    layout(offset = 0) Tiny a;
    layout(offset = 4) Tiny b;
    layout(offset = 8) vec2 pos;
    layout(offset = 16) Object obj;
} record;

void main() {
    const mat4 _e4 = frame.object.transform.model;
    const vec4 world_e10 = _e4 * vec4(1.0, 2.0, 3.0, 1.0);
    const float _e16 = frame.exposure;
    const float _e20 = frame.time;
    record.pos = (world_e10.xy * _e16) + vec2(_e20);
    const uint _e29 = frame.object.id;
    record.a.flag = _e29;
    const uint _e35 = record.a.flag;
    record.b = Tiny(_e35 + 1u);
    const Object _e43 = frame.object;
    record.obj = _e43;
    const float _e52 = frame.object.material.roughness;
    record.obj.material.roughness = _e52 * 0.5;
    return;
}
