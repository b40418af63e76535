//! Line mapping (issue 22, item 4): `#line` directives in GLSL, HLSL and
//! Slang point every statement back to its WGSL line.
//!
//! - every directive of several corpus inputs names a line of the input
//!   that holds code, in the input's name;
//! - the line the compiler counts for a known statement (the last
//!   directive's, plus the lines since) is that statement's WGSL line;
//! - THE CHECK: a type error injected into the generated HLSL and GLSL at a
//!   known statement is reported by DXC and glslang at that statement's
//!   WGSL line and file; glslang accepts the file form (with
//!   `GL_GOOGLE_cpp_style_line_directive`) for Vulkan and desktop GLSL, and
//!   the numeric form for GLSL ES;
//! - the CLI writes directives by default (`--line-directives auto`), none
//!   with `none`, the numeric form for GLSL ES;
//! - the library writes none unless asked, and the same bytes every time.
//!
//! A missing DXC or glslangValidator skips its part loudly;
//! `STRIDE_REQUIRE_ORACLES=1` turns that into a failure.

mod common;

use common::*;
use std::path::Path;
use std::process::Command;
use stride::back::glsl::Dialect;
use stride::back::lines::{LineDirectives, LineOptions};
use stride::{Options, Output, Target};

const NAME: &str = "shaders/t.wgsl";

/// Statements on lines of their own; `STATEMENTS` names them by a piece of
/// their output and their line.
const SOURCE: &str = "\
@group(0) @binding(0) var<storage, read_write> out: array<f32>;

fn f(a: f32) -> f32 {
    var x = a;
    x = x * 2.0;
    x = x + 1.0;
    x = x - 3.0;
    return x;
}

@compute @workgroup_size(1)
fn main() {
    let v = out[1];
    out[0] = f(v);
}
";

/// `(text in the output line, WGSL line)`.
const STATEMENTS: &[(&str, u32)] = &[
    ("* 2.0", 5),
    ("+ 1.0", 6),
    ("- 3.0", 7),
    ("return _e", 8),
    ("f(", 14),
];

fn options(target: Target, dialect: Dialect, form: LineDirectives) -> Options {
    let mut options = Options {
        target,
        lines: LineOptions {
            directives: form,
            source_name: NAME.into(),
        },
        ..Default::default()
    };
    options.glsl.dialect = dialect;
    options
}

/// The text files of translating `source`.
fn texts(source: &str, options: &Options) -> Vec<(String, String)> {
    match stride::translate(source, options).map(|t| t.output) {
        Ok(Output::Text(text)) => vec![(String::new(), text)],
        Ok(Output::Files(files)) => files.into_iter().map(|f| (f.suffix, f.text)).collect(),
        other => panic!("{:?}: {other:?}", options.target),
    }
}

/// A `#line` directive: its line and, in the file form, its file.
fn directive(line: &str) -> Option<(u32, Option<String>)> {
    let rest = line.trim_start().strip_prefix("#line ")?;
    let (number, file) = match rest.split_once(' ') {
        Some((n, f)) => (n, Some(f.trim_matches('"').to_string())),
        None => (rest, None),
    };
    Some((number.parse().ok()?, file))
}

/// The line the compiler counts for each line of `text` (`None` before the
/// first directive).
fn counted_lines(text: &str) -> Vec<Option<u32>> {
    let mut next: Option<u32> = None;
    text.lines()
        .map(|l| match directive(l) {
            Some((n, _)) => {
                next = Some(n);
                None
            }
            None => {
                let now = next;
                next = next.map(|n| n + 1);
                now
            }
        })
        .collect()
}

/// The forms to check: (target, dialect, form).
const FORMS: &[(Target, Dialect, LineDirectives)] = &[
    (Target::Hlsl, Dialect::Vulkan450, LineDirectives::File),
    (Target::Slang, Dialect::Vulkan450, LineDirectives::File),
    (Target::Glsl, Dialect::Vulkan450, LineDirectives::File),
    (Target::Glsl, Dialect::Gl450, LineDirectives::File),
    (Target::Glsl, Dialect::Es310, LineDirectives::Numeric),
];

