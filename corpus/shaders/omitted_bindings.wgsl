// Layout dialect: resources may omit `@binding` (and `@group`). stride
// reserves the explicit bindings first, then gives each omitted one the
// first free binding of its group in declaration order (spec/001):
//   albedo -> @group(0) @binding(0), samp -> @binding(2),
//   lights -> @group(1) @binding(1), shadow -> @group(0) @binding(3),
//   shadow_samp -> @group(0) @binding(4).
// `--target reflect` marks these with "allocated": true.

struct Material {
    tint: vec4<f32>,
    roughness: f32,
}

struct Light {
    position: vec3<f32>,
    intensity: f32,
}

var albedo: texture_2d<f32>;
@group(0) @binding(1) var<uniform> material: Material;
var samp: sampler;
@group(1) var<storage, read> lights: array<Light>;
@group(1) @binding(0) var<uniform> light_count: u32;
var shadow: texture_depth_2d;
var shadow_samp: sampler_comparison;

struct VertexOut {
    @builtin(position) position: vec4<f32>,
    @location(0) uv: vec2<f32>,
    @location(1) world: vec3<f32>,
}

@vertex
fn vs_main(@builtin(vertex_index) index: u32) -> VertexOut {
    let uv = vec2<f32>(f32((index << 1u) & 2u), f32(index & 2u));
    var out: VertexOut;
    out.position = vec4<f32>(uv * 2.0 - 1.0, 0.0, 1.0);
    out.uv = uv;
    out.world = vec3<f32>(uv, 0.0);
    return out;
}

@fragment
fn fs_main(in: VertexOut) -> @location(0) vec4<f32> {
    let base = textureSample(albedo, samp, in.uv) * material.tint;
    var light = 0.0;
    for (var i = 0u; i < min(light_count, arrayLength(&lights)); i++) {
        let l = lights[i];
        light += l.intensity / max(distance(l.position, in.world), 0.001);
    }
    let lit = textureSampleCompare(shadow, shadow_samp, in.uv, in.position.z);
    return vec4<f32>(base.rgb * light * lit * (1.0 - material.roughness), base.a);
}
