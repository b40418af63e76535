#version 450
#extension GL_EXT_samplerless_texture_functions : require

struct ExternalTextureTransferFn {
    float a;
    float b;
    float g;
    float k;
};

layout(set = 0, binding = 0) uniform texture2D frame;
layout(set = 0, binding = 3) uniform texture2D frame_uv;
layout(set = 0, binding = 4, std140) uniform frame_params_block {
    layout(offset = 0) mat4 yuv_conversion_matrix;
    layout(offset = 64) mat3 gamut_conversion_matrix;
    layout(offset = 112) ExternalTextureTransferFn src_tf;
    layout(offset = 128) ExternalTextureTransferFn dst_tf;
    layout(offset = 144) vec2 sample_transform_c0;
    layout(offset = 152) vec2 sample_transform_c1;
    layout(offset = 160) vec2 sample_transform_c2;
    layout(offset = 168) vec2 load_transform_c0;
    layout(offset = 176) vec2 load_transform_c1;
    layout(offset = 184) vec2 load_transform_c2;
    layout(offset = 192) uvec2 size;
    layout(offset = 200) uint num_planes;
} frame_params;
layout(set = 0, binding = 1) uniform sampler frame_sampler;
layout(set = 0, binding = 2, std140) uniform overlay_block {
    layout(offset = 0) vec4 tint;
    layout(offset = 16) float mix_amount;
} overlay;

layout(location = 0) in vec2 _s_vary0;
layout(location = 0) out vec4 _s_frag0;

int _s_mod_int(int a, int b) {
    int d = (b == 0 || (a == (-2147483647 - 1) && b == (-1))) ? 1 : b;
    return a - (a / d) * d;
}

ivec2 _s_mod_ivec2(ivec2 a, ivec2 b) {
    return ivec2(_s_mod_int(a.x, b.x), _s_mod_int(a.y, b.y));
}

vec4 external_texture_yuv_to_rgb(float y, vec2 uv_1, mat4 yuv, mat3 gamut, ExternalTextureTransferFn src, ExternalTextureTransferFn dst) {
    const vec3 gamma_e9 = (yuv * vec4(y, uv_1, 1.0)).xyz;
    const vec3 linear_e30 = mix(pow(((gamma_e9 + vec3(src.a)) - vec3(1.0)) / vec3(src.a), vec3(src.g)), gamma_e9 / vec3(src.k), lessThan(gamma_e9, vec3(src.k * src.b)));
    const vec3 out_e31 = gamut * linear_e30;
    const vec3 encoded_e49 = mix((dst.a * pow(out_e31, vec3(1.0 / dst.g))) - vec3(dst.a - 1.0), dst.k * out_e31, lessThan(out_e31, vec3(dst.b)));
    return vec4(encoded_e49, 1.0);
}

vec4 frame_load(uvec2 coords) {
    const uvec2 size0_e2 = uvec2(textureSize(frame, 0));
    const uvec2 _e5 = frame_params.size;
    const uvec2 _e8 = frame_params.size;
    const uvec2 size_e13 = any(notEqual(_e8, uvec2(0u))) ? _e5 : size0_e2;
    const vec3 c_e20 = vec3(vec2(min(coords, size_e13 - uvec2(1u))), 1.0);
    const mat3x2 _e23 = mat3x2(frame_params.load_transform_c0, frame_params.load_transform_c1, frame_params.load_transform_c2);
    const uvec2 c0_e26 = uvec2(clamp(roundEven(_e23 * c_e20), 0.0, 4294967040.0));
    const uint _e29 = frame_params.num_planes;
    if (_e29 == 1u) {
        const vec4 _e33 = texelFetch(frame, clamp(ivec2(c0_e26), ivec2(0), textureSize(frame, 0) - ivec2(1)), 0);
        return _e33;
    }
    const uvec2 c1_e42 = uvec2(clamp(floor((vec2(c0_e26) * vec2(uvec2(textureSize(frame_uv, 0)))) / vec2(size0_e2)), 0.0, 4294967040.0));
    const vec4 _e44 = texelFetch(frame, clamp(ivec2(c0_e26), ivec2(0), textureSize(frame, 0) - ivec2(1)), 0);
    const vec4 _e48 = texelFetch(frame_uv, clamp(ivec2(c1_e42), ivec2(0), textureSize(frame_uv, 0) - ivec2(1)), 0);
    const mat4 _e52 = frame_params.yuv_conversion_matrix;
    const mat3 _e55 = frame_params.gamut_conversion_matrix;
    const ExternalTextureTransferFn _e58 = frame_params.src_tf;
    const ExternalTextureTransferFn _e61 = frame_params.dst_tf;
    vec4 _e62 = external_texture_yuv_to_rgb(_e44.x, _e48.xy, _e52, _e55, _e58, _e61);
    return _e62;
}

