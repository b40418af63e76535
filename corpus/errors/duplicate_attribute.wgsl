// Expected error: `@size` appears twice on the same struct declaration
// (`@size(32) @align(16) @size(64)`), reported at the second one.

@size(32) @align(16) @size(64)
struct Data {
    value: vec4<f32>,
}

@group(0) @binding(0) var<storage, read_write> data: Data;

@compute @workgroup_size(1)
fn main() {
    data.value = data.value * 2.0;
}
