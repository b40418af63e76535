// Expected error: `@align(8) alias Color = vec4<f32>;` asks for alignment 8, below
// vec4<f32>'s natural alignment 16.

@align(8) alias Color = vec4<f32>;

struct Data {
    tint: Color,
    alpha: f32,
}

@group(0) @binding(0) var<storage, read_write> data: Data;

@compute @workgroup_size(1)
fn main() {
    data.alpha = data.tint.a;
}
