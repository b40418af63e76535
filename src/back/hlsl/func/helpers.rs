//! The `_s_` helper functions expressions call: WGSL's integer division
//! and remainder, component-wise select and logic on bool vectors (HLSL
//! 2021 forbids `?:`, `&&` and `||` on vectors and HLSL 2018 lacks
//! `select`/`and`/`or`), the constructors HLSL lacks for arrays and
//! structs, and the double operations DXIL lacks.
//!
//! Every function returns the helper's name after adding its definition
//! to `Needs::helpers` (once).

use super::expr::typed_int;
use crate::back::hlsl::types::{self, shaped};
use crate::back::hlsl::{Ctx, Needs};
use crate::back::text::div_mod_body;
use naga::proc::NameKey;
use naga::{Scalar, ScalarKind as K};

/// Integer `what` ("div" or "mod") with WGSL's results: `a / 0` is `a`,
/// `a % 0` is 0, and `MIN / -1` is `MIN` (`MIN % -1` is 0), on `scalar`
/// or vectors of `size` of it.
pub(super) fn div_mod(
    needs: &mut Needs,
    what: &str,
    scalar: Scalar,
    size: Option<naga::VectorSize>,
) -> String {
    let s = types::scalar(scalar);
    let scalar_name = ["_s_", what, "_", s].concat();
    needs.helper(&scalar_name, |_| {
        let signed = scalar.kind == K::Sint;
        // 0, 1, -1 and the most negative value of the width.
        let min = i64::MIN >> (64 - 8 * u32::from(scalar.width));
        let literals = [0, 1, -1, min].map(|v| typed_int(scalar, v));
        let body = div_mod_body(what, s, signed, literals.each_ref().map(String::as_str));
        text!("{s} {scalar_name}({s} a, {s} b)\n{{\n{body}}}\n")
    });
    let Some(size) = size else {
        return scalar_name;
    };
    let v = types::vector(size as u8, scalar);
    let name = ["_s_", what, "_", &v].concat();
    componentwise(needs, &name, &v, &[&v, " a, ", &v, " b"], size, |c| {
        text!("{scalar_name}(a.{c}, b.{c})")
    });
    name
}

/// Define helper `name` (once), returning the vector `ret` (of `size`
/// components) built from `each` component's expression, with the
/// parameter list `params` (its pieces joined):
/// `ret name(params) { return ret(each(x), each(y), ...); }`.
fn componentwise(
    needs: &mut Needs,
    name: &str,
    ret: &str,
    params: &[&str],
    size: naga::VectorSize,
    each: impl Fn(char) -> String,
) {
    needs.helper(name, |_| {
        crate::back::text::componentwise_text((ret, name, &params.concat()), "\n{\n", size, each)
    });
}

/// `select` with a bool vector condition, component-wise:
/// `_s_select_float3(c, accept, reject)`.
pub(super) fn select(needs: &mut Needs, size: naga::VectorSize, scalar: Scalar) -> String {
    let v = types::vector(size as u8, scalar);
    let b = types::vector(size as u8, Scalar::BOOL);
    let name = ["_s_select_", &v].concat();
    let params = [&*b, " c, ", &v, " a, ", &v, " b"];
    componentwise(needs, &name, &v, &params, size, |k| {
        text!("c.{k} ? a.{k} : b.{k}")
    });
    name
}

/// `&` or `|` on bool vectors, component-wise: `_s_and_bool3(a, b)`.
pub(super) fn logic(needs: &mut Needs, and: bool, size: naga::VectorSize) -> String {
    let b = types::vector(size as u8, Scalar::BOOL);
    let (what, op) = if and { ("and", "&&") } else { ("or", "||") };
    let name = ["_s_", what, "_", &b].concat();
    let params = [&*b, " a, ", &b, " b"];
    componentwise(needs, &name, &b, &params, size, |k| {
        text!("a.{k} {op} b.{k}")
    });
    name
}

