//! Layout computation: naga module + annotations -> LayoutModule.

use super::{LayoutModule, RuleSet};
use crate::diag::Diagnostics;
use crate::front::Parsed;

/// Compute the layouts of every buffer type under `rules`. The `Wgsl` rule
/// set applies the source's attributes (the contract); the other rule sets
/// give the natural layout of the same declarations, attributes ignored.
pub fn build(parsed: &Parsed, rules: RuleSet) -> Result<LayoutModule, Diagnostics> {
    let _ = parsed;
    Ok(LayoutModule {
        rules,
        structs: Default::default(),
        globals: Vec::new(),
    })
}
