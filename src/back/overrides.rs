//! Baking pipeline-overridable constants into constants, for the backends
//! that cannot (or, given `--override` values, should not) keep them as
//! specialization constants.

use crate::diag::{Diagnostic, Diagnostics};
use crate::guard::guarded;

/// A module with every override replaced by a constant, its validation
/// info, and one warning per override saying what was baked in.
pub type Baked = (naga::Module, naga::valid::ModuleInfo, Vec<Diagnostic>);

/// Replace every override by a constant: the value given in `values` (by
/// name or `@id`), else its default. `target` names the output in the
/// warnings (`SPIR-V`, `GLSL`) and `why` is their note: why the overrides
/// are baked.
pub fn bake(
    module: &naga::Module,
    info: &naga::valid::ModuleInfo,
    values: &[(String, f64)],
    target: &str,
    why: &str,
) -> Result<Baked, Diagnostics> {
    let matches = |o: &naga::Override, name: &str| {
        o.name.as_deref() == Some(name) || o.id.is_some_and(|id| id.to_string() == name)
    };
    let mut constants = naga::back::PipelineConstants::default();
    for (name, value) in values {
        let Some((_, o)) = module.overrides.iter().find(|(_, o)| matches(o, name)) else {
            let known: Vec<String> = module
                .overrides
                .iter()
                .filter_map(|(_, o)| o.name.as_ref().map(|n| format!("`{n}`")))
                .collect();
            let mut d = Diagnostic::error(format!(
                "no override named `{name}` in this module (--override {name}=...)"
            ));
            if !known.is_empty() {
                d = d.note(format!("the overrides are {}", known.join(", ")));
            }
            return Err(d.into());
        };
        // naga keys an override with an `@id` by that id, others by name.
        let key = o.id.map_or_else(|| name.clone(), |id| id.to_string());
        constants.insert(key, *value);
    }
    let mut warnings = Vec::new();
    for (handle, o) in module.overrides.iter() {
        let name = o
            .name
            .clone()
            .unwrap_or_else(|| format!("#{}", handle.index()));
        let given = values.iter().find(|(n, _)| matches(o, n));
        let span = module.overrides.get_span(handle).to_range().unwrap_or(0..0);
        let how = match (given, o.init) {
            (Some((_, v)), _) => format!("the value {v} given with --override"),
            (None, Some(_)) => "its default value".to_string(),
            (None, None) => {
                return Err(Diagnostic::error(format!(
                    "override `{name}` has no default value and none was given"
                ))
                .at(span, "needs a value")
                .note(format!("pass `--override {name}=VALUE`"))
                .into())
            }
        };
        warnings.push(
            Diagnostic::warning(format!(
                "override `{name}` is baked into the {target} as {how}"
            ))
            .at(span, "becomes a constant")
            .note(why),
        );
    }
    let baked = guarded(|| {
        naga::back::pipeline_constants::process_overrides(module, info, None, &constants)
            .map(|(m, i)| (m.into_owned(), i.into_owned()))
            .map_err(|e| crate::diag::error_chain(&e))
    });
    match baked {
        Ok(Ok((m, i))) => Ok((m, i, warnings)),
        Ok(Err(e)) => {
            // Point at the overrides: their values are what failed.
            let mut d = Diagnostic::error(format!("cannot bake the overrides: {e}"));
            for (handle, _) in module.overrides.iter() {
                let span = module.overrides.get_span(handle).to_range().unwrap_or(0..0);
                d = d.also(span, "baked with this value");
            }
            Err(d.into())
        }
        Err(panic) => Err(Diagnostic::internal(format!(
            "internal error in naga's override processing: {panic}; please report"
        ))
        .note("stride caught a panic in naga and produced no output")
        .into()),
    }
}
