//! Real-world coverage of every target.
//!
//! ```text
//! cargo run --release --example realworld -- [--target spirv|hlsl|slang|glsl] [--glsl DIALECT] DIR
//! ```
//!
//! For every `.wgsl` file under DIR (sorted by path), this measures whether
//! naga reads it, whether naga's own writer for the target translates it,
//! whether stride translates it, and whether the real compiler accepts each
//! output:
//!
//! - HLSL: DXC (`stride-dxc`, see scripts/install-dxc.sh) compiles every
//!   entry point for its stage, at shader model 6.0 (6.2 with
//!   `-enable-16bit-types` when the module uses f16, 6.2 when it uses
//!   64-bit types), once as DXC's default HLSL version and once with
//!   `-HV 2021`; an entry point counts as accepted when both compile.
//! - GLSL: glslang compiles every file: stride's `vulkan450` output (the
//!   default; `--glsl` picks another dialect) with
//!   `-V --target-env vulkan1.1`, naga's desktop GLSL 4.50 with glslang's
//!   plain front end (naga leaves bindings to the application, which `-G`
//!   and `-V` require).
//! - SPIR-V: `spirv-val --target-env vulkan1.1`, with no flag for an
//!   optional device feature, validates the whole module, stride's and
//!   naga's writer's alike (both SPIR-V 1.3).
//! - Slang: naga has no Slang writer, so the aim set is every file naga
//!   reads. `stride-slangc` (scripts/install-slang.sh) compiles every entry
//!   point to SPIR-V (`-target spirv -profile spirv_1_4
//!   -fvk-use-dx-layout`, the arguments of tests/slang.rs), and checks a
//!   file without entry points with no arguments (parse and type-check).
//!
//! The aim set is the files naga's writer translates: every one of them
//! should be translated by stride and accepted by the compiler. The report
//! is one line per file, then a summary and the aim-set files stride does
//! not handle. It is a measurement: the exit status is 0 whatever it finds,
//! 2 for a usage or IO error or a missing compiler.
//!
//! scripts/realworld.sh downloads the corpus (the WGSL shipped in a pinned
//! list of crates from crates.io) and runs this on it.

use naga::valid::{Capabilities, ValidationFlags, Validator};
use std::error::Error;
use std::fmt::Write as _;
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use stride::back::glsl::Dialect;
use stride::back::hlsl::{HlslOptions, ShaderModel};

/// The unit name of an HLSL file compiled as a library.
const LIBRARY: &str = "(library)";

const USAGE: &str = "usage: realworld [--target spirv|hlsl|slang|glsl] [--glsl DIALECT] DIR";

/// The unit name of a SPIR-V module, which spirv-val checks whole.
const MODULE: &str = "(module)";

#[derive(Clone, Copy, PartialEq, Eq)]
enum Target {
    Spirv,
    Hlsl,
    Slang,
    Glsl(Dialect),
}

impl Target {
    fn name(self) -> &'static str {
        match self {
            Target::Spirv => "spirv",
            Target::Hlsl => "hlsl",
            Target::Slang => "slang",
            Target::Glsl(_) => "glsl",
        }
    }

    fn compiler(self) -> &'static str {
        match self {
            Target::Spirv => "spirv-val",
            Target::Hlsl => "DXC",
            Target::Slang => "Slang",
            Target::Glsl(_) => "glslang",
        }
    }
}

struct Config {
    target: Target,
    dxc: PathBuf,
    slangc: PathBuf,
    /// Per worker: a scratch folder for the files the compilers read.
    scratch: PathBuf,
}

/// One thing a compiler is asked to accept: an HLSL entry point, or a GLSL
/// file (one entry point).
struct Unit {
    /// The entry point (WGSL name).
    entry: String,
    text: String,
    /// HLSL: profile and function; GLSL: the stage's file extension and
    /// the glslang arguments.
    how: How,
}

enum How {
    Hlsl {
        profile: String,
        function: String,
        f16: bool,
    },
    Glsl {
        extension: &'static str,
        args: &'static [&'static str],
    },
    /// The module's bytes, for spirv-val (`text` is empty).
    Spirv(Vec<u8>),
    Slang {
        function: String,
        stage: &'static str,
    },
}

/// How one producer (naga's writer or stride) did on one file.
enum Outcome {
    /// naga has no writer for the target (Slang).
    NoWriter,
    /// The producer refused the input (naga: its writer's error or panic;
    /// stride: error diagnostics).
    Fails(String),
    /// stride only: an internal error (a panic caught by stride).
    Internal(String),
    /// Translated; the compiler's verdict per unit.
    Translated(Vec<(String, Result<(), String>)>),
}

impl Outcome {
    fn accepted(&self) -> Option<(usize, usize)> {
        match self {
            Outcome::Translated(units) => {
                Some((units.iter().filter(|(_, r)| r.is_ok()).count(), units.len()))
            }
            _ => None,
        }
    }

