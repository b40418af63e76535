//! What a call produced, for build systems: the Makefile-style depfile
//! (`--depfile`) and the JSON manifest (`--manifest`). Both are written in
//! input order, then target order, so the same call gives the same bytes.

use super::inputs::Input;
use super::Fatal;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use stride::diag::Severity;
use stride::{Diagnostic, DiagnosticKind, Target};

/// One output file written (or found unchanged) by this call.
pub struct Produced {
    pub path: PathBuf,
    pub size: u64,
    /// [`fnv1a64`] of the file's bytes, where a manifest will list it.
    pub hash: Option<u64>,
}

impl Produced {
    /// `bytes` written to `path`; hashed when `hashed` (for the manifest:
    /// nothing else reads the hash).
    pub fn new(path: PathBuf, bytes: &[u8], hashed: bool) -> Produced {
        Produced {
            path,
            size: bytes.len() as u64,
            hash: hashed.then(|| fnv1a64(bytes)),
        }
    }
}

/// One target of one input: whether it succeeded and the files it gave.
pub struct TargetReport {
    pub target: Target,
    pub ok: bool,
    pub outputs: Vec<Produced>,
}

/// What became of one input: its targets and every diagnostic, with the
/// target it belongs to (`None`: parse and layout, shared by every target).
pub struct InputReport {
    pub targets: Vec<TargetReport>,
    pub diagnostics: Vec<(Option<Target>, Diagnostic)>,
}

impl InputReport {
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(|(_, d)| d.is_error())
    }
}

/// 64-bit FNV-1a (offset basis 0xcbf29ce484222325, prime 0x100000001b3):
/// a small, stable, documented hash for telling outputs apart. Not a
/// cryptographic hash.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

/// The depfile: one rule per output file, `OUTPUT: INPUT`, in the form make
/// and ninja read (spaces and `#` escaped with `\`, `$` as `$$`). An output
/// of standard input depends on no file.
pub fn depfile(inputs: &[Input], reports: &[InputReport]) -> Result<String, Fatal> {
    let mut text = String::new();
    for (input, report) in inputs.iter().zip(reports) {
        let input = match &input.path {
            Some(p) => format!(" {}", escape(p)?),
            None => String::new(),
        };
        for output in report.targets.iter().flat_map(|t| &t.outputs) {
            text.push_str(&escape(&output.path)?);
            text.push(':');
            text.push_str(&input);
            text.push('\n');
        }
    }
    Ok(text)
}

/// A path as a make word: `\` before a space, tab or `#` (and the
/// backslashes right before one doubled), `$$` for `$`. A line break cannot
/// be written.
fn escape(path: &Path) -> Result<String, Fatal> {
    let text = path.to_string_lossy();
    if text.contains(['\n', '\r']) {
        return Err(Fatal(format!(
            "`{}`: a path with a line break cannot go into a depfile",
            text.escape_debug()
        )));
    }
    let mut out = String::with_capacity(text.len());
    let mut backslashes = 0;
    for c in text.chars() {
        match c {
            '\\' => {
                backslashes += 1;
                continue;
            }
            ' ' | '\t' | '#' => {
                out.extend(std::iter::repeat_n('\\', backslashes * 2 + 1));
                out.push(c);
            }
            '$' => {
                out.extend(std::iter::repeat_n('\\', backslashes));
                out.push_str("$$");
            }
            _ => {
                out.extend(std::iter::repeat_n('\\', backslashes));
                out.push(c);
            }
        }
        backslashes = 0;
    }
    out.extend(std::iter::repeat_n('\\', backslashes));
    Ok(out)
}

/// The manifest: every input with its outputs per target (path, size,
/// hash) and its diagnostics. The format is described in docs/cli.md.
pub fn manifest(inputs: &[Input], reports: &[InputReport]) -> String {
    let inputs: Vec<Value> = inputs
        .iter()
        .zip(reports)
        .map(|(input, report)| input_json(input, report))
        .collect();
    let doc = json!({
        "manifest": 1,
        "hash": "fnv1a64",
        "inputs": inputs,
    });
    let mut text = serde_json::to_string_pretty(&doc).unwrap_or_default();
    text.push('\n');
    text
}

fn input_json(input: &Input, report: &InputReport) -> Value {
    let mut targets = serde_json::Map::new();
    for t in &report.targets {
        let outputs: Vec<Value> = t
            .outputs
            .iter()
            .map(|o| {
                json!({
                    "path": o.path.to_string_lossy(),
                    "size": o.size,
                    "hash": o.hash.map(|h| format!("{h:016x}")),
                })
            })
            .collect();
        targets.insert(
            t.target.name().into(),
            json!({ "ok": t.ok, "outputs": outputs }),
        );
    }
    let source = &input.source;
    let diagnostics: Vec<Value> = report
        .diagnostics
        .iter()
        .map(|(target, d)| diagnostic_json(*target, d, source))
        .collect();
    json!({
        "input": input.name,
        "ok": report.targets.iter().all(|t| t.ok),
        "targets": targets,
        "diagnostics": diagnostics,
    })
}

fn diagnostic_json(target: Option<Target>, d: &Diagnostic, source: &str) -> Value {
    let severity = match d.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Note => "note",
    };
    let kind = match d.kind {
        DiagnosticKind::Source => "source",
        DiagnosticKind::Inexpressible => "inexpressible",
        DiagnosticKind::Unsupported => "unsupported",
        DiagnosticKind::Internal => "internal",
    };
    let (line, column) = match d.primary_span() {
        Some(span) => {
            let (l, c) = line_column(source, span.start);
            (Value::from(l), Value::from(c))
        }
        None => (Value::Null, Value::Null),
    };
    json!({
        "target": target.map(Target::name),
        "severity": severity,
        "kind": kind,
        "message": d.message,
        "line": line,
        "column": column,
        "notes": d.notes,
        "fixes": d.fixes.iter().map(|f| f.title.clone()).collect::<Vec<_>>(),
    })
}

/// 1-based line and column (in characters) of byte `offset` of `source`.
fn line_column(source: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(source.len());
    while !source.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &source[..offset];
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (
        before.matches('\n').count() + 1,
        before[line_start..].chars().count() + 1,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a64_known_values() {
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a64(b"foobar"), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn make_escaping() {
        let e = |s: &str| escape(Path::new(s)).unwrap_or_default();
        assert_eq!(e("out/a b.spv"), "out/a\\ b.spv");
        assert_eq!(e("x#1$y"), "x\\#1$$y");
        assert_eq!(e("a\\ b"), "a\\\\\\ b");
        assert_eq!(e("a\\b"), "a\\b");
        assert!(escape(Path::new("a\nb")).is_err());
    }

    #[test]
    fn line_and_column() {
        assert_eq!(line_column("ab\ncd", 4), (2, 2));
        assert_eq!(line_column("é\nx", 1), (1, 1));
    }
}
