// Every sampled texture kind in one fragment shader: 1d, 2d, 2d_array, cube, cube_array, 3d
// with f32, i32 and u32 sample types, multisampled 2d, and the depth kinds (2d, 2d_array,
// cube, cube_array, multisampled 2d); textureSample, Bias, Level, Grad, Compare,
// CompareLevel, Gather, GatherCompare, BaseClampToEdge, with const offsets where allowed.

struct TextureParams {
    lod: f32,
    bias: f32,
    depth_ref: f32,
    layer: i32,
    dir: vec3<f32>,
    sample: i32,
}

@group(0) @binding(0) var<uniform> tp: TextureParams;
@group(0) @binding(1) var linear_sampler: sampler;
@group(0) @binding(2) var shadow_sampler: sampler_comparison;
@group(1) @binding(0) var t1d: texture_1d<f32>;
@group(1) @binding(1) var t2d: texture_2d<f32>;
@group(1) @binding(2) var t2d_array: texture_2d_array<f32>;
@group(1) @binding(3) var tcube: texture_cube<f32>;
@group(1) @binding(4) var tcube_array: texture_cube_array<f32>;
@group(1) @binding(5) var t3d: texture_3d<f32>;
@group(1) @binding(6) var t2d_i: texture_2d<i32>;
@group(1) @binding(7) var t3d_u: texture_3d<u32>;
@group(1) @binding(8) var tms: texture_multisampled_2d<f32>;
@group(1) @binding(9) var tms_u: texture_multisampled_2d<u32>;
@group(2) @binding(0) var depth2d: texture_depth_2d;
@group(2) @binding(1) var depth2d_array: texture_depth_2d_array;
@group(2) @binding(2) var depth_cube: texture_depth_cube;
@group(2) @binding(3) var depth_cube_array: texture_depth_cube_array;
@group(2) @binding(4) var depth_ms: texture_depth_multisampled_2d;
@group(2) @binding(5) var external_like: texture_2d<f32>;