#[test]
fn every_directive_names_a_line_of_code_in_the_input() {
    let mut checked = 0;
    for input in [
        "shaders/control_flow.wgsl",
        "shaders/blinn_phong.wgsl",
        "shaders/atomics_barriers.wgsl",
        "params/light_info.wgsl",
        "params/material.wgsl",
    ] {
        let path = corpus_dir().join(input);
        let source = std::fs::read_to_string(&path).expect("corpus input");
        let lines: Vec<&str> = source.lines().collect();
        for &(target, dialect, form) in FORMS {
            let mut o = options(target, dialect, form);
            // Split binding arrays take a register per element.
            o.hlsl.registers = stride::back::hlsl::RegisterMode::Compact;
            for (suffix, text) in texts(&source, &o) {
                let mut seen = 0;
                for (n, file) in text.lines().filter_map(directive) {
                    let at = format!("{input} {target} {suffix}: #line {n}");
                    let code = lines.get(n as usize - 1).map(|l| l.trim());
                    assert!(
                        code.is_some_and(|c| !c.is_empty() && !c.starts_with("//")),
                        "{at} is not a line of code: {code:?}"
                    );
                    let expected = (form == LineDirectives::File).then(|| NAME.to_string());
                    assert_eq!(file, expected, "{at}");
                    seen += 1;
                }
                assert!(seen > 0, "{input} {target} {suffix}: no directive");
                checked += seen;
            }
        }
    }
    assert!(checked > 100, "{checked}");
}

#[test]
fn known_statements_count_as_their_wgsl_line() {
    for &(target, dialect, form) in FORMS {
        for (suffix, text) in texts(SOURCE, &options(target, dialect, form)) {
            let counted = counted_lines(&text);
            for &(piece, line) in STATEMENTS {
                let found: Vec<_> = text
                    .lines()
                    .zip(&counted)
                    .filter(|(l, _)| l.contains(piece) && !l.contains("(float a)"))
                    .map(|(_, c)| *c)
                    .collect();
                assert!(!found.is_empty(), "{target} {suffix}: `{piece}` in\n{text}");
                for c in found {
                    assert_eq!(c, Some(line), "{target} {suffix}: `{piece}` in\n{text}");
                }
            }
        }
    }
}

#[test]
fn the_library_writes_none_by_default_and_the_same_bytes_every_time() {
    for target in [Target::Hlsl, Target::Slang, Target::Glsl] {
        let plain = Options {
            target,
            ..Default::default()
        };
        for (_, text) in texts(SOURCE, &plain) {
            assert!(!text.contains("#line"), "{target}:\n{text}");
            assert!(!text.contains("GL_GOOGLE_cpp_style_line_directive"));
        }
        let none = options(target, Dialect::Vulkan450, LineDirectives::None);
        assert_eq!(texts(SOURCE, &none), texts(SOURCE, &plain), "{target}");
        let auto = options(target, Dialect::Vulkan450, LineDirectives::Auto);
        let once = texts(SOURCE, &auto);
        assert_eq!(once, texts(SOURCE, &auto), "{target}: deterministic");
        assert!(once
            .iter()
            .all(|(_, t)| t.contains("#line 3 \"shaders/t.wgsl\"")));
    }
    // SPIR-V, layout and the host headers take no `#line`.
    let spirv = |form| {
        let o = options(Target::Spirv, Dialect::Vulkan450, form);
        stride::translate(SOURCE, &o).expect("spirv").output
    };
    assert_eq!(spirv(LineDirectives::Auto), spirv(LineDirectives::None));
    for target in [Target::Layout, Target::Reflect, Target::C, Target::Rust] {
        let auto = options(target, Dialect::Vulkan450, LineDirectives::Auto);
        for (_, text) in texts(SOURCE, &auto) {
            assert!(!text.contains("#line"), "{target}");
        }
    }
}

#[test]
fn several_targets_from_one_analysis_carry_the_same_directives() {
    let analysis = stride::analyze(SOURCE).expect("analyzes");
    for &(target, dialect, form) in FORMS {
        let o = options(target, dialect, form);
        let one = stride::translate_analysis(&analysis, &o).map(|t| t.output);
        let alone = stride::translate(SOURCE, &o).map(|t| t.output);
        assert_eq!(one.ok(), alone.ok(), "{target}");
    }
}

// ---- the check: compilers report the WGSL line ---------------------------

