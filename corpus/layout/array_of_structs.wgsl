// Arrays of structs: a fixed array of structs in storage whose stride is rounded up
// to the struct alignment (vec3 + f32 -> 16; vec2 + f32 -> 16), and a runtime array of them.

struct Light {
    position: vec3<f32>,
    range: f32,
    color: vec3<f32>,
    intensity: f32,
}

struct Sample {
    uv: vec2<f32>,
    weight: f32,
}

struct Scene {
    lights: array<Light, 4>,
    samples: array<Sample, 3>,
    light_count: u32,
}

@group(0) @binding(0) var<storage, read> scene: Scene;
@group(0) @binding(1) var<storage, read_write> extra_samples: array<Sample>;

@compute @workgroup_size(8)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x >= arrayLength(&extra_samples) {
        return;
    }
    let light = scene.lights[id.x % 4u];
    let base = scene.samples[id.x % 3u];
    extra_samples[id.x] = Sample(base.uv + light.position.xy, base.weight * light.intensity);
}
