//! The builtin functions (`MathFunction`) and their polyfills, as free
//! functions on printed operands.
//!
//! INTERFACE (owned by the math/image part; `func::expr` calls it).
//!
//! Where HLSL's intrinsic differs from WGSL's builtin, the call goes through
//! a helper function named `_s_<builtin>_<type>` (so an operand is printed
//! once, however often the polyfill reads it):
//!
//! - `fract` is `x - floor(x)` (HLSL's `frac` may differ for tiny negative
//!   values), `asinh`/`acosh`/`atanh` use WGSL's defining formulas;
//! - bit counts and searches take unsigned operands (HLSL's `countbits`,
//!   `reversebits` and `firstbitlow` have no signed overloads) and give
//!   WGSL's results at zero; `firstLeadingBit` on signed values keeps the
//!   signed `firstbithigh`, whose rule (first bit differing from the sign
//!   bit, -1 for 0 and -1) is WGSL's;
//! - `extractBits`/`insertBits` clamp offset and count as WGSL does;
//! - the packing builtins follow WGSL's formulas
//!   (`floor(0.5 + 127 * clamp(e, -1, 1))` and so on);
//! - `modf`/`frexp` build naga's predeclared result structs;
//! - `sign` on floats converts HLSL's integer result back to the float type.

use super::super::types::{self, shaped};
use super::super::{error_at, Ctx, Needs, ShaderModel};
use crate::back::text::{component, vector_size, Prec};
use naga::proc::NameKey;
use naga::{MathFunction as M, Scalar, ScalarKind as K, TypeInner};

/// A printed operand with its class and its resolved type.
pub(crate) struct Arg<'a> {
    pub text: &'a str,
    pub prec: Prec,
    pub ty: &'a TypeInner,
}

/// `text` (of class `prec`), parenthesized unless it can be an operand
/// as it is ([`Prec::is_operand`]).
pub(crate) fn paren(text: &str, prec: Prec) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    push_paren(&mut out, text, prec);
    out
}

/// [`paren`], appended to `out`.
pub(crate) fn push_paren(out: &mut String, text: &str, prec: Prec) {
    if prec.is_operand() {
        out.push_str(text);
    } else {
        out.push('(');
        out.push_str(text);
        out.push(')');
    }
}

/// A literal `value` of scalar type `s`: a float written like `1.0` (for
/// a float type) or an unsigned integer (for an unsigned type).
fn number(s: Scalar, value: &str) -> String {
    match (s.kind, s.width) {
        (K::Float, 4) => value.to_string(),
        (K::Uint, 4) => text!("{value}u"),
        _ => text!("(({}){value})", types::scalar(s)),
    }
}

