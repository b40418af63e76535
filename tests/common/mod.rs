//! Helpers shared by the integration tests: corpus discovery, expected-file
//! naming, external tool detection and small process/file utilities.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

use stride::Target;

#[allow(unused_imports)]
pub use process::{output_bounded, output_within};

pub mod dxc;
pub mod process;
pub mod slang;

/// The repository root (where Cargo.toml lives).
pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The corpus folder: `corpus/`, or `$STRIDE_CORPUS` when set (to try the
/// harness on a copy).
pub fn corpus_dir() -> PathBuf {
    match std::env::var_os("STRIDE_CORPUS") {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir),
        _ => repo_root().join("corpus"),
    }
}

/// Every `corpus/**/*.wgsl`, sorted by path.
pub fn corpus_inputs() -> Vec<PathBuf> {
    let mut out = Vec::new();
    walk(&corpus_dir(), &mut |p| {
        if p.extension().is_some_and(|e| e == "wgsl") {
            out.push(p.to_path_buf());
        }
    });
    out.sort();
    out
}

/// The `tests/regressions/*.wgsl` inputs: modules kept out of corpus/
/// (no snapshots, no GLSL sweep) that the HLSL and Slang oracles and the
/// execution test read beside it.
pub fn regression_inputs() -> Vec<PathBuf> {
    let mut out = Vec::new();
    walk(&repo_root().join("tests/regressions"), &mut |p| {
        if p.extension().is_some_and(|e| e == "wgsl") {
            out.push(p.to_path_buf());
        }
    });
    out.sort();
    out
}

/// Every regular file below `dir`, recursively (order unspecified).
pub fn walk(dir: &Path, visit: &mut dyn FnMut(&Path)) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for p in paths {
        if p.is_dir() {
            walk(&p, visit);
        } else if p.is_file() {
            visit(&p);
        }
    }
}

/// The file name used in rendered diagnostics: the path relative to the
/// repository root, with forward slashes (`corpus/...` also for a corpus
/// copy given by `$STRIDE_CORPUS`).
pub fn display_name(path: &Path) -> String {
    let rel = if let Ok(r) = path.strip_prefix(corpus_dir()) {
        Path::new("corpus").join(r)
    } else if let Ok(r) = path.strip_prefix(repo_root()) {
        r.to_path_buf()
    } else {
        path.to_path_buf()
    };
    rel.to_string_lossy().replace('\\', "/")
}

/// The suffix of a target's expected output file: `<stem>.<suffix>`.
pub fn output_suffix(target: Target) -> &'static str {
    match target {
        Target::Spirv => "spv",
        Target::Glsl => "glsl",
        Target::Hlsl => "hlsl",
        Target::Slang => "slang",
        Target::Layout => "layout.txt",
        Target::Reflect => "reflect.json",
        Target::C => "h",
        Target::Rust => "rs",
    }
}

/// The suffix of a target's expected diagnostics file.
pub fn diag_suffix(target: Target) -> String {
    format!("{}.diag.txt", target.name())
}

/// `corpus/x/foo.wgsl` -> `corpus/x/foo.<suffix>`.
pub fn sibling(input: &Path, suffix: &str) -> PathBuf {
    let stem = input
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    input.with_file_name(format!("{stem}.{suffix}"))
}

/// Every fixed suffix an expected file can have, longest first. GLSL
/// outputs are named by entry point instead (`<stem>.<entry>.<stage>`, see
/// [`glsl_expected_files`]); only the GLSL diagnostics file is listed.
pub fn expected_suffixes() -> Vec<String> {
    let mut v: Vec<String> = Vec::new();
    for t in Target::ALL {
        v.push(diag_suffix(t));
        if t != Target::Glsl {
            v.push(output_suffix(t).to_string());
        }
    }
    v.sort_by_key(|s| std::cmp::Reverse(s.len()));
    v
}

/// The file extensions of GLSL outputs, one per shader stage
/// (`stride::back::glsl::stage_extension`).
pub const GLSL_STAGE_EXTENSIONS: [&str; 5] = ["vert", "frag", "comp", "task", "mesh"];

