//! `--target layout`: the annotated listing of spec/000 for every struct used
//! in a buffer, optionally with other rule sets beside the contract.
//!
//! The listing only prints the layout IR: offsets, alignments, sizes and
//! padding come from [`LayoutModule`], names and types as written come from
//! the scanned source. The format:
//!
//! ```text
//! /*             align(16) size(160) */ struct B {
//! /* offset(0)   align(8)  size(8)   */     a : vec2<f32>;
//! /* offset(8)   align(1)  size(8)          -- implicit field alignment padding -- */
//! ...
//!                                       };
//!
//! /*             align(16) size(160) */ @group(0) @binding(0) var<uniform> u : B;
//! ```
//!
//! A runtime-sized array (and a struct ending in one) prints `size(*)`.
//! With other rule sets, each gets one more column (described by a comment
//! header at the top of the listing), and `!` marks every value that differs
//! from the contract.

use crate::front::dialect::Spanned;
use crate::front::scan::{Attribute, ItemKind, Member, StructDecl, VarDecl};
use crate::front::Parsed;
use crate::layout::{
    GlobalLayout, Layout, LayoutKind, LayoutModule, MemberSlot, PaddingReason, Slot, StructLayout,
};
use std::fmt::Write as _;

/// Minimum widths of the contract columns (offset, align, size), as in
/// spec/000 (each includes the separating space).
const CONTRACT_WIDTHS: [usize; 3] = [12, 10, 10];
/// Indentation of member lines relative to the struct header.
const MEMBER_INDENT: &str = "    ";

/// `contract` is the `wgsl` layout; `others` are extra rule sets to show
/// beside it, marking where they differ.
pub fn write(parsed: &Parsed, contract: &LayoutModule, others: &[LayoutModule]) -> String {
    let mut lines: Vec<Line> = Vec::new();
    for layout in contract.structs.values() {
        if !lines.is_empty() {
            lines.push(Line::Blank);
        }
        struct_lines(parsed, contract, others, layout, &mut lines);
    }
    if !contract.globals.is_empty() {
        if !lines.is_empty() {
            lines.push(Line::Blank);
        }
        for global in &contract.globals {
            lines.push(global_line(parsed, contract, others, global));
        }
    }
    render(contract, others, &lines)
}

/// One line of the listing before column widths are known.
enum Line {
    Blank,
    /// Columns, then the rest of the line: `*/ ` and a declaration, or
    /// for a padding slot the member indentation and its description,
    /// which ends in `*/`.
    Row {
        cols: Cols,
        text: String,
    },
    /// The closing `};` of a struct.
    Close,
}

struct Cols {
    /// The contract's offset, align and size.
    contract: [String; 3],
    /// One cell per other rule set.
    extra: Vec<String>,
}

fn size_text(size: Option<u64>) -> String {
    match size {
        Some(n) => format!("size({n})"),
        None => "size(*)".to_string(),
    }
}

fn struct_lines(
    parsed: &Parsed,
    contract: &LayoutModule,
    others: &[LayoutModule],
    layout: &StructLayout,
    out: &mut Vec<Line>,
) {
    let decl = scanned_struct(parsed, &layout.name);
    let ann = parsed.annotations.structs.get(&layout.name);
    let header_attrs = written_attrs(
        parsed,
        decl.map(|d| d.1),
        ann.map_or([None; 2], |a| [a.align.as_ref(), a.size.as_ref()]),
    );
    let cols = declaration_cols(others, (layout.align, layout.size), |other| {
        other.structs.get(&layout.ty).map(|o| (o.align, o.size))
    });
    out.push(Line::Row {
        cols,
        text: format!("*/ {header_attrs}struct {} {{", layout.name),
    });
    for slot in &layout.slots {
        match slot {
            Slot::Member(m) => {
                let member = decl
                    .and_then(|d| d.0.members.get(m.index))
                    .filter(|mem| mem.name == m.name);
                let extra = others
                    .iter()
                    .map(|other| other_member_cell(other, layout, m))
                    .collect();
                let attrs = written_attrs(
                    parsed,
                    member.map(|mem| mem.attrs.as_slice()),
                    ann.and_then(|s| s.members.get(m.index))
                        .map_or([None; 2], |a| [a.align.as_ref(), a.size.as_ref()]),
                );
                let ty = member_type_text(parsed, contract, member, &layout.name, m);
                out.push(Line::Row {
                    cols: Cols {
                        contract: [
                            format!("offset({})", m.offset),
                            format!("align({})", m.align),
                            size_text(m.size),
                        ],
                        extra,
                    },
                    text: format!("*/ {MEMBER_INDENT}{attrs}{} : {ty};", m.name),
                });
            }
            Slot::Padding(p) => {
                let what = match p.reason {
                    PaddingReason::FieldAlignment => "implicit field alignment padding",
                    PaddingReason::StructSize => "implicit struct size padding",
                };
                out.push(Line::Row {
                    cols: Cols {
                        contract: [
                            format!("offset({})", p.offset),
                            "align(1)".to_string(),
                            format!("size({})", p.size),
                        ],
                        extra: vec![String::new(); others.len()],
                    },
                    text: format!("   {MEMBER_INDENT}-- {what} -- */"),
                });
            }
        }
    }
    out.push(Line::Close);
}

