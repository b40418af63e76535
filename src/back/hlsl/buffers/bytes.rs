//! Byte-address buffers: byte offsets as data, and the loads, stores,
//! atomics and array lengths that read and write every leaf at its
//! contract offset.

use super::*;

/// A helper-name fragment for a contract layout of value type `ty`,
/// appended to `out`.
pub(super) fn push_mangle_layout(
    out: &mut String,
    ctx: &Ctx<'_>,
    layout: &Layout,
    ty: Handle<naga::Type>,
) {
    match &layout.kind {
        LayoutKind::Array {
            element,
            stride,
            count,
        } => {
            out.push('a');
            match count {
                Some(n) => super::super::push_decimal(out, *n),
                None => out.push_str("rt"),
            }
            out.push('s');
            super::super::push_decimal(out, *stride);
            out.push('_');
            push_mangle_layout(out, ctx, element, element_type(ctx, ty));
        }
        _ => out.push_str(super::super::types::type_name(ctx, ty)),
    }
}

/// The members of struct `h` that a byte-address load or store visits, in
/// offset order: each sized member's contract slot, WGSL type and name (a
/// runtime-sized array member is never loaded or stored whole).
fn sized_members<'c>(
    ctx: &'c Ctx<'_>,
    h: Handle<naga::Type>,
) -> impl Iterator<Item = (&'c crate::layout::MemberSlot, Handle<naga::Type>, &'c str)> + 'c {
    let members = match ctx.module.types.get_handle(h).map(|t| &t.inner) {
        Ok(naga::TypeInner::Struct { members, .. }) => members.as_slice(),
        _ => &[],
    };
    let slots = ctx
        .contract
        .structs
        .get(&h)
        .into_iter()
        .flat_map(|sl| sl.members());
    slots.filter_map(move |m| {
        let ty = members.get(m.index)?.ty;
        m.layout.size?;
        Some((m, ty, ctx.name(NameKey::StructMember(h, m.index as u32))))
    })
}

/// The element type of array type `ty` (itself when not an array).
pub(super) fn element_type(ctx: &Ctx<'_>, ty: Handle<naga::Type>) -> Handle<naga::Type> {
    super::super::types::array_of(ctx, ty).map_or(ty, |(base, _)| base)
}

/// Which way a byte-address helper moves a value: a load from a source,
/// or a store into a `RWByteAddressBuffer`.
#[derive(Clone, Copy, Debug)]
enum Way<'a> {
    Load(Src<'a>),
    Store,
}

/// Where a read at a byte offset goes: a byte-address buffer, or a cbuffer
/// declared as `uint4` words.
#[derive(Clone, Copy, Debug)]
pub(super) enum Src<'a> {
    /// `buf.Load(o)` on a `ByteAddressBuffer` (`RWByteAddressBuffer` when
    /// `rw`); inside a helper, the parameter `b`.
    Bytes { buf: &'a str, rw: bool },
    /// `words[o >> 4][(o >> 2) & 3]` of the cbuffer array `words`: helpers
    /// name the global (`tag`) and read it directly, taking only `o`.
    Words { words: &'a str, tag: &'a str },
}

impl<'a> Src<'a> {
    /// The source of a storage global.
    pub(super) fn of(st: &'a Storage) -> Self {
        match &st.words {
            Some(w) => Src::Words {
                words: &w.words,
                tag: &st.name,
            },
            None => Src::Bytes {
                buf: &st.name,
                rw: !st.read_only,
            },
        }
    }

    /// The source as a helper body sees it.
    pub(super) fn inner(self) -> Self {
        match self {
            Src::Bytes { rw, .. } => Src::Bytes { buf: "b", rw },
            words => words,
        }
    }

    /// `_s_<kind>_`: the start of a load helper's name.
    pub(super) fn push_helper_prefix(self, out: &mut String) {
        match self {
            Src::Bytes { rw: true, .. } => out.push_str("_s_rwload_"),
            Src::Bytes { rw: false, .. } => out.push_str("_s_load_"),
            Src::Words { tag, .. } => super::super::push_parts(out, &["_s_wload_", tag, "_"]),
        }
    }

