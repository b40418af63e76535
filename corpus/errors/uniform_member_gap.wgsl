// Expected error: `after` follows the 8-byte struct member `offset` by only 8 bytes in a
// uniform buffer; at least roundUp(16, 8) = 16 are required (fix: @size(16) on `offset`).

struct Offset {
    value: vec2<f32>,
}

struct Params {
    offset: Offset,
    after: f32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read_write> out: vec2<f32>;

@compute @workgroup_size(1)
fn main() {
    out = params.offset.value * params.after;
}