/// The columns of a struct or `var` line: the contract's align and size
/// (`ours`), and under each other rule set its align and size there
/// (`theirs`; `None`: it has none), marked where they differ from ours.
fn declaration_cols(
    others: &[LayoutModule],
    ours: (u64, Option<u64>),
    theirs: impl Fn(&LayoutModule) -> Option<(u64, Option<u64>)>,
) -> Cols {
    let extra = others
        .iter()
        .map(|other| match theirs(other) {
            Some((align, size)) => format!(
                "{} align({align}) {}{}",
                other.rules.name(),
                size_text(size),
                mark((align, size) != ours)
            ),
            None => format!("{} -", other.rules.name()),
        })
        .collect();
    Cols {
        contract: [
            String::new(),
            format!("align({})", ours.0),
            size_text(ours.1),
        ],
        extra,
    }
}

fn mark(differs: bool) -> &'static str {
    if differs {
        "!"
    } else {
        ""
    }
}

/// The cell of one member under another rule set: its offset, plus its size
/// and array stride where they differ from the contract.
fn other_member_cell(other: &LayoutModule, contract: &StructLayout, m: &MemberSlot) -> String {
    let Some(o) = other
        .structs
        .get(&contract.ty)
        .and_then(|s| s.members().find(|om| om.index == m.index))
    else {
        return "-".to_string();
    };
    let mut cell = format!("offset({})", o.offset);
    let mut differs = o.offset != m.offset;
    if o.size != m.size {
        differs = true;
        let _ = write!(cell, " {}", size_text(o.size));
    }
    if let (Some(a), Some(b)) = (array_stride(&o.layout), array_stride(&m.layout)) {
        if a != b {
            differs = true;
            let _ = write!(cell, " stride({a})");
        }
    }
    cell.push_str(mark(differs));
    cell
}

fn array_stride(layout: &Layout) -> Option<u64> {
    match layout.kind {
        LayoutKind::Array { stride, .. } => Some(stride),
        _ => None,
    }
}

fn global_line(
    parsed: &Parsed,
    contract: &LayoutModule,
    others: &[LayoutModule],
    global: &GlobalLayout,
) -> Line {
    let mut text = String::from("*/ ");
    if let Some(b) = &global.binding {
        let _ = write!(text, "@group({}) @binding({}) ", b.group, b.binding);
    }
    let var = scanned_var(parsed, &global.name);
    let template = var
        .filter(|v| !v.template.is_empty())
        .map(|v| {
            v.template
                .iter()
                .map(|a| a.text.trim())
                .collect::<Vec<_>>()
                .join(", ")
        })
        .unwrap_or_else(|| space_template(global.space));
    let ty = global_type_text(parsed, &global.name)
        .unwrap_or_else(|| layout_type_name(contract, &global.layout));
    let _ = write!(text, "var<{template}> {} : {ty};", global.name);
    let ours = (global.layout.align, global.layout.size);
    let cols = declaration_cols(others, ours, |other| {
        let theirs = other.globals.iter().find(|g| g.handle == global.handle);
        theirs.map(|o| (o.layout.align, o.layout.size))
    });
    Line::Row { cols, text }
}

/// `var<...>` template text derived from an address space.
fn space_template(space: naga::AddressSpace) -> String {
    use crate::back::reflect::{space_name, storage_access};
    match storage_access(space) {
        Some(access) => format!("storage, {access}"),
        None => space_name(space).to_string(),
    }
}

fn render(contract: &LayoutModule, others: &[LayoutModule], lines: &[Line]) -> String {
    let cols = || {
        lines.iter().filter_map(|l| match l {
            Line::Row { cols, .. } => Some(cols),
            _ => None,
        })
    };
    // A contract column: its widest cell and a space, at least the minimum.
    let contract_w: [usize; 3] = std::array::from_fn(|i| {
        let widest = cols().map(|c| c.contract[i].len() + 1);
        widest.fold(CONTRACT_WIDTHS[i], usize::max)
    });
    let extra_w: Vec<usize> = (0..others.len())
        .map(|i| {
            cols()
                .filter_map(|c| c.extra.get(i))
                .map(String::len)
                .fold(0, usize::max)
        })
        .collect();
    let prefix = |c: &Cols| {
        let mut s = String::from("/* ");
        for (cell, w) in c.contract.iter().zip(contract_w) {
            let _ = write!(s, "{cell:w$}");
        }
        for (cell, w) in c.extra.iter().zip(&extra_w) {
            let _ = write!(s, "| {cell:w$} ");
        }
        s
    };
    // Width of everything before `*/`.
    let prefix_len =
        3 + contract_w.iter().sum::<usize>() + extra_w.iter().map(|w| w + 3).sum::<usize>();

    let mut out = String::new();
    if !others.is_empty() {
        header(contract, others, &mut out);
    }
    for line in lines {
        match line {
            Line::Blank => {}
            Line::Row { cols, text } => {
                out.push_str(&prefix(cols));
                out.push_str(text);
            }
            Line::Close => {
                out.push_str(&" ".repeat(prefix_len + 3));
                out.push_str("};");
            }
        }
        // No trailing spaces: padded cells at the end of a line are trimmed.
        let trimmed = out.trim_end_matches(' ').len();
        out.truncate(trimmed);
        out.push('\n');
    }
    out
}