    /// A load helper's parameters up to `uint o`.
    pub(super) fn params(self) -> &'static str {
        match self {
            Src::Bytes { rw, .. } if rw => "RWByteAddressBuffer b, uint o",
            Src::Bytes { .. } => "ByteAddressBuffer b, uint o",
            Src::Words { .. } => "uint o",
        }
    }

    /// A load helper's arguments: `buf, off` or `off`.
    pub(super) fn push_args(self, out: &mut String, off: &str) {
        match self {
            Src::Bytes { buf, .. } => super::super::push_parts(out, &[buf, ", ", off]),
            Src::Words { .. } => out.push_str(off),
        }
    }

    /// `n` (1 to 4) 32-bit words from byte `off` as a `uint`/`uintN`.
    pub(super) fn push_words(self, out: &mut String, n: u8, off: &str) {
        match self {
            Src::Bytes { buf, .. } => {
                super::super::push_parts(out, &[buf, ".Load"]);
                if n > 1 {
                    super::super::push_decimal(out, u64::from(n));
                }
                super::super::push_parts(out, &["(", off, ")"]);
            }
            Src::Words { words, .. } => {
                if n > 1 {
                    out.push_str("uint");
                    super::super::push_decimal(out, u64::from(n));
                    out.push('(');
                }
                for k in 0..n {
                    if k > 0 {
                        out.push_str(", ");
                    }
                    // The word's byte offset as an operand of `>>`: an
                    // offset is a number, a name, a product or a sum in
                    // parentheses ([`ByteOffset::push_to`]), all of which
                    // bind tighter than `>>` (a caller that computes one
                    // otherwise parenthesizes it).
                    let o: Cow<'_, str> = if k == 0 {
                        Cow::Borrowed(off)
                    } else {
                        Cow::Owned(text!("({off} + {}u)", 4 * k))
                    };
                    super::super::push_parts(
                        out,
                        &[words, "[", &o, " >> 4u][(", &o, " >> 2u) & 3u]"],
                    );
                }
                if n > 1 {
                    out.push(')');
                }
            }
        }
    }
}

pub(super) fn buffer_type(rw: bool) -> &'static str {
    if rw {
        "RWByteAddressBuffer"
    } else {
        "ByteAddressBuffer"
    }
}

impl Storage {
    /// The error for a 16- or 64-bit value `s` in this buffer below shader
    /// model 6.2 (`model`, the chosen one), which cannot load or store it.
    pub(crate) fn sm62_error(
        &self,
        s: naga::Scalar,
        model: super::super::ShaderModel,
    ) -> Diagnostic {
        let how = if s.width == 2 {
            "which need HLSL's 16-bit types (`-enable-16bit-types`)"
        } else {
            "which HLSL reads and writes in a byte-address buffer with the templated `Load<T>`/`Store<T>`"
        };
        Diagnostic::error(text!(
            "`{}` holds `{}` values, {how}, available from shader model 6.2; the chosen shader model is {model}.",
            self.name,
            super::super::types::scalar(s),
        ))
        .at(self.span.clone(), "16- or 64-bit values in a byte-address buffer")
        .note("help: use --shader-model 6_2 (or later)")
    }

    /// Record that a load or store of `s` in this buffer needs shader
    /// model 6.2 where `s` is a 16- or 64-bit scalar: an error below it.
    fn require_sm62(&self, ctx: &Ctx<'_>, needs: &mut Needs, s: naga::Scalar) {
        let wide = s.width != 4 && s.kind != naga::ScalarKind::Bool;
        if wide && ctx.shader_model() < super::super::ShaderModel::Sm6_2 {
            needs.error(self.sm62_error(s, ctx.shader_model()));
        }
    }
}

