// The shader whose buffers the example fills from Rust.

struct Light {
    position: vec3<f32>,
    intensity: f32,
    color: vec3<f32>,
}

struct Frame {
    view_proj: mat4x4<f32>,
    light_count: u32,
    lights: array<Light, 4>,
    exposure: f32,
}

@group(0) @binding(0) var<uniform> frame: Frame;
@group(0) @binding(1) var<storage, read_write> brightness: array<f32>;

@compute @workgroup_size(1)
fn main() {
    var total = 0.0;
    for (var i = 0u; i < min(frame.light_count, 4u); i++) {
        total += frame.lights[i].intensity * dot(frame.lights[i].color, vec3<f32>(0.2126, 0.7152, 0.0722));
    }
    brightness[0] = total * frame.exposure;
}
