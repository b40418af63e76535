// f16 in buffers and arithmetic (enable f16): f16 scalars, vectors and matrices in a
// uniform struct and in storage (struct members, fixed and runtime-sized arrays), f16
// builtins (mix, clamp, fma, sqrt, dot, normalize, pack via conversion), f16 <-> f32/i32/u32
// conversions, f16 literals, and f16 written back to storage.
enable f16;

struct ToneParams {
    exposure: f16,
    gamma: f16,
    white: vec3<f16>,
    lift: vec2<f16>,
    grade: mat3x3<f16>,
    curve_a: vec4<f16>,
    curve_b: vec4<f16>,
    mode: u32,
}

struct Pixel {
    rgb: vec3<f16>,
    alpha: f16,
    weights: vec2<f16>,
    id: u32,
    m: mat2x2<f16>,
}

struct PixelBuffer {
    scale: f16,
    offset: vec4<f16>,
    pixels: array<Pixel>,
}

@group(0) @binding(0) var<uniform> tone: ToneParams;
@group(0) @binding(1) var<storage, read_write> image: PixelBuffer;
@group(0) @binding(2) var<storage, read> lut: array<f16>;
@group(0) @binding(3) var<storage, read_write> histogram: array<vec2<f16>, 64>;

fn curve(x: f16) -> f16 {
    let c = tone.curve_a * x + tone.curve_b;
    return clamp(c.x + c.y * x + c.z * x * x, 0.0h, 1.0h) * c.w;
}

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let n = arrayLength(&image.pixels);
    if gid.x >= n {
        return;
    }
    var p = image.pixels[gid.x];
    var c = p.rgb * tone.exposure * image.scale + image.offset.xyz;
    c = tone.grade * c;
    c = mix(c, c / (c + tone.white), f16(0.5));
    c = pow(max(c, vec3<f16>(0.0h)), vec3<f16>(1.0h / tone.gamma));
    c = fma(c, vec3<f16>(tone.lift.x), vec3<f16>(tone.lift.y));
    let luma = dot(c, vec3<f16>(0.2126h, 0.7152h, 0.0722h));
    let idx = min(u32(luma * 63.0h), 63u);
    let l = lut[min(idx, arrayLength(&lut) - 1u)];
    p.rgb = normalize(c + vec3<f16>(1e-3h)) * sqrt(luma) + vec3<f16>(curve(l));
    p.weights = vec2<f16>(f16(f32(l) * 0.5), f16(i32(idx)) + f16(p.id));
    p.m = p.m * mat2x2<f16>(p.weights, p.weights.yx) + transpose(p.m);
    p.alpha = select(p.alpha, 1.0h, tone.mode == 1u);
    image.pixels[gid.x] = p;
    histogram[idx] = histogram[idx] + vec2<f16>(1.0h, luma);
}
