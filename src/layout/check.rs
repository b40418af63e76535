//! Address-space rules (uniform, storage) over the contract layout. Each
//! violation is an error at the offending member, with fixes computed for
//! this source.
//!
//! The rules are those of the WGSL address-space layout constraints, plus
//! the struct-size rule of spec/000 for uniform buffers:
//!
//! - every member offset is a multiple of `RequiredAlignOf(T, C)`: the type's
//!   alignment, rounded up to 16 in `uniform` for struct and array types;
//! - a member's `@align(n)` is a multiple of `RequiredAlignOf(T, C)`;
//! - uniform: array strides are multiples of 16; storage: multiples of the
//!   element alignment;
//! - uniform: a struct-typed member is followed by at least
//!   `roundUp(16, SizeOf(S))` bytes before the next member;
//! - uniform: a struct used as a member or array element has a size that is
//!   a multiple of 16.
//!
//! Runtime-sized arrays that are not last, and runtime-sized arrays or
//! atomics in uniform buffers, are reported by naga's validator.
//!
//! Every fix is verified: the edited source goes through the front end,
//! the layout builder and these checks again, and a fix is kept only when
//! the error is gone and no new one appears. The fix's outcome lists the
//! offsets and sizes of the re-built layout that changed.

use super::{Layout, LayoutKind, LayoutModule, MemberSlot, RuleSet, StructLayout};
use crate::diag::{Diagnostic, Diagnostics, Edit, Fix, Span};
use crate::front::dialect::{AliasAnn, MemberAnn, StructAnn, TypeAnn};
use crate::front::Parsed;
use std::collections::BTreeSet;

/// The address spaces with layout rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Space {
    Uniform,
    /// Storage buffers and push constants.
    Storage,
    /// Uniform buffers of a module that says `requires
    /// uniform_buffer_standard_layout;`: the storage rules.
    StandardUniform,
}

impl Space {
    fn buffers(self) -> &'static str {
        match self {
            Space::Uniform => "Uniform buffers",
            Space::Storage => "Storage buffers",
            Space::StandardUniform => {
                "Uniform buffers (with `uniform_buffer_standard_layout`, the storage rules)"
            }
        }
    }
    fn name(self) -> &'static str {
        match self {
            Space::Uniform => "uniform",
            Space::Storage => "storage",
            Space::StandardUniform => "uniform",
        }
    }
}

/// What rule a violation breaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ViolationKind {
    /// A struct used as a uniform member or element is not a multiple of 16 bytes.
    StructSize,
    /// A member's `@align(n)` is not a multiple of the required alignment.
    MemberAlign,
    /// A member's offset is not a multiple of the required alignment.
    MemberOffset,
    /// Too few bytes between a struct-typed member and the next member.
    StructGap,
    /// An array stride that the address space does not allow.
    ArrayStride,
}

/// The stable identity of a violation: its kind and where it is, by name
/// (`A` for a struct, `B.e` for a member, `B.g[]` for the element array of
/// `B.g`, `alias X`, `var u`). Offsets are not part of it, so the same
/// violation keeps its key when a fix moves things around.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ViolationKey {
    pub kind: ViolationKind,
    pub place: String,
}

/// One broken rule, before it becomes a diagnostic.
#[derive(Clone, Debug)]
struct Violation {
    key: ViolationKey,
    message: String,
    primary: Span,
    label: String,
    secondary: Vec<(Span, String)>,
    notes: Vec<String>,
    /// Candidate fixes, unverified. Each group holds alternatives for the
    /// same repair (e.g. in both attribute syntaxes); the first one that
    /// works is kept.
    candidates: Vec<Vec<Fix>>,
}

/// Check every buffer global of `contract` against its address space rules.
pub fn check(parsed: &Parsed, contract: &LayoutModule) -> Diagnostics {
    let mut diags: Vec<Diagnostic> = check_keyed(parsed, contract)
        .into_iter()
        .map(|(_, d)| d)
        .collect();
    diags.extend(immediate_size_errors(parsed, contract));
    Diagnostics(diags)
}

/// The most push-constant (`var<immediate>`) bytes naga accepts; its
/// validator's arithmetic overflows past this.
pub const MAX_IMMEDIATE_BYTES: u64 = 256;

/// Push-constant blocks larger than [`MAX_IMMEDIATE_BYTES`].
fn immediate_size_errors(parsed: &Parsed, contract: &LayoutModule) -> Vec<Diagnostic> {
    contract
        .globals
        .iter()
        .filter(|g| g.space == naga::AddressSpace::Immediate)
        .filter_map(|g| {
            let size = g.layout.size?;
            if size <= MAX_IMMEDIATE_BYTES {
                return None;
            }
            let mut d = Diagnostic::error(format!(
                "push constant `{}` is {size} bytes; at most {MAX_IMMEDIATE_BYTES} bytes are supported",
                g.name
            ))
            .note("Vulkan guarantees only 128 bytes of push constants; move the rest into a uniform or storage buffer");
            if let Some(ann) = parsed.annotations.globals.get(g.name.as_str()) {
                d = d.at(ann.name_span.clone(), format!("{size} bytes"));
            }
            Some(d)
        })
        .collect()
}

/// [`check`], with the key of each diagnostic's violation.
pub fn check_keyed(parsed: &Parsed, contract: &LayoutModule) -> Vec<(ViolationKey, Diagnostic)> {
    let violations = Walker::run(parsed, contract, true);
    let before: BTreeSet<ViolationKey> = violations.iter().map(|v| v.key.clone()).collect();
    let mut verifier = Verifier {
        parsed,
        contract,
        before: &before,
        original_valid: None,
    };
    violations
        .into_iter()
        .map(|v| {
            let mut d = Diagnostic::error(v.message).at(v.primary, v.label);
            for (span, message) in v.secondary {
                d = d.also(span, message);
            }
            for note in v.notes {
                d = d.note(note);
            }
            let mut kept: Vec<Vec<Edit>> = Vec::new();
            for group in v.candidates {
                for mut fix in group {
                    if fix.edits.is_empty() || kept.contains(&fix.edits) {
                        continue;
                    }
                    if let Some(outcome) = verifier.verify(&v.key, &fix) {
                        fix.outcome = outcome;
                        kept.push(fix.edits.clone());
                        d = d.fix(fix);
                        break;
                    }
                }
            }
            (v.key, d)
        })
        .collect()
}

