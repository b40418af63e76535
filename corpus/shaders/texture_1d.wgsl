// 1D textures, which GLSL ES lacks: a sampled texture_1d (textureSampleLevel, textureLoad,
// textureDimensions at two levels) and a read_write texture_storage_1d<r32float> (load, store,
// dimensions). ES declares both as 2D textures of height 1: x becomes (x, 0) for texel
// accesses and (x, 0.5) for sampling, and the size is the width of the 2D size.

@group(0) @binding(0) var t: texture_1d<f32>;
@group(0) @binding(1) var s: sampler;
@group(0) @binding(2) var st: texture_storage_1d<r32float, read_write>;
@group(0) @binding(3) var<storage, read_write> out: array<vec4<f32>>;
@compute @workgroup_size(1)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let x = f32(id.x) / 8.0;
    out[0] = textureSampleLevel(t, s, x, 0.0);
    out[1] = textureLoad(t, i32(id.x), 0);
    out[2] = vec4<f32>(f32(textureDimensions(t)), f32(textureDimensions(t, 1)), f32(textureDimensions(st)), 0.0);
    let v = textureLoad(st, id.x);
    textureStore(st, id.x, v + vec4<f32>(1.0));
}
