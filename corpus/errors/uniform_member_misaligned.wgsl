// Expected error: struct-typed member `light` (16 bytes, align 8) lands at offset 8 in a
// uniform buffer; uniform requires roundUp(16, 8) = 16 (fix: @align(16) on the member or struct).

struct Light {
    direction: vec2<f32>,
    color: vec2<f32>,
}

struct Params {
    exposure: vec2<f32>,
    light: Light,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read_write> out: vec2<f32>;

@compute @workgroup_size(1)
fn main() {
    out = params.exposure * params.light.direction + params.light.color;
}
