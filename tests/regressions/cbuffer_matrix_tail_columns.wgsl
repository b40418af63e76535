// A row_major float2x3 in a cbuffer ends 4 bytes into its last register, and
// the next member is an f16 matrix stored as columns: D3D would pack its
// first column into that tail, so the contract's offset needs a pad there,
// and a pad in a matrix's tail overlaps it in DXC's SPIR-V. The matrix is
// split into columns instead (found by the execution test's fresh batch).
enable f16;

struct T {
    x: f16,
    y: f16, // at byte 2: no packoffset names it, so members are placed by padding
    a: mat2x3<f32>,
    @size(24) b: mat3x2<f16>,
    c: f32,
}

@group(0) @binding(0) var<uniform> u: T;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;

@compute @workgroup_size(1)
fn main() {
    out[0] = f32(u.y) + u.a[1].z + f32(u.b[2].y) + u.c;
}
