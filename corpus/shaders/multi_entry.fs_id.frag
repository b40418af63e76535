#version 450

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

layout(location = 0) in vec4 _s_vary0;
layout(location = 1) flat in uint _s_vary1;
layout(location = 0) out uint _s_frag0;

void main() {
    VsOut in_1 = VsOut(gl_FragCoord, _s_vary0, _s_vary1);
    uint _s_v1 = in_1.id + 1u;
    _s_frag0 = _s_v1;
    return;
}
