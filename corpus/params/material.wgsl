// A resource struct with data members of its own, a nested resource struct, a
// binding array member and an explicit first binding: `@group(1) @binding(2)
// var material: Material` takes bindings 2 (the uniform buffer of the data members),
// 3, 4, 5 and 6 of group 1, in member order, depth first. The resource-only
// `Detail` keeps no data, so `material.detail` has no uniform part. A second
// parameter omits `@binding` and gets the first free contiguous range of group 1
// (0..1 is too short for its two bindings, so 7..8).

enable wgpu_binding_array;

struct Detail {
    normal: texture_2d<f32>,
    layers: binding_array<texture_2d<f32>, 4>,
}

struct Material {
    tint: vec4<f32>,
    albedo: texture_2d<f32>,
    roughness: f32,
    detail: Detail,
    samp: sampler,
}

struct Fog {
    color: vec3<f32>,
    density: f32,
    noise: texture_3d<f32>,
}

@group(1) @binding(2) var material: Material;
@group(1) var fog: Fog;
@group(1) @binding(1) var<uniform> exposure: f32;

@fragment
fn fs_main(@location(0) uv: vec2<f32>, @location(1) depth: f32) -> @location(0) vec4<f32> {
    var color = textureSample(material.albedo, material.samp, uv) * material.tint;
    let n = textureSample(material.detail.normal, material.samp, uv).xyz;
    for (var i = 0u; i < 4u; i++) {
        color += textureSample(material.detail.layers[i], material.samp, uv) * material.roughness;
    }
    let fog_amount = 1.0 - exp(-fog.density * depth) * textureSample(fog.noise, material.samp, vec3<f32>(uv, depth)).x;
    let lit = mix(color.rgb * max(n.z, 0.0), fog.color, fog_amount) * exposure;
    return vec4<f32>(lit, color.a);
}
