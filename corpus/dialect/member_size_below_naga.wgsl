// A member @size below naga's own size of the member's type: S1's dialect @size(40)
// makes it 40 bytes (naga alone would say 64), so `@size(40) m0: S1` is legal. naga
// checked member sizes against its own sizes and rejected this (found by execution tests).
@size(40) struct S1 {
    a: f32,
    @align(32) b: f32,
}
struct H {
    @size(40) m0: S1,
    after: f32,
}
@group(0) @binding(0) var<storage, read_write> h: H;

@compute @workgroup_size(1)
fn main() {
    h.after = h.m0.b;
}
