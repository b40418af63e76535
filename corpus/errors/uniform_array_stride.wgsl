// Expected error: `weights: array<f32, 4>` in a uniform buffer has stride 4; uniform arrays
// need a stride that is a multiple of 16 (fix: @stride(16), or array<vec4<f32>, 1>).

struct Params {
    scale: vec4<f32>,
    weights: array<f32, 4>,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read_write> out: f32;

@compute @workgroup_size(1)
fn main() {
    out = params.scale.x * (params.weights[0] + params.weights[3]);
}
