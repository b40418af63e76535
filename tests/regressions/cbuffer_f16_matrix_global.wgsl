// A uniform whose type is itself an f16 matrix: its columns (8 bytes apart)
// are stored as float16_t3 fields, which D3D would pack 6 bytes apart, so a
// uint16_t pad goes between them, as for a struct member (found by the
// `structured` fuzz target: an internal error before).
enable f16;

@group(0) @binding(0) var<uniform> gu: mat4x3<f16>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;

@compute @workgroup_size(1)
fn main() {
    out[0] = f32(gu[1].y) + f32(gu[3].z);
}
