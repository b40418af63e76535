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

layout(location = 0) in vec3 _s_vary0;
layout(location = 0) out vec4 _s_frag0;

void main() {
    VsOut in_ = VsOut(gl_FragCoord, _s_vary0);
    const vec3 l_e4 = vec3(0.25916052, 0.8638684, 0.4319342);
    vec4 _s_v1 = vec4(vec3(0.2 + (0.8 * max(dot(in_.normal, l_e4), 0.0))), 1.0);
    _s_frag0 = _s_v1;
    return;
}
