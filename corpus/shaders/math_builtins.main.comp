#version 450

layout(local_size_x = 64, local_size_y = 1, local_size_z = 1) in;

struct MathIn {
    vec4 a;
    vec4 b;
    float t;
    float eta;
    ivec2 ia;
    uvec2 ua;
};
struct MathOut {
    vec4 trig;
    vec4 hyper;
    vec4 expo;
    vec4 round;
    vec4 geom;
    vec4 blend;
    vec4 parts;
    ivec4 ints;
    uvec4 uints;
    ivec2 exps;
    uint flags;
};
struct _frexp_result_f32_ {
    float fract;
    int exp;
};
struct _frexp_result_vec2_f32_ {
    vec2 fract;
    ivec2 exp;
};
struct _modf_result_f32_ {
    float fract;
    float whole;
};
struct _modf_result_vec2_f32_ {
    vec2 fract;
    vec2 whole;
};

layout(set = 0, binding = 0, std430) readonly buffer inputs_block {
    layout(offset = 0) MathIn value[];
} inputs;
layout(set = 0, binding = 1, std430) buffer outputs_block {
    layout(offset = 0) MathOut value[];
} outputs;

_frexp_result_f32_ _s_frexp_float(float x) {
    int other;
    float f = frexp(x, other);
    return _frexp_result_f32_(f, other);
}

_frexp_result_vec2_f32_ _s_frexp_vec2(vec2 x) {
    ivec2 other;
    vec2 f = frexp(x, other);
    return _frexp_result_vec2_f32_(f, other);
}

_modf_result_f32_ _s_modf_float(float x) {
    float other;
    float f = modf(x, other);
    return _modf_result_f32_(f, other);
}

_modf_result_vec2_f32_ _s_modf_vec2(vec2 x) {
    vec2 other;
    vec2 f = modf(x, other);
    return _modf_result_vec2_f32_(f, other);
}

vec4 trig(vec4 v) {
    const vec4 s_e5 = clamp(v, vec4(-1.0), vec4(1.0));
    return ((((sin(v) + (cos(v) * tan(s_e5))) + (asin(s_e5) * acos(s_e5))) + atan(v)) + atan(v, v.wzyx + vec4(2.0))) + radians(degrees(v));
}

vec4 hyper(vec4 v_1) {
    const vec4 s_e5 = clamp(v_1, vec4(-0.9), vec4(0.9));
    return ((((sinh(s_e5) + cosh(s_e5)) + tanh(v_1)) + asinh(v_1)) + acosh(abs(v_1) + vec4(1.0))) + atanh(s_e5);
}

vec4 expo(vec4 v_2) {
    const vec4 p_e4 = abs(v_2) + vec4(0.5);
    return (((((exp(-p_e4) + exp2(-p_e4)) + log(p_e4)) + log2(p_e4)) + pow(p_e4, vec4(1.5))) + sqrt(p_e4)) + inversesqrt(p_e4);
}

vec4 rounding(vec4 v_3) {
    return (((((((floor(v_3) + (ceil(v_3) * 2.0)) + (roundEven(v_3) * 3.0)) + (trunc(v_3) * 4.0)) + fract(v_3)) + sign(v_3)) + clamp(v_3, 0.0, 1.0)) + step(vec4(0.5), v_3)) + vec4(unpackHalf2x16(packHalf2x16(v_3.xy)), unpackHalf2x16(packHalf2x16(v_3.zw)));
}

vec4 geometry(vec4 a, vec4 b, float eta) {
    const vec3 n_e9 = normalize(b.xyz + vec3(0.0, 1.0, 0.0));
    const vec3 r_e11 = reflect(a.xyz, n_e9);
    const vec3 t_e19 = refract(normalize(a.xyz + vec3(0.0, 0.0, 1.0)), n_e9, eta);
    const vec3 f_e22 = faceforward(n_e9, a.xyz, b.xyz);
    const vec3 c_e25 = cross(a.xyz, b.xyz);
    return vec4(((r_e11 + t_e19) + f_e22) + c_e25, (dot(a, b) + length(a)) + distance(a, b));
}

