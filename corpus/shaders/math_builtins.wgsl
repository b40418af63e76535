// Scalar and vector math builtins on f32 and i32/u32: trigonometry, exponentials, rounding,
// clamping, geometric functions, frexp/modf results, fma, quantizeToF16, select and the
// integer min/max/clamp/abs/sign family, reading inputs from and writing results to storage.

struct MathIn {
    a: vec4<f32>,
    b: vec4<f32>,
    t: f32,
    eta: f32,
    ia: vec2<i32>,
    ua: vec2<u32>,
}

struct MathOut {
    trig: vec4<f32>,
    hyper: vec4<f32>,
    expo: vec4<f32>,
    round: vec4<f32>,
    geom: vec4<f32>,
    blend: vec4<f32>,
    parts: vec4<f32>,
    ints: vec4<i32>,
    uints: vec4<u32>,
    exps: vec2<i32>,
    flags: u32,
}

@group(0) @binding(0) var<storage, read> inputs: array<MathIn>;
@group(0) @binding(1) var<storage, read_write> outputs: array<MathOut>;

fn trig(v: vec4<f32>) -> vec4<f32> {
    let s = clamp(v, vec4<f32>(-1.0), vec4<f32>(1.0));
    return sin(v) + cos(v) * tan(s) + asin(s) * acos(s) + atan(v) + atan2(v, v.wzyx + 2.0)
        + radians(degrees(v));
}

fn hyper(v: vec4<f32>) -> vec4<f32> {
    let s = clamp(v, vec4<f32>(-0.9), vec4<f32>(0.9));
    return sinh(s) + cosh(s) + tanh(v) + asinh(v) + acosh(abs(v) + 1.0) + atanh(s);
}

fn expo(v: vec4<f32>) -> vec4<f32> {
    let p = abs(v) + 0.5;
    return exp(-p) + exp2(-p) + log(p) + log2(p) + pow(p, vec4<f32>(1.5)) + sqrt(p) + inverseSqrt(p);
}

fn rounding(v: vec4<f32>) -> vec4<f32> {
    return floor(v) + ceil(v) * 2.0 + round(v) * 3.0 + trunc(v) * 4.0 + fract(v) + sign(v)
        + saturate(v) + step(vec4<f32>(0.5), v) + quantizeToF16(v);
}

fn geometry(a: vec4<f32>, b: vec4<f32>, eta: f32) -> vec4<f32> {
    let n = normalize(b.xyz + vec3<f32>(0.0, 1.0, 0.0));
    let r = reflect(a.xyz, n);
    let t = refract(normalize(a.xyz + vec3<f32>(0.0, 0.0, 1.0)), n, eta);
    let f = faceForward(n, a.xyz, b.xyz);
    let c = cross(a.xyz, b.xyz);
    return vec4<f32>(r + t + f + c, dot(a, b) + length(a) + distance(a, b));
}

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let i = gid.x;
    if i >= arrayLength(&inputs) {
        return;
    }
    let x = inputs[i];
    var o: MathOut;
    o.trig = trig(x.a);
    o.hyper = hyper(x.b);
    o.expo = expo(x.a);
    o.round = rounding(x.b * 3.7);
    o.geom = geometry(x.a, x.b, x.eta);
    o.blend = mix(x.a, x.b, x.t) + mix(x.a, x.b, x.b) + smoothstep(vec4<f32>(0.0), vec4<f32>(1.0), x.a)
        + fma(x.a, x.b, vec4<f32>(x.t)) + clamp(x.a, x.b - 1.0, x.b + 1.0) + min(x.a, x.b) * max(x.a, x.b);
    let fr = frexp(x.a.x);
    let fv = frexp(x.b.xy);
    let mf = modf(x.a.y);
    let mv = modf(x.b.zw);
    o.parts = vec4<f32>(fr.fract + ldexp(fr.fract, fr.exp), mf.fract + mf.whole, mv.fract.x + fv.fract.y, mv.whole.y);
    o.exps = fv.exp;
    let ia = x.ia;
    o.ints = vec4<i32>(abs(ia), clamp(ia, vec2<i32>(-5), vec2<i32>(5))) + vec4<i32>(sign(ia), max(ia, -ia))
        + vec4<i32>(min(ia.x, ia.y), dot(ia, ia), 0, 0);
    let ua = x.ua;
    o.uints = vec4<u32>(min(ua, vec2<u32>(7u)), max(ua.x, ua.y), clamp(ua.y, 1u, 9u)) + vec4<u32>(dot(ua, ua));
    let any_neg = any(x.a < vec4<f32>(0.0));
    let all_pos = all(x.b > vec4<f32>(0.0));
    let picked = select(vec2<u32>(1u, 2u), vec2<u32>(3u, 4u), vec2<bool>(any_neg, all_pos));
    o.flags = select(0u, 1u, any_neg) | select(0u, 2u, all_pos) | (picked.x << 4u) | (picked.y << 8u);
    outputs[i] = o;
}
