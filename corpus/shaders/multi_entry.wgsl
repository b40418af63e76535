// Several entry points in one module sharing resources: a compute culling pass, an
// instanced vertex shader, and two fragment shaders (color and id), plus an override.

override TILE: u32 = 64u;

struct Instance {
    transform: mat4x4<f32>,
    color: vec4<f32>,
    bounds: vec4<f32>,
}

struct View {
    view_proj: mat4x4<f32>,
    frustum: array<vec4<f32>, 6>,
    instance_count: u32,
}

struct DrawArgs {
    vertex_count: u32,
    instance_count: atomic<u32>,
    first_vertex: u32,
    first_instance: u32,
}

@group(0) @binding(0) var<uniform> view: View;
@group(0) @binding(1) var<storage, read> instances: array<Instance>;
@group(0) @binding(2) var<storage, read_write> visible: array<u32>;
@group(0) @binding(3) var<storage, read_write> draw_args: DrawArgs;
@group(0) @binding(4) var<storage, read> visible_ro: array<u32>;

fn sphere_visible(center: vec3<f32>, radius: f32) -> bool {
    for (var i = 0u; i < 6u; i++) {
        let plane = view.frustum[i];
        if dot(plane.xyz, center) + plane.w < -radius {
            return false;
        }
    }
    return true;
}

@compute @workgroup_size(TILE)
fn cull(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x >= view.instance_count {
        return;
    }
    let inst = instances[id.x];
    let center = (inst.transform * vec4<f32>(inst.bounds.xyz, 1.0)).xyz;
    if sphere_visible(center, inst.bounds.w) {
        let slot = atomicAdd(&draw_args.instance_count, 1u);
        visible[slot] = id.x;
    }
}

struct VsOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) color: vec4<f32>,
    @location(1) @interpolate(flat) id: u32,
}

@vertex
fn vs_instanced(@location(0) position: vec3<f32>, @builtin(instance_index) instance: u32) -> VsOut {
    let index = visible_ro[instance];
    let inst = instances[index];
    var out: VsOut;
    out.clip = view.view_proj * inst.transform * vec4<f32>(position, 1.0);
    out.color = inst.color;
    out.id = index;
    return out;
}

@fragment
fn fs_color(in: VsOut) -> @location(0) vec4<f32> {
    return in.color;
}

@fragment
fn fs_id(in: VsOut) -> @location(0) u32 {
    return in.id + 1u;
}
