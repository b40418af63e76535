//! WGSL builtin functions (`MathFunction`) as GLSL, with helper functions
//! where GLSL's builtin differs from WGSL's (bit counts at zero, packing of
//! 8-bit integers, modf/frexp result structs).

use super::expr::{bare, component, vector_size, Prec};
use super::FunctionWriter;
use crate::back::glsl::types;
use crate::back::text::{math_operands, TextWriter as _};
use naga::{Handle, MathFunction as M, Scalar, ScalarKind as K, TypeInner as Ti};
use std::fmt::Write as _;

impl FunctionWriter<'_, '_> {
    /// WGSL builtin `fun` of `h`, appended to `out`, and its class: the
    /// builtins GLSL spells as a plain call of the WGSL arguments (see
    /// [`plain_call`]) are written in place, arguments included; the
    /// others go through [`Self::math_polyfill`]. Arguments are visited in
    /// the same order either way.
    pub(super) fn math_into(&mut self, h: Handle<naga::Expression>, out: &mut String) -> Prec {
        let Some((fun, arg, others)) = math_operands(&self.st.exprs[h]) else {
            return Prec::Word;
        };
        let scalar = self.st.scalar_of(arg);
        // `abs` of unsigned values is the value itself.
        if fun == M::Abs && scalar.kind == K::Uint {
            return self.push_value(out, arg);
        }
        match plain_call(fun, scalar, self.ctx.dialect()) {
            Some(name) => self.push_call(
                out,
                name,
                std::iter::once(arg).chain(others.into_iter().flatten()),
            ),
            None => self.math_polyfill(h, fun, arg, others, out),
        }
    }

    /// The builtins [`plain_call`] leaves out, which need more than a call
    /// of the same arguments (polyfills, helpers, result structs),
    /// appended to `out`, and the class of the text.
    fn math_polyfill(
        &mut self,
        h: Handle<naga::Expression>,
        fun: M,
        arg: Handle<naga::Expression>,
        others: [Option<Handle<naga::Expression>>; 3],
        out: &mut String,
    ) -> Prec {
        let scalar = self.st.scalar_of(arg);
        let size = vector_size(self.st.ty(arg));
        let (a, a_prec) = self.expr_text(arg);
        // The other arguments in order, with their classes (empty strings
        // do not allocate).
        let mut rest: [(String, Prec); 3] = std::array::from_fn(|_| (String::new(), Prec::Word));
        for (slot, x) in rest.iter_mut().zip(others.into_iter().flatten()) {
            *slot = self.expr_text(x);
        }
        let [b, c, d] = rest.each_ref().map(|(text, prec)| bare(text, *prec));
        let bare = bare(&a, a_prec);
        let _: std::fmt::Result = match fun {
            // Of floats only (naga's validation).
            M::Saturate => match (scalar.kind, scalar.width) {
                (K::Float, 8) => write!(out, "clamp({bare}, 0.0lf, 1.0lf)"),
                (K::Float, 2) => {
                    let t = types::scalar(self.needs, scalar);
                    write!(out, "clamp({bare}, {t}(0.0), {t}(1.0))")
                }
                _ => write!(out, "clamp({bare}, 0.0, 1.0)"),
            },
            M::Modf | M::Frexp => self.modf_frexp(h, fun, arg, bare, out),
            M::Dot => {
                // GLSL's dot() takes floats only: the sum of the products
                // of the components, the second operand in its parentheses.
                let b = &rest[0].0;
                for i in 0..size.map_or(1, |s| s as u32) {
                    let (k, sep) = (component(i), if i == 0 { "(" } else { " + " });
                    let _ = write!(out, "{sep}{a}.{k} * {b}.{k}");
                }
                out.push(')');
                return Prec::Group;
            }
            M::Dot4I8Packed | M::Dot4U8Packed => {
                let name = self.dot4_helper(fun == M::Dot4I8Packed);
                write!(out, "{name}({bare}, {b})")
            }
            // ES 3.10 has no fma(); WGSL allows the unfused form. Each
            // operand keeps its own parentheses.
            M::Fma => {
                let _ = write!(out, "({a} * {} + {})", rest[0].0, rest[1].0);
                return Prec::Group;
            }
            M::QuantizeToF16 => {
                // Two components at a time through a packed `f16` pair.
                let q = "unpackHalf2x16(packHalf2x16(";
                match size {
                    None => {
                        let _ = write!(out, "{q}vec2({bare}))).x");
                        return Prec::Postfix;
                    }
                    Some(naga::VectorSize::Bi) => write!(out, "{q}{bare}))"),
                    Some(naga::VectorSize::Tri) => write!(out, "vec3({q}{a}.xy)), {q}{a}.zz)).x)"),
                    Some(naga::VectorSize::Quad) => write!(out, "vec4({q}{a}.xy)), {q}{a}.zw)))"),
                }
            }
            // GLSL's findLSB/findMSB give -1 for 0 where WGSL counts 32.
            M::CountTrailingZeros => {
                let target = self.type_of(h);
                let u = self.uint_like(size);
                write!(out, "{target}(min({u}(findLSB({bare})), 32u))")
            }
            M::CountLeadingZeros => {
                let target = self.type_of(h);
                let u = self.uint_like(size);
                if scalar.kind == K::Sint {
                    write!(out, "{target}(31 - findMSB({u}({bare})))")
                } else {
                    write!(out, "{target}(31 - findMSB({bare}))")
                }
            }
            M::CountOneBits => {
                let target = self.type_of(h);
                write!(out, "{target}(bitCount({bare}))")
            }
            // WGSL clamps offset and count into the bit width; GLSL leaves
            // out-of-range fields undefined.
            M::ExtractBits => write!(
                out,
                "bitfieldExtract({bare}, int(min({b}, 32u)), int(min({c}, 32u - min({b}, 32u))))"
            ),
            M::InsertBits => write!(
                out,
                "bitfieldInsert({bare}, {b}, int(min({c}, 32u)), int(min({d}, 32u - min({c}, 32u))))"
            ),
            M::FirstTrailingBit => {
                let target = self.type_of(h);
                write!(out, "{target}(findLSB({bare}))")
            }
            M::FirstLeadingBit => {
                let target = self.type_of(h);
                write!(out, "{target}(findMSB({bare}))")
            }
            M::Pack4xI8 | M::Pack4xU8 | M::Pack4xI8Clamp | M::Pack4xU8Clamp => {
                let name = self.pack4x8_helper(fun);
                write!(out, "{name}({bare})")
            }
            M::Unpack4xI8 | M::Unpack4xU8 => {
                let name = self.unpack4x8_helper(fun == M::Unpack4xI8);
                write!(out, "{name}({bare})")
            }
            // Plain calls (and `abs` of unsigned values) are written by
            // `math_into`, which only comes here for the forms above.
            _ => {
                self.error("internal: a math function without a GLSL form", h);
                out.push_str("_s_invalid");
                return Prec::Word;
            }
        };
        Prec::Call
    }

