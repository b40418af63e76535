// 64-bit types (naga extensions, Capabilities::FLOAT64 and SHADER_INT64): f64 scalars and
// vectors, i64 and u64 scalars and vectors in a storage buffer, their arithmetic, builtins
// (abs, min, max, clamp, sqrt, fma), conversions to and from 32-bit types, and shifts.
// Needs shaderFloat64/shaderInt64 on the device; GLSL ES cannot express it.

struct Wide {
    sum: f64,
    count: u64,
    offset: i64,
    center: vec2<f64>,
    range: vec2<u64>,
    deltas: vec3<i64>,
}

@group(0) @binding(0) var<storage, read_write> wide: Wide;
@group(0) @binding(1) var<storage, read> samples: array<f32>;

@compute @workgroup_size(1)
fn main() {
    var sum = wide.sum;
    var count = wide.count;
    var lo = wide.range.x;
    var hi = wide.range.y;
    for (var i = 0u; i < arrayLength(&samples); i++) {
        let v = f64(samples[i]);
        sum = fma(v, 2.0lf, sum);
        count += 1lu;
        let bits = u64(bitcast<u32>(samples[i]));
        lo = min(lo, bits << 3u);
        hi = max(hi, bits >> 1u);
    }
    wide.sum = sqrt(abs(sum));
    wide.count = count;
    wide.range = vec2<u64>(lo, hi);
    wide.offset = clamp(i64(count) - 5li, -100li, 100li) * wide.offset;
    wide.center = (wide.center + vec2<f64>(sum / f64(max(count, 1lu)))) * 0.5lf;
    wide.deltas = abs(wide.deltas) - vec3<i64>(i64(f32(sum)), 1li, -1li);
}
