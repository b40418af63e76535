#version 450

struct FullscreenOut {
    vec4 clip;
    vec2 uv;
};

layout(location = 0) out vec2 _s_vary0;

void main() {
    uint index = uint(gl_VertexIndex);
    FullscreenOut out_ = FullscreenOut(vec4(0.0), vec2(0.0));
    const float x_e5 = float((index << (1u & 31u)) & 2u);
    const float y_e8 = float(index & 2u);
    out_.clip = vec4((x_e5 * 2.0) - 1.0, 1.0 - (y_e8 * 2.0), 0.0, 1.0);
    out_.uv = vec2(x_e5, y_e8);
    const FullscreenOut _e24 = out_;
    gl_Position = _e24.clip;
    gl_Position.y = -gl_Position.y;
    _s_vary0 = _e24.uv;
    return;
}
