//! Snapshot tests: every `corpus/**/*.wgsl` × every target is compared with
//! the expected files beside it:
//!
//! - `<stem>.spv` (SPIR-V, compared byte for byte),
//! - `<stem>.<entry>.<vert|frag|comp>`: GLSL (dialect vulkan450), one file
//!   per entry point,
//! - `<stem>.layout.txt`,
//! - `<stem>.reflect.json`,
//! - `<stem>.<target>.diag.txt`: the rendered diagnostics (no color) when the
//!   target reports errors, or warnings beside its output.
//!
//! Inputs in `corpus/params/` (spec/001's parameters) are translated with
//! `--registers compact` for the HLSL and Slang targets.
//!
//! `STRIDE_BLESS=1 cargo test --test snapshots` rewrites the expected files,
//! creates missing ones and deletes stale ones.
//!
//! The GLSL target is covered only when `common::glsl_snapshots_enabled()`
//! (off while the GLSL writer is stubs; `STRIDE_GLSL_SNAPSHOTS=1` turns it
//! on for one run). While it is off, GLSL expected files are left alone.

mod common;

use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};

use common::*;
use stride::back::glsl::{Dialect, GlslOptions};
use stride::{Options, Output, Target};

/// What one input gives for one target.
#[derive(PartialEq)]
struct Actual {
    /// The output files as (what follows `<stem>.` in the file name,
    /// bytes): one file, or one per entry point for GLSL. `None` when the
    /// translation failed.
    outputs: Option<Vec<(String, Vec<u8>)>>,
    /// Rendered diagnostics; `None` when there are none.
    diagnostics: Option<String>,
}

/// The targets the snapshot test covers in this run.
fn snapshot_targets() -> Vec<Target> {
    Target::ALL
        .into_iter()
        .filter(|&t| t != Target::Glsl || glsl_snapshots_enabled())
        .collect()
}

fn run(input: &Path, source: &str, target: Target) -> Result<Actual, String> {
    let mut options = Options {
        target,
        glsl: GlslOptions {
            dialect: Dialect::Vulkan450,
            ..Default::default()
        },
        ..Default::default()
    };
    let name = display_name(input);
    if name.starts_with("corpus/params/") {
        // spec/001's parameters: D3D registers by its own allocation.
        options.hlsl.registers = stride::back::hlsl::RegisterMode::Compact;
    }
    let result = panic::catch_unwind(AssertUnwindSafe(|| stride::translate(source, &options)));
    match result {
        Err(payload) => {
            let msg = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "(non-string panic payload)".to_string());
            Err(format!("stride::translate panicked: {msg}"))
        }
        Ok(Ok(t)) => {
            let suffix = output_suffix(target).to_string();
            let outputs = match &t.output {
                Output::Binary(words) => vec![(suffix, words_to_bytes(words))],
                Output::Text(s) => vec![(suffix, s.clone().into_bytes())],
                Output::Files(files) => files
                    .iter()
                    .map(|f| (f.suffix.clone(), f.text.clone().into_bytes()))
                    .collect(),
            };
            if let Output::Files(files) = &t.output {
                for f in files {
                    if split_glsl_file_name(&format!("x.{}", f.suffix)).is_none() {
                        return Err(format!(
                            "output file suffix `{}` is not `<entry>.<stage>`",
                            f.suffix
                        ));
                    }
                }
            }
            let diagnostics = if t.warnings.is_empty() {
                None
            } else {
                Some(t.warnings.render(&name, source, false))
            };
            Ok(Actual {
                outputs: Some(outputs),
                diagnostics,
            })
        }
        Ok(Err(d)) => Ok(Actual {
            outputs: None,
            diagnostics: Some(d.render(&name, source, false)),
        }),
    }
}

/// Written straight to stderr, past the test harness's output capture.
fn loud(text: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{text}");
}

/// Collects mismatches and bless actions for the final report.
#[derive(Default)]
struct Report {
    failures: Vec<String>,
    blessed: Vec<String>,
    compared: usize,
}

impl Report {
    fn fail(&mut self, what: String) {
        self.failures.push(what);
    }
}