/// The keys of every violation in `contract`, in report order (no fixes
/// are computed).
pub fn violation_keys(parsed: &Parsed, contract: &LayoutModule) -> Vec<ViolationKey> {
    Walker::run(parsed, contract, false)
        .into_iter()
        .map(|v| v.key)
        .collect()
}

use crate::layout::rules::round_up_saturating as round_up;

/// Attribute syntax used for the attributes a fix adds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Style {
    /// `@align(16) @size(32)`
    At,
    /// `[[align(16), size(32)]]`
    Bracket,
}

impl Style {
    fn attrs(self, list: &[(&str, u64)]) -> String {
        match self {
            Style::At => list
                .iter()
                .map(|(n, v)| format!("@{n}({v})"))
                .collect::<Vec<_>>()
                .join(" "),
            Style::Bracket => format!(
                "[[{}]]",
                list.iter()
                    .map(|(n, v)| format!("{n}({v})"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }
    }
}

/// The global that brought a type into an address space.
#[derive(Clone, Debug)]
struct Ctx<'a> {
    space: Space,
    /// Secondary label at the global: its name span, the global's name and
    /// the name of its type (formatted only when a violation needs it).
    global: Option<(Span, &'a str, &'a str)>,
}

/// Where a violation is, formatted into a [`ViolationKey`] place only when
/// there is a violation: `var u`, `B.e`, `alias X`, `B.g[]`.
#[derive(Clone, Copy)]
enum Place<'p> {
    Var(&'p str),
    Member(&'p str, &'p str),
    Alias(&'p str),
    Elements(&'p Place<'p>),
}

impl std::fmt::Display for Place<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Place::Var(name) => write!(f, "var {name}"),
            Place::Member(s, m) => write!(f, "{s}.{m}"),
            Place::Alias(name) => write!(f, "alias {name}"),
            Place::Elements(p) => write!(f, "{p}[]"),
        }
    }
}

/// The layout of struct `h` in `contract`. `build` keeps the structs in
/// handle order, so a binary search finds it without hashing; a map in
/// another order falls back to the hashed lookup.
fn struct_layout(contract: &LayoutModule, h: naga::Handle<naga::Type>) -> Option<&StructLayout> {
    struct_entry(contract, h).map(|(_, s)| s)
}

/// [`struct_layout`], with the struct's position in `contract.structs`.
fn struct_entry(
    contract: &LayoutModule,
    h: naga::Handle<naga::Type>,
) -> Option<(usize, &StructLayout)> {
    match contract.structs.binary_search_keys(&h) {
        Ok(i) => contract.structs.get_index(i).map(|(_, s)| (i, s)),
        Err(_) => contract.structs.get_full(&h).map(|(i, _, s)| (i, s)),
    }
}

struct Walker<'a> {
    parsed: &'a Parsed,
    contract: &'a LayoutModule,
    with_fixes: bool,
    out: Vec<Violation>,
    seen: BTreeSet<ViolationKey>,
    /// Per position in `contract.structs`, one bit per [`Space`] the struct
    /// was walked in; sized when the first struct is walked.
    visited: Vec<u8>,
}

impl<'a> Walker<'a> {
    fn run(parsed: &'a Parsed, contract: &'a LayoutModule, with_fixes: bool) -> Vec<Violation> {
        let mut w = Walker {
            parsed,
            contract,
            with_fixes,
            out: Vec::new(),
            seen: BTreeSet::new(),
            visited: Vec::new(),
        };
        for g in &contract.globals {
            let space = match g.space {
                naga::AddressSpace::Uniform if parsed.uniform_standard => Space::StandardUniform,
                naga::AddressSpace::Uniform => Space::Uniform,
                naga::AddressSpace::Storage { .. } | naga::AddressSpace::Immediate => {
                    Space::Storage
                }
                _ => continue,
            };
            let gann = super::build::global_ann(parsed, g.handle, &g.name);
            let type_name: &str = match &g.layout.kind {
                LayoutKind::Struct(h) => {
                    struct_layout(contract, *h).map_or("its type", |s| s.name.as_str())
                }
                _ => gann.and_then(|a| a.ty.as_ref()).map_or("its type", |t| {
                    parsed.source.get(t.span.clone()).unwrap_or("")
                }),
            };
            let ctx = Ctx {
                space,
                global: gann.map(|a| (a.name_span.clone(), g.name.as_str(), type_name)),
            };
            let span = gann
                .map(|a| {
                    a.ty.as_ref()
                        .map(|t| t.span.clone())
                        .unwrap_or(a.name_span.clone())
                })
                .unwrap_or(0..0);
            let ty = gann.and_then(|a| a.ty.as_ref());
            w.walk_layout(&g.layout, ty, &Place::Var(&g.name), &span, &ctx);
        }
        let mut out = w.out;
        out.sort_by(|a, b| {
            (a.primary.start, a.key.kind, &a.key.place).cmp(&(
                b.primary.start,
                b.key.kind,
                &b.key.place,
            ))
        });
        out
    }

    /// Attribute syntaxes to offer, preferred first: the bracket syntax
    /// first when the source already uses it. Looked up only for a fix.
    fn styles(&self) -> [Style; 2] {
        let brackets = self.parsed.scanned.items.iter().any(|item| {
            item.attrs.iter().any(|a| a.bracket.is_some())
                || match &item.kind {
                    crate::front::scan::ItemKind::Struct(s) => s
                        .members
                        .iter()
                        .any(|m| m.attrs.iter().any(|a| a.bracket.is_some())),
                    _ => false,
                }
        });
        if brackets {
            [Style::Bracket, Style::At]
        } else {
            [Style::At, Style::Bracket]
        }
    }

