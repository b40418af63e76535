// spec/000 fix (1): dialect @align/@size on the struct declarations (A: align 16, size 32;
// B: align 16, size 208, g: @stride(32)), so B is valid in a uniform buffer as well as storage.

@align(16) @size(32)
struct A {
    u: f32,
    v: f32,
    w: vec2<f32>,
    x: f32,
}

@align(16) @size(208)
struct B {
    a: vec2<f32>,
    b: vec3<f32>,
    c: f32,
    d: f32,
    e: A,
    f: vec3<f32>,
    g: @stride(32) array<A, 3>,
    h: f32,
}

@group(0) @binding(0) var<uniform> uniform_buffer: B;
@group(0) @binding(1) var<storage> storage_buffer: B;
@group(0) @binding(2) var<storage, read_write> sink: array<f32, 3>;

@compute @workgroup_size(1)
fn main() {
    sink[0] = uniform_buffer.e.x + uniform_buffer.g[1].w.y + uniform_buffer.h;
    sink[1] = storage_buffer.e.u + storage_buffer.g[2].x + storage_buffer.h;
    sink[2] = uniform_buffer.c - storage_buffer.d;
}
