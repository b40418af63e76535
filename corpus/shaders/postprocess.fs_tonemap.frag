#version 450

struct FullscreenOut {
    vec4 clip;
    vec2 uv;
};

layout(set = 0, binding = 0) uniform texture2D source;
layout(set = 0, binding = 1) uniform sampler linear_sampler;
layout(set = 0, binding = 3, std140) uniform tonemap_block {
    layout(offset = 0) float exposure;
    layout(offset = 4) float gamma;
    layout(offset = 8) float white_point;
    layout(offset = 12) float vignette;
} tonemap;

layout(location = 0) in vec2 _s_vary0;
layout(location = 0) out vec4 _s_frag0;

vec3 reinhard_extended(vec3 c, float white) {
    const vec3 num_e8 = c * (vec3(1.0) + (c / vec3(white * white)));
    return num_e8 / (vec3(1.0) + c);
}

void main() {
    FullscreenOut in_1 = FullscreenOut(gl_FragCoord, _s_vary0);
    vec3 ldr = vec3(0.0);
    const vec4 _e4 = texture(sampler2D(source, linear_sampler), in_1.uv);
    const float _e8 = tonemap.exposure;
    const vec3 hdr_e9 = _e4.xyz * _e8;
    const float _e12 = tonemap.white_point;
    vec3 _e13 = reinhard_extended(hdr_e9, _e12);
    ldr = _e13;
    const float d_e18 = distance(in_1.uv, vec2(0.5));
    const vec3 _e19 = ldr;
    const float _e22 = tonemap.vignette;
    ldr = _e19 * (1.0 - (_e22 * smoothstep(0.3, 0.8, d_e18)));
    const vec3 _e30 = ldr;
    const float _e33 = tonemap.gamma;
    vec4 _s_v1 = vec4(pow(_e30, vec3(1.0 / _e33)), 1.0);
    _s_frag0 = _s_v1;
    return;
}
