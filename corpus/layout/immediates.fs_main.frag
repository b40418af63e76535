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

layout(location = 0) in vec4 _s_vary0;
layout(location = 0) out vec4 _s_frag0;

void main() {
    VertexOut in_ = VertexOut(gl_FragCoord, _s_vary0);
    const vec3 _e4 = draw.tint;
    vec4 _s_v1 = in_.color * vec4(_e4, 1.0);
    _s_frag0 = _s_v1;
    return;
}