/// Compare (or bless) one expected file. `actual == None` means the file
/// must not exist.
fn check_file(report: &mut Report, path: &Path, actual: Option<&[u8]>, binary: bool) {
    let name = display_name(path);
    let existing = std::fs::read(path).ok();
    if blessing() {
        match (actual, existing) {
            (Some(a), Some(e)) if a == e.as_slice() => {}
            (Some(a), e) => match std::fs::write(path, a) {
                Ok(()) => report.blessed.push(format!(
                    "{} {name}",
                    if e.is_some() { "updated" } else { "created" }
                )),
                Err(err) => report.fail(format!("{name}: cannot write: {err}")),
            },
            (None, Some(_)) => match std::fs::remove_file(path) {
                Ok(()) => report.blessed.push(format!("deleted {name}")),
                Err(err) => report.fail(format!("{name}: cannot delete: {err}")),
            },
            (None, None) => {}
        }
        return;
    }
    match (actual, existing) {
        (Some(a), Some(e)) => {
            report.compared += 1;
            if a == e.as_slice() {
                return;
            }
            let diff = if binary {
                spirv_diff(&e, a)
            } else {
                let e = String::from_utf8_lossy(&e);
                let a = String::from_utf8_lossy(a);
                format!(
                    "(left: expected, right: actual)\n{}",
                    pretty_assertions::StrComparison::new(&*e, &*a)
                )
            };
            report.fail(format!("{name}: differs from the actual output {diff}"));
        }
        (Some(a), None) => {
            let preview = if binary {
                format!("{} bytes of SPIR-V", a.len())
            } else {
                let text = String::from_utf8_lossy(a);
                let lines: Vec<&str> = text.lines().take(10).collect();
                format!("actual:\n{}", lines.join("\n"))
            };
            report.fail(format!(
                "{name}: expected file is missing (run `STRIDE_BLESS=1 cargo test --test snapshots` to create it); {preview}"
            ));
        }
        (None, Some(_)) => report.fail(format!(
            "{name}: stale expected file: the translation no longer produces it (run `STRIDE_BLESS=1 cargo test --test snapshots` to delete it)"
        )),
        (None, None) => {}
    }
}

/// Expected files whose input no longer exists.
fn stale_files(report: &mut Report) {
    let mut orphans: Vec<PathBuf> = Vec::new();
    walk(&corpus_dir(), &mut |p| {
        if let Some(input) = input_of_expected(p) {
            if !input.is_file() {
                orphans.push(p.to_path_buf());
            }
        }
    });
    for p in orphans {
        let name = display_name(&p);
        if blessing() {
            match std::fs::remove_file(&p) {
                Ok(()) => report.blessed.push(format!("deleted {name} (no input)")),
                Err(err) => report.fail(format!("{name}: cannot delete: {err}")),
            }
        } else {
            report.fail(format!(
                "{name}: stale expected file: its input {} does not exist (run `STRIDE_BLESS=1 cargo test --test snapshots` to delete it)",
                display_name(&input_of_expected(&p).unwrap_or_default())
            ));
        }
    }
}

#[test]
fn corpus_snapshots() {
    let inputs = corpus_inputs();
    let targets = snapshot_targets();
    if !targets.contains(&Target::Glsl) {
        loud("snapshots: the GLSL target is NOT covered (common::GLSL_SNAPSHOTS_DEFAULT is false; STRIDE_GLSL_SNAPSHOTS=1 turns it on)");
    }
    let mut report = Report::default();
    for input in &inputs {
        let name = display_name(input);
        let source = match std::fs::read_to_string(input) {
            Ok(s) => s,
            Err(e) => {
                report.fail(format!("{name}: cannot read: {e}"));
                continue;
            }
        };
        for &target in &targets {
            let actual = match run(input, &source, target) {
                Ok(a) => a,
                Err(msg) => {
                    report.fail(format!("{name} [{target}]: {msg}"));
                    continue;
                }
            };
            let outputs = actual.outputs.as_deref().unwrap_or_default();
            for (suffix, bytes) in outputs {
                check_file(
                    &mut report,
                    &sibling(input, suffix),
                    Some(bytes.as_slice()),
                    target == Target::Spirv,
                );
            }
            // Expected files the translation did not produce: a failed
            // translation, or (GLSL) an entry point that is gone.
            let produced: Vec<PathBuf> = outputs.iter().map(|(s, _)| sibling(input, s)).collect();
            let expected = if target == Target::Glsl {
                glsl_expected_files(input)
            } else {
                vec![sibling(input, output_suffix(target))]
            };
            for path in expected {
                if !produced.contains(&path) {
                    check_file(&mut report, &path, None, false);
                }
            }
            check_file(
                &mut report,
                &sibling(input, &diag_suffix(target)),
                actual.diagnostics.as_deref().map(str::as_bytes),
                false,
            );
        }
    }
    stale_files(&mut report);

    for b in &report.blessed {
        loud(&format!("bless: {b}"));
    }
    loud(&format!(
        "snapshots: {} inputs x {} targets, {} expected files compared, {} mismatches{}",
        inputs.len(),
        targets.len(),
        report.compared,
        report.failures.len(),
        if blessing() { " (bless mode)" } else { "" }
    ));
    assert!(
        !inputs.is_empty(),
        "no corpus inputs found under {}",
        corpus_dir().display()
    );
    if !report.failures.is_empty() {
        let mut msg = format!("{} snapshot mismatch(es):\n", report.failures.len());
        for (i, f) in report.failures.iter().enumerate() {
            msg.push_str(&format!("\n--- [{}] {f}\n", i + 1));
        }
        panic!("{msg}");
    }
}

