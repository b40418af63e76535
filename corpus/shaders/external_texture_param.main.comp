#version 450
#extension GL_EXT_samplerless_texture_functions : require

layout(local_size_x = 8, local_size_y = 8, local_size_z = 1) in;

struct ExternalTextureTransferFn {
    float a;
    float b;
    float g;
    float k;
};

layout(set = 0, binding = 0) uniform texture2D video;
layout(set = 0, binding = 1) uniform texture2D video_uv;
layout(set = 0, binding = 2, std140) uniform video_params_block {
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
} video_params;
layout(set = 0, binding = 3) uniform sampler lut;
layout(set = 1, binding = 0, std430) buffer pixels_block {
    layout(offset = 0) vec4 value[];
} pixels;

vec4 external_texture_yuv_to_rgb(float y, vec2 uv, mat4 yuv, mat3 gamut, ExternalTextureTransferFn src, ExternalTextureTransferFn dst) {
    const vec3 gamma_e9 = (yuv * vec4(y, uv, 1.0)).xyz;
    const vec3 linear_e30 = mix(pow(((gamma_e9 + vec3(src.a)) - vec3(1.0)) / vec3(src.a), vec3(src.g)), gamma_e9 / vec3(src.k), lessThan(gamma_e9, vec3(src.k * src.b)));
    const vec3 out_e31 = gamut * linear_e30;
    const vec3 encoded_e49 = mix((dst.a * pow(out_e31, vec3(1.0 / dst.g))) - vec3(dst.a - 1.0), dst.k * out_e31, lessThan(out_e31, vec3(dst.b)));
    return vec4(encoded_e49, 1.0);
}

vec4 video_load(uvec2 coords) {
    const uvec2 size0_e2 = uvec2(textureSize(video, 0));
    const uvec2 _e5 = video_params.size;
    const uvec2 _e8 = video_params.size;
    const uvec2 size_e13 = any(notEqual(_e8, uvec2(0u))) ? _e5 : size0_e2;
    const vec3 c_e20 = vec3(vec2(min(coords, size_e13 - uvec2(1u))), 1.0);
    const mat3x2 _e23 = mat3x2(video_params.load_transform_c0, video_params.load_transform_c1, video_params.load_transform_c2);
    const uvec2 c0_e26 = uvec2(clamp(roundEven(_e23 * c_e20), 0.0, 4294967040.0));
    const uint _e29 = video_params.num_planes;
    if (_e29 == 1u) {
        const vec4 _e33 = texelFetch(video, clamp(ivec2(c0_e26), ivec2(0), textureSize(video, 0) - ivec2(1)), 0);
        return _e33;
    }
    const uvec2 c1_e42 = uvec2(clamp(floor((vec2(c0_e26) * vec2(uvec2(textureSize(video_uv, 0)))) / vec2(size0_e2)), 0.0, 4294967040.0));
    const vec4 _e44 = texelFetch(video, clamp(ivec2(c0_e26), ivec2(0), textureSize(video, 0) - ivec2(1)), 0);
    const vec4 _e48 = texelFetch(video_uv, clamp(ivec2(c1_e42), ivec2(0), textureSize(video_uv, 0) - ivec2(1)), 0);
    const mat4 _e52 = video_params.yuv_conversion_matrix;
    const mat3 _e55 = video_params.gamut_conversion_matrix;
    const ExternalTextureTransferFn _e58 = video_params.src_tf;
    const ExternalTextureTransferFn _e61 = video_params.dst_tf;
    vec4 _e62 = external_texture_yuv_to_rgb(_e44.x, _e48.xy, _e52, _e55, _e58, _e61);
    return _e62;
}

vec4 video_sample_lut(vec2 coords_1) {
    const mat3x2 m_e5 = mat3x2(video_params.sample_transform_c0, video_params.sample_transform_c1, video_params.sample_transform_c2);
    const vec2 c_e8 = m_e5 * vec3(coords_1, 1.0);
    const vec2 corner0_e13 = m_e5 * vec3(0.0, 0.0, 1.0);
    const vec2 corner1_e18 = m_e5 * vec3(1.0, 1.0, 1.0);
    const vec2 lo_e19 = min(corner0_e13, corner1_e18);
    const vec2 hi_e20 = max(corner0_e13, corner1_e18);
    const vec2 half0_e25 = vec2(0.5) / vec2(uvec2(textureSize(video, 0)));
    const vec2 c0_e28 = clamp(c_e8, lo_e19 + half0_e25, hi_e20 - half0_e25);
    const uint _e31 = video_params.num_planes;
    if (_e31 == 1u) {
        const vec4 _e35 = textureLod(sampler2D(video, lut), c0_e28, 0.0);
        return _e35;
    }
    const vec2 half1_e41 = vec2(0.5) / vec2(uvec2(textureSize(video_uv, 0)));
    const vec2 c1_e44 = clamp(c_e8, lo_e19 + half1_e41, hi_e20 - half1_e41);
    const vec4 _e46 = textureLod(sampler2D(video, lut), c0_e28, 0.0);
    const vec4 _e50 = textureLod(sampler2D(video_uv, lut), c1_e44, 0.0);
    const mat4 _e54 = video_params.yuv_conversion_matrix;
    const mat3 _e57 = video_params.gamut_conversion_matrix;
    const ExternalTextureTransferFn _e60 = video_params.src_tf;
    const ExternalTextureTransferFn _e63 = video_params.dst_tf;
    vec4 _e64 = external_texture_yuv_to_rgb(_e46.x, _e50.xy, _e54, _e57, _e60, _e63);
    return _e64;
}

uvec2 video_dimensions() {
    const uvec2 size_e3 = video_params.size;
    return any(notEqual(size_e3, uvec2(0u))) ? size_e3 : uvec2(textureSize(video, 0));
}

vec4 fetch(uvec2 at) {
    vec4 _e2 = video_load(uvec2(at));
    return _e2;
}

vec4 shade(uvec2 id_1) {
    uvec2 size_e2 = video_dimensions();
    const vec2 center_e8 = (vec2(id_1) + vec2(0.5)) / vec2(size_e2);
    vec4 _e13 = fetch(min(id_1, size_e2 - uvec2(1u)));
    vec4 _e15 = video_sample_lut(center_e8);
    return _e13 - _e15;
}

void main() {
    uvec3 id = gl_GlobalInvocationID;
    uvec2 size_e2 = video_dimensions();
    if (any(greaterThanEqual(id.xy, size_e2))) {
        return;
    }
    vec4 _e15 = shade(id.xy);
    pixels.value[min((id.y * size_e2.x) + id.x, uint(pixels.value.length()) - 1u)] = _e15;
    return;
}
