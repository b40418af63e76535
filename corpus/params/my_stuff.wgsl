// spec/001 "Generics": in `struct MyStuff<T> { int a; T b; int c; }` the offset of
// `c` depends on `T`. WGSL has no generics, so the two specializations are written
// out: with `b` between `a` and `c`, `c` lands at 8 for `T = f32` and at 28 for
// `T = vec3<f32>`. Following the spec's advice (every field that does not depend
// on `T` first), `c` is at 4 in both.

struct MyStuff_f32 {
    a: i32,
    b: f32,
    c: i32,
}

struct MyStuff_vec3 {
    a: i32,
    b: vec3<f32>,
    c: i32,
}

struct MyStuffOrdered_f32 {
    a: i32,
    c: i32,
    b: f32,
}

struct MyStuffOrdered_vec3 {
    a: i32,
    c: i32,
    b: vec3<f32>,
}

struct Out {
    c: array<i32, 4>,
}

@group(0) @binding(0) var<storage, read> stuff_f32: MyStuff_f32;
@group(0) @binding(1) var<storage, read> stuff_vec3: MyStuff_vec3;
@group(0) @binding(2) var<storage, read> ordered_f32: MyStuffOrdered_f32;
@group(0) @binding(3) var<storage, read> ordered_vec3: MyStuffOrdered_vec3;
@group(0) @binding(4) var<storage, read_write> out: Out;

@compute @workgroup_size(1)
fn main() {
    out.c[0] = stuff_f32.c + i32(stuff_f32.b);
    out.c[1] = stuff_vec3.c + i32(stuff_vec3.b.x);
    out.c[2] = ordered_f32.c + i32(ordered_f32.b);
    out.c[3] = ordered_vec3.c + i32(ordered_vec3.b.x);
}