/// An HLSL expression computing WGSL builtin `fun` on `args` (1 to 4
/// operands), whose WGSL result type is `result`, and its class (an
/// operator expression where the builtin is one). Polyfills go into
/// `needs.helpers`; a function HLSL cannot compute at the chosen shader
/// model is an error pushed to `needs` at `span`.
pub(crate) fn call(
    ctx: &Ctx<'_>,
    needs: &mut Needs,
    fun: M,
    args: &[Arg<'_>],
    result: &TypeInner,
    span: naga::Span,
) -> (String, Prec) {
    const NONE: &TypeInner = &TypeInner::Scalar(Scalar::F32);
    let text = |i: usize| args.get(i).map_or("0", |a| a.text);
    let prec = |i: usize| args.get(i).map_or(Prec::Number, |a| a.prec);
    let ty = |i: usize| args.get(i).map_or(NONE, |a| a.ty);
    let a = text(0);
    let a_prec = prec(0);
    let arg_ty = ty(0);
    let scalar = arg_ty.scalar().unwrap_or(Scalar::F32);
    let size = vector_size(arg_ty);
    let n = size.map_or(0, |n| n as u8);
    let t = types::inner_name(ctx, arg_ty);
    // `name(a, b, ...)`, written into one string; `fit`: with every
    // operand after the first in the shape of the first (WGSL splats a
    // scalar where a builtin mixes scalars and vectors).
    let joined = |name: &str, fit: bool| {
        let mut out = String::with_capacity(64);
        out.push_str(name);
        out.push('(');
        for i in 0..args.len() {
            if i > 0 {
                out.push_str(", ");
            }
            match (size, vector_size(ty(i))) {
                (Some(_), None) if fit && i > 0 => {
                    super::super::push_parts(&mut out, &["(", &t, ")"]);
                    push_paren(&mut out, text(i), prec(i));
                }
                _ => out.push_str(text(i)),
            }
        }
        out.push(')');
        (out, Prec::Call)
    };
    let plain = |name: &str| joined(name, false);
    let fitted = |name: &str| joined(name, true);
    let float = scalar.kind == K::Float;
    let signed = scalar.kind == K::Sint;
    let bits = u32::from(scalar.width) * 8;
    let unsigned_scalar = Scalar {
        kind: K::Uint,
        width: scalar.width,
    };
    let ut = shaped(n, unsigned_scalar);
    // The operand as unsigned bits.
    let as_unsigned = || {
        if signed {
            text!("({ut}){}", paren(a, a_prec))
        } else {
            a.to_string()
        }
    };
    // A bit count or position, computed as 32-bit unsigned (HLSL's bit
    // searches return `uint` for 64-bit operands too), in the result type:
    // through `int` where it is 64-bit, so that ~0 stays all ones.
    let rt = types::inner_name(ctx, result);
    let result_scalar = result.scalar().unwrap_or(Scalar::U32);
    let back = |(u, u_prec): (String, Prec)| {
        if result_scalar == Scalar::U32 {
            (u, u_prec)
        } else if result_scalar.width == 8 {
            let wide = shaped(n, Scalar::I32);
            (text!("({rt})({wide}){}", paren(&u, u_prec)), Prec::Operator)
        } else {
            (text!("({rt}){}", paren(&u, u_prec)), Prec::Operator)
        }
    };
    let call = |text: String| (text, Prec::Call);
    match fun {
        M::Abs if scalar.kind == K::Uint => (a.to_string(), a_prec),
        M::Abs => plain("abs"),
        M::Min => fitted("min"),
        M::Max => fitted("max"),
        M::Clamp => fitted("clamp"),
        M::Saturate => plain("saturate"),
        M::Cos => plain("cos"),
        M::Cosh => plain("cosh"),
        M::Sin => plain("sin"),
        M::Sinh => plain("sinh"),
        M::Tan => plain("tan"),
        M::Tanh => plain("tanh"),
        M::Acos => plain("acos"),
        M::Asin => plain("asin"),
        M::Atan => plain("atan"),
        M::Atan2 => fitted("atan2"),
        M::Asinh | M::Acosh | M::Atanh | M::Fract => {
            let (what, body) = match fun {
                // HLSL's `frac` may differ for tiny negative values.
                M::Fract => ("fract", "x - floor(x)".to_string()),
                M::Asinh => (
                    "asinh",
                    text!("log(x + sqrt(x * x + {}))", number(scalar, "1.0")),
                ),
                M::Acosh => (
                    "acosh",
                    text!("log(x + sqrt(x * x - {}))", number(scalar, "1.0")),
                ),
                _ => {
                    let one = number(scalar, "1.0");
                    let half = number(scalar, "0.5");
                    ("atanh", text!("{half} * log(({one} + x) / ({one} - x))"))
                }
            };
            let name = text!("_s_{what}_{t}");
            needs.helper(&name, |_| {
                text!("{t} {name}({t} x) {{\n    return {body};\n}}\n")
            });
            plain(&name)
        }
        M::Radians => plain("radians"),
        M::Degrees => plain("degrees"),
        M::Ceil => plain("ceil"),
        M::Floor => plain("floor"),
        // HLSL's round() rounds halfway cases to even, as WGSL's does.
        M::Round => plain("round"),
        M::Trunc => plain("trunc"),
        M::Modf | M::Frexp => modf_frexp(ctx, needs, fun, (a, a_prec), arg_ty, result, span),
        // HLSL's ldexp is `x * exp2(e)`, whose power overflows before the
        // product for e = 128; the helper multiplies by two exact powers
        // of two made from their bits (f16 through f32).
        M::Ldexp if scalar.width == 8 => {
            call(text!("ldexp({a}, ({t}){})", paren(text(1), prec(1))))
        }
        M::Ldexp => {
            let et = types::inner_name(ctx, ty(1));
            let ft = shaped(n, Scalar::F32);
            let ui = shaped(n, Scalar::U32);
            let ii = shaped(n, Scalar::I32);
            let name = text!("_s_ldexp_{t}");
            needs.helper(&name, |_| {
                text!(
                    "{t} {name}({t} x, {et} e) {{\n    {ii} c = clamp(({ii})e, -252, 254);\n    {ii} h = c / 2;\n    {ft} a = asfloat(({ui})(h + 127) << 23u);\n    {ft} b = asfloat(({ui})(c - h + 127) << 23u);\n    return ({t})(({ft})x * a * b);\n}}\n"
                )
            });
            plain(&name)
        }
        M::Exp => plain("exp"),
        M::Exp2 => plain("exp2"),
        M::Log => plain("log"),
        M::Log2 => plain("log2"),
        M::Pow => fitted("pow"),
        M::Sqrt => plain("sqrt"),
        M::InverseSqrt => plain("rsqrt"),
        // DXC's dot() takes integer vectors too (wrapping like WGSL).
        M::Dot => plain("dot"),
        M::Dot4I8Packed | M::Dot4U8Packed if ctx.shader_model() < ShaderModel::Sm6_4 => {
            plain(dot4_helper(needs, fun == M::Dot4I8Packed))
        }
        M::Dot4I8Packed => call(text!("dot4add_i8packed({a}, {}, (int)0)", text(1))),
        M::Dot4U8Packed => call(text!("dot4add_u8packed({a}, {}, 0u)", text(1))),
        M::Outer => outer(ctx, needs, args, result),
        M::Cross => plain("cross"),
        M::Distance => plain("distance"),
        M::Length => plain("length"),
        M::Normalize => plain("normalize"),
        // DXC's faceforward() is `dot(i, ng) < 0 ? n : -n`, as WGSL's.
        M::FaceForward => plain("faceforward"),
        M::Reflect => plain("reflect"),
        M::Refract => plain("refract"),
        // HLSL's sign() returns integers.
        M::Sign if float => (text!("({t})sign({a})"), Prec::Operator),
        M::Sign => plain("sign"),
        // WGSL's fma may be fused or not; HLSL's fma() is double only.
        M::Fma if scalar.width == 8 => fitted("fma"),
        M::Fma => fitted("mad"),
        M::Mix => fitted("lerp"),
        M::Step => fitted("step"),
        M::SmoothStep => fitted("smoothstep"),
        M::Inverse => {
            needs.error(error_at(
                "HLSL has no matrix inverse",
                span,
                "inverse() is not a WGSL builtin",
            ));
            (a.to_string(), a_prec)
        }
        M::Transpose => plain("transpose"),
        M::Determinant => plain("determinant"),
        M::QuantizeToF16 => call(text!("f16tof32(f32tof16({a}))")),
        M::CountTrailingZeros => back(call(text!("min(firstbitlow({}), {bits}u)", as_unsigned()))),
        // firstbithigh gives ~0 for 0: (w - 1) - ~0 wraps to w.
        M::CountLeadingZeros => back((
            text!("{}u - firstbithigh({})", bits - 1, as_unsigned()),
            Prec::Operator,
        )),
        M::CountOneBits => back(call(text!("countbits({})", as_unsigned()))),
        M::ReverseBits if signed => (text!("({t})reversebits({})", as_unsigned()), Prec::Operator),
        M::ReverseBits => plain("reversebits"),
        // ~0 for 0, as WGSL.
        M::FirstTrailingBit => back(call(text!("firstbitlow({})", as_unsigned()))),
        // The signed overload gives WGSL's signed rule; its result is
        // unsigned bits.
        M::FirstLeadingBit => back(plain("firstbithigh")),
        M::ExtractBits | M::InsertBits => plain(&bits_helper(needs, fun, &t, scalar)),
        M::Pack4x8snorm
        | M::Pack4x8unorm
        | M::Pack2x16snorm
        | M::Pack2x16unorm
        | M::Pack2x16float
        | M::Pack4xI8
        | M::Pack4xU8
        | M::Pack4xI8Clamp
        | M::Pack4xU8Clamp
        | M::Unpack4x8snorm
        | M::Unpack4x8unorm
        | M::Unpack2x16snorm
        | M::Unpack2x16unorm
        | M::Unpack2x16float
        | M::Unpack4xI8
        | M::Unpack4xU8 => plain(pack_helper(needs, fun)),
    }
}

/// `modf`/`frexp`: a helper returning naga's predeclared result struct
/// (`{fract, whole}` / `{fract, exp}`), whose name and member names come
/// from the namer.
fn modf_frexp(
    ctx: &Ctx<'_>,
    needs: &mut Needs,
    fun: M,
    (a, a_prec): (&str, Prec),
    arg_ty: &TypeInner,
    result: &TypeInner,
    span: naga::Span,
) -> (String, Prec) {
    let handle = ctx
        .module
        .types
        .iter()
        .find(|(_, t)| t.inner == *result)
        .map(|(h, _)| h);
    let scalar = arg_ty.scalar().unwrap_or(Scalar::F32);
    let Some(handle) = handle.filter(|_| scalar.kind == K::Float && scalar.width != 8) else {
        needs.error(error_at(
            "HLSL cannot compute modf or frexp of this type",
            span,
            "f32 and f16 operands only",
        ));
        return (a.to_string(), a_prec);
    };
    ctx.type_names.named.mark(ctx.module, handle);
    let result_name = ctx.name(NameKey::Type(handle)).to_string();
    let first = ctx.name(NameKey::StructMember(handle, 0)).to_string();
    let second = ctx.name(NameKey::StructMember(handle, 1)).to_string();
    let t = types::inner_name(ctx, arg_ty);
    let what = if fun == M::Modf { "modf" } else { "frexp" };
    let name = text!("_s_{what}_{t}");
    needs.helper(&name, |_| {
        let body = if fun == M::Modf {
            text!("    r.{second} = trunc(x);\n    r.{first} = x - r.{second};\n")
        } else {
            // The exponent field's bits give the exponent of a normal
            // value; zero (and subnormals, flushed by D3D) have exponent 0
            // and are their own fraction. f16 goes through f32 (exactly:
            // its fraction keeps its mantissa bits), since DXC's SPIR-V
            // lacks asuint16.
            let n = vector_size(arg_ty).map_or(0, |n| n as u8);
            let ui = shaped(n, Scalar::U32);
            let fi = shaped(n, Scalar::F32);
            let ii = shaped(n, Scalar::I32);
            let exp_type = match ctx.module.types[handle].inner {
                TypeInner::Struct { ref members, .. } if members.len() == 2 => {
                    types::type_name(ctx, members[1].ty)
                }
                _ => &*ii,
            };
            text!(
                "    {ui} bits = asuint(({fi})x);\n    {ui} field = (bits >> 23u) & 0xFFu;\n    {ui} normal = ({ui})(field != 0u);\n    r.{second} = ({exp_type})(({ii})(normal * field) - ({ii})normal * 126);\n    {ui} fraction = (bits & 0x807FFFFFu) | 0x3F000000u;\n    r.{first} = ({t})asfloat(bits + normal * (fraction - bits));\n"
            )
        };
        text!(
            "{result_name} {name}({t} x) {{\n    {result_name} r;\n{body}    return r;\n}}\n"
        )
    });
    (text!("{name}({a})"), Prec::Call)
}

/// `outerProduct(a, b)`: WGSL's result column `j` is `a * b[j]`, which is
/// HLSL row `j`.
fn outer(ctx: &Ctx<'_>, needs: &mut Needs, args: &[Arg<'_>], result: &TypeInner) -> (String, Prec) {
    let (Some(a), Some(b)) = (args.first(), args.get(1)) else {
        return ("0".to_string(), Prec::Number);
    };
    let rt = types::inner_name(ctx, result);
    let at = types::inner_name(ctx, a.ty);
    let bt = types::inner_name(ctx, b.ty);
    let columns = vector_size(b.ty).map_or(1, |s| s as u32);
    let name = text!("_s_outer_{rt}");
    needs.helper(&name, |_| {
        let rows: Vec<String> = (0..columns)
            .map(|j| text!("a * b.{}", component(j)))
            .collect();
        text!(
            "{rt} {name}({at} a, {bt} b) {{\n    return {rt}({});\n}}\n",
            rows.join(", ")
        )
    });
    (text!("{name}({}, {})", a.text, b.text), Prec::Call)
}

