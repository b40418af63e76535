#version 450

struct PointLight {
    vec3 position;
    float radius;
    vec3 color;
    float intensity;
};
struct VertexIn {
    vec3 position;
    vec3 normal;
    vec2 uv;
};
struct VertexOut {
    vec4 clip;
    vec3 world_pos;
    vec3 normal;
    vec2 uv;
};

layout(set = 0, binding = 0, std140) uniform camera_block {
    layout(offset = 0) mat4 view_proj;
    layout(offset = 64) vec3 position;
    layout(offset = 76) float time;
} camera;
layout(set = 0, binding = 1, std140) uniform lights_block {
    layout(offset = 0) vec3 ambient;
    layout(offset = 12) uint count;
    layout(offset = 16) PointLight items[8];
} lights;
layout(set = 1, binding = 0, std140) uniform object_block {
    layout(offset = 0) mat4 model;
    layout(offset = 64) mat3 normal_matrix;
    layout(offset = 112) float shininess;
    layout(offset = 116) float specular;
} object;
layout(set = 1, binding = 1) uniform texture2D diffuse_tex;
layout(set = 1, binding = 2) uniform sampler diffuse_sampler;

layout(location = 0) in vec3 _s_vary0;
layout(location = 1) in vec3 _s_vary1;
layout(location = 2) in vec2 _s_vary2;
layout(location = 0) out vec4 _s_frag0;

float attenuation(float distance_, float radius) {
    const float x_e9 = clamp(1.0 - ((distance_ / radius) * (distance_ / radius)), 0.0, 1.0);
    return (x_e9 * x_e9) / ((distance_ * distance_) + 1.0);
}

void main() {
    VertexOut in_1 = VertexOut(gl_FragCoord, _s_vary0, _s_vary1, _s_vary2);
    vec3 color = vec3(0.0);
    uint i = 0u;
    const vec4 base_e4 = texture(sampler2D(diffuse_tex, diffuse_sampler), in_1.uv);
    const vec3 n_e6 = normalize(in_1.normal);
    const vec3 _e9 = camera.position;
    const vec3 v_e12 = normalize(_e9 - in_1.world_pos);
    const vec3 _e15 = lights.ambient;
    color = _e15 * base_e4.xyz;
    bool _s_loop_init1 = true;
    while (true) {
        if (!_s_loop_init1) {
            const uint _e69 = i;
            i = _e69 + 1u;
        }
        _s_loop_init1 = false;
        const uint _e21 = i;
        const uint _e24 = lights.count;
        if (_e21 < min(_e24, 8u)) {
        } else {
            break;
        }
        {
            const uint _e30 = i;
            const PointLight light_e32 = lights.items[min(_e30, 7u)];
            const vec3 to_light_e35 = light_e32.position - in_1.world_pos;
            const float dist_e36 = length(to_light_e35);
            const vec3 l_e38 = to_light_e35 / vec3(dist_e36);
            const vec3 h_e40 = normalize(l_e38 + v_e12);
            const float diffuse_e43 = max(dot(n_e6, l_e38), 0.0);
            const float _e49 = object.shininess;
            const float _e53 = object.specular;
            const float spec_e54 = pow(max(dot(n_e6, h_e40), 0.0), _e49) * _e53;
            float _e56 = attenuation(dist_e36, light_e32.radius);
            const float att_e58 = _e56 * light_e32.intensity;
            const vec3 _e59 = color;
            color = _e59 + ((((base_e4.xyz * diffuse_e43) + vec3(spec_e54)) * light_e32.color) * att_e58);
        }
    }
    const vec3 _e71 = color;
    vec4 _s_v2 = vec4(_e71, base_e4.w);
    _s_frag0 = _s_v2;
    return;
}