    /// Translated and every unit accepted.
    fn all_accepted(&self) -> bool {
        self.accepted().is_some_and(|(a, n)| a == n)
    }

    /// The first reason this outcome is not a full success.
    fn first_problem(&self) -> Option<String> {
        match self {
            Outcome::NoWriter => Some("no writer".into()),
            Outcome::Fails(m) => Some(m.clone()),
            Outcome::Internal(m) => Some(m.clone()),
            Outcome::Translated(units) => units
                .iter()
                .find_map(|(entry, r)| r.as_ref().err().map(|e| format!("`{entry}`: {e}"))),
        }
    }
}

struct Report {
    name: String,
    /// How many entry points the module declares (naga's count; 0 when
    /// naga cannot read it).
    entry_points: usize,
    /// `Err`: naga cannot parse or validate the file.
    naga: Result<Outcome, String>,
    stride: Outcome,
}

impl Report {
    fn category(&self) -> &'static str {
        match &self.naga {
            Err(_) => "naga-invalid",
            Ok(Outcome::Translated(_) | Outcome::NoWriter) => match &self.stride {
                Outcome::Fails(_) => "stride-rejects",
                Outcome::Internal(_) => "stride-internal",
                Outcome::Translated(_) if self.stride.all_accepted() => "ok",
                Outcome::Translated(_) => "compiler-rejects",
                Outcome::NoWriter => "stride-internal",
            },
            Ok(_) => "naga-writer-fails",
        }
    }

    fn line(&self, target: Target) -> String {
        let stride = match &self.stride {
            Outcome::Translated(_) => {
                let (a, n) = self.stride.accepted().unwrap_or_default();
                match self.stride.first_problem() {
                    None => format!("stride: {a}/{n} accepted by {}", target.compiler()),
                    Some(p) => format!("stride: {a}/{n} accepted by {}; {p}", target.compiler()),
                }
            }
            Outcome::Fails(m) => format!("stride rejects: {m}"),
            Outcome::Internal(m) => format!("stride internal error: {m}"),
            Outcome::NoWriter => "stride: no writer".into(),
        };
        let naga = match &self.naga {
            Err(e) => format!("naga: {e}"),
            Ok(Outcome::Translated(units)) => {
                let a = units.iter().filter(|(_, r)| r.is_ok()).count();
                format!("naga: {a}/{} accepted", units.len())
            }
            Ok(Outcome::NoWriter) => "naga: no writer".into(),
            Ok(o) => format!("naga's writer: {}", o.first_problem().unwrap_or_default()),
        };
        format!("{:<18} {}  [{stride}] [{naga}]", self.category(), self.name)
    }
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("realworld: {e}");
            ExitCode::from(2)
        }
    }
}