/// Helpers for `dot4I8Packed` / `dot4U8Packed` below shader model 6.4.
fn dot4_helper(needs: &mut Needs, signed: bool) -> &'static str {
    let (name, t, unpack) = if signed {
        ("_s_dot4I8Packed", "int", M::Unpack4xI8)
    } else {
        ("_s_dot4U8Packed", "uint", M::Unpack4xU8)
    };
    needs.helper(name, |needs| {
        let unpack = pack_helper(needs, unpack);
        text!("{t} {name}(uint a, uint b) {{\n    return dot({unpack}(a), {unpack}(b));\n}}\n")
    });
    name
}

/// `extractBits` / `insertBits` with WGSL's clamping of offset and count
/// into the bit width `w`: `o = min(offset, w)`, `c = min(count, w - o)`.
/// HLSL masks shift amounts to the width, so a zero-width field is its own
/// case.
fn bits_helper(needs: &mut Needs, fun: M, t: &str, scalar: Scalar) -> String {
    let what = if fun == M::ExtractBits {
        "extractBits"
    } else {
        "insertBits"
    };
    let name = text!("_s_{what}_{t}");
    let w = u32::from(scalar.width) * 8;
    let u = Scalar {
        kind: K::Uint,
        width: scalar.width,
    };
    let ones = number(
        u,
        if w == 64 {
            "0xFFFFFFFFFFFFFFFF"
        } else {
            "0xFFFFFFFF"
        },
    );
    let st = types::scalar(scalar);
    needs.helper(&name, |_| {
        let head = text!(
            "    uint o = min(offset, {w}u);\n    uint c = min(count, {w}u - o);\n"
        );
        if fun == M::ExtractBits {
            // Shift the field to the top, then down (arithmetically for
            // signed types, which sign-extends).
            text!(
                "{t} {name}({t} e, uint offset, uint count) {{\n{head}    return c == 0u ? ({t})0 : (e << ({w}u - c - o)) >> ({w}u - c);\n}}\n"
            )
        } else {
            text!(
                "{t} {name}({t} e, {t} newbits, uint offset, uint count) {{\n{head}    {st} mask = ({st})(c == 0u ? 0 : ({ones} >> ({w}u - c)) << o);\n    return (e & ~mask) | ((newbits << o) & mask);\n}}\n"
            )
        }
    });
    name
}

