// naga's matCx2 hazard where no 16-byte-multiple stride fits a one-element array around `s`:
// SPIR-V declares every two-row matrix of the buffer as its column vectors instead, which
// needs no device feature (it used to need uniformBufferStandardLayout). Found by fuzzing.
struct S { m: mat2x2<f32>, x: f32 }
struct Root { a: mat2x2<f32>, s: S }
@group(0) @binding(0) var<uniform> u: Root;
@group(0) @binding(1) var<storage, read_write> sink: array<f32>;

@compute @workgroup_size(1)
fn main() {
    sink[0] = u.s.m[1][0] + u.s.x + u.a[1][1];
}
