//! Constant buffers: the declarations of variant and element structs and of
//! the cbuffers themselves (with `packoffset`), and the helpers that rebuild
//! a value from cbuffer storage.

use super::*;

/// The matrix rebuilt from the columns of `base`: `float2x2(m_c0, m_c1)`.
pub(super) fn columns_matrix(base: &str, columns: u8, rows: u8, s: naga::Scalar) -> String {
    let t = super::super::types::matrix(columns, rows, s);
    let mut out = String::with_capacity(t.len() + 2 + usize::from(columns) * (base.len() + 6));
    out.push_str(&t);
    out.push('(');
    for j in 0..columns {
        if j > 0 {
            out.push_str(", ");
        }
        push_column_name(&mut out, base, j);
    }
    out.push(')');
    out
}

/// The array dimensions `dims`, outermost first, appended to `out`: the
/// declarator suffix `[4][2]`, or where `mangled`, the helper-name
/// fragment `_a4_a2`.
fn push_array_dims(out: &mut String, dims: &[u32], mangled: bool) {
    for d in dims {
        out.push_str(if mangled { "_a" } else { "[" });
        super::super::push_decimal(out, u64::from(*d));
        if !mangled {
            out.push(']');
        }
    }
}

/// Cbuffer arrays of at most this many elements are rebuilt element by
/// element in the global's load helper; longer ones through a helper's loop.
const UNROLLED_LOADS: u32 = 64;

impl Plan {
    /// The value at cbuffer place `text` (a name where `word`) stored as
    /// `repr`, of WGSL type `ty`, and its class.
    pub(super) fn load_text(
        &self,
        ctx: &Ctx<'_>,
        needs: &mut Needs,
        text: &str,
        word: bool,
        repr: &Repr,
        ty: Handle<naga::Type>,
    ) -> (String, Prec) {
        let as_is = || (text.to_string(), place_prec(word));
        if self.real.is_plain(repr) {
            return as_is();
        }
        let as_call = |text: String| (text, Prec::Call);
        match repr {
            // Only GLSL blocks inline a struct member.
            Repr::Plain | Repr::Inline { .. } => as_is(),
            Repr::Columns {
                columns,
                rows,
                scalar,
                ..
            } => as_call(columns_matrix(text, *columns, *rows, *scalar)),
            Repr::Wrapped { inner, .. } => {
                self.load_text(ctx, needs, &text!("{text}.v"), false, inner, ty)
            }
            Repr::Block(_) | Repr::Variant(_) => {
                // A cbuffer's members are names of their own: its helper
                // takes no parameter; a variant's takes the struct `x`.
                let global = matches!(repr, Repr::Block(_));
                let Some((named, reprs)) = self.struct_at(repr) else {
                    return as_is();
                };
                // The call starts with the helper's name.
                let mut call = String::with_capacity(named.name.len() + text.len() + 16);
                super::super::push_parts(
                    &mut call,
                    &["_s_cbload_", named.name.trim_start_matches("_s_")],
                );
                let helper = call.as_str();
                needs.helper(helper, |needs| {
                    self.construct(ctx, needs, helper, (named, reprs), ty, global)
                });
                let arg = if global { "" } else { text };
                super::super::push_parts(&mut call, &["(", arg, ")"]);
                (call, Prec::Call)
            }
            Repr::Array(_) => {
                let Some((base, Some(n))) = super::super::types::array_of(ctx, ty) else {
                    return as_is();
                };
                let mut sd = Vec::new();
                let sb = self.storage_name(ctx, repr, ty, &mut sd);
                let mut helper = text!("_s_cbload_{}", sb.trim_start_matches("_s_"));
                push_array_dims(&mut helper, &sd, true);
                needs.helper(&helper, |needs| {
                    let i = Index::Dynamic("i");
                    let item = self.load_element(ctx, needs, ("x", true, repr), i, base);
                    let t = super::super::types::type_name(ctx, ty);
                    let mut param = text!("{sb} x");
                    push_array_dims(&mut param, &sd, false);
                    text!(
                        "{t} {helper}({param}) {{\n    {t} r;\n    for (uint i = 0u; i < {n}u; ++i) {{\n        r[i] = {item};\n    }}\n    return r;\n}}\n"
                    )
                });
                as_call(text!("{helper}({text})"))
            }
        }
    }

    /// The value of element `index` of the cbuffer array at `text` (a name
    /// where `word`) stored as `repr`, of WGSL type `ty`.
    fn load_element(
        &self,
        ctx: &Ctx<'_>,
        needs: &mut Needs,
        (text, word, repr): (&str, bool, &Repr),
        index: Index<'_>,
        ty: Handle<naga::Type>,
    ) -> String {
        let text = Cow::Borrowed(text);
        match self.element(Place::Text { text, repr, word }, index) {
            Place::Text { text, repr, word } => self.load_text(ctx, needs, &text, word, repr, ty).0,
            // The elements of a cbuffer place are cbuffer places.
            Place::Bytes(_) => String::new(),
        }
    }

