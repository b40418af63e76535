// A push constant no std430 block holds: in the array element Q, `b` sits
// at offset 12, inside the 16 bytes std430 gives the vec3 struct before it,
// and a struct in an array cannot be inlined into the block. GLSL declares
// it as its words (`layout(push_constant, std140) uniform ... { uvec4
// _s_words[2]; }`) instead of refusing it; the execution test reads every
// value.
@size(12) struct A { x: vec3<f32> }
struct Q { a: A, b: f32 }
struct P { q: array<Q, 1>, c: f32 }
var<immediate> pc: P;
@group(0) @binding(0) var<storage, read_write> o: array<f32>;

@compute @workgroup_size(1)
fn main() {
    o[0] = pc.q[0].a.x.z + pc.q[0].b + pc.c;
}
