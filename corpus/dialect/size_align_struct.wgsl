// The spec's legal `@size(16) @align(32)` struct: size 16 stays below roundUp(32, 4) = 32;
// inside Holder it sits at offset 32, and an array of it has stride roundUp(32, 16) = 32.

@size(16) @align(32)
struct S {
    i: u32,
}

struct Holder {
    a: u32,
    s: S,
    b: u32,
}

@group(0) @binding(0) var<uniform> holder: Holder;
@group(0) @binding(1) var<storage, read_write> items: array<S, 4>;

@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i: u32) {
    items[i].i = holder.a + holder.s.i * i + holder.b;
}