/// `text` with `bad` inserted as its own line right after the directive
/// that precedes the first line containing `piece`, or in place of that
/// line when no directive is right before it: either way, `bad` counts as
/// the statement's line.
fn inject(text: &str, piece: &str, bad: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.contains(piece) && !l.contains("(float a)"))
        .unwrap_or_else(|| panic!("`{piece}` in\n{text}"));
    let mut out: Vec<&str> = lines.clone();
    if at > 0 && directive(lines[at - 1]).is_some() {
        out.insert(at, bad);
    } else {
        out[at] = bad;
    }
    out.join("\n") + "\n"
}

/// `(file, line)` of the first error in a compiler's output: `file:line:`
/// (DXC: `file:line:col: error:`; glslang: `ERROR: file:line: ...`, file
/// `0` in the numeric form).
fn error_at(output: &str) -> Option<(String, u32)> {
    output.lines().find_map(|l| {
        let l = l
            .strip_prefix("ERROR: ")
            .or_else(|| l.contains("error:").then_some(l))?;
        let mut parts = l.splitn(3, ':');
        let file = parts.next()?.trim().to_string();
        let line = parts.next()?.trim().parse().ok()?;
        Some((file, line))
    })
}

fn glslang(text: &str, stage: &str, args: &[&str], dir: &Path) -> Result<(), String> {
    let file = dir.join(format!("shader.{stage}"));
    std::fs::write(&file, text).expect("write the GLSL");
    let out = Command::new("glslangValidator")
        .args(args)
        .arg(&file)
        .output()
        .expect("glslangValidator runs");
    let all = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    if out.status.success() {
        Ok(())
    } else {
        Err(all)
    }
}

/// The lines both compilers are checked at: right after a directive
/// (`* 2.0`, line 5) and counted from one (`+ 1.0`, `- 3.0`).
const CHECKED: &[(&str, u32)] = &[("* 2.0", 5), ("+ 1.0", 6), ("- 3.0", 7), ("f(", 14)];

#[test]
fn dxc_reports_the_wgsl_line_of_an_injected_error() {
    if !dxc::require_dxc("dxc_reports_the_wgsl_line_of_an_injected_error") {
        return;
    }
    let mut report = Vec::new();
    let (_, hlsl) = texts(
        SOURCE,
        &options(Target::Hlsl, Dialect::Vulkan450, LineDirectives::File),
    )
    .remove(0);
    dxc::compile(&hlsl, "cs_6_0", "main", &[]).expect("the HLSL as written compiles");
    for &(piece, line) in CHECKED {
        let bad = inject(
            &hlsl,
            piece,
            "    float3x3 stride_bad = float2(1.0f, 2.0f);",
        );
        let err = match dxc::compile(&bad, "cs_6_0", "main", &[]) {
            Ok(_) => panic!("DXC accepted the injected error:\n{bad}"),
            Err(e) => e,
        };
        assert_eq!(
            error_at(&err),
            Some((NAME.to_string(), line)),
            "`{piece}`: DXC said\n{err}\n--- HLSL ---\n{bad}"
        );
        report.push(format!("{piece} -> {}", err.lines().next().unwrap_or("")));
    }
    loud(&format!("dxc line mapping:\n  {}", report.join("\n  ")));
}

#[test]
fn slang_reports_the_wgsl_line_of_an_injected_error() {
    if !slang::require_slang("slang_reports_the_wgsl_line_of_an_injected_error") {
        return;
    }
    let (_, text) = texts(
        SOURCE,
        &options(Target::Slang, Dialect::Vulkan450, LineDirectives::File),
    )
    .remove(0);
    let args = ["-target", "spirv", "-entry", "main", "-stage", "compute"];
    let args = [&args[..], &["-o", "m.spv"]].concat();
    if let Err(e) = slang::run_slangc(&text, "t.slang", &args, None) {
        panic!("slangc rejects the file form:\n{e}\n{text}");
    }
    let mut report = Vec::new();
    for &(piece, line) in CHECKED {
        let bad = inject(
            &text,
            piece,
            "    float3x3 stride_bad = float2(1.0f, 2.0f);",
        );
        let err = match slang::run_slangc(&bad, "t.slang", &args, None) {
            Ok(_) => panic!("slangc accepted the injected error:\n{bad}"),
            Err(e) => e,
        };
        // ` --> file:line:column` below the error.
        let at = err.lines().find_map(|l| l.trim().strip_prefix("--> "));
        assert_eq!(
            at.and_then(|a| a.rsplitn(3, ':').nth(2).map(str::to_string)),
            Some(NAME.to_string()),
            "`{piece}`: slangc said\n{err}\n--- Slang ---\n{bad}"
        );
        let said = at.and_then(|a| a.rsplit(':').nth(1)?.parse::<u32>().ok());
        assert_eq!(said, Some(line), "`{piece}`: slangc said\n{err}");
        report.push(format!("{piece} -> {}", at.unwrap_or("")));
    }
    loud(&format!("slangc line mapping:\n  {}", report.join("\n  ")));
}

