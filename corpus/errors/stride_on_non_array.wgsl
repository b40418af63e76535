// Expected error: `@stride(32)` on `vec4<f32>`, which is not an array type, so the
// attribute means nothing there.

struct Data {
    color: @stride(32) vec4<f32>,
}

@group(0) @binding(0) var<storage, read_write> data: Data;

@compute @workgroup_size(1)
fn main() {
    data.color = data.color.bgra;
}