/// `<stem>.<entry>.<stage>` split into `(stem, entry, stage)`, when `name`
/// has that shape: `entry` is an identifier (no dots) and `stage` one of
/// [`GLSL_STAGE_EXTENSIONS`].
pub fn split_glsl_file_name(name: &str) -> Option<(&str, &str, &str)> {
    let (rest, stage) = name.rsplit_once('.')?;
    if !GLSL_STAGE_EXTENSIONS.contains(&stage) {
        return None;
    }
    let (stem, entry) = rest.rsplit_once('.')?;
    let ident = !entry.is_empty()
        && entry.chars().all(|c| c.is_alphanumeric() || c == '_')
        && !entry.starts_with(|c: char| c.is_ascii_digit());
    if stem.is_empty() || !ident {
        return None;
    }
    Some((stem, entry, stage))
}

/// The GLSL output files that exist beside `input` (`<stem>.<entry>.<stage>`),
/// sorted.
pub fn glsl_expected_files(input: &Path) -> Vec<PathBuf> {
    let stem = input
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let Some(dir) = input.parent() else {
        return Vec::new();
    };
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut out: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .and_then(split_glsl_file_name)
                .is_some_and(|(s, _, _)| s == stem)
        })
        .collect();
    out.sort();
    out
}

/// If `file` looks like an expected file, the input it belongs to.
pub fn input_of_expected(file: &Path) -> Option<PathBuf> {
    let name = file.file_name()?.to_str()?;
    for suffix in expected_suffixes() {
        if let Some(stem) = name.strip_suffix(&format!(".{suffix}")) {
            if !stem.is_empty() {
                return Some(file.with_file_name(format!("{stem}.wgsl")));
            }
        }
    }
    if let Some((stem, _, _)) = split_glsl_file_name(name) {
        return Some(file.with_file_name(format!("{stem}.wgsl")));
    }
    None
}

/// Whether the snapshot test covers the GLSL target. Until the GLSL writer
/// lands this is off: its outputs are internal errors. Turn it on by
/// flipping [`GLSL_SNAPSHOTS_DEFAULT`]; `STRIDE_GLSL_SNAPSHOTS=1` (or `=0`)
/// overrides the default for one run.
pub fn glsl_snapshots_enabled() -> bool {
    match std::env::var("STRIDE_GLSL_SNAPSHOTS") {
        Ok(v) if !v.is_empty() => v != "0" && v != "false",
        _ => GLSL_SNAPSHOTS_DEFAULT,
    }
}

/// The default of [`glsl_snapshots_enabled`]: `false` while
/// `src/back/glsl` is stubs; set to `true` when the writer lands (then
/// `STRIDE_BLESS=1 cargo test --test snapshots` creates the GLSL files).
pub const GLSL_SNAPSHOTS_DEFAULT: bool = true;

/// `STRIDE_BLESS=1`: rewrite expected files instead of comparing.
pub fn blessing() -> bool {
    env_flag("STRIDE_BLESS")
}

/// `STRIDE_REQUIRE_ORACLES=1`: a missing external tool is a failure.
pub fn oracles_required() -> bool {
    env_flag("STRIDE_REQUIRE_ORACLES")
}

fn env_flag(name: &str) -> bool {
    std::env::var(name).is_ok_and(|v| !v.is_empty() && v != "0" && v != "false")
}

/// Whether an external tool runs at all (`<tool> <probe>` starts and exits).
pub fn tool_available(tool: &str, probe: &[&str]) -> bool {
    Command::new(tool)
        .args(probe)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok()
}

/// A fresh, empty folder for one test's temporary files.
pub fn temp_dir(tag: &str) -> PathBuf {
    static COUNTER: AtomicUsize = AtomicUsize::new(0);
    let n = COUNTER.fetch_add(1, Ordering::SeqCst);
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("{tag}-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    if let Err(e) = std::fs::create_dir_all(&dir) {
        panic!("cannot create {}: {e}", dir.display());
    }
    dir
}

