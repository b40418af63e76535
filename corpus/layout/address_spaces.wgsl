// One struct type shared by a uniform buffer, a read-only storage buffer and a
// read_write storage buffer: the same contract layout in all three address spaces.

struct Params {
    origin: vec3<f32>,
    scale: f32,
    extent: vec2<f32>,
    steps: u32,
    flags: u32,
}

@group(0) @binding(0) var<uniform> uniform_params: Params;
@group(0) @binding(1) var<storage, read> read_params: array<Params, 4>;
@group(0) @binding(2) var<storage, read_write> write_params: Params;

@compute @workgroup_size(1)
fn main() {
    var merged = uniform_params;
    for (var i = 0u; i < 4u; i++) {
        merged.origin += read_params[i].origin * read_params[i].scale;
        merged.steps = max(merged.steps, read_params[i].steps);
    }
    merged.flags |= 1u;
    write_params = merged;
}
