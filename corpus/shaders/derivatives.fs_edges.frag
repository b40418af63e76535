#version 450

layout(set = 0, binding = 0, std140) uniform edge_params_block {
    layout(offset = 0) float threshold;
    layout(offset = 4) float width;
    layout(offset = 16) vec4 tint;
} edge_params;
layout(set = 0, binding = 1, std430) buffer edge_stats_block {
    layout(offset = 0) uint value[4];
} edge_stats;
layout(set = 0, binding = 2) uniform texture2D pattern;
layout(set = 0, binding = 3) uniform sampler pattern_sampler;

layout(location = 0) in vec2 _s_vary0;
layout(location = 1) in float _s_vary1;
layout(location = 0) out vec4 _s_frag0;

void main() {
    vec2 uv = _s_vary0;
    float height = _s_vary1;
    const float dx_e2 = dFdx(height);
    const float dy_e3 = dFdy(height);
    const float _e4 = dFdxCoarse(height);
    const float _e5 = dFdyCoarse(height);
    const vec2 coarse_e6 = vec2(_e4, _e5);
    const float _e7 = dFdxFine(height);
    const float _e8 = dFdyFine(height);
    const vec2 fine_e9 = vec2(_e7, _e8);
    const vec2 _e10 = fwidth(uv);
    const vec2 _e11 = fwidthCoarse(uv);
    const vec2 _e13 = fwidthFine(uv);
    const vec2 w_e14 = (_e10 + _e11) + _e13;
    const float _e20 = fwidth(height);
    const float _e22 = fwidthFine(height);
    const float _e24 = fwidthCoarse(height);
    const float slope_e25 = (((length(vec2(dx_e2, dy_e3)) + length(coarse_e6 - fine_e9)) + _e20) + _e22) + _e24;
    const float _e28 = edge_params.threshold;
    if (slope_e25 < _e28) {
        discard;
    }
    const vec2 _e32 = dFdxFine(uv * 4.0);
    const vec2 _e36 = dFdyCoarse(uv.yx * 4.0);
    const vec2 grad_e37 = _e32 + _e36;
    const vec4 texel_e43 = texture(sampler2D(pattern, pattern_sampler), uv + (grad_e37 * 0.01));
    uint _e47 = atomicAdd(edge_stats.value[0], 1u);
    if (texel_e43.w < 0.5) {
        uint _e54 = atomicAdd(edge_stats.value[1], 1u);
        vec4 _s_v1 = vec4(0.0);
        _s_frag0 = _s_v1;
        return;
    }
    const float _e59 = edge_params.width;
    const float edge_e65 = smoothstep(0.0, _e59, slope_e25) * (w_e14.x + w_e14.y);
    const vec4 _e69 = edge_params.tint;
    vec4 _s_v2 = vec4((texel_e43.xyz * _e69.xyz) * edge_e65, 1.0);
    _s_frag0 = _s_v2;
    return;
}
