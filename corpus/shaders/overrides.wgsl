// Pipeline-overridable constants and const expressions: overrides with and without @id,
// of type bool, u32, i32 and f32, with explicit and inferred types, expressions over overrides,
// an override as the workgroup size and as a workgroup array length, module-scope const
// values, const arrays indexed dynamically, const structs and const_assert.

const PI: f32 = 3.14159265;
const TAU = 2.0 * PI;
const GOLDEN = vec2<f32>(1.0, 1.61803399);
const WEIGHTS = array<f32, 5>(0.227027, 0.1945946, 0.1216216, 0.054054, 0.016216);
const OFFSETS = array<vec2<i32>, 4>(vec2<i32>(0, 1), vec2<i32>(1, 0), vec2<i32>(0, -1), vec2<i32>(-1, 0));

struct Tint {
    color: vec3<f32>,
    strength: f32,
}

const DEFAULT_TINT = Tint(vec3<f32>(1.0, 0.5, 0.25), 0.75);
const_assert(WEIGHTS[0] > WEIGHTS[4]);

@id(0) override block_size: u32 = 64u;
@id(7) override gain: f32 = 1.5;
@id(12) override use_tint: bool = true;
override bias: i32 = -3;
override scale: f32 = 0.5;
override threshold = gain * 2.0 + 0.5;
override half_block = block_size / 2u;

struct Settings {
    base: vec4<f32>,
    index: u32,
    count: u32,
}

@group(0) @binding(0) var<uniform> settings: Settings;
@group(0) @binding(1) var<storage, read_write> samples: array<vec4<f32>>;

var<workgroup> tile: array<vec4<f32>, block_size>;

@compute @workgroup_size(block_size)
fn main(@builtin(local_invocation_index) li: u32, @builtin(global_invocation_id) gid: vec3<u32>) {
    let n = arrayLength(&samples);
    let i = min(gid.x, n - 1u);
    tile[li] = samples[i];
    workgroupBarrier();
    var acc = tile[li] * WEIGHTS[0];
    for (var k = 1u; k < 5u; k++) {
        let left = tile[(li + block_size - k) % block_size];
        let right = tile[(li + k) % block_size];
        acc += (left + right) * WEIGHTS[k];
    }
    let o = OFFSETS[settings.index % 4u];
    let w = WEIGHTS[settings.count % 5u];
    var result = acc * gain * scale + vec4<f32>(f32(o.x + bias), f32(o.y), w, TAU);
    if use_tint && result.w > threshold {
        result = vec4<f32>(result.xyz * DEFAULT_TINT.color * DEFAULT_TINT.strength, result.w);
    }
    if li < half_block {
        result += settings.base * GOLDEN.y;
    }
    samples[i] = result;
}

@compute @workgroup_size(half_block, 1, 1)
fn clear(@builtin(global_invocation_id) gid: vec3<u32>) {
    if gid.x < arrayLength(&samples) {
        samples[gid.x] = vec4<f32>(f32(bias) * scale);
    }
}
