// spec/001 "Splitting of Arrays", first example: `struct LightInfo { float3 pos;
// Texture2D shadowMap; }; LightInfo gLight;`. The data member goes into a uniform
// buffer `gLight` (binding 0), the texture becomes the global `gLight_shadowMap`
// (binding 1); `gLight.shadowMap` in the body reads it.

struct LightInfo {
    pos: vec3<f32>,
    shadowMap: texture_depth_2d,
}

var gLight: LightInfo;
var gShadowSampler: sampler_comparison;

struct VertexOutput {
    @builtin(position) position: vec4<f32>,
    @location(0) world: vec3<f32>,
    @location(1) shadow_uv: vec3<f32>,
}

@fragment
fn fs_main(in: VertexOutput) -> @location(0) vec4<f32> {
    let lit = textureSampleCompare(gLight.shadowMap, gShadowSampler, in.shadow_uv.xy, in.shadow_uv.z);
    let to_light = normalize(gLight.pos - in.world);
    return vec4<f32>(vec3<f32>(lit * max(to_light.y, 0.0)), 1.0);
}
