#version 450

struct VertexOutput {
    vec4 position;
    vec3 world;
    vec3 shadow_uv;
};

layout(set = 0, binding = 0, std140) uniform gLight_block {
    layout(offset = 0) vec3 pos;
} gLight;
layout(set = 0, binding = 1) uniform texture2D gLight_shadowMap;
layout(set = 0, binding = 2) uniform samplerShadow gShadowSampler;

layout(location = 0) in vec3 _s_vary0;
layout(location = 1) in vec3 _s_vary1;
layout(location = 0) out vec4 _s_frag0;

void main() {
    VertexOutput in_ = VertexOutput(gl_FragCoord, _s_vary0, _s_vary1);
    const float lit_e7 = texture(sampler2DShadow(gLight_shadowMap, gShadowSampler), vec3(in_.shadow_uv.xy, in_.shadow_uv.z));
    const vec3 _e10 = gLight.pos;
    const vec3 to_light_e13 = normalize(_e10 - in_.world);
    vec4 _s_v1 = vec4(vec3(lit_e7 * max(to_light_e13.y, 0.0)), 1.0);
    _s_frag0 = _s_v1;
    return;
}
