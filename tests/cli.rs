//! Black-box tests of the `stride` binary: arguments, outputs, exit codes.

mod common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use common::temp_dir;

const STRIDE: &str = env!("CARGO_BIN_EXE_stride");

const GOOD: &str = common::PARAMS_SHADER;

const GOOD2: &str = common::LIGHTS_SHADER;

/// A syntax error.
const BAD: &str = "struct Broken { a: f32,
@group(0) @binding(0) var<uniform> u: Broken;
fn main( {
";

const SPIRV_MAGIC: [u8; 4] = [0x03, 0x02, 0x23, 0x07];

fn stride(dir: &Path, args: &[&str]) -> Output {
    run_with_stdin(dir, args, None)
}

fn run_with_stdin(dir: &Path, args: &[&str], stdin: Option<&str>) -> Output {
    let mut cmd = Command::new(STRIDE);
    cmd.args(args)
        .current_dir(dir)
        .env_remove("NO_COLOR")
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) => panic!("cannot run {STRIDE}: {e}"),
    };
    if let (Some(text), Some(mut pipe)) = (stdin, child.stdin.take()) {
        let _ = pipe.write_all(text.as_bytes());
    }
    match child.wait_with_output() {
        Ok(o) => o,
        Err(e) => panic!("cannot wait for {STRIDE}: {e}"),
    }
}

