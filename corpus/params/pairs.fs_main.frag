#version 450

layout(set = 0, binding = 0) uniform texture2D gPairs_a[8];
layout(set = 0, binding = 1) uniform texture2D gPairs_b[8];
layout(set = 0, binding = 2) uniform sampler gSampler;

layout(location = 0) in vec2 _s_vary0;
layout(location = 1) flat in uint _s_vary1;
layout(location = 0) out vec4 _s_frag0;

void main() {
    vec2 uv = _s_vary0;
    uint layer = _s_vary1;
    const vec4 first_e5 = texture(sampler2D(gPairs_a[layer], gSampler), uv);
    const vec4 second_e9 = texture(sampler2D(gPairs_b[layer], gSampler), uv);
    vec4 _s_v1 = mix(first_e5, second_e9, 0.5);
    _s_frag0 = _s_v1;
    return;
}
