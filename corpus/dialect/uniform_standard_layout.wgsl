// `requires uniform_buffer_standard_layout;` (a WGSL language extension naga
// 30 does not know yet): uniform buffers take the storage layout rules, so
// arrays with 4- and 8-byte strides, an 8-byte struct and a struct at offset
// 28 are valid in a uniform. SPIR-V needs `uniformBufferStandardLayout`
// (warned, spirv-val's `--uniform-buffer-standard-layout`); GLSL, HLSL and
// Slang declare the buffer as 16-byte words (`uvec4`/`uint4`), read at the
// contract's offsets, since std140 and D3D's cbuffer packing cannot hold it.
requires uniform_buffer_standard_layout;

struct Pair {
    a: f32,
    b: u32,
}

struct Params {
    pairs: array<Pair, 3>,
    scale: f32,
    inner: Pair,
    weights: array<f32, 5>,
    tail: vec2<f32>,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read_write> result: array<f32>;

@compute @workgroup_size(1)
fn main() {
    let whole = params;
    var sum = params.scale + f32(params.inner.b) + params.tail.y;
    for (var i = 0u; i < 3u; i++) {
        sum += params.pairs[i].a + f32(whole.pairs[i].b);
    }
    for (var i = 0u; i < 5u; i++) {
        sum += params.weights[i];
    }
    result[0] = sum;
}