fn header(contract: &LayoutModule, others: &[LayoutModule], out: &mut String) {
    let names: Vec<&str> = others.iter().map(|o| o.rules.name()).collect();
    let _ = writeln!(
        out,
        "// Layout listing: the contract ({}) and, beside it, the natural layout of: {}.",
        contract.rules.name(),
        names.join(", ")
    );
    out.push_str(
        "// Each extra column is one rule set: its align and size on struct and var lines,\n\
         // the member's offset on member lines, plus its size and array stride where they\n\
         // differ from the contract. A cell ends in `!` when any of its values differs\n\
         // from the contract's.\n\n",
    );
}

// ---------------------------------------------------------------------------
// Source text: names, attributes and types as written.
// ---------------------------------------------------------------------------

/// The scanned declaration of struct `name` and its attributes.
pub(crate) fn scanned_struct<'a>(
    parsed: &'a Parsed,
    name: &str,
) -> Option<(&'a StructDecl, &'a [Attribute])> {
    parsed
        .scanned
        .items
        .iter()
        .find_map(|item| match &item.kind {
            ItemKind::Struct(s) if s.name == name => Some((s, item.attrs.as_slice())),
            _ => None,
        })
}

/// The scanned module-scope `var` called `name`.
pub(crate) fn scanned_var<'a>(parsed: &'a Parsed, name: &str) -> Option<&'a VarDecl> {
    parsed
        .scanned
        .items
        .iter()
        .find_map(|item| match &item.kind {
            ItemKind::Var(v) if v.name == name => Some(v),
            _ => None,
        })
}

/// Source text of `span` with every run of whitespace collapsed to one space.
pub(crate) fn source_text(parsed: &Parsed, span: &crate::diag::Span) -> Option<String> {
    let text = parsed.source.get(span.clone())?;
    let collapsed = text.split_whitespace().collect::<Vec<_>>().join(" ");
    (!collapsed.is_empty()).then_some(collapsed)
}

/// Attributes as written, each followed by a space. A `[[a, b(n)]]` list is
/// printed once.
fn attrs_text(parsed: &Parsed, attrs: &[Attribute]) -> String {
    let mut out = String::new();
    let mut last_bracket: Option<&crate::diag::Span> = None;
    for attr in attrs {
        let span = match &attr.bracket {
            Some(list) => {
                if last_bracket == Some(list) {
                    continue;
                }
                last_bracket = Some(list);
                list
            }
            None => &attr.span,
        };
        if let Some(text) = source_text(parsed, span) {
            out.push_str(&text);
            out.push(' ');
        }
    }
    out
}

/// The attributes of a struct or member as written (`attrs`); without
/// scan information, the dialect's `@align(n)` and `@size(n)` from its
/// annotation (`annotated`: align, size), each followed by a space.
fn written_attrs(
    parsed: &Parsed,
    attrs: Option<&[Attribute]>,
    annotated: [Option<&Spanned<u64>>; 2],
) -> String {
    if let Some(attrs) = attrs {
        return attrs_text(parsed, attrs);
    }
    let mut out = String::new();
    for (name, value) in ["align", "size"].into_iter().zip(annotated) {
        if let Some(v) = value {
            let _ = write!(out, "@{name}({}) ", v.value);
        }
    }
    out
}

/// The type of member `m` of struct `struct_name` as written (alias names
/// and `@stride(n)` kept): from its scanned declaration `member`; without
/// scan information, from the annotations, else derived from the layout.
pub(crate) fn member_type_text(
    parsed: &Parsed,
    contract: &LayoutModule,
    member: Option<&Member>,
    struct_name: &str,
    m: &MemberSlot,
) -> String {
    let structs = &parsed.annotations.structs;
    let ann = structs
        .get(struct_name)
        .and_then(|s| s.members.get(m.index));
    let ann = ann.filter(|ann| ann.name == m.name).map(|ann| &ann.ty);
    written_type(parsed, member.map(|mem| &mem.ty), ann)
        .unwrap_or_else(|| layout_type_name(contract, &m.layout))
}

/// A type as written: its scanned type expression, else (without scan
/// information) its annotated type.
fn written_type(
    parsed: &Parsed,
    scanned: Option<&crate::front::scan::TypeExpr>,
    annotated: Option<&crate::front::dialect::TypeAnn>,
) -> Option<String> {
    let scanned = scanned.and_then(|ty| type_expr_text(parsed, ty));
    scanned.or_else(|| annotated.and_then(|ty| type_ann_text(parsed, ty)))
}

