#version 450
#extension GL_ARB_gpu_shader_int64 : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require

layout(local_size_x = 1, local_size_y = 1, local_size_z = 1) in;

layout(set = 0, binding = 0, std430) buffer signed64_block {
    layout(offset = 0) int64_t value[2];
} signed64_;
layout(set = 0, binding = 1, std430) buffer unsigned64_block {
    layout(offset = 0) uint64_t value[2];
} unsigned64_;
layout(set = 0, binding = 2, std430) buffer words_block {
    layout(offset = 0) uint value[4];
} words;
layout(set = 0, binding = 3, std430) buffer floats_block {
    layout(offset = 0) float value[4];
} floats;

double wide = 0.0lf;
float16_t half_ = float16_t(0);

void main() {
    const float _e3 = floats.value[3];
    wide = double(_e3);
    const float _e8 = floats.value[3];
    half_ = float16_t(_e8);
    const float _e14 = floats.value[0];
    signed64_.value[0] = int64_t(clamp(_e14, -9223372036854775808.0, 9223371487098961920.0));
    const float _e20 = floats.value[1];
    unsigned64_.value[0] = uint64_t(clamp(_e20, 0.0, 18446742974197923840.0));
    const double _e25 = wide;
    signed64_.value[1] = int64_t(clamp(_e25, -9223372036854775808.0lf, 9223372036854774784.0lf));
    const double _e30 = wide;
    unsigned64_.value[1] = uint64_t(clamp(_e30, 0.0lf, 18446744073709549568.0lf));
    const double _e35 = wide;
    words.value[0] = uint(clamp(_e35, 0.0lf, 4294967295.0lf));
    const float16_t _e40 = half_;
    words.value[1] = uint(clamp(_e40, float16_t(0.0), float16_t(65504.0)));
    const float _e46 = floats.value[2];
    words.value[2] = uint(int(clamp(_e46, -2147483648.0, 2147483520.0)));
    const float16_t _e52 = half_;
    words.value[3] = uint(int(_e52));
    return;
}
