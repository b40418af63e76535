// Expected error: a member @size past the 2147483647 bytes a buffer can address
// (naga 30's own offset arithmetic overflows on it).
struct S {
    a: u32,
    @size(4294967292) b: u32,
}
@group(0) @binding(0) var<storage, read_write> s: S;

@compute @workgroup_size(1)
fn main() {
    s.a = 1u;
}
