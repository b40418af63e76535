// Storage textures: a compute shader reading a sampled texture and writing with
// textureStore into texture_storage_2d<rgba8unorm, write>, plus a read_write r32float image.

struct EdgeParams {
    threshold: f32,
    strength: f32,
    size: vec2<u32>,
}

@group(0) @binding(0) var input_image: texture_2d<f32>;
@group(0) @binding(1) var output_image: texture_storage_2d<rgba8unorm, write>;
@group(0) @binding(2) var edge_mask: texture_storage_2d<r32float, read_write>;
@group(0) @binding(3) var<uniform> params: EdgeParams;

fn lum_at(p: vec2<i32>) -> f32 {
    let q = clamp(p, vec2<i32>(0), vec2<i32>(params.size) - vec2<i32>(1));
    return dot(textureLoad(input_image, q, 0).rgb, vec3<f32>(0.299, 0.587, 0.114));
}

@compute @workgroup_size(8, 8)
fn sobel(@builtin(global_invocation_id) gid: vec3<u32>) {
    if any(gid.xy >= params.size) {
        return;
    }
    let p = vec2<i32>(gid.xy);
    let gx = lum_at(p + vec2<i32>(1, -1)) + 2.0 * lum_at(p + vec2<i32>(1, 0)) + lum_at(p + vec2<i32>(1, 1))
        - lum_at(p + vec2<i32>(-1, -1)) - 2.0 * lum_at(p + vec2<i32>(-1, 0)) - lum_at(p + vec2<i32>(-1, 1));
    let gy = lum_at(p + vec2<i32>(-1, 1)) + 2.0 * lum_at(p + vec2<i32>(0, 1)) + lum_at(p + vec2<i32>(1, 1))
        - lum_at(p + vec2<i32>(-1, -1)) - 2.0 * lum_at(p + vec2<i32>(0, -1)) - lum_at(p + vec2<i32>(1, -1));
    let edge = step(params.threshold, length(vec2<f32>(gx, gy)));
    let previous = textureLoad(edge_mask, p).r;
    textureStore(edge_mask, p, vec4<f32>(max(previous * 0.9, edge), 0.0, 0.0, 0.0));
    let base = textureLoad(input_image, p, 0);
    textureStore(output_image, p, vec4<f32>(mix(base.rgb, vec3<f32>(0.0), edge * params.strength), 1.0));
}
