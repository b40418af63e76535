//! 16-bit values in byte-address buffers, read from and written to their
//! containing 32-bit words (see the module documentation of [`super`]).

use super::*;

/// The 16-bit value in the low bits of the `uint` expression `bits`, as
/// scalar type `s`. (Through `f16tof32`, which is exact for every `half`:
/// DXC 1.7 has no SPIR-V for `asfloat16`/`asuint16`.)
pub(super) fn from16(s: naga::Scalar, bits: &str) -> String {
    match s.kind {
        naga::ScalarKind::Float => text!("({})f16tof32({bits})", super::super::types::scalar(s)),
        naga::ScalarKind::Sint => text!("(int16_t)({bits})"),
        _ => text!("(uint16_t)({bits})"),
    }
}

/// The bits of the 16-bit expression `v` (of scalar type `s`) as a `uint`.
pub(super) fn to16(s: naga::Scalar, v: &str) -> String {
    match s.kind {
        naga::ScalarKind::Float => text!("f32tof16((float)({v}))"),
        _ => text!("((uint)({v}) & 0xFFFFu)"),
    }
}

/// A 16-bit scalar (`n` = 0) or vector read at `off` of `buf`, from the
/// containing words (see the module documentation). Vectors of 16-bit
/// components are 4-byte aligned in every WGSL layout; a scalar may sit in
/// either half of its word.
/// Appended to `out`.
pub(super) fn push_load16(
    out: &mut String,
    needs: &mut Needs,
    (src, off): (Src<'_>, &str),
    n: u8,
    s: naga::Scalar,
) {
    let inner = src.inner();
    let t = super::super::types::shaped(n, s);
    let mut name = String::with_capacity(24);
    src.push_helper_prefix(&mut name);
    name.push_str(&t);
    let helper = name.as_str();
    needs.helper(helper, |_| {
        let words = |n: u8, off: &str| {
            let mut w = String::new();
            inner.push_words(&mut w, n, off);
            w
        };
        let body = match n {
            0 | 1 => {
                // The word's offset; words cbuffers shift it, so there it
                // is an operand of `>>`.
                let word = match inner {
                    Src::Words { .. } => "(o & ~3u)",
                    Src::Bytes { .. } => "o & ~3u",
                };
                text!(
                    "    return {};\n",
                    from16(s, &text!("{} >> ((o & 2u) * 8u)", words(1, word)))
                )
            }
            2 => text!(
                "    uint w = {};\n    return {t}({}, {});\n",
                words(1, "o"),
                from16(s, "w"),
                from16(s, "w >> 16u")
            ),
            _ => {
                let parts: Vec<String> = (0..n)
                    .map(|k| {
                        let word = if k < 2 { "w.x" } else { "w.y" };
                        if k % 2 == 0 {
                            from16(s, word)
                        } else {
                            from16(s, &text!("{word} >> 16u"))
                        }
                    })
                    .collect();
                text!(
                    "    uint2 w = {};\n    return {t}({});\n",
                    words(2, "o"),
                    parts.join(", ")
                )
            }
        };
        text!("{t} {helper}({}) {{\n{body}}}\n", src.params())
    });
    super::super::push_parts(out, &[helper, "("]);
    src.push_args(out, off);
    out.push(')');
}

/// Statements writing the 16-bit scalar (`n` = 0) or vector `value` at
/// `off` of the `RWByteAddressBuffer` `buf`: whole words where the value
/// fills them, atomic AND/OR on the word where it fills half of one.
/// Appended to `out`, each line starting with `pad`.
pub(super) fn push_store16(
    out: &mut String,
    pad: &str,
    needs: &mut Needs,
    (buf, off, value): (&str, &str, &str),
    n: u8,
    s: naga::Scalar,
) {
    let t = super::super::types::shaped(n, s);
    let mut name = String::with_capacity(24);
    super::super::push_parts(&mut name, &["_s_store_", &t]);
    let helper = name.as_str();
    needs.helper(helper, |needs| {
        let pair = |a: &str, b: &str| text!("{} | ({} << 16u)", to16(s, a), to16(s, b));
        let body = match n {
            0 | 1 => text!(
                "    uint s = (o & 2u) * 8u;\n    b.InterlockedAnd(o & ~3u, ~(0xFFFFu << s));\n    b.InterlockedOr(o & ~3u, {} << s);\n",
                to16(s, "v")
            ),
            2 => text!("    b.Store(o, {});\n", pair("v.x", "v.y")),
            3 => {
                let mut body = text!("    b.Store(o, {});\n", pair("v.x", "v.y"));
                push_store16(&mut body, "    ", needs, ("b", "o + 4u", "v.z"), 0, s);
                body
            }
            _ => text!(
                "    b.Store2(o, uint2({}, {}));\n",
                pair("v.x", "v.y"),
                pair("v.z", "v.w")
            ),
        };
        text!("void {helper}(RWByteAddressBuffer b, uint o, {t} v) {{\n{body}}}\n")
    });
    super::super::push_parts(
        out,
        &[pad, helper, "(", buf, ", ", off, ", ", value, ");\n"],
    );
}