/// The text of a scanned type expression, attributes included.
pub(crate) fn type_expr_text(parsed: &Parsed, ty: &crate::front::scan::TypeExpr) -> Option<String> {
    let start = ty
        .attrs
        .iter()
        .map(|a| a.bracket.as_ref().unwrap_or(&a.span).start)
        .chain(std::iter::once(ty.span.start))
        .min()
        .unwrap_or(ty.span.start);
    let text = source_text(parsed, &(start..ty.span.end))?;
    Some(trim_type_text(text))
}

/// Type text as written, without a trailing `;` or `,` should a span end
/// on one.
fn trim_type_text(text: String) -> String {
    text.trim_end_matches([';', ',']).trim_end().to_string()
}

/// The text of an annotated type: its span, with `@stride(n)` in front
/// when the span does not already include it.
pub(crate) fn type_ann_text(
    parsed: &Parsed,
    ty: &crate::front::dialect::TypeAnn,
) -> Option<String> {
    let text = source_text(parsed, &ty.span)?;
    match &ty.stride {
        Some(s) if !text.starts_with('@') && !text.starts_with("[[") => {
            Some(format!("@stride({}) {text}", s.value))
        }
        _ => Some(trim_type_text(text)),
    }
}

/// A WGSL spelling derived from the layout alone (struct names from the
/// layout module); `@stride(n)` only where the stride is not the natural
/// one.
pub(crate) fn layout_type_name(module: &LayoutModule, layout: &Layout) -> String {
    match &layout.kind {
        LayoutKind::Scalar(s) => s.wgsl_name(),
        LayoutKind::Atomic(s) => format!("atomic<{}>", s.wgsl_name()),
        LayoutKind::Vector { size, scalar } => format!("vec{size}<{}>", scalar.wgsl_name()),
        LayoutKind::Matrix {
            columns,
            rows,
            scalar,
            ..
        } => format!("mat{columns}x{rows}<{}>", scalar.wgsl_name()),
        LayoutKind::Array {
            element,
            stride,
            count,
        } => {
            let elem = layout_type_name(module, element);
            let natural = element.natural_stride();
            let attr = if natural == Some(*stride) {
                String::new()
            } else {
                format!("@stride({stride}) ")
            };
            match count {
                Some(n) => format!("{attr}array<{elem}, {n}>"),
                None => format!("{attr}array<{elem}>"),
            }
        }
        LayoutKind::Struct(h) => match module.structs.get(h) {
            Some(s) => s.name.to_string(),
            None => "struct".to_string(),
        },
    }
}

