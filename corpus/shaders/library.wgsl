// A module without entry points: shared code that other shaders include.
// SPIR-V and GLSL need an entry point; HLSL (and Slang) write it as a
// library, every function and global, for DXC's lib_6_x profiles.

struct Camera {
    view_proj: mat4x4<f32>,
    position: vec3<f32>,
    exposure: f32,
}

@group(0) @binding(0) var<uniform> camera: Camera;
@group(0) @binding(1) var<storage, read> weights: array<f32>;

const GAMMA: f32 = 2.2;

fn to_clip(world: vec3<f32>) -> vec4<f32> {
    return camera.view_proj * vec4<f32>(world, 1.0);
}

fn tone_map(color: vec3<f32>) -> vec3<f32> {
    let exposed = color * camera.exposure;
    return pow(exposed / (exposed + vec3<f32>(1.0)), vec3<f32>(1.0 / GAMMA));
}

fn weighted(i: u32, x: f32) -> f32 {
    return weights[i] * x;
}
