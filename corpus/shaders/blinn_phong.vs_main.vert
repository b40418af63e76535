#version 450

struct PointLight {
    vec3 position;
    float radius;
    vec3 color;
    float intensity;
};
struct VertexIn {
    vec3 position;
    vec3 normal;
    vec2 uv;
};
struct VertexOut {
    vec4 clip;
    vec3 world_pos;
    vec3 normal;
    vec2 uv;
};

layout(set = 0, binding = 0, std140) uniform camera_block {
    layout(offset = 0) mat4 view_proj;
    layout(offset = 64) vec3 position;
    layout(offset = 76) float time;
} camera;
layout(set = 1, binding = 0, std140) uniform object_block {
    layout(offset = 0) mat4 model;
    layout(offset = 64) mat3 normal_matrix;
    layout(offset = 112) float shininess;
    layout(offset = 116) float specular;
} object;

layout(location = 0) in vec3 _s_attr0;
layout(location = 1) in vec3 _s_attr1;
layout(location = 2) in vec2 _s_attr2;
layout(location = 0) out vec3 _s_vary0;
layout(location = 1) out vec3 _s_vary1;
layout(location = 2) out vec2 _s_vary2;

void main() {
    VertexIn in_ = VertexIn(_s_attr0, _s_attr1, _s_attr2);
    VertexOut out_ = VertexOut(vec4(0.0), vec3(0.0), vec3(0.0), vec2(0.0));
    const mat4 _e3 = object.model;
    const vec4 world_e7 = _e3 * vec4(in_.position, 1.0);
    const mat4 _e12 = camera.view_proj;
    out_.clip = _e12 * world_e7;
    out_.world_pos = world_e7.xyz;
    const mat3 _e19 = object.normal_matrix;
    out_.normal = normalize(_e19 * in_.normal);
    out_.uv = in_.uv;
    const VertexOut _e25 = out_;
    gl_Position = _e25.clip;
    gl_Position.y = -gl_Position.y;
    _s_vary0 = _e25.world_pos;
    _s_vary1 = _e25.normal;
    _s_vary2 = _e25.uv;
    return;
}
