// Expected error from naga: assigning a u32 to an f32 storage value is a type mismatch
// (no implicit conversion between concrete types in WGSL).

@group(0) @binding(0) var<storage, read_write> out: f32;

@compute @workgroup_size(1)
fn main() {
    let count: u32 = 3u;
    out = count;
}
