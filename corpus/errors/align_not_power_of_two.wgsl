// Expected error: dialect `@align(12)` on a struct declaration is not a power of two
// (reported at the value 12).

@align(12)
struct Data {
    a: vec2<f32>,
    b: f32,
}

@group(0) @binding(0) var<storage, read_write> data: Data;

@compute @workgroup_size(1)
fn main() {
    data.b = data.a.x + data.a.y;
}
