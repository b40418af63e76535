// All nine f32 matrix shapes in a uniform buffer; the matCx2 ones have an 8-byte
// column stride (legal in WGSL uniform, not std140) and matCx3 have 16-byte columns.

struct MatrixBlock {
    m2x2: mat2x2<f32>,
    m3x2: mat3x2<f32>,
    m4x2: mat4x2<f32>,
    m2x3: mat2x3<f32>,
    m3x3: mat3x3<f32>,
    m4x3: mat4x3<f32>,
    m2x4: mat2x4<f32>,
    m3x4: mat3x4<f32>,
    m4x4: mat4x4<f32>,
    after_x2: vec2<f32>,
}

@group(0) @binding(0) var<uniform> block: MatrixBlock;
@group(0) @binding(1) var<storage, read_write> out: array<vec4<f32>, 9>;

@compute @workgroup_size(1)
fn main() {
    out[0] = vec4<f32>(block.m2x2[0], block.m2x2[1]);
    out[1] = vec4<f32>(block.m3x2[2], block.after_x2);
    out[2] = vec4<f32>(block.m4x2[3], block.m4x2[0]);
    out[3] = vec4<f32>(block.m2x3[1], 0.0);
    out[4] = vec4<f32>(block.m3x3 * vec3<f32>(1.0, 2.0, 3.0), 0.0);
    out[5] = vec4<f32>(block.m4x3 * vec4<f32>(1.0), 1.0);
    out[6] = block.m2x4[1];
    out[7] = block.m3x4 * vec3<f32>(0.5);
    out[8] = block.m4x4 * vec4<f32>(1.0, 0.0, 0.0, 1.0);
}
