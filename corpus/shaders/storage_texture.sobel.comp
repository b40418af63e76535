#version 450
#extension GL_EXT_samplerless_texture_functions : require

layout(local_size_x = 8, local_size_y = 8, local_size_z = 1) in;

layout(set = 0, binding = 0) uniform texture2D input_image;
layout(set = 0, binding = 1, rgba8) uniform writeonly image2D output_image;
layout(set = 0, binding = 2, r32f) uniform image2D edge_mask;
layout(set = 0, binding = 3, std140) uniform params_block {
    layout(offset = 0) float threshold;
    layout(offset = 4) float strength;
    layout(offset = 8) uvec2 size;
} params;

float lum_at(ivec2 p) {
    const uvec2 _e5 = params.size;
    const ivec2 q_e10 = clamp(p, ivec2(0), ivec2(_e5) - ivec2(1));
    const vec4 _e13 = texelFetch(input_image, clamp(q_e10, ivec2(0), textureSize(input_image, 0) - ivec2(1)), 0);
    return dot(_e13.xyz, vec3(0.299, 0.587, 0.114));
}

void main() {
    uvec3 gid = gl_GlobalInvocationID;
    const uvec2 _e4 = params.size;
    if (any(greaterThanEqual(gid.xy, _e4))) {
        return;
    }
    const ivec2 p_e8 = ivec2(gid.xy);
    float _e13 = lum_at(p_e8 + ivec2(1, -1));
    float _e18 = lum_at(p_e8 + ivec2(1, 0));
    float _e26 = lum_at(p_e8 + ivec2(1, 1));
    float _e32 = lum_at(p_e8 + ivec2(-1, -1));
    float _e38 = lum_at(p_e8 + ivec2(-1, 0));
    float _e46 = lum_at(p_e8 + ivec2(-1, 1));
    const float gx_e47 = ((((_e13 + (2.0 * _e18)) + _e26) - _e32) - (2.0 * _e38)) - _e46;
    float _e52 = lum_at(p_e8 + ivec2(-1, 1));
    float _e57 = lum_at(p_e8 + ivec2(0, 1));
    float _e65 = lum_at(p_e8 + ivec2(1, 1));
    float _e71 = lum_at(p_e8 + ivec2(-1, -1));
    float _e77 = lum_at(p_e8 + ivec2(0, -1));
    float _e85 = lum_at(p_e8 + ivec2(1, -1));
    const float gy_e86 = ((((_e52 + (2.0 * _e57)) + _e65) - _e71) - (2.0 * _e77)) - _e85;
    const float _e89 = params.threshold;
    const float edge_e92 = step(_e89, length(vec2(gx_e47, gy_e86)));
    const vec4 _e94 = imageLoad(edge_mask, clamp(p_e8, ivec2(0), imageSize(edge_mask) - ivec2(1)));
    const float previous_e95 = _e94.x;
    imageStore(edge_mask, p_e8, vec4(max(previous_e95 * 0.9, edge_e92), 0.0, 0.0, 0.0));
    const vec4 base_e106 = texelFetch(input_image, clamp(p_e8, ivec2(0), textureSize(input_image, 0) - ivec2(1)), 0);
    const float _e113 = params.strength;
    imageStore(output_image, p_e8, vec4(mix(base_e106.xyz, vec3(0.0), edge_e92 * _e113), 1.0));
    return;
}
