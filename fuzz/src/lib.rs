//! What every stride fuzz target checks, shared by the targets in
//! `fuzz_targets/` (see docs/fuzzing.md).
//!
//! A failed check panics: libFuzzer records the input as a crash.

use stride::back::glsl::{Dialect, GlslOptions};
use stride::back::hlsl::{HlslOptions, RegisterMode, ShaderModel};
use stride::{Diagnostic, DiagnosticKind, Diagnostics, Options, Target};

/// The generator of tests/exec/gen.rs (the execution test's random
/// modules), shared with the `structured` target and the seed program.
#[allow(dead_code)]
#[path = "../../tests/exec/gen.rs"]
pub mod gen;

/// The split's source-map invariant, shared with tests/fuzz_regressions.rs.
#[path = "../../tests/common/split_map.rs"]
pub mod split_map;

/// The fuzz input as text: UTF-8 where valid, with invalid sequences
/// replaced.
pub fn text(data: &[u8]) -> std::borrow::Cow<'_, str> {
    String::from_utf8_lossy(data)
}

/// Every span of `d` (labels and fix edits) lies inside `source` and on
/// char boundaries; an internal error is a crash.
pub fn check_diagnostic(source: &str, d: &Diagnostic) {
    assert!(
        d.kind != DiagnosticKind::Internal,
        "internal error: {}\n{source}",
        d.message
    );
    let spans = d
        .labels
        .iter()
        .map(|l| &l.span)
        .chain(d.fixes.iter().flat_map(|f| f.edits.iter().map(|e| &e.span)));
    for span in spans {
        assert!(
            span.start <= span.end
                && span.end <= source.len()
                && source.is_char_boundary(span.start)
                && source.is_char_boundary(span.end),
            "span {span:?} of {:?} is outside the source ({} bytes) or inside a char",
            d.message,
            source.len()
        );
    }
}

pub fn check_diagnostics<'a>(source: &str, all: impl IntoIterator<Item = &'a Diagnostic>) {
    for d in all {
        check_diagnostic(source, d);
    }
}

/// Translate `source` with `options`; the result's diagnostics are
/// checked, an error always comes without output and a success without
/// an error. Returns the errors, if any.
pub fn translate_checked(source: &str, options: &Options) -> Option<Diagnostics> {
    match stride::translate(source, options) {
        Ok(t) => {
            check_diagnostics(source, t.warnings.iter());
            assert!(
                !t.warnings.has_errors(),
                "{}: output with an error",
                options.target
            );
            None
        }
        Err(d) => {
            check_diagnostics(source, d.iter());
            assert!(d.has_errors(), "{}: no output and no error", options.target);
            Some(d)
        }
    }
}

/// The option sets a target is fuzzed with: every GLSL dialect; HLSL in
/// both register modes under three shader models; one for the others.
pub fn variants(target: Target) -> Vec<Options> {
    let base = Options {
        target,
        ..Default::default()
    };
    match target {
        Target::Glsl => Dialect::ALL
            .iter()
            .map(|&dialect| Options {
                glsl: GlslOptions {
                    dialect,
                    ..Default::default()
                },
                ..base.clone()
            })
            .collect(),
        Target::Hlsl => [ShaderModel::Sm5_1, ShaderModel::Sm6_0, ShaderModel::Sm6_6]
            .iter()
            .flat_map(|&shader_model| {
                [RegisterMode::Wgsl, RegisterMode::Compact]
                    .map(|registers| (shader_model, registers))
            })
            .map(|(shader_model, registers)| Options {
                hlsl: HlslOptions {
                    shader_model: Some(shader_model),
                    registers,
                    ..Default::default()
                },
                ..base.clone()
            })
            .collect(),
        _ => vec![base],
    }
}

/// The body of a `translate_<target>` fuzz target.
pub fn fuzz_translate(target: Target, data: &[u8]) {
    let source = text(data);
    for options in variants(target) {
        translate_checked(&source, &options);
    }
}

/// A `translate_<target>` fuzz target: `translate_target!(Glsl);`.
#[macro_export]
macro_rules! translate_target {
    ($target:ident) => {
        libfuzzer_sys::fuzz_target!(|data: &[u8]| {
            stride_fuzz::fuzz_translate(stride::Target::$target, data);
        });
    };
}

/// The entry point appended to a generated module: it touches every
/// buffer, so that each is laid out and written by every target.
pub const ENTRY: &str = "
@compute @workgroup_size(1) fn main() {
    _ = &gu;
    _ = &gs;
    _ = &gw;
}
";

/// A generated (valid) layout module through every target: it translates,
/// or is refused with errors whose spans point at a declaration the
/// module names (a member, struct, alias or buffer). Never internal.
pub fn check_generated(source: &str) {
    for target in Target::ALL {
        for options in variants(target) {
            let Some(errors) = translate_checked(source, &options) else {
                continue;
            };
            for d in errors.iter().filter(|d| d.is_error()) {
                let named = d
                    .labels
                    .iter()
                    .any(|l| names_a_declaration(&source[l.span.clone()]));
                assert!(
                    named,
                    "{target}: a generated module refused without a span on a declaration: {}\n{source}",
                    d.message
                );
            }
        }
    }
}

/// `text` (a label's span) holds a name the generator gives: `m<i>` (a
/// member), `S<i>`, `A<i>`, or one of the buffers.
fn names_a_declaration(text: &str) -> bool {
    text.split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
        .any(|word| {
            let digits = |rest: &str| !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_digit());
            matches!(word, "gu" | "gs" | "gw")
                || word.strip_prefix('m').is_some_and(digits)
                || word.strip_prefix('S').is_some_and(digits)
                || word.strip_prefix('A').is_some_and(digits)
        })
}