impl Plan {
    /// A scalar (`n` = 0) or vector read at `off` of `buf`, appended to
    /// `out`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn push_leaf_load(
        &self,
        out: &mut String,
        ctx: &Ctx<'_>,
        needs: &mut Needs,
        st: &Storage,
        (src, off): (Src<'_>, &str),
        n: u8,
        s: naga::Scalar,
    ) -> Prec {
        st.require_sm62(ctx, needs, s);
        if s.width == 2 {
            push_load16(out, needs, (src, off), n, s);
            return Prec::Call;
        }
        if s.width == 4 || s.kind == naga::ScalarKind::Bool {
            // `buf.LoadN(off)`, converted from `uint`.
            let (open, close, class) = match s.kind {
                naga::ScalarKind::Sint => ("asint(", ")", Prec::Call),
                naga::ScalarKind::Float => ("asfloat(", ")", Prec::Call),
                naga::ScalarKind::Bool => ("(", " != 0u)", Prec::Group),
                // A method call, or the indexed words.
                _ => ("", "", Prec::Postfix),
            };
            out.push_str(open);
            src.push_words(out, n.max(1), off);
            out.push_str(close);
            class
        } else if let Src::Words { .. } = src {
            // 64-bit values from their two words, low word first.
            // A scalar is `open` low `mid` high `close`, and of class
            // `class` (`(int64_t)(...)` is a cast).
            let (open, mid, close, class) = match s.kind {
                naga::ScalarKind::Float => ("asdouble(", ", ", ")", Prec::Call),
                naga::ScalarKind::Sint => {
                    let open = "(int64_t)((uint64_t)";
                    (open, " | ((uint64_t)", " << 32))", Prec::Operator)
                }
                _ => ("((uint64_t)", " | ((uint64_t)", " << 32))", Prec::Group),
            };
            if n > 1 {
                super::super::push_parts(out, &[&super::super::types::vector(n, s), "("]);
            }
            for k in 0..n.max(1) {
                if k > 0 {
                    out.push_str(", ");
                }
                let lo = ByteOffset::base(off).plus(8 * u64::from(k));
                out.push_str(open);
                src.push_words(out, 1, &lo.text());
                out.push_str(mid);
                src.push_words(out, 1, &lo.plus(4).text());
                out.push_str(close);
            }
            if n > 1 {
                out.push(')');
                return Prec::Call;
            }
            class
        } else {
            let Src::Bytes { buf, .. } = src else {
                return Prec::Postfix;
            };
            let t = super::super::types::shaped(n, s);
            super::super::push_parts(out, &[buf, ".Load<", &t, ">(", off, ")"]);
            Prec::Postfix
        }
    }

    /// The value of type `ty` laid out as `layout` at `off` of the
    /// byte-address buffer `buf` (`rw`: a `RWByteAddressBuffer`), appended
    /// to `out`; its class.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn push_load_bytes(
        &self,
        out: &mut String,
        ctx: &Ctx<'_>,
        needs: &mut Needs,
        st: &Storage,
        (src, off): (Src<'_>, &str),
        layout: &Layout,
        ty: Handle<naga::Type>,
    ) -> Prec {
        match &layout.kind {
            LayoutKind::Scalar(s) | LayoutKind::Atomic(s) => {
                self.push_leaf_load(out, ctx, needs, st, (src, off), 0, naga_scalar(*s))
            }
            LayoutKind::Vector { size, scalar } => {
                let s = naga_scalar(*scalar);
                self.push_leaf_load(out, ctx, needs, st, (src, off), *size, s)
            }
            LayoutKind::Array { count: None, .. } => {
                // Runtime-sized arrays are never loaded whole.
                out.push_str(&super::super::types::zero_value(ctx, ty));
                // A cast, `(T)0`.
                Prec::Operator
            }
            _ => {
                let mut name = String::with_capacity(32);
                self.composite_helper(&mut name, ctx, needs, st, Way::Load(src), layout, ty);
                super::super::push_parts(out, &[&name, "("]);
                src.push_args(out, off);
                out.push(')');
                Prec::Call
            }
        }
    }