    /// `uint` or `uvecN`.
    fn uint_like(&mut self, size: Option<naga::VectorSize>) -> &'static str {
        match size {
            Some(n) => types::vector(self.needs, n, Scalar::U32),
            None => "uint",
        }
    }

    /// `modf`/`frexp` returning naga's predeclared result struct
    /// (`{fract, whole}` / `{fract, exp}`).
    fn modf_frexp(
        &mut self,
        h: Handle<naga::Expression>,
        fun: M,
        arg: Handle<naga::Expression>,
        x: &str,
        out: &mut String,
    ) -> std::fmt::Result {
        let result = self.type_of(h);
        let t = self.type_of(arg);
        let (what, second) = if fun == M::Modf {
            ("modf", t.clone())
        } else {
            let second = match *self.st.ty(arg) {
                Ti::Vector { size, .. } => types::vector(self.needs, size, Scalar::I32).into(),
                _ => "int".into(),
            };
            ("frexp", second)
        };
        let name = format!("_s_{what}_{t}");
        self.needs.helper(&name, || {
            format!(
                "{result} {name}({t} x) {{\n    {second} other;\n    {t} f = {what}(x, other);\n    return {result}(f, other);\n}}\n"
            )
        });
        write!(out, "{name}({x})")
    }

    /// Helpers for `dot4I8Packed` / `dot4U8Packed`.
    fn dot4_helper(&mut self, signed: bool) -> &'static str {
        let unpack = self.unpack4x8_helper(signed);
        let (name, t) = if signed {
            ("_s_dot4I8Packed", "int")
        } else {
            ("_s_dot4U8Packed", "uint")
        };
        self.needs.helper(name, || {
            format!(
                "{t} {name}(uint a, uint b) {{\n    {v}vec4 x = {unpack}(a);\n    {v}vec4 y = {unpack}(b);\n    return x.x * y.x + x.y * y.y + x.z * y.z + x.w * y.w;\n}}\n",
                v = if signed { "i" } else { "u" }
            )
        });
        name
    }

    /// `unpack4xI8` / `unpack4xU8`: bytes to sign- or zero-extended lanes.
    fn unpack4x8_helper(&mut self, signed: bool) -> &'static str {
        let (name, body) = if signed {
            (
                "_s_unpack4xI8",
                "ivec4 _s_unpack4xI8(uint x) {\n    int i = int(x);\n    return ivec4(bitfieldExtract(i, 0, 8), bitfieldExtract(i, 8, 8), bitfieldExtract(i, 16, 8), bitfieldExtract(i, 24, 8));\n}\n",
            )
        } else {
            (
                "_s_unpack4xU8",
                "uvec4 _s_unpack4xU8(uint x) {\n    return uvec4(x & 0xFFu, (x >> 8u) & 0xFFu, (x >> 16u) & 0xFFu, x >> 24u);\n}\n",
            )
        };
        self.needs.helper(name, || body.to_string());
        name
    }

    /// `pack4xI8`, `pack4xU8` and their clamping forms.
    fn pack4x8_helper(&mut self, fun: M) -> &'static str {
        let (name, param, lanes) = match fun {
            M::Pack4xI8 => ("_s_pack4xI8", "ivec4", "uvec4(v) & 0xFFu"),
            M::Pack4xI8Clamp => (
                "_s_pack4xI8Clamp",
                "ivec4",
                "uvec4(clamp(v, ivec4(-128), ivec4(127))) & 0xFFu",
            ),
            M::Pack4xU8Clamp => ("_s_pack4xU8Clamp", "uvec4", "min(v, uvec4(255u))"),
            _ => ("_s_pack4xU8", "uvec4", "v & 0xFFu"),
        };
        self.needs.helper(name, || {
            format!(
                "uint {name}({param} v) {{\n    uvec4 u = {lanes};\n    return u.x | (u.y << 8u) | (u.z << 16u) | (u.w << 24u);\n}}\n"
            )
        });
        name
    }
}

