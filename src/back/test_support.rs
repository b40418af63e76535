//! What the buffer-plan tests of the GLSL and HLSL writers share: a module
//! analyzed as far as a writer needs it, and a minimal namer. Free
//! functions and a plain struct: each writer's tests add their own `plan`
//! and `ctx` through a local trait.

use crate::front::Parsed;
use crate::layout::{LayoutModule, RuleSet};
use naga::proc::NameKey;
use naga::FastHashMap;

/// A module parsed, laid out, validated and named.
pub struct Fixture {
    pub parsed: Parsed,
    pub contract: LayoutModule,
    pub info: naga::valid::ModuleInfo,
    pub names: FastHashMap<NameKey, String>,
}

/// `source` as [`crate::analyze`] gives it, in the three parts a writer
/// takes: the parse, naga's validation and the contract.
pub fn analyzed(source: &str) -> (Parsed, naga::valid::ModuleInfo, LayoutModule) {
    let a = crate::analyze(source).expect("valid WGSL");
    (a.parsed, a.info, a.contract)
}

/// `source` through [`crate::back::write_text`] with `options`: every
/// entry point, no override values.
pub fn write_text<O: crate::back::TextOptions>(
    source: &str,
    options: &O,
) -> Result<<O as super::sealed::Writer>::Output, crate::diag::Diagnostics> {
    let (parsed, info, contract) = analyzed(source);
    crate::back::write_text(&parsed, &info, &contract, &Default::default(), options)
}

/// `source` analyzed, named by [`names_for`] with `ident`.
pub fn fixture(source: &str, ident: fn(&str) -> String) -> Result<Fixture, String> {
    let parsed = crate::front::parse(source).map_err(|d| d.to_string())?;
    let contract = crate::layout::build(&parsed, RuleSet::Wgsl).map_err(|d| d.to_string())?;
    let info = crate::front::validate_parsed(&parsed).map_err(|d| d.to_string())?;
    let names = names_for(&parsed.module, ident);
    Ok(Fixture {
        parsed,
        contract,
        info,
        names,
    })
}

/// A fixture for a corpus sweep: `fx` when its contract passes the layout
/// checks, else the line a skip list shows for `stem`.
pub fn checked(stem: &str, fx: Result<Fixture, String>) -> Result<Fixture, String> {
    let fx = fx.map_err(|e| format!("{stem}: {}", e.lines().next().unwrap_or("")))?;
    let checked = crate::layout::check::check(&fx.parsed, &fx.contract);
    if let Some(first) = checked.iter().find(|d| d.is_error()) {
        return Err(format!("{stem}: contract check errors: {}", first.message));
    }
    Ok(fx)
}

/// A minimal namer: the WGSL names, each through `ident` (which escapes
/// the target language's words).
pub fn names_for(module: &naga::Module, ident: fn(&str) -> String) -> FastHashMap<NameKey, String> {
    let mut names = FastHashMap::default();
    for (h, t) in module.types.iter() {
        if let Some(n) = &t.name {
            names.insert(NameKey::Type(h), ident(n));
        }
        if let naga::TypeInner::Struct { members, .. } = &t.inner {
            for (i, m) in members.iter().enumerate() {
                let n = m.name.clone().unwrap_or_else(|| format!("m{i}"));
                names.insert(NameKey::StructMember(h, i as u32), ident(&n));
            }
        }
    }
    for (h, g) in module.global_variables.iter() {
        let n = g.name.clone().unwrap_or_else(|| format!("g{}", h.index()));
        names.insert(NameKey::GlobalVariable(h), ident(&n));
    }
    names
}

/// `name` as a test identifier: characters other than ASCII letters,
/// digits and `_` become `_`; a word the language reserves (`reserved`),
/// a name starting with `prefix` or one containing `__` gets `_x` (and
/// `__` becomes `_u_`).
pub fn ident(name: &str, reserved: impl Fn(&str) -> bool, prefix: &str) -> String {
    let name: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if reserved(&name) || name.starts_with(prefix) || name.contains("__") {
        format!("{}_x", name.replace("__", "_u_"))
    } else {
        name
    }
}