fn code(o: &Output) -> i32 {
    o.status.code().unwrap_or(-1)
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Panics with the whole run when the exit code is not `expected`.
fn expect_code(o: &Output, expected: i32, what: &str) {
    assert_eq!(
        code(o),
        expected,
        "{what}: exit code\n--- stdout:\n{}\n--- stderr:\n{}",
        stdout(o),
        stderr(o)
    );
}

/// A temp folder holding the given `(name, contents)` files.
fn fixture(tag: &str, files: &[(&str, &str)]) -> PathBuf {
    let dir = temp_dir(tag);
    for (name, text) in files {
        if let Err(e) = std::fs::write(dir.join(name), text) {
            panic!("cannot write fixture {name}: {e}");
        }
    }
    dir
}

/// The names in `dir`, sorted.
fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map(|r| {
            r.filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

fn read(path: &Path) -> Vec<u8> {
    match std::fs::read(path) {
        Ok(b) => b,
        Err(e) => panic!("cannot read {}: {e}", path.display()),
    }
}

fn assert_spirv(bytes: &[u8], what: &str) {
    assert!(
        bytes.len() >= 20 && bytes.len().is_multiple_of(4) && bytes[..4] == SPIRV_MAGIC,
        "{what}: not a SPIR-V module ({} bytes, starts {:02x?})",
        bytes.len(),
        &bytes[..bytes.len().min(8)]
    );
}

#[test]
fn help_exits_zero() {
    let dir = temp_dir("cli-help");
    let o = stride(&dir, &["--help"]);
    expect_code(&o, 0, "--help");
    let text = stdout(&o);
    for flag in [
        "--target",
        "--output",
        "--check",
        "--color",
        "--rules",
        "--spirv-version",
        "--strip-names",
        "--root",
        "--depfile",
        "--manifest",
        "--force-write",
        "-t spirv,hlsl,glsl",
        "shaders/ -o out/",
        "--rust-derive",
        "--uniform-layout",
        "C11 header",
        "Rust module",
    ] {
        assert!(
            text.contains(flag),
            "--help does not mention {flag}:\n{text}"
        );
    }
}

#[test]
fn no_input_is_a_usage_error() {
    let dir = temp_dir("cli-noinput");
    let o = stride(&dir, &[]);
    expect_code(&o, 2, "no inputs");
}

#[test]
fn unknown_target_lists_valid_targets() {
    let dir = fixture("cli-badtarget", &[("a.wgsl", GOOD)]);
    let o = stride(&dir, &["--target", "fortran", "a.wgsl"]);
    expect_code(&o, 2, "unknown target");
    let err = stderr(&o);
    for t in ["spirv", "layout", "reflect"] {
        assert!(err.contains(t), "stderr does not list target {t}:\n{err}");
    }
    assert_eq!(listing(&dir), ["a.wgsl"]);
}

#[test]
fn missing_input_file_is_an_io_error() {
    let dir = temp_dir("cli-missing");
    let o = stride(&dir, &["-t", "layout", "nope.wgsl"]);
    expect_code(&o, 2, "missing input");
    assert!(stderr(&o).contains("nope.wgsl"), "stderr: {}", stderr(&o));
    assert!(o.stdout.is_empty());
}

#[test]
fn spirv_to_file() {
    let dir = fixture("cli-spv", &[("a.wgsl", GOOD)]);
    let o = stride(&dir, &["--target", "spirv", "a.wgsl", "-o", "out.spv"]);
    expect_code(&o, 0, "spirv -o");
    assert!(o.stdout.is_empty(), "stdout should be empty with -o");
    assert_spirv(&read(&dir.join("out.spv")), "out.spv");
    assert_eq!(
        listing(&dir),
        ["a.wgsl", "out.spv"],
        "no temporary files left"
    );
}

#[test]
fn spirv_is_the_default_target() {
    let dir = fixture("cli-default", &[("a.wgsl", GOOD)]);
    let o = stride(&dir, &["a.wgsl", "-o", "out.spv"]);
    expect_code(&o, 0, "default target");
    assert_spirv(&read(&dir.join("out.spv")), "default target output");
    let explicit = stride(&dir, &["-t", "spirv", "a.wgsl", "-o", "explicit.spv"]);
    expect_code(&explicit, 0, "explicit spirv");
    assert_eq!(read(&dir.join("out.spv")), read(&dir.join("explicit.spv")));
}

#[test]
fn spirv_to_piped_stdout_is_allowed() {
    let dir = fixture("cli-spvpipe", &[("a.wgsl", GOOD)]);
    let o = stride(&dir, &["-t", "spirv", "a.wgsl"]);
    expect_code(&o, 0, "spirv to a pipe");
    assert_spirv(&o.stdout, "stdout");
    let file = stride(&dir, &["-t", "spirv", "a.wgsl", "-o", "f.spv"]);
    expect_code(&file, 0, "spirv -o");
    assert_eq!(
        o.stdout,
        read(&dir.join("f.spv")),
        "pipe and file give the same bytes"
    );
}

#[test]
fn text_targets_go_to_stdout() {
    let dir = fixture("cli-text", &[("a.wgsl", GOOD)]);
    let layout = stride(&dir, &["-t", "layout", "a.wgsl"]);
    expect_code(&layout, 0, "layout");
    assert!(
        stdout(&layout).contains("Params"),
        "layout: {}",
        stdout(&layout)
    );
    let reflect = stride(&dir, &["--target", "reflect", "a.wgsl"]);
    expect_code(&reflect, 0, "reflect");
    let json: serde_json::Value = match serde_json::from_slice(&reflect.stdout) {
        Ok(v) => v,
        Err(e) => panic!("reflect output is not JSON: {e}\n{}", stdout(&reflect)),
    };
    assert!(json.to_string().contains("params"), "reflect: {json}");
    assert_eq!(
        listing(&dir),
        ["a.wgsl"],
        "text targets write no files without -o"
    );
}

#[test]
fn dash_output_is_standard_output() {
    let dir = fixture("cli-dash", &[("a.wgsl", GOOD)]);
    let plain = stride(&dir, &["-t", "c", "a.wgsl"]);
    let dash = stride(&dir, &["-t", "c", "a.wgsl", "-o", "-"]);
    expect_code(&dash, 0, "-o -");
    assert!(
        stdout(&dash).contains("typedef struct"),
        "{}",
        stdout(&dash)
    );
    assert_eq!(plain.stdout, dash.stdout);
    assert_eq!(listing(&dir), ["a.wgsl"], "-o - writes no file");
}

#[test]
fn text_target_to_file_matches_stdout() {
    let dir = fixture("cli-textfile", &[("a.wgsl", GOOD)]);
    let to_stdout = stride(&dir, &["-t", "layout", "a.wgsl"]);
    expect_code(&to_stdout, 0, "layout to stdout");
    let to_file = stride(&dir, &["-t", "layout", "a.wgsl", "--output", "a.txt"]);
    expect_code(&to_file, 0, "layout to file");
    assert!(to_file.stdout.is_empty());
    assert_eq!(read(&dir.join("a.txt")), to_stdout.stdout);
}

#[test]
fn stdin_input() {
    let dir = fixture("cli-stdin", &[("a.wgsl", GOOD)]);
    let from_file = stride(&dir, &["-t", "layout", "a.wgsl"]);
    let from_stdin = run_with_stdin(&dir, &["-t", "layout", "-"], Some(GOOD));
    expect_code(&from_stdin, 0, "stdin");
    assert_eq!(from_stdin.stdout, from_file.stdout);
}

#[test]
fn stdin_diagnostics_name_stdin() {
    let dir = temp_dir("cli-stdin-bad");
    let o = run_with_stdin(&dir, &["-t", "layout", "--color", "never", "-"], Some(BAD));
    expect_code(&o, 1, "stdin with errors");
    assert!(stderr(&o).contains("<stdin>"), "stderr: {}", stderr(&o));
}

#[test]
fn errors_exit_one_and_point_at_the_file() {
    let dir = fixture("cli-bad", &[("bad.wgsl", BAD)]);
    for target in ["spirv", "layout", "reflect"] {
        let o = stride(&dir, &["-t", target, "--color", "never", "bad.wgsl"]);
        expect_code(&o, 1, target);
        let err = stderr(&o);
        assert!(err.contains("error"), "{target}: stderr: {err}");
        assert!(
            err.contains("bad.wgsl"),
            "{target}: stderr names the file: {err}"
        );
        assert!(
            o.stdout.is_empty(),
            "{target}: no output for a failed input"
        );
    }
}

#[test]
fn check_prints_diagnostics_only() {
    let dir = fixture("cli-check", &[("a.wgsl", GOOD), ("bad.wgsl", BAD)]);
    let ok = stride(&dir, &["--check", "a.wgsl"]);
    expect_code(&ok, 0, "--check on a good input");
    assert!(ok.stdout.is_empty(), "--check prints no output");
    let bad = stride(&dir, &["--check", "--color", "never", "bad.wgsl"]);
    expect_code(&bad, 1, "--check on a bad input");
    assert!(bad.stdout.is_empty());
    assert!(stderr(&bad).contains("error"), "stderr: {}", stderr(&bad));
    for target in ["layout", "reflect", "spirv"] {
        let o = stride(&dir, &["--check", "-t", target, "a.wgsl"]);
        expect_code(&o, 0, target);
        assert!(o.stdout.is_empty(), "--check -t {target} prints no output");
    }
    assert_eq!(
        listing(&dir),
        ["a.wgsl", "bad.wgsl"],
        "--check writes no files"
    );
    // With -o: either refused as a usage error or accepted; never a file.
    let o = stride(&dir, &["--check", "a.wgsl", "-o", "out.spv"]);
    assert!(matches!(code(&o), 0 | 2), "--check -o: {}", stderr(&o));
    assert_eq!(
        listing(&dir),
        ["a.wgsl", "bad.wgsl"],
        "--check -o writes no files"
    );
}

#[test]
fn color_flag() {
    let dir = fixture("cli-color", &[("bad.wgsl", BAD)]);
    let never = stride(&dir, &["--color", "never", "-t", "layout", "bad.wgsl"]);
    expect_code(&never, 1, "--color never");
    assert!(
        !never.stderr.contains(&0x1b),
        "--color never emits no escapes"
    );
    let always = stride(&dir, &["--color", "always", "-t", "layout", "bad.wgsl"]);
    expect_code(&always, 1, "--color always");
    assert!(
        always.stderr.contains(&0x1b),
        "--color always emits escapes"
    );
    let auto = stride(&dir, &["--color", "auto", "-t", "layout", "bad.wgsl"]);
    expect_code(&auto, 1, "--color auto");
    assert!(
        !auto.stderr.contains(&0x1b),
        "--color auto: stderr is a pipe, no escapes"
    );
    let invalid = stride(&dir, &["--color", "sometimes", "bad.wgsl"]);
    expect_code(&invalid, 2, "--color sometimes");
}

#[test]
fn rules_for_layout_target() {
    let dir = fixture("cli-rules", &[("a.wgsl", GOOD)]);
    let plain = stride(&dir, &["-t", "layout", "a.wgsl"]);
    expect_code(&plain, 0, "layout");
    let o = stride(
        &dir,
        &["-t", "layout", "--rules", "std140,std430", "a.wgsl"],
    );
    expect_code(&o, 0, "--rules std140,std430");
    let text = stdout(&o);
    assert!(
        text.contains("std140"),
        "--rules output mentions std140:\n{text}"
    );
    assert!(
        text.contains("std430"),
        "--rules output mentions std430:\n{text}"
    );
    assert_ne!(o.stdout, plain.stdout, "--rules changes the listing");
    let bad = stride(&dir, &["-t", "layout", "--rules", "std999", "a.wgsl"]);
    expect_code(&bad, 2, "unknown rule set");
}

fn spirv_version_word(dir: &Path, version: &str) -> Option<u32> {
    let out = format!("v{version}.spv");
    let o = stride(
        dir,
        &[
            "-t",
            "spirv",
            "--spirv-version",
            version,
            "a.wgsl",
            "-o",
            &out,
        ],
    );
    expect_code(&o, 0, version);
    let bytes = read(&dir.join(out));
    assert_spirv(&bytes, version);
    Some(u32::from_le_bytes([bytes[4], bytes[5], bytes[6], bytes[7]]))
}

#[test]
fn spirv_version_flag() {
    let dir = fixture("cli-version", &[("a.wgsl", GOOD)]);
    for minor in 0..=6u32 {
        let v = format!("1.{minor}");
        assert_eq!(
            spirv_version_word(&dir, &v),
            Some(0x0001_0000 | (minor << 8)),
            "--spirv-version {v}"
        );
    }
    let o = stride(&dir, &["a.wgsl", "-o", "default.spv"]);
    expect_code(&o, 0, "default version");
    let bytes = read(&dir.join("default.spv"));
    assert_eq!(bytes[4..8], [0, 3, 1, 0], "default SPIR-V version is 1.3");
    for bad in ["1.7", "2.0", "one", "1"] {
        let o = stride(&dir, &["--spirv-version", bad, "a.wgsl", "-o", "bad.spv"]);
        expect_code(&o, 2, bad);
    }
    assert!(!dir.join("bad.spv").exists());
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

#[test]
fn strip_names() {
    let dir = fixture("cli-strip", &[("a.wgsl", GOOD)]);
    let named = stride(&dir, &["a.wgsl", "-o", "named.spv"]);
    expect_code(&named, 0, "named");
    let stripped = stride(&dir, &["--strip-names", "a.wgsl", "-o", "stripped.spv"]);
    expect_code(&stripped, 0, "--strip-names");
    let named = read(&dir.join("named.spv"));
    let stripped = read(&dir.join("stripped.spv"));
    assert_spirv(&stripped, "stripped");
    assert!(
        contains(&named, b"Params"),
        "debug names are kept by default"
    );
    assert!(
        !contains(&stripped, b"Params"),
        "--strip-names drops OpName"
    );
    assert!(stripped.len() < named.len());
}

#[test]
fn failed_translation_leaves_no_new_file() {
    let dir = fixture("cli-nostale", &[("bad.wgsl", BAD)]);
    let o = stride(&dir, &["bad.wgsl", "-o", "out.spv"]);
    expect_code(&o, 1, "bad input with -o");
    assert_eq!(
        listing(&dir),
        ["bad.wgsl"],
        "no output and no temporary file"
    );
}

#[test]
fn failed_translation_never_leaves_a_new_file_over_an_old_one() {
    let dir = fixture("cli-stale", &[("a.wgsl", GOOD), ("bad.wgsl", BAD)]);
    let o = stride(&dir, &["a.wgsl", "-o", "out.spv"]);
    expect_code(&o, 0, "good input");
    let old = read(&dir.join("out.spv"));
    let o = stride(&dir, &["bad.wgsl", "-o", "out.spv"]);
    expect_code(&o, 1, "bad input over an existing output");
    assert!(!old.is_empty());
    // The output of the earlier run no longer matches the input: it is
    // removed rather than left stale, and no temporary file remains.
    assert_eq!(listing(&dir), ["a.wgsl", "bad.wgsl"]);
}

const WITH_OVERRIDE: &str = "override GAIN: f32;
@group(0) @binding(0) var<storage, read_write> out_data: array<f32>;
@compute @workgroup_size(1) fn main() { out_data[0] = GAIN; }
";

#[test]
fn override_values() {
    let dir = fixture("cli-override", &[("o.wgsl", WITH_OVERRIDE)]);
    let o = stride(&dir, &["o.wgsl", "-o", "o.spv"]);
    expect_code(&o, 1, "override without default or value");
    assert!(
        stderr(&o).contains("--override GAIN=VALUE"),
        "{}",
        stderr(&o)
    );
    assert!(!dir.join("o.spv").exists());

    let o = stride(&dir, &["o.wgsl", "-o", "o.spv", "--override", "GAIN=2.5"]);
    expect_code(&o, 0, "override given");
    assert!(stderr(&o).contains("baked into the SPIR-V as the value 2.5"));
    let bytes = read(&dir.join("o.spv"));
    assert_spirv(&bytes, "with --override");
    assert!(
        contains(&bytes, &2.5f32.to_le_bytes()),
        "the value is in the module"
    );

    for bad in ["GAIN", "=1", "GAIN=abc", "GAIN=inf"] {
        let o = stride(&dir, &["o.wgsl", "-o", "o.spv", "--override", bad]);
        expect_code(&o, 2, bad);
    }
}

#[test]
fn several_inputs_to_a_directory() {
    let dir = fixture("cli-multi", &[("a.wgsl", GOOD), ("b.wgsl", GOOD2)]);
    for (target, suffix) in [
        ("spirv", "spv"),
        ("layout", "layout.txt"),
        ("reflect", "reflect.json"),
    ] {
        let out = format!("out-{target}");
        let o = stride(&dir, &["-t", target, "a.wgsl", "b.wgsl", "-o", &out]);
        expect_code(&o, 0, target);
        assert_eq!(
            listing(&dir.join(&out)),
            [format!("a.{suffix}"), format!("b.{suffix}")],
            "{target}: one file per input"
        );
        // Each file equals the single-input translation.
        for stem in ["a", "b"] {
            let single = stride(
                &dir,
                &["-t", target, &format!("{stem}.wgsl"), "-o", "single"],
            );
            expect_code(&single, 0, "single input");
            assert_eq!(
                read(&dir.join(&out).join(format!("{stem}.{suffix}"))),
                read(&dir.join("single")),
                "{target}: {stem}"
            );
        }
    }
}

#[test]
fn several_inputs_keep_input_order_on_stdout() {
    let dir = fixture("cli-order", &[("a.wgsl", GOOD), ("b.wgsl", GOOD2)]);
    for (first, second, n1, n2) in [
        ("a.wgsl", "b.wgsl", "Params", "Lights"),
        ("b.wgsl", "a.wgsl", "Lights", "Params"),
    ] {
        let o = stride(&dir, &["-t", "layout", first, second]);
        expect_code(&o, 0, "two inputs");
        let text = stdout(&o);
        let (Some(p1), Some(p2)) = (text.find(n1), text.find(n2)) else {
            panic!("both inputs appear in the output:\n{text}");
        };
        assert!(p1 < p2, "{first} before {second}:\n{text}");
        let one = stride(&dir, &["-t", "layout", first]);
        let two = stride(&dir, &["-t", "layout", second]);
        assert!(
            text.contains(&stdout(&one)) && text.contains(&stdout(&two)),
            "the output holds each input's own listing"
        );
    }
}

#[test]
fn several_inputs_keep_input_order_in_diagnostics() {
    let dir = fixture(
        "cli-diag-order",
        &[("first.wgsl", BAD), ("second.wgsl", BAD), ("ok.wgsl", GOOD)],
    );
    for (x, y) in [("first.wgsl", "second.wgsl"), ("second.wgsl", "first.wgsl")] {
        let o = stride(&dir, &["-t", "layout", "--color", "never", x, "ok.wgsl", y]);
        expect_code(&o, 1, "errors in some inputs");
        let err = stderr(&o);
        let (Some(px), Some(py)) = (err.find(x), err.find(y)) else {
            panic!("both failing inputs are named:\n{err}");
        };
        assert!(px < py, "{x} reported before {y}:\n{err}");
    }
}

#[test]
fn several_inputs_with_one_failure_exit_one() {
    let dir = fixture("cli-mixed", &[("a.wgsl", GOOD), ("bad.wgsl", BAD)]);
    let o = stride(&dir, &["-t", "reflect", "a.wgsl", "bad.wgsl", "-o", "out"]);
    expect_code(&o, 1, "one failing input");
    let names = listing(&dir.join("out"));
    assert!(
        !names.iter().any(|n| n.starts_with("bad")),
        "no output for the failing input: {names:?}"
    );
    assert!(
        names
            .iter()
            .all(|n| !n.starts_with('.') && !n.ends_with(".tmp")),
        "no temporary files: {names:?}"
    );
}

/// Binary SPIR-V to a terminal is refused with a hint to use `-o`. The
/// terminal comes from util-linux `script`; without it the test is skipped.
#[test]
fn spirv_to_a_terminal_is_refused() {
    let dir = fixture("cli-tty", &[("a.wgsl", GOOD)]);
    if !common::tool_available("script", &["--version"]) {
        eprintln!("`script` (util-linux) not found: spirv_to_a_terminal_is_refused SKIPPED");
        return;
    }
    let command = format!("'{STRIDE}' -t spirv a.wgsl");
    let o = match Command::new("script")
        .args(["-q", "-e", "-c", &command, "/dev/null"])
        .current_dir(&dir)
        .stdin(Stdio::null())
        .output()
    {
        Ok(o) => o,
        Err(e) => panic!("cannot run script: {e}"),
    };
    expect_code(&o, 2, "SPIR-V to a terminal");
    let text = format!("{}{}", stdout(&o), stderr(&o));
    assert!(text.contains("-o"), "the refusal suggests -o: {text}");
    assert!(
        !contains(&o.stdout, &SPIRV_MAGIC),
        "no SPIR-V was written to the terminal"
    );
}

/// Two entry points: a vertex and a fragment stage over one uniform.
const TWO_STAGES: &str = "struct Frame { tint: vec4<f32>, scale: f32 }
@group(0) @binding(0) var<uniform> frame: Frame;
@vertex fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4<f32> {
    return vec4<f32>(f32(i) * frame.scale, 0.0, 0.0, 1.0);
}
@fragment fn fs() -> @location(0) vec4<f32> { return frame.tint; }
";

#[test]
fn glsl_writes_one_file_per_entry_point_into_a_directory() {
    let dir = fixture("cli-glsl-dir", &[("two.wgsl", TWO_STAGES)]);
    let o = stride(&dir, &["-t", "glsl", "two.wgsl", "-o", "out/"]);
    expect_code(&o, 0, "glsl into a directory");
    assert_eq!(listing(&dir.join("out")), ["two.fs.frag", "two.vs.vert"]);
    let vert = String::from_utf8_lossy(&read(&dir.join("out/two.vs.vert"))).into_owned();
    assert!(vert.starts_with("#version 450"), "{vert}");
    assert!(vert.contains("layout(offset = 16) float scale;"), "{vert}");
}

#[test]
fn glsl_entry_point_flag_picks_one_file() {
    let dir = fixture("cli-glsl-e", &[("two.wgsl", TWO_STAGES)]);
    let o = stride(&dir, &["-t", "glsl", "-e", "fs", "two.wgsl"]);
    expect_code(&o, 0, "one entry point to stdout");
    let text = stdout(&o);
    assert!(text.contains("void main()"), "{text}");
    assert!(
        !text.contains("gl_Position"),
        "only the fragment stage: {text}"
    );

    let o = stride(
        &dir,
        &["-t", "glsl", "-e", "fs", "two.wgsl", "-o", "f.frag"],
    );
    expect_code(&o, 0, "one entry point to a file");
    assert!(dir.join("f.frag").exists());

    let o = stride(&dir, &["-t", "glsl", "-e", "nope", "two.wgsl"]);
    expect_code(&o, 1, "unknown entry point");
    let err = stderr(&o);
    assert!(err.contains("no entry point named `nope`"), "{err}");
    assert!(err.contains("`vs`") && err.contains("`fs`"), "{err}");
}

#[test]
fn glsl_several_files_need_a_directory() {
    let dir = fixture("cli-glsl-many", &[("two.wgsl", TWO_STAGES)]);
    let o = stride(&dir, &["-t", "glsl", "two.wgsl"]);
    expect_code(&o, 2, "two entry points to stdout");
    let err = stderr(&o);
    assert!(
        err.contains("two.vs.vert") && err.contains("-e NAME"),
        "{err}"
    );
    assert!(stdout(&o).is_empty());
    let o = stride(&dir, &["-t", "glsl", "two.wgsl", "-o", "one.glsl"]);
    expect_code(&o, 2, "two entry points to one file");
    assert_eq!(listing(&dir), ["two.wgsl"], "nothing written");
}

#[test]
fn glsl_dialect_flag() {
    let dir = fixture("cli-glsl-dialect", &[("two.wgsl", TWO_STAGES)]);
    let o = stride(
        &dir,
        &["-t", "glsl", "--glsl", "es310", "-e", "vs", "two.wgsl"],
    );
    expect_code(&o, 0, "es310");
    let text = stdout(&o);
    assert!(text.starts_with("#version 310 es"), "{text}");
    assert!(!text.contains("layout(offset"), "ES has no offsets: {text}");

    let o = stride(&dir, &["-t", "glsl", "--glsl", "gl999", "two.wgsl"]);
    expect_code(&o, 2, "unknown dialect");
    assert!(stderr(&o).contains("vulkan450"), "{}", stderr(&o));

    let o = stride(&dir, &["--glsl", "gl450", "two.wgsl", "-o", "x.spv"]);
    expect_code(&o, 2, "--glsl with the spirv target");
    let o = stride(&dir, &["-e", "vs", "two.wgsl", "-o", "x.spv"]);
    expect_code(&o, 2, "-e with the spirv target");
}

#[test]
fn glsl_failure_removes_stale_entry_files() {
    let dir = fixture("cli-glsl-stale", &[("two.wgsl", TWO_STAGES)]);
    let o = stride(&dir, &["-t", "glsl", "two.wgsl", "-o", "out/"]);
    expect_code(&o, 0, "first run");
    std::fs::write(dir.join("out/keep.txt"), "x").unwrap_or_default();
    std::fs::write(dir.join("two.wgsl"), BAD).unwrap_or_default();
    let o = stride(&dir, &["-t", "glsl", "two.wgsl", "-o", "out/"]);
    expect_code(&o, 1, "second run fails");
    assert_eq!(listing(&dir.join("out")), ["keep.txt"]);
}

/// A fragment input that Slang cannot take (`noperspective` with
/// `centroid`) while every other target can.
const NO_SLANG: &str = "@fragment
fn fs(@location(0) @interpolate(linear, centroid) v: f32) -> @location(0) vec4<f32> {
    return vec4<f32>(v);
}
";

#[test]
fn several_targets_from_one_call_with_one_failing() {
    let dir = fixture("cli-multi-target", &[("f.wgsl", NO_SLANG)]);
    let o = stride(
        &dir,
        &[
            "-t",
            "spirv,slang",
            "-t",
            "hlsl",
            "-t",
            "glsl",
            "--shader-model",
            "6_2",
            "--color",
            "never",
            "f.wgsl",
            "-o",
            "out",
        ],
    );
    expect_code(&o, 1, "slang fails, the others do not");
    let err = stderr(&o);
    assert!(
        err.contains("error: slang: "),
        "the error names its target: {err}"
    );
    assert!(!err.contains("hlsl:"), "only slang reports: {err}");
    assert_eq!(
        listing(&dir.join("out")),
        ["f.fs.frag", "f.hlsl", "f.spv"],
        "every target but slang is written, no temporary file"
    );
    // Each output equals its single-target translation, with its options.
    for (args, file) in [
        (&["-t", "spirv"][..], "f.spv"),
        (&["-t", "hlsl", "--shader-model", "6_2"][..], "f.hlsl"),
        (&["-t", "glsl"][..], "f.fs.frag"),
    ] {
        let mut all = args.to_vec();
        all.extend(["f.wgsl", "-o", "single"]);
        let single = stride(&dir, &all);
        expect_code(&single, 0, file);
        assert_eq!(
            read(&dir.join("out").join(file)),
            read(&dir.join("single")),
            "{file}"
        );
    }
    // The single-target error is the same text, without the target name.
    let alone = stride(&dir, &["-t", "slang", "--color", "never", "f.wgsl"]);
    expect_code(&alone, 1, "slang alone");
    assert_eq!(err, stderr(&alone).replacen("error: ", "error: slang: ", 1));
}

#[test]
fn several_targets_need_a_directory_or_check() {
    let dir = fixture("cli-multi-stdout", &[("a.wgsl", GOOD)]);
    let o = stride(&dir, &["-t", "layout,reflect", "a.wgsl"]);
    expect_code(&o, 2, "two targets to stdout");
    assert!(stderr(&o).contains("-o DIR"), "{}", stderr(&o));
    let o = stride(
        &dir,
        &[
            "--check",
            "-t",
            "spirv,hlsl,glsl,slang,layout,reflect",
            "a.wgsl",
        ],
    );
    expect_code(&o, 0, "--check with every target");
    assert_eq!(listing(&dir), ["a.wgsl"]);
}

/// A shader whose one struct is named after `tag`, so that its layout
/// listing says which input it came from.
fn named_shader(tag: &str) -> String {
    format!(
        "struct S_{tag} {{ x: f32 }}
@group(0) @binding(0) var<uniform> u: S_{tag};
@compute @workgroup_size(1) fn main() {{ _ = u.x; }}
"
    )
}

/// Writes `files` (paths with folders) below a new temp folder.
fn tree(tag: &str, files: &[(&str, &str)]) -> PathBuf {
    let dir = temp_dir(tag);
    for (name, text) in files {
        let path = dir.join(name);
        if let Some(parent) = path.parent() {
            let _ = std::fs::create_dir_all(parent);
        }
        if let Err(e) = std::fs::write(&path, text) {
            panic!("cannot write fixture {name}: {e}");
        }
    }
    dir
}

#[test]
fn same_named_inputs_in_two_folders_mirror_into_the_output() {
    let (a, b) = (named_shader("a"), named_shader("b"));
    let dir = tree(
        "cli-mirror",
        &[("shaders/a/main.wgsl", &a), ("shaders/b/main.wgsl", &b)],
    );
    let o = stride(
        &dir,
        &[
            "-t",
            "spirv,layout",
            "shaders/a/main.wgsl",
            "shaders/b/main.wgsl",
            "-o",
            "out",
        ],
    );
    expect_code(&o, 0, "same stem in two folders");
    assert_eq!(listing(&dir.join("out")), ["a", "b"]);
    for (sub, tag) in [("a", "S_a"), ("b", "S_b")] {
        assert_eq!(
            listing(&dir.join("out").join(sub)),
            ["main.layout.txt", "main.spv"]
        );
        let text = read(&dir.join("out").join(sub).join("main.layout.txt"));
        assert!(
            contains(&text, tag.as_bytes()),
            "out/{sub} holds {sub}'s listing"
        );
    }
    // --root keeps the folders above the common root.
    let o = stride(
        &dir,
        &[
            "--root",
            ".",
            "shaders/a/main.wgsl",
            "shaders/b/main.wgsl",
            "-o",
            "rooted/",
        ],
    );
    expect_code(&o, 0, "--root");
    assert!(dir.join("rooted/shaders/a/main.spv").is_file());
    assert!(dir.join("rooted/shaders/b/main.spv").is_file());
    let o = stride(
        &dir,
        &["--root", "shaders/a", "shaders/b/main.wgsl", "-o", "x/"],
    );
    expect_code(&o, 2, "an input outside --root");
    // A true collision: the same input twice.
    let o = stride(
        &dir,
        &["shaders/a/main.wgsl", "shaders/a/main.wgsl", "-o", "twice"],
    );
    expect_code(&o, 2, "two inputs with the same outputs");
    assert!(stderr(&o).contains("would both write"), "{}", stderr(&o));
    assert_eq!(listing(&dir.join("twice")), Vec::<String>::new());
}

#[test]
fn a_directory_input_recurses_in_sorted_order() {
    let files: Vec<(String, String)> = ["z.wgsl", "a/y.wgsl", "a/b/x.wgsl", "b.wgsl", "m/k.wgsl"]
        .iter()
        .map(|name| {
            let tag = name.trim_end_matches(".wgsl").replace('/', "_");
            (format!("shaders/{name}"), named_shader(&tag))
        })
        .collect();
    let mut refs: Vec<(&str, &str)> = files
        .iter()
        .map(|(n, t)| (n.as_str(), t.as_str()))
        .collect();
    refs.push(("shaders/notes.txt", "not a shader"));
    let dir = tree("cli-recurse", &refs);
    let o = stride(&dir, &["-t", "layout", "shaders"]);
    expect_code(&o, 0, "a directory to stdout");
    let text = stdout(&o);
    let order: Vec<usize> = ["S_a_b_x", "S_a_y", "S_b ", "S_m_k", "S_z"]
        .iter()
        .map(|tag| {
            text.find(tag)
                .unwrap_or_else(|| panic!("{tag} missing:\n{text}"))
        })
        .collect();
    assert!(order.is_sorted(), "sorted path order: {order:?}\n{text}");
    let o = stride(&dir, &["-t", "hlsl", "shaders/", "-o", "out/"]);
    expect_code(&o, 0, "a directory into a tree");
    assert_eq!(listing(&dir.join("out")), ["a", "b.hlsl", "m", "z.hlsl"]);
    assert_eq!(listing(&dir.join("out/a")), ["b", "y.hlsl"]);
    assert_eq!(listing(&dir.join("out/a/b")), ["x.hlsl"]);
    let empty = temp_dir("cli-recurse-empty");
    let o = stride(&empty, &["."]);
    expect_code(&o, 2, "a directory without *.wgsl");
}

/// The rules of a Makefile-style depfile, read back: `(output, inputs)`.
fn parse_depfile(text: &str) -> Vec<(String, Vec<String>)> {
    let mut rules = Vec::new();
    for line in text.lines() {
        let mut words = Vec::new();
        let mut word = String::new();
        let mut chars = line.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '\\' if matches!(chars.peek(), Some(' ' | '#' | '\\')) => {
                    word.extend(chars.next());
                }
                '$' if chars.peek() == Some(&'$') => {
                    chars.next();
                    word.push('$');
                }
                ' ' => {
                    if !word.is_empty() {
                        words.push(std::mem::take(&mut word));
                    }
                }
                _ => word.push(c),
            }
        }
        if !word.is_empty() {
            words.push(word);
        }
        let Some(first) = words.first_mut() else {
            continue;
        };
        let Some(output) = first.strip_suffix(':').map(str::to_string) else {
            panic!("a rule starts with `OUTPUT:`: {line}");
        };
        rules.push((output, words[1..].to_vec()));
    }
    rules
}

#[test]
fn depfile_lists_every_output_with_its_input() {
    let dir = tree(
        "cli-depfile",
        &[
            ("my shaders/a b.wgsl", TWO_STAGES),
            ("my shaders/c$#.wgsl", GOOD),
        ],
    );
    let o = stride(
        &dir,
        &[
            "-t",
            "glsl,spirv",
            "my shaders",
            "-o",
            "out dir",
            "--depfile",
            "deps.d",
        ],
    );
    expect_code(&o, 0, "depfile");
    let text = String::from_utf8_lossy(&read(&dir.join("deps.d"))).into_owned();
    assert!(
        text.contains("out\\ dir/a\\ b.spv: my\\ shaders/a\\ b.wgsl\n"),
        "{text}"
    );
    let rules = parse_depfile(&text);
    let expected: Vec<(String, Vec<String>)> = [
        ("out dir/a b.vs.vert", "my shaders/a b.wgsl"),
        ("out dir/a b.fs.frag", "my shaders/a b.wgsl"),
        ("out dir/a b.spv", "my shaders/a b.wgsl"),
        ("out dir/c$#.main.comp", "my shaders/c$#.wgsl"),
        ("out dir/c$#.spv", "my shaders/c$#.wgsl"),
    ]
    .iter()
    .map(|(o, i)| (o.to_string(), vec![i.to_string()]))
    .collect();
    assert_eq!(rules, expected, "{text}");
    for (output, _) in &rules {
        assert!(dir.join(output).is_file(), "{output} exists");
    }
}

/// 64-bit FNV-1a, as the manifest documents it.
fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    })
}

