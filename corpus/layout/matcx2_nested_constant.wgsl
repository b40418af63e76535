// Two-row matrices behind a nested struct in a uniform buffer, where a module-scope constant
// builds the struct that holds them: naga's SPIR-V writer mishandles such matrices and stride's
// one-element-array workaround cannot rewrite the constant, so SPIR-V declares every two-row
// matrix of the buffer as its column vectors and rebuilds the loads.
struct Pair {
    m: mat2x2<f32>,
    k: mat3x2<f32>,
    w: vec2<f32>,
}

struct Root {
    a: vec4<f32>,
    p: Pair,
    top: mat4x2<f32>,
    pairs: array<Pair, 2>,
}

const base = Root(
    vec4<f32>(1.0),
    Pair(mat2x2<f32>(1.0, 0.0, 0.0, 1.0), mat3x2<f32>(), vec2<f32>(0.5)),
    mat4x2<f32>(),
    array<Pair, 2>(),
);

@group(0) @binding(0) var<uniform> root: Root;
@group(0) @binding(1) var<storage, read_write> result: array<f32>;

@compute @workgroup_size(2)
fn main(@builtin(local_invocation_index) i: u32) {
    let p = root.p;
    let m = base.p.m * root.p.m;
    result[i] = m[i][1] + p.k[2][i] + root.top[3].y + root.pairs[i].k[i][1] + root.a.x
        + base.p.w.y + root.pairs[1].w[i];
}