/// A global's type as written in its `var` declaration.
pub(crate) fn global_type_text(parsed: &Parsed, name: &str) -> Option<String> {
    let scanned = scanned_var(parsed, name).and_then(|v| v.ty.as_ref());
    let annotated = parsed.annotations.globals.get(name);
    written_type(parsed, scanned, annotated.and_then(|g| g.ty.as_ref()))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::front::dialect::{Annotations, MemberAnn, Spanned, StructAnn, TypeAnn};
    use crate::layout::{PaddingSlot, RuleSet, Scalar, ScalarKind};
    use pretty_assertions::assert_eq;

    // -- hand-built layout IR ------------------------------------------------

    pub(crate) fn f32_() -> Layout {
        let scalar = Scalar {
            kind: ScalarKind::Float,
            width: 4,
        };
        Layout {
            size: Some(4),
            align: 4,
            kind: LayoutKind::Scalar(scalar),
        }
    }

    pub(crate) fn vec_(n: u8) -> Layout {
        let scalar = Scalar {
            kind: ScalarKind::Float,
            width: 4,
        };
        let (size, align) = match n {
            2 => (8, 8),
            3 => (12, 16),
            _ => (16, 16),
        };
        Layout {
            size: Some(size),
            align,
            kind: LayoutKind::Vector { size: n, scalar },
        }
    }

    pub(crate) fn struct_(h: naga::Handle<naga::Type>, size: u64, align: u64) -> Layout {
        Layout {
            size: Some(size),
            align,
            kind: LayoutKind::Struct(h),
        }
    }

    pub(crate) fn array_(element: Layout, stride: u64, count: Option<u64>) -> Layout {
        Layout {
            size: count.map(|n| n * stride),
            align: element.align,
            kind: LayoutKind::Array {
                element: Box::new(element),
                stride,
                count,
            },
        }
    }

    pub(crate) fn member(index: usize, name: &str, offset: u64, layout: Layout) -> Slot {
        Slot::Member(MemberSlot {
            index,
            name: name.into(),
            offset,
            size: layout.size,
            align: layout.align,
            layout,
        })
    }

    pub(crate) fn pad(offset: u64, size: u64, reason: PaddingReason) -> Slot {
        Slot::Padding(PaddingSlot {
            offset,
            size,
            reason,
        })
    }

    pub(crate) fn type_handle(module: &naga::Module, name: &str) -> naga::Handle<naga::Type> {
        module
            .types
            .iter()
            .find(|(_, t)| t.name.as_deref() == Some(name))
            .map(|(h, _)| h)
            .unwrap()
    }

    /// A `Parsed` without scan information: `dialect` texts are blanked
    /// for naga, as the front end does.
    pub(crate) fn parsed(source: &str, dialect: &[&str]) -> Parsed {
        let mut standard = source.to_string();
        for d in dialect {
            standard = standard.replace(d, &" ".repeat(d.len()));
        }
        let module = naga::front::wgsl::parse_str(&standard).unwrap();
        Parsed {
            source: source.to_string(),
            standard,
            map: Default::default(),
            scanned: Default::default(),
            annotations: Annotations::default(),
            module,
            warnings: Vec::new(),
            allocations: Vec::new(),
            uniform_standard: false,
        }
    }

    fn span_of(source: &str, text: &str) -> crate::diag::Span {
        let start = source.find(text).unwrap();
        start..start + text.len()
    }

    /// Annotation of a member written `name : ty` in `source`.
    fn member_ann(source: &str, name: &str, ty: &str, stride: Option<u64>) -> MemberAnn {
        let whole = span_of(source, &format!("{name} : {ty}"));
        // The type's span starts after a `@stride(n) ` prefix.
        let bare = ty.rsplit_once(") ").map_or(ty, |(_, t)| t);
        let ty_start = whole.end - bare.len();
        MemberAnn {
            name: name.into(),
            name_span: whole.start..whole.start + name.len(),
            span: whole.clone(),
            align: None,
            size: None,
            ty: TypeAnn {
                name: Default::default(),
                span: ty_start..whole.end,
                stride: stride.map(|value| Spanned {
                    value,
                    span: ty_start..ty_start,
                }),
                args: Vec::new(),
            },
        }
    }

    fn struct_ann(source: &str, name: &str, members: Vec<MemberAnn>) -> StructAnn {
        let name_span = span_of(source, &format!("struct {name}"));
        StructAnn {
            name: name.into(),
            name_span: name_span.start + 7..name_span.end,
            span: name_span.clone(),
            insert_at: name_span.start,
            align: None,
            size: None,
            members,
        }
    }

    // -- spec/000, default layout ---------------------------------------------

    pub(crate) const SPEC_SOURCE: &str = "
struct A {
    u : f32,
    v : f32,
    w : vec2<f32>,
    x : f32,
}
struct B {
    a : vec2<f32>,
    b : vec3<f32>,
    c : f32,
    d : f32,
    e : A,
    f : vec3<f32>,
    g : @stride(24) array<A, 3>,
    h : f32,
}
@group(0) @binding(0) var<storage> storage_buffer : B;
";

    /// spec/000 with annotations as the front end would give them, and the
    /// contract layout of A and B as the spec lists it.
    pub(crate) fn spec_example() -> (Parsed, LayoutModule) {
        let mut p = parsed(SPEC_SOURCE, &["@stride(24)"]);
        let src = SPEC_SOURCE;
        let mut ann = Annotations::default();
        let a_members = ["u : f32", "v : f32", "w : vec2<f32>", "x : f32"]
            .iter()
            .map(|t| {
                let (n, ty) = t.split_once(" : ").unwrap();
                member_ann(src, n, ty, None)
            })
            .collect();
        ann.structs
            .insert("A".into(), struct_ann(src, "A", a_members));
        let mut b_members: Vec<MemberAnn> = [
            "a : vec2<f32>",
            "b : vec3<f32>",
            "c : f32",
            "d : f32",
            "e : A",
            "f : vec3<f32>",
            "g : @stride(24) array<A, 3>",
            "h : f32",
        ]
        .iter()
        .map(|t| {
            let (n, ty) = t.split_once(" : ").unwrap();
            member_ann(src, n, ty, None)
        })
        .collect();
        b_members[6] = member_ann(src, "g", "@stride(24) array<A, 3>", Some(24));
        ann.structs
            .insert("B".into(), struct_ann(src, "B", b_members));
        p.annotations = ann;

        let ha = type_handle(&p.module, "A");
        let hb = type_handle(&p.module, "B");
        let a = StructLayout {
            name: "A".into(),
            ty: ha,
            size: Some(24),
            align: 8,
            slots: vec![
                member(0, "u", 0, f32_()),
                member(1, "v", 4, f32_()),
                member(2, "w", 8, vec_(2)),
                member(3, "x", 16, f32_()),
                pad(20, 4, PaddingReason::StructSize),
            ],
        };
        let b = StructLayout {
            name: "B".into(),
            ty: hb,
            size: Some(160),
            align: 16,
            slots: vec![
                member(0, "a", 0, vec_(2)),
                pad(8, 8, PaddingReason::FieldAlignment),
                member(1, "b", 16, vec_(3)),
                member(2, "c", 28, f32_()),
                member(3, "d", 32, f32_()),
                pad(36, 4, PaddingReason::FieldAlignment),
                member(4, "e", 40, struct_(ha, 24, 8)),
                member(5, "f", 64, vec_(3)),
                pad(76, 4, PaddingReason::FieldAlignment),
                member(6, "g", 80, array_(struct_(ha, 24, 8), 24, Some(3))),
                member(7, "h", 152, f32_()),
                pad(156, 4, PaddingReason::StructSize),
            ],
        };
        let global = p.module.global_variables.iter().next().unwrap();
        let globals = vec![GlobalLayout {
            handle: global.0,
            name: "storage_buffer".into(),
            space: global.1.space,
            binding: global.1.binding,
            layout: struct_(hb, 160, 16),
        }];
        let mut structs = naga::FastIndexMap::default();
        structs.insert(ha, a);
        structs.insert(hb, b);
        let contract = LayoutModule {
            rules: RuleSet::Wgsl,
            structs,
            globals,
        };
        (p, contract)
    }

    /// The std140 layout of the spec example (A is rounded to 16 bytes).
    fn spec_std140(p: &Parsed) -> LayoutModule {
        let ha = type_handle(&p.module, "A");
        let hb = type_handle(&p.module, "B");
        let a = StructLayout {
            name: "A".into(),
            ty: ha,
            size: Some(32),
            align: 16,
            slots: vec![
                member(0, "u", 0, f32_()),
                member(1, "v", 4, f32_()),
                member(2, "w", 8, vec_(2)),
                member(3, "x", 16, f32_()),
                pad(20, 12, PaddingReason::StructSize),
            ],
        };
        let b = StructLayout {
            name: "B".into(),
            ty: hb,
            size: Some(208),
            align: 16,
            slots: vec![
                member(0, "a", 0, vec_(2)),
                pad(8, 8, PaddingReason::FieldAlignment),
                member(1, "b", 16, vec_(3)),
                member(2, "c", 28, f32_()),
                member(3, "d", 32, f32_()),
                pad(36, 12, PaddingReason::FieldAlignment),
                member(4, "e", 48, struct_(ha, 32, 16)),
                member(5, "f", 80, vec_(3)),
                pad(92, 4, PaddingReason::FieldAlignment),
                member(6, "g", 96, array_(struct_(ha, 32, 16), 32, Some(3))),
                member(7, "h", 192, f32_()),
                pad(196, 12, PaddingReason::StructSize),
            ],
        };
        let global = p.module.global_variables.iter().next().unwrap();
        let mut structs = naga::FastIndexMap::default();
        structs.insert(ha, a);
        structs.insert(hb, b);
        LayoutModule {
            rules: RuleSet::Std140,
            structs,
            globals: vec![GlobalLayout {
                handle: global.0,
                name: "storage_buffer".into(),
                space: global.1.space,
                binding: global.1.binding,
                layout: struct_(hb, 208, 16),
            }],
        }
    }

    /// spec/000 "Default Structure Layout Example", with `h : f32` for the
    /// spec's typo `h : 32`, `@stride` for `[[stride]]`, no `[[block]]`, and
    /// the padding before `e` as the default layout has it: 4 bytes (the
    /// spec's `size(12)` there is copied from the fixed variant; 36 + 12
    /// would overlap `e` at 40), and `g`'s size as 3 × 24 = 72 (the spec's
    /// `size(24)` is the element's; `h` at 152 = 80 + 72 confirms it).
    const SPEC_LISTING: &str = "\
/*             align(8)  size(24)  */ struct A {
/* offset(0)   align(4)  size(4)   */     u : f32;
/* offset(4)   align(4)  size(4)   */     v : f32;
/* offset(8)   align(8)  size(8)   */     w : vec2<f32>;
/* offset(16)  align(4)  size(4)   */     x : f32;
/* offset(20)  align(1)  size(4)          -- implicit struct size padding -- */
                                      };

