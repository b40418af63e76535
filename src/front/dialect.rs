//! The layout dialect of spec/000: `@align`/`@size` on struct and alias
//! declarations, `@stride` on array types, and the `[[a, b(n)]]` syntax.
//! Produces [`Annotations`] (parsed, validated values with spans) and the
//! standard WGSL text naga reads, with dialect text blanked by spaces of the
//! same byte length so that naga's spans stay valid.

use super::scan::ScannedModule;
use crate::diag::{Diagnostic, Diagnostics, Span};
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
    pub name: String,
    pub span: Span,
    /// `@stride(n)` on this (array) type.
    pub stride: Option<Spanned<u64>>,
    /// Type arguments that are types (element types of arrays, ...).
    pub args: Vec<TypeAnn>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemberAnn {
    pub name: String,
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
    pub name: String,
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

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AliasAnn {
    pub name: String,
    pub name_span: Span,
    pub span: Span,
    pub align: Option<Spanned<u64>>,
    pub size: Option<Spanned<u64>>,
    pub target: TypeAnn,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GlobalAnn {
    pub name: String,
    pub name_span: Span,
    pub span: Span,
    pub ty: Option<TypeAnn>,
}

/// Everything the layout builder needs from the source, by name, in
/// declaration order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Annotations {
    pub structs: IndexMap<String, StructAnn>,
    pub aliases: IndexMap<String, AliasAnn>,
    pub globals: IndexMap<String, GlobalAnn>,
}

pub struct Lowered {
    pub standard: String,
    pub annotations: Annotations,
    pub warnings: Vec<Diagnostic>,
}

/// Validate dialect attributes that need no type information, collect
/// annotations and blank the dialect text.
pub fn lower(source: &str, scanned: &ScannedModule) -> Result<Lowered, Diagnostics> {
    let _ = scanned;
    Ok(Lowered {
        standard: source.to_string(),
        annotations: Annotations::default(),
        warnings: Vec::new(),
    })
}
