//! Naming: every module item's GLSL name (naga's namer with the reserved
//! words and prefixes, repaired for `__`) and the names of the combined
//! samplers.

use super::GlobalHandle;
use crate::back::glsl::{collapse_underscores, first_free, has_double_underscore, keywords};
use crate::back::glsl::{numbered, Ctx};
use crate::bind::gl::Pair;
use naga::proc::{ExternalTextureNameKey, NameKey};
use naga::FastIndexSet;
use naga::Handle;

/// Every module item's GLSL name: naga's namer with our reserved words and
/// prefixes, then the one repair it needs for GLSL (no `__`).
pub(super) fn module_names(module: &naga::Module) -> naga::FastHashMap<NameKey, String> {
    let mut names = crate::back::common::module_names(
        module,
        &keywords::RESERVED,
        &keywords::BUILTINS,
        naga::proc::CaseInsensitiveKeywordSet::empty(),
        keywords::RESERVED_PREFIXES,
    );
    repair_double_underscores(&mut names);
    names
}

/// GLSL reserves every identifier containing `__`. naga's namer collapses
/// runs of `_` in source names but writes `gen_` before a name that starts
/// with a reserved prefix (`_s_x` becomes `gen__s_x`); such names get the
/// run collapsed and, if that clashes, a numeric suffix. Deterministic: the
/// names are repaired in sorted order.
fn repair_double_underscores(names: &mut naga::FastHashMap<NameKey, String>) {
    if !names.values().any(|n| has_double_underscore(n)) {
        return;
    }
    let mut taken: FastIndexSet<String> = names.values().cloned().collect();
    let mut broken: Vec<(String, &mut String)> = names
        .iter_mut()
        .filter(|(_, n)| has_double_underscore(n))
        .map(|(k, n)| (format!("{k:?}"), n))
        .collect();
    broken.sort_by(|(ka, a), (kb, b)| (&**a, ka).cmp(&(&**b, kb)));
    for (_, name) in broken {
        let base = collapse_underscores(name.clone());
        let candidate = first_free(base, |c| taken.contains(c), numbered);
        taken.insert(candidate.clone());
        *name = candidate;
    }
}

/// The key under which the combined sampler of `image` with `sampler` is
/// named (see the module doc).
fn combined_key(image: GlobalHandle, sampler: Option<GlobalHandle>) -> NameKey {
    let plane = sampler.map_or(0, |s| s.index() + 1);
    NameKey::ExternalTextureGlobalVariable(image, ExternalTextureNameKey::Plane(plane))
}

/// Name every combined sampler of `pairs`, unique against all names.
pub(super) fn name_combined_samplers(
    pairs: &[Pair],
    names: &mut naga::FastHashMap<NameKey, String>,
) {
    for &(image, sampler) in pairs {
        let global = |g| {
            names
                .get(&NameKey::GlobalVariable(g))
                .map_or("", String::as_str)
        };
        let name = match sampler {
            // The texture itself is not declared in OpenGL: its name is free.
            None => global(image).to_string(),
            Some(s) => {
                let base = format!("{}_{}", global(image), global(s));
                // Every name given so far is a value of `names`.
                first_free(base, |c| names.values().any(|t| t == c), numbered)
            }
        };
        names.insert(combined_key(image, sampler), name);
    }
}

/// OpenGL dialects: the name of the combined sampler for `image` used with
/// `sampler` (`None`: read without a sampler).
pub fn combined_sampler_name(
    ctx: &Ctx<'_>,
    image: Handle<naga::GlobalVariable>,
    sampler: Option<Handle<naga::GlobalVariable>>,
) -> String {
    match ctx.names.get(&combined_key(image, sampler)) {
        Some(name) => name.clone(),
        // Not collected (should not happen): a stable fallback.
        None => match sampler {
            Some(s) => format!(
                "{}_{}",
                ctx.name(NameKey::GlobalVariable(image)),
                ctx.name(NameKey::GlobalVariable(s))
            ),
            None => ctx.name(NameKey::GlobalVariable(image)).to_string(),
        },
    }
}
