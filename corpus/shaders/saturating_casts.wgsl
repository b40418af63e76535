// Float-to-integer conversions saturate in WGSL: every target clamps the
// float to the largest floats inside the integer's range first, for f32,
// f64 and f16 sources and 32- and 64-bit results (one table, shared by the
// GLSL and HLSL writers). A bitcast of a converted value is not clamped
// twice. Needs shaderFloat64, shaderInt64 and 16-bit floats on the device.
enable f16;

@group(0) @binding(0) var<storage, read_write> signed64: array<i64, 2>;
@group(0) @binding(1) var<storage, read_write> unsigned64: array<u64, 2>;
@group(0) @binding(2) var<storage, read_write> words: array<u32, 4>;
@group(0) @binding(3) var<storage, read_write> floats: array<f32, 4>;

var<private> wide: f64;
var<private> half: f16;

@compute @workgroup_size(1)
fn main() {
    wide = f64(floats[3]);
    half = f16(floats[3]);
    signed64[0] = i64(floats[0]);
    unsigned64[0] = u64(floats[1]);
    signed64[1] = i64(wide);
    unsigned64[1] = u64(wide);
    words[0] = u32(wide);
    words[1] = u32(half);
    words[2] = bitcast<u32>(i32(floats[2]));
    words[3] = u32(i32(half));
}
