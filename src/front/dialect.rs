//! The layout dialect of spec/000: `@align`/`@size` on struct and alias
//! declarations, `@stride` on array types, and the `[[a, b(n)]]` syntax.
//! Produces [`Annotations`] (parsed, validated values with spans) and the
//! standard WGSL text naga reads, with dialect text blanked by spaces of the
//! same byte length so that naga's spans stay valid.

use super::scan::{
    code_chars_iter, Attribute, ItemKind, Name, ScannedModule, StructDecl, TypeExpr,
};
use crate::diag::{Diagnostic, Diagnostics, Edit, Fix, Span};
use indexmap::IndexMap;

/// A value with the span of the text it came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spanned<T> {
    pub value: T,
    pub span: Span,
}

/// A type as written at one position, with the dialect's array stride.
/// For `array<T, N>` the element type is `args[0]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TypeAnn {
    /// Name as written: `f32`, `vec3`, `array`, a struct or alias name.
    pub name: Name,
    pub span: Span,
    /// `@stride(n)` on this (array) type.
    pub stride: Option<Spanned<u64>>,
    /// Type arguments that are types (element types of arrays, ...).
    pub args: Vec<TypeAnn>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemberAnn {
    pub name: Name,
    pub name_span: Span,
    /// Whole member span (attributes, name and type).
    pub span: Span,
    /// Standard WGSL member `@align(n)` / `@size(n)` (either syntax).
    pub align: Option<Spanned<u64>>,
    pub size: Option<Spanned<u64>>,
    pub ty: TypeAnn,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StructAnn {
    pub name: Name,
    pub name_span: Span,
    /// From the first attribute to the closing `}`.
    pub span: Span,
    /// Where a struct-level attribute would be inserted (start of the item).
    pub insert_at: usize,
    /// Dialect `@align(n)` / `@size(n)` on the declaration.
    pub align: Option<Spanned<u64>>,
    pub size: Option<Spanned<u64>>,
    pub members: Vec<MemberAnn>,
}

impl StructAnn {
    /// The annotation of member `name`, which is member `index` of naga's
    /// struct. Both lists are in declaration order, so the one at the same
    /// index is tried before the search by name.
    pub fn member(&self, index: usize, name: &str) -> Option<&MemberAnn> {
        match self.members.get(index) {
            Some(m) if m.name == name => Some(m),
            _ => self.members.iter().find(|m| m.name == name),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AliasAnn {
    pub name: Name,
    pub name_span: Span,
    pub span: Span,
    pub align: Option<Spanned<u64>>,
    pub size: Option<Spanned<u64>>,
    pub target: TypeAnn,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GlobalAnn {
    pub name: Name,
    pub name_span: Span,
    pub span: Span,
    pub ty: Option<TypeAnn>,
    /// `@group(g)` written without `@binding` (blanked for naga): the group
    /// in which [`crate::front::bindings`] allocates the binding.
    pub group: Option<Spanned<u32>>,
}

/// Everything the layout builder needs from the source, by name, in
/// declaration order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Annotations {
    pub structs: IndexMap<Name, StructAnn>,
    pub aliases: IndexMap<Name, AliasAnn>,
    pub globals: IndexMap<Name, GlobalAnn>,
    /// Variables of resource structs, split by [`super::split`].
    pub params: Vec<super::split::Param>,
    /// `texture_external` variables, lowered by [`super::external`].
    pub externals: Vec<super::external::External>,
    /// Where the module says `requires uniform_buffer_standard_layout;`
    /// (the name's span): uniform buffers take the storage layout rules.
    pub uniform_standard_layout: Option<Span>,
}

/// The WGSL language extension that lifts the uniform address space's
/// layout constraints; naga 30 does not know it, so the front end takes it
/// out of the text naga sees.
pub const UNIFORM_STANDARD_LAYOUT: &str = "uniform_buffer_standard_layout";

pub struct Lowered {
    pub standard: String,
    pub annotations: Annotations,
    pub warnings: Vec<Diagnostic>,
}

/// Validate dialect attributes that need no type information, collect
/// annotations and blank the dialect text.
pub fn lower(source: &str, scanned: &ScannedModule) -> Result<Lowered, Diagnostics> {
    let aliases = scanned
        .items
        .iter()
        .filter_map(|i| match &i.kind {
            ItemKind::Alias(a) => Some((a.name.clone(), a.ty.name.clone())),
            _ => None,
        })
        .collect();
    let mut cx = Lower {
        src: source,
        out: Vec::new(),
        diags: Vec::new(),
        aliases,
    };
    let (mut n_structs, mut n_aliases, mut n_globals) = (0, 0, 0);
    for item in &scanned.items {
        match item.kind {
            ItemKind::Struct(_) => n_structs += 1,
            ItemKind::Alias(_) => n_aliases += 1,
            ItemKind::Var(_) => n_globals += 1,
            _ => {}
        }
    }
    let mut ann = Annotations {
        structs: IndexMap::with_capacity(n_structs),
        aliases: IndexMap::with_capacity(n_aliases),
        globals: IndexMap::with_capacity(n_globals),
        params: Vec::new(),
        externals: Vec::new(),
        uniform_standard_layout: None,
    };
    for item in &scanned.items {
        let span = item.span.clone();
        match &item.kind {
            ItemKind::Struct(s) => {
                let found = cx.attrs(&item.attrs, Place::Struct);
                let members = s
                    .members
                    .iter()
                    .map(|m| {
                        let f = cx.attrs(&m.attrs, Place::Member);
                        MemberAnn {
                            name: m.name.clone(),
                            name_span: m.name_span.clone(),
                            span: m.span.clone(),
                            align: f.align,
                            size: f.size,
                            ty: cx.type_ann(&m.ty),
                        }
                    })
                    .collect();
                cx.member_separators(s);
                ann.structs.entry(s.name.clone()).or_insert(StructAnn {
                    name: s.name.clone(),
                    name_span: s.name_span.clone(),
                    insert_at: span.start,
                    span,
                    align: found.align,
                    size: found.size,
                    members,
                });
            }
            ItemKind::Alias(a) => {
                let found = cx.attrs(&item.attrs, Place::Alias);
                let target = cx.type_ann(&a.ty);
                ann.aliases.entry(a.name.clone()).or_insert(AliasAnn {
                    name: a.name.clone(),
                    name_span: a.name_span.clone(),
                    span,
                    align: found.align,
                    size: found.size,
                    target,
                });
            }
            ItemKind::Var(v) => {
                let found = cx.attrs(&item.attrs, Place::Decl(VAR));
                let ty = v.ty.as_ref().map(|t| cx.type_ann(t));
                ann.globals.entry(v.name.clone()).or_insert(GlobalAnn {
                    name: v.name.clone(),
                    name_span: v.name_span.clone(),
                    span,
                    ty,
                    group: found.group,
                });
            }
            ItemKind::Const { .. } => {
                cx.attrs(&item.attrs, Place::Decl("a `const` declaration"));
            }
            ItemKind::Override { .. } => {
                cx.attrs(&item.attrs, Place::Decl("an `override` declaration"));
            }
            ItemKind::Fn { .. } => {
                cx.attrs(&item.attrs, Place::Decl("a function"));
            }
            ItemKind::Directive => {
                cx.attrs(&item.attrs, Place::Decl("a directive"));
                if let Some(name) = cx.requires_standard_layout(&span) {
                    ann.uniform_standard_layout.get_or_insert(name);
                }
            }
        }
    }
    // Header attributes are standard (`[[location(0)]]`, ...): rewrite only.
    for r in bracket_lists(&scanned.header_attrs) {
        let keep = vec![true; r.len()];
        cx.rewrite_list(&scanned.header_attrs[r], &keep);
    }
    let diags = cx.diags;
    // Nothing written: the standard text is the source itself, and needs
    // no UTF-8 check.
    let standard = if cx.out.is_empty() {
        Ok(source.to_string())
    } else {
        String::from_utf8(cx.out)
    };
    let standard = match standard {
        Ok(s) => s,
        Err(_) => {
            let mut all = Diagnostics(diags);
            all.push(
                Diagnostic::internal("internal error: blanking the dialect produced invalid UTF-8")
                    .at(0..0, "in this input"),
            );
            return Err(all);
        }
    };
    if diags.iter().any(Diagnostic::is_error) {
        return Err(Diagnostics(diags));
    }
    Ok(Lowered {
        standard,
        annotations: ann,
        warnings: diags,
    })
}

/// Where a list of attributes is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Place<'a> {
    Struct,
    Alias,
    Member,
    /// Before a type; carries the type's name.
    Type(&'a str),
    /// `var`, `const`, `override`, `fn`, directives: the words for messages.
    Decl(&'static str),
}

/// What [`Place::Decl`] says for a `var`.
const VAR: &str = "a `var` declaration";

#[derive(Default)]
struct Found {
    align: Option<Spanned<u64>>,
    size: Option<Spanned<u64>>,
    stride: Option<Spanned<u64>>,
    group: Option<Spanned<u32>>,
}

struct Lower<'a> {
    src: &'a str,
    /// The standard text being produced (same length as `src`); empty until
    /// the first write (see [`Lower::out`]).
    out: Vec<u8>,
    /// Errors and warnings in discovery order.
    diags: Vec<Diagnostic>,
    /// Alias name -> the name of its target type.
    aliases: IndexMap<Name, Name>,
}

/// Index ranges of consecutive attributes written in the same `[[ ]]` list.
fn bracket_lists(attrs: &[Attribute]) -> Vec<std::ops::Range<usize>> {
    let mut lists = Vec::new();
    let mut k = 0;
    while k < attrs.len() {
        let Some(list) = &attrs[k].bracket else {
            k += 1;
            continue;
        };
        let mut e = k + 1;
        while e < attrs.len() && attrs[e].bracket.as_ref() == Some(list) {
            e += 1;
        }
        lists.push(k..e);
        k = e;
    }
    lists
}

/// The stage of a `stage(vertex|fragment|compute)` attribute.
fn old_stage(a: &Attribute) -> Option<&'static str> {
    let [arg] = a.args.as_slice() else {
        return None;
    };
    ["vertex", "fragment", "compute"]
        .into_iter()
        .find(|s| *s == arg.text)
}

/// A required integer literal: decimal or hex, optional `i`/`u` suffix.
pub(crate) fn parse_literal(text: &str) -> Result<u64, &'static str> {
    let digits = text.strip_suffix(['i', 'u']).unwrap_or(text);
    let (digits, radix) = match digits
        .strip_prefix("0x")
        .or_else(|| digits.strip_prefix("0X"))
    {
        Some(h) => (h, 16),
        None => (digits, 10),
    };
    let valid = !digits.is_empty()
        && digits.chars().all(|c| c.is_digit(radix))
        && (radix == 16 || digits == "0" || !digits.starts_with('0'));
    if !valid {
        return Err("an integer literal is required");
    }
    u64::from_str_radix(digits, radix).map_err(|_| "the value does not fit in 64 bits")
}

impl Lower<'_> {
    /// The standard text, copied from the source on the first write.
    fn out(&mut self) -> &mut Vec<u8> {
        if self.out.is_empty() {
            self.out = self.src.as_bytes().to_vec();
        }
        &mut self.out
    }

    /// In a `requires` directive at `span`, the extension
    /// [`UNIFORM_STANDARD_LAYOUT`]: blanked for naga with one comma next to
    /// it (the whole directive when it is the only name); its span.
    fn requires_standard_layout(&mut self, span: &Span) -> Option<Span> {
        let text = self.src.get(span.clone())?;
        let list = text.strip_prefix("requires")?;
        if !list.starts_with(|c: char| c.is_whitespace()) {
            return None;
        }
        let list_start = span.start + "requires".len();
        let list = list.strip_suffix(';').unwrap_or(list);
        // (start, end) of each name, and the commas' positions.
        let mut names = Vec::new();
        let mut commas = Vec::new();
        let mut at = 0;
        for part in list.split(',') {
            let lead = part.len() - part.trim_start().len();
            let name = part.trim();
            if !name.is_empty() {
                let start = list_start + at + lead;
                names.push((start, start + name.len(), name));
            }
            at += part.len();
            if at < list.len() {
                commas.push(list_start + at);
                at += 1;
            }
        }
        let (start, end, _) = *names.iter().find(|n| n.2 == UNIFORM_STANDARD_LAYOUT)?;
        if names.len() == 1 {
            self.blank(span);
        } else {
            self.blank(&(start..end));
            // The comma after the name, else the one before it.
            if let Some(&c) = commas.iter().find(|&&c| c >= end) {
                self.blank(&(c..c + 1));
            } else if let Some(&c) = commas.iter().rev().find(|&&c| c < start) {
                self.blank(&(c..c + 1));
            }
        }
        Some(start..end)
    }

    fn blank(&mut self, span: &Span) {
        let out = self.out();
        let end = span.end.min(out.len());
        for b in &mut out[span.start.min(end)..end] {
            if *b != b'\n' && *b != b'\r' {
                *b = b' ';
            }
        }
    }

    /// `array`, or an alias that resolves to an array type.
    fn is_array(&self, name: &str) -> bool {
        let mut name = name;
        for _ in 0..=self.aliases.len() {
            if name == "array" {
                return true;
            }
            match self.aliases.get(name) {
                Some(target) => name = target,
                None => return false,
            }
        }
        false
    }

    fn set(&mut self, at: usize, byte: u8) {
        if let Some(b) = self.out().get_mut(at) {
            *b = byte;
        }
    }

    fn error(&mut self, d: Diagnostic) {
        self.diags.push(d);
    }

    /// The value of `@name(n)`, validated; errors at the value's span.
    /// The group of `@group(g)` on a `var` without `@binding`: an integer
    /// literal, since stride reads it before naga evaluates anything.
    fn group(&mut self, a: &Attribute) -> Option<Spanned<u32>> {
        let [arg] = a.args.as_slice() else {
            self.error(
                Diagnostic::error("`@group` takes exactly one integer value")
                    .at(a.span.clone(), "write `@group(n)`"),
            );
            return None;
        };
        match parse_literal(arg.text.trim()).map(u32::try_from) {
            Ok(Ok(value)) => Some(Spanned {
                value,
                span: arg.span.clone(),
            }),
            _ => {
                self.error(
                    Diagnostic::error(format!(
                        "`@group({})` without `@binding` needs an integer literal",
                        arg.text
                    ))
                    .at(arg.span.clone(), "not an integer literal")
                    .note("stride allocates the binding of a `var` that omits `@binding`, in the group written as a literal (e.g. `@group(1)`); or write both `@group` and `@binding`"),
                );
                None
            }
        }
    }

    fn value(&mut self, a: &Attribute) -> Option<Spanned<u64>> {
        let name = &a.name;
        let [arg] = a.args.as_slice() else {
            let what = if a.args.is_empty() {
                "requires"
            } else {
                "takes exactly"
            };
            self.error(
                Diagnostic::error(format!("`@{name}` {what} one integer value"))
                    .at(a.span.clone(), format!("write `@{name}(n)`")),
            );
            return None;
        };
        let value = match parse_literal(arg.text.trim()) {
            Ok(v) => v,
            Err(why) => {
                self.error(
                    Diagnostic::error(format!("`@{name}` value `{}`: {why}", arg.text))
                        .at(arg.span.clone(), why)
                        .note(
                            "layout attribute values must be integer literals, e.g. `16` or `0x10`",
                        ),
                );
                return None;
            }
        };
        if value == 0 {
            self.error(
                Diagnostic::error(format!("`@{name}` must not be zero"))
                    .at(arg.span.clone(), "zero is not allowed here"),
            );
            return None;
        }
        let limit = crate::layout::rules::MAX_BYTES;
        if value > limit {
            // naga's own arithmetic on member @size/@align can overflow
            // (and panic) past this, and no buffer is that large.
            self.error(
                Diagnostic::error(format!(
                    "`@{name}({value})` is larger than the {limit} bytes a buffer can address"
                ))
                .at(arg.span.clone(), "too large"),
            );
            return None;
        }
        if name == "align" && !value.is_power_of_two() {
            let lower = 1u64 << (63 - value.leading_zeros());
            self.error(
                Diagnostic::error(format!("alignment {value} is not a power of two"))
                    .at(arg.span.clone(), "not a power of two")
                    .note(format!(
                        "the nearest powers of two are {lower} and {}",
                        lower.saturating_mul(2)
                    )),
            );
            return None;
        }
        Some(Spanned {
            value,
            span: arg.span.clone(),
        })
    }

    /// Check, record and rewrite the attributes of one thing.
    fn attrs(&mut self, attrs: &[Attribute], place: Place<'_>) -> Found {
        let mut found = Found::default();
        if attrs.is_empty() {
            return found;
        }
        // Whether each attribute stays in the standard text; on the stack
        // for the usual handful of attributes.
        let mut small = [true; 8];
        let mut large = Vec::new();
        let keep: &mut [bool] = match small.get_mut(..attrs.len()) {
            Some(keep) => keep,
            None => {
                large.resize(attrs.len(), true);
                &mut large
            }
        };
        let mut stages = Vec::new();
        for (k, a) in attrs.iter().enumerate() {
            if a.name != "diagnostic" {
                if let Some(first) = attrs[..k].iter().find(|b| b.name == a.name) {
                    self.error(
                        Diagnostic::error(format!("duplicate attribute `{}`", a.name))
                            .at(a.span.clone(), "written again here")
                            .also(first.span.clone(), "first written here"),
                    );
                    continue;
                }
            }
            match (a.name.as_str(), place) {
                ("align" | "size", Place::Struct | Place::Alias | Place::Member) => {
                    let v = self.value(a);
                    if a.name == "align" {
                        found.align = v;
                    } else {
                        found.size = v;
                    }
                    // Blanked on members too, though standard WGSL: naga
                    // checks a member `@size` against its own size of the
                    // member's type, which ignores the dialect (a struct
                    // `@size(40)` that naga sizes at 64 would reject
                    // `@size(40)` on a member of that type). The layout
                    // builder checks member values against the contract.
                    keep[k] = false;
                }
                ("align" | "size", Place::Type(ty)) => self.error(
                    Diagnostic::error(format!("`{}` has no meaning on a type", a.name))
                        .at(a.span.clone(), format!("`{}` on the type `{ty}`", a.name))
                        .note(format!(
                            "put `@{0}` on the struct member, or declare `@{0}(n) alias Name = {ty}...;`",
                            a.name
                        )),
                ),
                ("align" | "size", Place::Decl(what)) => self.error(
                    Diagnostic::error(format!("`{}` has no meaning on {what}", a.name))
                        .at(a.span.clone(), "not allowed here")
                        .note("`@align`/`@size` apply to struct members, struct declarations and type aliases"),
                ),
                ("stride", Place::Type(ty)) if self.is_array(ty) => {
                    found.stride = self.value(a);
                    keep[k] = false;
                }
                ("stride", Place::Type(ty)) => self.error(
                    Diagnostic::error(format!("`stride` applies to array types, not `{ty}`"))
                        .at(a.span.clone(), "not an array type"),
                ),
                ("stride", _) => {
                    let what = match place {
                        Place::Struct => "a struct declaration",
                        Place::Alias => "an alias declaration",
                        Place::Member => "a struct member",
                        Place::Decl(what) => what,
                        Place::Type(_) => "a type",
                    };
                    self.error(
                        Diagnostic::error(format!("`stride` has no meaning on {what}"))
                            .at(a.span.clone(), "not allowed here")
                            .note("`@stride(n)` goes on the array type, e.g. `g: @stride(32) array<A, 3>`"),
                    );
                }
                ("block", Place::Struct) => {
                    keep[k] = false;
                    self.block_warning(attrs, k);
                }
                ("group", Place::Decl(VAR)) if !attrs.iter().any(|b| b.name == "binding") => {
                    // The dialect may omit `@binding`; naga needs both or
                    // neither, so the group goes to the allocator.
                    keep[k] = false;
                    found.group = self.group(a);
                }
                ("stage", Place::Decl(_)) => {
                    if let Some(stage) = old_stage(a) {
                        stages.push((a, stage));
                    }
                }
                _ => {}
            }
        }
        // `@` syntax: blank what is not kept.
        for (a, &kept) in attrs.iter().zip(keep.iter()) {
            if a.bracket.is_none() && !kept {
                self.blank(&a.span);
            }
        }
        // `[[ ]]` syntax: rewrite each list in place.
        for r in bracket_lists(attrs) {
            self.rewrite_list(&attrs[r.clone()], &keep[r]);
        }
        for (a, stage) in stages {
            self.old_stage(a, stage);
        }
        found
    }

    /// For each attribute of a bracket list, the `,` after it, if any.
    fn list_commas(&self, list: &[Attribute]) -> Vec<Option<usize>> {
        let Some(lspan) = list.first().and_then(|a| a.bracket.clone()) else {
            return Vec::new();
        };
        let inner_end = lspan.end.saturating_sub(2);
        (0..list.len())
            .map(|k| {
                let to = list.get(k + 1).map_or(inner_end, |b| b.span.start);
                code_chars_iter(self.src, list[k].span.end..to)
                    .find(|&(_, c)| c == ',')
                    .map(|(at, _)| at)
            })
            .collect()
    }

    /// `[[a, b(n), c]]` -> ` @a@ b(n)@ c  `, with the attributes not kept
    /// blanked (and their `@` slot left a space).
    fn rewrite_list(&mut self, list: &[Attribute], keep: &[bool]) {
        let Some(lspan) = list.first().and_then(|a| a.bracket.clone()) else {
            return;
        };
        let commas = self.list_commas(list);
        self.blank(&(lspan.start..lspan.start + 2));
        self.blank(&(lspan.end.saturating_sub(2)..lspan.end));
        for c in commas.iter().flatten() {
            self.set(*c, b' ');
        }
        for (k, a) in list.iter().enumerate() {
            if keep.get(k).copied().unwrap_or(true) {
                let slot = if k == 0 {
                    Some(lspan.start + 1)
                } else {
                    commas[k - 1]
                };
                if let Some(at) = slot {
                    self.set(at, b'@');
                }
            } else {
                self.blank(&a.span);
            }
        }
    }

    /// `stage(compute)` (the proposal's spelling) -> `compute`, in place.
    fn old_stage(&mut self, a: &Attribute, stage: &str) {
        let new = if a.bracket.is_some() {
            stage.to_string()
        } else {
            format!("@{stage}")
        };
        self.blank(&a.span);
        for (i, b) in new.bytes().enumerate() {
            self.set(a.span.start + i, b);
        }
        self.diags.push(
            Diagnostic::warning(format!(
                "`stage({stage})` is the old spelling of `@{stage}`"
            ))
            .at(a.span.clone(), format!("write `{new}`"))
            .fix(Fix {
                title: format!("write `{new}`"),
                edits: vec![Edit {
                    span: a.span.clone(),
                    replacement: new.clone(),
                }],
                outcome: "same entry point".to_string(),
            }),
        );
    }

    fn block_warning(&mut self, attrs: &[Attribute], k: usize) {
        let a = &attrs[k];
        // What to delete: the attribute, its list when alone, or the
        // attribute with one of its separators.
        let mut delete = a.span.clone();
        if let Some(r) = bracket_lists(attrs).into_iter().find(|r| r.contains(&k)) {
            let list = &attrs[r.clone()];
            let pos = k - r.start;
            let commas = self.list_commas(list);
            if list.len() == 1 {
                delete = a.bracket.clone().unwrap_or(delete);
            } else if pos == 0 {
                if let Some(next) = list.get(1) {
                    delete = a.span.start..next.span.start;
                }
            } else if let Some(Some(c)) = commas.get(pos - 1) {
                delete = *c..a.span.end;
            }
        }
        self.diags.push(
            Diagnostic::warning("`block` is deprecated and has no effect")
                .at(a.span.clone(), "delete this attribute")
                .note("buffer structs need no marker in WGSL; the attribute is ignored")
                .fix(Fix {
                    title: "delete the `block` attribute".to_string(),
                    edits: vec![Edit {
                        span: delete,
                        replacement: String::new(),
                    }],
                    outcome: "no change to the layout".to_string(),
                }),
        );
    }

    /// A type position: check its attributes and recurse into type arguments.
    fn type_ann(&mut self, t: &TypeExpr) -> TypeAnn {
        let found = self.attrs(&t.attrs, Place::Type(&t.name));
        let args = t
            .args
            .iter()
            .filter_map(|a| a.ty.as_ref())
            .map(|a| self.type_ann(a))
            .collect();
        TypeAnn {
            name: t.name.clone(),
            span: t.span.clone(),
            stride: found.stride,
            args,
        }
    }

    /// naga wants `,` between struct members: rewrite `;` separators.
    fn member_separators(&mut self, s: &StructDecl) {
        let body_end = s.body_span.end.saturating_sub(1);
        for (k, m) in s.members.iter().enumerate() {
            let to = s.members.get(k + 1).map_or(body_end, |n| n.span.start);
            // Usually a `,` and blankspace: with no `;` byte at all (in
            // code or comment) there is nothing to rewrite.
            let between = self.src.as_bytes().get(m.span.end..to);
            if between.is_some_and(|b| !b.contains(&b';')) {
                continue;
            }
            for (at, c) in code_chars_iter(self.src, m.span.end..to) {
                if c == ';' {
                    self.set(at, b',');
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::front::scan::scan;

    fn lower_ok(src: &str) -> Lowered {
        let scanned = match scan(src) {
            Ok(s) => s,
            Err(e) => panic!("scan failed: {e}"),
        };
        match lower(src, &scanned) {
            Ok(l) => {
                assert_eq!(l.standard.len(), src.len(), "byte length changed");
                let lines = |s: &str| s.match_indices('\n').map(|(i, _)| i).collect::<Vec<_>>();
                assert_eq!(lines(&l.standard), lines(src), "line structure changed");
                l
            }
            Err(e) => panic!("lower failed: {e}"),
        }
    }

    #[test]
    fn uniform_standard_layout_is_taken_out_of_requires() {
        let decl = "struct S { a: f32 }\n@group(0) @binding(0) var<uniform> u: S;\n";
        // Alone, first, middle, last, with a trailing comma.
        for (directive, rest) in [
            ("requires uniform_buffer_standard_layout;", ""),
            (
                "requires uniform_buffer_standard_layout, pointer_composite_access;",
                "requires pointer_composite_access",
            ),
            (
                "requires pointer_composite_access, uniform_buffer_standard_layout;",
                "requires pointer_composite_access",
            ),
            (
                "requires packed_4x8_integer_dot_product, uniform_buffer_standard_layout, pointer_composite_access,;",
                "requires packed_4x8_integer_dot_product,",
            ),
        ] {
            let src = format!("{directive}\n{decl}");
            let l = lower_ok(&src);
            let span = l
                .annotations
                .uniform_standard_layout
                .clone()
                .unwrap_or_else(|| panic!("not found in `{directive}`"));
            assert_eq!(&src[span], UNIFORM_STANDARD_LAYOUT);
            assert!(
                !l.standard.contains(UNIFORM_STANDARD_LAYOUT),
                "{}",
                l.standard
            );
            let squeezed: String = l.standard.split_whitespace().collect::<Vec<_>>().join(" ");
            assert!(squeezed.starts_with(rest), "`{directive}` -> `{squeezed}`");
            naga_ok(&l.standard);
        }
        // Not a `requires` directive, or another extension: nothing found.
        for src in [
            format!("requires pointer_composite_access;\n{decl}"),
            format!("enable f16;\n{decl}"),
            decl.to_string(),
        ] {
            assert!(lower_ok(&src).annotations.uniform_standard_layout.is_none());
        }
    }

    fn naga_ok(standard: &str) -> naga::Module {
        match naga::front::wgsl::parse_str(standard) {
            Ok(m) => m,
            Err(e) => panic!("naga rejected:\n{standard}\n{}", e.emit_to_string(standard)),
        }
    }

    /// The first error of `lower`, with the text at its primary span.
    fn lower_err(src: &str) -> (Diagnostic, String) {
        let scanned = match scan(src) {
            Ok(s) => s,
            Err(e) => panic!("scan failed: {e}"),
        };
        let diags = match lower(src, &scanned) {
            Ok(l) => panic!("expected an error, got {:?}", l.standard),
            Err(e) => e,
        };
        let d = match diags.0.into_iter().find(Diagnostic::is_error) {
            Some(d) => d,
            None => panic!("no error diagnostic"),
        };
        let text = d
            .primary_span()
            .map(|s| src[s].to_string())
            .unwrap_or_default();
        (d, text)
    }

    #[test]
    fn bracket_syntax_is_rewritten_to_standard_attributes() {
        let src = "struct U { [[align(16)]] a: f32, [[size(32), align(16)]] b: vec2<f32> }\n\
                   [[group(0), binding(0)]] var<uniform> u: U;\n\
                   [[group(0) , /* two */ binding(1)]] var<storage, read_write> s: array<u32>;\n\
                   @compute @workgroup_size(1) fn main([[builtin(global_invocation_id)]] id: vec3<u32>) { s[id.x] = u32(u.a); }\n";
        let l = lower_ok(src);
        assert!(
            l.standard.contains(" @group(0)@ binding(0)   var<uniform>"),
            "{}",
            l.standard
        );
        let m = naga_ok(&l.standard);
        let bindings: Vec<_> = m
            .global_variables
            .iter()
            .filter_map(|(_, g)| g.binding)
            .collect();
        assert_eq!(bindings.len(), 2);
        assert_eq!(bindings[1].binding, 1);
        let u = &l.annotations.structs["U"];
        assert_eq!(u.members[0].align.as_ref().map(|v| v.value), Some(16));
        assert_eq!(u.members[1].size.as_ref().map(|v| v.value), Some(32));
        assert_eq!(
            u.members[1].size.as_ref().map(|v| &src[v.span.clone()]),
            Some("32")
        );
    }

    #[test]
    fn dialect_text_is_blanked_in_place() {
        let src = "@align(16) @size(32)\nstruct A { x: f32 }\n@size(16) alias RGBX = vec3<f32>;\n\
                   struct B { g: @stride(32) array<A, 3>, n: array<@stride(16) array<f32, 2>, 2> }\n\
                   @group(0) @binding(0) var<storage> b: B;\n";
        let l = lower_ok(src);
        let mut expected = src.to_string();
        for dialect in [
            "@align(16) @size(32)",
            "@size(16)",
            "@stride(32)",
            "@stride(16)",
        ] {
            expected = expected.replacen(dialect, &" ".repeat(dialect.len()), 1);
        }
        assert_eq!(l.standard, expected);
        naga_ok(&l.standard);
        let a = &l.annotations.structs["A"];
        assert_eq!(
            (
                a.align.as_ref().map(|v| v.value),
                a.size.as_ref().map(|v| v.value)
            ),
            (Some(16), Some(32))
        );
        assert_eq!(a.insert_at, 0);
        assert_eq!(
            &src[a.span.clone()],
            "@align(16) @size(32)\nstruct A { x: f32 }"
        );
        let rgbx = &l.annotations.aliases["RGBX"];
        assert_eq!(rgbx.size.as_ref().map(|v| v.value), Some(16));
        assert_eq!(rgbx.align, None);
        assert_eq!(rgbx.target.name, "vec3");
        assert_eq!(rgbx.target.args[0].name, "f32");
        let b = &l.annotations.structs["B"];
        let g = &b.members[0].ty;
        assert_eq!(g.name, "array");
        assert_eq!(g.stride.as_ref().map(|v| v.value), Some(32));
        assert_eq!(g.stride.as_ref().map(|v| &src[v.span.clone()]), Some("32"));
        assert_eq!(g.args.len(), 1);
        assert_eq!(g.args[0].name, "A");
        let n = &b.members[1].ty;
        assert_eq!(n.stride, None);
        assert_eq!(n.args[0].stride.as_ref().map(|v| v.value), Some(16));
        let global = &l.annotations.globals["b"];
        assert_eq!(global.ty.as_ref().map(|t| t.name.as_str()), Some("B"));
    }

    #[test]
    fn stride_on_a_global_var_type() {
        let src = "@group(0) @binding(0) var<storage, read> xs: [[stride(16)]] array<f32>;\n";
        let l = lower_ok(src);
        naga_ok(&l.standard);
        let ty = l.annotations.globals["xs"].ty.clone();
        assert_eq!(ty.and_then(|t| t.stride).map(|v| v.value), Some(16));
    }

    #[test]
    fn spec_000_example_b_in_bracket_syntax_parses() {
        let src = "\
[[block]] struct A {
    u : f32;
    v : f32;
    w : vec2<f32>;
    x : f32;
};

[[block]] struct B {
    a : vec2<f32>;
    b : vec3<f32>;
    c : f32;
    d : f32;
    e : A;
    f : vec3<f32>;
    g : [[stride(24)]] array<A, 3>;
    h : f32;
};

[[group(0), binding(0)]]
var<storage> storage_buffer : B;
";
        let l = lower_ok(src);
        let m = naga_ok(&l.standard);
        assert_eq!(m.global_variables.len(), 1);
        assert_eq!(l.warnings.len(), 2);
        assert!(l
            .warnings
            .iter()
            .all(|w| !w.is_error() && w.message.contains("block")));
        let b = &l.annotations.structs["B"];
        let names: Vec<&str> = b.members.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(names, ["a", "b", "c", "d", "e", "f", "g", "h"]);
        assert_eq!(b.members[6].ty.stride.as_ref().map(|v| v.value), Some(24));
        assert_eq!(
            &src[b.members[6].span.clone()],
            "g : [[stride(24)]] array<A, 3>"
        );
        assert_eq!(&src[b.name_span.clone()], "B");
    }

    #[test]
    fn block_is_a_warning_with_a_working_fix() {
        let src = "[[block]] struct A { x: f32 }\n@block struct B { y: f32 }\n[[block, align(16)]] struct C { z: f32 }\n";
        let l = lower_ok(src);
        naga_ok(&l.standard);
        assert_eq!(l.warnings.len(), 3);
        let spans: Vec<&str> = l
            .warnings
            .iter()
            .filter_map(|w| w.primary_span())
            .map(|s| &src[s])
            .collect();
        assert_eq!(spans, ["block", "@block", "block"]);
        let mut fixed = src.to_string();
        for w in l.warnings.iter().rev() {
            fixed = w.fixes[0].apply(&fixed);
        }
        assert_eq!(
            fixed,
            " struct A { x: f32 }\n struct B { y: f32 }\n[[align(16)]] struct C { z: f32 }\n"
        );
        let again = lower_ok(&fixed);
        assert!(again.warnings.is_empty());
    }

    #[test]
    fn zero_values_are_errors_at_the_value() {
        let (d, at) = lower_err("struct S { @size(0) x: f32 }");
        assert!(d.message.contains("zero"));
        assert_eq!(at, "0");
        let (_, at) = lower_err("struct S { x: @stride(0x0) array<f32, 2> }");
        assert_eq!(at, "0x0");
    }

    #[test]
    fn align_must_be_a_power_of_two() {
        let (d, at) = lower_err("[[align(12)]] struct S { x: f32 }");
        assert!(d.message.contains("power of two"));
        assert_eq!(at, "12");
    }

    #[test]
    fn values_must_be_integer_literals() {
        for (src, want) in [
            ("struct S { @align(N) x: f32 }", "N"),
            ("struct S { @align(4.0) x: f32 }", "4.0"),
            ("@size(2 * 8) struct S { x: f32 }", "2 * 8"),
            ("struct S { x: @stride(-4) array<f32, 2> }", "-4"),
            ("struct S { x: @stride(016) array<f32, 2> }", "016"),
        ] {
            let (d, at) = lower_err(src);
            assert!(d.message.contains("literal"), "{src}: {}", d.message);
            assert_eq!(at, want, "{src}");
        }
        let l = lower_ok("@size(0x20u) @align(16i) struct S { x: f32 }");
        let s = &l.annotations.structs["S"];
        assert_eq!(s.size.as_ref().map(|v| v.value), Some(32));
        assert_eq!(s.align.as_ref().map(|v| v.value), Some(16));
    }

    #[test]
    fn values_past_the_buffer_limit_are_errors() {
        // naga 30 panics on `@size(4294967292)` (its member offset sum
        // overflows); stride stops it here.
        for src in [
            "struct S { a: u32, @size(4294967292) b: u32 }",
            "struct S { @align(2147483648) a: u32 }",
            "struct S { a: @stride(2147483648) array<u32, 2> }",
        ] {
            let (d, _) = lower_err(src);
            assert!(d.message.contains("larger than"), "{src}: {}", d.message);
        }
        lower_ok("struct S { @size(2147483647) a: u32 }");
    }

    #[test]
    fn values_that_overflow_u64_are_errors() {
        let (d, at) = lower_err("@size(18446744073709551616) struct S { x: f32 }");
        assert!(d.message.contains("64 bits"));
        assert_eq!(at, "18446744073709551616");
        // Fits in 64 bits, so it fails on the buffer limit instead.
        let (d, at) = lower_err("@size(18446744073709551615) struct S { x: f32 }");
        assert!(d.message.contains("larger than"), "{}", d.message);
        assert_eq!(at, "18446744073709551615");
    }

    #[test]
    fn missing_or_extra_values_are_errors() {
        let (d, at) = lower_err("@align struct S { x: f32 }");
        assert!(d.message.contains("requires"));
        assert_eq!(at, "@align");
        let (_, at) = lower_err("[[size(4, 8)]] struct S { x: f32 }");
        assert_eq!(at, "size(4, 8)");
    }

    #[test]
    fn duplicate_attributes_across_both_syntaxes() {
        let (d, at) = lower_err("[[align(16)]] @align(16) struct S { x: f32 }");
        assert!(d.message.contains("duplicate"));
        assert_eq!(at, "@align(16)");
        assert_eq!(d.labels.len(), 2);
        let (_, at) = lower_err("struct S { @size(8) [[size(8)]] x: f32 }");
        assert_eq!(at, "size(8)");
        let (_, at) = lower_err("struct S { x: [[stride(8), stride(8)]] array<f32, 2> }");
        assert_eq!(at, "stride(8)");
        let (_, at) = lower_err("@group(0) @group(0) @binding(0) var<uniform> u: f32;");
        assert_eq!(at, "@group(0)");
    }

    #[test]
    fn attributes_where_they_mean_nothing() {
        for (src, want) in [
            ("struct S { x: @stride(16) vec4<f32> }", "@stride(16)"),
            ("@stride(16) struct S { x: f32 }", "@stride(16)"),
            ("struct S { @stride(16) x: array<f32, 2> }", "@stride(16)"),
            (
                "@group(0) @binding(0) @stride(4) var<storage> v: array<f32>;",
                "@stride(4)",
            ),
            (
                "@size(4) alias X = f32; [[stride(4)]] alias Y = array<f32, 2>;",
                "stride(4)",
            ),
            ("@align(16) var<private> p: f32;", "@align(16)"),
            ("@size(16) fn f() {}", "@size(16)"),
            ("@align(4) const c = 1;", "@align(4)"),
            ("struct S { x: @align(16) f32 }", "@align(16)"),
        ] {
            let (d, at) = lower_err(src);
            assert!(
                d.message.contains("no meaning") || d.message.contains("applies to"),
                "{src}: {}",
                d.message
            );
            assert_eq!(at, want, "{src}");
        }
    }

    #[test]
    fn semicolons_and_comments_inside_struct_bodies() {
        let src = "struct S {\n  a: f32; // b: f32;\n  /* ; */ b: vec4<f32>;\n};\n";
        let l = lower_ok(src);
        assert_eq!(
            l.standard,
            "struct S {\n  a: f32, // b: f32;\n  /* ; */ b: vec4<f32>,\n};\n"
        );
        naga_ok(&l.standard);
    }

    #[test]
    fn parse_runs_end_to_end() {
        let src = "@size(16) alias RGBX = vec3<f32>;\n\
                   struct Light { color: RGBX, g: @stride(32) array<vec4<f32>, 3> }\n\
                   [[group(0), binding(0)]] var<storage, read> light: Light;\n\
                   @fragment fn main() -> @location(0) vec4<f32> { return vec4<f32>(light.color, 1.0); }\n";
        let parsed = match crate::front::parse(src) {
            Ok(p) => p,
            Err(e) => panic!("{}", e.render("t.wgsl", src, false)),
        };
        assert_eq!(parsed.standard.len(), src.len());
        assert_eq!(
            parsed.annotations.globals["light"]
                .ty
                .as_ref()
                .map(|t| t.name.as_str()),
            Some("Light")
        );
        assert_eq!(parsed.module.entry_points.len(), 1);
    }

    #[test]
    fn naga_errors_point_into_the_original_source() {
        let src = "@size(16) alias RGBX = vec3<f32>;\nstruct S { x: RGBX, y: Missing }\n";
        let e = match crate::front::parse(src) {
            Ok(_) => panic!("expected an error"),
            Err(e) => e,
        };
        let span = e.0[0].primary_span();
        assert_eq!(span.map(|s| &src[s]), Some("Missing"));
    }

    #[test]
    fn old_stage_attribute_becomes_a_stage_attribute() {
        let src = "[[stage(compute), workgroup_size(1)]]\nfn main([[builtin(global_invocation_id)]] id: vec3<u32>) {}\n\
                   @stage(fragment) fn fs() -> [[location(0)]] vec4<f32> { return vec4<f32>(1.0); }\n";
        let l = lower_ok(src);
        let m = naga_ok(&l.standard);
        assert_eq!(m.entry_points.len(), 2);
        assert_eq!(l.warnings.len(), 2);
        let mut fixed = src.to_string();
        for w in l.warnings.iter().rev() {
            fixed = w.fixes[0].apply(&fixed);
        }
        assert!(
            fixed.starts_with("[[compute, workgroup_size(1)]]"),
            "{fixed}"
        );
        assert!(fixed.contains("@fragment fn fs()"), "{fixed}");
        assert!(lower_ok(&fixed).warnings.is_empty());
    }

    #[test]
    fn truncations_and_deletions_never_panic() {
        let src = "[[block]] struct A { u: f32; [[align(16)]] v: vec2<f32>, /* c /* n */ */ }\n\
                   @size(16) alias é = vec3<f32>; // é\n\
                   struct B { g: [[stride(32)]] array<array<A, 2>, N * 2>, h: @stride(16) array<f32> }\n\
                   [[group(0), binding(0)]] var<storage, read_write> b: B;\n\
                   @compute @workgroup_size(1) fn main([[builtin(local_invocation_index)]] i: u32) { { } }\n";
        let cuts: Vec<usize> = src.char_indices().map(|(i, _)| i).collect();
        for &cut in &cuts {
            for text in [
                src[..cut].to_string(),
                format!(
                    "{}{}",
                    &src[..cut],
                    &src[cut..].chars().skip(1).collect::<String>()
                ),
            ] {
                if let Ok(scanned) = scan(&text) {
                    if let Ok(l) = lower(&text, &scanned) {
                        assert_eq!(l.standard.len(), text.len());
                    }
                }
            }
        }
    }

    #[test]
    fn stride_on_an_alias_of_an_array() {
        let src = "struct S { x: @stride(32) Y }\nalias Y = X;\nalias X = array<vec4<f32>, 2>;\nalias L = L2; alias L2 = L;";
        let l = lower_ok(src);
        naga_ok(&l.standard[..src.find("\nalias L").unwrap_or(src.len())]);
        let x = &l.annotations.structs["S"].members[0].ty;
        assert_eq!(
            (x.name.as_str(), x.stride.as_ref().map(|v| v.value)),
            ("Y", Some(32))
        );
        let (_, at) = lower_err("alias L = L2; alias L2 = L; struct S { x: @stride(4) L }");
        assert_eq!(at, "@stride(4)");
    }
}
