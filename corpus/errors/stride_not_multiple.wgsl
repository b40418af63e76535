// Expected error: `@stride(20) array<vec4<f32>, 2>`: stride 20 is not a multiple of the
// element alignment 16.

struct Colors {
    values: @stride(20) array<vec4<f32>, 2>,
}

@group(0) @binding(0) var<storage, read_write> colors: Colors;

@compute @workgroup_size(1)
fn main() {
    colors.values[1] = colors.values[0] * 0.5;
}
