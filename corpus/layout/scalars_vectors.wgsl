// Every 32-bit scalar and vector (f32, i32, u32; vec2/vec3/vec4) in a storage buffer,
// including scalars packed into the tail of a vec3 and vec2 alignment gaps.

struct Scalars {
    f: f32,
    i: i32,
    u: u32,
    v2f: vec2<f32>,
    v3f: vec3<f32>,
    after_v3f: f32,
    v4f: vec4<f32>,
    v2i: vec2<i32>,
    v3i: vec3<i32>,
    v4i: vec4<i32>,
    lone_u: u32,
    v2u: vec2<u32>,
    v3u: vec3<u32>,
    v4u: vec4<u32>,
    tail: u32,
}

@group(0) @binding(0) var<storage, read> input: Scalars;
@group(0) @binding(1) var<storage, read_write> output: vec4<f32>;

@compute @workgroup_size(1)
fn main() {
    let fsum = input.f + input.v2f.x + input.v3f.y + input.after_v3f + input.v4f.w;
    let isum = input.i + input.v2i.y + input.v3i.z + input.v4i.x;
    let usum = input.u + input.lone_u + input.v2u.x + input.v3u.y + input.v4u.z + input.tail;
    output = vec4<f32>(fsum, f32(isum), f32(usum), 1.0);
}
