// spec/000 fix (3): explicit padding members of type array<f32, 3> (A 32 bytes; a second one in
// B puts e at 48), g: @stride(32); B is 208 bytes, in a storage buffer as the spec shows.

struct A {
    u: f32,
    v: f32,
    w: vec2<f32>,
    x: f32,
    _pad0: array<f32, 3>,
}

struct B {
    a: vec2<f32>,
    b: vec3<f32>,
    c: f32,
    d: f32,
    _pad0: array<f32, 3>,
    e: A,
    f: vec3<f32>,
    g: @stride(32) array<A, 3>,
    h: f32,
}

@group(0) @binding(0) var<storage> storage_buffer: B;
@group(0) @binding(1) var<storage, read_write> sink: array<f32, 2>;

@compute @workgroup_size(1)
fn main() {
    sink[0] = storage_buffer.e.x + storage_buffer.g[1].w.y + storage_buffer.h;
    sink[1] = storage_buffer.f.x + storage_buffer.g[2].u;
}
