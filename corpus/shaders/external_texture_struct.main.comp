#version 450
#extension GL_EXT_samplerless_texture_functions : require

layout(local_size_x = 8, local_size_y = 8, local_size_z = 1) in;

struct ExternalTextureTransferFn {
    float a;
    float b;
    float g;
    float k;
};

layout(set = 2, binding = 5, std140) uniform video_block {
    layout(offset = 0) vec4 tint;
} video;
layout(set = 2, binding = 6) uniform texture2D video_frame;
layout(set = 2, binding = 9) uniform sampler video_samp;
layout(set = 2, binding = 7) uniform texture2D video_frame_uv;
layout(set = 2, binding = 8, std140) uniform video_frame_params_block {
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
} video_frame_params;
layout(set = 1, binding = 2) uniform texture2D pair_a;
layout(set = 1, binding = 5) uniform texture2D pair_b;
layout(set = 1, binding = 3) uniform texture2D pair_a_uv;
layout(set = 1, binding = 4, std140) uniform pair_a_params_block {
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
} pair_a_params;
layout(set = 1, binding = 6) uniform texture2D pair_b_uv;
layout(set = 1, binding = 7, std140) uniform pair_b_params_block {
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
} pair_b_params;
layout(set = 1, binding = 1) uniform texture2D other;
layout(set = 0, binding = 0, std430) buffer pixels_block {
    layout(offset = 0) vec4 value[];
} pixels;

vec4 external_texture_yuv_to_rgb(float y, vec2 uv, mat4 yuv, mat3 gamut, ExternalTextureTransferFn src, ExternalTextureTransferFn dst) {
    const vec3 gamma_e9 = (yuv * vec4(y, uv, 1.0)).xyz;
    const vec3 linear_e30 = mix(pow(((gamma_e9 + vec3(src.a)) - vec3(1.0)) / vec3(src.a), vec3(src.g)), gamma_e9 / vec3(src.k), lessThan(gamma_e9, vec3(src.k * src.b)));
    const vec3 out_e31 = gamut * linear_e30;
    const vec3 encoded_e49 = mix((dst.a * pow(out_e31, vec3(1.0 / dst.g))) - vec3(dst.a - 1.0), dst.k * out_e31, lessThan(out_e31, vec3(dst.b)));
    return vec4(encoded_e49, 1.0);
}

vec4 video_frame_sample_video_samp(vec2 coords_1) {
    const mat3x2 m_e5 = mat3x2(video_frame_params.sample_transform_c0, video_frame_params.sample_transform_c1, video_frame_params.sample_transform_c2);
    const vec2 c_e8 = m_e5 * vec3(coords_1, 1.0);
    const vec2 corner0_e13 = m_e5 * vec3(0.0, 0.0, 1.0);
    const vec2 corner1_e18 = m_e5 * vec3(1.0, 1.0, 1.0);
    const vec2 lo_e19 = min(corner0_e13, corner1_e18);
    const vec2 hi_e20 = max(corner0_e13, corner1_e18);
    const vec2 half0_e25 = vec2(0.5) / vec2(uvec2(textureSize(video_frame, 0)));
    const vec2 c0_e28 = clamp(c_e8, lo_e19 + half0_e25, hi_e20 - half0_e25);
    const uint _e31 = video_frame_params.num_planes;
    if (_e31 == 1u) {
        const vec4 _e35 = textureLod(sampler2D(video_frame, video_samp), c0_e28, 0.0);
        return _e35;
    }
    const vec2 half1_e41 = vec2(0.5) / vec2(uvec2(textureSize(video_frame_uv, 0)));
    const vec2 c1_e44 = clamp(c_e8, lo_e19 + half1_e41, hi_e20 - half1_e41);
    const vec4 _e46 = textureLod(sampler2D(video_frame, video_samp), c0_e28, 0.0);
    const vec4 _e50 = textureLod(sampler2D(video_frame_uv, video_samp), c1_e44, 0.0);
    const mat4 _e54 = video_frame_params.yuv_conversion_matrix;
    const mat3 _e57 = video_frame_params.gamut_conversion_matrix;
    const ExternalTextureTransferFn _e60 = video_frame_params.src_tf;
    const ExternalTextureTransferFn _e63 = video_frame_params.dst_tf;
    vec4 _e64 = external_texture_yuv_to_rgb(_e46.x, _e50.xy, _e54, _e57, _e60, _e63);
    return _e64;
}

uvec2 video_frame_dimensions() {
    const uvec2 size_e3 = video_frame_params.size;
    return any(notEqual(size_e3, uvec2(0u))) ? size_e3 : uvec2(textureSize(video_frame, 0));
}

