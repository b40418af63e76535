// Reading a uniform whole copies its arrays of structs. Slang's SPIR-V did
// that with one `OpCopyLogical` of the whole cbuffer array, and lavapipe
// (Mesa 22.3) refuses the pipeline ("an unknown error") once such an array
// has more than 32 elements, whatever the struct; the same holds for arrays
// of arrays. stride's Slang copies such arrays in a cbuffer element by
// element instead, in a loop (found by the execution test's fresh batch,
// seed 1795814017441362700, #25, seed 1795802810263169386, #91, and, for
// arrays of arrays, seed 1795851716757398242, #71).
struct S0 {
    m0: vec4<i32>,
}

struct S1 {
    a: array<S0, 36>, // a plain struct holding the array
}

struct V {
    x: f32,
    @align(32) a: array<S0, 33>, // a padded variant holding it
}

struct T {
    s: S1,
    v: V,
    b: array<S0, 40>, // a member of the cbuffer itself
    c: array<@stride(16) array<u32, 2>, 39>, // an array of arrays
    f: f32,
}

@group(0) @binding(0) var<uniform> u: T;
@group(0) @binding(1) var<storage, read_write> out: array<i32>;

@compute @workgroup_size(1)
fn main() {
    let t = u;
    out[0] = t.s.a[35].m0.w + t.v.a[32].m0.x + t.b[39].m0.y + i32(t.c[38][1]) + i32(t.f);
}
