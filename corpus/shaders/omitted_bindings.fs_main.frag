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

layout(set = 0, binding = 0) uniform texture2D albedo;
layout(set = 0, binding = 1, std140) uniform material_block {
    layout(offset = 0) vec4 tint;
    layout(offset = 16) float roughness;
} material;
layout(set = 0, binding = 2) uniform sampler samp;
layout(set = 1, binding = 1, std430) readonly buffer lights_block {
    layout(offset = 0) Light value[];
} lights;
layout(set = 1, binding = 0, std140) uniform light_count_block {
    layout(offset = 0) uint value;
} light_count;
layout(set = 0, binding = 3) uniform texture2D shadow;
layout(set = 0, binding = 4) uniform samplerShadow shadow_samp;

layout(location = 0) in vec2 _s_vary0;
layout(location = 1) in vec3 _s_vary1;
layout(location = 0) out vec4 _s_frag0;

void main() {
    VertexOut in_ = VertexOut(gl_FragCoord, _s_vary0, _s_vary1);
    float light = 0.0;
    uint i = 0u;
    const vec4 _e4 = texture(sampler2D(albedo, samp), in_.uv);
    const vec4 _e7 = material.tint;
    const vec4 base_e8 = _e4 * _e7;
    bool _s_loop_init1 = true;
    while (true) {
        if (!_s_loop_init1) {
            const uint _e34 = i;
            i = _e34 + 1u;
        }
        _s_loop_init1 = false;
        const uint _e13 = i;
        const uint _e15 = light_count.value;
        if (_e13 < min(_e15, uint(lights.value.length()))) {
        } else {
            break;
        }
        {
            const uint _e21 = i;
            const Light l_e23 = lights.value[min(_e21, uint(lights.value.length()) - 1u)];
            const float _e24 = light;
            light = _e24 + (l_e23.intensity / max(distance(l_e23.position, in_.world), 0.001));
        }
    }
    const float lit_e41 = texture(sampler2DShadow(shadow, shadow_samp), vec3(in_.uv, in_.position.z));
    const float _e43 = light;
    const float _e48 = material.roughness;
    vec4 _s_v2 = vec4(((base_e8.xyz * _e43) * lit_e41) * (1.0 - _e48), base_e8.w);
    _s_frag0 = _s_v2;
    return;
}