/*             align(16) size(160) */ struct B {
/* offset(0)   align(8)  size(8)   */     a : vec2<f32>;
/* offset(8)   align(1)  size(8)          -- implicit field alignment padding -- */
/* offset(16)  align(16) size(12)  */     b : vec3<f32>;
/* offset(28)  align(4)  size(4)   */     c : f32;
/* offset(32)  align(4)  size(4)   */     d : f32;
/* offset(36)  align(1)  size(4)          -- implicit field alignment padding -- */
/* offset(40)  align(8)  size(24)  */     e : A;
/* offset(64)  align(16) size(12)  */     f : vec3<f32>;
/* offset(76)  align(1)  size(4)          -- implicit field alignment padding -- */
/* offset(80)  align(8)  size(72)  */     g : @stride(24) array<A, 3>;
/* offset(152) align(4)  size(4)   */     h : f32;
/* offset(156) align(1)  size(4)          -- implicit struct size padding -- */
                                      };

/*             align(16) size(160) */ @group(0) @binding(0) var<storage, read> storage_buffer : B;
";

    #[test]
    fn spec_000_default_listing() {
        let (p, contract) = spec_example();
        assert_eq!(write(&p, &contract, &[]), SPEC_LISTING);
    }

    #[test]
    fn std140_beside_contract() {
        let (p, contract) = spec_example();
        let std140 = spec_std140(&p);
        let text = write(&p, &contract, &[std140]);
        assert_eq!(text, STD140_LISTING);
        // Members laid out alike are not marked; those that move are.
        assert!(text.contains("| offset(28)                      */     c : f32;"));
        assert!(text.contains("| offset(192)!                    */     h : f32;"));
    }

    const STD140_LISTING: &str = "\
// Layout listing: the contract (wgsl) and, beside it, the natural layout of: std140.
// Each extra column is one rule set: its align and size on struct and var lines,
// the member's offset on member lines, plus its size and array stride where they
// differ from the contract. A cell ends in `!` when any of its values differs
// from the contract's.

