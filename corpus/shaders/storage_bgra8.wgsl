// Write-only bgra8unorm storage textures, which GLSL has no format qualifier for: GLSL
// declares them rgba8 and swizzles every stored texel with .bgra (the host binds the
// texture's bytes viewed as rgba8), on every dialect, ES included. (Reading one is checked in
// tests/glsl.rs: naga 30's SPIR-V writer reads it without StorageImageReadWithoutFormat, which
// spirv-val rejects.)

struct Params {
    origin: vec2<i32>,
    layer: i32,
    gain: f32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var src: texture_2d<f32>;
@group(0) @binding(2) var dst: texture_storage_2d<bgra8unorm, write>;
@group(0) @binding(3) var layers: texture_storage_2d_array<bgra8unorm, write>;

@compute @workgroup_size(8, 8, 1)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let p = params.origin + vec2<i32>(gid.xy);
    if any(p >= vec2<i32>(textureDimensions(dst))) {
        return;
    }
    let c = textureLoad(src, p, 0);
    textureStore(dst, p, c);
    textureStore(layers, p, params.layer, vec4<f32>(c.rgb * params.gain, 1.0));
}