/// The packing and unpacking builtins as helpers, following WGSL's
/// formulas.
fn pack_helper(needs: &mut Needs, fun: M) -> &'static str {
    let (name, text) = match fun {
        M::Pack4x8snorm => (
            "_s_pack4x8snorm",
            "uint _s_pack4x8snorm(float4 e) {\n    uint4 u = (uint4)(int4)floor(0.5 + 127.0 * clamp(e, -1.0, 1.0)) & 0xFFu;\n    return u.x | (u.y << 8u) | (u.z << 16u) | (u.w << 24u);\n}\n",
        ),
        M::Pack4x8unorm => (
            "_s_pack4x8unorm",
            "uint _s_pack4x8unorm(float4 e) {\n    uint4 u = (uint4)floor(0.5 + 255.0 * saturate(e));\n    return u.x | (u.y << 8u) | (u.z << 16u) | (u.w << 24u);\n}\n",
        ),
        M::Pack2x16snorm => (
            "_s_pack2x16snorm",
            "uint _s_pack2x16snorm(float2 e) {\n    uint2 u = (uint2)(int2)floor(0.5 + 32767.0 * clamp(e, -1.0, 1.0)) & 0xFFFFu;\n    return u.x | (u.y << 16u);\n}\n",
        ),
        M::Pack2x16unorm => (
            "_s_pack2x16unorm",
            "uint _s_pack2x16unorm(float2 e) {\n    uint2 u = (uint2)floor(0.5 + 65535.0 * saturate(e));\n    return u.x | (u.y << 16u);\n}\n",
        ),
        M::Pack2x16float => (
            "_s_pack2x16float",
            "uint _s_pack2x16float(float2 e) {\n    uint2 u = f32tof16(e);\n    return u.x | (u.y << 16u);\n}\n",
        ),
        M::Pack4xI8 => (
            "_s_pack4xI8",
            "uint _s_pack4xI8(int4 e) {\n    uint4 u = (uint4)e & 0xFFu;\n    return u.x | (u.y << 8u) | (u.z << 16u) | (u.w << 24u);\n}\n",
        ),
        M::Pack4xU8 => (
            "_s_pack4xU8",
            "uint _s_pack4xU8(uint4 e) {\n    uint4 u = e & 0xFFu;\n    return u.x | (u.y << 8u) | (u.z << 16u) | (u.w << 24u);\n}\n",
        ),
        M::Pack4xI8Clamp => (
            "_s_pack4xI8Clamp",
            "uint _s_pack4xI8Clamp(int4 e) {\n    uint4 u = (uint4)clamp(e, -128, 127) & 0xFFu;\n    return u.x | (u.y << 8u) | (u.z << 16u) | (u.w << 24u);\n}\n",
        ),
        M::Pack4xU8Clamp => (
            "_s_pack4xU8Clamp",
            "uint _s_pack4xU8Clamp(uint4 e) {\n    uint4 u = min(e, 255u);\n    return u.x | (u.y << 8u) | (u.z << 16u) | (u.w << 24u);\n}\n",
        ),
        M::Unpack4x8snorm => (
            "_s_unpack4x8snorm",
            "float4 _s_unpack4x8snorm(uint e) {\n    int4 i = (int4)(e << uint4(24u, 16u, 8u, 0u)) >> 24;\n    return max((float4)i / 127.0, -1.0);\n}\n",
        ),
        M::Unpack4x8unorm => (
            "_s_unpack4x8unorm",
            "float4 _s_unpack4x8unorm(uint e) {\n    return (float4)((e >> uint4(0u, 8u, 16u, 24u)) & 0xFFu) / 255.0;\n}\n",
        ),
        M::Unpack2x16snorm => (
            "_s_unpack2x16snorm",
            "float2 _s_unpack2x16snorm(uint e) {\n    int2 i = (int2)(e << uint2(16u, 0u)) >> 16;\n    return max((float2)i / 32767.0, -1.0);\n}\n",
        ),
        M::Unpack2x16unorm => (
            "_s_unpack2x16unorm",
            "float2 _s_unpack2x16unorm(uint e) {\n    return (float2)((e >> uint2(0u, 16u)) & 0xFFFFu) / 65535.0;\n}\n",
        ),
        M::Unpack2x16float => (
            "_s_unpack2x16float",
            "float2 _s_unpack2x16float(uint e) {\n    return f16tof32(uint2(e & 0xFFFFu, e >> 16u));\n}\n",
        ),
        M::Unpack4xI8 => (
            "_s_unpack4xI8",
            "int4 _s_unpack4xI8(uint e) {\n    return (int4)(e << uint4(24u, 16u, 8u, 0u)) >> 24;\n}\n",
        ),
        _ => (
            "_s_unpack4xU8",
            "uint4 _s_unpack4xU8(uint e) {\n    return (e >> uint4(0u, 8u, 16u, 24u)) & 0xFFu;\n}\n",
        ),
    };
    needs.helper(name, |_| text.to_string());
    name
}

/// What the tests of `math` and `image` share: a context over a small
/// module, and DXC.
#[cfg(test)]
pub(crate) mod test_support {
    use super::super::super::{buffers, Ctx, HlslOptions, ShaderModel};
    use crate::back::common::ModuleSource;
    use crate::front::Parsed;
    use crate::layout::{LayoutModule, RuleSet};
    use naga::proc::NameKey;
    use naga::FastHashMap;
    use std::path::PathBuf;
    use std::process::Command;

    pub struct Fixture {
        pub parsed: Parsed,
        pub contract: LayoutModule,
        pub info: naga::valid::ModuleInfo,
        pub options: HlslOptions,
    }

    fn ident(name: &str) -> String {
        let s: String = name
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .collect();
        text!("T{}", s.trim_start_matches('_'))
    }

    impl Fixture {
        pub fn new(source: &str, model: ShaderModel) -> Fixture {
            let parsed = crate::front::parse(source).expect("test source parses");
            let contract = crate::layout::build(&parsed, RuleSet::Wgsl).expect("layout");
            let info = crate::front::validate_parsed(&parsed).expect("valid");
            let options = HlslOptions {
                shader_model: Some(model),
                ..HlslOptions::default()
            };
            Fixture {
                parsed,
                contract,
                info,
                options,
            }
        }

        /// A context naming types `T<name>` and members by their WGSL name.
        pub fn ctx(&self) -> Ctx<'_> {
            let module = &self.parsed.module;
            let mut names = FastHashMap::default();
            for (h, t) in module.types.iter() {
                if let Some(n) = &t.name {
                    names.insert(NameKey::Type(h), ident(n));
                }
                if let naga::TypeInner::Struct { members, .. } = &t.inner {
                    for (i, m) in members.iter().enumerate() {
                        let n = m.name.clone().unwrap_or_else(|| text!("m{i}"));
                        names.insert(NameKey::StructMember(h, i as u32), n);
                    }
                }
            }
            let source = ModuleSource {
                module,
                ..ModuleSource::parsed(&self.parsed, &self.info, &self.contract)
            };
            let model = self.options.shader_model.unwrap_or_default();
            Ctx::new(
                source,
                &self.options,
                model,
                names,
                buffers::Plan::default(),
            )
        }

