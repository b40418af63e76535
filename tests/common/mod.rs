//! Helpers shared by the integration tests: corpus discovery, expected-file
//! naming, external tool detection and small process/file utilities.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

use stride::Target;

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
        Target::Layout => "layout.txt",
        Target::Reflect => "reflect.json",
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

/// Every suffix an expected file can have, longest first.
pub fn expected_suffixes() -> Vec<String> {
    let mut v: Vec<String> = Vec::new();
    for t in Target::ALL {
        v.push(diag_suffix(t));
        v.push(output_suffix(t).to_string());
    }
    v.sort_by_key(|s| std::cmp::Reverse(s.len()));
    v
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
    None
}

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
