#version 450

layout(local_size_x = 64, local_size_y = 1, local_size_z = 1) in;

struct _s_vec3_s32 {
    vec3 v;
    uvec4 _s_pad0;
};

struct _s_float_s8 {
    float v;
    uint _s_pad0;
};


layout(set = 0, binding = 0, std140) uniform weights_block {
    layout(offset = 0) float value[8];
} weights;
layout(set = 0, binding = 1, std430) readonly buffer samples_block {
    layout(offset = 0) _s_vec3_s32 value[];
} samples;
layout(set = 0, binding = 2, std430) buffer result_block {
    layout(offset = 0) _s_float_s8 value[];
} result;

uint _s_mod_uint(uint a, uint b) {
    return a % (b == 0u ? 1u : b);
}

void main() {
    uvec3 id = gl_GlobalInvocationID;
    if (id.x >= uint(result.value.length())) {
        return;
    }
    const vec3 s_e11 = samples.value[min(_s_mod_uint(id.x, uint(samples.value.length())), uint(samples.value.length()) - 1u)].v;
    const float _e17 = weights.value[0];
    const float _e20 = weights.value[1];
    const float _e23 = weights.value[2];
    const float _e31 = weights.value[min(_s_mod_uint(id.x, 8u), 7u)];
    result.value[min(id.x, uint(result.value.length()) - 1u)].v = dot(s_e11, vec3(_e17, _e20, _e23)) + _e31;
    return;
}
