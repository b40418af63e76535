#version 450

struct VertexOut {
    vec4 clip;
    vec4 color;
};

layout(push_constant, std430) uniform draw_block {
    layout(offset = 0) mat4 transform;
    layout(offset = 64) vec3 tint;
    layout(offset = 76) float alpha;
    layout(offset = 80) uint instance_base;
} draw;

layout(location = 0) in vec3 _s_attr0;
layout(location = 0) out vec4 _s_vary0;

void main() {
    vec3 position = _s_attr0;
    uint instance = uint(gl_InstanceIndex);
    VertexOut out_ = VertexOut(vec4(0.0), vec4(0.0));
    const uint _e5 = draw.instance_base;
    const float offset_e9 = float(instance + _e5) * 0.1;
    const mat4 _e13 = draw.transform;
    out_.clip = _e13 * vec4(position + vec3(offset_e9, 0.0, 0.0), 1.0);
    const vec3 _e24 = draw.tint;
    const float _e27 = draw.alpha;
    out_.color = vec4(_e24, _e27);
    const VertexOut _e29 = out_;
    gl_Position = _e29.clip;
    gl_Position.y = -gl_Position.y;
    _s_vary0 = _e29.color;
    return;
}
