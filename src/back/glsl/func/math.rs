//! WGSL builtin functions (`MathFunction`) as GLSL, with helper functions
//! where GLSL's builtin differs from WGSL's (bit counts at zero, packing of
//! 8-bit integers, modf/frexp result structs).

use super::expr::{bare, component, vector_size, Prec};
use super::FunctionWriter;
use crate::back::glsl::types;
use crate::back::text::TextWriter as _;
use naga::{Handle, MathFunction as M, Scalar, ScalarKind as K, TypeInner as Ti};

impl FunctionWriter<'_, '_> {
    /// [`Self::math`], appended to `out`: the builtins GLSL spells as a
    /// plain call of the WGSL arguments (see [`plain_call`]) are written in
    /// place, arguments included; the others go through `math`. Arguments
    /// are visited in the same order either way.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn math_into(
        &mut self,
        h: Handle<naga::Expression>,
        fun: M,
        arg: Handle<naga::Expression>,
        arg1: Option<Handle<naga::Expression>>,
        arg2: Option<Handle<naga::Expression>>,
        arg3: Option<Handle<naga::Expression>>,
        out: &mut String,
    ) -> Prec {
        let scalar = self.st.scalar_of(arg);
        // `abs` of unsigned values is the value itself.
        if fun == M::Abs && scalar.kind == K::Uint {
            return self.push_value(out, arg);
        }
        let Some(name) = plain_call(fun, scalar, self.ctx.dialect()) else {
            let (text, prec) = self.math(h, fun, arg, arg1, arg2, arg3);
            out.push_str(&text);
            return prec;
        };
        out.push_str(name);
        out.push('(');
        for (i, x) in [Some(arg), arg1, arg2, arg3]
            .into_iter()
            .flatten()
            .enumerate()
        {
            if i > 0 {
                out.push_str(", ");
            }
            self.bare_into(x, out);
        }
        out.push(')');
        Prec::Call
    }

    /// The builtins [`plain_call`] leaves out, which need more than a call
    /// of the same arguments (polyfills, helpers, result structs), and the
    /// class of its text.
    fn math(
        &mut self,
        h: Handle<naga::Expression>,
        fun: M,
        arg: Handle<naga::Expression>,
        arg1: Option<Handle<naga::Expression>>,
        arg2: Option<Handle<naga::Expression>>,
        arg3: Option<Handle<naga::Expression>>,
    ) -> (String, Prec) {
        let scalar = self.st.scalar_of(arg);
        let size = vector_size(self.st.ty(arg));
        let (a, a_prec) = self.expr_with(arg);
        // The other arguments in order (empty strings do not allocate).
        let mut rest: [String; 3] = Default::default();
        for (slot, x) in rest
            .iter_mut()
            .zip([arg1, arg2, arg3].into_iter().flatten())
        {
            *slot = self.arg(x);
        }
        let rest = rest;
        let bare = bare(&a, a_prec);
        let [b, c, d] = &rest;
        let text = match fun {
            // Of floats only (naga's validation).
            M::Saturate => match (scalar.kind, scalar.width) {
                (K::Float, 8) => format!("clamp({bare}, 0.0lf, 1.0lf)"),
                (K::Float, 2) => {
                    let t = types::scalar(self.needs, scalar);
                    format!("clamp({bare}, {t}(0.0), {t}(1.0))")
                }
                _ => format!("clamp({bare}, 0.0, 1.0)"),
            },
            M::Modf | M::Frexp => self.modf_frexp(h, fun, arg, bare),
            M::Dot => {
                // GLSL's dot() takes floats only.
                let n = size.map_or(1, |s| s as u32);
                let bb = arg1.map(|x| self.expr(x)).unwrap_or_default();
                let terms: Vec<String> = (0..n)
                    .map(|i| {
                        let k = component(i);
                        format!("{a}.{k} * {bb}.{k}")
                    })
                    .collect();
                return (format!("({})", terms.join(" + ")), Prec::Group);
            }
            M::Dot4I8Packed | M::Dot4U8Packed => {
                let name = self.dot4_helper(fun == M::Dot4I8Packed);
                format!("{name}({bare}, {b})")
            }
            // ES 3.10 has no fma(); WGSL allows the unfused form.
            M::Fma => return (format!("({a} * {b} + {c})"), Prec::Group),
            M::QuantizeToF16 => {
                let q = |v: &str| format!("unpackHalf2x16(packHalf2x16({v}))");
                match size {
                    None => return (format!("{}.x", q(&format!("vec2({bare})"))), Prec::Postfix),
                    Some(naga::VectorSize::Bi) => q(bare),
                    Some(naga::VectorSize::Tri) => format!(
                        "vec3({}, {}.x)",
                        q(&format!("{a}.xy")),
                        q(&format!("{a}.zz"))
                    ),
                    Some(naga::VectorSize::Quad) => format!(
                        "vec4({}, {})",
                        q(&format!("{a}.xy")),
                        q(&format!("{a}.zw"))
                    ),
                }
            }
            // GLSL's findLSB/findMSB give -1 for 0 where WGSL counts 32.
            M::CountTrailingZeros => {
                let target = self.type_of(h);
                let u = self.uint_like(size);
                format!("{target}(min({u}(findLSB({bare})), 32u))")
            }
            M::CountLeadingZeros => {
                let target = self.type_of(h);
                let u = self.uint_like(size);
                let x = if scalar.kind == K::Sint {
                    format!("{u}({bare})")
                } else {
                    bare.to_string()
                };
                format!("{target}(31 - findMSB({x}))")
            }
            M::CountOneBits => {
                let target = self.type_of(h);
                format!("{target}(bitCount({bare}))")
            }
            // WGSL clamps offset and count into the bit width; GLSL leaves
            // out-of-range fields undefined.
            M::ExtractBits => {
                format!("bitfieldExtract({bare}, int(min({b}, 32u)), int(min({c}, 32u - min({b}, 32u))))")
            }
            M::InsertBits => format!(
                "bitfieldInsert({bare}, {b}, int(min({c}, 32u)), int(min({d}, 32u - min({c}, 32u))))"
            ),
            M::FirstTrailingBit => {
                let target = self.type_of(h);
                format!("{target}(findLSB({bare}))")
            }
            M::FirstLeadingBit => {
                let target = self.type_of(h);
                format!("{target}(findMSB({bare}))")
            }
            M::Pack4xI8 | M::Pack4xU8 | M::Pack4xI8Clamp | M::Pack4xU8Clamp => {
                let name = self.pack4x8_helper(fun);
                format!("{name}({bare})")
            }
            M::Unpack4xI8 | M::Unpack4xU8 => {
                let signed = fun == M::Unpack4xI8;
                let name = self.unpack4x8_helper(signed);
                format!("{name}({bare})")
            }
            // Plain calls (and `abs` of unsigned values) are written by
            // `math_into`, which only comes here for the forms above.
            _ => {
                self.error("internal: a math function without a GLSL form", h);
                return ("_s_invalid".to_string(), Prec::Word);
            }
        };
        (text, Prec::Call)
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
    ) -> String {
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
        format!("{name}({x})")
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
/// that need more (see [`FunctionWriter::math`]) and for `abs` of unsigned
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
        // ES 3.10 has no fma() (see `math`).
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
