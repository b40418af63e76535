// f16 arithmetic (enable f16) on buffers that hold no f16: values come in as f32 and as
// pairs packed in u32 (unpack2x16float), are graded with f16 scalars, vectors, a mat3x3<f16>,
// f16 builtins, an f16 constant, a private f16 and a function over f16, and go back as f32 and
// packed pairs. Desktop GL and ES write the arithmetic with GL_AMD_gpu_shader_half_float.
enable f16;

const HALF: f16 = 0.5h;

struct Grade {
    matrix: mat3x3<f32>,
    lift: vec3<f32>,
    contrast: f32,
}

@group(0) @binding(0) var<uniform> grade: Grade;
@group(0) @binding(1) var<storage, read_write> pixels: array<u32>;
@group(0) @binding(2) var<storage, read_write> lumas: array<f32>;

var<private> bias: f16 = 0.0h;

fn luma(c: vec3<f16>) -> f16 {
    return dot(c, vec3<f16>(0.2126h, 0.7152h, 0.0722h));
}

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let n = arrayLength(&pixels) / 2u;
    if id.x >= n {
        return;
    }
    let rg = vec2<f16>(unpack2x16float(pixels[2u * id.x]));
    let ba = vec2<f16>(unpack2x16float(pixels[2u * id.x + 1u]));
    let m = mat3x3<f16>(grade.matrix);
    bias = f16(id.x % 4u) * 0.25h - 0.375h;
    var c = m * vec3<f16>(rg, ba.x) + vec3<f16>(grade.lift);
    c = (c - vec3<f16>(HALF)) * f16(grade.contrast) + vec3<f16>(HALF);
    c = clamp(c + vec3<f16>(bias / 255.0h), vec3<f16>(0.0h), vec3<f16>(1.0h));
    let y = luma(c);
    lumas[id.x] = f32(max(y, -y)) + f32(sqrt(abs(y)));
    pixels[2u * id.x] = pack2x16float(vec2<f32>(c.xy));
    pixels[2u * id.x + 1u] = pack2x16float(vec2<f32>(f32(c.z), f32(ba.y)));
}
