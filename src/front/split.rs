//! Resource structs: the dialect's structs that mix data members with
//! resources (textures, samplers, binding arrays), split the way
//! ../shared/spec/001 describes under "Splitting of Arrays".
//!
//! ```wgsl
//! struct LightInfo { pos: vec3<f32>, shadowMap: texture_2d<f32> }
//! @group(0) var gLight: LightInfo;
//! ```
//!
//! A module-scope `var` of such a type (declared without an address space)
//! is a *parameter*. Its data members stay in the struct and go into one
//! uniform buffer named after the variable (`var<uniform> gLight:
//! LightInfo`), bound first; each resource member becomes its own global
//! named `<var>_<member>` (`gLight_shadowMap`), bound after it in member
//! order. Nested resource structs add their member names to the path
//! (`scene_light_shadowMap`). An array of such structs splits into one
//! binding array per resource member: `var gPairs: array<Pair, 8>` gives
//! `gPairs_a` and `gPairs_b`, each `binding_array<..., 8>`, and an access
//! `gPairs[i].a` becomes `gPairs_a[i]`.
//!
//! The rewrite is text to text, before naga parses the module:
//! - the resource members of the struct declarations are blanked (a struct
//!   left without data members is blanked whole);
//! - the parameter's declaration is blanked and the split declarations are
//!   appended after the end of the source;
//! - every access in a function body is rewritten in place, padded with
//!   spaces to the same length.
//!
//! So every byte of the source keeps its offset except inside the index
//! expressions that move (`gPairs[i].a` -> `gPairs_a[i]` moves `i` two
//! bytes right) and the appended text; [`SourceMap`] maps those back, and
//! `front::parse` applies it to every diagnostic and to naga's global spans.

use super::dialect::{parse_literal, Annotations, GlobalAnn};
use super::scan::{self, ItemKind, LexKind, Name, ScannedModule, StructDecl, TypeExpr};
use crate::diag::{Diagnostic, Diagnostics, Edit, Fix, Span};
use indexmap::IndexMap;
use std::collections::HashMap;

/// Where text of the rewritten source came from in the original.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SourceMap {
    /// Length of the original source: offsets below it that no segment
    /// covers are unchanged.
    original_len: usize,
    segments: Vec<Segment>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Segment {
    new: Span,
    orig: Span,
    /// The text moved as it is: offsets map one to one. Otherwise every
    /// span inside maps to all of `orig`.
    shift: bool,
}

impl SourceMap {
    pub fn is_empty(&self) -> bool {
        self.segments.is_empty()
    }

    /// The original span of `span` in the rewritten source.
    pub fn span(&self, span: &Span) -> Span {
        if self.segments.is_empty() && self.original_len == 0 {
            // No split: the texts are one.
            return span.clone();
        }
        let seg = self
            .segments
            .iter()
            .filter(|g| g.new.start <= span.start && span.start < g.new.end.max(g.new.start + 1))
            .min_by_key(|g| g.new.len());
        let mapped = match seg {
            None => {
                let end = span.end.min(self.original_len).max(span.start);
                span.start..end
            }
            Some(g) if g.shift => {
                let start = span.start - g.new.start + g.orig.start;
                let end = if span.end <= g.new.end {
                    span.end - g.new.start + g.orig.start
                } else {
                    g.orig.end
                };
                start..end.max(start)
            }
            Some(g) => g.orig.clone(),
        };
        // The split source ends with a line break the original may lack,
        // and a segment can end past the original: stay inside it.
        let end = mapped.end.min(self.original_len);
        mapped.start.min(end)..end
    }

    /// Map every label and fix of `d` to the original source.
    pub fn diagnostic(&self, d: &mut Diagnostic) {
        if self.segments.is_empty() {
            return;
        }
        for l in &mut d.labels {
            l.span = self.span(&l.span);
        }
        for f in &mut d.fixes {
            for e in &mut f.edits {
                e.span = self.span(&e.span);
            }
        }
    }

    /// Map appended text `new` as a whole to `orig` (a source of
    /// `original_len` bytes).
    pub(crate) fn append(&mut self, original_len: usize, new: Span, orig: Span) {
        self.original_len = original_len;
        self.segments.push(Segment {
            new,
            orig,
            shift: false,
        });
    }

    pub fn diagnostics(&self, ds: &mut Diagnostics) {
        for d in &mut ds.0 {
            self.diagnostic(d);
        }
    }
}

/// A parameter: a module-scope `var` whose type is a resource struct or an
/// array of one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Param {
    pub name: Name,
    pub name_span: Span,
    /// The whole declaration.
    pub span: Span,
    /// The type as written.
    pub ty: String,
    /// The resource struct (the element type of an array parameter).
    pub ty_struct: Name,
    /// For an array parameter, its element count as written (`None` for a
    /// runtime-sized one); `None` when the parameter is not an array.
    pub array: Option<Option<String>>,
    /// `@binding(n)` as written: the first binding of the parameter's range.
    pub binding: Option<u32>,
    /// `@group(n)` as written (the text of its argument).
    pub group: Option<String>,
    /// Whether the struct has data members: then a uniform buffer named
    /// like the parameter holds them, and takes the first binding.
    pub data: bool,
    /// The resource members, in binding order.
    pub fields: Vec<Field>,
}

impl Param {
    /// The globals the parameter becomes, in binding order.
    pub fn globals(&self) -> impl Iterator<Item = &str> {
        self.data
            .then_some(self.name.as_str())
            .into_iter()
            .chain(self.fields.iter().map(|f| f.global.as_str()))
    }
}

/// One resource member of a parameter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field {
    /// Member names from the parameter down, joined by `.`: `a`,
    /// `light.shadowMap`.
    pub path: String,
    /// The split global: `<var>_<path with _>`.
    pub global: Name,
    /// Its WGSL type.
    pub ty: String,
    /// The member's declaration.
    pub span: Span,
    /// Its binding, where the parameter's `@binding` is written (a
    /// `texture_external` member takes this one and the next two: plane 1
    /// and its parameter buffer, `front::external`).
    pub binding: Option<u32>,
}

impl Field {
    /// Whether the member is a `texture_external`: three bindings, plane
    /// 0 (this global) and the plane 1 and parameter buffer
    /// `front::external` declares after it.
    pub fn is_external(&self) -> bool {
        self.ty == "texture_external"
    }
}

/// The result of [`split`].
pub struct Split {
    pub standard: String,
    pub map: SourceMap,
    /// Directives the split needs that the source lacks (`enable
    /// wgpu_binding_array;` for the binding arrays it made), for naga to
    /// read before `standard`; spans stay those of `standard`
    /// ([`unprefix`]).
    pub prefix: &'static str,
}

/// What [`split`] puts before the split source when it made binding
/// arrays and the source does not enable them.
const BINDING_ARRAY_PREFIX: &str = "enable wgpu_binding_array;\n";

