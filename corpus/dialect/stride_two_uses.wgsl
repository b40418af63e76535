// One array type, array<f32, 4>, used with two strides: @stride(16) in a uniform struct and
// @stride(4) (plus the unannotated default) in a storage struct; each needs its own type.

struct Padded {
    weights: @stride(16) array<f32, 4>,
    bias: f32,
}

struct Dense {
    weights: @stride(4) array<f32, 4>,
    defaults: array<f32, 4>,
    bias: f32,
}

@group(0) @binding(0) var<uniform> padded: Padded;
@group(0) @binding(1) var<storage, read_write> dense: Dense;

@compute @workgroup_size(1)
fn main() {
    for (var i = 0u; i < 4u; i++) {
        dense.weights[i] = padded.weights[i];
        dense.defaults[i] = padded.weights[3u - i] * 0.5;
    }
    dense.bias = padded.bias;
}
