//! Front end: `scan` (module-scope declarations with exact spans), `dialect`
//! (layout attributes -> [`Annotations`] plus standard WGSL with the dialect
//! text blanked), `split` (resource structs), `external` (texture_external,
//! around the parse), then naga's WGSL parser and the binding assignment.

pub mod bindings;
pub mod dialect;
pub mod external;
pub mod module;
pub mod scan;
pub mod split;

use crate::diag::{Diagnostic, Diagnostics};
pub use dialect::Annotations;
pub use scan::ScannedModule;

/// A parsed input: everything downstream needs from the front end.
#[derive(Clone, Debug)]
pub struct Parsed {
    /// The original source text; every span points into it.
    pub source: String,
    /// The source handed to naga: dialect text blanked; with resource
    /// structs split ([`split`]), the split declarations appended.
    pub standard: String,
    /// Maps spans of `standard` (and so naga's) back to `source`; empty
    /// unless resource structs were split.
    pub map: split::SourceMap,
    pub scanned: ScannedModule,
    pub annotations: Annotations,
    pub module: naga::Module,
    /// Non-fatal diagnostics (deprecations and the like).
    pub warnings: Vec<Diagnostic>,
    /// Bindings stride chose for resources whose source omits `@binding`
    /// (already written into `module`).
    pub allocations: Vec<crate::front::bindings::Allocation>,
    /// Uniform buffers follow the storage layout rules: the module says
    /// `requires uniform_buffer_standard_layout;`, or the options ask for it.
    pub uniform_standard: bool,
}

/// scan -> dialect -> naga parse. Errors are returned as diagnostics with
/// spans into `source`.
pub fn parse(source: &str) -> Result<Parsed, Diagnostics> {
    // The quick scan leaves `(` and `[` inside function bodies unchecked:
    // where anything fails, the full scan's error (if any) comes first, as
    // the scan runs first. Where everything passes, naga parsed the bodies,
    // so their brackets nest and the full scan would have passed too; the
    // split rewrites bodies, so then the full scan runs anyway.
    let parsed = scan::scan_quick(source).and_then(|scanned| parse_scanned(source, scanned));
    match parsed {
        Ok(p) if p.map.is_empty() => Ok(p),
        Ok(p) => scan::scan(source).map(|_| p),
        Err(d) => Err(scan::scan(source).err().unwrap_or(d)),
    }
}

