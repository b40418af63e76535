//! Resource limits on user input, in one place (README "Fuzzing" and
//! docs/fuzzing.md list them). Past each, stride reports an error at the
//! span that passes it, instead of recursing or allocating without bound.

/// Brackets (`(`, `[`, `{`) open at once. Checked by the scanner at module
/// scope and in struct bodies; inside function bodies braces are checked
/// and `(`/`[` are checked where naga's parser gives up (about 190 levels),
/// so that its error gets a span.
pub const MAX_BRACKET_NESTING: usize = 64;

/// Type arguments nested inside a type: `array<array<f32, 2>, 2>` nests 2.
pub const MAX_TYPE_ARGUMENT_NESTING: usize = 64;

/// Arrays and structs nested inside a buffer's type (each struct member and
/// array element one level down), and resource structs inside a resource
/// struct parameter.
pub const MAX_TYPE_NESTING: usize = 64;

/// Aliases naming aliases, followed from one use.
pub const MAX_ALIAS_DEPTH: usize = 64;

/// Bytes of a buffer, and of any size, offset, `@size` or `@stride`: SPIR-V
/// and the targets' reflection data hold 32-bit signed values.
pub const MAX_BYTES: u64 = crate::layout::rules::MAX_BYTES;

/// Resources one resource-struct parameter splits into (each a global of
/// its own; a binding array counts once). Also bounds the split's work: a
/// struct holding another twice, nested, doubles the count per level.
pub const MAX_SPLIT_RESOURCES: usize = 4_096;

/// Members of one struct: SPIR-V's limit (its universal limits allow
/// 16,383), checked on every struct before naga parses the module.
pub const MAX_STRUCT_MEMBERS: usize = 16_383;

/// Structs of `scanned` past [`MAX_STRUCT_MEMBERS`], as errors at their
/// names.
pub fn check_scanned(scanned: &crate::front::ScannedModule) -> crate::Diagnostics {
    let mut diags = crate::Diagnostics::new();
    for item in &scanned.items {
        if let crate::front::scan::ItemKind::Struct(s) = &item.kind {
            if s.members.len() > MAX_STRUCT_MEMBERS {
                diags.push(
                    crate::Diagnostic::error(format!(
                        "struct `{}` has {} members, more than the {MAX_STRUCT_MEMBERS} a struct may have",
                        s.name,
                        s.members.len()
                    ))
                    .at(s.name_span.clone(), "too many members"),
                );
            }
        }
    }
    diags
}
