// Post-processing: a fullscreen-triangle vertex shader, a separable Gaussian blur
// fragment shader (weights array in a uniform), and a tonemap + gamma fragment shader.

struct BlurParams {
    direction: vec2<f32>,
    texel_size: vec2<f32>,
    weights: array<vec4<f32>, 2>,
    radius: u32,
}

struct TonemapParams {
    exposure: f32,
    gamma: f32,
    white_point: f32,
    vignette: f32,
}

@group(0) @binding(0) var source: texture_2d<f32>;
@group(0) @binding(1) var linear_sampler: sampler;
@group(0) @binding(2) var<uniform> blur: BlurParams;
@group(0) @binding(3) var<uniform> tonemap: TonemapParams;

struct FullscreenOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) uv: vec2<f32>,
}

@vertex
fn vs_fullscreen(@builtin(vertex_index) index: u32) -> FullscreenOut {
    let x = f32((index << 1u) & 2u);
    let y = f32(index & 2u);
    var out: FullscreenOut;
    out.clip = vec4<f32>(x * 2.0 - 1.0, 1.0 - y * 2.0, 0.0, 1.0);
    out.uv = vec2<f32>(x, y);
    return out;
}

fn weight(i: u32) -> f32 {
    return blur.weights[i / 4u][i % 4u];
}

@fragment
fn fs_blur(in: FullscreenOut) -> @location(0) vec4<f32> {
    let step = blur.direction * blur.texel_size;
    var sum = textureSampleLevel(source, linear_sampler, in.uv, 0.0) * weight(0u);
    for (var i = 1u; i <= min(blur.radius, 7u); i++) {
        let offset = step * f32(i);
        sum += textureSampleLevel(source, linear_sampler, in.uv + offset, 0.0) * weight(i);
        sum += textureSampleLevel(source, linear_sampler, in.uv - offset, 0.0) * weight(i);
    }
    return sum;
}

fn reinhard_extended(c: vec3<f32>, white: f32) -> vec3<f32> {
    let num = c * (vec3<f32>(1.0) + c / (white * white));
    return num / (vec3<f32>(1.0) + c);
}

@fragment
fn fs_tonemap(in: FullscreenOut) -> @location(0) vec4<f32> {
    let hdr = textureSample(source, linear_sampler, in.uv).rgb * tonemap.exposure;
    var ldr = reinhard_extended(hdr, tonemap.white_point);
    let d = distance(in.uv, vec2<f32>(0.5));
    ldr *= 1.0 - tonemap.vignette * smoothstep(0.3, 0.8, d);
    return vec4<f32>(pow(ldr, vec3<f32>(1.0 / tonemap.gamma)), 1.0);
}
