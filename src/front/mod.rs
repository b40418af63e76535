//! Front end: `scan` (module-scope declarations with exact spans), `dialect`
//! (layout attributes -> [`Annotations`] plus standard WGSL with the dialect
//! text blanked), then naga's WGSL parser.

pub mod dialect;
pub mod scan;

use crate::diag::{Diagnostic, Diagnostics};
pub use dialect::Annotations;
pub use scan::ScannedModule;

/// A parsed input: everything downstream needs from the front end.
#[derive(Debug)]
pub struct Parsed {
    /// The original source text; every span points into it.
    pub source: String,
    /// The source handed to naga: same byte length, dialect text blanked.
    pub standard: String,
    pub scanned: ScannedModule,
    pub annotations: Annotations,
    pub module: naga::Module,
    /// Non-fatal diagnostics (deprecations and the like).
    pub warnings: Vec<Diagnostic>,
}

/// scan -> dialect -> naga parse. Errors are returned as diagnostics with
/// spans into `source`.
pub fn parse(source: &str) -> Result<Parsed, Diagnostics> {
    let scanned = scan::scan(source)?;
    let lowered = dialect::lower(source, &scanned)?;
    let module = naga::front::wgsl::parse_str(&lowered.standard)
        .map_err(|e| Diagnostics::from(parse_error(&e)))?;
    Ok(Parsed {
        source: source.to_string(),
        standard: lowered.standard,
        scanned,
        annotations: lowered.annotations,
        module,
        warnings: lowered.warnings,
    })
}

/// naga's WGSL parse error as our diagnostic, keeping its labels and notes.
pub fn parse_error(e: &naga::front::wgsl::ParseError) -> Diagnostic {
    let mut d = Diagnostic::error(e.message().to_string());
    for (i, (span, label)) in e.labels().enumerate() {
        let range = span.to_range().unwrap_or(0..0);
        if i == 0 {
            d = d.at(range, label.to_string());
        } else {
            d = d.also(range, label.to_string());
        }
    }
    for n in e.notes() {
        d = d.note(n.to_string());
    }
    d
}

/// naga validation with every capability on and STRUCT_LAYOUTS off: the
/// layout rules are ours (`layout::check`).
pub fn validate(module: &naga::Module) -> Result<naga::valid::ModuleInfo, Diagnostics> {
    let flags = naga::valid::ValidationFlags::all() - naga::valid::ValidationFlags::STRUCT_LAYOUTS;
    let mut validator = naga::valid::Validator::new(flags, naga::valid::Capabilities::all());
    validator
        .validate(module)
        .map_err(|e| Diagnostics::from(validation_error(&e)))
}

/// A naga validation error as our diagnostic: the error chain as the
/// message, every span context as a label.
pub fn validation_error(e: &naga::WithSpan<naga::valid::ValidationError>) -> Diagnostic {
    use std::error::Error;
    let inner = e.as_inner();
    let mut message = inner.to_string();
    let mut source = inner.source();
    while let Some(s) = source {
        message.push_str(": ");
        message.push_str(&s.to_string());
        source = s.source();
    }
    let mut d = Diagnostic::error(message);
    for (i, (span, label)) in e.spans().enumerate() {
        let range = span.to_range().unwrap_or(0..0);
        if i == 0 {
            d = d.at(range, label.clone());
        } else {
            d = d.also(range, label.clone());
        }
    }
    d
}
