#version 450
#extension GL_EXT_samplerless_texture_functions : require

layout(local_size_x = 8, local_size_y = 8, local_size_z = 1) in;

layout(set = 0, binding = 0, std140) uniform params_block {
    layout(offset = 0) ivec2 origin;
    layout(offset = 8) int layer;
    layout(offset = 12) float gain;
} params;
layout(set = 0, binding = 1) uniform texture2D src;
layout(set = 0, binding = 2, rgba8) uniform writeonly image2D dst;
layout(set = 0, binding = 3, rgba8) uniform writeonly image2DArray layers;

void main() {
    uvec3 gid = gl_GlobalInvocationID;
    const ivec2 _e3 = params.origin;
    const ivec2 p_e6 = _e3 + ivec2(gid.xy);
    if (any(greaterThanEqual(p_e6, ivec2(uvec2(imageSize(dst)))))) {
        return;
    }
    const vec4 c_e14 = texelFetch(src, clamp(p_e6, ivec2(0), textureSize(src, 0) - ivec2(1)), 0);
    imageStore(dst, p_e6, c_e14.bgra);
    const int _e19 = params.layer;
    const float _e23 = params.gain;
    imageStore(layers, ivec3(p_e6, _e19), vec4(c_e14.xyz * _e23, 1.0).bgra);
    return;
}
