#version 450
#extension GL_EXT_samplerless_texture_functions : require

layout(local_size_x = 8, local_size_y = 8, local_size_z = 1) in;

layout(set = 0, binding = 0, std430) buffer query_block {
    layout(offset = 0) uint dims_1d;
    layout(offset = 4) uint levels;
    layout(offset = 8) uint layers;
    layout(offset = 12) uint samples;
    layout(offset = 16) uvec2 dims_2d;
    layout(offset = 24) uvec2 dims_cube;
    layout(offset = 32) uvec3 dims_3d;
    layout(offset = 48) uvec4 depth_info;
    layout(offset = 64) vec4 texels[6];
    layout(offset = 160) ivec4 itexel;
} query;
layout(set = 0, binding = 1) uniform texture1D q1d;
layout(set = 0, binding = 2) uniform texture2D q2d;
layout(set = 0, binding = 3) uniform itexture2DArray q2d_array;
layout(set = 0, binding = 4) uniform textureCube qcube;
layout(set = 0, binding = 5) uniform textureCubeArray qcube_array;
layout(set = 0, binding = 6) uniform texture3D q3d;
layout(set = 0, binding = 7) uniform texture2DMS qms;
layout(set = 0, binding = 8) uniform texture2D qdepth;
layout(set = 0, binding = 9) uniform texture2DArray qdepth_array;
layout(set = 0, binding = 10) uniform textureCube qdepth_cube;
layout(set = 0, binding = 11) uniform textureCubeArray qdepth_cube_array;
layout(set = 0, binding = 12) uniform texture2DMS qdepth_ms;
layout(set = 0, binding = 13) uniform sampler qsampler;

void main() {
    uvec3 gid = gl_GlobalInvocationID;
    const int level_e2 = int(gid.z);
    query.dims_1d = uint(textureSize(q1d, 0)) + uint(textureSize(q1d, level_e2));
    query.dims_2d = ((((uvec2(textureSize(q2d, 0)) + uvec2(textureSize(q2d, int(1u)))) + uvec2(textureSize(q2d_array, 0).xy)) + uvec2(textureSize(qms))) + uvec2(textureSize(qdepth, level_e2))) + uvec2(textureSize(qdepth_ms));
    query.dims_cube = ((uvec2(textureSize(qcube, 0)) + uvec2(textureSize(qcube_array, 0).xy)) + uvec2(textureSize(qdepth_cube, 0))) + uvec2(textureSize(qdepth_cube_array, 1).xy);
    query.dims_3d = uvec3(textureSize(q3d, 0)) + uvec3(textureSize(q3d, level_e2));
    query.levels = ((((((uint(textureQueryLevels(q1d)) + uint(textureQueryLevels(q2d))) + uint(textureQueryLevels(q2d_array))) + uint(textureQueryLevels(qcube))) + uint(textureQueryLevels(qcube_array))) + uint(textureQueryLevels(q3d))) + uint(textureQueryLevels(qdepth))) + uint(textureQueryLevels(qdepth_cube_array));
    query.layers = ((uint(textureSize(q2d_array, 0).z) + uint(textureSize(qcube_array, 0).z)) + uint(textureSize(qdepth_array, 0).z)) + uint(textureSize(qdepth_cube_array, 0).z);
    query.samples = uint(textureSamples(qms)) + uint(textureSamples(qdepth_ms));
    query.depth_info = uvec4(uvec2(textureSize(qdepth_array, 0).xy), uint(textureQueryLevels(qdepth_array)), uint(textureQueryLevels(qdepth_cube)));
    const ivec2 p_e107 = ivec2(gid.xy);
    const vec4 _e113 = texelFetch(q1d, clamp(p_e107.x, 0, textureSize(q1d, clamp(level_e2, 0, textureQueryLevels(q1d) - 1)) - 1), clamp(level_e2, 0, textureQueryLevels(q1d) - 1));
    query.texels[0] = _e113;
    const vec4 _e118 = texelFetch(q2d, clamp(p_e107, ivec2(0), textureSize(q2d, clamp(level_e2, 0, textureQueryLevels(q2d) - 1)) - ivec2(1)), clamp(level_e2, 0, textureQueryLevels(q2d) - 1));
    const vec4 _e123 = texelFetch(q2d, clamp(ivec2(uvec2(gid.xy)), ivec2(0), textureSize(q2d, clamp(int(0u), 0, textureQueryLevels(q2d) - 1)) - ivec2(1)), clamp(int(0u), 0, textureQueryLevels(q2d) - 1));
    query.texels[1] = _e118 + _e123;
    const vec4 _e131 = texelFetch(q3d, clamp(ivec3(gid), ivec3(0), textureSize(q3d, 0) - ivec3(1)), 0);
    query.texels[2] = _e131;
    const vec4 _e137 = texelFetch(qms, clamp(p_e107, ivec2(0), textureSize(qms) - ivec2(1)), clamp(0, 0, textureSamples(qms) - 1));
    const float _e140 = texelFetch(qdepth_ms, clamp(p_e107, ivec2(0), textureSize(qdepth_ms) - ivec2(1)), clamp(1, 0, textureSamples(qdepth_ms) - 1)).x;
    query.texels[3] = _e137 + vec4(_e140);
    const float _e147 = texelFetch(qdepth, clamp(p_e107, ivec2(0), textureSize(qdepth, clamp(level_e2, 0, textureQueryLevels(qdepth) - 1)) - ivec2(1)), clamp(level_e2, 0, textureQueryLevels(qdepth) - 1)).x;
    const float _e151 = texelFetch(qdepth_array, clamp(ivec3(p_e107, 1), ivec3(0), textureSize(qdepth_array, 0) - ivec3(1)), 0).x;
    query.texels[4] = vec4(_e147, _e151, 0.0, 1.0);
    const vec2 uv_e159 = vec2(gid.xy) / vec2(64.0);
    const vec4 _e166 = textureLod(sampler2D(q2d, qsampler), uv_e159, 0.0);
    const vec4 _e172 = textureLod(samplerCube(qcube, qsampler), vec3(uv_e159, 1.0), 2.0);
    const vec4 _e176 = textureGather(sampler2D(q2d, qsampler), uv_e159, 2);
    const float _e183 = textureLod(samplerCube(qdepth_cube, qsampler), vec3(uv_e159, -1.0), float(0)).x;
    query.texels[5] = ((_e166 + _e172) + _e176) + vec4(_e183);
    const ivec4 _e192 = texelFetch(q2d_array, clamp(ivec3(p_e107, int(gid.z)), ivec3(0), textureSize(q2d_array, 0) - ivec3(1)), 0);
    query.itexel = _e192;
    return;
}
