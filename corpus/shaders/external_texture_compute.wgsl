// texture_external in a compute shader: every texel read with textureLoad
// (u32 coordinates), sampled with textureSampleBaseClampToEdge and sized
// with textureDimensions, written to a storage buffer. `video` omits its
// bindings: plane 0, plane 1 and the parameter buffer take the first free
// range of three in group 1 (after `lut` at binding 0).
@group(1) @binding(0) var lut: sampler;
@group(1) var video: texture_external;
@group(0) @binding(0) var<storage, read_write> pixels: array<vec4<f32>>;

@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let size = textureDimensions(video);
    if any(id.xy >= size) {
        return;
    }
    let center = (vec2<f32>(id.xy) + 0.5) / vec2<f32>(size);
    let index = id.y * size.x + id.x;
    pixels[index] = textureLoad(video, id.xy) - textureSampleBaseClampToEdge(video, lut, center);
}
