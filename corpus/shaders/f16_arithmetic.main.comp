#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require

layout(local_size_x = 64, local_size_y = 1, local_size_z = 1) in;

const float16_t HALF = float16_t(0.5);

layout(set = 0, binding = 0, std140) uniform grade_block {
    layout(offset = 0) mat3 matrix;
    layout(offset = 48) vec3 lift;
    layout(offset = 60) float contrast;
} grade;
layout(set = 0, binding = 1, std430) buffer pixels_block {
    layout(offset = 0) uint value[];
} pixels;
layout(set = 0, binding = 2, std430) buffer lumas_block {
    layout(offset = 0) float value[];
} lumas;

float16_t bias = float16_t(0.0);

uint _s_div_uint(uint a, uint b) {
    return a / (b == 0u ? 1u : b);
}

uint _s_mod_uint(uint a, uint b) {
    return a % (b == 0u ? 1u : b);
}

float16_t luma(f16vec3 c_1) {
    return dot(c_1, f16vec3(float16_t(0.21264648), float16_t(0.71533203), float16_t(0.07220459)));
}

void main() {
    uvec3 id = gl_GlobalInvocationID;
    f16vec3 c = f16vec3(float16_t(0));
    const uint n_e4 = _s_div_uint(uint(pixels.value.length()), 2u);
    if (id.x >= n_e4) {
        return;
    }
    const uint _e12 = pixels.value[min(2u * id.x, uint(pixels.value.length()) - 1u)];
    const f16vec2 rg_e14 = f16vec2(unpackHalf2x16(_e12));
    const uint _e22 = pixels.value[min((2u * id.x) + 1u, uint(pixels.value.length()) - 1u)];
    const f16vec2 ba_e24 = f16vec2(unpackHalf2x16(_e22));
    const mat3 _e27 = grade.matrix;
    const f16mat3 m_e28 = f16mat3(_e27);
    bias = (float16_t(_s_mod_uint(id.x, 4u)) * float16_t(0.25)) - float16_t(0.375);
    const vec3 _e43 = grade.lift;
    c = (m_e28 * f16vec3(rg_e14, ba_e24.x)) + f16vec3(_e43);
    const f16vec3 _e47 = c;
    const float _e53 = grade.contrast;
    c = ((_e47 - f16vec3(float16_t(0.5))) * float16_t(_e53)) + f16vec3(float16_t(0.5));
    const f16vec3 _e59 = c;
    const float16_t _e61 = bias;
    c = clamp(_e59 + f16vec3(_e61 / float16_t(255.0)), f16vec3(float16_t(0.0)), f16vec3(float16_t(1.0)));
    const f16vec3 _e71 = c;
    float16_t y_e72 = luma(_e71);
    lumas.value[min(id.x, uint(lumas.value.length()) - 1u)] = float(max(y_e72, -y_e72)) + float(sqrt(abs(y_e72)));
    const f16vec3 _e88 = c;
    pixels.value[min(2u * id.x, uint(pixels.value.length()) - 1u)] = packHalf2x16(vec2(_e88.xy));
    const float16_t _e100 = c.z;
    pixels.value[min((2u * id.x) + 1u, uint(pixels.value.length()) - 1u)] = packHalf2x16(vec2(float(_e100), float(ba_e24.y)));
    return;
}
