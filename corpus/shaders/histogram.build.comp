#version 450
#extension GL_EXT_samplerless_texture_functions : require

layout(local_size_x = 8, local_size_y = 8, local_size_z = 1) in;

const uint BIN_COUNT = 64u;

layout(set = 0, binding = 0) uniform texture2D hdr_image;
layout(set = 0, binding = 1, std140) uniform params_block {
    layout(offset = 0) float min_log_lum;
    layout(offset = 4) float inv_log_lum_range;
    layout(offset = 8) uint width;
    layout(offset = 12) uint height;
} params;
layout(set = 0, binding = 2, std430) buffer histogram_block {
    layout(offset = 0) uint value[64];
} histogram;

shared uint[64] local_bins;

uint bin_of(vec3 color) {
    const float lum_e5 = dot(color, vec3(0.2126, 0.7152, 0.0722));
    if (lum_e5 < 0.0001) {
        return 0u;
    }
    const float _e12 = params.min_log_lum;
    const float _e16 = params.inv_log_lum_range;
    const float t_e20 = clamp((log2(lum_e5) - _e12) * _e16, 0.0, 1.0);
    return uint(clamp(t_e20 * 62.0, 0.0, 4294967040.0)) + 1u;
}

void main() {
    if (gl_LocalInvocationIndex == 0u) {
        for (uint _s_z0 = 0u; _s_z0 < 64u; _s_z0++) {
            local_bins[_s_z0] = 0u;
        }
    }
    barrier();
    uvec3 gid = gl_GlobalInvocationID;
    uint lid = gl_LocalInvocationIndex;
    bool local = false;
    local_bins[min(lid, 63u)] = 0u;
    memoryBarrierShared();
    barrier();
    const uint _e8 = params.width;
    if (gid.x < _e8) {
        const uint _e15 = params.height;
        local = gid.y < _e15;
    } else {
        local = false;
    }
    const bool _e18 = local;
    if (_e18) {
        const vec4 _e23 = texelFetch(hdr_image, clamp(ivec2(uvec2(gid.xy)), ivec2(0), textureSize(hdr_image, 0) - ivec2(1)), 0);
        const vec3 c_e24 = _e23.xyz;
        uint _e26 = bin_of(c_e24);
        uint _e29 = atomicAdd(local_bins[min(_e26, 63u)], 1u);
    }
    memoryBarrierShared();
    barrier();
    const uint count_e32 = local_bins[min(lid, 63u)];
    if (count_e32 > 0u) {
        uint _e37 = atomicAdd(histogram.value[min(lid, 63u)], count_e32);
        return;
    } else {
        return;
    }
}