    /// The definition of `helper`, which builds the value struct `ty` from
    /// the storage members (`reprs`) of `named`: a cbuffer (`global`; its
    /// members are names, the helper takes no parameter) or a variant `x`.
    fn construct(
        &self,
        ctx: &Ctx<'_>,
        needs: &mut Needs,
        helper: &str,
        (named, reprs): (&Named, &[Repr]),
        ty: Handle<naga::Type>,
        global: bool,
    ) -> String {
        let t = super::super::types::type_name(ctx, ty);
        let (p, x) = if global {
            ("", "")
        } else {
            (&*named.name, " x")
        };
        let mut out = text!("{t} {helper}({p}{x}) {{\n    {t} r;\n");
        let value_members: &[naga::StructMember] =
            match ctx.module.types.get_handle(ty).map(|t| &t.inner) {
                Ok(naga::TypeInner::Struct { members, .. }) => members,
                _ => &[],
            };
        let members = named.members.iter().zip(reprs);
        for (i, ((name, repr), vm)) in members.zip(value_members).enumerate() {
            // A cbuffer's members are names; a struct's are reached from
            // `x`.
            let lvalue = if global {
                Cow::Borrowed(name.as_str())
            } else {
                Cow::Owned(text!("x.{name}"))
            };
            let member = ctx.name(NameKey::StructMember(ty, i as u32));
            if let Some((elem_ty, n)) = self.unrolled(ctx, repr, vm.ty) {
                // Element by element, each read straight from the cbuffer:
                // NVIDIA's Vulkan driver (580) read 3-component f16 vectors
                // wrong when DXC's and Slang's code copied a cbuffer array of
                // structs holding them whole and rebuilt it in a loop
                // (docs/targets.md).
                for k in 0..n {
                    let at = (&*lvalue, global, repr);
                    let value = self.load_element(ctx, needs, at, Index::Constant(k), elem_ty);
                    let _ = writeln!(out, "    r.{member}[{k}] = {value};");
                }
                continue;
            }
            if self.aggregate_arrays_by_element
                && self.real.is_plain(repr)
                && holds_aggregate_array(ctx, vm.ty, 0)
            {
                copy_by_element(ctx, &mut out, &text!("r.{member}"), &lvalue, vm.ty, 0);
                continue;
            }
            let (value, _) = self.load_text(ctx, needs, &lvalue, global, repr, vm.ty);
            let _ = writeln!(out, "    r.{member} = {value};");
        }
        out.push_str("    return r;\n}\n");
        out
    }

    /// A cbuffer array member of at most `UNROLLED_LOADS` elements whose
    /// elements are variant structs: its element type and count.
    fn unrolled(
        &self,
        ctx: &Ctx<'_>,
        repr: &Repr,
        ty: Handle<naga::Type>,
    ) -> Option<(Handle<naga::Type>, u32)> {
        // Arrays of variant structs only: what the driver defect needs, and
        // DXC's SPIR-V route crashes on `r.a[0] = float2x2(...)` for an
        // array of split `row_major` matrices.
        let Repr::Array(elem) = repr else {
            return None;
        };
        if self.real.is_plain(repr) || !matches!(**elem, Repr::Variant(_)) {
            return None;
        }
        let (base, n) = super::super::types::array_of(ctx, ty)?;
        n.filter(|&n| n <= UNROLLED_LOADS).map(|n| (base, n))
    }

    /// The HLSL spelling of the cbuffer storage of `repr` holding a value
    /// of type `ty`: the element type, with the array dimensions, outermost
    /// first, pushed onto `dims`.
    pub(super) fn storage_name(
        &self,
        ctx: &Ctx<'_>,
        repr: &Repr,
        ty: Handle<naga::Type>,
        dims: &mut Vec<u32>,
    ) -> String {
        let name = |n: Option<&Named>| n.map_or_else(String::new, |n| n.name.clone());
        match (repr, super::super::types::array_of(ctx, ty)) {
            (Repr::Variant(i), _) => name(self.names.variants.get(*i)),
            (Repr::Wrapped { element, .. }, _) => name(self.names.elements.get(*element)),
            (Repr::Array(elem), Some((base, n))) => {
                dims.push(n.unwrap_or(0));
                self.storage_name(ctx, elem, base, dims)
            }
            _ => super::super::types::type_name(ctx, ty).to_string(),
        }
    }

    /// The buffer variant and wrapper structs, in dependency order.
    pub fn declarations(&self) -> String {
        let mut out = String::new();
        for d in &self.real.order {
            let (named, fields) = match *d {
                Declared::Variant(i) => {
                    match (self.names.variants.get(i), self.real.variants.get(i)) {
                        (Some(n), Some(v)) if !v.value => (n, &v.fields),
                        _ => continue,
                    }
                }
                Declared::Element(i) => {
                    match (self.names.elements.get(i), self.real.elements.get(i)) {
                        (Some(n), Some(e)) => (n, &e.fields),
                        _ => continue,
                    }
                }
            };
            super::super::push_parts(&mut out, &["struct ", &named.name, " {\n"]);
            for (f, name) in fields.iter().zip(&named.fields) {
                out.push_str("    ");
                self.names.push_declarator(&mut out, &f.ty, name);
                out.push_str(";\n");
            }
            out.push_str("};\n\n");
        }
        out
    }

