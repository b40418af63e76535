// Expected error: a plain WGSL syntax error from naga's parser: the `let` statement
// is missing its `=` (expected `=`, found a literal).

@group(0) @binding(0) var<storage, read_write> out: array<f32>;

@compute @workgroup_size(1)
fn main() {
    let value 4.0;
    out[0] = value;
}
