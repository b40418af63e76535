// spec/000 example B used as var<uniform>. Expected errors, each with fixes (struct attrs, member
// attrs, padding member): struct A size 24 not a multiple of 16; e : A at offset 40 not 16-aligned
// and followed by f after only 24 bytes; g's stride 24 not a multiple of 16.

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
    g: @stride(24) array<A, 3>,
    h: f32,
}

@group(0) @binding(0) var<uniform> uniform_buffer: B;
@group(0) @binding(1) var<storage, read_write> sink: array<f32, 2>;

@compute @workgroup_size(1)
fn main() {
    sink[0] = uniform_buffer.e.x + uniform_buffer.g[1].w.y;
    sink[1] = uniform_buffer.h;
}