    /// The helper that loads or stores (`way`) a whole matrix, sized array
    /// or struct laid out as `layout` (value type `ty`) at byte `o` of its
    /// buffer, part by part at the parts' contract offsets: its name,
    /// appended to `name`, and its definition in `needs` (once per name).
    #[allow(clippy::too_many_arguments)]
    fn composite_helper(
        &self,
        name: &mut String,
        ctx: &Ctx<'_>,
        needs: &mut Needs,
        st: &Storage,
        way: Way<'_>,
        layout: &Layout,
        ty: Handle<naga::Type>,
    ) {
        let t: Cow<'_, str> = match &layout.kind {
            LayoutKind::Matrix {
                columns,
                rows,
                scalar,
                ..
            } => super::super::types::matrix(*columns, *rows, naga_scalar(*scalar)),
            LayoutKind::Struct(h) => super::super::types::type_name(ctx, *h).into(),
            _ => super::super::types::type_name(ctx, ty).into(),
        };
        match way {
            Way::Load(src) => src.push_helper_prefix(name),
            Way::Store => name.push_str("_s_store_"),
        }
        match &layout.kind {
            LayoutKind::Array { .. } => push_mangle_layout(name, ctx, layout, ty),
            _ => name.push_str(&t),
        }
        let helper = name.as_str();
        needs.helper(helper, |needs| {
            let mut def = String::with_capacity(256);
            // A load returns the value; a store (into a `RWByteAddressBuffer`)
            // takes it as `v`.
            let (src, load) = match way {
                Way::Load(src) => (src, true),
                Way::Store => (Src::Bytes { buf: "b", rw: true }, false),
            };
            let ret = if load { &*t } else { "void" };
            super::super::push_parts(&mut def, &[ret, " ", helper, "(", src.params()]);
            if !load {
                super::super::push_parts(&mut def, &[", ", &t, " v"]);
            }
            def.push_str(") {\n");
            let src = src.inner();
            // Where a part goes: `r<suffix> = <load>;` into the result, or
            // the store of `v<suffix>`.
            let part = |def: &mut String,
                        needs: &mut Needs,
                        pad: &str,
                        suffix: &str,
                        o: &str,
                        l: &Layout,
                        ty| {
                if load {
                    super::super::push_parts(def, &[pad, "r", suffix, " = "]);
                    self.push_load_bytes(def, ctx, needs, st, (src, o), l, ty);
                    def.push_str(";\n");
                } else {
                    let v = text!("v{suffix}");
                    self.push_store_bytes(def, pad, ctx, needs, st, ("b", o, &v), l, ty);
                }
            };
            // Arrays and structs are built in `r`, member by member.
            let built = load && !matches!(layout.kind, LayoutKind::Matrix { .. });
            if built {
                super::super::push_parts(&mut def, &["    ", &t, " r;\n"]);
            }
            let mut o = String::new();
            match &layout.kind {
                LayoutKind::Matrix { rows, scalar, .. } => {
                    let Some((column, offsets)) = matrix_columns(layout) else {
                        return String::new();
                    };
                    if load {
                        super::super::push_parts(&mut def, &["    return ", &t, "("]);
                    }
                    for (j, at) in offsets.enumerate() {
                        o.clear();
                        ByteOffset::base("o").plus(at).push_to(&mut o);
                        if !load {
                            part(&mut def, needs, "    ", &text!("[{j}]"), &o, &column, ty);
                            continue;
                        }
                        if j > 0 {
                            def.push_str(", ");
                        }
                        let s = naga_scalar(*scalar);
                        self.push_leaf_load(&mut def, ctx, needs, st, (src, &o), *rows, s);
                    }
                    if load {
                        def.push_str(");\n");
                    }
                }
                LayoutKind::Array {
                    element,
                    stride,
                    count,
                } => {
                    def.push_str("    for (uint i = 0u; i < ");
                    super::super::push_decimal(&mut def, count.unwrap_or(0));
                    def.push_str("u; ++i) {\n");
                    ByteOffset::base("o")
                        .plus_scaled(*stride, "i")
                        .push_to(&mut o);
                    let base = element_type(ctx, ty);
                    part(&mut def, needs, "        ", "[i]", &o, element, base);
                    def.push_str("    }\n");
                }
                LayoutKind::Struct(h) => {
                    for (m, mty, name) in sized_members(ctx, *h) {
                        o.clear();
                        ByteOffset::base("o").plus(m.offset).push_to(&mut o);
                        part(
                            &mut def,
                            needs,
                            "    ",
                            &text!(".{name}"),
                            &o,
                            &m.layout,
                            mty,
                        );
                    }
                }
                _ => return String::new(),
            }
            if built {
                def.push_str("    return r;\n");
            }
            def.push_str("}\n");
            def
        });
    }

    /// Statements (each line ending in `;` and a newline, not indented)
    /// storing `value` (of WGSL type `ty`) at `place`.
    pub fn store(
        &self,
        ctx: &Ctx<'_>,
        needs: &mut Needs,
        place: &Place,
        ty: Handle<naga::Type>,
        value: &str,
    ) -> String {
        // Uniforms are never stored to.
        let Some((st, offset, layout)) = self.bytes(place) else {
            return String::new();
        };
        offset.with_text(|off| {
            let mut out = String::with_capacity(st.name.len() + off.len() + value.len() + 32);
            let to = (st.name.as_str(), off, value);
            self.push_store_bytes(&mut out, "", ctx, needs, st, to, layout, ty);
            out
        })
    }

    /// Statements storing the value `value` (evaluated once) of type `ty`,
    /// laid out as `layout`, at `off` of the `RWByteAddressBuffer` `buf`;
    /// leaf by leaf, so padding bytes are never written. Appended to `out`:
    /// one line, starting with `pad` (nothing where it cannot be written).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn push_store_bytes(
        &self,
        out: &mut String,
        pad: &str,
        ctx: &Ctx<'_>,
        needs: &mut Needs,
        st: &Storage,
        (buf, off, value): (&str, &str, &str),
        layout: &Layout,
        ty: Handle<naga::Type>,
    ) {
        let leaf = |out: &mut String, needs: &mut Needs, n: u8, s: naga::Scalar| {
            st.require_sm62(ctx, needs, s);
            if s.width == 2 {
                return push_store16(out, pad, needs, (buf, off, value), n, s);
            }
            out.push_str(pad);
            if s.width == 4 || s.kind == naga::ScalarKind::Bool {
                // `buf.StoreN(off, v);`, `v` converted to `uint` bits.
                let (to_bits, open, close) = match s.kind {
                    naga::ScalarKind::Uint => (Cow::Borrowed(""), "", ""),
                    naga::ScalarKind::Bool => {
                        (super::super::types::shaped(n, naga::Scalar::U32), "(", ")")
                    }
                    _ => (Cow::Borrowed("asuint"), "(", ")"),
                };
                super::super::push_parts(out, &[buf, ".Store"]);
                if n > 1 {
                    super::super::push_decimal(out, u64::from(n));
                }
                let parts = ["(", off, ", ", &to_bits, open, value, close, ");\n"];
                super::super::push_parts(out, &parts);
            } else {
                let t = super::super::types::shaped(n, s);
                super::super::push_parts(
                    out,
                    &[buf, ".Store<", &t, ">(", off, ", ", value, ");\n"],
                );
            }
        };
        let mut name = String::new();
        match &layout.kind {
            LayoutKind::Scalar(s) => return leaf(out, needs, 0, naga_scalar(*s)),
            LayoutKind::Vector { size, scalar } => {
                return leaf(out, needs, *size, naga_scalar(*scalar))
            }
            LayoutKind::Atomic(s) => {
                let s = naga_scalar(*s);
                if !self.push_atomic_helper(&mut name, needs, st, ("store", None), s) {
                    return;
                }
            }
            // Runtime-sized arrays are never stored whole.
            LayoutKind::Array { count: None, .. } => return,
            _ => self.composite_helper(&mut name, ctx, needs, st, Way::Store, layout, ty),
        }
        super::super::push_parts(out, &[pad, &name, "(", buf, ", ", off, ", ", value, ");\n"]);
    }

    /// The helper performing atomic operation `op` (`add`, `sub`, `and`,
    /// `or`, `xor`, `min`, `max`, `exchange`, `cmpxchg`: `fun`; `store`:
    /// `None`) on a 32-bit `s`, returning the old value (`store`: nothing):
    /// its name, appended to `out`. `false` (with an error, nothing
    /// appended) for other widths.
    pub(super) fn push_atomic_helper(
        &self,
        out: &mut String,
        needs: &mut Needs,
        st: &Storage,
        (op, fun): (&str, Option<&naga::AtomicFunction>),
        s: naga::Scalar,
    ) -> bool {
        if s.width != 4 {
            needs.error(
                Diagnostic::error(text!(
                    "`{}` holds 64-bit atomics, which the HLSL target does not write yet.",
                    st.name
                ))
                .at(st.span.clone(), "64-bit atomics")
                .note("help: use `atomic<u32>` or `atomic<i32>`, or --target spirv"),
            );
            return false;
        }
        let t = super::super::types::scalar(s);
        let mut name = String::with_capacity(24);
        super::super::push_parts(&mut name, &["_s_atomic_", op, "_", t]);
        // Its definition, once.
        needs.helper(&name, |_| {
            let signed = s.kind == naga::ScalarKind::Sint;
            let back = if signed { "asint(r)" } else { "r" };
            let (method, negate) = fun.map_or(("Exchange", false), crate::back::common::atomic_op);
            let negated = if negate { "0u - " } else { "" };
            let mut def = String::with_capacity(320);
            let ret = if op == "store" { "void" } else { t };
            super::super::push_parts(
                &mut def,
                &[ret, " ", &name, "(RWByteAddressBuffer b, uint o, ", t],
            );
            let rest: &[&str] = match op {
                "store" => &[" v) {\n    uint r;\n    b.InterlockedExchange(o, asuint(v), r);\n}\n"],
                "cmpxchg" => &[
                    " c, ",
                    t,
                    " v) {\n    uint r;\n    b.InterlockedCompareExchange(o, asuint(c), asuint(v), r);\n    return ",
                    back,
                    ";\n}\n",
                ],
                // DXC's int overloads of InterlockedMin/Max on byte-address
                // buffers produce invalid SPIR-V (-spirv): a compare-exchange
                // loop works on both targets.
                "min" | "max" if signed => &[
                    " v) {\n    uint old = b.Load(o);\n    [allow_uav_condition] for (;;) {\n        uint prev;\n        b.InterlockedCompareExchange(o, old, asuint(",
                    op,
                    "(asint(old), v)), prev);\n        if (prev == old) {\n            break;\n        }\n        old = prev;\n    }\n    return asint(old);\n}\n",
                ],
                _ => &[
                    " v) {\n    uint r;\n    b.Interlocked",
                    method,
                    "(o, ",
                    negated,
                    "asuint(v), r);\n    return ",
                    back,
                    ";\n}\n",
                ],
            };
            super::super::push_parts(&mut def, rest);
            def
        });
        out.push_str(&name);
        true
    }

    /// Statements performing atomic `fun` at `place` (a `Bytes` place of an
    /// atomic) with `value` (and `compare`, printed, for compare-exchange),
    /// storing the old value into the already declared variable `result`
    /// when given, with the HLSL names of the members `old_value` and
    /// `exchanged` of its `__atomic_compare_exchange_result` struct, which
    /// a compare-exchange stores into.
    pub fn atomic(
        &self,
        needs: &mut Needs,
        place: &Place,
        fun: &naga::AtomicFunction,
        value: &str,
        compare: Option<&str>,
        result: Option<(&str, (&str, &str))>,
    ) -> String {
        let Some((st, offset, layout)) = self.bytes(place) else {
            return String::new();
        };
        let (LayoutKind::Atomic(s) | LayoutKind::Scalar(s)) = layout.kind else {
            return String::new();
        };
        let s = naga_scalar(s);
        let buf = &st.name;
        use naga::AtomicFunction as F;
        let op = match fun {
            F::Add => "add",
            F::Subtract => "sub",
            F::And => "and",
            F::InclusiveOr => "or",
            F::ExclusiveOr => "xor",
            F::Min => "min",
            F::Max => "max",
            F::Exchange { compare: None } => "exchange",
            F::Exchange { compare: Some(_) } => "cmpxchg",
        };
        // The statement is written around the helper's name: the result
        // (if any), the name, then the call's arguments.
        let mut out = String::with_capacity(96 + buf.len() + value.len());
        match (result, op == "cmpxchg") {
            (Some((r, (old, _))), true) => {
                super::super::push_parts(&mut out, &[r, ".", old, " = "])
            }
            (Some((r, _)), false) => super::super::push_parts(&mut out, &[r, " = "]),
            (None, _) => {}
        }
        if !self.push_atomic_helper(&mut out, needs, st, (op, Some(fun)), s) {
            return String::new();
        }
        offset.with_text(|offset| {
            super::super::push_parts(&mut out, &["(", buf, ", ", offset, ", "]);
            if op == "cmpxchg" {
                let cmp = compare.unwrap_or("0");
                super::super::push_parts(&mut out, &[cmp, ", ", value, ");\n"]);
                if let Some((r, (old, exchanged))) = result {
                    super::super::push_parts(
                        &mut out,
                        &[r, ".", exchanged, " = (", r, ".", old, " == ", cmp, ");\n"],
                    );
                }
            } else {
                super::super::push_parts(&mut out, &[value, ");\n"]);
            }
        });
        out
    }

    /// A `uint` expression in parentheses of its own: the element count of
    /// the runtime-sized array at `place`, appended to `out`, and its class.
    pub fn push_array_length(&self, out: &mut String, needs: &mut Needs, place: &Place) -> Prec {
        let Some((
            st,
            offset,
            &Layout {
                kind: LayoutKind::Array { stride, .. },
                ..
            },
        )) = self.bytes(place)
        else {
            out.push_str("(0u)");
            return Prec::Group;
        };
        let rw = !st.read_only;
        let helper = if rw {
            "_s_rw_byte_size"
        } else {
            "_s_byte_size"
        };
        needs.helper(helper, |_| {
            text!(
                "uint {helper}({} b) {{\n    uint n;\n    b.GetDimensions(n);\n    return n;\n}}\n",
                buffer_type(rw)
            )
        });
        // `(size / stride)` or `((size - offset) / stride)`.
        let whole = offset.is_zero();
        out.push_str(if whole { "(" } else { "((" });
        super::super::push_parts(out, &[helper, "(", &st.name, ")"]);
        if !whole {
            offset.with_text(|offset| super::super::push_parts(out, &[" - ", offset, ")"]));
        }
        out.push_str(" / ");
        super::super::push_decimal(out, stride);
        out.push_str("u)");
        Prec::Group
    }
}
