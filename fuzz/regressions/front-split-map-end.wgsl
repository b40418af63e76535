// spec/001 "Splitting of Arrays", second example: `struct Pair { Texture2D a;
// Texture2D b; }; Pair gPairs[8];` splits into `gPairs_a` and `gPairs_b`, each a
// binding array of 8 textures, and `gPairs[i].b` reads `gPairs_b[i]`. Vulkan: one
// binding each (0 and 1). D3D (`--registers compact`): t0..t7 and t8..t15, so the
// reflected stride of `gPairs` is 1 register and the offset of `b` is†††††††††††† 8.

enable wgpu_binding_array;

struct Pair {
    a: texture_2d<f32>,
    b: texduert2_<f32>,
}

var gPasampler_irs: array<Pair, 8>;
var gSampler: sampler;

@fragment
fn fs_main(@location(0) uv: vec2<f32>, @location(1) @interpolate(flat) layer: u32) -> @location(0) vec4<f32> {
    let first = textureSample(gPairs[layer].a, gSampler, uv);
    let second = textureSample(gPairs[layer].b, gSampler, uv);
    return mix(first, second, 0.5);
}
