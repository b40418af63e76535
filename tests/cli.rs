//! Black-box tests of the `stride` binary: arguments, outputs, exit codes.

mod common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use common::temp_dir;

const STRIDE: &str = env!("CARGO_BIN_EXE_stride");

/// A valid compute shader with a uniform and a storage buffer.
const GOOD: &str = "struct Params { scale: f32, offset: vec4<f32> }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read_write> out_data: array<f32>;
@compute @workgroup_size(1) fn main() { out_data[0] = params.scale + params.offset.x; }
";

/// Another valid shader with a different, recognisable struct name.
const GOOD2: &str = "struct Lights { count: u32, color: vec4<f32> }
@group(0) @binding(0) var<storage, read> lights: Lights;
@group(0) @binding(1) var<storage, read_write> sink: array<u32>;
@compute @workgroup_size(1) fn main() { sink[0] = lights.count; }
";

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
