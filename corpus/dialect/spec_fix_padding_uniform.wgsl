// spec/000 fix (3) made uniform-legal: the padding is an f32 + vec2<f32> pair instead of
// array<f32, 3> (whose stride 4 a uniform buffer rejects); A 32 bytes, B 208, e at 48.

struct A {
    u: f32,
    v: f32,
    w: vec2<f32>,
    x: f32,
    _pad0: f32,
    _pad1: vec2<f32>,
}

struct B {
    a: vec2<f32>,
    b: vec3<f32>,
    c: f32,
    d: f32,
    _pad0: f32,
    _pad1: vec2<f32>,
    e: A,
    f: vec3<f32>,
    g: @stride(32) array<A, 3>,
    h: f32,
}

@group(0) @binding(0) var<uniform> uniform_buffer: B;
@group(0) @binding(1) var<storage, read_write> sink: array<f32, 2>;

@compute @workgroup_size(1)
fn main() {
    sink[0] = uniform_buffer.e.x + uniform_buffer.g[1].w.y + uniform_buffer.h;
    sink[1] = uniform_buffer.f.x + uniform_buffer.g[2].u;
}
