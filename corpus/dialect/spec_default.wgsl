// spec/000 "Default Structure Layout Example": A (align 8, size 24) and B (align 16,
// size 160; e at 40, g at 80, h at 152) in a storage buffer; h is f32 (spec typo `h : 32`).

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

@group(0) @binding(0) var<storage> storage_buffer: B;
@group(0) @binding(1) var<storage, read_write> sink: array<f32, 4>;

@compute @workgroup_size(1)
fn main() {
    sink[0] = storage_buffer.a.x + storage_buffer.b.z + storage_buffer.c + storage_buffer.d;
    sink[1] = storage_buffer.e.x + storage_buffer.e.w.y;
    sink[2] = storage_buffer.f.y + storage_buffer.g[2].u;
    sink[3] = storage_buffer.h;
}