/// The GLSL builtin that computes `fun` on arguments of `scalar` as a plain
/// call of the same arguments, `name(a, b, ...)`; `None` for the builtins
/// that need more (see [`FunctionWriter::math_polyfill`]) and for `abs` of unsigned
/// values (the value itself).
fn plain_call(fun: M, scalar: Scalar, dialect: crate::back::glsl::Dialect) -> Option<&'static str> {
    Some(match fun {
        M::Abs if scalar.kind != K::Uint => "abs",
        M::Min => "min",
        M::Max => "max",
        M::Clamp => "clamp",
        M::Cos => "cos",
        M::Cosh => "cosh",
        M::Sin => "sin",
        M::Sinh => "sinh",
        M::Tan => "tan",
        M::Tanh => "tanh",
        M::Acos => "acos",
        M::Asin => "asin",
        M::Atan | M::Atan2 => "atan",
        M::Asinh => "asinh",
        M::Acosh => "acosh",
        M::Atanh => "atanh",
        M::Radians => "radians",
        M::Degrees => "degrees",
        M::Ceil => "ceil",
        M::Floor => "floor",
        // WGSL rounds halfway cases to even.
        M::Round => "roundEven",
        M::Fract => "fract",
        M::Trunc => "trunc",
        M::Ldexp => "ldexp",
        M::Exp => "exp",
        M::Exp2 => "exp2",
        M::Log => "log",
        M::Log2 => "log2",
        M::Pow => "pow",
        M::Dot if scalar.kind == K::Float => "dot",
        M::Outer => "outerProduct",
        M::Cross => "cross",
        M::Distance => "distance",
        M::Length => "length",
        M::Normalize => "normalize",
        M::FaceForward => "faceforward",
        M::Reflect => "reflect",
        M::Refract => "refract",
        M::Sign => "sign",
        // ES 3.10 has no fma() (see `math_polyfill`).
        M::Fma if dialect != crate::back::glsl::Dialect::Es310 => "fma",
        M::Mix => "mix",
        M::Step => "step",
        M::SmoothStep => "smoothstep",
        M::Sqrt => "sqrt",
        M::InverseSqrt => "inversesqrt",
        M::Inverse => "inverse",
        M::Transpose => "transpose",
        M::Determinant => "determinant",
        M::ReverseBits => "bitfieldReverse",
        M::Pack4x8snorm => "packSnorm4x8",
        M::Pack4x8unorm => "packUnorm4x8",
        M::Pack2x16snorm => "packSnorm2x16",
        M::Pack2x16unorm => "packUnorm2x16",
        M::Pack2x16float => "packHalf2x16",
        M::Unpack4x8snorm => "unpackSnorm4x8",
        M::Unpack4x8unorm => "unpackUnorm4x8",
        M::Unpack2x16snorm => "unpackSnorm2x16",
        M::Unpack2x16unorm => "unpackUnorm2x16",
        M::Unpack2x16float => "unpackHalf2x16",
        _ => return None,
    })
}
