// A storage buffer no GLSL block can hold: in the array element S2, `after`
// sits inside std430's rounded-up size of S1, and a struct in an array
// cannot be inlined into the block, so GLSL declares the buffer as its 32-bit
// words; its `atomic<i32>` is then a `uint` word: add, subtract, exchange and
// compare-exchange go through `uint`, and min and max through a
// compare-and-swap loop (the word would compare unsigned). glslang compiles
// it in every dialect (tests/glsl.rs); the execution test reads and writes
// every member through it.
@size(40) struct S1 {
    a: f32,
    @align(32) b: f32,
}
struct S2 {
    @size(40) m0: S1,
    after: f32,
}
struct P {
    s: array<S2, 1>,
    n: atomic<i32>,
    u: atomic<u32>,
}
@group(0) @binding(0) var<storage, read_write> p: P;

@compute @workgroup_size(1)
fn main() {
    p.s[0].after = p.s[0].m0.b;
    let old = atomicAdd(&p.n, -3);
    let x = atomicCompareExchangeWeak(&p.n, old, 7);
    atomicSub(&p.n, 2);
    atomicOr(&p.u, 2u);
    let hi = atomicMax(&p.n, -1);
    let lo = atomicMin(&p.n, hi);
    atomicExchange(&p.n, lo);
    if x.exchanged {
        p.s[0].m0.a = f32(x.old_value);
    }
}