/// [`parse`] after the scan.
fn parse_scanned(source: &str, scanned: ScannedModule) -> Result<Parsed, Diagnostics> {
    let too_large = crate::limits::check_scanned(&scanned);
    if !too_large.is_empty() {
        return Err(too_large);
    }
    let mut lowered = dialect::lower(source, &scanned)?;
    let split = split::split(
        source,
        &scanned,
        std::mem::take(&mut lowered.standard),
        &mut lowered.annotations,
    )?;
    let (mut standard, mut map) = (split.standard, split.map);
    external::append(
        source,
        &scanned,
        &mut standard,
        &mut map,
        &mut lowered.annotations,
    )?;
    let parsed = if split.prefix.is_empty() {
        naga::front::wgsl::parse_str(&standard)
    } else {
        naga::front::wgsl::parse_str(&[split.prefix, &standard].concat())
    };
    let mut module = parsed.map_err(|e| {
        let mut d = Diagnostics::from(parse_error(&e));
        split::unprefix_diagnostics(&mut d, split.prefix.len());
        map.diagnostics(&mut d);
        split::clamp_diagnostics(&mut d, source);
        d
    })?;
    if !split.prefix.is_empty() {
        split::unprefix(&mut module, split.prefix.len());
    }
    if !map.is_empty() {
        // The split globals were appended: give them the span of the
        // declaration they come from, which also keeps declaration order.
        let mut globals = module.global_variables.take();
        for (_, var, span) in globals.drain() {
            let range = span.to_range().map(|r| map.span(&r));
            let span = range.map_or(naga::Span::UNDEFINED, naga::Span::from);
            module.global_variables.append(var, span);
        }
    }
    external::lower(&mut module, &lowered.annotations, &map)?;
    let allocations =
        crate::front::bindings::assign(&mut module, &lowered.annotations).map_err(|mut d| {
            map.diagnostics(&mut d);
            d
        })?;
    let uniform_standard = lowered.annotations.uniform_standard_layout.is_some();
    Ok(Parsed {
        uniform_standard,
        source: source.to_string(),
        standard,
        map,
        scanned,
        annotations: lowered.annotations,
        module,
        warnings: lowered.warnings,
        allocations,
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
    validate_with(module, None)
}

/// [`validate`]; with `scanned`, a naga error that carries no span (naga
/// gives none for some entry-point and declaration errors) is pointed at the
/// declaration it names.
fn validate_with(
    module: &naga::Module,
    scanned: Option<&ScannedModule>,
) -> Result<naga::valid::ModuleInfo, Diagnostics> {
    count_validation();
    let flags = naga::valid::ValidationFlags::all() - naga::valid::ValidationFlags::STRUCT_LAYOUTS;
    let mut validator = naga::valid::Validator::new(flags, naga::valid::Capabilities::all());
    validator.validate(module).map_err(|e| {
        let mut d = validation_error(&e);
        if d.labels.is_empty() {
            if let Some(span) = scanned.and_then(|s| declaration_span(s, e.as_inner())) {
                d = d.at(span, "declared here");
            }
        }
        Diagnostics::from(d)
    })
}

#[cfg(test)]
thread_local! {
    /// How many times this thread has validated a module (tests only).
    static VALIDATIONS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Count one validation of a module by naga: ours, or the one naga's
/// override baking runs (tests read the count with [`validations`]).
pub(crate) fn count_validation() {
    #[cfg(test)]
    VALIDATIONS.with(|v| v.set(v.get() + 1));
}

/// How many modules this thread has validated so far.
#[cfg(test)]
pub(crate) fn validations() -> usize {
    VALIDATIONS.with(|v| v.get())
}

/// A naga validation error as our diagnostic: the error chain as the
/// message, every span context as a label.
pub fn validation_error(e: &naga::WithSpan<naga::valid::ValidationError>) -> Diagnostic {
    let mut d = Diagnostic::error(crate::diag::error_chain(e.as_inner()));
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

/// [`validate`] for a parsed input, with span-less errors pointed at the
/// declaration they name.
pub fn validate_parsed(parsed: &Parsed) -> Result<naga::valid::ModuleInfo, Diagnostics> {
    validate_with(&parsed.module, Some(&parsed.scanned))
}

/// The name span of the declaration a validation error is about.
fn declaration_span(
    scanned: &ScannedModule,
    error: &naga::valid::ValidationError,
) -> Option<crate::diag::Span> {
    use naga::valid::ValidationError as E;
    let (wanted, is_fn) = match error {
        E::EntryPoint { name, .. } | E::Function { name, .. } => (name, true),
        E::Type { name, .. }
        | E::Constant { name, .. }
        | E::Override { name, .. }
        | E::GlobalVariable { name, .. } => (name, false),
        _ => return None,
    };
    scanned.items.iter().find_map(|item| {
        let (name, span) = match &item.kind {
            scan::ItemKind::Fn { name, name_span } if is_fn => (name, name_span),
            scan::ItemKind::Struct(s) if !is_fn => (&s.name, &s.name_span),
            scan::ItemKind::Alias(a) if !is_fn => (&a.name, &a.name_span),
            scan::ItemKind::Var(v) if !is_fn => (&v.name, &v.name_span),
            scan::ItemKind::Const { name, name_span }
            | scan::ItemKind::Override { name, name_span }
                if !is_fn =>
            {
                (name, name_span)
            }
            _ => return None,
        };
        (name == wanted).then(|| span.clone())
    })
}
