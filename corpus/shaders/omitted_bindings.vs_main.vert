#version 450

struct Light {
    vec3 position;
    float intensity;
};
struct VertexOut {
    vec4 position;
    vec2 uv;
    vec3 world;
};

layout(location = 0) out vec2 _s_vary0;
layout(location = 1) out vec3 _s_vary1;

void main() {
    uint index = uint(gl_VertexIndex);
    VertexOut out_ = VertexOut(vec4(0.0), vec2(0.0), vec3(0.0));
    const vec2 uv_e9 = vec2(float((index << (1u & 31u)) & 2u), float(index & 2u));
    out_.position = vec4((uv_e9 * 2.0) - vec2(1.0), 0.0, 1.0);
    out_.uv = uv_e9;
    out_.world = vec3(uv_e9, 0.0);
    const VertexOut _e24 = out_;
    gl_Position = _e24.position;
    gl_Position.y = -gl_Position.y;
    _s_vary0 = _e24.uv;
    _s_vary1 = _e24.world;
    return;
}
