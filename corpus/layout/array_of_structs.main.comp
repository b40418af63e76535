#version 450

layout(local_size_x = 8, local_size_y = 1, local_size_z = 1) in;

struct Light {
    vec3 position;
    float range;
    vec3 color;
    float intensity;
};
struct Sample {
    vec2 uv;
    float weight;
};

layout(set = 0, binding = 0, std430) readonly buffer scene_block {
    layout(offset = 0) Light lights[4];
    layout(offset = 128) Sample samples[3];
    layout(offset = 176) uint light_count;
} scene;
layout(set = 0, binding = 1, std430) buffer extra_samples_block {
    layout(offset = 0) Sample value[];
} extra_samples;

uint _s_mod_uint(uint a, uint b) {
    return a % (b == 0u ? 1u : b);
}

void main() {
    uvec3 id = gl_GlobalInvocationID;
    if (id.x >= uint(extra_samples.value.length())) {
        return;
    }
    const Light light_e11 = scene.lights[min(_s_mod_uint(id.x, 4u), 3u)];
    const Sample base_e18 = scene.samples[min(_s_mod_uint(id.x, 3u), 2u)];
    extra_samples.value[min(id.x, uint(extra_samples.value.length()) - 1u)] = Sample(base_e18.uv + light_e11.position.xy, base_e18.weight * light_e11.intensity);
    return;
}
