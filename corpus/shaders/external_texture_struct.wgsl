// texture_external as a resource-struct member. `video` is a parameter
// (spec/001): its data member goes into a uniform buffer at its first
// binding, and each resource member takes the next bindings in order; the
// texture_external member takes three (plane 0, plane 1, its parameter
// buffer), so `samp` comes after all three: video 5, frame 6, frame_uv 7,
// frame_params 8, samp 9. `pair` omits its binding: its six globals take
// the first free range of six in group 1 (after `other` at binding 1).
struct Video {
    frame: texture_external,
    samp: sampler,
    tint: vec4<f32>,
}
@group(2) @binding(5) var video: Video;

struct Pair {
    a: texture_external,
    b: texture_external,
}
@group(1) var pair: Pair;
@group(1) @binding(1) var other: texture_2d<f32>;
@group(0) @binding(0) var<storage, read_write> pixels: array<vec4<f32>>;

fn sampled(t: texture_external, uv: vec2<f32>) -> vec4<f32> {
    return textureSampleBaseClampToEdge(t, video.samp, uv);
}

@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let size = textureDimensions(video.frame);
    if any(id.xy >= size) {
        return;
    }
    let uv = (vec2<f32>(id.xy) + 0.5) / vec2<f32>(size);
    let a = textureLoad(pair.a, id.xy) - textureLoad(pair.b, id.xy);
    pixels[id.y * size.x + id.x] = sampled(video.frame, uv) * video.tint + a
        + textureLoad(other, vec2<i32>(id.xy), 0);
}
