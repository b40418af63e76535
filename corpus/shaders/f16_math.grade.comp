#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require

layout(local_size_x = 64, local_size_y = 1, local_size_z = 1) in;

layout(set = 0, binding = 0, std430) readonly buffer params_block {
    layout(offset = 0) f16mat3 matrix;
    layout(offset = 24) f16vec3 lift;
    layout(offset = 30) float16_t saturation;
    layout(offset = 32) f16vec3 gamma;
    layout(offset = 38) float16_t contrast;
    layout(offset = 40) uint count;
} params;
layout(set = 0, binding = 1, std430) buffer pixels_block {
    layout(offset = 0) f16vec4 value[];
} pixels;

uint _s_mod_uint(uint a, uint b) {
    return a % (b == 0u ? 1u : b);
}

float16_t luma(f16vec3 c_1) {
    return dot(c_1, f16vec3(float16_t(0.21264648), float16_t(0.71533203), float16_t(0.07220459)));
}

void main() {
    uvec3 id = gl_GlobalInvocationID;
    f16vec3 c = f16vec3(float16_t(0));
    const uint _e4 = params.count;
    if (id.x >= min(_e4, uint(pixels.value.length()))) {
        return;
    }
    const f16vec4 px_e12 = pixels.value[min(id.x, uint(pixels.value.length()) - 1u)];
    const f16mat3 _e15 = params.matrix;
    const f16vec3 _e20 = params.lift;
    c = (_e15 * px_e12.xyz) + _e20;
    const f16vec3 _e23 = c;
    float16_t y_e24 = luma(_e23);
    const f16vec3 _e26 = c;
    const float16_t _e29 = params.saturation;
    c = mix(f16vec3(y_e24), _e26, _e29);
    const f16vec3 _e31 = c;
    const float16_t _e37 = params.contrast;
    c = ((_e31 - f16vec3(float16_t(0.5))) * _e37) + f16vec3(float16_t(0.5));
    const f16vec3 _e42 = c;
    const f16vec3 _e52 = params.gamma;
    c = pow(clamp(_e42, f16vec3(float16_t(0.0)), f16vec3(float16_t(1.0))), f16vec3(float16_t(1.0)) / _e52);
    const f16vec3 _e55 = c;
    const f16vec3 dithered_e68 = _e55 + f16vec3(float16_t((float(_s_mod_uint(id.x, 4u)) * 0.25) - 0.375) / float16_t(255.0));
    pixels.value[min(id.x, uint(pixels.value.length()) - 1u)] = f16vec4(dithered_e68, px_e12.w);
    return;
}
