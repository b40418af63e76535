// Push constants, written var<immediate> in naga 30 WGSL: a small struct with a matrix,
// a vec3 + scalar pair and a u32, read by a vertex and a fragment entry point.

struct DrawConstants {
    transform: mat4x4<f32>,
    tint: vec3<f32>,
    alpha: f32,
    instance_base: u32,
}

var<immediate> draw: DrawConstants;

struct VertexOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) color: vec4<f32>,
}

@vertex
fn vs_main(@location(0) position: vec3<f32>, @builtin(instance_index) instance: u32) -> VertexOut {
    var out: VertexOut;
    let offset = f32(instance + draw.instance_base) * 0.1;
    out.clip = draw.transform * vec4<f32>(position + vec3<f32>(offset, 0.0, 0.0), 1.0);
    out.color = vec4<f32>(draw.tint, draw.alpha);
    return out;
}

@fragment
fn fs_main(in: VertexOut) -> @location(0) vec4<f32> {
    return in.color * vec4<f32>(draw.tint, 1.0);
}
