// Texture queries and loads in a compute shader (no implicit derivatives): textureDimensions
// with and without a level for every dimensionality, textureNumLevels, textureNumLayers,
// textureNumSamples, textureLoad on 1d/2d/2d_array/3d/multisampled/depth textures, and
// textureSampleLevel and textureGather outside fragment shaders; results go to storage.

struct Query {
    dims_1d: u32,
    levels: u32,
    layers: u32,
    samples: u32,
    dims_2d: vec2<u32>,
    dims_cube: vec2<u32>,
    dims_3d: vec3<u32>,
    depth_info: vec4<u32>,
    texels: array<vec4<f32>, 6>,
    itexel: vec4<i32>,
}

@group(0) @binding(0) var<storage, read_write> query: Query;
@group(0) @binding(1) var q1d: texture_1d<f32>;
@group(0) @binding(2) var q2d: texture_2d<f32>;
@group(0) @binding(3) var q2d_array: texture_2d_array<i32>;
@group(0) @binding(4) var qcube: texture_cube<f32>;
@group(0) @binding(5) var qcube_array: texture_cube_array<f32>;
@group(0) @binding(6) var q3d: texture_3d<f32>;
@group(0) @binding(7) var qms: texture_multisampled_2d<f32>;
@group(0) @binding(8) var qdepth: texture_depth_2d;
@group(0) @binding(9) var qdepth_array: texture_depth_2d_array;
@group(0) @binding(10) var qdepth_cube: texture_depth_cube;
@group(0) @binding(11) var qdepth_cube_array: texture_depth_cube_array;
@group(0) @binding(12) var qdepth_ms: texture_depth_multisampled_2d;
@group(0) @binding(13) var qsampler: sampler;

@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let level = i32(gid.z);
    query.dims_1d = textureDimensions(q1d) + textureDimensions(q1d, level);
    query.dims_2d = textureDimensions(q2d) + textureDimensions(q2d, 1u) + textureDimensions(q2d_array)
        + textureDimensions(qms) + textureDimensions(qdepth, level) + textureDimensions(qdepth_ms);
    query.dims_cube = textureDimensions(qcube) + textureDimensions(qcube_array, 0) + textureDimensions(qdepth_cube)
        + textureDimensions(qdepth_cube_array, 1);
    query.dims_3d = textureDimensions(q3d) + textureDimensions(q3d, level);
    query.levels = textureNumLevels(q1d) + textureNumLevels(q2d) + textureNumLevels(q2d_array) + textureNumLevels(qcube)
        + textureNumLevels(qcube_array) + textureNumLevels(q3d) + textureNumLevels(qdepth) + textureNumLevels(qdepth_cube_array);
    query.layers = textureNumLayers(q2d_array) + textureNumLayers(qcube_array) + textureNumLayers(qdepth_array)
        + textureNumLayers(qdepth_cube_array);
    query.samples = textureNumSamples(qms) + textureNumSamples(qdepth_ms);
    query.depth_info = vec4<u32>(textureDimensions(qdepth_array), textureNumLevels(qdepth_array), textureNumLevels(qdepth_cube));

    let p = vec2<i32>(gid.xy);
    query.texels[0] = textureLoad(q1d, p.x, level);
    query.texels[1] = textureLoad(q2d, p, level) + textureLoad(q2d, vec2<u32>(gid.xy), 0u);
    query.texels[2] = textureLoad(q3d, vec3<i32>(gid), 0);
    query.texels[3] = textureLoad(qms, p, 0) + vec4<f32>(textureLoad(qdepth_ms, p, 1));
    query.texels[4] = vec4<f32>(textureLoad(qdepth, p, level), textureLoad(qdepth_array, p, 1, 0), 0.0, 1.0);
    let uv = vec2<f32>(gid.xy) / 64.0;
    query.texels[5] = textureSampleLevel(q2d, qsampler, uv, 0.0) + textureSampleLevel(qcube, qsampler, vec3<f32>(uv, 1.0), 2.0)
        + textureGather(2, q2d, qsampler, uv) + vec4<f32>(textureSampleLevel(qdepth_cube, qsampler, vec3<f32>(uv, -1.0), 0));
    query.itexel = textureLoad(q2d_array, p, i32(gid.z), 0);
}
