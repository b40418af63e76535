// Expected error: `@size(8) alias RGB = vec3<f32>;` is smaller than vec3<f32>'s
// natural size 12.

@size(8) alias RGB = vec3<f32>;

struct Data {
    color: RGB,
    alpha: f32,
}

@group(0) @binding(0) var<storage, read_write> data: Data;

@compute @workgroup_size(1)
fn main() {
    data.alpha = data.color.r;
}
