// `[[block]]` on a struct is accepted with a deprecation warning (expected: one warning,
// no error); the rest of the file is standard WGSL.

[[block]]
struct Globals {
    time: f32,
    frame: u32,
    resolution: vec2<f32>,
}

@group(0) @binding(0) var<uniform> globals: Globals;
@group(0) @binding(1) var<storage, read_write> out: vec4<f32>;

@compute @workgroup_size(1)
fn main() {
    out = vec4<f32>(globals.resolution, globals.time, f32(globals.frame));
}