/// What a type is, seen from a resource struct.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind<'a> {
    Data,
    /// A texture, sampler or acceleration structure.
    Leaf,
    /// A struct with resources.
    Res(&'a str),
}

/// One array level around a member or parameter type.
#[derive(Clone, Debug)]
struct Level {
    /// The count as written; `None` for a runtime-sized array.
    count: Option<String>,
    span: Span,
}

/// A type resolved through aliases: its kind, the array levels around it
/// (outermost first) and the innermost type as written.
struct Shape<'a> {
    kind: Kind<'a>,
    levels: Vec<Level>,
    inner: &'a TypeExpr,
}

fn is_leaf_name(name: &str) -> bool {
    name.starts_with("texture_")
        || matches!(
            name,
            "sampler" | "sampler_comparison" | "acceleration_structure"
        )
}

struct Cx<'a> {
    src: &'a str,
    structs: IndexMap<&'a str, &'a StructDecl>,
    aliases: HashMap<&'a str, &'a TypeExpr>,
    /// Resource structs, with whether they keep data members.
    res: IndexMap<&'a str, bool>,
    /// The structs [`Cx::fields`] is inside of, outermost first.
    expanding: Vec<&'a str>,
    /// Why [`Cx::fields`] stopped early, if it did.
    stopped: Option<Stop>,
    diags: Diagnostics,
}

/// A limit [`Cx::fields`] stopped at.
#[derive(Clone, Copy)]
enum Stop {
    /// Resource structs nested past [`crate::limits::MAX_TYPE_NESTING`].
    TooDeep,
    /// More than [`crate::limits::MAX_SPLIT_RESOURCES`] resources.
    TooMany,
}

impl Stop {
    /// The error for parameter `name` (declared at `at`).
    fn error(self, name: &str, at: Span) -> Diagnostic {
        use crate::limits::{MAX_SPLIT_RESOURCES, MAX_TYPE_NESTING};
        let d = match self {
            Stop::TooDeep => Diagnostic::error(format!(
                "`{name}` holds resource structs nested more than {MAX_TYPE_NESTING} deep"
            )),
            Stop::TooMany => Diagnostic::error(format!(
                "`{name}` splits into more than {MAX_SPLIT_RESOURCES} resources"
            ))
            .note("each resource of a resource struct, at any depth, becomes a global of its own (a binding array counts once)")
            .note("help: hold repeated resources in a binding array, or split the parameter"),
        };
        d.at(at, "this parameter")
    }
}