vec4 frame_sample_frame_sampler(vec2 coords_1) {
    const mat3x2 m_e5 = mat3x2(frame_params.sample_transform_c0, frame_params.sample_transform_c1, frame_params.sample_transform_c2);
    const vec2 c_e8 = m_e5 * vec3(coords_1, 1.0);
    const vec2 corner0_e13 = m_e5 * vec3(0.0, 0.0, 1.0);
    const vec2 corner1_e18 = m_e5 * vec3(1.0, 1.0, 1.0);
    const vec2 lo_e19 = min(corner0_e13, corner1_e18);
    const vec2 hi_e20 = max(corner0_e13, corner1_e18);
    const vec2 half0_e25 = vec2(0.5) / vec2(uvec2(textureSize(frame, 0)));
    const vec2 c0_e28 = clamp(c_e8, lo_e19 + half0_e25, hi_e20 - half0_e25);
    const uint _e31 = frame_params.num_planes;
    if (_e31 == 1u) {
        const vec4 _e35 = textureLod(sampler2D(frame, frame_sampler), c0_e28, 0.0);
        return _e35;
    }
    const vec2 half1_e41 = vec2(0.5) / vec2(uvec2(textureSize(frame_uv, 0)));
    const vec2 c1_e44 = clamp(c_e8, lo_e19 + half1_e41, hi_e20 - half1_e41);
    const vec4 _e46 = textureLod(sampler2D(frame, frame_sampler), c0_e28, 0.0);
    const vec4 _e50 = textureLod(sampler2D(frame_uv, frame_sampler), c1_e44, 0.0);
    const mat4 _e54 = frame_params.yuv_conversion_matrix;
    const mat3 _e57 = frame_params.gamut_conversion_matrix;
    const ExternalTextureTransferFn _e60 = frame_params.src_tf;
    const ExternalTextureTransferFn _e63 = frame_params.dst_tf;
    vec4 _e64 = external_texture_yuv_to_rgb(_e46.x, _e50.xy, _e54, _e57, _e60, _e63);
    return _e64;
}

uvec2 frame_dimensions() {
    const uvec2 size_e3 = frame_params.size;
    return any(notEqual(size_e3, uvec2(0u))) ? size_e3 : uvec2(textureSize(frame, 0));
}

vec4 texel(vec2 position_1, uvec2 size) {
    vec4 _e6 = frame_load(uvec2(_s_mod_ivec2(ivec2(clamp(position_1, -2147483648.0, 2147483520.0)), ivec2(size))));
    return _e6;
}

void main() {
    vec4 position = gl_FragCoord;
    vec2 uv = _s_vary0;
    uvec2 size_e3 = frame_dimensions();
    vec4 sampled_e6 = frame_sample_frame_sampler(uv);
    vec4 loaded_e8 = texel(position.xy, size_e3);
    const float _e11 = overlay.mix_amount;
    const vec4 _e15 = overlay.tint;
    vec4 _s_v1 = mix(sampled_e6, loaded_e8, _e11) * _e15;
    _s_frag0 = _s_v1;
    return;
}