#[test]
fn manifest_lists_inputs_outputs_hashes_and_warnings() {
    let dir = fixture(
        "cli-manifest",
        &[
            (
                "o.wgsl",
                &WITH_OVERRIDE.replace("GAIN: f32", "GAIN: f32 = 2.0"),
            ),
            ("f.wgsl", NO_SLANG),
        ],
    );
    let args = [
        "-t",
        "spirv,slang",
        "o.wgsl",
        "f.wgsl",
        "-o",
        "out",
        "--manifest",
        "m.json",
    ];
    let o = stride(&dir, &args);
    expect_code(&o, 1, "slang fails on f.wgsl");
    let bytes = read(&dir.join("m.json"));
    let json: serde_json::Value = match serde_json::from_slice(&bytes) {
        Ok(v) => v,
        Err(e) => panic!("the manifest is not JSON: {e}"),
    };
    assert_eq!(json["hash"], "fnv1a64");
    let inputs = json["inputs"].as_array().cloned().unwrap_or_default();
    assert_eq!(inputs.len(), 2);
    assert_eq!(inputs[0]["input"], "o.wgsl");
    assert_eq!(inputs[0]["ok"], true);
    assert_eq!(inputs[1]["input"], "f.wgsl");
    assert_eq!(inputs[1]["ok"], false);
    assert_eq!(inputs[1]["targets"]["slang"]["ok"], false);
    assert_eq!(
        inputs[1]["targets"]["slang"]["outputs"],
        serde_json::json!([])
    );
    let mut files = 0;
    for input in &inputs {
        for target in ["spirv", "slang"] {
            for out in input["targets"][target]["outputs"]
                .as_array()
                .into_iter()
                .flatten()
            {
                let path = out["path"].as_str().unwrap_or_default();
                let on_disk = read(&dir.join(path));
                assert_eq!(out["size"], on_disk.len() as u64, "{path}");
                assert_eq!(out["hash"], format!("{:016x}", fnv1a64(&on_disk)), "{path}");
                files += 1;
            }
        }
    }
    assert_eq!(files, 3, "o.spv, o.slang, f.spv");
    let warnings: Vec<&serde_json::Value> = inputs[0]["diagnostics"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|d| d["severity"] == "warning" && d["target"] == "spirv")
        .collect();
    assert!(
        warnings
            .iter()
            .any(|w| w["message"].as_str().is_some_and(|m| m.contains("GAIN"))),
        "the SPIR-V override warning: {:#}",
        inputs[0]
    );
    let slang_error = &inputs[1]["diagnostics"][0];
    assert_eq!(slang_error["target"], "slang");
    assert_eq!(slang_error["severity"], "error");
    assert_eq!(slang_error["line"], 2);
    // The same call gives the same manifest.
    let again = stride(&dir, &args);
    expect_code(&again, 1, "again");
    assert_eq!(read(&dir.join("m.json")), bytes);
}

