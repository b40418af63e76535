//! Layout computation: naga module + annotations -> LayoutModule.
//!
//! Everything is computed from the declarations and the rule-set table;
//! naga's own offsets, strides and spans are never read (they are wrong when
//! a member `@align` raises a struct's alignment, gfx-rs/wgpu#4377).
//!
//! naga resolves aliases away, so each naga type is walked together with the
//! [`TypeAnn`] written at the same position: an alias name applies the
//! alias's `@align`/`@size` and continues with the alias's target; an array
//! takes its `@stride` from the annotation and its element from `args[0]`.
//!
//! Attributes can only raise what they override: an `@align` below the
//! alignment of the type it applies to, or a `@size` below its size, is an
//! error. The one exception is the struct-level `@size`, which may be below
//! the default `roundUp(align, end)` rounding but not below the end of the
//! last member.

use super::rules::{RuleTable, MAX_BYTES};
use super::{
    GlobalLayout, Layout, LayoutKind, LayoutModule, MemberSlot, Name, PaddingReason, PaddingSlot,
    RuleSet, Scalar, ScalarKind, Slot, StructLayout,
};
use crate::diag::{Diagnostic, Diagnostics, Span};
use crate::front::dialect::{Spanned, TypeAnn};
use crate::front::Parsed;
use naga::{Handle, Type, TypeInner};
use std::fmt::Display;

use crate::limits::{MAX_ALIAS_DEPTH, MAX_TYPE_NESTING};

/// `Builder::struct_slot` of a struct not computed yet.
const NOT_DONE: u32 = u32::MAX;
/// `Builder::struct_slot` of a struct that failed (and was reported).
const FAILED: u32 = u32::MAX - 1;

/// Compute the layouts of every buffer type under `rules`. The `Wgsl` rule
/// set applies the source's attributes (the contract); the other rule sets
/// give the natural layout of the same declarations, attributes ignored.
pub fn build(parsed: &Parsed, rules: RuleSet) -> Result<LayoutModule, Diagnostics> {
    let mut builder = Builder {
        parsed,
        table: rules.table(),
        structs: naga::FastIndexMap::default(),
        struct_slot: Vec::new(),
        nesting: 0,
        diags: Diagnostics::new(),
    };
    let in_buffer = |var: &naga::GlobalVariable| {
        matches!(
            var.space,
            naga::AddressSpace::Uniform
                | naga::AddressSpace::Storage { .. }
                | naga::AddressSpace::Immediate
        )
    };
    let buffers = parsed
        .module
        .global_variables
        .iter()
        .filter(|(_, var)| in_buffer(var))
        .count();
    let mut globals = Vec::with_capacity(buffers);
    for (handle, var) in parsed.module.global_variables.iter() {
        if !in_buffer(var) {
            continue;
        }
        let name = Name::new(var.name.as_deref().unwrap_or_default());
        let ann = global_ann(parsed, handle, &name);
        let span = ann
            .map(|g| g.span.clone())
            .or_else(|| parsed.module.global_variables.get_span(handle).to_range())
            .unwrap_or(0..0);
        let ty_ann = ann.and_then(|g| g.ty.as_ref());
        if let Some(layout) = builder.type_layout(var.ty, ty_ann, &span, 0) {
            globals.push(GlobalLayout {
                handle,
                name,
                space: var.space,
                binding: var.binding,
                layout,
            });
        }
    }
    if builder.diags.has_errors() {
        return Err(builder.diags);
    }
    let mut structs = builder.structs;
    // A struct is finished after the structs it contains, which naga
    // usually declares first: the map is then already in handle order.
    if !structs.keys().is_sorted() {
        structs.sort_unstable_keys();
    }
    Ok(LayoutModule {
        rules,
        structs,
        globals,
    })
}

/// The annotation of global `handle` named `name`. Both are in declaration
/// order, so the annotation at the handle's index is tried before hashing.
pub(crate) fn global_ann<'a>(
    parsed: &'a Parsed,
    handle: Handle<naga::GlobalVariable>,
    name: &str,
) -> Option<&'a crate::front::dialect::GlobalAnn> {
    let globals = &parsed.annotations.globals;
    match globals.get_index(handle.index()) {
        Some((key, ann)) if key == name => Some(ann),
        _ => globals.get(name),
    }
}

