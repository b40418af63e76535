// Matrix arithmetic over every matrix shape read from a uniform buffer: matrix * matrix,
// matrix * vector, vector * matrix, scalar * matrix, matrix + and -, transpose, determinant,
// matrix constructors from columns and scalars, column and element indexing (constant and dynamic).

struct Transforms {
    m22: mat2x2<f32>,
    m23: mat2x3<f32>,
    m24: mat2x4<f32>,
    m32: mat3x2<f32>,
    m33: mat3x3<f32>,
    m34: mat3x4<f32>,
    m42: mat4x2<f32>,
    m43: mat4x3<f32>,
    m44: mat4x4<f32>,
    column: u32,
    row: u32,
}

struct Results {
    products: array<vec4<f32>, 8>,
    dets: vec4<f32>,
    combined: mat4x4<f32>,
    narrowed: mat3x2<f32>,
}

@group(0) @binding(0) var<uniform> xf: Transforms;
@group(0) @binding(1) var<storage, read_write> results: Results;

fn inverse2(m: mat2x2<f32>) -> mat2x2<f32> {
    let d = determinant(m);
    return mat2x2<f32>(m[1][1], -m[0][1], -m[1][0], m[0][0]) * (1.0 / d);
}

@compute @workgroup_size(1)
fn main() {
    let v2 = vec2<f32>(1.0, 2.0);
    let v3 = vec3<f32>(1.0, 2.0, 3.0);
    let v4 = vec4<f32>(1.0, 2.0, 3.0, 4.0);
    results.products[0] = vec4<f32>(xf.m22 * v2, v2 * xf.m22);
    results.products[1] = vec4<f32>(xf.m23 * v2, 0.0);
    results.products[2] = xf.m24 * v2;
    results.products[3] = vec4<f32>(xf.m32 * v3, (v2 * xf.m32 - v2 * transpose(xf.m23)).xy);
    results.products[4] = vec4<f32>(xf.m33 * v3 + v3 * xf.m33, 1.0);
    results.products[5] = xf.m34 * v3 + vec4<f32>(v4 * xf.m34, 0.0);
    results.products[6] = vec4<f32>(xf.m42 * v4, xf.m43[xf.column % 4u].xy);
    results.products[7] = xf.m44 * v4 + v4 * xf.m44 + vec4<f32>(xf.m43 * v4, xf.m44[xf.column % 4u][xf.row % 4u]);

    let sq2 = xf.m22 * transpose(xf.m22);
    let sq3 = xf.m33 * transpose(xf.m33) + xf.m23 * xf.m32;
    let sq4 = xf.m44 * transpose(xf.m44) - xf.m34 * xf.m43 * 0.5;
    results.dets = vec4<f32>(determinant(sq2), determinant(sq3), determinant(sq4), determinant(inverse2(xf.m22)));

    var m = mat4x4<f32>(
        vec4<f32>(1.0, 0.0, 0.0, 0.0),
        vec4<f32>(0.0, 1.0, 0.0, 0.0),
        vec4<f32>(0.0, 0.0, 1.0, 0.0),
        vec4<f32>(0.0, 0.0, 0.0, 1.0),
    );
    m = 2.0 * m + xf.m44 * m - transpose(xf.m44);
    m[3] = vec4<f32>(v3, 1.0);
    m[xf.column % 4u][xf.row % 4u] = 7.0;
    results.combined = m * xf.m24 * xf.m42 * xf.m44;
    results.narrowed = xf.m22 * transpose(xf.m23) + xf.m42 * xf.m34 * mat3x3<f32>(v3, v3.yzx, v3.zxy) * 0.25;
}