fn mtime(path: &Path) -> std::time::SystemTime {
    match std::fs::metadata(path).and_then(|m| m.modified()) {
        Ok(t) => t,
        Err(e) => panic!("no mtime for {}: {e}", path.display()),
    }
}

#[test]
fn unchanged_outputs_keep_their_mtime_unless_forced() {
    let dir = fixture("cli-mtime", &[("a.wgsl", GOOD), ("b.wgsl", GOOD2)]);
    let args = [
        "-t",
        "spirv,hlsl",
        "a.wgsl",
        "b.wgsl",
        "-o",
        "out",
        "--depfile",
        "d.d",
    ];
    expect_code(&stride(&dir, &args), 0, "first run");
    let old = std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_000_000_000);
    let outputs = ["out/a.spv", "out/a.hlsl", "out/b.spv", "out/b.hlsl", "d.d"];
    for name in outputs {
        let file = std::fs::File::options().write(true).open(dir.join(name));
        if let Err(e) = file.and_then(|f| f.set_modified(old)) {
            panic!("cannot set the mtime of {name}: {e}");
        }
    }
    // b changes: only b's outputs are rewritten.
    std::fs::write(dir.join("b.wgsl"), GOOD2.replace("sink[0]", "sink[1]")).unwrap_or_default();
    expect_code(&stride(&dir, &args), 0, "second run");
    for name in ["out/a.spv", "out/a.hlsl", "d.d"] {
        assert_eq!(mtime(&dir.join(name)), old, "{name} is unchanged and kept");
    }
    for name in ["out/b.spv", "out/b.hlsl"] {
        assert_ne!(
            mtime(&dir.join(name)),
            old,
            "{name} changed and is rewritten"
        );
    }
    let mut forced = args.to_vec();
    forced.push("--force-write");
    expect_code(&stride(&dir, &forced), 0, "--force-write");
    for name in ["out/a.spv", "out/a.hlsl", "d.d"] {
        assert_ne!(
            mtime(&dir.join(name)),
            old,
            "{name} is rewritten with --force-write"
        );
    }
}