struct Builder<'a> {
    parsed: &'a Parsed,
    table: &'static RuleTable,
    /// Memoized struct layouts, in the order computed; sized on the first
    /// struct.
    structs: naga::FastIndexMap<Handle<Type>, StructLayout>,
    /// For each type index, its position in `structs` ([`NOT_DONE`]: not
    /// yet computed, [`FAILED`]: failed and reported); sized on the first
    /// struct.
    struct_slot: Vec<u32>,
    diags: Diagnostics,
    /// Arrays and structs the current type is inside of.
    nesting: usize,
}

/// `kind `name``, e.g. ``member `x` ``, formatted only when a message needs it.
#[derive(Clone, Copy)]
struct Named<'a>(&'static str, &'a str);

impl Display for Named<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} `{}`", self.0, self.1)
    }
}

impl Builder<'_> {
    fn error(&mut self, span: &Span, message: String, label: &str) {
        self.diags
            .push(Diagnostic::error(message).at(span.clone(), label.to_string()));
    }

    /// A size or offset, checked against overflow and the 32-bit limit.
    fn bytes(&mut self, value: Option<u64>, span: &Span, what: impl Display) -> Option<u64> {
        match value {
            Some(v) if v <= MAX_BYTES => Some(v),
            Some(v) => {
                self.error(
                    span,
                    format!(
                        "{what} is {v} bytes, larger than the {MAX_BYTES} bytes a buffer can address"
                    ),
                    "too large",
                );
                None
            }
            None => {
                self.error(
                    span,
                    format!(
                        "{what} overflows: it is larger than the {MAX_BYTES} bytes a buffer can address"
                    ),
                    "too large",
                );
                None
            }
        }
    }

    /// An `@align` value, checked: a power of two, at least `natural`.
    fn check_align(
        &mut self,
        attr: &Spanned<u64>,
        natural: u64,
        what: impl Display,
    ) -> Option<u64> {
        let n = attr.value;
        if n == 0 || !n.is_power_of_two() {
            self.error(
                &attr.span,
                format!("@align({n}) on {what}: an alignment must be a power of two"),
                "not a power of two",
            );
            return None;
        }
        if n < natural {
            self.error(
                &attr.span,
                format!("@align({n}) on {what} is below its natural alignment of {natural} bytes"),
                &format!("must be at least {natural}"),
            );
            return None;
        }
        self.bytes(Some(n), &attr.span, "the alignment")
    }

    /// A `@size` value, checked: at least `natural`.
    fn check_size(
        &mut self,
        attr: &Spanned<u64>,
        natural: Option<u64>,
        what: impl Display,
    ) -> Option<u64> {
        let n = attr.value;
        let Some(natural) = natural else {
            self.error(
                &attr.span,
                format!("@size({n}) on {what}: a runtime-sized type cannot be given a size"),
                "runtime-sized",
            );
            return None;
        };
        if n < natural {
            self.error(
                &attr.span,
                format!("@size({n}) on {what} is below its natural size of {natural} bytes"),
                &format!("must be at least {natural}"),
            );
            return None;
        }
        self.bytes(Some(n), &attr.span, "the size")
    }

    fn scalar(&mut self, s: naga::Scalar, span: &Span) -> Option<Scalar> {
        let kind = match s.kind {
            naga::ScalarKind::Sint => ScalarKind::Sint,
            naga::ScalarKind::Uint => ScalarKind::Uint,
            naga::ScalarKind::Float => ScalarKind::Float,
            naga::ScalarKind::Bool => {
                self.error(
                    span,
                    "`bool` is not host-shareable and cannot be used in a buffer".to_string(),
                    "bool in a buffer",
                );
                return None;
            }
            naga::ScalarKind::AbstractInt | naga::ScalarKind::AbstractFloat => {
                self.error(
                    span,
                    "an abstract numeric type cannot be used in a buffer".to_string(),
                    "abstract type",
                );
                return None;
            }
        };
        if !matches!(s.width, 2 | 4 | 8) {
            self.error(
                span,
                format!("a {}-byte scalar cannot be used in a buffer", s.width),
                "unsupported width",
            );
            return None;
        }
        Some(Scalar {
            kind,
            width: s.width,
        })
    }

    /// The layout of `ty` written as `ann` (when known) at `span`.
    fn type_layout(
        &mut self,
        ty: Handle<Type>,
        ann: Option<&TypeAnn>,
        fallback: &Span,
        depth: usize,
    ) -> Option<Layout> {
        let span = ann
            .map(|a| a.span.clone())
            .unwrap_or_else(|| fallback.clone());
        if self.table.attributes {
            if let Some(alias) = ann.and_then(|a| self.parsed.annotations.aliases.get(&a.name)) {
                if depth >= MAX_ALIAS_DEPTH {
                    self.error(
                        &span,
                        format!("alias `{}` nests too deeply", alias.name),
                        "alias chain too long",
                    );
                    return None;
                }
                // `@stride` written on an alias of an array applies to that
                // array and beats a stride inside the alias (the use site wins).
                let target = match &ann.and_then(|a| a.stride.clone()) {
                    Some(stride) => {
                        let mut target = alias.target.clone();
                        target.stride = Some(stride.clone());
                        std::borrow::Cow::Owned(target)
                    }
                    None => std::borrow::Cow::Borrowed(&alias.target),
                };
                let mut layout = self.type_layout(ty, Some(&target), &span, depth + 1)?;
                let what = Named("alias", &alias.name);
                if let Some(a) = &alias.align {
                    layout.align = self.check_align(a, layout.align, what)?;
                }
                if let Some(s) = &alias.size {
                    layout.size = Some(self.check_size(s, layout.size, what)?);
                }
                return Some(layout);
            }
        }
        let types = &self.parsed.module.types;
        let table = self.table;
        let inner = &types[ty].inner;
        if matches!(inner, TypeInner::Array { .. } | TypeInner::Struct { .. }) {
            if self.nesting >= MAX_TYPE_NESTING {
                self.error(
                    &span,
                    format!(
                        "this type nests too deeply: more than {MAX_TYPE_NESTING} arrays and structs inside each other"
                    ),
                    "nested too deeply",
                );
                return None;
            }
            self.nesting += 1;
            let layout = self.composite_layout(ty, ann, &span, depth);
            self.nesting -= 1;
            return layout;
        }
        match *inner {
            TypeInner::Scalar(s) => {
                let scalar = self.scalar(s, &span)?;
                let (size, align) = table.scalar(scalar.width);
                Some(Layout {
                    size: Some(size),
                    align,
                    kind: LayoutKind::Scalar(scalar),
                })
            }
            TypeInner::Atomic(s) => {
                let scalar = self.scalar(s, &span)?;
                let (size, align) = table.scalar(scalar.width);
                Some(Layout {
                    size: Some(size),
                    align,
                    kind: LayoutKind::Atomic(scalar),
                })
            }
            TypeInner::Vector { size, scalar } => {
                let scalar = self.scalar(scalar, &span)?;
                let n = size as u8;
                let (bytes, align) = table.vector(n, scalar.width);
                Some(Layout {
                    size: Some(bytes),
                    align,
                    kind: LayoutKind::Vector { size: n, scalar },
                })
            }
            TypeInner::Matrix {
                columns,
                rows,
                scalar,
            } => {
                let scalar = self.scalar(scalar, &span)?;
                let (rows, columns) = (rows as u8, columns as u8);
                let (col_size, col_align) = table.vector(rows, scalar.width);
                let Some((stride, align)) = table.array_stride(col_size, col_align) else {
                    self.bytes(None, &span, "the matrix column stride");
                    return None;
                };
                let size = table.array_size(stride, col_size, u64::from(columns));
                let size = self.bytes(size, &span, "the matrix")?;
                Some(Layout {
                    size: Some(size),
                    align,
                    kind: LayoutKind::Matrix {
                        columns,
                        rows,
                        scalar,
                        column_stride: stride,
                    },
                })
            }
            _ => {
                let name = types[ty]
                    .name
                    .clone()
                    .unwrap_or_else(|| "this type".to_string());
                self.error(
                    &span,
                    format!("`{name}` is not host-shareable and cannot be used in a buffer"),
                    "not host-shareable",
                );
                None
            }
        }
    }

    /// [`Self::type_layout`] of an array or struct, one level deeper.
    fn composite_layout(
        &mut self,
        ty: Handle<Type>,
        ann: Option<&TypeAnn>,
        span: &Span,
        depth: usize,
    ) -> Option<Layout> {
        match self.parsed.module.types[ty].inner {
            TypeInner::Array { base, size, .. } => {
                let ann = ann.filter(|a| a.name == "array");
                let element_ann = ann.and_then(|a| a.args.first());
                let stride_attr = ann
                    .and_then(|a| a.stride.as_ref())
                    .filter(|_| self.table.attributes);
                self.array_layout(base, size, element_ann, stride_attr, span, depth)
            }
            _ => {
                let (size, align) = self.struct_layout(ty, span)?;
                Some(Layout {
                    size,
                    align,
                    kind: LayoutKind::Struct(ty),
                })
            }
        }
    }

    fn array_layout(
        &mut self,
        base: Handle<Type>,
        count: naga::ArraySize,
        element_ann: Option<&TypeAnn>,
        stride_attr: Option<&Spanned<u64>>,
        span: &Span,
        depth: usize,
    ) -> Option<Layout> {
        let element = self.type_layout(base, element_ann, span, depth)?;
        let Some(element_size) = element.size else {
            self.error(
                span,
                "the element of an array cannot be runtime-sized".to_string(),
                "runtime-sized element",
            );
            return None;
        };
        let count = match count {
            naga::ArraySize::Constant(n) => Some(u64::from(n.get())),
            naga::ArraySize::Dynamic => None,
            naga::ArraySize::Pending(_) => {
                self.error(
                    span,
                    "override-sized arrays are not supported in buffers".to_string(),
                    "override-sized array",
                );
                return None;
            }
        };
        let (stride, align) = match stride_attr {
            Some(attr) => {
                let s = attr.value;
                if s < element_size {
                    self.error(
                        &attr.span,
                        format!("@stride({s}) is below the element size of {element_size} bytes"),
                        &format!("must be at least {element_size}"),
                    );
                    return None;
                }
                if element.align == 0 || s % element.align != 0 {
                    self.error(
                        &attr.span,
                        format!(
                            "@stride({s}) is not a multiple of the element alignment of {} bytes",
                            element.align
                        ),
                        &format!("must be a multiple of {}", element.align),
                    );
                    return None;
                }
                (
                    self.bytes(Some(s), &attr.span, "the stride")?,
                    element.align,
                )
            }
            None => match self.table.array_stride(element_size, element.align) {
                Some(sa) => sa,
                None => {
                    self.bytes(None, span, "the array stride");
                    return None;
                }
            },
        };
        let size = match count {
            Some(n) if stride_attr.is_some() => {
                Some(self.bytes(stride.checked_mul(n), span, "the array")?)
            }
            Some(n) => {
                let size = self.table.array_size(stride, element_size, n);
                Some(self.bytes(size, span, "the array")?)
            }
            None => None,
        };
        Some(Layout {
            size,
            align,
            kind: LayoutKind::Array {
                element: Box::new(element),
                stride,
                count,
            },
        })
    }

    /// The layout of struct `ty`, memoized (a struct's layout does not depend
    /// on where it is used).
    /// Returns its size and alignment.
    fn struct_layout(&mut self, ty: Handle<Type>, use_span: &Span) -> Option<(Option<u64>, u64)> {
        if self.struct_slot.is_empty() {
            let types = &self.parsed.module.types;
            self.struct_slot = vec![NOT_DONE; types.len()];
            let count = types
                .iter()
                .filter(|(_, t)| matches!(t.inner, TypeInner::Struct { .. }))
                .count();
            self.structs.reserve(count);
        }
        let done = self
            .struct_slot
            .get(ty.index())
            .copied()
            .unwrap_or(NOT_DONE);
        if done == FAILED {
            return None;
        }
        if let Some((_, s)) = self.structs.get_index(done as usize) {
            return Some((s.size, s.align));
        }
        let computed = self.compute_struct(ty, use_span);
        let result = computed.as_ref().map(|s| (s.size, s.align));
        let position = match computed {
            Some(s) => self.structs.insert_full(ty, s).0 as u32,
            None => FAILED,
        };
        if let Some(slot) = self.struct_slot.get_mut(ty.index()) {
            *slot = position;
        }
        result
    }

    fn compute_struct(&mut self, ty: Handle<Type>, use_span: &Span) -> Option<StructLayout> {
        let parsed = self.parsed;
        let table = self.table;
        let naga_ty = &parsed.module.types[ty];
        let TypeInner::Struct { ref members, .. } = naga_ty.inner else {
            return None;
        };
        let name = Name::new(naga_ty.name.as_deref().unwrap_or_default());
        let ann = parsed.annotations.structs.get(name.as_str());
        let struct_span = ann
            .map(|a| a.name_span.clone())
            .or_else(|| parsed.module.types.get_span(ty).to_range())
            .unwrap_or_else(|| use_span.clone());

        // The slots are gathered on the stack first, so that the vector is
        // allocated once at its exact length: room for a padding slot before
        // every member would often take it past the size at which glibc's
        // malloc consolidates its free lists first.
        let mut slots = Slots::new();
        let mut end: Option<u64> = Some(0);
        let mut max_align = 1u64;
        let mut failed = false;
        for (index, member) in members.iter().enumerate() {
            let member_name = Name::new(member.name.as_deref().unwrap_or_default());
            let m_ann = ann.and_then(|a| a.member(index, &member_name));
            let m_span = m_ann
                .map(|m| m.span.clone())
                .unwrap_or_else(|| struct_span.clone());
            let Some(prev_end) = end else {
                self.error(
                    &m_span,
                    format!(
                        "member `{member_name}` follows a runtime-sized array; only the last member of `{name}` may be runtime-sized"
                    ),
                    "after a runtime-sized array",
                );
                failed = true;
                break;
            };
            let Some(layout) = self.type_layout(member.ty, m_ann.map(|m| &m.ty), &m_span, 0) else {
                failed = true;
                continue;
            };
            let what = Named("member", &member_name);
            let mut align = layout.align;
            let mut size = layout.size;
            if table.attributes {
                if let Some(a) = m_ann.and_then(|m| m.align.as_ref()) {
                    match self.check_align(a, layout.align, what) {
                        Some(v) => align = v,
                        None => failed = true,
                    }
                }
                if let Some(s) = m_ann.and_then(|m| m.size.as_ref()) {
                    match self.check_size(s, layout.size, what) {
                        Some(v) => size = Some(v),
                        None => failed = true,
                    }
                }
            }
            max_align = max_align.max(align);
            let packed = matches!(
                layout.kind,
                LayoutKind::Scalar(_) | LayoutKind::Atomic(_) | LayoutKind::Vector { .. }
            );
            let placed = table.place(prev_end, align, size.unwrap_or(0), packed);
            let Some(offset) = self.bytes(placed, &m_span, format_args!("the offset of {what}"))
            else {
                failed = true;
                break;
            };
            if offset > prev_end {
                slots.push(Slot::Padding(PaddingSlot {
                    offset: prev_end,
                    size: offset - prev_end,
                    reason: PaddingReason::FieldAlignment,
                }));
            }
            end = match size {
                Some(s) => {
                    let e = self.bytes(offset.checked_add(s), &m_span, Named("struct", &name));
                    if e.is_none() {
                        failed = true;
                        break;
                    }
                    e
                }
                None => None,
            };
            slots.push(Slot::Member(MemberSlot {
                index,
                name: member_name,
                offset,
                size,
                align,
                layout,
            }));
        }
        if failed {
            return None;
        }

        let what = Named("struct", &name);
        let natural_align = table.struct_align(max_align);
        let mut align = natural_align;
        let mut explicit_size = None;
        if table.attributes {
            if let Some(a) = ann.and_then(|a| a.align.as_ref()) {
                align = self.check_align(a, natural_align, what)?;
            }
            if let Some(s) = ann.and_then(|a| a.size.as_ref()) {
                explicit_size = Some(self.check_size(s, end, what)?);
            }
        }
        let size = match (end, explicit_size) {
            (None, _) => None,
            (Some(_), Some(s)) => Some(s),
            (Some(e), None) => Some(self.bytes(table.struct_size(e, align), &struct_span, what)?),
        };
        if let (Some(end), Some(size)) = (end, size) {
            if size > end {
                slots.push(Slot::Padding(PaddingSlot {
                    offset: end,
                    size: size - end,
                    reason: PaddingReason::StructSize,
                }));
            }
        }
        Some(StructLayout {
            name,
            ty,
            size,
            align,
            slots: slots.into_vec(),
        })
    }
}

/// Slots kept on the stack: the first [`Slots::INLINE`] are stored in an
/// array, any further ones in a vector.
struct Slots {
    inline: [Option<Slot>; Slots::INLINE],
    len: usize,
    spill: Vec<Slot>,
}

impl Slots {
    /// Enough for a struct of eight members, each after a padding slot.
    const INLINE: usize = 17;

    fn new() -> Self {
        Slots {
            inline: Default::default(),
            len: 0,
            spill: Vec::new(),
        }
    }

    fn push(&mut self, slot: Slot) {
        match self.inline.get_mut(self.len) {
            Some(free) => *free = Some(slot),
            None => self.spill.push(slot),
        }
        self.len += 1;
    }

    /// The slots in order, in a vector of exactly their number.
    fn into_vec(mut self) -> Vec<Slot> {
        let mut out = Vec::with_capacity(self.len);
        out.extend(self.inline.iter_mut().map_while(Option::take));
        out.append(&mut self.spill);
        out
    }
}
