//! Layouts proved by execution: compute shaders run on the machine's Vulkan
//! driver (a real GPU when there is one, else lavapipe).
//!
//! Every module of `corpus/layout/` and `corpus/dialect/`, and a few
//! hundred modules generated from a fixed seed, get a probe entry point (`exec/probe.rs`) that copies every
//! leaf of every buffer into an output buffer and stores a known value into
//! every leaf of every read_write storage buffer. The host fills the buffers
//! with a known byte pattern and checks each value read against the bytes
//! at the leaf's contract offset (`stride::analyze`), each value written
//! at its contract offset, and that every other byte (padding, gaps, tails)
//! still holds the pattern.
//!
//! The input buffers are filled by a C program through the structs of
//! `--target c` (`exec/host.rs`): every read must return the value that
//! program stored through the struct member, the host-to-shader promise
//! checked end to end.
//!
//! Targets: a target only has to turn the module source into SPIR-V words
//! (`ExecTarget`): our own SPIR-V, our GLSL (vulkan450) compiled by
//! glslang, our HLSL compiled by DXC (`-spirv -fvk-use-dx-layout`), and our
//! Slang compiled by Slang (`-target spirv -fvk-use-dx-layout`).
//! `STRIDE_EXEC_TARGETS=spirv,glsl,hlsl,slang` picks targets (default: all
//! four). `STRIDE_EXEC_ONLY=dir` runs only the modules of that folder
//! (reproducing one module on a driver).
//!
//! No Vulkan device: the test says it was skipped, or fails when
//! `STRIDE_REQUIRE_ORACLES=1`. `scripts/install-oracles.sh` installs
//! lavapipe (`mesa-vulkan-drivers`, `libvulkan1`).

mod common;
#[path = "exec/fresh.rs"]
mod fresh;
#[path = "exec/gen.rs"]
mod gen;
#[path = "exec/host.rs"]
mod host;
#[path = "exec/probe.rs"]
mod probe;
#[path = "exec/vk.rs"]
mod vk;

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::PathBuf;
use std::time::Instant;

use probe::{Leaf, Probe, Space, Style};
use stride::layout::{vulkan, ScalarKind};
use stride::{DiagnosticKind, Options, Output, Target};

/// The seed of the generated modules.
const SEED: u64 = 0x5354_5249_4445_0001;
/// Generated modules that must run (accepted by stride and not skipped for
/// a missing device feature) ...
const GENERATED_TARGET: usize = 220;
/// ... trying at most this many.
const GENERATED_MAX: u64 = 600;
/// Mismatches described per module.
const DETAILS_PER_MODULE: usize = 6;

/// Known stride bugs found by this test, by module name: the module still
/// runs and its mismatches are reported, but do not fail the test.
/// Empty: every module passes.
const KNOWN_FAILURES: &[(&str, &str)] = &[];

/// Something that turns a module's source into SPIR-V words for the probe
/// entry point. GLSL (glslang), HLSL (DXC) and Slang targets plug in here.
trait ExecTarget: Sync {
    fn name(&self) -> &'static str;
    /// A line for the summary, if the target has more to say.
    fn note(&self) -> Option<String> {
        None
    }
    fn spirv(&self, source: &str, entry: &str) -> Result<Compiled, TargetError>;
    /// Storage buffers are bound with sizes rounded up to a multiple of
    /// this many bytes.
    fn storage_granule(&self) -> u64 {
        1
    }
}

/// A target's SPIR-V for a module.
struct Compiled {
    words: Vec<u32>,
    /// Where the target put the `var<immediate>` block when it is not a
    /// Vulkan push-constant block: the (set, binding) of the uniform buffer
    /// the harness binds its bytes to instead.
    push_as_uniform: Option<(u32, u32)>,
}

impl From<Vec<u32>> for Compiled {
    fn from(words: Vec<u32>) -> Self {
        Compiled {
            words,
            push_as_uniform: None,
        }
    }
}

/// Why a target produced no SPIR-V for a module.
enum TargetError {
    /// The layout is valid (the SPIR-V target writes it), but this target's
    /// layout rules cannot express it: stride said so in an error carrying
    /// the target's inexpressible note. Counted and listed, not run.
    Inexpressible(String),
    Failed(String),
}

impl From<String> for TargetError {
    fn from(s: String) -> Self {
        TargetError::Failed(s)
    }
}

impl From<&str> for TargetError {
    fn from(s: &str) -> Self {
        TargetError::Failed(s.to_string())
    }
}

/// stride's own SPIR-V backend.
struct OurSpirv;

impl ExecTarget for OurSpirv {
    fn name(&self) -> &'static str {
        "spirv"
    }

    fn spirv(&self, source: &str, _entry: &str) -> Result<Compiled, TargetError> {
        let options = Options {
            target: Target::Spirv,
            ..Default::default()
        };
        match stride::translate(source, &options) {
            Ok(t) => match t.output {
                Output::Binary(words) => Ok(words.into()),
                _ => Err("the SPIR-V target returned text".into()),
            },
            Err(d) => Err(d.render("probe.wgsl", source, false).into()),
        }
    }
}

/// stride's GLSL (dialect vulkan450, the probe entry point only), compiled
/// to SPIR-V by glslang: `glslangValidator -V --target-env vulkan1.1 -S comp`,
/// with GLSL's `main` renamed to the probe's entry point name. About half
/// the modules that hold f16 (by the parity of the source's length) are
/// written with `f16_words`: their f16 buffers are declared as 32-bit words
/// as every OpenGL dialect declares them, so that code runs on the Vulkan
/// driver too; the others keep 16-bit storage blocks.
struct OurGlsl;

/// Modules the GLSL target ran with f16 buffers declared as words.
static F16_WORDS_RUN: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