#[test]
fn a_failing_target_leaves_no_file_partial_or_stale() {
    let dir = fixture("cli-multi-stale", &[("f.wgsl", GOOD)]);
    let o = stride(&dir, &["-t", "spirv,slang", "f.wgsl", "-o", "out"]);
    expect_code(&o, 0, "first run");
    assert_eq!(listing(&dir.join("out")), ["f.slang", "f.spv"]);
    std::fs::write(dir.join("f.wgsl"), NO_SLANG).unwrap_or_default();
    let o = stride(&dir, &["-t", "spirv,slang", "f.wgsl", "-o", "out"]);
    expect_code(&o, 1, "slang fails now");
    // The old f.slang no longer matches f.wgsl: it is removed; no
    // temporary file is left.
    assert_eq!(listing(&dir.join("out")), ["f.spv"]);
    // A shared error (a parse error) writes no target at all.
    std::fs::write(dir.join("f.wgsl"), BAD).unwrap_or_default();
    let o = stride(
        &dir,
        &[
            "-t",
            "spirv,slang",
            "--color",
            "never",
            "f.wgsl",
            "-o",
            "out",
        ],
    );
    expect_code(&o, 1, "parse error");
    assert_eq!(listing(&dir.join("out")), Vec::<String>::new());
    assert!(
        !stderr(&o).contains("spirv:"),
        "a shared error names no target"
    );
}