/// The same input translated twice gives identical bytes (determinism).
#[test]
fn corpus_output_is_deterministic() {
    let mut failures = Vec::new();
    for input in corpus_inputs() {
        let Ok(source) = std::fs::read_to_string(&input) else {
            continue;
        };
        for target in snapshot_targets() {
            let (Ok(a), Ok(b)) = (run(&input, &source, target), run(&input, &source, target))
            else {
                continue;
            };
            if a != b {
                failures.push(format!("{} [{target}]", display_name(&input)));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "non-deterministic output for: {}",
        failures.join(", ")
    );
}

/// A SPIR-V mismatch is shown as a readable diff (spirv-dis text when
/// available, hex words otherwise), not as two byte arrays.
#[test]
fn spirv_mismatch_diff_is_readable() {
    let source = "struct P { a: f32, b: vec4<f32> }
@group(0) @binding(0) var<storage, read_write> p: P;
@compute @workgroup_size(1) fn main() { p.a = p.b.x; }";
    let module = match naga::front::wgsl::parse_str(source) {
        Ok(m) => m,
        Err(e) => panic!("naga: {e}"),
    };
    let info = match naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::all(),
    )
    .validate(&module)
    {
        Ok(i) => i,
        Err(e) => panic!("naga: {e:?}"),
    };
    let words = match naga::back::spv::write_vec(&module, &info, &Default::default(), None) {
        Ok(w) => w,
        Err(e) => panic!("naga: {e}"),
    };
    let expected = words_to_bytes(&words);
    // Change the Offset of member 1 (16) to 20.
    let mut changed = words.clone();
    let offset_decoration = changed.windows(5).position(|w| {
        w[0] == (5 << 16) | 72 // OpMemberDecorate, 5 words
            && w[2] == 1
            && w[3] == 35 // Offset
            && w[4] == 16
    });
    let Some(at) = offset_decoration else {
        panic!("no `OpMemberDecorate %P 1 Offset 16` in naga's output");
    };
    changed[at + 4] = 20;
    let diff = strip_ansi(&spirv_diff(&expected, &words_to_bytes(&changed)));
    if tool_available("spirv-dis", &["--version"]) {
        assert!(diff.contains("spirv-dis"), "{diff}");
        assert!(diff.contains("Offset 20"), "{diff}");
    } else {
        assert!(diff.contains("hex words"), "{diff}");
    }
    assert!(hex_words(&expected).starts_with("     0: 07230203\n"));
}

fn strip_ansi(s: &str) -> String {
    let mut out = String::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            for c in chars.by_ref() {
                if c.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// GLSL expected files (`<stem>.<entry>.<stage>`) map back to their input;
/// other dotted names do not look like GLSL outputs.
#[test]
fn glsl_file_names_map_to_inputs() {
    let dir = Path::new("corpus/shaders");
    assert_eq!(
        split_glsl_file_name("pbr.fs_main.frag"),
        Some(("pbr", "fs_main", "frag"))
    );
    assert_eq!(
        input_of_expected(&dir.join("pbr.fs_main.frag")),
        Some(dir.join("pbr.wgsl"))
    );
    assert_eq!(
        input_of_expected(&dir.join("pbr.glsl.diag.txt")),
        Some(dir.join("pbr.wgsl"))
    );
    assert_eq!(split_glsl_file_name("pbr.comp"), None);
    assert_eq!(split_glsl_file_name("pbr.layout.txt"), None);
    assert_eq!(split_glsl_file_name("pbr.1x.comp"), None);
    assert_eq!(
        input_of_expected(&dir.join("pbr.reflect.json")),
        Some(dir.join("pbr.wgsl"))
    );
}
