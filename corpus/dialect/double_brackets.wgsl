// The [[a, b(n)]] attribute syntax everywhere: [[align(16), size(80)]] on a struct, member
// [[size(16)]]/[[align(16)]], [[stride(16)]], [[group(0), binding(0)]], and entry point attributes.

[[align(16), size(80)]]
struct Vertex {
    [[size(16)]] position: vec3<f32>,
    [[align(16)]] normal: vec3<f32>,
    weight: f32,
    uv: [[stride(16)]] array<f32, 2>,
}

[[group(0), binding(0)]] var<uniform> vertex_data: Vertex;
[[group(0), binding(1)]] var<storage, read_write> out: array<vec4<f32>>;

[[compute, workgroup_size(1)]]
fn main([[builtin(global_invocation_id)]] id: vec3<u32>) {
    out[id.x] = vec4<f32>(vertex_data.position + vertex_data.normal * vertex_data.weight, vertex_data.uv[1]);
}
