#version 450

layout(local_size_x = 8, local_size_y = 8, local_size_z = 1) in;

struct Job {
    ivec2 origin;
    int layer;
    float gain;
};

layout(set = 0, binding = 0, std430) readonly buffer jobs_block {
    layout(offset = 0) Job value[];
} jobs;
layout(set = 0, binding = 1, rgba8) uniform writeonly image1D out_1d;
layout(set = 0, binding = 2, rgba16f) uniform writeonly image2D out_2d;
layout(set = 0, binding = 3, rgba8_snorm) uniform writeonly image2DArray out_array;
layout(set = 0, binding = 4, rg32f) uniform writeonly image3D out_3d;
layout(set = 1, binding = 0, rgba32ui) uniform readonly uimage2D in_2d;
layout(set = 1, binding = 1, rgba16i) uniform readonly iimage2DArray in_array;
layout(set = 1, binding = 2, r32f) uniform image2D acc_f;
layout(set = 1, binding = 3, r32ui) uniform uimage2D acc_u;
layout(set = 1, binding = 4, r32i) uniform iimage3D acc_i;
layout(set = 1, binding = 5, rgba8) uniform image2D acc_rgba;

uint _s_mod_uint(uint a, uint b) {
    return a % (b == 0u ? 1u : b);
}

void main() {
    uvec3 gid = gl_GlobalInvocationID;
    uvec3 wg = gl_WorkGroupID;
    const Job job_e8 = jobs.value[min(_s_mod_uint(wg.x, uint(jobs.value.length())), uint(jobs.value.length()) - 1u)];
    const ivec2 p_e12 = job_e8.origin + ivec2(gid.xy);
    const ivec2 size_e15 = ivec2(uvec2(imageSize(out_2d)));
    if (any(greaterThanEqual(p_e12, size_e15))) {
        return;
    }
    const uvec4 raw_e19 = imageLoad(in_2d, clamp(p_e12, ivec2(0), imageSize(in_2d) - ivec2(1)));
    const ivec4 layered_e22 = imageLoad(in_array, clamp(ivec3(p_e12, job_e8.layer), ivec3(0), imageSize(in_array) - ivec3(1)));
    const vec4 fv_e27 = (vec4(raw_e19) * job_e8.gain) + vec4(layered_e22);
    imageStore(out_1d, p_e12.x, fv_e27 * 0.5);
    imageStore(out_2d, p_e12, fv_e27);
    imageStore(out_array, ivec3(p_e12, job_e8.layer), clamp(fv_e27, vec4(-1.0), vec4(1.0)));
    imageStore(out_3d, ivec3(p_e12, int(gid.z)), vec4(fv_e27.xy, 0.0, 1.0));
    const vec4 _e49 = imageLoad(acc_f, clamp(p_e12, ivec2(0), imageSize(acc_f) - ivec2(1)));
    const float f_e50 = _e49.x;
    imageStore(acc_f, p_e12, vec4(f_e50 + job_e8.gain));
    const uvec4 _e57 = imageLoad(acc_u, clamp(ivec2(uvec2(p_e12)), ivec2(0), imageSize(acc_u) - ivec2(1)));
    const uint u_e58 = _e57.x;
    imageStore(acc_u, ivec2(uvec2(p_e12)), uvec4(u_e58 + 1u));
    const ivec3 q_e65 = ivec3(p_e12, job_e8.layer);
    const ivec4 _e67 = imageLoad(acc_i, clamp(q_e65, ivec3(0), imageSize(acc_i) - ivec3(1)));
    const int i_e68 = _e67.x;
    imageStore(acc_i, q_e65, ivec4(i_e68 - 1));
    memoryBarrierImage();
    barrier();
    const vec4 c_e74 = imageLoad(acc_rgba, clamp(p_e12, ivec2(0), imageSize(acc_rgba) - ivec2(1)));
    imageStore(acc_rgba, p_e12, c_e74.zyxw);
    const uint d1_e90 = ((uint(imageSize(out_1d)) + uvec3(imageSize(acc_i)).z) + uvec2(imageSize(in_array).xy).x) + uvec3(imageSize(out_3d)).y;
    if (d1_e90 == 0u) {
        imageStore(acc_u, ivec2(0), uvec4(uvec2(imageSize(in_array).xy).y));
        return;
    } else {
        return;
    }
}
