// texture_external passed to functions: `shade` and `fetch` take the
// texture as a parameter, and every call passes `video`, so stride binds
// the parameter to `video` (the parameter goes, the calls drop the
// argument) and lowers its builtins as it does for the variable itself.
// A function called with two different textures would be an error at the
// function.
@group(0) @binding(0) var video: texture_external;
@group(0) @binding(3) var lut: sampler;
@group(1) @binding(0) var<storage, read_write> pixels: array<vec4<f32>>;

fn fetch(t: texture_external, at: vec2<u32>) -> vec4<f32> {
    return textureLoad(t, at);
}

fn shade(t: texture_external, id: vec2<u32>) -> vec4<f32> {
    let size = textureDimensions(t);
    let center = (vec2<f32>(id) + 0.5) / vec2<f32>(size);
    return fetch(t, min(id, size - 1u)) - textureSampleBaseClampToEdge(t, lut, center);
}

@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let size = textureDimensions(video);
    if any(id.xy >= size) {
        return;
    }
    pixels[id.y * size.x + id.x] = shade(video, id.xy);
}