impl ExecTarget for OurGlsl {
    fn name(&self) -> &'static str {
        "glsl"
    }

    fn note(&self) -> Option<String> {
        Some(format!(
            "f16 modules run with their f16 buffers declared as 32-bit words (the OpenGL dialects' f16 code): {}",
            F16_WORDS_RUN.load(std::sync::atomic::Ordering::Relaxed)
        ))
    }

    /// A buffer declared as words is a runtime array of `uint`, so its
    /// binding must cover whole words: storage buffers are bound with their
    /// size rounded up to 4 bytes, as WebGPU requires of every storage
    /// binding (the extra bytes hold the pattern and are checked like any
    /// padding).
    fn storage_granule(&self) -> u64 {
        4
    }

    fn spirv(&self, source: &str, entry: &str) -> Result<Compiled, TargetError> {
        let f16_words = source.contains("enable f16") && source.len() % 2 == 1;
        let options = Options {
            target: Target::Glsl,
            pipeline: one_entry_point(entry),
            glsl: stride::back::glsl::GlslOptions {
                dialect: stride::back::glsl::Dialect::Vulkan450,
                f16_words,
            },
            ..Default::default()
        };
        let text = match stride::translate(source, &options) {
            Ok(t) => match t.output {
                Output::Files(files) => match files.as_slice() {
                    [one] => one.text.clone(),
                    _ => {
                        return Err(format!(
                            "expected one GLSL file for `{entry}`, got {}",
                            files.len()
                        )
                        .into())
                    }
                },
                _ => return Err("the GLSL target did not return files".into()),
            },
            Err(d) => {
                let text = d.render("probe.wgsl", source, false);
                let inexpressible = d
                    .iter()
                    .filter(|e| e.is_error())
                    .all(|e| e.kind == DiagnosticKind::Inexpressible);
                return Err(if inexpressible {
                    TargetError::Inexpressible(text)
                } else {
                    TargetError::Failed(text)
                });
            }
        };
        let dir = std::env::temp_dir().join(format!("stride-exec-glsl-{}", std::process::id()));
        std::fs::create_dir_all(&dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        let glsl = dir.join("probe.comp");
        let spv = dir.join("probe.spv");
        std::fs::write(&glsl, &text)
            .map_err(|e| format!("cannot write {}: {e}", glsl.display()))?;
        let _ = std::fs::remove_file(&spv);
        let out = common::output_bounded(
            std::process::Command::new("glslangValidator")
                .args(["-V", "--target-env", "vulkan1.1", "-S", "comp"])
                // GLSL's entry point is `main`; the harness runs `entry`.
                .args(["-e", entry, "--source-entrypoint", "main", "-o"])
                .arg(&spv)
                .arg(&glsl),
        )
        .map_err(|e| format!("cannot run glslangValidator: {e}"))?;
        if !out.status.success() {
            return Err(format!(
                "glslangValidator rejected stride's GLSL:\n{}{}\n--- GLSL ---\n{text}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            )
            .into());
        }
        let bytes =
            std::fs::read(&spv).map_err(|e| format!("cannot read {}: {e}", spv.display()))?;
        if bytes.len() % 4 != 0 {
            return Err(format!("glslang wrote {} bytes, not whole words", bytes.len()).into());
        }
        if f16_words {
            F16_WORDS_RUN.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
        Ok(bytes
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect::<Vec<u32>>()
            .into())
    }
}

/// stride's HLSL (the probe entry point only; shader model 6.0, or 6.2 with
/// `-enable-16bit-types` for f16), compiled to SPIR-V by DXC with
/// `-spirv -fvk-use-dx-layout`: cbuffers keep D3D's packing (the packoffsets
/// stride wrote), byte-address buffers are read at stride's offsets.
struct OurHlsl;

impl ExecTarget for OurHlsl {
    fn name(&self) -> &'static str {
        "hlsl"
    }

    /// A (RW)ByteAddressBuffer is an array of 32-bit words: a D3D12 raw
    /// buffer view counts its size in 4-byte elements, and DXC's SPIR-V
    /// declares a runtime array of `uint`. A storage buffer whose WGSL type
    /// is 6 bytes (`vec3<f16>`) is therefore bound as 8; the two extra
    /// bytes hold the pattern and are checked like any padding.
    fn storage_granule(&self) -> u64 {
        4
    }

    fn spirv(&self, source: &str, entry: &str) -> Result<Compiled, TargetError> {
        let f16 = source.contains("enable f16");
        let model = if f16 {
            stride::back::hlsl::ShaderModel::Sm6_2
        } else {
            stride::back::hlsl::ShaderModel::Sm6_0
        };
        let options = stride::back::hlsl::HlslOptions {
            shader_model: Some(model),
            ..Default::default()
        };
        let rendered = |d: &stride::Diagnostics| d.render("probe.wgsl", source, false);
        let stride::Analysis {
            parsed,
            info,
            contract,
            ..
        } = stride::analyze(source).map_err(|d| rendered(&d))?;
        let out = match stride::back::write_text(
            &parsed,
            &info,
            &contract,
            &one_entry_point(entry),
            &options,
        ) {
            Ok(out) => out,
            Err(d) => return Err(hlsl_error(&d, source)),
        };
        let Some(ep) = out.entry_points.iter().find(|e| e.name == entry) else {
            return Err(format!("no entry point `{entry}` in stride's HLSL").into());
        };
        // DXC names the SPIR-V entry point after the HLSL function (DXC 1.7
        // has no -fspv-entrypoint-name), and the harness runs `entry`.
        if ep.function != entry {
            return Err(format!(
                "stride named the HLSL entry function `{}`, not `{entry}`",
                ep.function
            )
            .into());
        }
        let profile = ep.profile(model);
        let mut args = vec![
            "-T",
            profile.as_str(),
            "-E",
            ep.function.as_str(),
            "-spirv",
            "-fvk-use-dx-layout",
            "-fspv-target-env=vulkan1.1",
        ];
        if f16 {
            args.push("-enable-16bit-types");
        }
        args.extend(["-Fo", "probe.spv"]);
        let dir = std::env::temp_dir().join(format!("stride-exec-hlsl-{}", std::process::id()));
        std::fs::create_dir_all(&dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        let spv = dir.join("probe.spv");
        let _ = std::fs::remove_file(&spv);
        if let Err(e) = common::dxc::run_dxc(&out.text, &args, Some(&dir)) {
            return Err(format!(
                "DXC rejected stride's HLSL:\n{e}\n--- HLSL ---\n{}",
                out.text
            )
            .into());
        }
        // D3D packing puts members into the tails of arrays and structs,
        // which Vulkan allows with scalar block layout.
        let val = common::output_bounded(
            std::process::Command::new("spirv-val")
                .args(["--target-env", "vulkan1.1", "--scalar-block-layout"])
                .arg(&spv),
        )
        .map_err(|e| format!("cannot run spirv-val: {e}"))?;
        if !val.status.success() {
            return Err(format!(
                "spirv-val rejects DXC's SPIR-V:\n{}{}\n--- HLSL ---\n{}",
                String::from_utf8_lossy(&val.stdout),
                String::from_utf8_lossy(&val.stderr),
                out.text
            )
            .into());
        }
        let bytes =
            std::fs::read(&spv).map_err(|e| format!("cannot read {}: {e}", spv.display()))?;
        if bytes.len() % 4 != 0 {
            return Err(format!("DXC wrote {} bytes, not whole words", bytes.len()).into());
        }
        // HLSL has no push constants: stride declares a `var<immediate>` as
        // a cbuffer in its own register space (a root-constant cbuffer in
        // D3D), which DXC turns into the uniform buffer at set = space,
        // binding = register.
        let push_as_uniform = parsed
            .module
            .global_variables
            .iter()
            .find(|(_, g)| g.space == naga::AddressSpace::Immediate)
            .and_then(|(_, g)| {
                let name = g.name.as_deref()?;
                out.registers
                    .iter()
                    .find(|r| r.global == name && r.class == 'b')
                    .map(|r| (r.space, r.register))
            });
        Ok(Compiled {
            words: bytes
                .chunks_exact(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect(),
            push_as_uniform,
        })
    }
}

/// stride's HLSL or Slang writer refused a module: inexpressible when every
/// error is about a layout HLSL cannot express.
fn hlsl_error(d: &stride::Diagnostics, source: &str) -> TargetError {
    let inexpressible = d
        .iter()
        .filter(|e| e.is_error())
        .all(|e| e.kind == DiagnosticKind::Inexpressible);
    let text = d.render("probe.wgsl", source, false);
    if inexpressible {
        TargetError::Inexpressible(text)
    } else {
        TargetError::Failed(text)
    }
}

/// stride's Slang (`--target slang`) compiled by Slang to SPIR-V 1.4 with
/// D3D buffer packing (`-fvk-use-dx-layout`), as stride lays its cbuffer
/// variants out for it; checked by spirv-val.
struct OurSlang;

impl ExecTarget for OurSlang {
    fn name(&self) -> &'static str {
        "slang"
    }

    /// Byte-address buffers are arrays of 32-bit words here too.
    fn storage_granule(&self) -> u64 {
        4
    }

    fn spirv(&self, source: &str, entry: &str) -> Result<Compiled, TargetError> {
        let options = Options {
            target: Target::Slang,
            pipeline: one_entry_point(entry),
            ..Default::default()
        };
        let text = match stride::translate(source, &options) {
            Ok(t) => match t.output {
                Output::Text(text) => text,
                _ => return Err("the Slang target wrote no single text file".into()),
            },
            Err(d) => return Err(hlsl_error(&d, source)),
        };
        let dir = std::env::temp_dir().join(format!("stride-exec-slang-{}", std::process::id()));
        std::fs::create_dir_all(&dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        let spv = dir.join("probe.spv");
        let _ = std::fs::remove_file(&spv);
        let args = [
            "-target",
            "spirv",
            // SPIR-V 1.3 crashes Slang 2026.12's optimizer on some atomics.
            "-profile",
            "spirv_1_4",
            "-fvk-use-dx-layout",
            "-fvk-use-entrypoint-name",
            "-entry",
            entry,
            "-stage",
            "compute",
            "-o",
            "probe.spv",
        ];
        if let Err(e) = common::slang::run_slangc(&text, "probe.slang", &args, Some(&dir)) {
            return Err(
                format!("Slang rejected stride's Slang:\n{e}\n--- Slang ---\n{text}").into(),
            );
        }
        let bytes =
            std::fs::read(&spv).map_err(|e| format!("cannot read {}: {e}", spv.display()))?;
        // D3D packing puts members into the tails of arrays and structs,
        // which Vulkan allows with scalar block layout.
        common::slang::spirv_val(
            &bytes,
            &["--target-env", "vulkan1.2", "--scalar-block-layout"],
        )
        .map_err(|e| format!("spirv-val rejects Slang's SPIR-V:\n{e}\n--- Slang ---\n{text}"))?;
        Ok(common::slang::spirv_words(&bytes).into())
    }
}

/// The targets run, from `STRIDE_EXEC_TARGETS` (comma-separated names,
/// default every target). A target whose compiler is missing is skipped
/// loudly, or fails when `STRIDE_REQUIRE_ORACLES=1`.
fn selected_targets() -> (Vec<&'static dyn ExecTarget>, Vec<String>) {
    let all: [&'static dyn ExecTarget; 4] = [&OurSpirv, &OurGlsl, &OurHlsl, &OurSlang];
    let wanted: Option<Vec<String>> = std::env::var("STRIDE_EXEC_TARGETS")
        .ok()
        .filter(|v| !v.trim().is_empty())
        .map(|v| v.split(',').map(|s| s.trim().to_string()).collect());
    let mut targets = Vec::new();
    let mut skipped = Vec::new();
    for t in all {
        if wanted
            .as_ref()
            .is_some_and(|w| !w.iter().any(|n| n == t.name()))
        {
            continue;
        }
        if t.name() == "glsl"
            && std::process::Command::new("glslangValidator")
                .arg("--version")
                .output()
                .is_err()
        {
            skipped.push(
                "target `glsl` SKIPPED: glslangValidator not found (install it with scripts/install-oracles.sh)"
                    .to_string(),
            );
            continue;
        }
        if t.name() == "hlsl" && !common::dxc::dxc_available() {
            skipped.push(format!(
                "target `hlsl` SKIPPED: {} not found at {} (install it with scripts/install-oracles.sh)",
                common::dxc::TOOL,
                common::dxc::dxc_path().display()
            ));
            continue;
        }
        if t.name() == "slang" && !common::slang::slang_available() {
            skipped.push(format!(
                "target `slang` SKIPPED: stride-slangc not found at {} (install it with scripts/install-oracles.sh)",
                common::slang::slangc_path().display()
            ));
            continue;
        }
        targets.push(t);
    }
    (targets, skipped)
}

/// Failed modules listed per target in the failure message.
const FAILURES_LISTED: usize = 25;

struct Case {
    name: String,
    source: String,
    /// Generated: a rejection by stride is counted, not a failure.
    generated: bool,
    style: Style,
    seed: u64,
    /// Uses f16 (`enable f16;`).
    f16: bool,
}

#[derive(Default)]
struct Report {
    /// Modules whose layout the target cannot express (error diagnostics
    /// with the target's note), with the first error line.
    inexpressible: Vec<(String, String)>,
    modules_run: usize,
    generated_run: usize,
    f16_run: usize,
    reads: usize,
    writes: usize,
    bytes: u64,
    /// Reason -> module names.
    skipped: BTreeMap<String, Vec<String>>,
    /// Generated modules stride rejected, with the first error.
    rejected: Vec<(String, String)>,
    failures: Vec<String>,
    known: Vec<String>,
    /// Modules where a value was read or written wrong (the promise broken
    /// silently), as opposed to a loud refusal (a compiler rejecting the
    /// output, the driver refusing the pipeline).
    wrong_values: usize,
    /// Run-seeded modules that failed loudly: printed with their seed and
    /// minimized module, fatal only with `STRIDE_FRESH_STRICT=1` (a wrong
    /// value read or written is always fatal).
    fresh_findings: Vec<String>,
    /// Dispatches that did not finish within the fence timeout.
    timed_out: usize,
    /// Modules whose input buffers the C program filled through the
    /// generated host structs (`exec/host.rs`), and the reads checked
    /// against the values it stored.
    host_filled: usize,
    host_reads: usize,
    /// Modules `--target c` refuses (with a fix), filled with the pattern.
    host_refused: Vec<(String, String)>,
    /// Leaves checked, by type (`f16`, `atomic<u32>`, ...).
    by_type: BTreeMap<String, usize>,
}

fn required() -> bool {
    std::env::var("STRIDE_REQUIRE_ORACLES").is_ok_and(|v| v == "1")
}

fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn corpus_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    // corpus/layout, corpus/dialect, and the layouts fuzzing found
    // (tests/regressions: f16 modules that the GLSL sweep of corpus/ would
    // need listed as not fitting gl450/es310).
    for theme in ["corpus/layout", "corpus/dialect", "tests/regressions"] {
        dir_cases(&repo_root().join(theme), theme, &mut cases);
    }
    cases
}

/// `STRIDE_EXEC_ONLY=dir`: run only the `.wgsl` modules of that folder
/// (each in both probe styles), not the corpus, the generated modules or
/// the fresh batch; for reproducing a module on a driver.
fn only_dir() -> Option<PathBuf> {
    std::env::var_os("STRIDE_EXEC_ONLY")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
}

/// The `.wgsl` modules of `dir`, sorted, each in both probe styles.
fn dir_cases(dir: &std::path::Path, label: &str, cases: &mut Vec<Case>) {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|e| e == "wgsl"))
                .collect()
        })
        .unwrap_or_default();
    paths.sort();
    for p in &paths {
        let stem = p
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let source = std::fs::read_to_string(p).unwrap_or_default();
        for style in [Style::Leaf, Style::Whole] {
            let i = cases.len() as u64;
            cases.push(Case {
                name: format!("{label}/{stem}.wgsl ({style:?})"),
                source: source.clone(),
                generated: false,
                f16: source.contains("enable f16"),
                style,
                seed: SEED ^ i << 20,
            });
        }
    }
}

