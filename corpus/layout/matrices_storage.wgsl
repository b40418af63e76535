// All nine f32 matrix shapes in a storage buffer: matCx2 (8-byte columns),
// matCx3 (16-byte columns, 12 bytes used) and matCx4.

struct Matrices {
    m2x2: mat2x2<f32>,
    m3x2: mat3x2<f32>,
    m4x2: mat4x2<f32>,
    m2x3: mat2x3<f32>,
    m3x3: mat3x3<f32>,
    m4x3: mat4x3<f32>,
    m2x4: mat2x4<f32>,
    m3x4: mat3x4<f32>,
    m4x4: mat4x4<f32>,
    scalar_after: f32,
}

@group(0) @binding(0) var<storage, read> mats: Matrices;
@group(0) @binding(1) var<storage, read_write> out: array<f32, 10>;

@compute @workgroup_size(1)
fn main() {
    out[0] = mats.m2x2[1][1];
    out[1] = mats.m3x2[2][0];
    out[2] = mats.m4x2[3][1];
    out[3] = mats.m2x3[1][2];
    out[4] = mats.m3x3[2][1];
    out[5] = mats.m4x3[3][2];
    out[6] = mats.m2x4[1][3];
    out[7] = mats.m3x4[2][3];
    out[8] = mats.m4x4[3][3];
    out[9] = mats.scalar_after;
}