fn run() -> Result<(), String> {
    let mut target = Target::Hlsl;
    let mut dialect = Dialect::Vulkan450;
    let mut dir = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--target" | "-t" => match args.next().as_deref() {
                Some("spirv") => target = Target::Spirv,
                Some("hlsl") => target = Target::Hlsl,
                Some("slang") => target = Target::Slang,
                Some("glsl") => target = Target::Glsl(dialect),
                _ => return Err(USAGE.into()),
            },
            "--glsl" => {
                let name = args.next().ok_or(USAGE)?;
                dialect = Dialect::from_name(&name)
                    .ok_or_else(|| format!("unknown GLSL dialect `{name}`"))?;
            }
            "-h" | "--help" => {
                println!("{USAGE}");
                return Ok(());
            }
            _ if dir.is_none() && !arg.starts_with('-') => dir = Some(PathBuf::from(arg)),
            _ => return Err(USAGE.into()),
        }
    }
    if let Target::Glsl(_) = target {
        target = Target::Glsl(dialect);
    }
    let dir = dir.ok_or(USAGE)?;
    let mut files = Vec::new();
    collect_wgsl(&dir, &mut files).map_err(|e| format!("{}: {e}", dir.display()))?;
    files.sort();
    if files.is_empty() {
        return Err(format!("no .wgsl files under {}", dir.display()));
    }

    let dxc = dxc_path();
    let slangc = tool_path("STRIDE_SLANGC", "slang", "stride-slangc");
    let (tool, version_arg) = match target {
        Target::Spirv => (PathBuf::from("spirv-val"), "--version"),
        Target::Hlsl => (dxc.clone(), "--version"),
        Target::Slang => (slangc.clone(), "--version"),
        Target::Glsl(_) => (PathBuf::from("glslangValidator"), "--version"),
    };
    let works = Command::new(&tool)
        .arg(version_arg)
        .output()
        .is_ok_and(|o| o.status.success());
    if !works {
        return Err(format!(
            "{} not found or not working (HLSL: scripts/install-dxc.sh or STRIDE_DXC; \
             Slang: scripts/install-slang.sh or STRIDE_SLANGC; \
             GLSL and SPIR-V: glslangValidator and spirv-val on PATH)",
            tool.display()
        ));
    }

    // naga's writers may panic: those panics are results here, not noise.
    panic::set_hook(Box::new(|_| {}));
    let scratch = std::env::temp_dir().join(format!("stride-realworld-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).map_err(|e| format!("{}: {e}", scratch.display()))?;

    let workers = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(files.len());
    let next = AtomicUsize::new(0);
    let (send, receive) = mpsc::channel::<(usize, Result<Report, String>)>();
    let mut reports: Vec<Option<Report>> = (0..files.len()).map(|_| None).collect();
    let mut failure = None;
    std::thread::scope(|s| {
        for w in 0..workers {
            let send = send.clone();
            let (files, next, dir, dxc, slangc) = (&files, &next, &dir, &dxc, &slangc);
            let config = Config {
                target,
                dxc: dxc.clone(),
                slangc: slangc.clone(),
                scratch: scratch.join(format!("w{w}")),
            };
            s.spawn(move || {
                if let Err(e) = std::fs::create_dir_all(&config.scratch) {
                    let _ = send.send((0, Err(format!("{}: {e}", config.scratch.display()))));
                    return;
                }
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(path) = files.get(i) else { break };
                    let name = path.strip_prefix(dir).unwrap_or(path).display().to_string();
                    let report = std::fs::read_to_string(path)
                        .map_err(|e| format!("{}: {e}", path.display()))
                        .and_then(|source| {
                            panic::catch_unwind(AssertUnwindSafe(|| {
                                measure(&config, name.clone(), &source)
                            }))
                            .map_err(|p| format!("{name}: the tool panicked: {}", message(&*p)))
                        });
                    if send.send((i, report)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(send);
        // Lines in file order, as soon as each is known.
        let mut printed = 0;
        for (i, report) in receive {
            match report {
                Ok(r) => reports[i] = Some(r),
                Err(e) => {
                    failure.get_or_insert(e);
                    // Stop the workers: no further file is taken.
                    next.store(files.len(), Ordering::Relaxed);
                }
            }
            while let Some(Some(r)) = reports.get(printed) {
                println!("{}", r.line(target));
                printed += 1;
            }
        }
    });
    let _ = std::fs::remove_dir_all(&scratch);
    if let Some(e) = failure {
        return Err(e);
    }
    let reports: Vec<Report> = reports.into_iter().flatten().collect();
    print!("{}", summary(target, &dxc, &reports));
    Ok(())
}

fn collect_wgsl(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            collect_wgsl(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "wgsl") {
            out.push(path);
        }
    }
    Ok(())
}

/// Where `stride-dxc` is, as the tests look for it: `$STRIDE_DXC`, else
/// `$STRIDE_TOOLS/dxc/stride-dxc`, else `~/.cache/stride-tools/dxc/stride-dxc`.
fn dxc_path() -> PathBuf {
    tool_path("STRIDE_DXC", "dxc", "stride-dxc")
}

/// An installed oracle wrapper: `$VARIABLE`, else
/// `$STRIDE_TOOLS/<folder>/<name>`, else `~/.cache/stride-tools/<folder>/<name>`.
fn tool_path(variable: &str, folder: &str, name: &str) -> PathBuf {
    let env = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
    if let Some(p) = env(variable) {
        return PathBuf::from(p);
    }
    let tools = env("STRIDE_TOOLS").map(PathBuf::from).unwrap_or_else(|| {
        let home = env("HOME").unwrap_or_else(|| "/root".into());
        Path::new(&home).join(".cache").join("stride-tools")
    });
    tools.join(folder).join(name)
}

fn message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".into())
}

/// An error and its sources on one line.
fn chain(e: &dyn Error) -> String {
    let mut s = e.to_string();
    let mut source = e.source();
    while let Some(inner) = source {
        let text = inner.to_string();
        if !s.contains(&text) {
            let _ = write!(s, ": {text}");
        }
        source = inner.source();
    }
    one_line(&s)
}

fn one_line(s: &str) -> String {
    let line = s
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("");
    let mut line = line.replace('\t', " ");
    if line.len() > 200 {
        let mut cut = 200;
        while !line.is_char_boundary(cut) {
            cut -= 1;
        }
        line.truncate(cut);
        line.push_str("...");
    }
    line
}

/// What the module's types need: (f16, any 16- or 64-bit type).
fn wide_types(module: &naga::Module) -> (bool, bool) {
    let mut f16 = false;
    let mut sm62 = false;
    for (_, ty) in module.types.iter() {
        let scalar = match ty.inner {
            naga::TypeInner::Scalar(s) | naga::TypeInner::Atomic(s) => s,
            naga::TypeInner::Vector { scalar, .. } | naga::TypeInner::Matrix { scalar, .. } => {
                scalar
            }
            _ => continue,
        };
        if scalar.width == 2 && scalar.kind == naga::ScalarKind::Float {
            f16 = true;
        }
        if scalar.width == 2 || scalar.width == 8 {
            sm62 = true;
        }
    }
    (f16, sm62)
}

fn measure(config: &Config, name: String, source: &str) -> Report {
    let parsed = naga::front::wgsl::parse_str(source)
        .map_err(|e| one_line(e.message()))
        .and_then(|module| {
            Validator::new(ValidationFlags::all(), Capabilities::all())
                .validate(&module)
                .map(|info| (module, info))
                .map_err(|e| chain(&e))
        });
    // Shader model 6.2 for f16 and 64-bit types: from naga's module, else
    // (naga cannot read the file) from the text.
    let (f16, sm62) = match &parsed {
        Ok((module, _)) => wide_types(module),
        Err(_) => {
            let f16 = source.contains("enable f16");
            (
                f16,
                f16 || ["f64", "i64", "u64"].iter().any(|t| source.contains(t)),
            )
        }
    };
    let entry_points = parsed.as_ref().map_or(0, |(m, _)| m.entry_points.len());
    let naga = parsed.map(|(module, info)| {
        // What wgpu does before it calls a writer: overrides take their
        // defaults (naga's writers refuse a module that still has them).
        let units = panic::catch_unwind(AssertUnwindSafe(|| {
            naga::back::pipeline_constants::process_overrides(
                &module,
                &info,
                None,
                &naga::back::PipelineConstants::default(),
            )
            .map_err(|e| chain(&e))
        }))
        .map_err(|p| format!("panic: {}", one_line(&message(&*p))))
        .and_then(|r| r)
        .and_then(|(module, info)| match config.target {
            Target::Spirv => naga_spirv(&module, &info).map(Some),
            Target::Hlsl => naga_hlsl(&module, &info, sm62, f16).map(Some),
            Target::Slang => Ok(None),
            Target::Glsl(_) => naga_glsl(&module, &info).map(Some),
        });
        match units {
            Ok(Some(units)) => compile_all(config, units),
            Ok(None) => Outcome::NoWriter,
            Err(e) => Outcome::Fails(e),
        }
    });
    let stride = match config.target {
        Target::Spirv => stride_spirv(source),
        Target::Hlsl => stride_hlsl(source, sm62, f16, false),
        Target::Slang => stride_hlsl(source, sm62, f16, true),
        Target::Glsl(dialect) => stride_glsl(source, dialect),
    };
    let stride = match stride {
        Ok(units) => compile_all(config, units),
        Err(o) => o,
    };
    Report {
        name,
        entry_points,
        naga,
        stride,
    }
}

fn compile_all(config: &Config, units: Vec<Unit>) -> Outcome {
    Outcome::Translated(
        units
            .into_iter()
            .map(|u| {
                let verdict = compile(config, &u);
                (u.entry, verdict)
            })
            .collect(),
    )
}

fn naga_hlsl(
    module: &naga::Module,
    info: &naga::valid::ModuleInfo,
    sm62: bool,
    f16: bool,
) -> Result<Vec<Unit>, String> {
    use naga::back::hlsl;
    let options = hlsl::Options {
        shader_model: if sm62 {
            hlsl::ShaderModel::V6_2
        } else {
            hlsl::ShaderModel::V6_0
        },
        // Immediates (push constants) need a register, which wgpu always
        // gives: register 0 of the space after the highest group.
        immediates_target: Some(hlsl::BindTarget {
            space: module
                .global_variables
                .iter()
                .filter_map(|(_, g)| g.binding.as_ref())
                .map(|b| b.group + 1)
                .max()
                .unwrap_or(0)
                .min(u8::MAX.into()) as u8,
            ..Default::default()
        }),
        ..Default::default()
    };
    let model = if sm62 {
        ShaderModel::Sm6_2
    } else {
        ShaderModel::Sm6_0
    };
    let mut text = String::new();
    let written = panic::catch_unwind(AssertUnwindSafe(|| {
        let pipeline = hlsl::PipelineOptions { entry_point: None };
        hlsl::Writer::new(&mut text, &options, &pipeline).write(module, info, None)
    }));
    let reflection = match written {
        Ok(Ok(r)) => r,
        Ok(Err(e)) => return Err(chain(&e)),
        Err(p) => return Err(format!("panic: {}", one_line(&message(&*p)))),
    };
    if module.entry_points.is_empty() {
        return Ok(vec![library_unit(text, f16)]);
    }
    let mut units = Vec::new();
    for (ep, name) in module.entry_points.iter().zip(reflection.entry_point_names) {
        let function = name.map_err(|e| format!("entry point `{}`: {}", ep.name, chain(&e)))?;
        units.push(Unit {
            entry: ep.name.clone(),
            text: text.clone(),
            how: How::Hlsl {
                profile: model.profile(ep.stage),
                function,
                f16,
            },
        });
    }
    Ok(units)
}

/// SPIR-V version of both producers: stride's default, 1.3.
const SPIRV_VERSION: (u8, u8) = (1, 3);

fn naga_spirv(module: &naga::Module, info: &naga::valid::ModuleInfo) -> Result<Vec<Unit>, String> {
    use naga::back::spv;
    let options = spv::Options {
        lang_version: SPIRV_VERSION,
        ..Default::default()
    };
    let written = panic::catch_unwind(AssertUnwindSafe(|| {
        spv::write_vec(module, info, &options, None)
    }));
    match written {
        Ok(Ok(words)) => Ok(vec![spirv_unit(&words)]),
        Ok(Err(e)) => Err(chain(&e)),
        Err(p) => Err(format!("panic: {}", one_line(&message(&*p)))),
    }
}

fn spirv_unit(words: &[u32]) -> Unit {
    Unit {
        entry: MODULE.into(),
        text: String::new(),
        how: How::Spirv(words.iter().flat_map(|w| w.to_le_bytes()).collect()),
    }
}

fn stride_spirv(source: &str) -> Result<Vec<Unit>, Outcome> {
    let options = stride::Options {
        target: stride::Target::Spirv,
        spirv: stride::back::spirv::SpirvOptions {
            version: SPIRV_VERSION,
            ..Default::default()
        },
        ..Default::default()
    };
    let written = panic::catch_unwind(AssertUnwindSafe(|| stride::translate(source, &options)));
    match written {
        Ok(Ok(t)) => match t.output {
            stride::Output::Binary(words) => Ok(vec![spirv_unit(&words)]),
            _ => Err(Outcome::Internal("the SPIR-V target gave no words".into())),
        },
        Ok(Err(diagnostics)) => Err(stride_failure(&diagnostics)),
        Err(p) => Err(Outcome::Internal(format!("panic: {}", message(&*p)))),
    }
}

fn naga_glsl(module: &naga::Module, info: &naga::valid::ModuleInfo) -> Result<Vec<Unit>, String> {
    use naga::back::glsl;
    // naga's GLSL writer writes one entry point per call: a module without
    // one gives it nothing to write (its HLSL writer, by contrast, writes
    // every function of such a module).
    if module.entry_points.is_empty() {
        return Err("no entry point: naga's GLSL writer writes one entry point per call".into());
    }
    let options = glsl::Options {
        version: glsl::Version::Desktop(450),
        writer_flags: glsl::WriterFlags::empty(),
        binding_map: Default::default(),
        zero_initialize_workgroup_memory: true,
    };
    let policy = naga::proc::BoundsCheckPolicy::Restrict;
    let policies = naga::proc::BoundsCheckPolicies {
        index: policy,
        buffer: policy,
        image_load: policy,
        binding_array: policy,
    };
    let mut units = Vec::new();
    for ep in &module.entry_points {
        let pipeline = glsl::PipelineOptions {
            shader_stage: ep.stage,
            entry_point: ep.name.clone(),
            multiview: None,
        };
        let mut text = String::new();
        let written = panic::catch_unwind(AssertUnwindSafe(|| {
            glsl::Writer::new(&mut text, module, info, &options, &pipeline, policies)
                .and_then(|mut w| w.write())
        }));
        match written {
            Ok(Ok(_)) => {}
            Ok(Err(e)) => return Err(format!("entry point `{}`: {}", ep.name, chain(&e))),
            Err(p) => {
                return Err(format!(
                    "entry point `{}`: panic: {}",
                    ep.name,
                    one_line(&message(&*p))
                ))
            }
        }
        units.push(Unit {
            entry: ep.name.clone(),
            text,
            how: How::Glsl {
                extension: stride::back::glsl::stage_extension(ep.stage),
                // OpenGL SPIR-V (`-G`) wants explicit bindings, which naga's
                // desktop GLSL leaves to the application (wgpu's GL backend
                // assigns them at run time): glslang's own front end.
                args: &[],
            },
        });
    }
    Ok(units)
}

/// stride's verdict as the outcome to report when it does not translate.
fn stride_failure(diagnostics: &stride::Diagnostics) -> Outcome {
    let first = diagnostics
        .iter()
        .find(|d| d.is_error())
        .map(|d| one_line(&d.message))
        .unwrap_or_else(|| "rejected without an error message".into());
    if first.starts_with("internal error") {
        Outcome::Internal(first)
    } else {
        Outcome::Fails(first)
    }
}

/// HLSL, or with `slang` the Slang form of the same writer.
fn stride_hlsl(source: &str, sm62: bool, f16: bool, slang: bool) -> Result<Vec<Unit>, Outcome> {
    let options = HlslOptions {
        shader_model: Some(if sm62 {
            ShaderModel::Sm6_2
        } else {
            ShaderModel::Sm6_0
        }),
        slang,
        ..Default::default()
    };
    // `stride::translate` gives the HLSL text only; the entry points' HLSL
    // function names (DXC's `-E`) come with the backend's own output, so
    // this runs what `translate` runs for `Target::Hlsl` (analysis, then
    // the backend) and keeps the whole output.
    let written = panic::catch_unwind(AssertUnwindSafe(|| {
        let stride::Analysis {
            parsed,
            info,
            contract,
            ..
        } = stride::analyze(source)?;
        stride::back::write_text(&parsed, &info, &contract, &Default::default(), &options)
    }));
    let out = match written {
        Ok(Ok(out)) => out,
        Ok(Err(diagnostics)) => return Err(stride_failure(&diagnostics)),
        Err(p) => return Err(Outcome::Internal(format!("panic: {}", message(&*p)))),
    };
    if slang {
        // Slang compiles a file without entry points as a module; there is
        // nothing to ask it for here but that.
        if out.entry_points.is_empty() {
            return Ok(vec![Unit {
                entry: LIBRARY.into(),
                text: out.text,
                how: How::Slang {
                    function: String::new(),
                    stage: "",
                },
            }]);
        }
        return Ok(out
            .entry_points
            .iter()
            .map(|ep| Unit {
                entry: ep.name.clone(),
                text: out.text.clone(),
                how: How::Slang {
                    function: ep.function.clone(),
                    stage: slang_stage(ep.stage),
                },
            })
            .collect());
    }
    if out.entry_points.is_empty() {
        return Ok(vec![library_unit(out.text, f16)]);
    }
    Ok(out
        .entry_points
        .iter()
        .map(|ep| Unit {
            entry: ep.name.clone(),
            text: out.text.clone(),
            how: How::Hlsl {
                profile: ep.profile(out.shader_model),
                function: ep.function.clone(),
                f16,
            },
        })
        .collect())
}

fn slang_stage(stage: naga::ShaderStage) -> &'static str {
    match stage {
        naga::ShaderStage::Vertex => "vertex",
        naga::ShaderStage::Fragment => "fragment",
        naga::ShaderStage::Compute => "compute",
        naga::ShaderStage::Task => "amplification",
        naga::ShaderStage::Mesh => "mesh",
        _ => "compute",
    }
}

/// An HLSL file without entry points (a module of functions, types and
/// resources only) is compiled as a DXIL library: profile `lib_6_3`, the
/// first with libraries, and no `-E`.
fn library_unit(text: String, f16: bool) -> Unit {
    Unit {
        entry: LIBRARY.into(),
        text,
        how: How::Hlsl {
            profile: "lib_6_3".into(),
            function: String::new(),
            f16,
        },
    }
}

fn stride_glsl(source: &str, dialect: Dialect) -> Result<Vec<Unit>, Outcome> {
    let options = stride::Options {
        target: stride::Target::Glsl,
        glsl: stride::back::glsl::GlslOptions {
            dialect,
            ..Default::default()
        },
        ..Default::default()
    };
    let files = match stride::translate(source, &options) {
        Ok(t) => match t.output {
            stride::Output::Files(files) => files,
            _ => return Err(Outcome::Internal("the GLSL target gave no files".into())),
        },
        Err(diagnostics) => return Err(stride_failure(&diagnostics)),
    };
    // The glslang steps of tests/glsl.rs: Vulkan GLSL to Vulkan SPIR-V,
    // OpenGL GLSL to OpenGL SPIR-V, ES through the plain front end (the
    // ES rules).
    let args: &'static [&'static str] = if dialect.is_vulkan() {
        &["-V", "--target-env", "vulkan1.1"]
    } else if dialect.is_es() {
        &[]
    } else {
        &["-G"]
    };
    Ok(files
        .into_iter()
        .map(|f| {
            let (entry, extension) = f.suffix.rsplit_once('.').unwrap_or((&f.suffix, "glsl"));
            let extension = ["vert", "frag", "comp", "task", "mesh"]
                .into_iter()
                .find(|e| *e == extension)
                .unwrap_or("glsl");
            Unit {
                entry: entry.to_string(),
                text: f.text,
                how: How::Glsl { extension, args },
            }
        })
        .collect())
}

/// Compile one unit; `Err` holds the compiler's first error line.
fn compile(config: &Config, unit: &Unit) -> Result<(), String> {
    match &unit.how {
        How::Hlsl {
            profile,
            function,
            f16,
        } => {
            let file = config.scratch.join("shader.hlsl");
            std::fs::write(&file, &unit.text).map_err(|e| format!("cannot write: {e}"))?;
            let mut args = vec!["-T", profile, "-Fo", "/dev/null"];
            if !function.is_empty() {
                args.extend(["-E", function]);
            }
            if *f16 {
                args.push("-enable-16bit-types");
            }
            run_compiler(&config.dxc, &args, &file)?;
            args.extend(["-HV", "2021"]);
            run_compiler(&config.dxc, &args, &file).map_err(|e| format!("-HV 2021: {e}"))
        }
        How::Glsl { extension, args } => {
            let file = config.scratch.join(format!("shader.{extension}"));
            std::fs::write(&file, &unit.text).map_err(|e| format!("cannot write: {e}"))?;
            let spv = config.scratch.join("shader.spv");
            let mut all: Vec<&str> = args.to_vec();
            if !args.is_empty() {
                all.extend(["-o", spv.to_str().unwrap_or("shader.spv")]);
            }
            run_compiler(Path::new("glslangValidator"), &all, &file)
        }
        How::Spirv(bytes) => {
            let file = config.scratch.join("module.spv");
            std::fs::write(&file, bytes).map_err(|e| format!("cannot write: {e}"))?;
            run_compiler(
                Path::new("spirv-val"),
                &["--target-env", "vulkan1.1"],
                &file,
            )
        }
        How::Slang { function, stage } => {
            let file = config.scratch.join("shader.slang");
            std::fs::write(&file, &unit.text).map_err(|e| format!("cannot write: {e}"))?;
            let spv = config.scratch.join("shader.spv");
            let spv = spv.to_str().unwrap_or("shader.spv");
            // A module without entry points has no SPIR-V to write (Slang:
            // "SPIR-V output contains no exported symbols"): without
            // arguments Slang parses and checks it, and fails on any error.
            let args: Vec<&str> = if function.is_empty() {
                Vec::new()
            } else {
                vec![
                    "-target",
                    "spirv",
                    "-profile",
                    "spirv_1_4",
                    "-fvk-use-dx-layout",
                    "-entry",
                    function,
                    "-stage",
                    stage,
                    "-o",
                    spv,
                ]
            };
            run_compiler_first(&config.slangc, &args, &file)
        }
    }
}

fn run_compiler(tool: &Path, args: &[&str], file: &Path) -> Result<(), String> {
    let mut command = Command::new(tool);
    command.args(args).arg(file);
    compiler_verdict(tool, &mut command, file)
}

/// [`run_compiler`] for a tool that takes the input first (`stride-slangc
/// FILE ARGS...`).
fn run_compiler_first(tool: &Path, args: &[&str], file: &Path) -> Result<(), String> {
    let mut command = Command::new(tool);
    command.arg(file).args(args);
    compiler_verdict(tool, &mut command, file)
}

fn compiler_verdict(tool: &Path, command: &mut Command, file: &Path) -> Result<(), String> {
    let out = command
        .output()
        .map_err(|e| format!("cannot run {}: {e}", tool.display()))?;
    if out.status.success() {
        return Ok(());
    }
    let text = format!(
        "{}\n{}",
        String::from_utf8_lossy(&out.stderr),
        String::from_utf8_lossy(&out.stdout)
    );
    let dir = file.parent().map(|d| d.display().to_string());
    // DXC: `file:line:col: error: ...`; glslang: `ERROR: file:line: ...`
    // before its `ERROR: N compilation errors.` tally.
    let line = text
        .lines()
        .find(|l| {
            (l.contains("error:") || l.starts_with("ERROR: ")) && !l.contains("compilation errors")
        })
        .or_else(|| {
            text.lines()
                .find(|l| !l.trim().is_empty() && !l.starts_with("warning: DXIL.dll"))
        })
        .unwrap_or("failed without a message");
    // Paths of the scratch files say nothing; keep `line:column: error`.
    let mut line = line.to_string();
    if let Some(dir) = dir {
        line = line.replace(&format!("{dir}/"), "");
    }
    Err(one_line(&line))
}

/// Compiler verdicts over some files' units: entry points and libraries
/// (HLSL files without entry points), accepted and in all.
#[derive(Default)]
struct Tally {
    entry_points: (usize, usize),
    libraries: (usize, usize),
    modules: (usize, usize),
}

impl Tally {
    fn add(&mut self, outcome: &Outcome) {
        if let Outcome::Translated(units) = outcome {
            for (entry, verdict) in units {
                let slot = match entry.as_str() {
                    LIBRARY => &mut self.libraries,
                    MODULE => &mut self.modules,
                    _ => &mut self.entry_points,
                };
                slot.0 += usize::from(verdict.is_ok());
                slot.1 += 1;
            }
        }
    }

    fn describe(&self) -> String {
        let (ma, mn) = self.modules;
        if mn > 0 {
            return format!("{ma}/{mn} modules");
        }
        let (a, n) = self.entry_points;
        let mut s = format!("{a}/{n} entry points");
        let (la, ln) = self.libraries;
        if ln > 0 {
            let _ = write!(s, ", {la}/{ln} libraries or modules");
        }
        s
    }
}

fn summary(target: Target, dxc: &Path, reports: &[Report]) -> String {
    let compiler = target.compiler();
    let tally = |rs: &[&Report], naga: bool| {
        let mut t = Tally::default();
        for r in rs {
            match (&r.naga, naga) {
                (Ok(o), true) => t.add(o),
                (_, false) => t.add(&r.stride),
                _ => {}
            }
        }
        t.describe()
    };
    let invalid: Vec<&Report> = reports.iter().filter(|r| r.naga.is_err()).collect();
    let writer_fails: Vec<&Report> = reports
        .iter()
        .filter(|r| matches!(r.naga, Ok(Outcome::Fails(_))))
        .collect();
    let aim: Vec<&Report> = reports
        .iter()
        .filter(|r| matches!(r.naga, Ok(Outcome::Translated(_) | Outcome::NoWriter)))
        .collect();
    let translated = |rs: &[&Report]| {
        rs.iter()
            .filter(|r| matches!(r.stride, Outcome::Translated(_)))
            .count()
    };
    let stride_ok = |rs: &[&Report]| rs.iter().filter(|r| r.stride.all_accepted()).count();
    let naga_ok = aim
        .iter()
        .filter(|r| r.naga.as_ref().is_ok_and(Outcome::all_accepted))
        .count();
    let no_entry = aim.iter().filter(|r| r.entry_points == 0).count();
    let how = match target {
        Target::Spirv => "spirv-val --target-env vulkan1.1 (no feature flags), SPIR-V 1.3".into(),
        Target::Slang => "stride-slangc -target spirv -profile spirv_1_4 -fvk-use-dx-layout; \
             naga has no Slang writer: the aim set is every file naga reads"
            .into(),
        Target::Hlsl => format!(
            "DXC {} at shader model 6.0 (6.2 for 16- and 64-bit types), default and -HV 2021",
            dxc.display()
        ),
        Target::Glsl(d) => format!(
            "stride {} and glslang {}; naga desktop 450 and glslang's front end",
            d.name(),
            if d.is_vulkan() {
                "-V --target-env vulkan1.1"
            } else if d.is_es() {
                "(ES front end)"
            } else {
                "-G"
            }
        ),
    };
    let failing: Vec<&&Report> = aim.iter().filter(|r| !r.stride.all_accepted()).collect();
    let mut s = format!("== summary: {}\n", target.name());
    let mut row = |label: String, value: String| {
        let _ = writeln!(s, "{label:<44} {value}");
    };
    row("compiled with".into(), how);
    row("files".into(), reports.len().to_string());
    row(
        "naga cannot parse or validate".into(),
        format!(
            "{} (stride translates {} of them)",
            invalid.len(),
            translated(&invalid)
        ),
    );
    row(
        format!(
            "naga's {} writer fails or panics",
            target.name().to_uppercase()
        ),
        format!(
            "{} (stride translates {}; {compiler} accepts all of {}: {})",
            writer_fails.len(),
            translated(&writer_fails),
            stride_ok(&writer_fails),
            tally(&writer_fails, false)
        ),
    );
    let aim_label = if target == Target::Slang {
        "aim set: naga reads"
    } else {
        "aim set: naga's writer translates"
    };
    row(
        aim_label.into(),
        format!("{} ({no_entry} without entry points)", aim.len()),
    );
    row("  stride translates".into(), translated(&aim).to_string());
    row(
        format!("  {compiler} accepts stride's output"),
        format!("{} files, {}", stride_ok(&aim), tally(&aim, false)),
    );
    if target != Target::Slang {
        row(
            format!("  {compiler} accepts naga's output"),
            format!("{naga_ok} files, {}", tally(&aim, true)),
        );
    }
    row(
        "  stride fails (translation or compiler)".into(),
        failing.len().to_string(),
    );
    let _ = writeln!(
        s,
        "== aim-set files stride does not translate or {compiler} rejects"
    );
    for r in failing {
        let _ = writeln!(
            s,
            "{}: {}",
            r.name,
            r.stride.first_problem().unwrap_or_default()
        );
    }
    let _ = writeln!(s, "== aim-set files whose naga output {compiler} rejects");
    for r in &aim {
        if let Ok(o) = &r.naga {
            if !o.all_accepted() {
                let _ = writeln!(s, "{}: {}", r.name, o.first_problem().unwrap_or_default());
            }
        }
    }
    s
}
