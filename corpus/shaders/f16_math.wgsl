// f16 arithmetic (enable f16): half-precision color grading in a compute shader with
// f16 vectors, a mat3x3<f16>, f16 builtins, conversions and f16 data in storage.
enable f16;

struct GradeParams {
    matrix: mat3x3<f16>,
    lift: vec3<f16>,
    saturation: f16,
    gamma: vec3<f16>,
    contrast: f16,
    count: u32,
}

@group(0) @binding(0) var<storage, read> params: GradeParams;
@group(0) @binding(1) var<storage, read_write> pixels: array<vec4<f16>>;

fn luma(c: vec3<f16>) -> f16 {
    return dot(c, vec3<f16>(0.2126h, 0.7152h, 0.0722h));
}

@compute @workgroup_size(64)
fn grade(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x >= min(params.count, arrayLength(&pixels)) {
        return;
    }
    let px = pixels[id.x];
    var c = params.matrix * px.rgb + params.lift;
    let y = luma(c);
    c = mix(vec3<f16>(y), c, params.saturation);
    c = (c - vec3<f16>(0.5h)) * params.contrast + vec3<f16>(0.5h);
    c = pow(clamp(c, vec3<f16>(0.0h), vec3<f16>(1.0h)), vec3<f16>(1.0h) / params.gamma);
    let dithered = c + vec3<f16>(f16(f32(id.x % 4u) * 0.25 - 0.375) / 255.0h);
    pixels[id.x] = vec4<f16>(dithered, px.a);
}
