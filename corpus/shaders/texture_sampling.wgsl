// Texture sampling: 2d with explicit LOD and gradients, cube map, 2d array layer,
// depth comparison (shadow map with sampler_comparison), textureLoad and textureDimensions.

struct SamplingParams {
    light_view_proj: mat4x4<f32>,
    layer: i32,
    lod_bias: f32,
    shadow_bias: f32,
    env_strength: f32,
}

@group(0) @binding(0) var<uniform> params: SamplingParams;
@group(0) @binding(1) var albedo: texture_2d<f32>;
@group(0) @binding(2) var environment: texture_cube<f32>;
@group(0) @binding(3) var decals: texture_2d_array<f32>;
@group(0) @binding(4) var shadow_map: texture_depth_2d;
@group(0) @binding(5) var lookup: texture_2d<u32>;
@group(0) @binding(6) var color_sampler: sampler;
@group(0) @binding(7) var shadow_sampler: sampler_comparison;

struct FragIn {
    @builtin(position) frag_coord: vec4<f32>,
    @location(0) world_pos: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) uv: vec2<f32>,
}

fn shadow_factor(world_pos: vec3<f32>) -> f32 {
    let clip = params.light_view_proj * vec4<f32>(world_pos, 1.0);
    let ndc = clip.xyz / clip.w;
    let uv = ndc.xy * vec2<f32>(0.5, -0.5) + vec2<f32>(0.5);
    let texel = 1.0 / vec2<f32>(textureDimensions(shadow_map));
    var lit = 0.0;
    for (var y = -1; y <= 1; y++) {
        for (var x = -1; x <= 1; x++) {
            let o = vec2<f32>(f32(x), f32(y)) * texel;
            lit += textureSampleCompareLevel(shadow_map, shadow_sampler, uv + o, ndc.z - params.shadow_bias);
        }
    }
    return lit / 9.0;
}

@fragment
fn fs_main(in: FragIn) -> @location(0) vec4<f32> {
    let base = textureSampleBias(albedo, color_sampler, in.uv, params.lod_bias);
    let sharp = textureSampleGrad(albedo, color_sampler, in.uv, dpdx(in.uv), dpdy(in.uv));
    let env = textureSample(environment, color_sampler, reflect(-normalize(in.world_pos), normalize(in.normal)));
    let decal = textureSample(decals, color_sampler, in.uv, params.layer);
    let id = textureLoad(lookup, vec2<i32>(in.frag_coord.xy) % vec2<i32>(textureDimensions(lookup)), 0).r;
    let layers = textureNumLayers(decals);
    let tint = select(vec3<f32>(1.0), vec3<f32>(0.8, 0.9, 1.0), (id % 2u) == 1u && layers > 1u);
    var color = mix(base.rgb, sharp.rgb, 0.5) * tint;
    color = mix(color, decal.rgb, decal.a) + env.rgb * params.env_strength;
    return vec4<f32>(color * shadow_factor(in.world_pos), base.a);
}