/*             align(8)  size(24)  | std140 align(16) size(32)!      */ struct A {
/* offset(0)   align(4)  size(4)   | offset(0)                       */     u : f32;
/* offset(4)   align(4)  size(4)   | offset(4)                       */     v : f32;
/* offset(8)   align(8)  size(8)   | offset(8)                       */     w : vec2<f32>;
/* offset(16)  align(4)  size(4)   | offset(16)                      */     x : f32;
/* offset(20)  align(1)  size(4)   |                                        -- implicit struct size padding -- */
                                                                        };

/*             align(16) size(160) | std140 align(16) size(208)!     */ struct B {
/* offset(0)   align(8)  size(8)   | offset(0)                       */     a : vec2<f32>;
/* offset(8)   align(1)  size(8)   |                                        -- implicit field alignment padding -- */
/* offset(16)  align(16) size(12)  | offset(16)                      */     b : vec3<f32>;
/* offset(28)  align(4)  size(4)   | offset(28)                      */     c : f32;
/* offset(32)  align(4)  size(4)   | offset(32)                      */     d : f32;
/* offset(36)  align(1)  size(4)   |                                        -- implicit field alignment padding -- */
/* offset(40)  align(8)  size(24)  | offset(48) size(32)!            */     e : A;
/* offset(64)  align(16) size(12)  | offset(80)!                     */     f : vec3<f32>;
/* offset(76)  align(1)  size(4)   |                                        -- implicit field alignment padding -- */
/* offset(80)  align(8)  size(72)  | offset(96) size(96) stride(32)! */     g : @stride(24) array<A, 3>;
/* offset(152) align(4)  size(4)   | offset(192)!                    */     h : f32;
/* offset(156) align(1)  size(4)   |                                        -- implicit struct size padding -- */
                                                                        };

/*             align(16) size(160) | std140 align(16) size(208)!     */ @group(0) @binding(0) var<storage, read> storage_buffer : B;
";

    #[test]
    fn listing_is_deterministic() {
        let (p, contract) = spec_example();
        let std140 = spec_std140(&p);
        let others = [std140.clone(), std140];
        let first = write(&p, &contract, &others);
        for _ in 0..3 {
            assert_eq!(write(&p, &contract, &others), first);
        }
        assert!(first.ends_with('\n'));
    }

    #[test]
    fn columns_widen_and_runtime_sizes() {
        let source = "
struct R {
    big : array<vec4<f32>, 100>,
    tail : array<f32>,
}
@group(2) @binding(7) var<storage, read_write> r : R;
";
        let p = parsed(source, &[]);
        let hr = type_handle(&p.module, "R");
        let r = StructLayout {
            name: "R".into(),
            ty: hr,
            size: None,
            align: 16,
            slots: vec![
                member(0, "big", 0, array_(vec_(4), 16, Some(100))),
                member(1, "tail", 1600, array_(f32_(), 4, None)),
            ],
        };
        let (handle, var) = p.module.global_variables.iter().next().unwrap();
        let mut structs = naga::FastIndexMap::default();
        structs.insert(hr, r);
        let contract = LayoutModule {
            rules: RuleSet::Wgsl,
            structs,
            globals: vec![GlobalLayout {
                handle,
                name: "r".into(),
                space: var.space,
                binding: var.binding,
                layout: Layout {
                    size: None,
                    align: 16,
                    kind: LayoutKind::Struct(hr),
                },
            }],
        };
        let expected = "\
/*              align(16) size(*)    */ struct R {
/* offset(0)    align(16) size(1600) */     big : array<vec4<f32>, 100>;
/* offset(1600) align(4)  size(*)    */     tail : array<f32>;
                                        };

/*              align(16) size(*)    */ @group(2) @binding(7) var<storage, read_write> r : R;
";
        assert_eq!(write(&p, &contract, &[]), expected);
    }

    // -- end to end, through the front end and the layout builder -----------

    fn listing(source: &str, rules: &[RuleSet]) -> String {
        let options = crate::Options {
            target: crate::Target::Layout,
            rules: rules.to_vec(),
            ..Default::default()
        };
        match crate::translate(source, &options) {
            Ok(t) => match t.output {
                crate::Output::Text(text) => text,
                other => panic!("non-text output for --target layout: {other:?}"),
            },
            Err(e) => panic!("translation failed:\n{e}"),
        }
    }

    const SPEC_B_SOURCE: &str = "
struct A {
    u : f32,
    v : f32,
    w : vec2<f32>,
    x : f32,
}

struct B {
    a : vec2<f32>,
    b : vec3<f32>,
    c : f32,
    d : f32,
    e : A,
    f : vec3<f32>,
    g : @stride(24) array<A, 3>,
    h : f32,
}