/// Save a module for reproduction; returns the path.
fn save(name: &str, source: &str) -> String {
    let dir = std::env::temp_dir().join("stride-exec");
    let _ = std::fs::create_dir_all(&dir);
    let file: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '.' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let path = dir.join(format!("{file}.wgsl"));
    let _ = std::fs::write(&path, source);
    path.display().to_string()
}

/// With `STRIDE_EXEC_DUMP=dir`, write every module (with its probe) there,
/// for reading or reproducing.
fn dump(name: &str, source: &str) {
    if let Some(dir) = std::env::var_os("STRIDE_EXEC_DUMP") {
        let file: String = name
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .collect();
        let _ = std::fs::create_dir_all(&dir);
        let _ = std::fs::write(PathBuf::from(dir).join(format!("{file}.wgsl")), source);
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The device features a probe's leaves need, plus the layout features
/// stride's SPIR-V target needs for its buffers (and names in warnings).
fn needed_features(probe: &Probe, source: &str) -> vk::Features {
    let mut f = vk::Features::default();
    for leaf in probe.reads.iter().chain(&probe.writes) {
        if leaf.scalar.width != 2 {
            continue;
        }
        f.shader_float16 |= leaf.scalar.kind == ScalarKind::Float;
        match probe.buffers[leaf.buffer].space {
            Space::Uniform => f.uniform_and_storage_buffer16 = true,
            Space::Storage { .. } => f.storage_buffer16 = true,
            Space::Push => f.storage_push_constant16 = true,
        }
    }
    let options = Options {
        target: Target::Spirv,
        ..Default::default()
    };
    let Ok(a) = stride::analyze(source) else {
        return f;
    };
    if stride::translate(source, &options).is_ok() {
        for global in &a.contract.globals {
            let features = vulkan::required_features(&a.contract, global);
            for feature in features.map(|(f, _)| f).unwrap_or_default() {
                f.scalar_block_layout |= feature == vulkan::Feature::ScalarBlockLayout;
                f.uniform_buffer_standard_layout |=
                    feature == vulkan::Feature::UniformBufferStandardLayout;
            }
        }
    }
    f
}

fn count_type(report: &mut Report, leaf: &Leaf) {
    let name = leaf.scalar.wgsl_name();
    let key = if leaf.atomic {
        format!("atomic<{name}>")
    } else {
        name
    };
    *report.by_type.entry(key).or_default() += 1;
}

/// Host fills by case name and source, made once and shared by every
/// target; `None`
/// when the host half is off (no C compiler).
/// The host-struct fill of every module run so far, shared by the lanes
/// (each module's C program is compiled once); `None`: no C compiler.
type HostCache =
    Option<std::sync::Arc<std::sync::Mutex<HashMap<String, std::sync::Arc<HostResult>>>>>;
type HostResult = Result<host::HostFill, host::NotFilled>;
/// One target's report and summary, or why its lane could not run it.
type LaneResult = Result<(Report, String), String>;

enum Outcome {
    Ran,
    Skipped(String),
    Rejected(String),
    /// The target cannot express the layout (see [`TargetError`]).
    Inexpressible(String),
}

/// Run one module on one target; mismatches go to `report.failures` (or
/// `report.known`).
/// Per target: the case now running and when it started, for the
/// watchdog.
static CURRENT: std::sync::Mutex<BTreeMap<&'static str, (String, Instant)>> =
    std::sync::Mutex::new(BTreeMap::new());

/// How long one module may take (compiles, pipeline, dispatch, host
/// program) before the watchdog ends the test; each part has its own
/// smaller limit, so this only fires on a hang nothing else caught.
const CASE_LIMIT: std::time::Duration = std::time::Duration::from_secs(600);

/// A thread that ends the process, naming the module, when one module has
/// run for [`CASE_LIMIT`]: a hang fails the test with its cause instead of
/// stalling CI until its own time limit.
fn start_watchdog() {
    std::thread::spawn(|| loop {
        std::thread::sleep(std::time::Duration::from_secs(2));
        let current = CURRENT.lock().map(|c| c.clone()).unwrap_or_default();
        for (target, (case, since)) in current {
            if since.elapsed() > CASE_LIMIT {
                let what = format!("[{target}] {case}");
                let bar = "!".repeat(76);
                let _ = writeln!(
                    std::io::stderr(),
                    "\n{bar}\n!!! exec watchdog: {what} has run for over {} s; ending the test as hung\n{bar}",
                    CASE_LIMIT.as_secs()
                );
                std::process::exit(101);
            }
        }
    });
}

fn run_case(
    gpu: &vk::Gpu,
    target: &dyn ExecTarget,
    case: &Case,
    report: &mut Report,
    hosts: &mut HostCache,
) -> Outcome {
    if let Ok(mut c) = CURRENT.lock() {
        c.insert(target.name(), (case.name.clone(), Instant::now()));
    }
    let fail = |report: &mut Report, what: String, source: &str| {
        let file = save(&format!("{}-{}", target.name(), case.name), source);
        report.failures.push(format!(
            "[{}] {}: {what}\n    source: {file}",
            target.name(),
            case.name
        ));
    };
    let contract = match stride::analyze(&case.source) {
        Ok(analysis) => analysis.contract,
        Err(d) => {
            let first = d
                .iter()
                .next()
                .map(|d| d.message.clone())
                .unwrap_or_default();
            if case.generated {
                dump(&case.name, &case.source);
                return Outcome::Rejected(first);
            }
            fail(
                report,
                format!("stride::analyze rejected it: {first}"),
                &case.source,
            );
            return Outcome::Ran;
        }
    };
    let probe = match probe::build(&contract, case.style, case.seed) {
        Ok(p) => p,
        Err(e) => {
            fail(report, format!("cannot build the probe: {e}"), &case.source);
            return Outcome::Ran;
        }
    };
    let source = format!("{}{}", case.source, probe.text);
    dump(&case.name, &source);
    let missing = needed_features(&probe, &source).missing(&gpu.features);
    if !missing.is_empty() {
        return Outcome::Skipped(format!("device lacks {}", missing.join(", ")));
    }
    for b in &probe.buffers {
        match b.space {
            Space::Uniform if b.size > gpu.max_uniform_range as u64 => {
                return Outcome::Skipped("uniform buffer larger than maxUniformBufferRange".into())
            }
            Space::Push if b.size > gpu.max_push_constants as u64 => {
                return Outcome::Skipped("push constants larger than maxPushConstantsSize".into())
            }
            _ => {}
        }
    }
    let compiled = match target.spirv(&source, probe::ENTRY) {
        Ok(c) => c,
        Err(TargetError::Inexpressible(e)) => {
            let first = e.lines().next().unwrap_or_default().to_string();
            return Outcome::Inexpressible(first);
        }
        Err(TargetError::Failed(e)) => {
            fail(
                report,
                format!("the target rejected the probe module:\n{e}"),
                &source,
            );
            return Outcome::Ran;
        }
    };

    // Initial contents: the pattern, per buffer, with every leaf the probe
    // reads stored by the C program through the host structs.
    let pattern = |i: usize, from: u64, to: u64| -> Vec<u8> {
        (from..to)
            .map(|o| probe::pattern_byte(case.seed, i, o))
            .collect()
    };
    let host = hosts.as_ref().map(|cache| {
        // Keyed by the source too: the minimizer runs smaller modules
        // under the same name.
        let key = format!("{}\n{}", case.name, case.source);
        let hit = cache.lock().ok().and_then(|c| c.get(&key).cloned());
        hit.unwrap_or_else(|| {
            // Unique across the lanes: it names the scratch folder.
            static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
            let index = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let start: Vec<Vec<u8>> = probe
                .buffers
                .iter()
                .enumerate()
                .map(|(i, b)| pattern(i, 0, b.size))
                .collect();
            let made =
                std::sync::Arc::new(host::fill(index, &case.source, &probe, &start, case.seed));
            if let Ok(mut c) = cache.lock() {
                c.insert(key, made.clone());
            }
            made
        })
    });
    let filled = match host.as_deref() {
        Some(Ok(h)) => {
            report.host_filled += 1;
            Some(h)
        }
        Some(Err(host::NotFilled::Refused(why))) => {
            report.host_refused.push((case.name.clone(), why.clone()));
            None
        }
        Some(Err(host::NotFilled::Failed(why))) => {
            fail(report, format!("host structs: {why}"), &case.source);
            None
        }
        None => None,
    };
    let initial: Vec<Vec<u8>> = probe
        .buffers
        .iter()
        .enumerate()
        .map(|(i, b)| {
            let size = match b.space {
                Space::Storage { .. } => {
                    b.size.div_ceil(target.storage_granule()) * target.storage_granule()
                }
                _ => b.size,
            };
            match filled {
                Some(h) => {
                    let mut bytes = h.buffers[i].clone();
                    bytes.extend(pattern(i, b.size, size));
                    bytes
                }
                None => pattern(i, 0, size),
            }
        })
        .collect();
    let mut specs = Vec::new();
    let mut spec_of = vec![None; probe.buffers.len()];
    let mut push = None;
    for (i, b) in probe.buffers.iter().enumerate() {
        match (b.space, b.binding) {
            (Space::Push, _) => match compiled.push_as_uniform {
                None => push = Some(initial[i].as_slice()),
                Some((set, binding)) => {
                    spec_of[i] = Some(specs.len());
                    specs.push(vk::BufferSpec {
                        set,
                        binding,
                        kind: vk::BufferKind::Uniform,
                        data: initial[i].clone(),
                    });
                }
            },
            (space, Some((set, binding))) => {
                spec_of[i] = Some(specs.len());
                specs.push(vk::BufferSpec {
                    set,
                    binding,
                    kind: if space == Space::Uniform {
                        vk::BufferKind::Uniform
                    } else {
                        vk::BufferKind::Storage
                    },
                    data: initial[i].clone(),
                });
            }
            (_, None) => {}
        }
    }
    let out_index = specs.len();
    specs.push(vk::BufferSpec {
        set: probe.out_binding.0,
        binding: probe.out_binding.1,
        kind: vk::BufferKind::Storage,
        data: vec![0xee; probe.reads.len().max(1) * 4],
    });
    let job = vk::Job {
        words: &compiled.words,
        entry: probe::ENTRY,
        buffers: &specs,
        push_constants: push,
    };
    let results = match gpu.run(&job) {
        Ok(r) => r,
        Err(e) => {
            report.timed_out += usize::from(e.timed_out);
            fail(report, format!("Vulkan: {e}"), &source);
            return Outcome::Ran;
        }
    };

    // Check.
    let mut problems = Vec::new();
    let out = &results[out_index];
    let leaf_bytes = |data: &[u8], leaf: &Leaf| -> Vec<u8> {
        let o = leaf.offset as usize;
        data.get(o..o + leaf.width() as usize)
            .map(<[u8]>::to_vec)
            .unwrap_or_default()
    };
    for (k, leaf) in probe.reads.iter().enumerate() {
        let raw = leaf_bytes(&initial[leaf.buffer], leaf);
        let at_offset = match raw.len() {
            2 => {
                let h = u16::from_le_bytes([raw[0], raw[1]]);
                if leaf.scalar.kind == ScalarKind::Float {
                    probe::f16_to_f32_bits(h)
                } else {
                    h as u32
                }
            }
            4 => u32::from_le_bytes([raw[0], raw[1], raw[2], raw[3]]),
            _ => {
                problems.push(format!(
                    "read `{}`: contract offset {} is outside the buffer",
                    leaf.path, leaf.offset
                ));
                continue;
            }
        };
        let got = out
            .get(k * 4..k * 4 + 4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .unwrap_or(0);
        report.reads += 1;
        report.bytes += leaf.width();
        count_type(report, leaf);
        // With the host half, the value the C program stored through the
        // struct member; else the bytes at the contract offset.
        let expected = match filled {
            Some(h) => {
                report.host_reads += 1;
                h.values[k]
            }
            None => at_offset,
        };
        if filled.is_some() && at_offset != expected {
            problems.push(format!(
                "host: the C program stored {expected:#010x} through `{}`, but the bytes at `{}`'s contract offset {} hold {at_offset:#010x} (bytes {}): the C struct member is not at the contract offset",
                leaf.c,
                leaf.path,
                leaf.offset,
                hex(&raw)
            ));
        } else if got != expected {
            problems.push(format!(
                "read `{}` ({}, {}): contract offset {}: expected {expected:#010x} (bytes {}), got {got:#010x}",
                leaf.path,
                probe.buffers[leaf.buffer].name,
                leaf.scalar.wgsl_name(),
                leaf.offset,
                hex(&raw)
            ));
        }
    }
    // Writes: the leaves, then every other byte of written buffers.
    let mut covered: Vec<Vec<bool>> = initial.iter().map(|d| vec![false; d.len()]).collect();
    for (k, leaf) in probe.writes.iter().enumerate() {
        let Some(spec) = spec_of[leaf.buffer] else {
            continue;
        };
        let value = probe::write_value(case.seed, k, leaf);
        let expected = &value.to_le_bytes()[..leaf.width() as usize];
        let got = leaf_bytes(&results[spec], leaf);
        let o = leaf.offset as usize;
        for c in covered[leaf.buffer]
            .iter_mut()
            .skip(o)
            .take(leaf.width() as usize)
        {
            *c = true;
        }
        report.writes += 1;
        report.bytes += leaf.width();
        count_type(report, leaf);
        if got != expected {
            problems.push(format!(
                "write `{}` ({}, {}): contract offset {}: expected bytes {}, got {}",
                leaf.path,
                probe.buffers[leaf.buffer].name,
                leaf.scalar.wgsl_name(),
                leaf.offset,
                hex(expected),
                hex(&got)
            ));
        }
    }
    for (i, b) in probe.buffers.iter().enumerate() {
        let (Space::Storage { writable: true }, Some(spec)) = (b.space, spec_of[i]) else {
            continue;
        };
        let after = &results[spec];
        let mut bad = Vec::new();
        for (o, (&was, &now)) in initial[i].iter().zip(after).enumerate() {
            if covered[i][o] {
                continue;
            }
            report.bytes += 1;
            if was != now {
                bad.push(o);
            }
        }
        if let (Some(&first), Some(&last)) = (bad.first(), bad.last()) {
            problems.push(format!(
                "buffer `{}`: {} bytes outside every leaf were overwritten (offsets {first}..={last}; first: expected {:02x}, got {:02x})",
                b.name,
                bad.len(),
                initial[i][first],
                after[first]
            ));
        }
    }
    if !problems.is_empty() {
        let mut msg = format!("{} mismatches", problems.len());
        for p in problems.iter().take(DETAILS_PER_MODULE) {
            let _ = write!(msg, "\n    {p}");
        }
        if problems.len() > DETAILS_PER_MODULE {
            let _ = write!(msg, "\n    ...");
        }
        if let Some((_, why)) = KNOWN_FAILURES
            .iter()
            .find(|(n, _)| case.name.starts_with(n))
        {
            let file = save(&format!("{}-{}", target.name(), case.name), &source);
            report
                .known
                .push(format!("{}: {why}: {msg}\n    source: {file}", case.name));
        } else {
            report.wrong_values += 1;
            fail(report, msg, &source);
        }
    }
    Outcome::Ran
}

/// The targets split into lanes that run at once: as many lanes as
/// `STRIDE_EXEC_LANES` says, else 2 where the machine has two cores or
/// more; each target goes to the lane with the least work so far, the
/// slowest first (Slang's compiler takes the longest per module, then
/// glslang).
fn lanes(targets: &[&'static dyn ExecTarget]) -> Vec<Vec<&'static dyn ExecTarget>> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let wanted = std::env::var("STRIDE_EXEC_LANES")
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
        .unwrap_or(cores.min(2));
    let count = wanted.clamp(1, targets.len().max(1));
    let cost = |t: &&'static dyn ExecTarget| match t.name() {
        "slang" => 4,
        "glsl" => 2,
        _ => 1,
    };
    let mut sorted = targets.to_vec();
    sorted.sort_by_key(|t| std::cmp::Reverse(cost(t)));
    let mut lanes: Vec<(u32, Vec<&'static dyn ExecTarget>)> = vec![(0, Vec::new()); count];
    for t in sorted {
        if let Some(lane) = lanes.iter_mut().min_by_key(|(work, _)| *work) {
            lane.0 += cost(&t);
            lane.1.push(t);
        }
    }
    lanes
        .into_iter()
        .map(|(_, l)| l)
        .filter(|l| !l.is_empty())
        .collect()
}

fn run_target(gpu: &vk::Gpu, target: &dyn ExecTarget, hosts: &mut HostCache) -> Report {
    let mut report = Report::default();
    let record = |report: &mut Report, case: &Case, outcome: Outcome| match outcome {
        Outcome::Ran => {
            report.modules_run += 1;
            if case.generated {
                report.generated_run += 1;
            }
            if case.f16 {
                report.f16_run += 1;
            }
        }
        Outcome::Skipped(why) => report
            .skipped
            .entry(why)
            .or_default()
            .push(case.name.clone()),
        Outcome::Rejected(why) => report.rejected.push((case.name.clone(), why)),
        Outcome::Inexpressible(why) => report.inexpressible.push((case.name.clone(), why)),
    };
    if let Some(dir) = only_dir() {
        let mut cases = Vec::new();
        dir_cases(&dir, &dir.display().to_string(), &mut cases);
        for case in cases {
            let outcome = run_case(gpu, target, &case, &mut report, hosts);
            record(&mut report, &case, outcome);
        }
        if let Ok(mut c) = CURRENT.lock() {
            c.remove(target.name());
        }
        return report;
    }
    for case in corpus_cases() {
        let outcome = run_case(gpu, target, &case, &mut report, hosts);
        record(&mut report, &case, outcome);
    }
    let mut index = 0;
    while report.generated_run < GENERATED_TARGET && index < GENERATED_MAX {
        let g = gen::module(SEED, index);
        let case = Case {
            name: format!("generated #{index} (seed {SEED:#x})"),
            source: g.source,
            generated: true,
            f16: g.f16,
            style: if index % 2 == 0 {
                Style::Leaf
            } else {
                Style::Whole
            },
            seed: SEED ^ index.wrapping_mul(0x1000_0001),
        };
        let outcome = run_case(gpu, target, &case, &mut report, hosts);
        record(&mut report, &case, outcome);
        index += 1;
    }
    run_fresh(gpu, target, hosts, &mut report, record);
    // Done: the watchdog must not time this target's last case while
    // another target (in this lane or the other) goes on.
    if let Ok(mut c) = CURRENT.lock() {
        c.remove(target.name());
    }
    report
}

/// The run-seeded batch (`exec/fresh.rs`): a failing module is reported
/// with the seed and minimized.
fn run_fresh(
    gpu: &vk::Gpu,
    target: &dyn ExecTarget,
    hosts: &mut HostCache,
    report: &mut Report,
    record: impl Fn(&mut Report, &Case, Outcome),
) {
    let (seed, from) = fresh::seed();
    let _ = writeln!(
        std::io::stderr(),
        "exec [{}]: {} fresh modules with seed {seed} (from {from}; STRIDE_FUZZ_SEED={seed} repeats them)",
        target.name(),
        fresh::COUNT
    );
    let case = |source: String, f16: bool, index: u64| Case {
        name: format!("fresh #{index} (STRIDE_FUZZ_SEED={seed})"),
        source,
        generated: true,
        f16,
        style: if index.is_multiple_of(2) {
            Style::Leaf
        } else {
            Style::Whole
        },
        seed: seed ^ index.wrapping_mul(0x1000_0001),
    };
    for index in 0..fresh::COUNT {
        let g = gen::module(seed, index);
        let this = case(g.source, g.f16, index);
        let failures = report.failures.len();
        let wrong = report.wrong_values;
        let timed_out = report.timed_out;
        let outcome = run_case(gpu, target, &this, report, hosts);
        if report.failures.len() > failures && report.timed_out > timed_out {
            // A dispatch that timed out: every minimizing try would take as
            // long (and wait for the driver's compiler before the next), so
            // the module is reported as it is, a finding like any other
            // loud failure (fatal with STRIDE_FRESH_STRICT=1).
            let found: Vec<String> = report.failures.drain(failures..).collect();
            let note = format!(
                "[{}] {}: the dispatch did not finish within {} s (not minimized; the module is saved above)",
                target.name(),
                this.name,
                vk::FENCE_TIMEOUT_SECS
            );
            if fresh_strict() {
                report.failures.extend(found);
                report.failures.push(note);
            } else {
                report.fresh_findings.extend(found);
                report.fresh_findings.push(note);
            }
        } else if report.failures.len() > failures {
            // A loud failure only: minimized against the same kind.
            let rejected_only = report.wrong_values == wrong;
            let minimized = fresh::minimize(&this.source, |source| {
                let mut scratch = Report::default();
                let smaller = case(source.to_string(), g.f16, index);
                run_case(gpu, target, &smaller, &mut scratch, hosts);
                !scratch.failures.is_empty() && (rejected_only || scratch.wrong_values > 0)
            });
            let minimized = format!(
                "[{}] {}: minimized module:\n{minimized}",
                target.name(),
                this.name
            );
            if rejected_only && !fresh_strict() {
                let found: Vec<String> = report.failures.drain(failures..).collect();
                report.fresh_findings.extend(found);
                report.fresh_findings.push(minimized);
            } else {
                report.failures.push(minimized);
            }
        }
        record(report, &this, outcome);
    }
}

/// `STRIDE_FRESH_STRICT=1`: a run-seeded module that fails loudly (a
/// compiler rejection, a pipeline the driver refuses) fails the test too.
fn fresh_strict() -> bool {
    std::env::var("STRIDE_FRESH_STRICT").is_ok_and(|v| v == "1")
}

fn summary(target: &str, gpu: &vk::Gpu, r: &Report, secs: f64) -> String {
    let mut s = format!(
        "exec [{target}] on {}: {} modules run ({} generated), {} fields checked ({} reads, {} writes), {} bytes checked, {:.1} s",
        gpu.description,
        r.modules_run,
        r.generated_run,
        r.reads + r.writes,
        r.reads,
        r.writes,
        r.bytes,
        secs
    );
    let types: Vec<String> = r.by_type.iter().map(|(t, n)| format!("{t}: {n}")).collect();
    let _ = write!(
        s,
        "\n  modules using f16: {}; fields by type: {}",
        r.f16_run,
        types.join(", ")
    );
    if r.host_filled + r.host_refused.len() > 0 {
        let _ = write!(
            s,
            "\n  host structs: {} modules had their input buffers filled by a C program through the `--target c` structs; {} reads checked against the value it stored; {} modules refused by --target c (filled with the pattern){}",
            r.host_filled,
            r.host_reads,
            r.host_refused.len(),
            r.host_refused
                .iter()
                .map(|(n, why)| format!("\n    {n}: {why}"))
                .collect::<String>()
        );
    }
    let _ = write!(
        s,
        "\n  generated modules rejected by stride's layout rules (not run): {}",
        r.rejected.len()
    );
    let mut reasons: BTreeMap<String, Vec<&str>> = BTreeMap::new();
    for (name, why) in &r.rejected {
        let key: String = why.chars().take(120).collect();
        reasons.entry(key).or_default().push(name);
    }
    for (why, names) in reasons.iter().take(8) {
        let _ = write!(s, "\n    {} x {why} (e.g. {})", names.len(), names[0]);
    }
    let _ = write!(
        s,
        "\n  modules whose layout this target cannot express (error with a fix, not run): {}",
        r.inexpressible.len()
    );
    for (name, why) in &r.inexpressible {
        let _ = write!(s, "\n    {name}: {why}");
    }
    if r.skipped.is_empty() {
        let _ = write!(s, "\n  skipped: none");
    }
    for (why, names) in &r.skipped {
        let _ = write!(s, "\n  skipped {} modules: {why}", names.len());
    }
    if !r.fresh_findings.is_empty() {
        let bar = "!".repeat(76);
        let _ = write!(
            s,
            "\n{bar}\n!!! FRESH-BATCH FINDINGS (a run-seeded module failed loudly: a target compiler rejected stride's output or the driver refused the pipeline; reported, not fatal without STRIDE_FRESH_STRICT=1; every value read and written in the modules that ran was checked, and a wrong one is fatal):"
        );
        for f in &r.fresh_findings {
            let _ = write!(s, "\n{f}");
        }
        let _ = write!(s, "\n{bar}");
    }
    for k in &r.known {
        let _ = write!(s, "\n  KNOWN FAILURE (listed in KNOWN_FAILURES): {k}");
    }
    s
}

#[test]
fn exec_layouts_on_vulkan() {
    let start = Instant::now();
    start_watchdog();
    let gpu = match vk::Gpu::new() {
        Ok(gpu) => gpu,
        Err(why) => {
            let msg = format!(
                "no Vulkan device ({why}): execution test SKIPPED (install lavapipe with scripts/install-oracles.sh)"
            );
            if required() {
                panic!("{msg}; STRIDE_REQUIRE_ORACLES=1 makes this a failure");
            }
            let bar = "!".repeat(76);
            // Past the test harness's output capture: a skip must be seen.
            let _ = writeln!(std::io::stderr(), "\n{bar}\n!!! {msg}\n{bar}\n");
            return;
        }
    };
    let (targets, skipped_targets) = selected_targets();
    let mut failures = Vec::new();
    // The host half needs a C compiler.
    let hosts: HostCache = if common::tool_available("cc", &["--version"]) {
        Some(Default::default())
    } else {
        let msg = "no C compiler (`cc`): the host-struct half of the execution test is SKIPPED (scripts/install-oracles.sh installs gcc)";
        if required() {
            failures.push(format!(
                "{msg}; STRIDE_REQUIRE_ORACLES=1 makes this a failure"
            ));
        }
        let bar = "!".repeat(76);
        let _ = writeln!(std::io::stderr(), "\n{bar}\n!!! {msg}\n{bar}\n");
        None
    };
    for msg in &skipped_targets {
        if required() {
            failures.push(format!(
                "{msg}; STRIDE_REQUIRE_ORACLES=1 makes this a failure"
            ));
        }
        let bar = "!".repeat(76);
        let _ = writeln!(std::io::stderr(), "\n{bar}\n!!! {msg}\n{bar}\n");
    }
    drop(gpu);
    let lanes = lanes(&targets);
    let _ = writeln!(
        std::io::stderr(),
        "exec: {} lane(s): {}",
        lanes.len(),
        lanes
            .iter()
            .map(|l| l.iter().map(|t| t.name()).collect::<Vec<_>>().join("+"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    // Each lane runs its targets one after another on a device of its own;
    // the lanes run at once (a module's compilers and the driver's
    // pipeline compiler are single-threaded, so one lane leaves a core
    // idle).
    let mut results: Vec<(&'static str, LaneResult)> = std::thread::scope(|s| {
        let handles: Vec<_> = lanes
            .into_iter()
            .map(|lane| {
                let mut hosts = hosts.clone();
                s.spawn(move || {
                    let gpu = match vk::Gpu::new() {
                        Ok(gpu) => gpu,
                        Err(why) => {
                            return lane
                                .iter()
                                .map(|t| (t.name(), Err(format!("no Vulkan device: {why}"))))
                                .collect::<Vec<_>>();
                        }
                    };
                    lane.iter()
                        .map(|&target| {
                            let t0 = Instant::now();
                            let report = run_target(&gpu, target, &mut hosts);
                            let mut text =
                                summary(target.name(), &gpu, &report, t0.elapsed().as_secs_f64());
                            if let Some(note) = target.note() {
                                text.push_str("\n  ");
                                text.push_str(&note);
                            }
                            // Straight to stderr, past the test harness's
                            // capture, so that every run (CI included)
                            // shows what was checked.
                            let _ = writeln!(std::io::stderr(), "{text}");
                            (target.name(), Ok((report, text)))
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    let order = |name: &str| targets.iter().position(|t| t.name() == name);
    results.sort_by_key(|(name, _)| order(name));
    for (name, result) in results {
        let (report, text) = match result {
            Ok(r) => r,
            Err(why) => {
                failures.push(format!("[{name}] {why}"));
                continue;
            }
        };
        if report.generated_run < GENERATED_TARGET && only_dir().is_none() {
            failures.push(format!(
                "[{name}] only {} generated modules ran (want {GENERATED_TARGET})",
                report.generated_run
            ));
        }
        if !report.failures.is_empty() {
            let listed: Vec<&str> = report
                .failures
                .iter()
                .take(FAILURES_LISTED)
                .map(String::as_str)
                .collect();
            let more = report.failures.len().saturating_sub(FAILURES_LISTED);
            failures.push(format!(
                "{text}\n{} modules FAILED:\n{}{}",
                report.failures.len(),
                listed.join("\n"),
                if more > 0 {
                    format!("\n... and {more} more")
                } else {
                    String::new()
                }
            ));
        }
    }
    println!(
        "exec: total wall time {:.1} s",
        start.elapsed().as_secs_f64()
    );
    if failures.is_empty() {
        host::clean_up();
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn tool_runs_past_their_limit_are_killed() {
    let start = Instant::now();
    let result = common::output_within(
        std::process::Command::new("sleep").arg("30"),
        std::time::Duration::from_millis(300),
    );
    let err = result.expect_err("a 30 s sleep must not finish within 0.3 s");
    assert_eq!(err.kind(), std::io::ErrorKind::TimedOut, "{err}");
    assert!(start.elapsed().as_secs() < 10, "the run was not killed");
    let ok = common::output_within(
        std::process::Command::new("echo").arg("hi"),
        std::time::Duration::from_secs(30),
    )
    .expect("echo runs");
    assert_eq!(ok.stdout, b"hi\n");
}

/// A pipeline of the one entry point `entry`, with no override values.
fn one_entry_point(entry: &str) -> stride::back::Pipeline {
    stride::back::Pipeline {
        entry_point: Some(entry.to_string()),
        overrides: Vec::new(),
    }
}