@fragment
fn fs_main(@builtin(position) frag: vec4<f32>, @location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {
    var c = vec4<f32>(0.0);
    // Implicit LOD.
    c += textureSample(t1d, linear_sampler, uv.x);
    c += textureSample(t2d, linear_sampler, uv);
    c += textureSample(t2d, linear_sampler, uv, vec2<i32>(1, -1));
    c += textureSample(t2d_array, linear_sampler, uv, tp.layer);
    c += textureSample(t2d_array, linear_sampler, uv, tp.layer, vec2<i32>(2, 0));
    c += textureSample(tcube, linear_sampler, tp.dir);
    c += textureSample(tcube_array, linear_sampler, tp.dir, tp.layer);
    c += textureSample(t3d, linear_sampler, vec3<f32>(uv, 0.5));
    c += textureSample(t3d, linear_sampler, vec3<f32>(uv, 0.5), vec3<i32>(0, 1, 0));
    // Bias.
    c += textureSampleBias(t2d, linear_sampler, uv, tp.bias);
    c += textureSampleBias(t2d, linear_sampler, uv, tp.bias, vec2<i32>(-2, 3));
    c += textureSampleBias(t2d_array, linear_sampler, uv, tp.layer, tp.bias);
    c += textureSampleBias(tcube, linear_sampler, tp.dir, tp.bias);
    c += textureSampleBias(t3d, linear_sampler, vec3<f32>(uv, 0.25), tp.bias);
    // Explicit level.
    c += textureSampleLevel(t2d, linear_sampler, uv, tp.lod);
    c += textureSampleLevel(t2d, linear_sampler, uv, tp.lod, vec2<i32>(1, 1));
    c += textureSampleLevel(t2d_array, linear_sampler, uv, tp.layer, tp.lod);
    c += textureSampleLevel(tcube, linear_sampler, tp.dir, tp.lod);
    c += textureSampleLevel(tcube_array, linear_sampler, tp.dir, tp.layer, tp.lod);
    c += textureSampleLevel(t3d, linear_sampler, vec3<f32>(uv, 0.75), tp.lod);
    // Gradients.
    let ddx = dpdx(uv);
    let ddy = dpdy(uv);
    c += textureSampleGrad(t2d, linear_sampler, uv, ddx, ddy);
    c += textureSampleGrad(t2d, linear_sampler, uv, ddx, ddy, vec2<i32>(0, -1));
    c += textureSampleGrad(t2d_array, linear_sampler, uv, tp.layer, ddx, ddy);
    c += textureSampleGrad(tcube, linear_sampler, tp.dir, tp.dir * 0.01, tp.dir * 0.02);
    c += textureSampleGrad(t3d, linear_sampler, vec3<f32>(uv, 0.5), vec3<f32>(ddx, 0.0), vec3<f32>(ddy, 0.0));
    // Clamp to edge.
    c += textureSampleBaseClampToEdge(external_like, linear_sampler, uv);
    // Depth comparison.
    var shadow = 0.0;
    shadow += textureSampleCompare(depth2d, shadow_sampler, uv, tp.depth_ref);
    shadow += textureSampleCompare(depth2d, shadow_sampler, uv, tp.depth_ref, vec2<i32>(1, 0));
    shadow += textureSampleCompare(depth2d_array, shadow_sampler, uv, tp.layer, tp.depth_ref);
    shadow += textureSampleCompare(depth_cube, shadow_sampler, tp.dir, tp.depth_ref);
    shadow += textureSampleCompare(depth_cube_array, shadow_sampler, tp.dir, tp.layer, tp.depth_ref);
    shadow += textureSampleCompareLevel(depth2d, shadow_sampler, uv, tp.depth_ref);
    shadow += textureSampleCompareLevel(depth2d_array, shadow_sampler, uv, tp.layer, tp.depth_ref, vec2<i32>(0, 1));
    shadow += textureSampleCompareLevel(depth_cube, shadow_sampler, tp.dir, tp.depth_ref);
    shadow += textureSample(depth2d, linear_sampler, uv);
    shadow += textureSampleLevel(depth2d_array, linear_sampler, uv, tp.layer, 0);
    shadow += textureSampleLevel(depth_cube, linear_sampler, tp.dir, 1);
    // Gathers.
    c += textureGather(0, t2d, linear_sampler, uv);
    c += textureGather(1, t2d, linear_sampler, uv, vec2<i32>(1, 1));
    c += textureGather(2, t2d_array, linear_sampler, uv, tp.layer);
    c += textureGather(3, tcube, linear_sampler, tp.dir);
    c += textureGather(0, tcube_array, linear_sampler, tp.dir, tp.layer);
    c += vec4<f32>(textureGather(1, t2d_i, linear_sampler, uv));
    c += textureGather(depth2d, linear_sampler, uv);
    c += textureGather(depth_cube, linear_sampler, tp.dir);
    c += textureGatherCompare(depth2d, shadow_sampler, uv, tp.depth_ref);
    c += textureGatherCompare(depth2d_array, shadow_sampler, uv, tp.layer, tp.depth_ref, vec2<i32>(-1, 0));
    c += textureGatherCompare(depth_cube, shadow_sampler, tp.dir, tp.depth_ref);
    c += textureGatherCompare(depth_cube_array, shadow_sampler, tp.dir, tp.layer, tp.depth_ref);
    // Loads: integer textures, multisampled and depth multisampled.
    let p = vec2<i32>(frag.xy);
    c += vec4<f32>(textureLoad(t2d_i, p, 0));
    c += vec4<f32>(textureLoad(t3d_u, vec3<i32>(p, 0), 1));
    c += textureLoad(tms, p, tp.sample);
    c += vec4<f32>(textureLoad(tms_u, p, tp.sample));
    shadow += textureLoad(depth_ms, p, tp.sample);
    shadow += textureLoad(depth2d, p, 0);
    shadow += textureLoad(depth2d_array, p, tp.layer, 0);
    return c * shadow;
}
