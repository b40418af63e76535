// Expected error: `@stride(0)` is a zero value (strides, sizes and alignments must be
// positive), reported at the 0.

struct Data {
    values: @stride(0) array<f32, 4>,
}

@group(0) @binding(0) var<storage, read_write> data: Data;

@compute @workgroup_size(1)
fn main() {
    data.values[0] = data.values[1];
}
