#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require

layout(local_size_x = 64, local_size_y = 1, local_size_z = 1) in;

struct Pixel {
    f16vec3 rgb;
    float16_t alpha;
    f16vec2 weights;
    uint id;
    f16mat2 m;
};

layout(set = 0, binding = 0, std140) uniform tone_block {
    layout(offset = 0) float16_t exposure;
    layout(offset = 2) float16_t gamma;
    layout(offset = 8) f16vec3 white;
    layout(offset = 16) f16vec2 lift;
    layout(offset = 24) f16vec3 grade_c0;
    layout(offset = 32) f16vec3 grade_c1;
    layout(offset = 40) f16vec3 grade_c2;
    layout(offset = 48) f16vec4 curve_a;
    layout(offset = 56) f16vec4 curve_b;
    layout(offset = 64) uint mode;
} tone;
layout(set = 0, binding = 1, std430) buffer image_block {
    layout(offset = 0) float16_t scale;
    layout(offset = 8) f16vec4 offset;
    layout(offset = 16) Pixel pixels[];
} image;
layout(set = 0, binding = 2, std430) readonly buffer lut_block {
    layout(offset = 0) float16_t value[];
} lut;
layout(set = 0, binding = 3, std430) buffer histogram_block {
    layout(offset = 0) f16vec2 value[64];
} histogram;

float16_t curve(float16_t x) {
    const f16vec4 _e3 = tone.curve_a;
    const f16vec4 _e7 = tone.curve_b;
    const f16vec4 c_e8 = (_e3 * x) + _e7;
    return clamp((c_e8.x + (c_e8.y * x)) + ((c_e8.z * x) * x), float16_t(0.0), float16_t(1.0)) * c_e8.w;
}

void main() {
    uvec3 gid = gl_GlobalInvocationID;
    Pixel p = Pixel(f16vec3(float16_t(0)), float16_t(0), f16vec2(float16_t(0)), 0u, f16mat2(float16_t(0)));
    f16vec3 c = f16vec3(float16_t(0));
    const uint n_e3 = uint(image.pixels.length());
    if (gid.x >= n_e3) {
        return;
    }
    const Pixel _e10 = image.pixels[min(gid.x, uint(image.pixels.length()) - 1u)];
    p = _e10;
    const f16vec3 _e13 = p.rgb;
    const float16_t _e16 = tone.exposure;
    const float16_t _e20 = image.scale;
    const f16vec4 _e24 = image.offset;
    c = ((_e13 * _e16) * _e20) + _e24.xyz;
    const f16mat3 _e30 = f16mat3(tone.grade_c0, tone.grade_c1, tone.grade_c2);
    const f16vec3 _e31 = c;
    c = _e30 * _e31;
    const f16vec3 _e33 = c;
    const f16vec3 _e34 = c;
    const f16vec3 _e35 = c;
    const f16vec3 _e38 = tone.white;
    c = mix(_e33, _e34 / (_e35 + _e38), float16_t(0.5));
    const f16vec3 _e43 = c;
    const float16_t _e50 = tone.gamma;
    c = pow(max(_e43, f16vec3(float16_t(0.0))), f16vec3(float16_t(1.0) / _e50));
    const f16vec3 _e54 = c;
    const float16_t _e58 = tone.lift.x;
    const float16_t _e63 = tone.lift.y;
    c = fma(_e54, f16vec3(_e58), f16vec3(_e63));
    const f16vec3 _e66 = c;
    const float16_t luma_e71 = dot(_e66, f16vec3(float16_t(0.21264648), float16_t(0.71533203), float16_t(0.07220459)));
    const uint idx_e76 = min(uint(clamp(luma_e71 * float16_t(63.0), float16_t(0.0), float16_t(65504.0))), 63u);
    const float16_t l_e84 = lut.value[min(min(idx_e76, uint(lut.value.length()) - 1u), uint(lut.value.length()) - 1u)];
    const f16vec3 _e86 = c;
    float16_t _e93 = curve(l_e84);
    p.rgb = (normalize(_e86 + f16vec3(float16_t(0.0010004044))) * sqrt(luma_e71)) + f16vec3(_e93);
    const uint _e104 = p.id;
    p.weights = f16vec2(float16_t(float(l_e84) * 0.5), float16_t(int(idx_e76)) + float16_t(_e104));
    const f16mat2 _e110 = p.m;
    const f16vec2 _e112 = p.weights;
    const f16vec2 _e114 = p.weights;
    const f16mat2 _e119 = p.m;
    p.m = (_e110 * f16mat2(_e112, _e114.yx)) + transpose(_e119);
    const float16_t _e124 = p.alpha;
    const uint _e128 = tone.mode;
    p.alpha = (_e128 == 1u) ? float16_t(1.0) : _e124;
    const Pixel _e136 = p;
    image.pixels[min(gid.x, uint(image.pixels.length()) - 1u)] = _e136;
    const f16vec2 _e141 = histogram.value[min(idx_e76, 63u)];
    histogram.value[min(idx_e76, 63u)] = _e141 + f16vec2(float16_t(1.0), luma_e71);
    return;
}