#[test]
fn host_targets_write_stem_h_and_stem_rs() {
    let dir = fixture("cli-host", &[("params.wgsl", GOOD)]);
    let o = stride(&dir, &["-t", "c,rust", "params.wgsl", "-o", "out/"]);
    expect_code(&o, 0, "-t c,rust");
    assert_eq!(listing(&dir.join("out")), ["params.h", "params.rs"]);
    let h = std::fs::read_to_string(dir.join("out/params.h")).unwrap_or_default();
    assert!(h.contains("#ifndef STRIDE_PARAMS_H"), "{h}");
    assert!(
        h.contains("static_assert(offsetof(Params, offset) == 16"),
        "{h}"
    );
    let rs = std::fs::read_to_string(dir.join("out/params.rs")).unwrap_or_default();
    assert!(rs.contains("pub const PARAMS_BINDING: u32 = 0;"), "{rs}");
    assert!(!rs.contains("bytemuck"), "{rs}");
    let o = stride(
        &dir,
        &["-t", "rust", "--rust-derive", "bytemuck", "params.wgsl"],
    );
    expect_code(&o, 0, "--rust-derive bytemuck");
    assert!(stdout(&o).contains("bytemuck::Pod, bytemuck::Zeroable"));
}

#[test]
fn rust_derive_is_refused_for_other_targets() {
    let dir = fixture("cli-host-derive", &[("params.wgsl", GOOD)]);
    let o = stride(
        &dir,
        &["-t", "c", "--rust-derive", "bytemuck", "params.wgsl"],
    );
    expect_code(&o, 2, "--rust-derive with -t c");
    assert!(
        stderr(&o).contains("--rust-derive only applies to --target rust"),
        "{}",
        stderr(&o)
    );
}

