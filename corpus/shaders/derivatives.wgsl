// Fragment derivatives and helper-invocation behaviour: dpdx/dpdy/fwidth with their Coarse
// and Fine variants on scalars and vectors, discard followed by more derivative work
// (demote semantics), early return from a fragment shader, and textureSample after discard.

struct EdgeParams {
    threshold: f32,
    width: f32,
    tint: vec4<f32>,
}

@group(0) @binding(0) var<uniform> edge_params: EdgeParams;
@group(0) @binding(1) var<storage, read_write> edge_stats: array<atomic<u32>, 4>;
@group(0) @binding(2) var pattern: texture_2d<f32>;
@group(0) @binding(3) var pattern_sampler: sampler;

@fragment
fn fs_edges(@location(0) uv: vec2<f32>, @location(1) height: f32) -> @location(0) vec4<f32> {
    let dx = dpdx(height);
    let dy = dpdy(height);
    let coarse = vec2<f32>(dpdxCoarse(height), dpdyCoarse(height));
    let fine = vec2<f32>(dpdxFine(height), dpdyFine(height));
    let w = fwidth(uv) + fwidthCoarse(uv) + fwidthFine(uv);
    let slope = length(vec2<f32>(dx, dy)) + length(coarse - fine) + fwidth(height) + fwidthFine(height) + fwidthCoarse(height);
    if slope < edge_params.threshold {
        discard;
    }
    // Derivatives and implicit-LOD sampling after a discard.
    let grad = dpdxFine(uv * 4.0) + dpdyCoarse(uv.yx * 4.0);
    let texel = textureSample(pattern, pattern_sampler, uv + grad * 0.01);
    atomicAdd(&edge_stats[0], 1u);
    if texel.a < 0.5 {
        atomicAdd(&edge_stats[1], 1u);
        return vec4<f32>(0.0);
    }
    let edge = smoothstep(0.0, edge_params.width, slope) * (w.x + w.y);
    return vec4<f32>(texel.rgb * edge_params.tint.rgb * edge, 1.0);
}