#[test]
fn glslang_reports_the_wgsl_line_of_an_injected_error() {
    let test = "glslang_reports_the_wgsl_line_of_an_injected_error";
    if !require_tool("glslangValidator", &["--version"], test) {
        return;
    }
    let dir = temp_dir("lines-glslang");
    let mut report = Vec::new();
    for &(dialect, form, args, file) in &[
        (
            Dialect::Vulkan450,
            LineDirectives::File,
            &["-V", "--target-env", "vulkan1.1"][..],
            NAME,
        ),
        (Dialect::Gl450, LineDirectives::File, &["-G"][..], NAME),
        (Dialect::Es310, LineDirectives::Numeric, &[][..], "0"),
    ] {
        let (suffix, glsl) = texts(SOURCE, &options(Target::Glsl, dialect, form)).remove(0);
        assert_eq!(suffix, "main.comp");
        if let Err(e) = glslang(&glsl, "comp", args, &dir) {
            panic!("{dialect:?}: glslang rejects the {form:?} form:\n{e}\n{glsl}");
        }
        for &(piece, line) in CHECKED {
            let bad = inject(&glsl, piece, "    mat3 stride_bad = vec2(1.0, 2.0);");
            let err = match glslang(&bad, "comp", args, &dir) {
                Ok(()) => panic!("glslang accepted the injected error:\n{bad}"),
                Err(e) => e,
            };
            assert_eq!(
                error_at(&err),
                Some((file.to_string(), line)),
                "{dialect:?} `{piece}`: glslang said\n{err}\n--- GLSL ---\n{bad}"
            );
            let first = err.lines().find(|l| l.starts_with("ERROR"));
            report.push(format!("{dialect:?} {piece} -> {}", first.unwrap_or("")));
        }
    }
    loud(&format!("glslang line mapping:\n  {}", report.join("\n  ")));
}

// ---- the CLI -------------------------------------------------------------

const STRIDE: &str = env!("CARGO_BIN_EXE_stride");

