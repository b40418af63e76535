// Expected error: a 260-byte push-constant block; naga's validator accepts at most 256
// bytes (and overflows past that), so stride reports it at the variable.
var<immediate> params: array<u32, 65>;

@compute @workgroup_size(1)
fn main() {
    _ = params[0];
}
