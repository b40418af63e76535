// Storage textures of several dimensions, formats and accesses: write-only 1d, 2d,
// 2d_array and 3d; read-only and read_write images (r32float, r32uint, r32sint, rgba8unorm,
// rgba8snorm, rgba16float, rg32float, rgba32uint, rgba16sint); textureLoad, textureStore,
// textureDimensions and textureBarrier, driven by a storage buffer of jobs. (textureNumLayers of
// a storage texture is left out: naga 30's SPIR-V writer uses OpImageQuerySizeLod, which
// spirv-val rejects for storage images.)

struct Job {
    origin: vec2<i32>,
    layer: i32,
    gain: f32,
}

@group(0) @binding(0) var<storage, read> jobs: array<Job>;
@group(0) @binding(1) var out_1d: texture_storage_1d<rgba8unorm, write>;
@group(0) @binding(2) var out_2d: texture_storage_2d<rgba16float, write>;
@group(0) @binding(3) var out_array: texture_storage_2d_array<rgba8snorm, write>;
@group(0) @binding(4) var out_3d: texture_storage_3d<rg32float, write>;
@group(1) @binding(0) var in_2d: texture_storage_2d<rgba32uint, read>;
@group(1) @binding(1) var in_array: texture_storage_2d_array<rgba16sint, read>;
@group(1) @binding(2) var acc_f: texture_storage_2d<r32float, read_write>;
@group(1) @binding(3) var acc_u: texture_storage_2d<r32uint, read_write>;
@group(1) @binding(4) var acc_i: texture_storage_3d<r32sint, read_write>;
@group(1) @binding(5) var acc_rgba: texture_storage_2d<rgba8unorm, read_write>;

@compute @workgroup_size(8, 8, 1)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(workgroup_id) wg: vec3<u32>) {
    let job = jobs[wg.x % arrayLength(&jobs)];
    let p = job.origin + vec2<i32>(gid.xy);
    let size = vec2<i32>(textureDimensions(out_2d));
    if any(p >= size) {
        return;
    }
    let raw = textureLoad(in_2d, p);
    let layered = textureLoad(in_array, p, job.layer);
    let fv = vec4<f32>(raw) * job.gain + vec4<f32>(layered);
    textureStore(out_1d, p.x, fv * 0.5);
    textureStore(out_2d, p, fv);
    textureStore(out_array, p, job.layer, clamp(fv, vec4<f32>(-1.0), vec4<f32>(1.0)));
    textureStore(out_3d, vec3<i32>(p, i32(gid.z)), vec4<f32>(fv.xy, 0.0, 1.0));

    let f = textureLoad(acc_f, p).x;
    textureStore(acc_f, p, vec4<f32>(f + job.gain));
    let u = textureLoad(acc_u, vec2<u32>(p)).x;
    textureStore(acc_u, vec2<u32>(p), vec4<u32>(u + 1u));
    let q = vec3<i32>(p, job.layer);
    let i = textureLoad(acc_i, q).x;
    textureStore(acc_i, q, vec4<i32>(i - 1));
    textureBarrier();
    let c = textureLoad(acc_rgba, p);
    textureStore(acc_rgba, p, c.bgra);
    let d1 = textureDimensions(out_1d) + textureDimensions(acc_i).z + textureDimensions(in_array).x + textureDimensions(out_3d).y;
    if d1 == 0u {
        textureStore(acc_u, vec2<i32>(0), vec4<u32>(textureDimensions(in_array).y));
    }
}