/// SPIR-V words as little-endian bytes.
pub fn words_to_bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// `spirv-dis` text of a SPIR-V binary, or `None` when spirv-dis is missing
/// or fails.
pub fn disassemble(bytes: &[u8]) -> Option<String> {
    let dir = temp_dir("dis");
    let file = dir.join("module.spv");
    std::fs::write(&file, bytes).ok()?;
    let out = Command::new("spirv-dis")
        .arg("--no-color")
        .arg("--raw-id")
        .arg(&file)
        .output()
        .ok()?;
    let _ = std::fs::remove_dir_all(&dir);
    if out.status.success() {
        Some(String::from_utf8_lossy(&out.stdout).into_owned())
    } else {
        None
    }
}

/// Bytes as one hex word per line (`offset: word`), for readable diffs when
/// spirv-dis is not available.
pub fn hex_words(bytes: &[u8]) -> String {
    let mut s = String::new();
    for (i, chunk) in bytes.chunks(4).enumerate() {
        let mut w = [0u8; 4];
        w[..chunk.len()].copy_from_slice(chunk);
        s.push_str(&format!("{:6}: {:08x}\n", i * 4, u32::from_le_bytes(w)));
    }
    s
}

/// A readable diff between two SPIR-V binaries.
pub fn spirv_diff(expected: &[u8], actual: &[u8]) -> String {
    let (e, a, how) = match (disassemble(expected), disassemble(actual)) {
        (Some(e), Some(a)) => (e, a, "spirv-dis"),
        _ => (hex_words(expected), hex_words(actual), "hex words"),
    };
    format!(
        "({how}; left: expected, right: actual)\n{}",
        pretty_assertions::StrComparison::new(&e, &a)
    )
}

/// Written straight to the process's stderr, past the test harness's output
/// capture, so that skips and totals show even when the test passes.
pub fn loud(text: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{text}");
}

/// Whether `tool` is installed; if not, say so loudly, and fail when the
/// oracles are required (`STRIDE_REQUIRE_ORACLES=1`).
pub fn require_tool(tool: &str, probe: &[&str], test: &str) -> bool {
    if tool_available(tool, probe) {
        return true;
    }
    let msg = format!(
        "`{tool}` not found: oracle test `{test}` SKIPPED (install it with scripts/install-oracles.sh)"
    );
    if oracles_required() {
        panic!("{msg}; STRIDE_REQUIRE_ORACLES=1 makes a missing tool a failure");
    }
    let bar = "!".repeat(76);
    loud(&format!("\n{bar}\n!!! {msg}\n{bar}\n"));
    false
}

/// Print `test: summary` loudly, then fail with every failure listed.
pub fn finish(test: &str, summary: String, failures: Vec<String>) {
    loud(&format!("{test}: {summary}"));
    if !failures.is_empty() {
        let mut msg = format!("{test}: {} failure(s):\n", failures.len());
        for (i, f) in failures.iter().enumerate() {
            msg.push_str(&format!("\n--- [{}] {f}\n", i + 1));
        }
        panic!("{msg}");
    }
}

/// The register mode the D3D oracles translate `parsed` with: spec/001's
/// compact allocation for modules with split parameters (whose binding
/// arrays take consecutive WGSL bindings but a register per element, so
/// `--registers wgsl` overlaps them), else the default.
pub fn registers_for(parsed: &stride::front::Parsed) -> stride::back::hlsl::RegisterMode {
    if parsed.annotations.params.is_empty() {
        Default::default()
    } else {
        stride::back::hlsl::RegisterMode::Compact
    }
}

/// A valid compute shader with a uniform and a storage buffer (the
/// command-line tests' fixture).
pub const PARAMS_SHADER: &str = "struct Params { scale: f32, offset: vec4<f32> }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read_write> out_data: array<f32>;
@compute @workgroup_size(1) fn main() { out_data[0] = params.scale + params.offset.x; }
";

/// Another valid shader with a different, recognisable struct name.
pub const LIGHTS_SHADER: &str = "struct Lights { count: u32, color: vec4<f32> }
@group(0) @binding(0) var<storage, read> lights: Lights;
@group(0) @binding(1) var<storage, read_write> sink: array<u32>;
@compute @workgroup_size(1) fn main() { sink[0] = lights.count; }
";
