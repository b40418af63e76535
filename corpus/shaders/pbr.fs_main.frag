#version 450

struct DirectionalLight {
    vec3 direction;
    float illuminance;
    vec3 color;
    int shadow_index;
};
struct VsIn {
    vec3 position;
    vec3 normal;
    vec4 tangent;
    vec2 uv;
};
struct VsOut {
    vec4 clip;
    vec3 world_pos;
    vec3 normal;
    vec4 tangent;
    vec2 uv;
};

const float PI = 3.1415927;

layout(set = 0, binding = 0, std140) uniform globals_block {
    layout(offset = 0) mat4 view_proj;
    layout(offset = 64) vec3 camera_pos;
    layout(offset = 76) float exposure;
} globals;
layout(set = 0, binding = 1, std430) readonly buffer dir_lights_block {
    layout(offset = 0) DirectionalLight value[];
} dir_lights;
layout(set = 1, binding = 0, std140) uniform material_block {
    layout(offset = 0) vec4 base_color;
    layout(offset = 16) vec3 emissive;
    layout(offset = 28) float metallic;
    layout(offset = 32) float roughness;
    layout(offset = 36) float occlusion_strength;
    layout(offset = 40) float normal_scale;
    layout(offset = 44) float alpha_cutoff;
} material;
layout(set = 1, binding = 1) uniform texture2D base_color_map;
layout(set = 1, binding = 2) uniform texture2D normal_map;
layout(set = 1, binding = 3) uniform texture2D metal_rough_map;
layout(set = 1, binding = 4) uniform sampler material_sampler;

layout(location = 0) in vec3 _s_vary0;
layout(location = 1) in vec3 _s_vary1;
layout(location = 2) in vec4 _s_vary2;
layout(location = 3) in vec2 _s_vary3;
layout(location = 0) out vec4 _s_frag0;

float distribution_ggx(float n_dot_h, float roughness) {
    const float a_e2 = roughness * roughness;
    const float a2_e3 = a_e2 * a_e2;
    const float d_e9 = ((n_dot_h * n_dot_h) * (a2_e3 - 1.0)) + 1.0;
    return a2_e3 / ((PI * d_e9) * d_e9);
}

float geometry_smith(float n_dot_v, float n_dot_l, float roughness_1) {
    const float k_e9 = ((roughness_1 + 1.0) * (roughness_1 + 1.0)) / 8.0;
    const float gv_e14 = n_dot_v / ((n_dot_v * (1.0 - k_e9)) + k_e9);
    const float _e19 = n_dot_l / ((n_dot_l * (1.0 - k_e9)) + k_e9);
    return gv_e14 * _e19;
}

vec3 fresnel_schlick(float cos_theta, vec3 f0_) {
    return f0_ + ((vec3(1.0) - f0_) * pow(1.0 - cos_theta, 5.0));
}

vec3 aces(vec3 x) {
    return clamp((x * ((2.51 * x) + vec3(0.03))) / ((x * ((2.43 * x) + vec3(0.59))) + vec3(0.14)), vec3(0.0), vec3(1.0));
}

void main() {
    VsOut in_1 = VsOut(gl_FragCoord, _s_vary0, _s_vary1, _s_vary2, _s_vary3);
    vec3 radiance = vec3(0.0);
    uint i = 0u;
    const vec4 _e4 = texture(sampler2D(base_color_map, material_sampler), in_1.uv);
    const vec4 _e7 = material.base_color;
    const vec4 albedo_e8 = _e4 * _e7;
    const float _e12 = material.alpha_cutoff;
    if (albedo_e8.w < _e12) {
        discard;
    }
    const vec4 mr_e17 = texture(sampler2D(metal_rough_map, material_sampler), in_1.uv);
    const float _e21 = material.metallic;
    const float metallic_e22 = mr_e17.z * _e21;
    const float _e26 = material.roughness;
    const float roughness_e30 = clamp(mr_e17.y * _e26, 0.04, 1.0);
    const vec4 _e34 = texture(sampler2D(normal_map, material_sampler), in_1.uv);
    const vec3 tn_e40 = (_e34.xyz * 2.0) - vec3(1.0);
    const vec3 n0_e42 = normalize(in_1.normal);
    const vec3 t_e50 = normalize(in_1.tangent.xyz - (n0_e42 * dot(n0_e42, in_1.tangent.xyz)));
    const vec3 b_e54 = cross(n0_e42, t_e50) * in_1.tangent.w;
    const float _e59 = material.normal_scale;
    const vec3 n_e64 = normalize(mat3(t_e50, b_e54, n0_e42) * vec3(tn_e40.xy * _e59, tn_e40.z));
    const vec3 _e67 = globals.camera_pos;
    const vec3 v_e70 = normalize(_e67 - in_1.world_pos);
    const float n_dot_v_e73 = max(dot(n_e64, v_e70), 0.0001);
    const vec3 f0_e77 = mix(vec3(0.04), albedo_e8.xyz, metallic_e22);
    const vec3 _e80 = material.emissive;
    radiance = _e80;
    const uint count_e83 = uint(dir_lights.value.length());
    bool _s_loop_init1 = true;
    while (true) {
        if (!_s_loop_init1) {
            const uint _e140 = i;
            i = _e140 + 1u;
        }
        _s_loop_init1 = false;
        const uint _e86 = i;
        if (_e86 < count_e83) {
        } else {
            break;
        }
        {
            const uint _e89 = i;
            const DirectionalLight light_e91 = dir_lights.value[min(_e89, uint(dir_lights.value.length()) - 1u)];
            const vec3 l_e94 = -normalize(light_e91.direction);
            const vec3 h_e96 = normalize(v_e70 + l_e94);
            const float n_dot_l_e99 = max(dot(n_e64, l_e94), 0.0);
            if (n_dot_l_e99 <= 0.0) {
                continue;
            }
            float d_e105 = distribution_ggx(max(dot(n_e64, h_e96), 0.0), roughness_e30);
            float g_e106 = geometry_smith(n_dot_v_e73, n_dot_l_e99, roughness_e30);
            vec3 f_e110 = fresnel_schlick(max(dot(h_e96, v_e70), 0.0), f0_e77);
            const vec3 specular_e119 = ((d_e105 * g_e106) * f_e110) / vec3(((4.0 * n_dot_v_e73) * n_dot_l_e99) + 0.0001);
            const vec3 kd_e125 = (vec3(1.0) - f_e110) * (1.0 - metallic_e22);
            const vec3 _e126 = radiance;
            radiance = _e126 + ((((((kd_e125 * albedo_e8.xyz) / vec3(3.1415927)) + specular_e119) * light_e91.color) * light_e91.illuminance) * n_dot_l_e99);
        }
    }
    const float _e145 = material.occlusion_strength;
    const float ao_e147 = mix(1.0, mr_e17.x, _e145);
    const vec3 _e148 = radiance;
    const float _e152 = globals.exposure;
    vec3 _e154 = aces((_e148 * ao_e147) * _e152);
    vec4 _s_v2 = vec4(_e154, albedo_e8.w);
    _s_frag0 = _s_v2;
    return;
}