        /// The value struct declarations of the module (result structs).
        pub fn structs(&self, ctx: &Ctx<'_>) -> String {
            super::super::super::types::struct_declarations(ctx)
        }
    }

    fn dxc_path() -> PathBuf {
        if let Some(p) = std::env::var_os("STRIDE_DXC").filter(|v| !v.is_empty()) {
            return PathBuf::from(p);
        }
        let home = std::env::var_os("HOME").unwrap_or_else(|| "/root".into());
        PathBuf::from(home).join(".cache/stride-tools/dxc/stride-dxc")
    }

    /// Whether the DXC wrapper runs; prints why a test is skipped if not.
    pub fn dxc_available(test: &str) -> bool {
        let ok = Command::new(dxc_path())
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success());
        if !ok {
            eprintln!("SKIPPED {test}: stride-dxc not found (scripts/install-dxc.sh)");
        }
        ok
    }

    /// Compile `source` (entry `main`) with `profile` and `extra` arguments,
    /// as DXIL with HLSL 2018 and 2021, and as SPIR-V checked by
    /// spirv-val when it is installed. The error text names the mode.
    pub fn compile(
        name: &str,
        source: &str,
        profile: &str,
        extra: &[&str],
        spirv: bool,
    ) -> Result<(), String> {
        let dir = std::env::temp_dir().join(text!("stride-hlsl-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
        let file = dir.join("shader.hlsl");
        std::fs::write(&file, source).map_err(|e| e.to_string())?;
        let spv = dir.join("shader.spv");
        let spv_text = spv.to_string_lossy().to_string();
        let modes: [(&str, Vec<&str>); 3] = [
            ("hlsl2018", vec!["-Fc", "-"]),
            ("hlsl2021", vec!["-HV", "2021", "-Fc", "-"]),
            ("spirv", vec!["-spirv", "-Fo", &spv_text]),
        ];
        let mut errors = String::new();
        for (mode, args) in modes {
            if mode == "spirv" && !spirv {
                continue;
            }
            let out = Command::new(dxc_path())
                .args(["-T", profile, "-E", "main"])
                .args(extra)
                .args(&args)
                .arg(&file)
                .output()
                .map_err(|e| e.to_string())?;
            let stderr = String::from_utf8_lossy(&out.stderr).to_string();
            let real: Vec<&str> = stderr
                .lines()
                .filter(|l| {
                    l.contains("error") || (l.contains("warning") && !l.contains("DXIL.dll"))
                })
                .collect();
            if !out.status.success() || !real.is_empty() {
                errors.push_str(&text!("--- {mode} ({profile}):\n{stderr}\n"));
                continue;
            }
            if mode == "spirv" {
                if let Ok(v) = Command::new("spirv-val").arg(&spv).output() {
                    if !v.status.success() {
                        errors.push_str(&text!(
                            "--- spirv-val:\n{}{}\n",
                            String::from_utf8_lossy(&v.stdout),
                            String::from_utf8_lossy(&v.stderr)
                        ));
                    }
                }
            }
        }
        if errors.is_empty() {
            let _ = std::fs::remove_dir_all(&dir);
            Ok(())
        } else {
            Err(text!("{errors}\nsource:\n{}", numbered(source)))
        }
    }

    fn numbered(source: &str) -> String {
        source
            .lines()
            .enumerate()
            .map(|(i, l)| text!("{:4} {l}\n", i + 1))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::{Needs, ShaderModel};
    use super::test_support::{compile, dxc_available, Fixture};
    use super::*;
    use naga::{Scalar, TypeInner as Ti, VectorSize as Vs};
    use std::fmt::Write as _;

    const SOURCE: &str = "var<private> p: f32;
var<private> q: vec3f;
@compute @workgroup_size(1) fn main() {
    let a = modf(p);
    let b = modf(q);
    let c = frexp(p);
    let d = frexp(q);
}
";

    const SOURCE_F16: &str = "enable f16;
var<private> h: f16;
var<private> hq: vec3<f16>;
@compute @workgroup_size(1) fn main() {
    let a = modf(h);
    let b = modf(hq);
    let c = frexp(h);
    let d = frexp(hq);
}
";

    fn s(s: Scalar) -> Ti {
        Ti::Scalar(s)
    }
    fn v(n: u8, s: Scalar) -> Ti {
        let size = match n {
            2 => Vs::Bi,
            3 => Vs::Tri,
            _ => Vs::Quad,
        };
        Ti::Vector { size, scalar: s }
    }
    fn m(c: u8, r: u8) -> Ti {
        let size = |n| match n {
            2 => Vs::Bi,
            3 => Vs::Tri,
            _ => Vs::Quad,
        };
        Ti::Matrix {
            columns: size(c),
            rows: size(r),
            scalar: Scalar::F32,
        }
    }

    /// The result struct type of `modf`/`frexp` on `arg`.
    fn result_struct(ctx: &Ctx<'_>, fun: M, arg: &Ti) -> Ti {
        let want = if fun == M::Modf { "modf" } else { "frexp" };
        for (_, t) in ctx.module.types.iter() {
            if let Ti::Struct { members, .. } = &t.inner {
                let name = t.name.clone().unwrap_or_default();
                if name.contains(want) && ctx.module.types[members[0].ty].inner == *arg {
                    return t.inner.clone();
                }
            }
        }
        panic!("no {want} result struct for {arg:?}")
    }

    /// A variable name for an operand of type `t`.
    fn var(ctx: &Ctx<'_>, t: &Ti) -> String {
        text!("v_{}", types::inner_name(ctx, t))
    }

    /// A scalar HLSL expression reading (part of) `value` of type `t`, as
    /// uint, so that results stay live.
    fn observe(ctx: &Ctx<'_>, value: &str, t: &Ti) -> String {
        match *t {
            Ti::Scalar(sc) => match sc.kind {
                K::Float => text!("asuint((float){value})"),
                K::Bool => text!("(uint){value}"),
                _ => text!("(uint){value}"),
            },
            Ti::Vector { scalar, .. } => observe(ctx, &text!("{value}.x"), &Ti::Scalar(scalar)),
            Ti::Matrix { scalar, .. } => observe(ctx, &text!("{value}[0].x"), &Ti::Scalar(scalar)),
            Ti::Struct { ref members, .. } => {
                let first = observe(
                    ctx,
                    &text!("{value}.fract"),
                    &ctx.module.types[members[0].ty].inner,
                );
                let second = ctx.module.types[members[1].ty].inner.clone();
                let name = members[1].name.clone().unwrap_or_default();
                let second = observe(ctx, &text!("{value}.{name}"), &second);
                text!("{first} ^ {second}")
            }
            _ => "0u".to_string(),
        }
    }

    /// A compute shader computing every case; returns the source and the
    /// printed calls.
    fn shader(
        ctx: &Ctx<'_>,
        structs: &str,
        cases: &[(M, Vec<Ti>, Ti)],
    ) -> (String, Vec<String>, Needs) {
        let mut needs = Needs::default();
        let mut body = String::new();
        let mut vars: Vec<Ti> = Vec::new();
        let mut printed = Vec::new();
        for (i, (fun, arg_types, result)) in cases.iter().enumerate() {
            let names: Vec<String> = arg_types.iter().map(|t| var(ctx, t)).collect();
            for t in arg_types {
                if !vars.contains(t) {
                    vars.push(t.clone());
                }
            }
            let args: Vec<Arg<'_>> = names
                .iter()
                .zip(arg_types)
                .map(|(n, t)| Arg {
                    text: n,
                    prec: Prec::Word,
                    ty: t,
                })
                .collect();
            let (text, _) = call(ctx, &mut needs, *fun, &args, result, naga::Span::UNDEFINED);
            printed.push(text!("{fun:?}: {text}"));
            let rt = types::inner_name(ctx, result);
            let _ = writeln!(body, "    {rt} r{i} = {text};");
            let _ = writeln!(body, "    acc ^= {};", observe(ctx, &text!("r{i}"), result));
        }
        let mut src = String::from("#pragma pack_matrix(row_major)\n");
        src.push_str(structs);
        for h in needs.helpers.values() {
            src.push_str(h);
            src.push('\n');
        }
        src.push_str("RWByteAddressBuffer o : register(u0);\n[numthreads(1, 1, 1)]\nvoid main(uint3 id : SV_DispatchThreadID) {\n    uint seed = o.Load(id.x * 4u);\n    uint acc = 0u;\n");
        for t in &vars {
            let tn = types::inner_name(ctx, t);
            let init = match t.scalar().map(|s| s.kind) {
                Some(K::Float) => text!("({tn})asfloat(seed)"),
                _ => text!("({tn})seed"),
            };
            let _ = writeln!(src, "    {tn} {} = {init};", var(ctx, t));
        }
        src.push_str(&body);
        src.push_str("    o.Store(0u, acc);\n}\n");
        (src, printed, needs)
    }

    fn float_cases(ctx: &Ctx<'_>, f: Scalar) -> Vec<(M, Vec<Ti>, Ti)> {
        let f3 = v(3, f);
        let i3 = v(3, Scalar::I32);
        let mut cases = Vec::new();
        for t in [s(f), f3.clone()] {
            for fun in [
                M::Abs,
                M::Saturate,
                M::Cos,
                M::Cosh,
                M::Sin,
                M::Sinh,
                M::Tan,
                M::Tanh,
                M::Acos,
                M::Asin,
                M::Atan,
                M::Asinh,
                M::Acosh,
                M::Atanh,
                M::Radians,
                M::Degrees,
                M::Ceil,
                M::Floor,
                M::Round,
                M::Fract,
                M::Trunc,
                M::Exp,
                M::Exp2,
                M::Log,
                M::Log2,
                M::Sqrt,
                M::InverseSqrt,
                M::Sign,
            ] {
                cases.push((fun, vec![t.clone()], t.clone()));
            }
            for fun in [M::Min, M::Max, M::Atan2, M::Pow, M::Step] {
                cases.push((fun, vec![t.clone(), t.clone()], t.clone()));
            }
            for fun in [M::Clamp, M::Fma, M::Mix, M::SmoothStep] {
                cases.push((fun, vec![t.clone(), t.clone(), t.clone()], t.clone()));
            }
            for fun in [M::Modf, M::Frexp] {
                let r = result_struct(ctx, fun, &t);
                cases.push((fun, vec![t.clone()], r));
            }
        }
        cases.push((M::Ldexp, vec![s(f), s(Scalar::I32)], s(f)));
        cases.push((M::Ldexp, vec![f3.clone(), i3], f3.clone()));
        cases.push((M::Mix, vec![f3.clone(), f3.clone(), s(f)], f3.clone()));
        cases.push((M::Dot, vec![f3.clone(), f3.clone()], s(f)));
        cases.push((M::Cross, vec![f3.clone(), f3.clone()], f3.clone()));
        cases.push((M::Distance, vec![f3.clone(), f3.clone()], s(f)));
        cases.push((M::Length, vec![f3.clone()], s(f)));
        cases.push((M::Normalize, vec![f3.clone()], f3.clone()));
        cases.push((
            M::FaceForward,
            vec![f3.clone(), f3.clone(), f3.clone()],
            f3.clone(),
        ));
        cases.push((M::Reflect, vec![f3.clone(), f3.clone()], f3.clone()));
        cases.push((M::Refract, vec![f3.clone(), f3.clone(), s(f)], f3.clone()));
        cases
    }

    fn int_cases(i: Scalar) -> Vec<(M, Vec<Ti>, Ti)> {
        let mut cases = Vec::new();
        let u = Scalar::U32;
        for t in [s(i), v(3, i)] {
            let ut = match t {
                Ti::Vector { size, .. } => Ti::Vector { size, scalar: u },
                _ => s(u),
            };
            let _ = ut;
            for fun in [
                M::Abs,
                M::CountTrailingZeros,
                M::CountLeadingZeros,
                M::CountOneBits,
                M::ReverseBits,
                M::FirstTrailingBit,
                M::FirstLeadingBit,
            ] {
                cases.push((fun, vec![t.clone()], t.clone()));
            }
            if i.kind == K::Sint {
                cases.push((M::Sign, vec![t.clone()], t.clone()));
            }
            cases.push((M::Min, vec![t.clone(), t.clone()], t.clone()));
            cases.push((M::Max, vec![t.clone(), t.clone()], t.clone()));
            cases.push((M::Clamp, vec![t.clone(), t.clone(), t.clone()], t.clone()));
            cases.push((M::ExtractBits, vec![t.clone(), s(u), s(u)], t.clone()));
            cases.push((
                M::InsertBits,
                vec![t.clone(), t.clone(), s(u), s(u)],
                t.clone(),
            ));
        }
        cases.push((M::Dot, vec![v(3, i), v(3, i)], s(i)));
        cases
    }

    fn other_cases() -> Vec<(M, Vec<Ti>, Ti)> {
        let f = Scalar::F32;
        let u = Scalar::U32;
        let i = Scalar::I32;
        vec![
            (M::Outer, vec![v(4, f), v(3, f)], m(3, 4)),
            (M::Outer, vec![v(2, f), v(2, f)], m(2, 2)),
            (M::Transpose, vec![m(2, 3)], m(3, 2)),
            (M::Determinant, vec![m(3, 3)], s(f)),
            (M::Determinant, vec![m(4, 4)], s(f)),
            (M::QuantizeToF16, vec![s(f)], s(f)),
            (M::QuantizeToF16, vec![v(3, f)], v(3, f)),
            (M::Pack4x8snorm, vec![v(4, f)], s(u)),
            (M::Pack4x8unorm, vec![v(4, f)], s(u)),
            (M::Pack2x16snorm, vec![v(2, f)], s(u)),
            (M::Pack2x16unorm, vec![v(2, f)], s(u)),
            (M::Pack2x16float, vec![v(2, f)], s(u)),
            (M::Pack4xI8, vec![v(4, i)], s(u)),
            (M::Pack4xU8, vec![v(4, u)], s(u)),
            (M::Pack4xI8Clamp, vec![v(4, i)], s(u)),
            (M::Pack4xU8Clamp, vec![v(4, u)], s(u)),
            (M::Unpack4x8snorm, vec![s(u)], v(4, f)),
            (M::Unpack4x8unorm, vec![s(u)], v(4, f)),
            (M::Unpack2x16snorm, vec![s(u)], v(2, f)),
            (M::Unpack2x16unorm, vec![s(u)], v(2, f)),
            (M::Unpack2x16float, vec![s(u)], v(2, f)),
            (M::Unpack4xI8, vec![s(u)], v(4, i)),
            (M::Unpack4xU8, vec![s(u)], v(4, u)),
            (M::Dot4I8Packed, vec![s(u), s(u)], s(i)),
            (M::Dot4U8Packed, vec![s(u), s(u)], s(u)),
        ]
    }

    fn run(
        name: &str,
        model: ShaderModel,
        extra: &[&str],
        cases: impl Fn(&Ctx<'_>) -> Vec<(M, Vec<Ti>, Ti)>,
    ) {
        let source = if extra.contains(&"-enable-16bit-types") {
            SOURCE_F16
        } else {
            SOURCE
        };
        let fixture = Fixture::new(source, model);
        let ctx = fixture.ctx();
        let structs = fixture.structs(&ctx);
        let cases = cases(&ctx);
        let (src, printed, needs) = shader(&ctx, &structs, &cases);
        assert!(needs.errors.is_empty(), "{:?}", needs.errors);
        if !dxc_available(name) {
            return;
        }
        let profile = text!("cs_{}", model.name());
        // DXC's SPIR-V output of 64-bit bit searches is invalid
        // (FindILsb/FindUMsb on 64-bit operands), and it lacks the
        // shader model 6.4 dot4add_*; DXIL is right.
        let spirv = !name.contains("int64") && !name.contains("sm64");
        if let Err(e) = compile(name, &src, &profile, extra, spirv) {
            panic!("{e}\nprinted:\n{}", printed.join("\n"));
        }
    }

    #[test]
    fn dxc_f32() {
        run("math_f32", ShaderModel::Sm6_0, &[], |ctx| {
            float_cases(ctx, Scalar::F32)
        });
    }

    #[test]
    fn dxc_f16() {
        let f16 = Scalar {
            kind: K::Float,
            width: 2,
        };
        run(
            "math_f16",
            ShaderModel::Sm6_2,
            &["-enable-16bit-types"],
            |ctx| float_cases(ctx, f16),
        );
    }

    #[test]
    fn dxc_integers() {
        run("math_int", ShaderModel::Sm6_0, &[], |_| {
            let mut c = int_cases(Scalar::I32);
            c.extend(int_cases(Scalar::U32));
            c
        });
    }

    #[test]
    fn dxc_64_bit_integers() {
        run("math_int64", ShaderModel::Sm6_0, &[], |_| {
            let mut c = int_cases(Scalar::I64);
            c.extend(int_cases(Scalar::U64));
            c
        });
    }

    #[test]
    fn dxc_other() {
        run("math_other", ShaderModel::Sm6_0, &[], |_| other_cases());
        run("math_other_sm64", ShaderModel::Sm6_4, &[], |_| {
            other_cases()
        });
    }

    /// Edge values and pseudo-random ones.
    fn samples() -> Vec<u32> {
        let mut out = vec![
            0,
            1,
            2,
            3,
            0x7FFF_FFFF,
            0x8000_0000,
            0xFFFF_FFFF,
            0x8000_0001,
        ];
        let mut x = 0x1234_5678u32;
        for _ in 0..2000 {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            out.push(x);
        }
        out
    }

    /// Offsets and counts around the edges (HLSL masks shift amounts).
    fn fields() -> Vec<(u32, u32)> {
        let edges = [
            0u32,
            1,
            2,
            7,
            8,
            15,
            16,
            31,
            32,
            33,
            40,
            0x8000_0000,
            u32::MAX,
        ];
        let mut out = Vec::new();
        for &o in &edges {
            for &c in &edges {
                out.push((o, c));
            }
        }
        out
    }

    /// The printed `_s_extractBits_*` on 32-bit values, step by step, with
    /// HLSL's shifts (amount masked to 5 bits).
    fn extract_model(e: u32, offset: u32, count: u32, signed: bool) -> u32 {
        let o = offset.min(32);
        let c = count.min(32 - o);
        if c == 0 {
            return 0;
        }
        let up = e.wrapping_shl(32 - c - o);
        if signed {
            ((up as i32).wrapping_shr(32 - c)) as u32
        } else {
            up.wrapping_shr(32 - c)
        }
    }

    /// WGSL's extractBits, bit by bit.
    fn extract_reference(e: u32, offset: u32, count: u32, signed: bool) -> u32 {
        let o = offset.min(32);
        let c = count.min(32 - o);
        if c == 0 {
            return 0;
        }
        let mut r = 0u32;
        for i in 0..c {
            r |= ((e >> (o + i)) & 1) << i;
        }
        if signed && (r >> (c - 1)) & 1 == 1 {
            for i in c..32 {
                r |= 1 << i;
            }
        }
        r
    }

    fn insert_model(e: u32, newbits: u32, offset: u32, count: u32) -> u32 {
        let o = offset.min(32);
        let c = count.min(32 - o);
        let mask = if c == 0 {
            0
        } else {
            0xFFFF_FFFFu32.wrapping_shr(32 - c).wrapping_shl(o)
        };
        (e & !mask) | (newbits.wrapping_shl(o) & mask)
    }

    fn insert_reference(e: u32, newbits: u32, offset: u32, count: u32) -> u32 {
        let o = offset.min(32);
        let c = count.min(32 - o);
        let mut r = e;
        for i in 0..c {
            let bit = (newbits >> i) & 1;
            r = (r & !(1 << (o + i))) | (bit << (o + i));
        }
        r
    }

    #[test]
    fn extract_and_insert_bits_match_wgsl() {
        let values = samples();
        for (o, c) in fields() {
            for &e in values.iter().take(300) {
                for signed in [false, true] {
                    assert_eq!(
                        extract_model(e, o, c, signed),
                        extract_reference(e, o, c, signed),
                        "extractBits({e:#x}, {o}, {c}) signed={signed}"
                    );
                }
                let n = e.rotate_left(7) ^ 0xA5A5_5A5A;
                assert_eq!(
                    insert_model(e, n, o, c),
                    insert_reference(e, n, o, c),
                    "insertBits({e:#x}, {n:#x}, {o}, {c})"
                );
            }
        }
    }

    /// HLSL's firstbitlow / firstbithigh on uint: bit index from the least
    /// significant end, ~0 for 0.
    fn firstbitlow(x: u32) -> u32 {
        if x == 0 {
            u32::MAX
        } else {
            x.trailing_zeros()
        }
    }
    fn firstbithigh(x: u32) -> u32 {
        if x == 0 {
            u32::MAX
        } else {
            31 - x.leading_zeros()
        }
    }

    #[test]
    fn bit_counts_match_wgsl() {
        for x in samples() {
            // countTrailingZeros: min(firstbitlow(x), 32u)
            assert_eq!(firstbitlow(x).min(32), x.trailing_zeros());
            // countLeadingZeros: 31u - firstbithigh(x)
            assert_eq!(31u32.wrapping_sub(firstbithigh(x)), x.leading_zeros());
            // firstTrailingBit: firstbitlow(x), ~0 for 0
            let ftb = if x == 0 { u32::MAX } else { x.trailing_zeros() };
            assert_eq!(firstbitlow(x), ftb);
        }
    }

    /// The printed frexp on f32 bits.
    fn frexp_model(x: f32) -> (f32, i32) {
        let bits = x.to_bits();
        let field = (bits >> 23) & 0xFF;
        let normal = u32::from(field != 0);
        let exp = (normal * field) as i32 - normal as i32 * 126;
        let fraction = (bits & 0x807F_FFFF) | 0x3F00_0000;
        let f = f32::from_bits(bits.wrapping_add(normal.wrapping_mul(fraction.wrapping_sub(bits))));
        (f, exp)
    }

    #[test]
    fn frexp_matches_wgsl() {
        for bits in samples() {
            let x = f32::from_bits(bits);
            if !x.is_finite() || (x != 0.0 && !x.is_normal()) {
                continue;
            }
            let (f, e) = frexp_model(x);
            if x == 0.0 {
                assert_eq!((f.to_bits(), e), (x.to_bits(), 0));
                continue;
            }
            assert!((0.5..1.0).contains(&f.abs()), "frexp({x}) fraction {f}");
            assert_eq!(f.is_sign_negative(), x.is_sign_negative());
            assert_eq!(f64::from(f) * 2f64.powi(e), f64::from(x), "frexp({x})");
        }
    }

    #[test]
    fn unpack_snorm_sign_extends() {
        for x in samples() {
            for lane in 0..4u32 {
                // (int)(e << (24 - 8 * lane)) >> 24
                let model = ((x << (24 - 8 * lane)) as i32) >> 24;
                let reference = ((x >> (8 * lane)) & 0xFF) as u8 as i8 as i32;
                assert_eq!(model, reference);
            }
            for lane in 0..2u32 {
                let model = ((x << (16 - 16 * lane)) as i32) >> 16;
                let reference = ((x >> (16 * lane)) & 0xFFFF) as u16 as i16 as i32;
                assert_eq!(model, reference);
            }
        }
    }

    #[test]
    fn operands_are_parenthesized_by_class() {
        for (text, prec) in [
            ("x", Prec::Word),
            ("a[1].b", Prec::Postfix),
            ("f(a, b)", Prec::Call),
            ("(a + b)", Prec::Group),
            ("(-1)", Prec::NegativeNumber),
            ("1.0", Prec::Number),
        ] {
            assert_eq!(paren(text, prec), text);
        }
        assert_eq!(paren("a + b", Prec::Operator), "(a + b)");
        assert_eq!(paren("(float)x", Prec::Operator), "((float)x)");
        assert_eq!(paren("1e-7f", Prec::Exponent), "(1e-7f)");
    }

    /// The printed ldexp on f32, step by step.
    fn ldexp_model(x: f32, e: i32) -> f32 {
        let c = e.clamp(-252, 254);
        let h = c / 2;
        let a = f32::from_bits(((h + 127) as u32) << 23);
        let b = f32::from_bits(((c - h + 127) as u32) << 23);
        x * a * b
    }

    #[test]
    fn ldexp_matches_wgsl() {
        for bits in samples() {
            let x = f32::from_bits(bits);
            if !x.is_normal() {
                continue;
            }
            for e in -130..=130 {
                let exact = f64::from(x) * 2f64.powi(e);
                let model = ldexp_model(x, e);
                // Results below f32's normal range may flush (WGSL: may be
                // zero); elsewhere the product is exact or overflows.
                if exact.abs() < f64::from(f32::MIN_POSITIVE) {
                    continue;
                }
                if exact.abs() > f64::from(f32::MAX) {
                    assert!(model.is_infinite(), "ldexp({x}, {e})");
                } else {
                    assert_eq!(f64::from(model), exact, "ldexp({x}, {e})");
                }
            }
        }
        assert_eq!(ldexp_model(0.5, 128), 2f32.powi(127));
    }

    #[test]
    fn inverse_is_an_error() {
        let fixture = Fixture::new(SOURCE, ShaderModel::Sm6_0);
        let ctx = fixture.ctx();
        let mut needs = Needs::default();
        let t = m(3, 3);
        let args = [Arg {
            text: "x",
            prec: Prec::Word,
            ty: &t,
        }];
        let _ = call(
            &ctx,
            &mut needs,
            M::Inverse,
            &args,
            &t,
            naga::Span::UNDEFINED,
        );
        assert_eq!(needs.errors.len(), 1);
    }

    #[test]
    fn scalars_splat_and_operands_print_once() {
        let fixture = Fixture::new(SOURCE, ShaderModel::Sm6_0);
        let ctx = fixture.ctx();
        let mut needs = Needs::default();
        let f3 = v(3, Scalar::F32);
        let f = s(Scalar::F32);
        let args = [
            Arg {
                text: "a",
                prec: Prec::Word,
                ty: &f3,
            },
            Arg {
                text: "b",
                prec: Prec::Word,
                ty: &f3,
            },
            Arg {
                text: "t + 1.0",
                prec: Prec::Operator,
                ty: &f,
            },
        ];
        let (text, _) = call(&ctx, &mut needs, M::Mix, &args, &f3, naga::Span::UNDEFINED);
        assert_eq!(text, "lerp(a, b, (float3)(t + 1.0))");
        let i = s(Scalar::I32);
        let args2 = [Arg {
            text: "x.y + 1",
            prec: Prec::Operator,
            ty: &i,
        }];
        let (text, prec) = call(
            &ctx,
            &mut needs,
            M::CountLeadingZeros,
            &args2,
            &i,
            naga::Span::UNDEFINED,
        );
        assert_eq!(text, "(int)(31u - firstbithigh((uint)(x.y + 1)))");
        assert_eq!(prec, Prec::Operator);
    }
}
