// Nested structs whose GLSL size reaches past the member after them: std430
// and std140 round a struct's size up to its alignment, and these contract
// sizes (`@size`, or a uniform matrix's 8-byte column stride) are smaller. GLSL
// declares each such struct member's own members in the block instead, each
// at its contract offset (`layout(offset)`, or padding in ES), and reads,
// writes and rebuilds the struct member by member. `Outer.inner` is inlined
// inside the inlined `Outer`; `arr`, an array in an inlined struct, and the
// atomic stay block members of their own. The execution test reads and
// writes every value on every target.
@size(20) struct Inner {
    v: vec3<f32>,
    @align(16) w: f32,
}
@size(60) struct Outer {
    k: u32,
    m: mat2x2<f32>,
    @align(16) inner: Inner,
    arr: array<u32, 2>,
}
struct Data {
    o: Outer,
    tail: f32,
    n: atomic<i32>,
    last: Inner,
}
@group(0) @binding(0) var<storage, read_write> data: Data;

struct Pair {
    m: mat2x2<f32>,
    x: f32,
}
struct Params {
    a: mat2x2<f32>,
    p: Pair,
}
@group(0) @binding(1) var<uniform> params: Params;

@compute @workgroup_size(1)
fn main() {
    let whole = data.o;
    data.tail = whole.inner.w + f32(whole.arr[1]) + data.o.m[1][0];
    data.o.inner = Inner(vec3<f32>(params.p.x), params.a[1][0]);
    data.o.arr[0] = data.o.k;
    atomicAdd(&data.n, 2);
    let all = params;
    let p = params.p;
    data.last = Inner(p.m[0].xyx, all.p.m[1][1] + all.a[0][1]);
}
