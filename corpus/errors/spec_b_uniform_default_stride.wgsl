// spec/000 example B as var<uniform>, with g's stride left implicit (24) instead of the spec's
// explicit @stride(24). Expected: the same four uniform errors as spec_b_uniform.wgsl, and here
// each fix on struct A also changes g's default stride, so each fix removes its own error.

struct A {
    u: f32,
    v: f32,
    w: vec2<f32>,
    x: f32,
}

struct B {
    a: vec2<f32>,
    b: vec3<f32>,
    c: f32,
    d: f32,
    e: A,
    f: vec3<f32>,
    g: array<A, 3>,
    h: f32,
}

@group(0) @binding(0) var<uniform> uniform_buffer: B;
@group(0) @binding(1) var<storage, read_write> sink: array<f32, 2>;

@compute @workgroup_size(1)
fn main() {
    sink[0] = uniform_buffer.e.x + uniform_buffer.g[1].w.y;
    sink[1] = uniform_buffer.h;
}