    /// The declaration of buffer global `g`, with `register` as the text
    /// after `register(` (e.g. `b0, space1`).
    #[cfg(test)]
    pub fn buffer_declaration(&self, g: Handle<naga::GlobalVariable>, register: &str) -> String {
        let mut out = String::new();
        self.write_buffer_declaration(&mut out, g, |out| out.push_str(register));
        out
    }

    /// [`Self::buffer_declaration`], appended to `out`; `register` appends
    /// the text inside `register(...)`.
    pub fn write_buffer_declaration(
        &self,
        out: &mut String,
        g: Handle<naga::GlobalVariable>,
        register: impl Fn(&mut String),
    ) {
        if let Some((c, named)) = self.cbuffer(g) {
            // Room for the header and a typical member line each.
            out.reserve(64 + 64 * c.fields.len());
            super::super::push_parts(out, &["cbuffer ", &named.name, " : register("]);
            register(out);
            out.push_str(") {\n");
            for (k, (f, name)) in c.fields.iter().zip(&named.fields).enumerate() {
                out.push_str("    ");
                self.names.push_declarator(out, &f.ty, name);
                // ` : packoffset(cR.c)`.
                if let Some(position) = c.packoffsets.as_ref().and_then(|p| p.get(k)) {
                    out.push_str(" : packoffset(c");
                    super::super::push_decimal(out, position.register);
                    if let Some(c) = position.component {
                        out.push('.');
                        out.push(crate::back::text::component(u32::from(c & 3)));
                    }
                    out.push(')');
                }
                out.push_str(";\n");
            }
            out.push_str("};\n");
            return;
        }
        if let Some(s) = self.storage(g) {
            if let Some(w) = &s.words {
                let n = crate::layout::realize::bytes::sixteen_byte_words(s.layout.size);
                super::super::push_parts(out, &["cbuffer ", &w.cbuffer, " : register("]);
                register(out);
                super::super::push_parts(out, &[") {\n    uint4 ", &w.words, "["]);
                super::super::push_decimal(out, n);
                out.push_str("];\n};\n");
                return;
            }
            super::super::push_parts(
                out,
                &[buffer_type(!s.read_only), " ", &s.name, " : register("],
            );
            register(out);
            out.push_str(");\n");
        }
    }
}

/// Whether a value of type `ty` holds an array of structs or of arrays
/// (itself, or in a struct member, at any depth): what
/// [`Plan::aggregate_arrays_by_element`] copies element by element.
fn holds_aggregate_array(ctx: &Ctx<'_>, ty: Handle<naga::Type>, depth: usize) -> bool {
    if depth > crate::limits::MAX_TYPE_NESTING {
        return false;
    }
    let types = &ctx.module.types;
    match types.get_handle(ty).map(|t| &t.inner) {
        Ok(naga::TypeInner::Array { base, .. }) => matches!(
            types.get_handle(*base).map(|t| &t.inner),
            Ok(naga::TypeInner::Struct { .. } | naga::TypeInner::Array { .. })
        ),
        Ok(naga::TypeInner::Struct { members, .. }) => members
            .iter()
            .any(|m| holds_aggregate_array(ctx, m.ty, depth + 1)),
        _ => false,
    }
}

/// `dst = src;` for a cbuffer value of type `ty` stored as declared (`src`
/// a place text: a name or a chain of accesses on one),
/// written so that no array of structs or of arrays is copied whole: such
/// arrays in a loop, element by element, and structs holding them member
/// by member.
fn copy_by_element(
    ctx: &Ctx<'_>,
    out: &mut String,
    dst: &str,
    src: &str,
    ty: Handle<naga::Type>,
    depth: usize,
) {
    let indent = "    ".repeat(depth + 1);
    if !holds_aggregate_array(ctx, ty, 0) || depth > crate::limits::MAX_TYPE_NESTING {
        let _ = writeln!(out, "{indent}{dst} = {src};");
        return;
    }
    match ctx.module.types.get_handle(ty).map(|t| &t.inner) {
        Ok(naga::TypeInner::Array { base, size, .. }) => {
            let n = super::super::types::array_count(ctx, *size).unwrap_or(0);
            let i = text!("i{depth}");
            let _ = writeln!(out, "{indent}for (uint {i} = 0u; {i} < {n}u; ++{i}) {{");
            let (d, s) = (text!("{dst}[{i}]"), text!("{src}[{i}]"));
            copy_by_element(ctx, out, &d, &s, *base, depth + 1);
            let _ = writeln!(out, "{indent}}}");
        }
        Ok(naga::TypeInner::Struct { members, .. }) => {
            for (k, m) in members.iter().enumerate() {
                let name = ctx.name(NameKey::StructMember(ty, k as u32));
                let (d, s) = (text!("{dst}.{name}"), text!("{src}.{name}"));
                // Members sit at the same depth: only loops indent.
                copy_by_element(ctx, out, &d, &s, m.ty, depth);
            }
        }
        _ => {
            let _ = writeln!(out, "{indent}{dst} = {src};");
        }
    }
}
