// f16 scalars, vectors and matrices (enable f16) in a storage buffer:
// 2-byte scalars, vec3<f16> of size 6 / align 8, mat3x3<f16> with 8-byte columns.
enable f16;

struct HalfData {
    a: f16,
    b: f16,
    c: f32,
    h2: vec2<f16>,
    h3: vec3<f16>,
    after_h3: f16,
    h4: vec4<f16>,
    m2: mat2x2<f16>,
    m3: mat3x3<f16>,
    m4x2: mat4x2<f16>,
    m2x4: mat2x4<f16>,
    last: f16,
}

@group(0) @binding(0) var<storage, read_write> data: HalfData;

@compute @workgroup_size(1)
fn main() {
    data.a = data.b + data.h2.x + data.h3.z + data.after_h3 + data.h4.w;
    data.c = f32(data.m2[1][0] + data.m3[2][2] + data.m4x2[3][1] + data.m2x4[1][3]);
    data.last = data.a * 2.0h;
}
