// An array of row_major float4x3 in a cbuffer ends 4 bytes into its last
// register. Where the contract puts the next member past that tail, D3D
// needs a pad in it, and DXC's SPIR-V (-fvk-use-dx-layout) sizes an array
// of matrices as whole elements and rejects the pad as an overlap. The
// elements are wrapped in column structs instead (found by the execution
// test's fresh batch, seed 1795801749276856050, #16 and #59).
struct Inner {
    @size(32) m: mat3x2<f32>,
}

struct T {
    a: array<mat4x3<f32>, 2>,
    f: f32, // at 128: D3D would put it at 124
    @size(80) b: array<mat4x3<f32>, 1>,
    @align(64) c: Inner, // a struct after padding that starts in b's tail
    d: array<mat2x3<f32>, 2>, // ends in a tail, but nothing is padded there
}

// Nested, so that its members are placed by padding (a cbuffer's own
// members take `packoffset`s).
struct Outer {
    t: T,
}

@group(0) @binding(0) var<uniform> u: Outer;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;

@compute @workgroup_size(1)
fn main() {
    let t = u.t;
    out[0] = t.a[1][3].z + t.f + t.b[0][2].y + t.c.m[2].y + t.d[1][1].z + u.t.a[0][1].y;
}