/// An f16 module.
const F16: &str = "enable f16;
@group(0) @binding(0) var<storage, read_write> out: array<f16>;
@compute @workgroup_size(1) fn main() { out[0] = f16(1.5); }
";

#[test]
fn hlsl_shader_model_follows_the_module_without_the_flag() {
    let dir = fixture(
        "cli-shader-model",
        &[("f16.wgsl", F16), ("plain.wgsl", GOOD)],
    );
    // No flag: 6.2, with one note at the first use of f16.
    let o = stride(&dir, &["-t", "hlsl", "--color", "never", "f16.wgsl"]);
    expect_code(&o, 0, "f16 at the default shader model");
    assert!(
        stdout(&o).starts_with("// Generated by stride from WGSL; shader model 6.2\n"),
        "{}",
        stdout(&o)
    );
    let err = stderr(&o);
    assert_eq!(err.matches("note: ").count(), 1, "{err}");
    assert!(
        err.contains("note: writing HLSL for shader model 6.2: `f16` needs it"),
        "{err}"
    );
    assert!(err.contains("f16.wgsl:2:23"), "{err}");
    assert!(err.contains("-enable-16bit-types"), "{err}");
    assert!(!err.contains("error:"), "{err}");
    // A module that needs nothing more: 6.0, quietly.
    let o = stride(&dir, &["-t", "hlsl", "--color", "never", "plain.wgsl"]);
    expect_code(&o, 0, "plain module");
    assert!(stdout(&o).contains("shader model 6.0\n"), "{}", stdout(&o));
    assert!(stderr(&o).is_empty(), "{}", stderr(&o));
    // Explicit and too low: the error with its fix, word for word.
    let o = stride(
        &dir,
        &[
            "-t",
            "hlsl",
            "--color",
            "never",
            "--shader-model",
            "6_0",
            "f16.wgsl",
        ],
    );
    expect_code(&o, 1, "f16 at an explicit 6.0");
    let err = stderr(&o);
    assert!(
        err.contains(
            "error: `f16` cannot be written for shader model 6.0: 16-bit floats need shader model 6.2"
        ),
        "{err}"
    );
    assert!(
        err.contains("pass `--shader-model 6_2` (and compile with DXC's `-enable-16bit-types`)"),
        "{err}"
    );
    assert!(!err.contains("note: writing"), "{err}");
    // Explicit and enough: no note.
    let o = stride(
        &dir,
        &[
            "-t",
            "hlsl",
            "--color",
            "never",
            "--shader-model",
            "6_6",
            "f16.wgsl",
        ],
    );
    expect_code(&o, 0, "f16 at an explicit 6.6");
    assert!(stdout(&o).contains("shader model 6.6\n"), "{}", stdout(&o));
    assert!(stderr(&o).is_empty(), "{}", stderr(&o));
    // Slang writes f16 at its fixed model, with no note.
    let o = stride(&dir, &["-t", "slang", "--color", "never", "f16.wgsl"]);
    expect_code(&o, 0, "f16 to Slang");
    assert!(stdout(&o).contains("float16_t"), "{}", stdout(&o));
    assert!(stderr(&o).is_empty(), "{}", stderr(&o));
}