vec4 pair_a_load(uvec2 coords_2) {
    const uvec2 size0_e2 = uvec2(textureSize(pair_a, 0));
    const uvec2 _e5 = pair_a_params.size;
    const uvec2 _e8 = pair_a_params.size;
    const uvec2 size_e13 = any(notEqual(_e8, uvec2(0u))) ? _e5 : size0_e2;
    const vec3 c_e20 = vec3(vec2(min(coords_2, size_e13 - uvec2(1u))), 1.0);
    const mat3x2 _e23 = mat3x2(pair_a_params.load_transform_c0, pair_a_params.load_transform_c1, pair_a_params.load_transform_c2);
    const uvec2 c0_e26 = uvec2(clamp(roundEven(_e23 * c_e20), 0.0, 4294967040.0));
    const uint _e29 = pair_a_params.num_planes;
    if (_e29 == 1u) {
        const vec4 _e33 = texelFetch(pair_a, clamp(ivec2(c0_e26), ivec2(0), textureSize(pair_a, 0) - ivec2(1)), 0);
        return _e33;
    }
    const uvec2 c1_e42 = uvec2(clamp(floor((vec2(c0_e26) * vec2(uvec2(textureSize(pair_a_uv, 0)))) / vec2(size0_e2)), 0.0, 4294967040.0));
    const vec4 _e44 = texelFetch(pair_a, clamp(ivec2(c0_e26), ivec2(0), textureSize(pair_a, 0) - ivec2(1)), 0);
    const vec4 _e48 = texelFetch(pair_a_uv, clamp(ivec2(c1_e42), ivec2(0), textureSize(pair_a_uv, 0) - ivec2(1)), 0);
    const mat4 _e52 = pair_a_params.yuv_conversion_matrix;
    const mat3 _e55 = pair_a_params.gamut_conversion_matrix;
    const ExternalTextureTransferFn _e58 = pair_a_params.src_tf;
    const ExternalTextureTransferFn _e61 = pair_a_params.dst_tf;
    vec4 _e62 = external_texture_yuv_to_rgb(_e44.x, _e48.xy, _e52, _e55, _e58, _e61);
    return _e62;
}

vec4 pair_b_load(uvec2 coords_4) {
    const uvec2 size0_e2 = uvec2(textureSize(pair_b, 0));
    const uvec2 _e5 = pair_b_params.size;
    const uvec2 _e8 = pair_b_params.size;
    const uvec2 size_e13 = any(notEqual(_e8, uvec2(0u))) ? _e5 : size0_e2;
    const vec3 c_e20 = vec3(vec2(min(coords_4, size_e13 - uvec2(1u))), 1.0);
    const mat3x2 _e23 = mat3x2(pair_b_params.load_transform_c0, pair_b_params.load_transform_c1, pair_b_params.load_transform_c2);
    const uvec2 c0_e26 = uvec2(clamp(roundEven(_e23 * c_e20), 0.0, 4294967040.0));
    const uint _e29 = pair_b_params.num_planes;
    if (_e29 == 1u) {
        const vec4 _e33 = texelFetch(pair_b, clamp(ivec2(c0_e26), ivec2(0), textureSize(pair_b, 0) - ivec2(1)), 0);
        return _e33;
    }
    const uvec2 c1_e42 = uvec2(clamp(floor((vec2(c0_e26) * vec2(uvec2(textureSize(pair_b_uv, 0)))) / vec2(size0_e2)), 0.0, 4294967040.0));
    const vec4 _e44 = texelFetch(pair_b, clamp(ivec2(c0_e26), ivec2(0), textureSize(pair_b, 0) - ivec2(1)), 0);
    const vec4 _e48 = texelFetch(pair_b_uv, clamp(ivec2(c1_e42), ivec2(0), textureSize(pair_b_uv, 0) - ivec2(1)), 0);
    const mat4 _e52 = pair_b_params.yuv_conversion_matrix;
    const mat3 _e55 = pair_b_params.gamut_conversion_matrix;
    const ExternalTextureTransferFn _e58 = pair_b_params.src_tf;
    const ExternalTextureTransferFn _e61 = pair_b_params.dst_tf;
    vec4 _e62 = external_texture_yuv_to_rgb(_e44.x, _e48.xy, _e52, _e55, _e58, _e61);
    return _e62;
}

vec4 sampled(vec2 uv_1) {
    vec4 _e3 = video_frame_sample_video_samp(uv_1);
    return _e3;
}

void main() {
    uvec3 id = gl_GlobalInvocationID;
    uvec2 size_e2 = video_frame_dimensions();
    if (any(greaterThanEqual(id.xy, size_e2))) {
        return;
    }
    const vec2 uv_e12 = (vec2(id.xy) + vec2(0.5)) / vec2(size_e2);
    vec4 _e15 = pair_a_load(uvec2(id.xy));
    vec4 _e18 = pair_b_load(uvec2(id.xy));
    const vec4 a_e19 = _e15 - _e18;
    vec4 _e28 = sampled(uv_e12);
    const vec4 _e31 = video.tint;
    const vec4 _e38 = texelFetch(other, clamp(ivec2(id.xy), ivec2(0), textureSize(other, 0) - ivec2(1)), 0);
    pixels.value[min((id.y * size_e2.x) + id.x, uint(pixels.value.length()) - 1u)] = ((_e28 * _e31) + a_e19) + _e38;
    return;
}
