// Physically based shading (Cook-Torrance GGX): material uniform, lights in a read-only
// storage buffer, normal/metallic-roughness maps, and an ACES-style output curve.

const PI: f32 = 3.14159265;

struct Globals {
    view_proj: mat4x4<f32>,
    camera_pos: vec3<f32>,
    exposure: f32,
}

struct Material {
    base_color: vec4<f32>,
    emissive: vec3<f32>,
    metallic: f32,
    roughness: f32,
    occlusion_strength: f32,
    normal_scale: f32,
    alpha_cutoff: f32,
}

struct DirectionalLight {
    direction: vec3<f32>,
    illuminance: f32,
    color: vec3<f32>,
    shadow_index: i32,
}

@group(0) @binding(0) var<uniform> globals: Globals;
@group(0) @binding(1) var<storage, read> dir_lights: array<DirectionalLight>;
@group(1) @binding(0) var<uniform> material: Material;
@group(1) @binding(1) var base_color_map: texture_2d<f32>;
@group(1) @binding(2) var normal_map: texture_2d<f32>;
@group(1) @binding(3) var metal_rough_map: texture_2d<f32>;
@group(1) @binding(4) var material_sampler: sampler;

struct VsIn {
    @location(0) position: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) tangent: vec4<f32>,
    @location(3) uv: vec2<f32>,
}

struct VsOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) world_pos: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) tangent: vec4<f32>,
    @location(3) uv: vec2<f32>,
}

@vertex
fn vs_main(in: VsIn) -> VsOut {
    var out: VsOut;
    out.clip = globals.view_proj * vec4<f32>(in.position, 1.0);
    out.world_pos = in.position;
    out.normal = in.normal;
    out.tangent = in.tangent;
    out.uv = in.uv;
    return out;
}

fn distribution_ggx(n_dot_h: f32, roughness: f32) -> f32 {
    let a = roughness * roughness;
    let a2 = a * a;
    let d = n_dot_h * n_dot_h * (a2 - 1.0) + 1.0;
    return a2 / (PI * d * d);
}

fn geometry_smith(n_dot_v: f32, n_dot_l: f32, roughness: f32) -> f32 {
    let k = (roughness + 1.0) * (roughness + 1.0) / 8.0;
    let gv = n_dot_v / (n_dot_v * (1.0 - k) + k);
    let gl = n_dot_l / (n_dot_l * (1.0 - k) + k);
    return gv * gl;
}

fn fresnel_schlick(cos_theta: f32, f0: vec3<f32>) -> vec3<f32> {
    return f0 + (vec3<f32>(1.0) - f0) * pow(1.0 - cos_theta, 5.0);
}

fn aces(x: vec3<f32>) -> vec3<f32> {
    let a = 2.51;
    let b = 0.03;
    let c = 2.43;
    let d = 0.59;
    let e = 0.14;
    return clamp((x * (a * x + b)) / (x * (c * x + d) + e), vec3<f32>(0.0), vec3<f32>(1.0));
}

@fragment
fn fs_main(in: VsOut) -> @location(0) vec4<f32> {
    let albedo = textureSample(base_color_map, material_sampler, in.uv) * material.base_color;
    if albedo.a < material.alpha_cutoff {
        discard;
    }
    let mr = textureSample(metal_rough_map, material_sampler, in.uv);
    let metallic = mr.b * material.metallic;
    let roughness = clamp(mr.g * material.roughness, 0.04, 1.0);

    let tn = textureSample(normal_map, material_sampler, in.uv).xyz * 2.0 - 1.0;
    let n0 = normalize(in.normal);
    let t = normalize(in.tangent.xyz - n0 * dot(n0, in.tangent.xyz));
    let b = cross(n0, t) * in.tangent.w;
    let n = normalize(mat3x3<f32>(t, b, n0) * vec3<f32>(tn.xy * material.normal_scale, tn.z));

    let v = normalize(globals.camera_pos - in.world_pos);
    let n_dot_v = max(dot(n, v), 1e-4);
    let f0 = mix(vec3<f32>(0.04), albedo.rgb, metallic);

    var radiance = material.emissive;
    let count = arrayLength(&dir_lights);
    for (var i = 0u; i < count; i++) {
        let light = dir_lights[i];
        let l = -normalize(light.direction);
        let h = normalize(v + l);
        let n_dot_l = max(dot(n, l), 0.0);
        if n_dot_l <= 0.0 {
            continue;
        }
        let d = distribution_ggx(max(dot(n, h), 0.0), roughness);
        let g = geometry_smith(n_dot_v, n_dot_l, roughness);
        let f = fresnel_schlick(max(dot(h, v), 0.0), f0);
        let specular = d * g * f / (4.0 * n_dot_v * n_dot_l + 1e-4);
        let kd = (vec3<f32>(1.0) - f) * (1.0 - metallic);
        radiance += (kd * albedo.rgb / PI + specular) * light.color * light.illuminance * n_dot_l;
    }
    let ao = mix(1.0, mr.r, material.occlusion_strength);
    return vec4<f32>(aces(radiance * ao * globals.exposure), albedo.a);
}