impl<'a> Cx<'a> {
    fn shape(&self, ty: &'a TypeExpr) -> Shape<'a> {
        let mut levels = Vec::new();
        let mut t = ty;
        for _ in 0..64 {
            if t.args.is_empty() {
                if let Some(target) = self.aliases.get(t.name.as_str()) {
                    t = target;
                    continue;
                }
            }
            if matches!(t.name.as_str(), "array" | "binding_array") {
                if let Some(elem) = t.args.first().and_then(|a| a.ty.as_ref()) {
                    levels.push(Level {
                        count: t.args.get(1).map(|a| a.text.to_string()),
                        span: t.span.clone(),
                    });
                    t = elem;
                    continue;
                }
            }
            break;
        }
        let kind = if is_leaf_name(&t.name) {
            Kind::Leaf
        } else if let Some((name, _)) = self.res.get_key_value(t.name.as_str()) {
            Kind::Res(name)
        } else {
            Kind::Data
        };
        Shape {
            kind,
            levels,
            inner: t,
        }
    }

    /// Find the resource structs: those with a resource member, directly or
    /// through another resource struct.
    fn find_resource_structs(&mut self) {
        loop {
            let mut changed = false;
            for (&name, decl) in &self.structs {
                if self.res.contains_key(name) {
                    continue;
                }
                if decl
                    .members
                    .iter()
                    .any(|m| self.shape(&m.ty).kind != Kind::Data)
                {
                    self.res.insert(name, false);
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        // Which keep data members (a struct's members come first in the
        // fixpoint order only if declared so; iterate to a fixpoint).
        loop {
            let mut changed = false;
            for i in 0..self.res.len() {
                let Some((&name, &has)) = self.res.get_index(i) else {
                    break;
                };
                if has {
                    continue;
                }
                let decl = self.structs[name];
                let any = decl.members.iter().any(|m| match self.shape(&m.ty).kind {
                    Kind::Data => true,
                    Kind::Leaf => false,
                    Kind::Res(t) => self.res.get(t).copied().unwrap_or(false),
                });
                if any {
                    self.res.insert(name, true);
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
    }

    fn has_data(&self, name: &str) -> bool {
        self.res.get(name).copied().unwrap_or(false)
    }

    /// Whether a member of a resource struct stays in the data part.
    fn keeps(&self, m: &scan::Member) -> bool {
        match self.shape(&m.ty).kind {
            Kind::Data => true,
            Kind::Leaf => false,
            Kind::Res(t) => self.has_data(t),
        }
    }

    fn text(&self, span: &Span) -> &'a str {
        self.src.get(span.clone()).unwrap_or("")
    }

    /// The resource members of struct `name`, depth first, with the array
    /// levels above them (`outer` from the parameter and enclosing members).
    fn fields(
        &mut self,
        param: &str,
        name: &str,
        path: &mut Vec<&'a str>,
        outer: &[Level],
        out: &mut Vec<Field>,
        depth: usize,
    ) {
        let Some((&name, &decl)) = self.structs.get_key_value(name) else {
            return;
        };
        if depth > crate::limits::MAX_TYPE_NESTING {
            self.stopped = Some(Stop::TooDeep);
            return;
        }
        self.expanding.push(name);
        for m in &decl.members {
            if self.stopped.is_some() {
                break;
            }
            let shape = self.shape(&m.ty);
            let mut levels = outer.to_vec();
            levels.extend(shape.levels.iter().cloned());
            match shape.kind {
                Kind::Data => {}
                Kind::Res(t) => {
                    if !shape.levels.is_empty() && self.has_data(t) && m.ty.name == "binding_array"
                    {
                        self.diags.push(
                            Diagnostic::error(format!(
                                "`{}` is a binding array of `{t}`, which has data members",
                                m.name
                            ))
                            .at(m.ty.span.clone(), "data cannot be in a binding array")
                            .note("help: write `array<...>`: the data members go into the parameter's uniform buffer, the resources into binding arrays"),
                        );
                        continue;
                    }
                    if self.expanding.contains(&t) {
                        // naga rejects the recursive type too, but the
                        // split reads the struct first. Said once, however
                        // many parameters reach the member.
                        let message = format!("struct `{t}` contains itself");
                        let said = self.diags.iter().any(|d| {
                            d.message == message
                                && d.labels.first().is_some_and(|l| l.span == m.ty.span)
                        });
                        if !said {
                            self.diags.push(
                                Diagnostic::error(message)
                                    .at(m.ty.span.clone(), format!("`{}` is a `{t}` inside `{name}`", m.name))
                                    .note("a struct cannot hold a member of its own type, directly or through other structs"),
                            );
                        }
                        continue;
                    }
                    path.push(m.name.as_str());
                    self.fields(param, t, path, &levels, out, depth + 1);
                    path.pop();
                }
                Kind::Leaf => {
                    if let Some(a) = m.attrs.first() {
                        self.diags.push(
                            Diagnostic::error(format!(
                                "`@{}` on resource member `{}` has no meaning",
                                a.name, m.name
                            ))
                            .at(a.span.clone(), "not allowed on a resource")
                            .note("resources take no bytes in the parameter's uniform buffer; layout attributes apply to data members"),
                        );
                    }
                    if levels.len() > 1 {
                        self.diags.push(
                            Diagnostic::error(format!(
                                "`{}` would split into an array of arrays of resources",
                                m.name
                            ))
                            .at(m.span.clone(), "this resource is inside two array levels")
                            .also(levels[0].span.clone(), "outer array")
                            .note("a split resource is one binding array; arrays of arrays of resources are not supported")
                            .note("help: flatten the arrays into one"),
                        );
                        continue;
                    }
                    if out.len() >= crate::limits::MAX_SPLIT_RESOURCES {
                        self.stopped = Some(Stop::TooMany);
                        break;
                    }
                    path.push(m.name.as_str());
                    let leaf = self.text(&shape.inner.span);
                    let ty = match levels.first() {
                        None => leaf.to_string(),
                        Some(Level { count: Some(n), .. }) => {
                            format!("binding_array<{leaf}, {n}>")
                        }
                        Some(Level { count: None, .. }) => format!("binding_array<{leaf}>"),
                    };
                    if !levels.is_empty() && shape.inner.name == "texture_external" {
                        self.diags.push(
                            Diagnostic::unsupported(format!(
                                "`{param}.{}` would be a binding array of texture_external, which stride cannot lower",
                                path.join(".")
                            ))
                            .at(m.span.clone(), "texture_external in an array parameter")
                            .note("a texture_external becomes two textures and a parameter buffer, which no binding array holds")
                            .note("help: declare the textures as module-scope `var name: texture_external;` variables, or hold the member in a parameter that is not an array"),
                        );
                    }
                    out.push(Field {
                        path: path.join("."),
                        global: Name::from(format!("{param}_{}", path.join("_"))),
                        ty,
                        span: m.span.clone(),
                        binding: None,
                    });
                    path.pop();
                }
            }
        }
        self.expanding.pop();
    }
}

/// The `,` after `span` inside a struct body, if any.
fn comma_after(src: &str, span: &Span, body_end: usize) -> Option<usize> {
    scan::code_chars_iter(src, span.end..body_end)
        .find(|&(_, c)| !c.is_whitespace())
        .filter(|&(_, c)| c == ',')
        .map(|(at, _)| at)
}

fn blank(out: &mut [u8], span: &Span) {
    let end = span.end.min(out.len());
    for b in &mut out[span.start.min(end)..end] {
        if *b != b'\n' && *b != b'\r' {
            *b = b' ';
        }
    }
}

/// Split the resource structs of `source`. `standard` is the dialect's
/// output; `ann` is updated: resource members leave their structs, the
/// split globals are added, and the parameters are listed in
/// `ann.params`. A module without resource structs comes back unchanged.
pub fn split(
    source: &str,
    scanned: &ScannedModule,
    standard: String,
    ann: &mut Annotations,
) -> Result<Split, Diagnostics> {
    // No member or alias can be a resource in the usual module: say so
    // before building the name tables. (This looks at every declaration,
    // duplicates included, so it never answers no where the check on the
    // tables below would answer yes.)
    let may_split = scanned.items.iter().any(|item| match &item.kind {
        ItemKind::Struct(s) => s
            .members
            .iter()
            .any(|m| is_leaf_name(&m.ty.name) || m.ty.name == "binding_array"),
        ItemKind::Alias(a) => is_leaf_name(&a.ty.name),
        _ => false,
    });
    if !may_split {
        return Ok(Split {
            standard,
            map: SourceMap::default(),
            prefix: "",
        });
    }
    let mut cx = Cx {
        src: source,
        structs: IndexMap::new(),
        aliases: HashMap::new(),
        res: IndexMap::new(),
        expanding: Vec::new(),
        stopped: None,
        diags: Diagnostics::new(),
    };
    for item in &scanned.items {
        match &item.kind {
            ItemKind::Struct(s) => {
                cx.structs.entry(s.name.as_str()).or_insert(s);
            }
            ItemKind::Alias(a) => {
                cx.aliases.entry(a.name.as_str()).or_insert(&a.ty);
            }
            _ => {}
        }
    }
    if !cx.structs.values().any(|s| {
        s.members
            .iter()
            .any(|m| is_leaf_name(&m.ty.name) || m.ty.name == "binding_array")
    }) && !cx.aliases.values().any(|t| is_leaf_name(&t.name))
    {
        // No member can be a resource: nothing to split.
        return Ok(Split {
            standard,
            map: SourceMap::default(),
            prefix: "",
        });
    }
    cx.find_resource_structs();
    if cx.res.is_empty() {
        return Ok(Split {
            standard,
            map: SourceMap::default(),
            prefix: "",
        });
    }

    let mut out = standard.into_bytes();
    let mut segments = Vec::new();

    // Struct declarations: blank the resource members (or the struct).
    for item in &scanned.items {
        let ItemKind::Struct(s) = &item.kind else {
            continue;
        };
        if !cx.res.contains_key(s.name.as_str()) {
            continue;
        }
        if !cx.has_data(&s.name) {
            blank(&mut out, &item.span);
            ann.structs.shift_remove(s.name.as_str());
            continue;
        }
        let mut dropped = Vec::new();
        for m in &s.members {
            if cx.keeps(m) {
                continue;
            }
            blank(&mut out, &m.span);
            if let Some(c) = comma_after(source, &m.span, s.body_span.end) {
                blank(&mut out, &(c..c + 1));
            }
            dropped.push(m.name.clone());
        }
        if let Some(sa) = ann.structs.get_mut(s.name.as_str()) {
            sa.members.retain(|m| !dropped.contains(&m.name));
        }
    }

    // Module-scope names, to keep split globals from colliding.
    let mut taken: HashMap<String, Span> = HashMap::new();
    for item in &scanned.items {
        let (name, span) = match &item.kind {
            ItemKind::Struct(s) => (&s.name, &s.name_span),
            ItemKind::Alias(a) => (&a.name, &a.name_span),
            ItemKind::Var(v) => (&v.name, &v.name_span),
            ItemKind::Const { name, name_span }
            | ItemKind::Override { name, name_span }
            | ItemKind::Fn { name, name_span } => (name, name_span),
            ItemKind::Directive => continue,
        };
        taken.entry(name.to_string()).or_insert(span.clone());
    }
    let binding_array_enabled = enable_directive(source, scanned, "wgpu_binding_array").is_some();

    // Parameters.
    let mut made_binding_arrays = false;
    let mut params: Vec<Param> = Vec::new();
    let mut tail = String::new();
    let base = out.len();
    for item in &scanned.items {
        let ItemKind::Var(v) = &item.kind else {
            continue;
        };
        let Some(ty) = &v.ty else { continue };
        let shape = cx.shape(ty);
        let Kind::Res(sname) = shape.kind else {
            if mentions_resource_struct(&cx, ty) {
                cx.diags.push(
                    Diagnostic::error(format!(
                        "`{}` holds a struct with resources inside another type",
                        v.name
                    ))
                    .at(ty.span.clone(), "resources cannot be part of this type")
                    .note("a struct with resource members is a parameter: declare `var name: Struct;` or `var name: array<Struct, N>;` at module scope"),
                );
            }
            continue;
        };
        if let Some(first) = v.template.first() {
            let last = v.template.last().unwrap_or(first);
            cx.diags.push(
                Diagnostic::error(format!(
                    "`{}` has resource members, so `{}` cannot be in an address space",
                    sname, v.name
                ))
                .at(first.span.start..last.span.end, "remove the address space")
                .note("a variable of a struct with resources is a parameter: its data members go into a uniform buffer stride declares, its resources become globals of their own"),
            );
            continue;
        }
        if shape.levels.len() > 1 {
            cx.diags.push(
                Diagnostic::error(format!("`{}` is an array of arrays of `{sname}`", v.name))
                    .at(ty.span.clone(), "two array levels")
                    .note("a split resource is one binding array; arrays of arrays of parameters are not supported")
                    .note("help: flatten the arrays into one"),
            );
            continue;
        }
        let data = cx.has_data(sname);
        let array = shape.levels.first().map(|l| l.count.clone());
        if data && matches!(array, Some(None)) {
            cx.diags.push(
                Diagnostic::error(format!(
                    "`{}` is a runtime-sized array of `{sname}`, which has data members",
                    v.name
                ))
                .at(ty.span.clone(), "a uniform buffer cannot be runtime-sized")
                .note("help: give the array a count"),
            );
            continue;
        }
        if data && ty.name == "binding_array" {
            cx.diags.push(
                Diagnostic::error(format!(
                    "`{}` is a binding array of `{sname}`, which has data members",
                    v.name
                ))
                .at(ty.name_span.clone(), "write `array` here")
                .note("the data members of every element go into one uniform buffer, `array<...>`; the resources into binding arrays")
                .fix(Fix {
                    title: "write `array`".to_string(),
                    edits: vec![Edit {
                        span: ty.name_span.clone(),
                        replacement: "array".to_string(),
                    }],
                    outcome: String::new(),
                }),
            );
            continue;
        }
        let mut fields = Vec::new();
        let outer: Vec<Level> = shape.levels.clone();
        cx.fields(&v.name, sname, &mut Vec::new(), &outer, &mut fields, 0);
        if let Some(stop) = cx.stopped.take() {
            cx.diags.push(stop.error(&v.name, v.name_span.clone()));
            continue;
        }
        // Binding arrays stride makes need the extension, which stride
        // enables itself (the user wrote none).
        made_binding_arrays |= fields.iter().any(|f| f.ty.starts_with("binding_array"));
        for f in &fields {
            if let Some(other) = taken.get(f.global.as_str()) {
                cx.diags.push(
                    Diagnostic::error(format!(
                        "splitting `{}` makes a global `{}`, a name already declared",
                        v.name, f.global
                    ))
                    .at(v.name_span.clone(), format!("`{}` comes from here", f.path))
                    .also(other.clone(), "declared here")
                    .note("help: rename one of them"),
                );
            }
        }
        for f in &fields {
            taken.insert(f.global.to_string(), v.name_span.clone());
        }

        // Bindings as written.
        let group_attr = item.attrs.iter().find(|a| a.name == "group");
        let binding_attr = item.attrs.iter().find(|a| a.name == "binding");
        let binding = match binding_attr.and_then(|a| a.args.first()) {
            None => None,
            Some(arg) => match parse_literal(arg.text.trim()).map(u32::try_from) {
                Ok(Ok(b)) => Some(b),
                _ => {
                    cx.diags.push(
                        Diagnostic::error(format!(
                            "the `@binding` of `{}` must be an integer literal",
                            v.name
                        ))
                        .at(arg.span.clone(), "not an integer literal")
                        .note("it is the first binding of the parameter's range; stride numbers the rest from it"),
                    );
                    continue;
                }
            },
        };
        let group_text = group_attr
            .and_then(|a| a.args.first())
            .map(|a| a.text.to_string());
        // The data part's type as naga reads it (dialect text blanked).
        let data_ty = standard_text(&out, &ty.span);
        blank(&mut out, &item.span);

        // The appended declarations.
        let ann_group = ann
            .globals
            .get(v.name.as_str())
            .and_then(|g| g.group.clone());
        let decl = |tail: &mut String,
                    segments: &mut Vec<Segment>,
                    index: u32,
                    space: &str,
                    name: &str,
                    name_orig: &Span,
                    ty: &str,
                    ty_orig: &Span| {
            let start = base + tail.len();
            tail.push('\n');
            if let (Some(g), Some(b)) = (&group_text, binding) {
                tail.push_str(&format!(
                    "@group({g}) @binding({}) ",
                    b.saturating_add(index)
                ));
            }
            tail.push_str("var");
            tail.push_str(space);
            tail.push(' ');
            let name_start = base + tail.len();
            tail.push_str(name);
            segments.push(Segment {
                new: name_start..base + tail.len(),
                orig: name_orig.clone(),
                shift: false,
            });
            tail.push_str(": ");
            let ty_start = base + tail.len();
            tail.push_str(ty);
            segments.push(Segment {
                new: ty_start..base + tail.len(),
                orig: ty_orig.clone(),
                shift: false,
            });
            tail.push(';');
            segments.push(Segment {
                new: start..base + tail.len(),
                orig: item.span.clone(),
                shift: false,
            });
        };
        let mut index = 0;
        if data {
            let ty_text = data_ty;
            decl(
                &mut tail,
                &mut segments,
                index,
                "<uniform>",
                &v.name,
                &v.name_span,
                &ty_text,
                &ty.span,
            );
            index += 1;
        }
        for f in &mut fields {
            f.binding = binding.map(|b| b.saturating_add(index));
            decl(
                &mut tail,
                &mut segments,
                index,
                "",
                &f.global,
                &v.name_span,
                &f.ty,
                &f.span,
            );
            // A texture_external's plane 1 and parameter buffer follow it
            // (`front::external` declares them).
            if f.is_external() {
                index += 2;
            }
            if binding.is_none() {
                ann.globals.insert(
                    f.global.clone(),
                    GlobalAnn {
                        name: f.global.clone(),
                        name_span: v.name_span.clone(),
                        span: item.span.clone(),
                        ty: None,
                        group: ann_group.clone(),
                    },
                );
            }
            index += 1;
        }
        if !data {
            ann.globals.shift_remove(v.name.as_str());
        }
        params.push(Param {
            name: v.name.clone(),
            name_span: v.name_span.clone(),
            span: item.span.clone(),
            ty: cx.text(&ty.span).to_string(),
            ty_struct: Name::from(sname),
            array,
            binding,
            group: group_text.clone(),
            data,
            fields,
        });
    }

    // Uses in functions, consts and overrides.
    let by_name: HashMap<&str, usize> = params
        .iter()
        .enumerate()
        .map(|(i, p)| (p.name.as_str(), i))
        .collect();
    let mut edits: Vec<(Span, String, Vec<Segment>)> = Vec::new();
    for item in &scanned.items {
        let what = match &item.kind {
            ItemKind::Fn { .. } => "function",
            ItemKind::Const { .. } => "const",
            ItemKind::Override { .. } => "override",
            _ => continue,
        };
        let toks = scan::lex(source, item.span.clone());
        uses(&mut cx, &params, &by_name, &toks, what, &mut edits);
    }
    if !cx.diags.is_empty() {
        return Err(cx.diags);
    }
    // Apply the access rewrites, latest first so that an index holding
    // another access takes its rewritten text.
    edits.sort_by_key(|e| std::cmp::Reverse(e.0.start));
    for (span, text, segs) in edits {
        let new = pad(&text, span.len());
        out[span.clone()].copy_from_slice(new.as_bytes());
        segments.extend(segs);
    }
    out.extend_from_slice(tail.as_bytes());
    out.push(b'\n');
    ann.params = params;
    let standard = String::from_utf8(out).map_err(|_| {
        Diagnostics::from(Diagnostic::internal(
            "internal error: splitting resource structs broke UTF-8; please report",
        ))
    })?;
    Ok(Split {
        standard,
        map: SourceMap {
            original_len: source.len(),
            segments,
        },
        prefix: if made_binding_arrays && !binding_array_enabled {
            BINDING_ARRAY_PREFIX
        } else {
            ""
        },
    })
}

/// Keep every span of `ds` inside `source` and on its char boundaries:
/// naga's end-of-input error points one past the text it parsed, which the
/// split may have ended with a line break the original lacks.
pub(crate) fn clamp_diagnostics(ds: &mut Diagnostics, source: &str) {
    let inside = |at: usize| {
        let mut at = at.min(source.len());
        while !source.is_char_boundary(at) {
            at -= 1;
        }
        at
    };
    let clamp = |s: &mut Span| {
        let end = inside(s.end);
        *s = inside(s.start).min(end)..end;
    };
    for d in &mut ds.0 {
        d.labels.iter_mut().for_each(|l| clamp(&mut l.span));
        for f in &mut d.fixes {
            f.edits.iter_mut().for_each(|e| clamp(&mut e.span));
        }
    }
}

/// [`unprefix`] for naga's parse errors of the prefixed text.
pub(crate) fn unprefix_diagnostics(ds: &mut Diagnostics, len: usize) {
    let back = |s: &mut Span| *s = s.start.saturating_sub(len)..s.end.saturating_sub(len);
    for d in &mut ds.0 {
        d.labels.iter_mut().for_each(|l| back(&mut l.span));
        for f in &mut d.fixes {
            f.edits.iter_mut().for_each(|e| back(&mut e.span));
        }
    }
}

/// Move every span of `module`, which naga parsed from a [`Split`]'s
/// `prefix` followed by its `standard` text, back by the prefix's `len`
/// bytes: the spans of `standard`, as every other stage reads them.
pub(crate) fn unprefix(module: &mut naga::Module, len: usize) {
    let by = u32::try_from(len).unwrap_or(u32::MAX);
    let back = |span: naga::Span| match span.to_range() {
        Some(r) if span.is_defined() => naga::Span::new(
            (r.start as u32).saturating_sub(by),
            (r.end as u32).saturating_sub(by),
        ),
        _ => span,
    };
    let types = module.types.take();
    for (h, ty) in types.iter() {
        module.types.insert(ty.clone(), back(types.get_span(h)));
    }
    fn arena<T>(a: &mut naga::Arena<T>, back: impl Fn(naga::Span) -> naga::Span) {
        for (_, value, span) in a.take().drain() {
            a.append(value, back(span));
        }
    }
    fn block(b: &mut naga::Block, back: &impl Fn(naga::Span) -> naga::Span) {
        for (stmt, span) in b.span_iter_mut() {
            if let Some(span) = span {
                *span = back(*span);
            }
            match stmt {
                naga::Statement::Block(inner) => block(inner, back),
                naga::Statement::If { accept, reject, .. } => {
                    block(accept, back);
                    block(reject, back);
                }
                naga::Statement::Switch { cases, .. } => {
                    for case in cases {
                        block(&mut case.body, back);
                    }
                }
                naga::Statement::Loop {
                    body, continuing, ..
                } => {
                    block(body, back);
                    block(continuing, back);
                }
                _ => {}
            }
        }
    }
    let function = |f: &mut naga::Function| {
        arena(&mut f.expressions, back);
        arena(&mut f.local_variables, back);
        block(&mut f.body, &back);
    };
    arena(&mut module.constants, back);
    arena(&mut module.overrides, back);
    arena(&mut module.global_variables, back);
    arena(&mut module.global_expressions, back);
    arena(&mut module.diagnostic_filters, back);
    for (_, f) in module.functions.iter_mut() {
        function(f);
    }
    arena(&mut module.functions, back);
    for ep in &mut module.entry_points {
        function(&mut ep.function);
    }
}

/// The span of the `enable` directive that names extension `name`, when
/// the module has one.
pub(crate) fn enable_directive(source: &str, scanned: &ScannedModule, name: &str) -> Option<Span> {
    scanned.items.iter().find_map(|i| {
        if !matches!(i.kind, ItemKind::Directive) {
            return None;
        }
        let text = source.get(i.span.clone())?.trim_start();
        let names = text
            .strip_prefix("enable")?
            .trim_end()
            .trim_end_matches(';');
        names
            .split(',')
            .any(|n| n.trim() == name)
            .then(|| i.span.clone())
    })
}

fn standard_text(out: &[u8], span: &Span) -> String {
    String::from_utf8_lossy(out.get(span.clone()).unwrap_or(&[])).into_owned()
}

fn pad(text: &str, len: usize) -> String {
    let mut s = text.to_string();
    while s.len() < len {
        s.push(' ');
    }
    s
}

/// Whether `ty` names a resource struct anywhere (through aliases).
fn mentions_resource_struct(cx: &Cx, ty: &TypeExpr) -> bool {
    let mut stack = vec![ty];
    let mut steps = 0;
    while let Some(t) = stack.pop() {
        steps += 1;
        if steps > 256 {
            break;
        }
        if cx.res.contains_key(t.name.as_str()) {
            return true;
        }
        if let Some(target) = cx.aliases.get(t.name.as_str()) {
            stack.push(target);
        }
        stack.extend(t.args.iter().filter_map(|a| a.ty.as_ref()));
    }
    false
}

/// Index of the bracket closing the one at `open`.
fn closing(toks: &[(LexKind, Span)], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (i, (k, _)) in toks.iter().enumerate().skip(open) {
        match k {
            LexKind::Punct('[') | LexKind::Punct('(') => depth += 1,
            LexKind::Punct(']') | LexKind::Punct(')') => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// Check and rewrite the uses of parameters and resource structs in one
/// item's tokens.
fn uses(
    cx: &mut Cx,
    params: &[Param],
    by_name: &HashMap<&str, usize>,
    toks: &[(LexKind, Span)],
    what: &str,
    edits: &mut Vec<(Span, String, Vec<Segment>)>,
) {
    let src = cx.src;
    let text = |i: usize| -> &str { toks.get(i).map_or("", |t| &src[t.1.clone()]) };
    let is = |i: usize, c: char| matches!(toks.get(i), Some((LexKind::Punct(p), _)) if *p == c);
    for i in 0..toks.len() {
        if toks[i].0 != LexKind::Ident || (i > 0 && is(i - 1, '.')) {
            continue;
        }
        let name = text(i);
        // A declaration with a parameter's name would shadow it.
        if i > 0 && by_name.contains_key(name) {
            let prev = text(i - 1);
            let declares = matches!(prev, "let" | "var" | "const")
                || (is(i + 1, ':') && what == "function" && is_header_param(toks, src, i));
            if declares {
                cx.diags.push(
                    Diagnostic::error(format!(
                        "`{name}` shadows the parameter `{name}`, a struct with resources"
                    ))
                    .at(toks[i].1.clone(), "declared again here")
                    .also(params[by_name[name]].name_span.clone(), "the parameter")
                    .note("stride rewrites every use of a parameter's resource members, so it cannot be shadowed")
                    .note("help: rename this declaration"),
                );
                continue;
            }
        }
        if let Some((sname, _)) = cx.res.get_key_value(name) {
            let sname: &str = sname;
            cx.diags.push(
                Diagnostic::error(format!(
                    "`{sname}` has resource members, so it can only be the type of a module-scope `var`"
                ))
                .at(toks[i].1.clone(), format!("`{sname}` used in a {what}"))
                .note("resources are not values: a struct holding them cannot be constructed, passed or stored; use its members through the module-scope variable"),
            );
            continue;
        }
        if let Some(target) = cx.aliases.get(name) {
            if cx.res.contains_key(target.name.as_str()) && target.args.is_empty() {
                cx.diags.push(
                    Diagnostic::error(format!(
                        "`{name}` is `{}`, which has resource members, so it can only be the type of a module-scope `var`",
                        target.name
                    ))
                    .at(toks[i].1.clone(), format!("used in a {what}")),
                );
                continue;
            }
        }
        let Some(&p) = by_name.get(name) else {
            continue;
        };
        if let Some(e) = access(cx, &params[p], toks, i) {
            edits.push(e);
        }
    }
}

/// Whether the identifier at `i`, followed by `:`, is inside the
/// parameter list of a function header (before the body's `{`).
fn is_header_param(toks: &[(LexKind, Span)], src: &str, i: usize) -> bool {
    let mut depth = 0i32;
    for t in toks[..i].iter().rev() {
        match t.0 {
            LexKind::Punct('{') => return false,
            LexKind::Punct(')') => depth += 1,
            LexKind::Punct('(') => {
                depth -= 1;
            }
            LexKind::Ident if &src[t.1.clone()] == "fn" => return depth < 0,
            _ => {}
        }
    }
    false
}

/// Rewrite one access chain starting at the parameter name `toks[at]`:
/// `p.m`, `p[i].m`, `p.s.m`, `p.arr[i].m` -> `p_m`, `p_m[i]`, ...
/// Accesses that end at a data member are left alone (the uniform buffer
/// holds them under the parameter's name).
fn access(
    cx: &mut Cx,
    param: &Param,
    toks: &[(LexKind, Span)],
    at: usize,
) -> Option<(Span, String, Vec<Segment>)> {
    let src = cx.src;
    let is = |i: usize, c: char| matches!(toks.get(i), Some((LexKind::Punct(p), _)) if *p == c);
    let start = toks[at].1.start;
    let mut indices: Vec<Span> = Vec::new();
    let mut names: Vec<&str> = Vec::new();
    let mut i = at + 1;
    let refuse = |cx: &mut Cx, end: usize, why: &str| {
        cx.diags.push(
            Diagnostic::error(format!(
                "`{}` is a parameter with resources, so it can only be used through its members",
                param.name
            ))
            .at(start..end, why.to_string())
            .note(match &param.fields.first() {
                Some(f) => format!(
                    "e.g. `{}.{}`{}",
                    param.name,
                    f.path,
                    if param.array.is_some() {
                        format!(", indexed first: `{}[i].{}`", param.name, f.path)
                    } else {
                        String::new()
                    }
                ),
                None => String::new(),
            }),
        );
    };
    // The type walked so far: the parameter's struct, with its levels.
    let mut sname: &str = cx.res.get_key_value(param.ty_struct.as_str())?.0;
    let mut levels = usize::from(param.array.is_some());
    loop {
        for _ in 0..levels {
            if !is(i, '[') {
                let end = toks.get(i.saturating_sub(1)).map_or(start, |t| t.1.end);
                refuse(
                    cx,
                    end,
                    "an array of structs with resources: index it, then pick a member",
                );
                return None;
            }
            let close = closing(toks, i)?;
            indices.push(toks[i].1.start..toks[close].1.end);
            i = close + 1;
        }
        if !is(i, '.') || toks.get(i + 1).map(|t| t.0) != Some(LexKind::Ident) {
            let end = toks.get(i.saturating_sub(1)).map_or(start, |t| t.1.end);
            refuse(cx, end, "a struct with resources is not a value");
            return None;
        }
        let member = &src[toks[i + 1].1.clone()];
        let decl = *cx.structs.get(sname)?;
        let Some(m) = decl.members.iter().find(|m| m.name == member) else {
            // naga reports unknown members, at this span.
            return None;
        };
        let mshape = cx.shape(&m.ty);
        match mshape.kind {
            Kind::Data => return None,
            Kind::Leaf => {
                names.push(member);
                let end = toks[i + 1].1.end;
                let mut text = String::from(param.name.as_str());
                for n in &names {
                    text.push('_');
                    text.push_str(n);
                }
                let mut segs = Vec::new();
                for idx in &indices {
                    let new_start = start + text.len();
                    text.push_str(src.get(idx.clone()).unwrap_or(""));
                    if new_start != idx.start {
                        segs.push(Segment {
                            new: new_start..new_start + idx.len(),
                            orig: idx.clone(),
                            shift: true,
                        });
                    }
                }
                return Some((start..end, text, segs));
            }
            Kind::Res(t) => {
                names.push(member);
                sname = t;
                levels = mshape.levels.len();
                i += 2;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::front;

    fn parse(source: &str) -> front::Parsed {
        front::parse(source).unwrap_or_else(|d| panic!("{}", d.render("t.wgsl", source, false)))
    }

    fn errors(source: &str) -> Vec<crate::diag::Diagnostic> {
        match front::parse(source) {
            Ok(p) => panic!("no error; naga read:\n{}", p.standard),
            Err(d) => d.iter().cloned().collect(),
        }
    }

    fn bindings(p: &front::Parsed) -> Vec<(String, u32, u32)> {
        super::super::module::declaration_order(&p.module)
            .into_iter()
            .filter_map(|h| {
                let g = &p.module.global_variables[h];
                let b = g.binding?;
                Some((g.name.clone()?, b.group, b.binding))
            })
            .collect()
    }

    fn owned(v: &[(&str, u32, u32)]) -> Vec<(String, u32, u32)> {
        v.iter().map(|&(n, g, b)| (n.to_string(), g, b)).collect()
    }

    const LIGHT: &str = "struct LightInfo { pos: vec3<f32>, shadowMap: texture_2d<f32> }
var gLight: LightInfo;
@group(0) @binding(7) var samp: sampler;
@fragment fn main() -> @location(0) vec4<f32> {
    return textureSample(gLight.shadowMap, samp, vec2(0.5)) * gLight.pos.x;
}
";

    #[test]
    fn data_members_go_to_a_uniform_buffer_bound_first_and_resources_follow() {
        let p = parse(LIGHT);
        assert_eq!(
            bindings(&p),
            owned(&[("gLight", 0, 0), ("gLight_shadowMap", 0, 1), ("samp", 0, 7)])
        );
        let g = p
            .module
            .global_variables
            .iter()
            .find(|(_, g)| g.name.as_deref() == Some("gLight"))
            .map(|(_, g)| g.space);
        assert_eq!(g, Some(naga::AddressSpace::Uniform));
        // The access is rewritten in place, same length.
        assert!(p.standard.contains("textureSample(gLight_shadowMap, samp"));
        assert_eq!(p.annotations.params.len(), 1);
        let param = &p.annotations.params[0];
        assert!(param.data);
        assert_eq!(param.fields[0].path, "shadowMap");
        // The contract of the data part has only `pos`.
        let s = &p.annotations.structs["LightInfo"];
        let names: Vec<&str> = s.members.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(names, vec!["pos"]);
    }

    #[test]
    fn split_globals_take_the_first_free_contiguous_range() {
        // Binding 1 is taken, so the three bindings of `m` cannot start
        // at 0: they take 2..4; `t` then takes the free 0.
        let source = "struct M { a: texture_2d<f32>, s: sampler, k: f32 }
@group(0) @binding(1) var<uniform> u: vec4<f32>;
var m: M;
var t: texture_2d<f32>;
@fragment fn main() -> @location(0) vec4<f32> {
    return textureSample(m.a, m.s, vec2(0.5)) * m.k + u + textureLoad(t, vec2(0), 0);
}
";
        assert_eq!(
            bindings(&parse(source)),
            owned(&[
                ("u", 0, 1),
                ("m", 0, 2),
                ("m_a", 0, 3),
                ("m_s", 0, 4),
                ("t", 0, 0)
            ])
        );
        // An explicit binding numbers the whole range from it.
        let explicit = source.replace("var m: M;", "@group(2) @binding(5) var m: M;");
        assert_eq!(
            bindings(&parse(&explicit))[1..4],
            owned(&[("m", 2, 5), ("m_a", 2, 6), ("m_s", 2, 7)])[..]
        );
    }

    #[test]
    fn bindings_do_not_depend_on_function_bodies() {
        let quiet = LIGHT.replace(
            "return textureSample(gLight.shadowMap, samp, vec2(0.5)) * gLight.pos.x;",
            "return vec4(0.0);",
        );
        assert_eq!(bindings(&parse(LIGHT)), bindings(&parse(&quiet)));
        // And the same input gives the same text to naga.
        assert_eq!(parse(LIGHT).standard, parse(LIGHT).standard);
    }

    #[test]
    fn a_parameter_takes_the_same_resources_in_every_module() {
        // The same declaration among other resources: the same number of
        // bindings, contiguous, in the same order.
        let decl = "struct M { a: texture_2d<f32>, k: vec4<f32>, s: sampler }\nvar m: M;\n";
        let body = "@fragment fn main() -> @location(0) vec4<f32> { return textureSample(m.a, m.s, vec2(0.5)) * m.k; }\n";
        let alone = format!("{decl}{body}");
        let crowded = format!(
            "@group(0) @binding(0) var t0: texture_2d<f32>;\n@group(0) @binding(4) var t4: texture_2d<f32>;\n{decl}{body}"
        );
        let range = |source: &str| {
            let b: Vec<(String, u32, u32)> = bindings(&parse(source))
                .into_iter()
                .filter(|(n, _, _)| n == "m" || n.starts_with("m_"))
                .collect();
            let first = b[0].2;
            b.into_iter()
                .map(|(n, _, binding)| (n, binding - first))
                .collect::<Vec<_>>()
        };
        assert_eq!(range(&alone), range(&crowded));
        assert_eq!(range(&alone).len(), 3);
        // In the crowded module the range skips the taken 0 and 4: 1..3.
        let m = bindings(&parse(&crowded))
            .into_iter()
            .find(|(n, _, _)| n == "m")
            .map(|b| b.2);
        assert_eq!(m, Some(1));
    }

    const PAIRS: &str = "enable wgpu_binding_array;
struct Pair { a: texture_2d<f32>, b: texture_2d<f32> }
var gPairs: array<Pair, 8>;
var s: sampler;
@fragment fn main(@location(0) @interpolate(flat) i: u32) -> @location(0) vec4<f32> {
    return textureSample(gPairs[i].a, s, vec2(0.5)) + textureSample(gPairs [ i ] . b, s, vec2(0.5));
}
";

    #[test]
    fn arrays_of_resource_structs_split_into_one_binding_array_per_member() {
        let p = parse(PAIRS);
        assert_eq!(
            bindings(&p),
            owned(&[("gPairs_a", 0, 0), ("gPairs_b", 0, 1), ("s", 0, 2)])
        );
        assert!(p.standard.contains("textureSample(gPairs_a[i], s"));
        assert!(p.standard.contains("textureSample(gPairs_b[ i ]   , s"));
        for name in ["gPairs_a", "gPairs_b"] {
            let (_, g) = p
                .module
                .global_variables
                .iter()
                .find(|(_, g)| g.name.as_deref() == Some(name))
                .expect("split global");
            assert!(matches!(
                p.module.types[g.ty].inner,
                naga::TypeInner::BindingArray { .. }
            ));
        }
        // No uniform buffer: Pair has no data members.
        assert!(!p.annotations.params[0].data);
    }

    #[test]
    fn reflect_reports_spec_001_stride_and_offsets() {
        let options = crate::Options {
            target: crate::Target::Reflect,
            ..Default::default()
        };
        let out = crate::translate(PAIRS, &options).expect("translates");
        let crate::Output::Text(text) = out.output else {
            panic!("text")
        };
        let json: serde_json::Value = serde_json::from_str(&text).expect("json");
        let p = &json["parameters"][0];
        assert_eq!(p["name"], "gPairs");
        assert_eq!(p["count"], 8);
        assert_eq!(p["vulkan"]["stride"], 0);
        assert_eq!(p["d3d"]["ranges"][0]["class"], "t");
        assert_eq!(p["d3d"]["ranges"][0]["stride"], 1);
        assert_eq!(p["d3d"]["ranges"][0]["count"], 16);
        assert_eq!(p["fields"][1]["path"], "b");
        assert_eq!(p["fields"][1]["register_offset"], 8);
        assert_eq!(p["fields"][1]["binding_offset"], 1);
    }

    #[test]
    fn errors_inside_moved_text_point_at_the_original_source() {
        // `gPairs[nope].a` becomes `gPairs_a[nope]`: naga's span of `nope`
        // moved two bytes; the diagnostic must still underline `nope`.
        let source = PAIRS.replace("gPairs[i].a", "gPairs[nope].a");
        let errs = errors(&source);
        let spans: Vec<&str> = errs
            .iter()
            .flat_map(|e| e.labels.iter())
            .map(|l| &source[l.span.clone()])
            .collect();
        assert!(spans.contains(&"nope"), "{spans:?}");
        // A bad resource member type is reported at the member's type.
        let source = LIGHT.replace("texture_2d<f32>", "texture_2d<f33>");
        let errs = errors(&source);
        let label = errs[0].labels[0].span.clone();
        assert!(source[label].contains("texture_2d<f33>"), "{:?}", errs[0]);
    }

    fn first_error(source: &str) -> (String, Vec<String>) {
        let errs = errors(source);
        let e = &errs[0];
        (
            e.message.clone(),
            e.labels
                .iter()
                .map(|l| source[l.span.clone()].to_string())
                .collect(),
        )
    }

    #[test]
    fn misuses_of_parameters_are_errors_at_the_use() {
        let cases: &[(&str, &str, &str, &str)] = &[
            (
                "var gLight: LightInfo;",
                "var<uniform> gLight: LightInfo;",
                "cannot be in an address space",
                "uniform",
            ),
            (
                "* gLight.pos.x",
                "* f(gLight)",
                "can only be used through its members",
                "gLight",
            ),
            (
                "@fragment",
                "fn g(l: LightInfo) {}\n@fragment",
                "can only be the type of a module-scope `var`",
                "LightInfo",
            ),
            (
                "    return",
                "    let gLight = 1.0;\n    return",
                "shadows the parameter",
                "gLight",
            ),
            (
                "shadowMap: texture_2d<f32>",
                "@align(16) shadowMap: texture_2d<f32>",
                "has no meaning",
                "@align(16)",
            ),
            (
                "@group(0) @binding(7) var samp",
                "var gLight_shadowMap: f32;\n@group(0) @binding(7) var samp",
                "a name already declared",
                "gLight",
            ),
        ];
        for (from, to, message, label) in cases {
            let source = LIGHT.replace(from, to);
            assert_ne!(source, LIGHT, "{from}");
            let (got, labels) = first_error(&source);
            assert!(got.contains(message), "{to}: {got}");
            assert!(labels.iter().any(|l| l == label), "{to}: {labels:?}");
        }
    }

    #[test]
    fn binding_arrays_stride_makes_need_no_enable_but_one_array_level() {
        // The split enables the binding arrays it makes itself; spans stay
        // those of the source.
        let source = PAIRS.replace("enable wgpu_binding_array;\n", "");
        let p = parse(&source);
        assert_eq!(
            bindings(&p),
            owned(&[("gPairs_a", 0, 0), ("gPairs_b", 0, 1), ("s", 0, 2)])
        );
        assert!(!p.standard.contains("enable"), "{}", p.standard);
        for (h, g) in p.module.global_variables.iter() {
            let span = p.module.global_variables.get_span(h).to_range();
            let text = span.and_then(|r| source.get(r)).unwrap_or_default();
            let name = g.name.as_deref().unwrap_or_default();
            assert!(
                text.contains(name.split('_').next().unwrap_or(name)),
                "{name}: {text:?}"
            );
        }
        let (_, f) = p.module.functions.iter().next().map_or_else(
            || (None, &p.module.entry_points[0].function),
            |(h, f)| (Some(h), f),
        );
        let first = f.expressions.iter().find_map(|(h, e)| {
            matches!(e, naga::Expression::ImageSample { .. }).then(|| f.expressions.get_span(h))
        });
        let sample = first
            .and_then(|s| s.to_range())
            .and_then(|r| p.standard.get(r));
        assert!(
            sample.is_some_and(|t| t.starts_with("textureSample")),
            "{sample:?}"
        );
        // Errors in moved text still point at the source.
        let wrong = source.replace("gPairs[i].a", "gPairs[nope].a");
        let errs = errors(&wrong);
        let spans: Vec<&str> = errs
            .iter()
            .flat_map(|e| e.labels.iter())
            .map(|l| &wrong[l.span.clone()])
            .collect();
        assert!(spans.contains(&"nope"), "{spans:?}");
        let nested = PAIRS.replace("a: texture_2d<f32>", "a: binding_array<texture_2d<f32>, 2>");
        let (msg, _) = first_error(&nested);
        assert!(msg.contains("array of arrays of resources"), "{msg}");
    }

    #[test]
    fn nested_resource_structs_join_their_member_names() {
        let source = "enable wgpu_binding_array;
struct Detail { normal: texture_2d<f32>, scale: f32 }
struct Material { tint: vec4<f32>, detail: Detail, layers: binding_array<texture_2d<f32>, 3>, s: sampler }
@group(1) var material: Material;
@fragment fn main() -> @location(0) vec4<f32> {
    return textureSample(material.detail.normal, material.s, vec2(0.5)) * material.detail.scale
        + textureSample(material.layers[2], material.s, vec2(0.5)) * material.tint;
}
";
        let p = parse(source);
        assert_eq!(
            bindings(&p),
            owned(&[
                ("material", 1, 0),
                ("material_detail_normal", 1, 1),
                ("material_layers", 1, 2),
                ("material_s", 1, 3),
            ])
        );
        // `material.detail.scale` stays a uniform read.
        assert!(p.standard.contains("material.detail.scale"));
        assert!(p.standard.contains("textureSample(material_layers[2]"));
        assert!(crate::front::validate(&p.module).is_ok());
    }
}
