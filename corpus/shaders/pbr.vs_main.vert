#version 450

struct DirectionalLight {
    vec3 direction;
    float illuminance;
    vec3 color;
    int shadow_index;
};
struct VsIn {
    vec3 position;
    vec3 normal;
    vec4 tangent;
    vec2 uv;
};
struct VsOut {
    vec4 clip;
    vec3 world_pos;
    vec3 normal;
    vec4 tangent;
    vec2 uv;
};

const float PI = 3.1415927;

layout(set = 0, binding = 0, std140) uniform globals_block {
    layout(offset = 0) mat4 view_proj;
    layout(offset = 64) vec3 camera_pos;
    layout(offset = 76) float exposure;
} globals;

layout(location = 0) in vec3 _s_attr0;
layout(location = 1) in vec3 _s_attr1;
layout(location = 2) in vec4 _s_attr2;
layout(location = 3) in vec2 _s_attr3;
layout(location = 0) out vec3 _s_vary0;
layout(location = 1) out vec3 _s_vary1;
layout(location = 2) out vec4 _s_vary2;
layout(location = 3) out vec2 _s_vary3;

void main() {
    VsIn in_ = VsIn(_s_attr0, _s_attr1, _s_attr2, _s_attr3);
    VsOut out_ = VsOut(vec4(0.0), vec3(0.0), vec3(0.0), vec4(0.0), vec2(0.0));
    const mat4 _e5 = globals.view_proj;
    out_.clip = _e5 * vec4(in_.position, 1.0);
    out_.world_pos = in_.position;
    out_.normal = in_.normal;
    out_.tangent = in_.tangent;
    out_.uv = in_.uv;
    const VsOut _e18 = out_;
    gl_Position = _e18.clip;
    gl_Position.y = -gl_Position.y;
    _s_vary0 = _e18.world_pos;
    _s_vary1 = _e18.normal;
    _s_vary2 = _e18.tangent;
    _s_vary3 = _e18.uv;
    return;
}
