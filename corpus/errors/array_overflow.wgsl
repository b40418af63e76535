// Expected error, not a panic or a wrapped size: `array<f32, 4000000000>` in a storage
// buffer is 16e9 bytes, more than any buffer type can hold (checked arithmetic).

@group(0) @binding(0) var<storage, read_write> huge: array<f32, 4000000000>;

@compute @workgroup_size(1)
fn main() {
    huge[0] = huge[1] + 1.0;
}
