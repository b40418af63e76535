// f16 matrices with three or four rows in uniform buffers: their column stride is 8, which
// Vulkan's standard uniform layout does not allow for a matrix. SPIR-V declares them as
// column vectors (struct members, a nested struct, array elements) and every load rebuilds
// them: whole buffer, whole struct, whole matrix, constant and dynamic columns, elements.
enable f16;

struct Inner {
    a: mat3x3<f16>,
    b: vec2<f16>,
    c: mat2x4<f16>,
}

struct Params {
    scale: f32,
    m: mat2x3<f16>,
    n: mat4x4<f16>,
    @align(16) inner: Inner,
    cols: array<mat4x3<f16>, 2>,
    tail: f16,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<uniform> list: array<mat4x4<f16>, 2>;
@group(0) @binding(2) var<storage, read_write> result: array<f32>;

@compute @workgroup_size(2)
fn main(@builtin(local_invocation_index) i: u32) {
    let whole = params;
    let inner = params.inner;
    let m = params.m;
    let column = params.n[i];
    let s = list[1];
    result[i] = f32(whole.n[1][2]) * params.scale + f32(inner.a[2][1]) + f32(m[1].z)
        + f32(column.w) + f32(params.cols[i][3][i]) + f32(params.inner.c[1][3])
        + f32(list[i][i].y) + f32(s[2][3]) + f32(params.tail) + f32(params.n[i][i]);
}
