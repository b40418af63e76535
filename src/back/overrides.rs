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
    let (baked, baked_info) = bake_module(module, info, values)?;
    Ok((baked, baked_info, notes(module, values, target, why)))
}

/// Whether override `o` is the one `name` (its name or its `@id`) means.
fn named(o: &naga::Override, name: &str) -> bool {
    o.name.as_deref() == Some(name) || o.id.is_some_and(|id| id.to_string() == name)
}

/// The name of override `handle` in messages.
fn override_name(handle: naga::Handle<naga::Override>, o: &naga::Override) -> String {
    o.name
        .clone()
        .unwrap_or_else(|| format!("#{}", handle.index()))
}

/// The warnings of [`bake`] (`target` and `why` as there), one per
/// override, saying what it was baked in as. For a module that
/// [`bake_module`] baked with `values`.
pub fn notes(
    module: &naga::Module,
    values: &[(String, f64)],
    target: &str,
    why: &str,
) -> Vec<Diagnostic> {
    let mut warnings = Vec::new();
    for (handle, o) in module.overrides.iter() {
        let name = override_name(handle, o);
        let given = values.iter().find(|(n, _)| named(o, n));
        let span = module.overrides.get_span(handle).to_range().unwrap_or(0..0);
        let how = match given {
            Some((_, v)) => format!("the value {v} given with --override"),
            None => "its default value".to_string(),
        };
        warnings.push(
            Diagnostic::warning(format!(
                "override `{name}` is baked into the {target} as {how}"
            ))
            .at(span, "becomes a constant")
            .note(why),
        );
    }
    warnings
}

/// The module with every override replaced by a constant (see [`bake`]),
/// and its validation info: naga's baking validates the module it makes,
/// which is the translation's one validation after baking.
pub fn bake_module(
    module: &naga::Module,
    info: &naga::valid::ModuleInfo,
    values: &[(String, f64)],
) -> Result<(naga::Module, naga::valid::ModuleInfo), Diagnostics> {
    let mut constants = naga::back::PipelineConstants::default();
    for (name, value) in values {
        let Some((_, o)) = module.overrides.iter().find(|(_, o)| named(o, name)) else {
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
    for (handle, o) in module.overrides.iter() {
        if o.init.is_none() && !values.iter().any(|(n, _)| named(o, n)) {
            let name = override_name(handle, o);
            let span = module.overrides.get_span(handle).to_range().unwrap_or(0..0);
            return Err(Diagnostic::error(format!(
                "override `{name}` has no default value and none was given"
            ))
            .at(span, "needs a value")
            .note(format!("pass `--override {name}=VALUE`"))
            .into());
        }
    }
    if !module.overrides.is_empty() {
        // naga validates what it baked (with nothing to bake it returns
        // the module as it is).
        crate::front::count_validation();
    }
    let baked = guarded(|| {
        naga::back::pipeline_constants::process_overrides(module, info, None, &constants)
            .map(|(m, i)| (m.into_owned(), i.into_owned()))
            .map_err(|e| crate::diag::error_chain(&e))
    });
    match baked {
        Ok(Ok(baked)) => Ok(baked),
        Ok(Err(e)) => {
            // Point at the overrides: their values are what failed.
            let mut d = Diagnostic::error(format!("cannot bake the overrides: {e}"));
            for (handle, _) in module.overrides.iter() {
                let span = module.overrides.get_span(handle).to_range().unwrap_or(0..0);
                d = d.also(span, "baked with this value");
            }
            Err(d.into())
        }
        Err(panic) => Err(super::naga_panic("override processing", &panic).into()),
    }
}
