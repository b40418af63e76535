#version 450
#extension GL_EXT_samplerless_texture_functions : require

struct FragIn {
    vec4 frag_coord;
    vec3 world_pos;
    vec3 normal;
    vec2 uv;
};

layout(set = 0, binding = 0, std140) uniform params_block {
    layout(offset = 0) mat4 light_view_proj;
    layout(offset = 64) int layer;
    layout(offset = 68) float lod_bias;
    layout(offset = 72) float shadow_bias;
    layout(offset = 76) float env_strength;
} params;
layout(set = 0, binding = 1) uniform texture2D albedo;
layout(set = 0, binding = 2) uniform textureCube environment;
layout(set = 0, binding = 3) uniform texture2DArray decals;
layout(set = 0, binding = 4) uniform texture2D shadow_map;
layout(set = 0, binding = 5) uniform utexture2D lookup;
layout(set = 0, binding = 6) uniform sampler color_sampler;
layout(set = 0, binding = 7) uniform samplerShadow shadow_sampler;

layout(location = 0) in vec3 _s_vary0;
layout(location = 1) in vec3 _s_vary1;
layout(location = 2) in vec2 _s_vary2;
layout(location = 0) out vec4 _s_frag0;

int _s_mod_int(int a, int b) {
    int d = (b == 0 || (a == (-2147483647 - 1) && b == (-1))) ? 1 : b;
    return a - (a / d) * d;
}

ivec2 _s_mod_ivec2(ivec2 a, ivec2 b) {
    return ivec2(_s_mod_int(a.x, b.x), _s_mod_int(a.y, b.y));
}

uint _s_mod_uint(uint a, uint b) {
    return a % (b == 0u ? 1u : b);
}

float shadow_factor(vec3 world_pos) {
    float lit = 0.0;
    int y = -1;
    int x = 0;
    const mat4 _e3 = params.light_view_proj;
    const vec4 clip_e6 = _e3 * vec4(world_pos, 1.0);
    const vec3 ndc_e10 = clip_e6.xyz / vec3(clip_e6.w);
    const vec2 uv_e18 = (ndc_e10.xy * vec2(0.5, -0.5)) + vec2(0.5);
    const vec2 texel_e24 = vec2(1.0) / vec2(uvec2(textureSize(shadow_map, 0)));
    bool _s_loop_init1 = true;
    while (true) {
        if (!_s_loop_init1) {
            const int _e58 = y;
            y = _e58 + 1;
        }
        _s_loop_init1 = false;
        const int _e29 = y;
        if (_e29 <= 1) {
        } else {
            break;
        }
        {
            x = -1;
            bool _s_loop_init2 = true;
            while (true) {
                if (!_s_loop_init2) {
                    const int _e55 = x;
                    x = _e55 + 1;
                }
                _s_loop_init2 = false;
                const int _e34 = x;
                if (_e34 <= 1) {
                } else {
                    break;
                }
                {
                    const int _e37 = x;
                    const int _e39 = y;
                    const vec2 o_e42 = vec2(float(_e37), float(_e39)) * texel_e24;
                    const float _e43 = lit;
                    const float _e50 = params.shadow_bias;
                    const float _e52 = textureLod(sampler2DShadow(shadow_map, shadow_sampler), vec3(uv_e18 + o_e42, ndc_e10.z - _e50), 0.0);
                    lit = _e43 + _e52;
                }
            }
        }
    }
    const float _e60 = lit;
    return _e60 / 9.0;
}

void main() {
    FragIn in_ = FragIn(gl_FragCoord, _s_vary0, _s_vary1, _s_vary2);
    bool local = false;
    vec3 color = vec3(0.0);
    const float _e6 = params.lod_bias;
    const vec4 base_e7 = texture(sampler2D(albedo, color_sampler), in_.uv, _e6);
    const vec2 _e12 = dFdx(in_.uv);
    const vec2 _e14 = dFdy(in_.uv);
    const vec4 sharp_e15 = textureGrad(sampler2D(albedo, color_sampler), in_.uv, _e12, _e14);
    const vec4 env_e24 = texture(samplerCube(environment, color_sampler), reflect(-normalize(in_.world_pos), normalize(in_.normal)));
    const int _e30 = params.layer;
    const vec4 decal_e31 = texture(sampler2DArray(decals, color_sampler), vec3(in_.uv, float(_e30)));
    const uvec4 _e41 = texelFetch(lookup, clamp(_s_mod_ivec2(ivec2(clamp(in_.frag_coord.xy, -2147483648.0, 2147483520.0)), ivec2(uvec2(textureSize(lookup, 0)))), ivec2(0), textureSize(lookup, 0) - ivec2(1)), 0);
    const uint id_e42 = _e41.x;
    const uint layers_e44 = uint(textureSize(decals, 0).z);
    if (_s_mod_uint(id_e42, 2u) == 1u) {
        local = layers_e44 > 1u;
    } else {
        local = false;
    }
    const bool _e60 = local;
    const vec3 tint_e61 = _e60 ? vec3(0.8, 0.9, 1.0) : vec3(1.0);
    color = mix(base_e7.xyz, sharp_e15.xyz, 0.5) * tint_e61;
    const vec3 _e68 = color;
    const float _e75 = params.env_strength;
    color = mix(_e68, decal_e31.xyz, decal_e31.w) + (env_e24.xyz * _e75);
    const vec3 _e78 = color;
    float _e80 = shadow_factor(in_.world_pos);
    vec4 _s_v1 = vec4(_e78 * _e80, base_e7.w);
    _s_frag0 = _s_v1;
    return;
}