@group(0) @binding(0)
var<storage> storage_buffer : B;
";

    #[test]
    fn e2e_spec_000_default_listing() {
        let expected = SPEC_LISTING.replace("var<storage, read>", "var<storage>");
        assert_eq!(listing(SPEC_B_SOURCE, &[]), expected);
    }

    #[test]
    fn e2e_bracket_attributes_kept_as_written() {
        let source = SPEC_B_SOURCE
            .replace("struct A {", "[[block]] struct A {")
            .replace("@stride(24)", "[[stride(24)]]")
            .replace("@group(0) @binding(0)", "[[group(0), binding(0)]]");
        let text = listing(&source, &[]);
        assert!(text.contains("/*             align(8)  size(24)  */ [[block]] struct A {\n"));
        assert!(text.contains(
            "/* offset(80)  align(8)  size(72)  */     g : [[stride(24)]] array<A, 3>;\n"
        ));
        assert!(text.ends_with(
            "/*             align(16) size(160) */ @group(0) @binding(0) var<storage> storage_buffer : B;\n"
        ));
    }

    /// spec/000 fix (1): `@align` and `@size` on the structs.
    #[test]
    fn e2e_spec_000_fix_on_structs() {
        let source = SPEC_B_SOURCE
            .replace("struct A {", "@align(16) @size(32) struct A {")
            .replace("struct B {", "@align(16) @size(208) struct B {")
            .replace("@stride(24)", "@stride(32)");
        let expected = "\
/*             align(16) size(32)  */ @align(16) @size(32) struct A {
/* offset(0)   align(4)  size(4)   */     u : f32;
/* offset(4)   align(4)  size(4)   */     v : f32;
/* offset(8)   align(8)  size(8)   */     w : vec2<f32>;
/* offset(16)  align(4)  size(4)   */     x : f32;
/* offset(20)  align(1)  size(12)         -- implicit struct size padding -- */
                                      };

/*             align(16) size(208) */ @align(16) @size(208) struct B {
/* offset(0)   align(8)  size(8)   */     a : vec2<f32>;
/* offset(8)   align(1)  size(8)          -- implicit field alignment padding -- */
/* offset(16)  align(16) size(12)  */     b : vec3<f32>;
/* offset(28)  align(4)  size(4)   */     c : f32;
/* offset(32)  align(4)  size(4)   */     d : f32;
/* offset(36)  align(1)  size(12)         -- implicit field alignment padding -- */
/* offset(48)  align(16) size(32)  */     e : A;
/* offset(80)  align(16) size(12)  */     f : vec3<f32>;
/* offset(92)  align(1)  size(4)          -- implicit field alignment padding -- */
/* offset(96)  align(16) size(96)  */     g : @stride(32) array<A, 3>;
/* offset(192) align(4)  size(4)   */     h : f32;
/* offset(196) align(1)  size(12)         -- implicit struct size padding -- */
                                      };

/*             align(16) size(208) */ @group(0) @binding(0) var<storage> storage_buffer : B;
";
        assert_eq!(listing(&source, &[]), expected);
    }

    /// spec/000 fix (2): `@size`/`@align` on members, printed as written.
    #[test]
    fn e2e_spec_000_fix_on_members() {
        let source = SPEC_B_SOURCE
            .replace("x : f32,", "@size(16) x : f32,")
            .replace("e : A,", "@align(16) e : A,")
            .replace("@stride(24)", "@stride(32)");
        let text = listing(&source, &[]);
        for line in [
            "/*             align(8)  size(32)  */ struct A {\n",
            "/* offset(16)  align(4)  size(16)  */     @size(16) x : f32;\n\
             \x20                                     };\n",
            "/*             align(16) size(208) */ struct B {\n",
            "/* offset(36)  align(1)  size(12)         -- implicit field alignment padding -- */\n",
            "/* offset(48)  align(16) size(32)  */     @align(16) e : A;\n",
            "/* offset(96)  align(8)  size(96)  */     g : @stride(32) array<A, 3>;\n",
            "/* offset(196) align(1)  size(12)         -- implicit struct size padding -- */\n",
        ] {
            assert!(text.contains(line), "missing {line:?} in\n{text}");
        }
    }

    #[test]
    fn e2e_std140_marks_differences() {
        let text = listing(SPEC_B_SOURCE, &[RuleSet::Std140]);
        let expected = STD140_LISTING.replace("var<storage, read>", "var<storage>");
        assert_eq!(text, expected);
    }

    #[test]
    fn e2e_aliases_and_runtime_arrays() {
        let source = "
@size(16) alias RGBX = vec3<f32>;
struct Item { color : RGBX, w : f32 }
struct Items { count : u32, items : array<Item> }
@group(0) @binding(3) var<storage, read_write> items : Items;
";
        let text = listing(source, &[RuleSet::Std430, RuleSet::Scalar]);
        assert!(text.contains("    color : RGBX;\n"), "{text}");
        assert!(text.contains("size(*)"), "{text}");
        assert!(
            text.contains("var<storage, read_write> items : Items;\n"),
            "{text}"
        );
        assert_eq!(text, listing(source, &[RuleSet::Std430, RuleSet::Scalar]));
    }
}
