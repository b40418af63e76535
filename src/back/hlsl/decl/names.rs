//! Naming and shader-model checks: every module item's HLSL name (naga's
//! namer with the reserved words), the types and builtins a shader model
//! lacks.

use super::entry_span;
use crate::back::hlsl;
use crate::back::hlsl::keywords;
use crate::back::hlsl::Ctx;
use crate::back::hlsl::ShaderModel;
use crate::back::text::input_parts;
use crate::diag::Diagnostic;
use naga::proc::NameKey;
use naga::{Binding, BuiltIn};

/// Every module item's HLSL name: naga's namer with our reserved words.
pub(super) fn module_names(module: &naga::Module) -> naga::FastHashMap<NameKey, String> {
    crate::back::common::module_names(
        module,
        &keywords::RESERVED,
        &keywords::BUILTINS,
        &keywords::RESERVED_CASE_INSENSITIVE,
        keywords::RESERVED_PREFIXES,
    )
}

/// Types the chosen shader model cannot express: f16 before 6.2, 64-bit
/// integers before 6.0. One error per scalar type, at its first use.
pub(super) fn shader_model_type_errors(
    module: &naga::Module,
    model: ShaderModel,
) -> Vec<Diagnostic> {
    let unsupported = |(scalar, ty): (naga::Scalar, naga::Handle<naga::Type>)| {
        let (name, why, fix) = match (scalar.kind, scalar.width) {
            (naga::ScalarKind::Float, 2) if model < ShaderModel::Sm6_2 => (
                "f16",
                "16-bit floats need shader model 6.2",
                "pass `--shader-model 6_2` (and compile with DXC's `-enable-16bit-types`)",
            ),
            (naga::ScalarKind::Sint | naga::ScalarKind::Uint, 8) if model < ShaderModel::Sm6_0 => (
                if scalar.kind == naga::ScalarKind::Sint {
                    "i64"
                } else {
                    "u64"
                },
                "64-bit integers need shader model 6.0",
                "pass `--shader-model 6_0` or later",
            ),
            _ => return None,
        };
        let message = text!("`{name}` cannot be written for shader model {model}: {why}");
        let span = crate::back::common::use_span(module, ty);
        let error = hlsl::error_at(message, span, text!("uses `{name}`"));
        Some(
            error
                .note(fix)
                .with_kind(crate::diag::DiagnosticKind::Unsupported),
        )
    };
    crate::back::common::first_scalar_uses(module)
        .filter_map(unsupported)
        .collect()
}

/// Warnings about builtins whose D3D meaning differs from WGSL's.
pub(super) fn builtin_warnings(ctx: &Ctx<'_>, selected: &[usize]) -> Vec<Diagnostic> {
    let mut warnings: Vec<Diagnostic> = Vec::new();
    for &index in selected {
        let ep = &ctx.module.entry_points[index];
        let span = entry_span(ctx, index).to_range().unwrap_or(0..0);
        for part in input_parts(ctx.module, ep) {
            let (what, semantic, start) = match part.binding {
                Binding::BuiltIn(BuiltIn::VertexIndex) => {
                    ("vertex_index", "SV_VertexID", "base vertex")
                }
                Binding::BuiltIn(BuiltIn::InstanceIndex) => {
                    ("instance_index", "SV_InstanceID", "first instance")
                }
                _ => continue,
            };
            let w = Diagnostic::warning(text!(
                "D3D's {semantic} does not include the draw's {start}: @builtin({what}) counts from 0 in every draw"
            ))
            .at(span.clone(), text!("reads {what}"))
            .note(text!(
                "draw with {start} 0, or add it from a uniform; --target spirv and GLSL for Vulkan include it"
            ));
            if !warnings.contains(&w) {
                warnings.push(w);
            }
        }
    }
    warnings
}
