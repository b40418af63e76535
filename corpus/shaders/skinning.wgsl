// Linear blend skinning in a vertex shader: bone matrices in a read-only storage buffer
// (runtime array of mat4x4), per-mesh uniforms, joint indices and weights as attributes.

struct MeshUniforms {
    view_proj: mat4x4<f32>,
    model: mat4x4<f32>,
    bone_offset: u32,
    bone_count: u32,
}

@group(0) @binding(0) var<uniform> mesh: MeshUniforms;
@group(0) @binding(1) var<storage, read> bones: array<mat4x4<f32>>;

struct SkinnedVertex {
    @location(0) position: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) joints: vec4<u32>,
    @location(3) weights: vec4<f32>,
}

struct VsOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) normal: vec3<f32>,
}

fn bone(index: u32) -> mat4x4<f32> {
    let i = min(index, mesh.bone_count - 1u) + mesh.bone_offset;
    return bones[i];
}

@vertex
fn vs_main(v: SkinnedVertex) -> VsOut {
    let total = dot(v.weights, vec4<f32>(1.0));
    let w = v.weights / max(total, 1e-5);
    let skin = bone(v.joints.x) * w.x
        + bone(v.joints.y) * w.y
        + bone(v.joints.z) * w.z
        + bone(v.joints.w) * w.w;
    let world = mesh.model * skin * vec4<f32>(v.position, 1.0);
    let skin3 = mat3x3<f32>(skin[0].xyz, skin[1].xyz, skin[2].xyz);
    var out: VsOut;
    out.clip = mesh.view_proj * world;
    out.normal = normalize(skin3 * v.normal);
    return out;
}

@fragment
fn fs_main(in: VsOut) -> @location(0) vec4<f32> {
    let l = normalize(vec3<f32>(0.3, 1.0, 0.5));
    return vec4<f32>(vec3<f32>(0.2 + 0.8 * max(dot(in.normal, l), 0.0)), 1.0);
}
