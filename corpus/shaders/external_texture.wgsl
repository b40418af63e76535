// texture_external in a fragment shader: textureSampleBaseClampToEdge,
// textureLoad and textureDimensions on a video frame, with explicit
// bindings. stride lowers `frame` into plane 0 (binding 0), plane 1
// (`frame_uv`) and a uniform buffer of conversion parameters
// (`frame_params`), allocated after the explicit bindings of group 0.
// `texel` calls textureLoad from a function of its own.
@group(0) @binding(0) var frame: texture_external;
@group(0) @binding(1) var frame_sampler: sampler;

struct Overlay {
    tint: vec4<f32>,
    mix_amount: f32,
}
@group(0) @binding(2) var<uniform> overlay: Overlay;

fn texel(position: vec2<f32>, size: vec2<u32>) -> vec4<f32> {
    return textureLoad(frame, vec2<i32>(position) % vec2<i32>(size));
}

@fragment
fn fs_main(@builtin(position) position: vec4<f32>, @location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {
    let size = textureDimensions(frame);
    let sampled = textureSampleBaseClampToEdge(frame, frame_sampler, uv);
    let loaded = texel(position.xy, size);
    return mix(sampled, loaded, overlay.mix_amount) * overlay.tint;
}