/// The constructor of array or struct type `ty` from its elements or
/// members: `_s_make_Light(...)`, `_s_make__s_array4_float(...)`.
pub(super) fn constructor(
    ctx: &Ctx<'_>,
    needs: &mut Needs,
    ty: naga::Handle<naga::Type>,
) -> String {
    let t = types::type_name(ctx, ty);
    let name = ["_s_make_", t].concat();
    needs.helper(&name, |_| {
        let mut params = Vec::new();
        let mut body = String::new();
        match ctx.module.types[ty].inner {
            naga::TypeInner::Array { base, size, .. } => {
                let e = types::type_name(ctx, base);
                let n = types::array_count(ctx, size).unwrap_or(0);
                for i in 0..n {
                    params.push(text!("{e} e{i}"));
                    body.push_str(&text!("    r[{i}] = e{i};\n"));
                }
            }
            naga::TypeInner::Struct { ref members, .. } => {
                for (i, m) in members.iter().enumerate() {
                    let mt = types::type_name(ctx, m.ty);
                    let member = ctx.name(NameKey::StructMember(ty, i as u32));
                    params.push(text!("{mt} m{i}"));
                    body.push_str(&text!("    r.{member} = m{i};\n"));
                }
            }
            _ => {}
        }
        text!(
            "{t} {name}({})\n{{\n    {t} r;\n{body}    return r;\n}}\n",
            params.join(", ")
        )
    });
    name
}

/// The zero value of array or struct type `ty` as a function's result,
/// `_s_zero_Light()`: a value DXC can index and take members of, which the
/// cast `(T)0` is not.
pub(super) fn zero_value(ctx: &Ctx<'_>, needs: &mut Needs, ty: naga::Handle<naga::Type>) -> String {
    let t = types::type_name(ctx, ty);
    let name = ["_s_zero_", t].concat();
    needs.helper(&name, |_| {
        text!(
            "{t} {name}()\n{{\n    return {};\n}}\n",
            types::zero_value(ctx, ty)
        )
    });
    name
}

/// WGSL's `%` on doubles (truncated, like C's `fmod`): DXIL has neither a
/// double remainder nor double rounding, so the quotient is truncated by
/// clearing its fraction bits. `ty` is `double` or a `doubleN`.
pub(super) fn fmod_double(needs: &mut Needs, size: Option<naga::VectorSize>) -> String {
    let trunc = "_s_trunc_double";
    needs.helper(trunc, |_| {
        [
            "double _s_trunc_double(double x)",
            "{",
            "    uint lo, hi;",
            "    asuint(x, lo, hi);",
            "    int e = int((hi >> 20) & 0x7ffu) - 1023;",
            "    if (e < 0) {",
            "        return asdouble(0u, hi & 0x80000000u);",
            "    }",
            "    if (e >= 52) {",
            "        return x;",
            "    }",
            "    if (e >= 20) {",
            "        lo &= ~(0xffffffffu >> uint(e - 20));",
            "    } else {",
            "        lo = 0u;",
            "        hi &= ~(0x000fffffu >> uint(e));",
            "    }",
            "    return asdouble(lo, hi);",
            "}",
            "",
        ]
        .join("\n")
    });
    let scalar_name = "_s_fmod_double";
    needs.helper(scalar_name, |_| {
        "double _s_fmod_double(double a, double b)\n{\n    return a - b * _s_trunc_double(a / b);\n}\n"
            .to_string()
    });
    let Some(size) = size else {
        return scalar_name.to_string();
    };
    let v = types::vector(size as u8, Scalar::F64);
    let name = ["_s_fmod_", &v].concat();
    componentwise(needs, &name, &v, &[&v, " a, ", &v, " b"], size, |c| {
        text!("{scalar_name}(a.{c}, b.{c})")
    });
    name
}

/// Bitcasts between doubles and 64-bit integers (HLSL's `asuint` and
/// `asdouble` split doubles into two 32-bit halves): the helper turning a
/// value of `from` into `to` (same component count `size`).
pub(super) fn bitcast64(
    needs: &mut Needs,
    from: Scalar,
    to: Scalar,
    size: Option<naga::VectorSize>,
) -> String {
    let n = size.map_or(0, |n| n as u8);
    let (f, t) = (shaped(n, from), shaped(n, to));
    let u = shaped(n, Scalar::U32);
    let name = text!("_s_bitcast_{t}_{f}");
    needs.helper(&name, |_| {
        let body = if to.kind == K::Float {
            text!("    return asdouble({u}(x), {u}(x >> 32));\n")
        } else {
            text!(
                "    {u} lo, hi;\n    asuint(x, lo, hi);\n    return ({t}(hi) << 32) | {t}(lo);\n"
            )
        };
        text!("{t} {name}({f} x)\n{{\n{body}}}\n")
    });
    name
}