    fn text(&self, span: &Span) -> &str {
        self.parsed.source.get(span.clone()).unwrap_or("")
    }

    fn struct_ann(&self, name: &str) -> Option<&'a StructAnn> {
        self.parsed.annotations.structs.get(name)
    }

    /// Follow aliases until the type as written is not an alias name.
    fn resolve(&self, mut ann: &'a TypeAnn) -> (&'a TypeAnn, Option<&'a AliasAnn>) {
        let mut alias = None;
        for _ in 0..32 {
            match self.parsed.annotations.aliases.get(&ann.name) {
                Some(a) => {
                    alias = Some(a);
                    ann = &a.target;
                }
                None => break,
            }
        }
        (ann, alias)
    }

    fn push(&mut self, v: Violation) {
        if self.seen.insert(v.key.clone()) {
            self.out.push(v);
        }
    }

    fn global_labels(ctx: &Ctx) -> Vec<(Span, String)> {
        ctx.global
            .iter()
            .map(|(span, name, type_name)| {
                (
                    span.clone(),
                    format!(
                        "`{name}` puts {type_name} in the {} address space",
                        ctx.space.name()
                    ),
                )
            })
            .collect()
    }

    fn walk_layout(
        &mut self,
        layout: &Layout,
        ann: Option<&'a TypeAnn>,
        place: &Place<'_>,
        span: &Span,
        ctx: &Ctx,
    ) {
        match &layout.kind {
            LayoutKind::Struct(h) => self.walk_struct(*h, ctx),
            LayoutKind::Array {
                element,
                stride,
                count,
            } => {
                if ctx.space == Space::Uniform && count.is_none() {
                    // A runtime-sized array cannot be in a uniform buffer;
                    // naga's validator says so.
                    return;
                }
                let resolved = ann.map(|a| self.resolve(a));
                let arr_ann = resolved.map(|r| r.0);
                let (place, span, use_span) = match resolved.and_then(|r| r.1) {
                    Some(alias) => (
                        Place::Alias(&alias.name),
                        arr_ann.map(|a| a.span.clone()).unwrap_or(span.clone()),
                        Some(span),
                    ),
                    None => (*place, span.clone(), None),
                };
                self.check_stride(element, *stride, arr_ann, &place, &span, use_span, ctx);
                let elem_ann = arr_ann.and_then(|a| a.args.first());
                self.walk_layout(element, elem_ann, &Place::Elements(&place), &span, ctx);
            }
            _ => {}
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn check_stride(
        &mut self,
        element: &Layout,
        stride: u64,
        arr_ann: Option<&'a TypeAnn>,
        place: &Place<'_>,
        span: &Span,
        use_span: Option<&Span>,
        ctx: &Ctx,
    ) {
        let required = match ctx.space {
            Space::Uniform => element.align.max(16),
            Space::Storage | Space::StandardUniform => element.align.max(1),
        };
        if stride.is_multiple_of(required) {
            return;
        }
        let key = ViolationKey {
            kind: ViolationKind::ArrayStride,
            place: place.to_string(),
        };
        if self.seen.contains(&key) {
            return;
        }
        let written = arr_ann
            .map(|a| format!("`{}`", self.text(&a.span)))
            .unwrap_or_else(|| "the array".to_string());
        let message = match ctx.space {
            Space::Uniform => format!(
                "Array stride of {written} is {stride} bytes. Uniform buffers require array strides to be a multiple of 16 bytes."
            ),
            Space::Storage | Space::StandardUniform => format!(
                "Array stride of {written} is {stride} bytes. {} require array strides to be a multiple of the element alignment ({} bytes).",
                ctx.space.buffers(),
                element.align
            ),
        };
        let new_stride = round_up(required, stride.max(element.size.unwrap_or(0)));
        let mut candidates = Vec::new();
        if self.with_fixes {
            if let Some(a) = arr_ann {
                candidates.push(
                    self.styles()
                        .iter()
                        .map(|&style| Fix {
                            title: attr_title(
                                &[("stride", new_stride, a.stride.is_some())],
                                style,
                                &format!("`{}`", self.text(&a.span)),
                            ),
                            edits: vec![self.stride_edit(a, new_stride, style)],
                            outcome: String::new(),
                        })
                        .collect(),
                );
            }
            if ctx.space == Space::Uniform {
                if let LayoutKind::Struct(eh) = element.kind {
                    if let Some(group) = self.struct_size_fixes(eh) {
                        candidates.push(group);
                    }
                }
            }
        }
        let mut secondary = Vec::new();
        if let Some(use_span) = use_span {
            secondary.push((use_span.clone(), "array type used here".to_string()));
        }
        secondary.extend(Self::global_labels(ctx));
        self.push(Violation {
            key,
            message,
            primary: span.clone(),
            label: format!("stride {stride} is not a multiple of {required}"),
            secondary,
            notes: Vec::new(),
            candidates,
        });
    }

    fn walk_struct(&mut self, h: naga::Handle<naga::Type>, ctx: &Ctx) {
        let Some((position, sl)) = struct_entry(self.contract, h) else {
            return;
        };
        let bit: u8 = match ctx.space {
            Space::Uniform => 1,
            Space::Storage | Space::StandardUniform => 2,
        };
        if self.visited.is_empty() {
            self.visited = vec![0; self.contract.structs.len()];
        }
        match self.visited.get_mut(position) {
            Some(seen) if *seen & bit != 0 => return,
            Some(seen) => *seen |= bit,
            None => {}
        }
        let sann = self.struct_ann(&sl.name);
        let mut members = sl.members().peekable();
        let mut prev: Option<&'a MemberSlot> = None;
        while let Some(m) = members.next() {
            let mann = sann.and_then(|s| s.member(m.index, &m.name));
            let mspan = mann
                .map(|x| x.span.clone())
                .or(sann.map(|s| s.name_span.clone()))
                .unwrap_or(0..0);
            let place = Place::Member(&sl.name, &m.name);
            self.check_member_align(sl, m, prev, mann, &mspan, &place, ctx);
            if ctx.space == Space::Uniform {
                if let LayoutKind::Struct(th) = m.layout.kind {
                    // WGSL asks only for room after a struct-typed field;
                    // a struct size that is not a multiple of 16 matters
                    // (and is reported, in spec/000's words) only when the
                    // next field sits inside that room.
                    if let Some(&next) = members.peek() {
                        if self.check_gap(sl, m, next, th, mann, &mspan, &place, ctx) {
                            self.check_struct_size(th, &mspan, ctx);
                        }
                    }
                }
            }
            self.walk_layout(&m.layout, mann.map(|x| &x.ty), &place, &mspan, ctx);
            prev = Some(m);
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn check_member_align(
        &mut self,
        sl: &'a StructLayout,
        m: &'a MemberSlot,
        prev: Option<&'a MemberSlot>,
        mann: Option<&'a MemberAnn>,
        mspan: &Span,
        place: &Place<'_>,
        ctx: &Ctx,
    ) {
        let composite = matches!(
            m.layout.kind,
            LayoutKind::Struct(_) | LayoutKind::Array { .. }
        );
        let what = match m.layout.kind {
            LayoutKind::Struct(_) => "structures",
            LayoutKind::Array { .. } => "arrays",
            _ => "",
        };
        let required = if ctx.space == Space::Uniform && composite {
            round_up(16, m.layout.align)
        } else {
            m.layout.align.max(1)
        };
        // The sentence on the requirement, built only for a violation.
        let requirement = |w: &Self| {
            if what.is_empty() {
                let type_text = mann.map(|x| w.text(&x.ty.span)).unwrap_or_default();
                format!(
                    "{} require `{type_text}` to be {required} byte aligned.",
                    ctx.space.buffers()
                )
            } else {
                format!(
                    "{} require {what} to be {required} byte aligned.",
                    ctx.space.buffers()
                )
            }
        };
        let field = match m.layout.kind {
            LayoutKind::Struct(_) => "Structure field",
            LayoutKind::Array { .. } => "Array field",
            _ => "Field",
        };
        if let Some(a) = mann.and_then(|x| x.align.as_ref()) {
            if !a.value.is_multiple_of(required) {
                let key = ViolationKey {
                    kind: ViolationKind::MemberAlign,
                    place: place.to_string(),
                };
                let new_align = round_up(required, a.value);
                let mut candidates = Vec::new();
                if self.with_fixes {
                    candidates.push(vec![Fix {
                        title: attr_title(
                            &[("align", new_align, true)],
                            self.styles()[0],
                            &format!("member `{}`", m.name),
                        ),
                        edits: vec![replace_value(&self.parsed.source, &a.span, new_align)],
                        outcome: String::new(),
                    }]);
                }
                let secondary = Self::global_labels(ctx);
                self.push(Violation {
                    key,
                    message: format!(
                        "{field} `{}` has @align({}). {} Its alignment must be a multiple of {required}.",
                        m.name, a.value, requirement(self)
                    ),
                    primary: mspan.clone(),
                    label: format!("@align({}) is not a multiple of {required}", a.value),
                    secondary,
                    notes: Vec::new(),
                    candidates,
                });
                return;
            }
        }
        if m.offset.is_multiple_of(required) {
            return;
        }
        let key = ViolationKey {
            kind: ViolationKind::MemberOffset,
            place: place.to_string(),
        };
        let mut candidates = Vec::new();
        if self.with_fixes {
            if let Some(mann) = mann {
                // (b) the member's own @align.
                candidates.push(self.member_attr_fixes(mann, &[&[("align", required)]], &[]));
            }
            // (a) the struct type's own @align.
            if let Some(th) = struct_of(&m.layout) {
                if let Some(group) = self.struct_align_fixes(th, required) {
                    candidates.push(group);
                }
            }
            // (c) padding before the member.
            if let (Some(prev), Some(sann)) = (prev, self.struct_ann(&sl.name)) {
                if let (Some(prev_ann), Some(prev_size)) =
                    (sann.members.iter().find(|x| x.name == prev.name), prev.size)
                {
                    let from = prev.offset.saturating_add(prev_size);
                    let to = round_up(required, from);
                    if let Some((edit, text)) =
                        self.padding_edit(sann, prev_ann, from, to, sl.align)
                    {
                        candidates.push(vec![Fix {
                            title: format!("insert padding `{text}` before `{}`", m.name),
                            edits: vec![edit],
                            outcome: String::new(),
                        }]);
                    }
                }
            }
        }
        let message = format!(
            "{field} `{}` has byte offset {}. {}",
            m.name,
            m.offset,
            requirement(self)
        );
        self.push(Violation {
            key,
            message,
            primary: mspan.clone(),
            label: format!("offset {} is not a multiple of {required}", m.offset),
            secondary: Self::global_labels(ctx),
            notes: Vec::new(),
            candidates,
        });
    }

    #[allow(clippy::too_many_arguments)]
    fn check_gap(
        &mut self,
        sl: &'a StructLayout,
        m: &'a MemberSlot,
        next: &'a MemberSlot,
        th: naga::Handle<naga::Type>,
        mann: Option<&'a MemberAnn>,
        mspan: &Span,
        place: &Place<'_>,
        ctx: &Ctx,
    ) -> bool {
        let Some(ts) = struct_layout(self.contract, th) else {
            return false;
        };
        let Some(size) = ts.size else { return false };
        let need = round_up(16, size);
        let gap = next.offset.saturating_sub(m.offset);
        if gap >= need {
            return false;
        }
        let key = ViolationKey {
            kind: ViolationKind::StructGap,
            place: place.to_string(),
        };
        let mut candidates = Vec::new();
        if self.with_fixes {
            if let Some(mann) = mann {
                // The member's @size; with @align too when the member is
                // itself misaligned, so the members after it stay aligned.
                let align = round_up(16, m.layout.align);
                candidates.push(self.member_attr_fixes(
                    mann,
                    &[&[("size", need)], &[("align", align), ("size", need)]],
                    &[],
                ));
            }
            if let Some(group) = self.struct_size_fixes(th) {
                candidates.push(group);
            }
            if let (Some(sann), Some(mann), Some(msize)) = (self.struct_ann(&sl.name), mann, m.size)
            {
                let from = m.offset.saturating_add(msize);
                let to = m.offset.saturating_add(need);
                if let Some((edit, text)) = self.padding_edit(sann, mann, from, to, sl.align) {
                    candidates.push(vec![Fix {
                        title: format!("insert padding `{text}` after `{}`", m.name),
                        edits: vec![edit],
                        outcome: String::new(),
                    }]);
                }
            }
        }
        let mut secondary = Vec::new();
        if let Some(nann) = self
            .struct_ann(&sl.name)
            .and_then(|s| s.members.iter().find(|x| x.name == next.name))
        {
            secondary.push((
                nann.span.clone(),
                format!("`{}` starts {gap} bytes after `{}`", next.name, m.name),
            ));
        }
        secondary.extend(Self::global_labels(ctx));
        self.push(Violation {
            key,
            message: format!(
                "Structure field `{}` (struct {}, {size} bytes) at offset {} is followed by `{}` at offset {}. Uniform buffers require at least roundUp(16, {size}) = {need} bytes between a structure field and the next field.",
                m.name, ts.name, m.offset, next.name, next.offset
            ),
            primary: mspan.clone(),
            label: format!("only {gap} bytes before the next field; {need} required"),
            secondary,
            notes: Vec::new(),
            candidates,
        });
        true
    }

    fn check_struct_size(&mut self, th: naga::Handle<naga::Type>, use_span: &Span, ctx: &Ctx) {
        let Some(ts) = struct_layout(self.contract, th) else {
            return;
        };
        let Some(size) = ts.size else { return };
        if size.is_multiple_of(16) {
            return;
        }
        let key = ViolationKey {
            kind: ViolationKind::StructSize,
            place: ts.name.to_string(),
        };
        if self.seen.contains(&key) {
            return;
        }
        let sann = self.struct_ann(&ts.name);
        let primary = sann
            .map(|s| s.name_span.clone())
            .unwrap_or(use_span.clone());
        let candidates = if self.with_fixes {
            let mut c = Vec::new();
            if let Some(group) = self.struct_size_fixes(th) {
                c.push(group);
            }
            c.extend(self.last_member_fixes(ts));
            c
        } else {
            Vec::new()
        };
        let mut secondary = vec![(use_span.clone(), format!("struct {} used here", ts.name))];
        secondary.extend(Self::global_labels(ctx));
        self.push(Violation {
            key,
            message: format!(
                "struct {} size is {size} bytes. Uniform buffers require structure sizes to be a multiple of 16 bytes.",
                ts.name
            ),
            primary,
            label: format!("{size} bytes; {} would be a multiple of 16", round_up(16, size)),
            secondary,
            notes: Vec::new(),
            candidates,
        });
    }

    /// Fixes of a struct's size made on its last member: a member `@size`,
    /// or padding members after it.
    fn last_member_fixes(&self, ts: &'a StructLayout) -> Vec<Vec<Fix>> {
        let mut out = Vec::new();
        let (Some(size), Some(sann)) = (ts.size, self.struct_ann(&ts.name)) else {
            return out;
        };
        if sann.size.is_some() {
            return out;
        }
        let target = round_up(16, size);
        let Some(last) = ts.members().last() else {
            return out;
        };
        let (Some(last_ann), Some(last_size)) =
            (sann.members.iter().find(|x| x.name == last.name), last.size)
        else {
            return out;
        };
        let strides = self.stride_updates(&ts.name, target, ts.align);
        let new_size = target.saturating_sub(last.offset);
        let mut group = self.member_attr_fixes(last_ann, &[&[("size", new_size)]], &strides);
        for fix in &mut group {
            fix.title.push_str(&self.updates_note(&strides));
        }
        out.push(group);
        let from = last.offset.saturating_add(last_size);
        if let Some((edit, text)) = self.padding_edit(sann, last_ann, from, target, ts.align) {
            let mut edits = vec![edit];
            edits.extend(strides.iter().cloned());
            out.push(vec![Fix {
                title: format!("insert padding `{text}` at the end of struct {}", ts.name)
                    + &self.updates_note(&strides),
                edits,
                outcome: String::new(),
            }]);
        }
        out
    }

    /// `@size(roundUp(16, size))` on the struct declaration, with the
    /// strides of arrays of it updated; alternatively with `@align(16)` too,
    /// for when the size alone moves a later member out of alignment.
    fn struct_size_fixes(&self, th: naga::Handle<naga::Type>) -> Option<Vec<Fix>> {
        let ts = struct_layout(self.contract, th)?;
        let size = ts.size?;
        let sann = self.struct_ann(&ts.name)?;
        let target = round_up(16, size);
        if target == size {
            return None;
        }
        let mut variants = vec![(None, ts.align)];
        if ts.align < 16 {
            variants.push((Some(16), 16));
        }
        let mut out = Vec::new();
        for (align, new_align) in variants {
            let strides = self.stride_updates(&ts.name, target, new_align);
            for style in self.styles() {
                let mut edits = self.struct_attr_edits(sann, align, Some(target), style);
                edits.extend(strides.iter().cloned());
                let mut attrs = Vec::new();
                if let Some(a) = align {
                    attrs.push(("align", a, sann.align.is_some()));
                }
                attrs.push(("size", target, sann.size.is_some()));
                out.push(Fix {
                    title: attr_title(&attrs, style, &format!("struct {}", ts.name))
                        + &self.updates_note(&strides),
                    edits,
                    outcome: String::new(),
                });
            }
        }
        Some(out)
    }

    /// `@align(n)` on the struct declaration, with the strides of arrays of
    /// it updated.
    fn struct_align_fixes(&self, th: naga::Handle<naga::Type>, align: u64) -> Option<Vec<Fix>> {
        let ts = struct_layout(self.contract, th)?;
        let sann = self.struct_ann(&ts.name)?;
        if ts.align >= align && ts.align.is_multiple_of(align) {
            return None;
        }
        let size = ts.size?;
        let new_size = match &sann.size {
            Some(s) => s.value,
            None => round_up(align, size),
        };
        let strides = self.stride_updates(&ts.name, new_size, align);
        Some(
            self.styles()
                .iter()
                .map(|&style| {
                    let mut edits = self.struct_attr_edits(sann, Some(align), None, style);
                    edits.extend(strides.iter().cloned());
                    Fix {
                        title: attr_title(
                            &[("align", align, sann.align.is_some())],
                            style,
                            &format!("struct {}", ts.name),
                        ) + &self.updates_note(&strides),
                        edits,
                        outcome: String::new(),
                    }
                })
                .collect(),
        )
    }

    fn struct_attr_edits(
        &self,
        sann: &StructAnn,
        align: Option<u64>,
        size: Option<u64>,
        style: Style,
    ) -> Vec<Edit> {
        let mut edits = Vec::new();
        let mut inserts: Vec<(&str, u64)> = Vec::new();
        for (name, value, existing) in [("align", align, &sann.align), ("size", size, &sann.size)] {
            let Some(value) = value else { continue };
            match existing {
                Some(s) => edits.push(replace_value(&self.parsed.source, &s.span, value)),
                None => inserts.push((name, value)),
            }
        }
        if !inserts.is_empty() {
            edits.push(Edit {
                span: sann.insert_at..sann.insert_at,
                replacement: format!("{} ", style.attrs(&inserts)),
            });
        }
        edits
    }

    /// Alternatives (each attribute set, in each syntax) of a fix that sets
    /// attributes on a member, plus `extra` edits.
    fn member_attr_fixes(
        &self,
        mann: &MemberAnn,
        variants: &[&[(&str, u64)]],
        extra: &[Edit],
    ) -> Vec<Fix> {
        let mut out = Vec::new();
        for list in variants {
            let attrs: Vec<(&str, u64, bool)> = list
                .iter()
                .map(|&(n, v)| {
                    let exists = match n {
                        "align" => mann.align.is_some(),
                        _ => mann.size.is_some(),
                    };
                    (n, v, exists)
                })
                .collect();
            for style in self.styles() {
                let mut edits = self.member_attrs_edits(mann, list, style);
                edits.extend(extra.iter().cloned());
                out.push(Fix {
                    title: attr_title(&attrs, style, &format!("member `{}`", mann.name)),
                    edits,
                    outcome: String::new(),
                });
            }
        }
        out
    }

    /// Set member attributes: existing ones get the new value, the others
    /// are inserted together before the member.
    fn member_attrs_edits(
        &self,
        mann: &MemberAnn,
        list: &[(&str, u64)],
        style: Style,
    ) -> Vec<Edit> {
        let mut edits = Vec::new();
        let mut inserts: Vec<(&str, u64)> = Vec::new();
        for &(name, value) in list {
            let existing = match name {
                "align" => &mann.align,
                _ => &mann.size,
            };
            match existing {
                Some(s) => edits.push(replace_value(&self.parsed.source, &s.span, value)),
                None => inserts.push((name, value)),
            }
        }
        if !inserts.is_empty() {
            edits.push(Edit {
                span: mann.span.start..mann.span.start,
                replacement: format!("{} ", style.attrs(&inserts)),
            });
        }
        edits
    }

    /// ", and change `stride(24)` to `stride(32)`" for the dependent
    /// updates of a fix (empty when there are none).
    fn updates_note(&self, updates: &[Edit]) -> String {
        let src = &self.parsed.source;
        let changes: Vec<String> = updates
            .iter()
            .map(|e| {
                let before = src.get(..e.span.start).unwrap_or("");
                let before = before.strip_suffix('(').unwrap_or(before);
                let name_start = before
                    .rfind(|c: char| !c.is_ascii_alphanumeric() && c != '_')
                    .map_or(0, |i| i + 1);
                let name = &before[name_start..];
                let old = src.get(e.span.clone()).unwrap_or("");
                let at = e.span.start;
                let ann = &self.parsed.annotations;
                let place = ann
                    .structs
                    .values()
                    .flat_map(|s| s.members.iter().map(move |m| (s, m)))
                    .find(|(_, m)| m.span.contains(&at))
                    .map(|(s, m)| format!(" on {}.{}", s.name, m.name))
                    .or_else(|| {
                        ann.aliases
                            .values()
                            .find(|a| a.span.contains(&at))
                            .map(|a| format!(" in alias {}", a.name))
                    })
                    .or_else(|| {
                        ann.globals
                            .values()
                            .find(|g| g.span.contains(&at))
                            .map(|g| format!(" on var {}", g.name))
                    })
                    .unwrap_or_default();
                format!("`{name}({old})` to `{name}({})`{place}", e.replacement)
            })
            .collect();
        if changes.is_empty() {
            String::new()
        } else {
            format!(", and change {}", changes.join(", "))
        }
    }

    fn stride_edit(&self, arr: &TypeAnn, value: u64, style: Style) -> Edit {
        match &arr.stride {
            Some(s) => replace_value(&self.parsed.source, &s.span, value),
            None => Edit {
                span: arr.span.start..arr.span.start,
                replacement: format!("{} ", style.attrs(&[("stride", value)])),
            },
        }
    }

    /// Edits to explicit `@stride` values of arrays of struct `name` that
    /// would be too small or misaligned once the struct is `size` bytes
    /// aligned to `align`, and to explicit member `@size` values of members
    /// of that struct type that would be too small.
    fn stride_updates(&self, name: &str, size: u64, align: u64) -> Vec<Edit> {
        let ann = &self.parsed.annotations;
        let mut types: Vec<&TypeAnn> = Vec::new();
        let mut edits = Vec::new();
        for s in ann.structs.values() {
            types.extend(s.members.iter().map(|m| &m.ty));
            for m in &s.members {
                if let Some(ms) = &m.size {
                    if ms.value < size && self.resolve(&m.ty).0.name == name {
                        edits.push(replace_value(&self.parsed.source, &ms.span, size));
                    }
                }
            }
        }
        types.extend(ann.aliases.values().map(|a| &a.target));
        types.extend(ann.globals.values().filter_map(|g| g.ty.as_ref()));
        let mut stack = types;
        while let Some(t) = stack.pop() {
            stack.extend(t.args.iter());
            let (Some(stride), Some(elem)) = (&t.stride, t.args.first()) else {
                continue;
            };
            if self.resolve(elem).0.name != name {
                continue;
            }
            let mut need = round_up(align, stride.value.max(size));
            if stride.value.is_multiple_of(16) {
                need = round_up(16, need);
            }
            if need != stride.value {
                edits.push(replace_value(&self.parsed.source, &stride.span, need));
            }
        }
        edits.sort_by_key(|e| e.span.start);
        edits.dedup();
        edits
    }

    /// Padding members filling `[from, to)` inserted after member `after`,
    /// none aligned beyond `max(struct_align, 4)` so that the struct's
    /// alignment stays (where it is at least 4), and their text.
    fn padding_edit(
        &self,
        sann: &StructAnn,
        after: &MemberAnn,
        from: u64,
        to: u64,
        struct_align: u64,
    ) -> Option<(Edit, String)> {
        if to <= from {
            return None;
        }
        let f16 = self.parsed.source.contains("enable f16");
        let types = padding_types(from, to, f16, struct_align.max(4))?;
        let src = &self.parsed.source;
        let sep = separator_style(src, sann);
        let indent = line_indent(src, after.span.start);
        let mut names = Vec::new();
        let mut k = 0;
        while names.len() < types.len() {
            let name = format!("_pad{k}");
            if !sann.members.iter().any(|m| m.name == name) {
                names.push(name);
            }
            k += 1;
        }
        let pieces: Vec<String> = names
            .iter()
            .zip(&types)
            .map(|(n, t)| format!("{n}: {t}"))
            .collect();
        let text = pieces.join(", ");
        // Insert after the member's separator when it has one.
        let rest = src.get(after.span.end..)?;
        let trimmed = rest.trim_start();
        let ws = rest.len() - trimmed.len();
        if trimmed.starts_with(',') || trimmed.starts_with(';') {
            let at = after.span.end + ws + 1;
            let lines: String = pieces
                .iter()
                .map(|p| format!("\n{indent}{p}{sep}"))
                .collect();
            Some((
                Edit {
                    span: at..at,
                    replacement: lines,
                },
                text,
            ))
        } else {
            let at = after.span.end;
            let joined = pieces.join(&format!("{sep}\n{indent}"));
            Some((
                Edit {
                    span: at..at,
                    replacement: format!("{sep}\n{indent}{joined}"),
                },
                text,
            ))
        }
    }
}

/// "add `@align(16) @size(32)` to struct A", or "set align(16), size(32)
/// on struct A" when some of them are already written.
fn attr_title(attrs: &[(&str, u64, bool)], style: Style, target: &str) -> String {
    let list: Vec<(&str, u64)> = attrs.iter().map(|&(n, v, _)| (n, v)).collect();
    if attrs.iter().all(|a| !a.2) {
        format!("add `{}` to {target}", style.attrs(&list))
    } else {
        let set: Vec<String> = list.iter().map(|(n, v)| format!("{n}({v})")).collect();
        format!("set {} on {target}", set.join(", "))
    }
}

fn struct_of(layout: &Layout) -> Option<naga::Handle<naga::Type>> {
    match &layout.kind {
        LayoutKind::Struct(h) => Some(*h),
        _ => None,
    }
}

/// Replace the value of an attribute: the text inside its parentheses when
/// the span covers the whole attribute, else the whole span.
pub(crate) fn replace_value(source: &str, span: &Span, value: u64) -> Edit {
    let text = source.get(span.clone()).unwrap_or("");
    match (text.find('('), text.rfind(')')) {
        (Some(open), Some(close)) if open < close => Edit {
            span: span.start + open + 1..span.start + close,
            replacement: value.to_string(),
        },
        _ => Edit {
            span: span.clone(),
            replacement: value.to_string(),
        },
    }
}

/// Scalar and vector members (no arrays: uniform arrays need 16-byte
/// strides) that exactly fill `[from, to)`, each at its natural alignment.
fn padding_types(from: u64, to: u64, f16: bool, max_align: u64) -> Option<Vec<&'static str>> {
    let mut out = Vec::new();
    let mut p = from;
    while p < to {
        let r = to - p;
        let (t, n) = if max_align >= 16 && p.is_multiple_of(16) && r >= 16 {
            ("vec4<f32>", 16)
        } else if max_align >= 8 && p.is_multiple_of(8) && r >= 8 {
            ("vec2<f32>", 8)
        } else if p.is_multiple_of(4) && r >= 4 {
            ("f32", 4)
        } else if f16 && p.is_multiple_of(2) && r >= 2 {
            ("f16", 2)
        } else {
            return None;
        };
        out.push(t);
        p += n;
        if out.len() > 64 {
            return None;
        }
    }
    Some(out)
}

/// The member separator the struct uses (`,` or the old `;`).
fn separator_style(source: &str, sann: &StructAnn) -> char {
    for m in &sann.members {
        if let Some(rest) = source.get(m.span.end..) {
            match rest.trim_start().chars().next() {
                Some(';') => return ';',
                Some(',') => return ',',
                _ => {}
            }
        }
    }
    ','
}

/// The indentation of the line holding `at`, when only whitespace precedes
/// `at` on it; four spaces otherwise.
fn line_indent(source: &str, at: usize) -> String {
    let before = source.get(..at).unwrap_or("");
    let line = match before.rfind('\n') {
        Some(i) => &before[i + 1..],
        None => before,
    };
    if line.chars().all(|c| c == ' ' || c == '\t') {
        line.to_string()
    } else {
        "    ".to_string()
    }
}

struct Verifier<'a> {
    parsed: &'a Parsed,
    contract: &'a LayoutModule,
    before: &'a BTreeSet<ViolationKey>,
    original_valid: Option<bool>,
}

impl Verifier<'_> {
    /// Re-run the pipeline on the fixed source. `Some(outcome)` when the
    /// violation is gone and nothing new broke.
    fn verify(&mut self, target: &ViolationKey, fix: &Fix) -> Option<String> {
        let source = fix.apply(&self.parsed.source);
        let parsed = crate::front::parse(&source).ok()?;
        let contract = super::build(&parsed, RuleSet::Wgsl).ok()?;
        let keys = violation_keys(&parsed, &contract);
        if keys.iter().any(|k| k == target || !self.before.contains(k)) {
            return None;
        }
        let original_valid = *self
            .original_valid
            .get_or_insert_with(|| crate::front::validate(&self.parsed.module).is_ok());
        if original_valid && crate::front::validate(&parsed.module).is_err() {
            return None;
        }
        Some(describe_changes(self.contract, &contract))
    }
}

