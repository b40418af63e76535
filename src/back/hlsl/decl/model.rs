//! The shader model a module is written for, decided once per translation
//! before any text: the one `--shader-model` names (a model below what the
//! module needs is then an error where the writer meets the need, with its
//! fix), or, without it, the lowest model the module needs, at least
//! [`ShaderModel::default`] (6.0), with a note at the first use that
//! needs it. What raises the model:
//!
//! - `f16` (a type of the module, or `enable f16;`): 6.2, which DXC
//!   compiles with `-enable-16bit-types`;
//! - 16- and 64-bit values in a storage buffer (byte-address buffers load
//!   and store them with the templated `Load<T>`/`Store<T>`): 6.2;
//! - `@builtin(view_index)` and `@builtin(barycentric)`: 6.1;
//! - 64-bit atomics (on buffer values or r64uint storage textures): 6.6.

use super::wide_storages;
use crate::back::common::use_span;
use crate::back::hlsl::ShaderModel;
use crate::back::text::entry_span;
use crate::diag::{Diagnostic, Severity, Span};
use naga::{BuiltIn, ScalarKind, TypeInner};

/// The shader model input builtin `b` needs (the wave intrinsics that
/// stand for the subgroup builtins: the default, 6.0; `None`: any model).
pub(super) fn builtin_model(b: BuiltIn) -> Option<ShaderModel> {
    match b {
        BuiltIn::ViewIndex | BuiltIn::Barycentric { .. } => Some(ShaderModel::Sm6_1),
        BuiltIn::SubgroupSize
        | BuiltIn::SubgroupInvocationId
        | BuiltIn::SubgroupId
        | BuiltIn::NumSubgroups => Some(ShaderModel::Sm6_0),
        _ => None,
    }
}

/// One use that needs a shader model above the default.
pub(super) struct Need {
    model: ShaderModel,
    span: Span,
    /// What needs it, as the note names it (`` `f16` ``).
    what: String,
}

/// The shader model to write for, and the note that says why when it was
/// raised above the default (see the module doc). `explicit`: the model
/// the options name; `needs`: the module's [`needs`], asked only without
/// one.
pub(super) fn choose(
    explicit: Option<ShaderModel>,
    needs: impl FnOnce() -> Vec<Need>,
) -> (ShaderModel, Option<Diagnostic>) {
    if let Some(model) = explicit {
        return (model, None);
    }
    let needs = needs();
    // The first use that needs the highest model.
    let Some(first) = needs.iter().min_by_key(|n| std::cmp::Reverse(n.model)) else {
        return (ShaderModel::default(), None);
    };
    let top = first.model;
    let mut note = Diagnostic::warning(text!(
        "writing HLSL for shader model {top}: {} needs it",
        first.what
    ))
    .at(first.span.clone(), text!("needs shader model {top}"));
    note.severity = Severity::Note;
    if needs.iter().any(|n| n.what == F16) {
        note = note.note("compile with DXC's `-enable-16bit-types`: `f16` is HLSL's `float16_t`");
    }
    let note = note.note(text!(
        "`--shader-model` overrides this choice; below {top} this module is an error"
    ));
    (top, Some(note))
}

const F16: &str = "`f16`";

/// Every use in `module` that needs a shader model above the default, in
/// the order of the module doc's list.
pub(super) fn needs(
    parsed: &crate::front::Parsed,
    module: &naga::Module,
    info: &naga::valid::ModuleInfo,
    contract: &crate::layout::LayoutModule,
    plan: &crate::back::hlsl::buffers::Plan,
    selected: &[usize],
) -> Vec<Need> {
    let mut needs = Vec::new();
    let span = |s: naga::Span| s.to_range().unwrap_or(0..0);
    let f16 = crate::back::common::first_scalar_uses(module).find_map(|(scalar, ty)| {
        (scalar == naga::Scalar::F16).then(|| span(crate::back::common::use_span(module, ty)))
    });
    if let Some(at) = f16
        .or_else(|| crate::front::split::enable_directive(&parsed.source, &parsed.scanned, "f16"))
    {
        needs.push(Need {
            model: ShaderModel::Sm6_2,
            span: at,
            what: F16.to_string(),
        });
    }
    if let Some((st, scalar)) = wide_storages(info, contract, plan, selected).first() {
        needs.push(Need {
            model: ShaderModel::Sm6_2,
            span: st.span.clone(),
            what: text!(
                "`{}` holding `{}` values (a byte-address buffer's `Load<T>`/`Store<T>`)",
                st.name,
                crate::back::hlsl::types::scalar(*scalar)
            ),
        });
    }
    for &index in selected {
        let Some(ep) = module.entry_points.get(index) else {
            continue;
        };
        let wanted = crate::bind::d3d::input_builtins(module, ep)
            .find_map(|b| Some((b, builtin_model(b).filter(|&m| m > ShaderModel::default())?)));
        if let Some((b, model)) = wanted {
            let name = crate::back::common::builtin_wgsl_name(b).unwrap_or_default();
            needs.push(Need {
                model,
                span: span(entry_span(parsed, module, index)),
                what: text!("`@builtin({name})`"),
            });
            break;
        }
    }
    // 64-bit atomics on buffer values, or on the texels of an r64uint
    // storage texture.
    let atomic = module.types.iter().find_map(|(h, ty)| match ty.inner {
        TypeInner::Atomic(s) if s.width == 8 && s.kind != ScalarKind::Float => {
            Some(span(use_span(module, h)))
        }
        TypeInner::Image {
            class:
                naga::ImageClass::Storage {
                    format: naga::StorageFormat::R64Uint,
                    access,
                },
            ..
        } if access.contains(naga::StorageAccess::ATOMIC) => Some(span(use_span(module, h))),
        _ => None,
    });
    if let Some(at) = atomic {
        needs.push(Need {
            model: ShaderModel::Sm6_6,
            span: at,
            what: "a 64-bit atomic".to_string(),
        });
    }
    needs
}