void main() {
    uvec3 gid = gl_GlobalInvocationID;
    MathOut o = MathOut(vec4(0.0), vec4(0.0), vec4(0.0), vec4(0.0), vec4(0.0), vec4(0.0), vec4(0.0), ivec4(0), uvec4(0u), ivec2(0), 0u);
    const uint i_e1 = gid.x;
    if (i_e1 >= uint(inputs.value.length())) {
        return;
    }
    const MathIn x_e7 = inputs.value[min(i_e1, uint(inputs.value.length()) - 1u)];
    vec4 _e11 = trig(x_e7.a);
    o.trig = _e11;
    vec4 _e14 = hyper(x_e7.b);
    o.hyper = _e14;
    vec4 _e17 = expo(x_e7.a);
    o.expo = _e17;
    vec4 _e22 = rounding(x_e7.b * 3.7);
    o.round = _e22;
    vec4 _e27 = geometry(x_e7.a, x_e7.b, x_e7.eta);
    o.geom = _e27;
    o.blend = ((((mix(x_e7.a, x_e7.b, x_e7.t) + mix(x_e7.a, x_e7.b, x_e7.b)) + smoothstep(vec4(0.0), vec4(1.0), x_e7.a)) + fma(x_e7.a, x_e7.b, vec4(x_e7.t))) + clamp(x_e7.a, x_e7.b - vec4(1.0), x_e7.b + vec4(1.0))) + (min(x_e7.a, x_e7.b) * max(x_e7.a, x_e7.b));
    const _frexp_result_f32_ fr_e72 = _s_frexp_float(x_e7.a.x);
    const _frexp_result_vec2_f32_ fv_e75 = _s_frexp_vec2(x_e7.b.xy);
    const _modf_result_f32_ mf_e78 = _s_modf_float(x_e7.a.y);
    const _modf_result_vec2_f32_ mv_e81 = _s_modf_vec2(x_e7.b.zw);
    o.parts = vec4(fr_e72.fract + ldexp(fr_e72.fract, fr_e72.exp), mf_e78.fract + mf_e78.whole, mv_e81.fract.x + fv_e75.fract.y, mv_e81.whole.y);
    o.exps = fv_e75.exp;
    const ivec2 ia_e101 = x_e7.ia;
    o.ints = (ivec4(abs(ia_e101), clamp(ia_e101, ivec2(-5), ivec2(5))) + ivec4(sign(ia_e101), max(ia_e101, -ia_e101))) + ivec4(min(ia_e101.x, ia_e101.y), ia_e101.x * ia_e101.x + ia_e101.y * ia_e101.y, 0, 0);
    const uvec2 ua_e123 = x_e7.ua;
    o.uints = uvec4(min(ua_e123, uvec2(7u)), max(ua_e123.x, ua_e123.y), clamp(ua_e123.y, 1u, 9u)) + uvec4(ua_e123.x * ua_e123.x + ua_e123.y * ua_e123.y);
    const bool any_neg_e143 = any(lessThan(x_e7.a, vec4(0.0)));
    const bool all_pos_e148 = all(greaterThan(x_e7.b, vec4(0.0)));
    const uvec2 picked_e156 = mix(uvec2(1u, 2u), uvec2(3u, 4u), bvec2(any_neg_e143, all_pos_e148));
    o.flags = (((any_neg_e143 ? 1u : 0u) | (all_pos_e148 ? 2u : 0u)) | (picked_e156.x << (4u & 31u))) | (picked_e156.y << (8u & 31u));
    const MathOut _e175 = o;
    outputs.value[min(i_e1, uint(outputs.value.length()) - 1u)] = _e175;
    return;
}