/// What changed between two contract layouts, struct by struct, e.g.
/// `struct B: e at 40 -> 48, g at 80 -> 96 (stride 24 -> 32), size 160 -> 208`.
fn describe_changes(old: &LayoutModule, new: &LayoutModule) -> String {
    let mut parts = Vec::new();
    for os in old.structs.values() {
        let Some(ns) = new.structs.values().find(|s| s.name == os.name) else {
            continue;
        };
        let mut changes = Vec::new();
        for nm in ns.members() {
            let Some(om) = os.members().find(|m| m.name == nm.name) else {
                changes.push(format!(
                    "new {} at {} ({} bytes)",
                    nm.name,
                    nm.offset,
                    fmt_size(nm.size)
                ));
                continue;
            };
            let mut extra = Vec::new();
            if om.size != nm.size {
                extra.push(format!(
                    "size {} -> {}",
                    fmt_size(om.size),
                    fmt_size(nm.size)
                ));
            }
            if let (Some(a), Some(b)) = (stride_of(&om.layout), stride_of(&nm.layout)) {
                if a != b {
                    extra.push(format!("stride {a} -> {b}"));
                }
            }
            if om.offset == nm.offset && extra.is_empty() {
                continue;
            }
            let mut c = if om.offset != nm.offset {
                format!("{} at {} -> {}", nm.name, om.offset, nm.offset)
            } else {
                format!("{} at {}", nm.name, nm.offset)
            };
            if !extra.is_empty() {
                c.push_str(&format!(" ({})", extra.join(", ")));
            }
            changes.push(c);
        }
        if os.align != ns.align {
            changes.push(format!("align {} -> {}", os.align, ns.align));
        }
        if os.size != ns.size {
            changes.push(format!(
                "size {} -> {}",
                fmt_size(os.size),
                fmt_size(ns.size)
            ));
        }
        if !changes.is_empty() {
            parts.push(format!("struct {}: {}", os.name, changes.join(", ")));
        }
    }
    for (og, ng) in old.globals.iter().zip(&new.globals) {
        if let (Some(a), Some(b)) = (stride_of(&og.layout), stride_of(&ng.layout)) {
            if a != b {
                parts.push(format!("var {}: stride {a} -> {b}", og.name));
            }
        }
    }
    if parts.is_empty() {
        "the layout is unchanged".to_string()
    } else {
        parts.join("; ")
    }
}