/// spec/001's `Pair gPairs[8]`, without `enable wgpu_binding_array;`.
const PAIRS: &str = "struct Pair { a: texture_2d<f32>, b: texture_2d<f32> }
var gPairs: array<Pair, 8>;
var s: sampler;
@fragment fn main(@location(0) @interpolate(flat) i: u32) -> @location(0) vec4<f32> {
    return textureSample(gPairs[i].a, s, vec2(0.5)) + textureSample(gPairs[i].b, s, vec2(0.5));
}
";

#[test]
fn split_binding_arrays_need_no_enable_and_do_not_overlap_by_default() {
    let dir = fixture("cli-pairs", &[("pairs.wgsl", PAIRS)]);
    for target in ["hlsl", "slang", "spirv", "glsl", "reflect"] {
        let o = stride(
            &dir,
            &["-t", target, "--color", "never", "pairs.wgsl", "-o", "out/"],
        );
        expect_code(&o, 0, target);
        assert!(!stderr(&o).contains("wgpu_binding_array"), "{}", stderr(&o));
    }
    // The default (`wgsl`) registers: the two binding arrays one after the
    // other, as spec/001 lays out the parameter.
    let o = stride(
        &dir,
        &["-t", "hlsl", "--line-directives", "none", "pairs.wgsl"],
    );
    expect_code(&o, 0, "hlsl");
    let hlsl = stdout(&o);
    assert!(
        hlsl.contains("Texture2D<float4> gPairs_a[8] : register(t0, space0);"),
        "{hlsl}"
    );
    assert!(
        hlsl.contains("Texture2D<float4> gPairs_b[8] : register(t8, space0);"),
        "{hlsl}"
    );
}

/// A `texture_external` used by a fragment shader.
const EXTERNAL: &str = "@group(0) @binding(0) var t: texture_external;
@fragment fn main() -> @location(0) vec4<f32> {
    return textureLoad(t, vec2<u32>(0u));
}
";

#[test]
fn one_cause_gives_one_diagnostic() {
    let dir = fixture("cli-once", &[("ext.wgsl", EXTERNAL)]);
    for targets in ["hlsl", "slang", "spirv", "hlsl,slang", "hlsl,slang,spirv"] {
        let o = stride(
            &dir,
            &["-t", targets, "--color", "never", "ext.wgsl", "-o", "out/"],
        );
        let err = stderr(&o);
        let mut seen = std::collections::BTreeSet::new();
        for line in err.lines().filter(|l| l.starts_with("error")) {
            assert!(
                seen.insert(line),
                "-t {targets}: printed twice: {line}\n{err}"
            );
        }
        // At most one error per cause: the texture HLSL and Slang refuse
        // (named once for both), and SPIR-V's own (none once
        // `texture_external` is lowered).
        let causes = usize::from(targets.contains("hlsl") || targets.contains("slang"))
            + usize::from(targets.contains("spirv"));
        assert!(seen.len() <= causes, "-t {targets}:\n{err}");
    }
    // The same diagnostic from several targets: once, naming them all.
    let dir = fixture(
        "cli-once-targets",
        &[(
            "rt.wgsl",
            "enable wgpu_binding_array;
@group(0) @binding(0) var ts: binding_array<texture_2d<f32>>;
@fragment fn main(@location(0) @interpolate(flat) i: u32) -> @location(0) vec4<f32> {
    return textureLoad(ts[i], vec2<i32>(0), 0);
}
",
        )],
    );
    let o = stride(
        &dir,
        &[
            "-t",
            "hlsl,slang",
            "--color",
            "never",
            "rt.wgsl",
            "-o",
            "out/",
        ],
    );
    expect_code(&o, 1, "runtime-sized binding array");
    let err = stderr(&o);
    assert_eq!(err.matches("error").count(), 1, "{err}");
    assert!(
        err.contains("error: hlsl, slang: HLSL output cannot bind a runtime-sized binding array"),
        "{err}"
    );
}

/// `--uniform-layout standard` gives uniforms the storage rules for every
/// target of the call, as `requires uniform_buffer_standard_layout;` does;
/// without it the same module is an error at the struct.
#[test]
fn uniform_layout_standard_lifts_the_uniform_rules() {
    const PAIRS: &str = "struct S { a: f32, b: f32 }
struct U { pairs: array<S, 3>, t: f32 }
@group(0) @binding(0) var<uniform> u: U;
@group(0) @binding(1) var<storage, read_write> o: array<f32>;
@compute @workgroup_size(1)
fn main() { o[0] = u.pairs[2].b + u.t; }
";
    let dir = fixture("cli-uniform-layout", &[("p.wgsl", PAIRS)]);
    let o = stride(&dir, &["-t", "spirv", "p.wgsl", "-o", "p.spv"]);
    expect_code(&o, 1, "wgsl uniform rules");
    assert!(
        stderr(&o).contains("Uniform buffers require"),
        "{}",
        stderr(&o)
    );
    assert!(!dir.join("p.spv").exists(), "no output on error");
    // One target, then two from one analysis.
    let o = stride(
        &dir,
        &[
            "--uniform-layout",
            "standard",
            "-t",
            "spirv",
            "p.wgsl",
            "-o",
            "p.spv",
        ],
    );
    expect_code(&o, 0, "standard, spirv");
    assert!(
        stderr(&o).contains("uniformBufferStandardLayout"),
        "{}",
        stderr(&o)
    );
    let o = stride(
        &dir,
        &[
            "--uniform-layout",
            "standard",
            "-t",
            "spirv,glsl",
            "p.wgsl",
            "-o",
            "out/",
        ],
    );
    expect_code(&o, 0, "standard, spirv and glsl");
    let glsl = std::fs::read_to_string(dir.join("out/p.main.comp")).unwrap_or_default();
    assert!(glsl.contains("uvec4 _s_words[2];"), "{glsl}");
    // The same bytes as the module that says it itself.
    let said = format!("requires uniform_buffer_standard_layout;\n{PAIRS}");
    std::fs::write(dir.join("q.wgsl"), said).unwrap_or_default();
    let o = stride(&dir, &["-t", "spirv", "q.wgsl", "-o", "q.spv"]);
    expect_code(&o, 0, "directive, spirv");
    let a = std::fs::read(dir.join("p.spv")).unwrap_or_default();
    let b = std::fs::read(dir.join("q.spv")).unwrap_or_default();
    assert!(!a.is_empty() && a == b, "{} vs {} bytes", a.len(), b.len());
}
