#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require

layout(local_size_x = 4, local_size_y = 1, local_size_z = 1) in;

struct HalfSlot {
    float16_t value;
    float16_t weight;
};

layout(set = 0, binding = 0, std140) uniform params_block {
    layout(offset = 0) float16_t scale;
    layout(offset = 2) float16_t bias;
    layout(offset = 4) float gain;
    layout(offset = 8) f16vec4 tint;
    layout(offset = 16) f16vec3 axis;
    layout(offset = 32) HalfSlot slots[4];
} params;
layout(set = 0, binding = 1, std430) buffer result_block {
    layout(offset = 0) float value[];
} result;

void main() {
    uint i = gl_LocalInvocationIndex;
    const HalfSlot slot_e4 = params.slots[min(i, 3u)];
    const float16_t _e8 = params.scale;
    const float16_t _e12 = params.bias;
    const float16_t _e18 = params.tint[min(i, 3u)];
    const float16_t _e24 = params.axis.x;
    const float16_t v_e25 = (((slot_e4.value * _e8) + _e12) + (slot_e4.weight * _e18)) + _e24;
    const float _e31 = params.gain;
    result.value[min(i, uint(result.value.length()) - 1u)] = float(v_e25) * _e31;
    return;
}