fn cli(dir: &Path, args: &[&str]) -> String {
    let out = Command::new(STRIDE)
        .args(args)
        .current_dir(dir)
        .output()
        .expect("stride runs");
    assert!(
        out.status.success(),
        "stride {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn the_cli_writes_directives_by_default() {
    let dir = temp_dir("lines-cli");
    std::fs::create_dir_all(dir.join("shaders")).expect("mkdir");
    std::fs::write(dir.join(NAME), SOURCE).expect("write");
    let hlsl = cli(&dir, &["-t", "hlsl", NAME]);
    assert!(hlsl.contains("#line 5 \"shaders/t.wgsl\"\n"), "{hlsl}");
    let slang = cli(&dir, &["-t", "slang", NAME]);
    assert!(slang.contains("#line 5 \"shaders/t.wgsl\"\n"), "{slang}");
    let glsl = cli(&dir, &["-t", "glsl", NAME]);
    assert!(glsl.contains("#extension GL_GOOGLE_cpp_style_line_directive : require\n"));
    assert!(glsl.contains("#line 5 \"shaders/t.wgsl\"\n"), "{glsl}");
    let es = cli(&dir, &["-t", "glsl", "--glsl", "es310", NAME]);
    assert!(es.contains("#line 5\n") && !es.contains("#line 5 "), "{es}");
    assert!(!es.contains("GL_GOOGLE"), "{es}");
    let numeric = cli(&dir, &["-t", "hlsl", "--line-directives", "numeric", NAME]);
    assert!(numeric.contains("#line 5\n"), "{numeric}");
    for target in ["hlsl", "slang", "glsl"] {
        let none = cli(&dir, &["-t", target, "--line-directives", "none", NAME]);
        assert!(
            !none.contains("#line") && !none.contains("GL_GOOGLE"),
            "{none}"
        );
        let plain = Options {
            target: match target {
                "hlsl" => Target::Hlsl,
                "slang" => Target::Slang,
                _ => Target::Glsl,
            },
            ..Default::default()
        };
        let text: String = texts(SOURCE, &plain).into_iter().map(|(_, t)| t).collect();
        assert_eq!(none, text, "{target}: none is the library's default");
    }
    // Standard input is named `<stdin>`.
    let mut child = Command::new(STRIDE)
        .args(["-t", "hlsl", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("stride runs");
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().expect("stdin");
        stdin.write_all(SOURCE.as_bytes()).expect("write stdin");
    }
    let out = child.wait_with_output().expect("stride finishes");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("#line 5 \"<stdin>\"\n"), "{text}");
    // Several targets in one run name the input too.
    cli(&dir, &["-t", "hlsl,glsl", NAME, "-o", "out/"]);
    let multi = std::fs::read_to_string(dir.join("out/t.hlsl")).expect("t.hlsl");
    assert_eq!(multi, hlsl);
    let bad = Command::new(STRIDE)
        .args(["-t", "hlsl", "--line-directives", "maybe", NAME])
        .current_dir(&dir)
        .output()
        .expect("stride runs");
    assert_eq!(bad.status.code(), Some(2));
}

// ---- SPIR-V debug info ---------------------------------------------------

#[test]
fn spirv_carries_opline_with_an_explicit_form() {
    let test = "spirv_carries_opline_with_an_explicit_form";
    if !require_tool("spirv-val", &["--version"], test) {
        return;
    }
    let dir = temp_dir("lines-spirv");
    let mut failures = Vec::new();
    let mut checked = 0;
    let corpus: Vec<_> = corpus_inputs()
        .into_iter()
        .filter(|p| !p.starts_with(corpus_dir().join("errors")))
        .collect();
    let mut inputs: Vec<(String, String)> = vec![(NAME.into(), SOURCE.into())];
    for p in &corpus {
        let text = std::fs::read_to_string(p).expect("corpus input");
        inputs.push((display_name(p), text));
    }
    for (name, source) in &inputs {
        for form in [LineDirectives::File, LineDirectives::Numeric] {
            let mut o = options(Target::Spirv, Dialect::Vulkan450, form);
            o.lines.source_name = name.clone();
            let Ok(t) = stride::translate(source, &o) else {
                continue; // inputs SPIR-V cannot express fail without debug info too
            };
            let Output::Binary(words) = t.output else {
                panic!("{name}: not binary")
            };
            let bytes = words_to_bytes(&words);
            let file = dir.join("m.spv");
            std::fs::write(&file, &bytes).expect("write");
            let val = Command::new("spirv-val")
                .arg("--scalar-block-layout")
                .arg(&file)
                .output()
                .expect("spirv-val runs");
            if !val.status.success() {
                failures.push(format!(
                    "{name}: spirv-val: {}",
                    String::from_utf8_lossy(&val.stdout) + String::from_utf8_lossy(&val.stderr)
                ));
                continue;
            }
            let Some(dis) = disassemble(&bytes) else {
                panic!("spirv-dis failed on {name}")
            };
            let count = source.lines().count() as u32;
            let lines: Vec<u32> = dis
                .lines()
                .filter_map(|l| l.trim().strip_prefix("OpLine "))
                .filter_map(|l| l.split_whitespace().nth(1)?.parse().ok())
                .collect();
            if !dis.contains(&format!("OpString \"{name}\"")) || lines.is_empty() {
                failures.push(format!("{name}: no OpString or OpLine"));
            }
            if let Some(bad) = lines.iter().find(|&&l| l < 1 || l > count) {
                failures.push(format!("{name}: OpLine {bad} past {count} lines"));
            }
            if name == NAME {
                for (_, line) in &STATEMENTS[..3] {
                    assert!(lines.contains(line), "OpLine {line}:\n{dis}");
                }
            }
            checked += 1;
        }
    }
    finish(test, format!("{checked} modules with debug info"), failures);
}
