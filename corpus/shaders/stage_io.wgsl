// Vertex and fragment inputs and outputs: locations on structs and on plain parameters,
// every interpolation (flat, linear and perspective with center/centroid/sample sampling),
// @invariant position, and the builtins vertex_index, instance_index, position,
// front_facing, frag_depth and sample_index, with vertex data in storage. (sample_mask is
// left out: naga 30's SPIR-V writer declares SampleMask as a scalar, which spirv-val rejects.)

struct Vertex {
    position: vec4<f32>,
    color: vec4<f32>,
}

struct Frame {
    view_proj: mat4x4<f32>,
    instance_offset: vec4<f32>,
    depth_bias: f32,
    coverage_mask: u32,
}

@group(0) @binding(0) var<storage, read> vertices: array<Vertex>;
@group(0) @binding(1) var<uniform> frame: Frame;

struct VsOut {
    @invariant @builtin(position) clip: vec4<f32>,
    @location(0) color: vec4<f32>,
    @location(1) @interpolate(flat) instance: u32,
    @location(2) @interpolate(linear) screen_uv: vec2<f32>,
    @location(3) @interpolate(linear, centroid) edge: f32,
    @location(4) @interpolate(linear, sample) sample_lin: f32,
    @location(5) @interpolate(perspective, centroid) world: vec3<f32>,
    @location(6) @interpolate(perspective, sample) sample_persp: vec2<f32>,
    @location(7) @interpolate(flat) id: vec2<i32>,
}

@vertex
fn vs_main(@builtin(vertex_index) vi: u32, @builtin(instance_index) ii: u32, @location(0) offset: vec3<f32>) -> VsOut {
    let v = vertices[vi];
    var out: VsOut;
    let world = v.position.xyz + offset + frame.instance_offset.xyz * f32(ii);
    out.clip = frame.view_proj * vec4<f32>(world, 1.0);
    out.color = v.color;
    out.instance = ii;
    out.screen_uv = out.clip.xy / out.clip.w * 0.5 + 0.5;
    out.edge = f32(vi % 3u);
    out.sample_lin = v.color.a;
    out.world = world;
    out.sample_persp = world.xz;
    out.id = vec2<i32>(i32(vi), -i32(ii));
    return out;
}

struct FsOut {
    @location(0) color: vec4<f32>,
    @location(1) ids: vec4<u32>,
    @builtin(frag_depth) depth: f32,
}

@fragment
fn fs_main(
    in: VsOut,
    @builtin(front_facing) front: bool,
    @builtin(sample_index) sample: u32,
) -> FsOut {
    var out: FsOut;
    let side = select(0.25, 1.0, front);
    out.color = vec4<f32>(in.color.rgb * side + vec3<f32>(in.edge, in.sample_lin, in.screen_uv.x), in.color.a);
    out.ids = vec4<u32>(in.instance, sample ^ frame.coverage_mask, bitcast<u32>(in.id.x), bitcast<u32>(in.id.y));
    out.depth = clamp(in.clip.z + frame.depth_bias + in.sample_persp.x * 0.0 + in.world.y * 0.0, 0.0, 1.0);
    return out;
}

@fragment
fn fs_depth_only(@builtin(position) pos: vec4<f32>, @location(3) @interpolate(linear, centroid) edge: f32) -> @builtin(frag_depth) f32 {
    if edge < 0.01 {
        discard;
    }
    return pos.z * (1.0 - frame.depth_bias);
}
