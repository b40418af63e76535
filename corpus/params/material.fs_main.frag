#version 450

layout(set = 1, binding = 2, std140) uniform material_block {
    layout(offset = 0) vec4 tint;
    layout(offset = 16) float roughness;
} material;
layout(set = 1, binding = 3) uniform texture2D material_albedo;
layout(set = 1, binding = 4) uniform texture2D material_detail_normal;
layout(set = 1, binding = 5) uniform texture2D material_detail_layers[4];
layout(set = 1, binding = 6) uniform sampler material_samp;
layout(set = 1, binding = 7, std140) uniform fog_block {
    layout(offset = 0) vec3 color;
    layout(offset = 12) float density;
} fog;
layout(set = 1, binding = 8) uniform texture3D fog_noise;
layout(set = 1, binding = 1, std140) uniform exposure_block {
    layout(offset = 0) float value;
} exposure;

layout(location = 0) in vec2 _s_vary0;
layout(location = 1) in float _s_vary1;
layout(location = 0) out vec4 _s_frag0;

void main() {
    vec2 uv = _s_vary0;
    float depth = _s_vary1;
    vec4 color = vec4(0.0);
    uint i = 0u;
    const vec4 _e4 = texture(sampler2D(material_albedo, material_samp), uv);
    const vec4 _e7 = material.tint;
    color = _e4 * _e7;
    const vec4 _e12 = texture(sampler2D(material_detail_normal, material_samp), uv);
    const vec3 n_e13 = _e12.xyz;
    bool _s_loop_init1 = true;
    while (true) {
        if (!_s_loop_init1) {
            const uint _e31 = i;
            i = _e31 + 1u;
        }
        _s_loop_init1 = false;
        const uint _e16 = i;
        if (_e16 < 4u) {
        } else {
            break;
        }
        {
            const vec4 _e19 = color;
            const uint _e21 = i;
            const vec4 _e24 = texture(sampler2D(material_detail_layers[_e21], material_samp), uv);
            const float _e27 = material.roughness;
            color = _e19 + (_e24 * _e27);
        }
    }
    const float _e35 = fog.density;
    const vec4 _e42 = texture(sampler3D(fog_noise, material_samp), vec3(uv, depth));
    const float fog_amount_e46 = 1.0 - (exp((-_e35) * depth) * _e42.x);
    const vec4 _e47 = color;
    const vec3 _e55 = fog.color;
    const float _e58 = exposure.value;
    const vec3 lit_e59 = mix(_e47.xyz * max(n_e13.z, 0.0), _e55, fog_amount_e46) * _e58;
    const float _e61 = color.w;
    vec4 _s_v2 = vec4(lit_e59, _e61);
    _s_frag0 = _s_v2;
    return;
}