fn fmt_size(size: Option<u64>) -> String {
    size.map(|s| s.to_string())
        .unwrap_or_else(|| "runtime-sized".to_string())
}

fn stride_of(layout: &Layout) -> Option<u64> {
    match &layout.kind {
        LayoutKind::Array { stride, .. } => Some(*stride),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounding() {
        assert_eq!(round_up(16, 24), 32);
        assert_eq!(round_up(16, 32), 32);
        assert_eq!(round_up(1, 7), 7);
        assert_eq!(round_up(0, 7), 7);
        assert_eq!(round_up(16, u64::MAX), u64::MAX); // saturates, no panic
    }

    #[test]
    fn padding_members_fill_exactly() {
        assert_eq!(
            padding_types(20, 32, false, 8),
            Some(vec!["f32", "vec2<f32>"])
        );
        assert_eq!(
            padding_types(20, 32, false, 4),
            Some(vec!["f32", "f32", "f32"])
        );
        assert_eq!(
            padding_types(16, 48, false, 16),
            Some(vec!["vec4<f32>", "vec4<f32>"])
        );
        assert_eq!(
            padding_types(6, 16, true, 4),
            Some(vec!["f16", "f32", "f32"])
        );
        assert_eq!(padding_types(6, 16, false, 4), None);
        assert_eq!(padding_types(8, 8, false, 4), Some(vec![]));
    }

    #[test]
    fn attribute_values_are_replaced_inside_parentheses() {
        let src = "g: @stride(24) array<A, 3>";
        let e = replace_value(src, &(3..14), 32);
        assert_eq!(&src[e.span.clone()], "24");
        let e = replace_value(src, &(11..13), 32);
        assert_eq!(e.span, 11..13);
        assert_eq!(e.replacement, "32");
    }

    #[test]
    fn attribute_syntax() {
        assert_eq!(
            Style::At.attrs(&[("align", 16), ("size", 32)]),
            "@align(16) @size(32)"
        );
        assert_eq!(
            Style::Bracket.attrs(&[("align", 16), ("size", 32)]),
            "[[align(16), size(32)]]"
        );
    }

    #[test]
    fn separators_and_indentation() {
        let src = "struct A {\n    u: f32;\n}";
        assert_eq!(line_indent(src, 15), "    ");
        assert_eq!(line_indent("struct A { u: f32 }", 11), "    ");
    }
}
