// f16 values in a uniform buffer next to f32 values; an f16 array whose
// 2-byte elements are wrapped in a 16-byte struct to meet the uniform array stride rule.
enable f16;

struct HalfSlot {
    value: f16,
    @size(14) weight: f16,
}

struct HalfParams {
    scale: f16,
    bias: f16,
    gain: f32,
    tint: vec4<f16>,
    axis: vec3<f16>,
    @align(16) slots: array<HalfSlot, 4>,
}

@group(0) @binding(0) var<uniform> params: HalfParams;
@group(0) @binding(1) var<storage, read_write> result: array<f32>;

@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i: u32) {
    let slot = params.slots[i];
    let v = slot.value * params.scale + params.bias + slot.weight * params.tint[i] + params.axis.x;
    result[i] = f32(v) * params.gain;
}
