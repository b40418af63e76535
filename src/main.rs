//! The `stride` command line: arguments -> library calls -> files and
//! diagnostics. Everything that translates lives in the library.

mod cli;

use clap::{Parser, ValueEnum};
use cli::files::{remove_stale, remove_stale_entry_files, write_output};
use cli::inputs::{mirrored_dirs, read_inputs, Input};
use cli::report::{InputReport, Produced, TargetReport};
use cli::Fatal;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use stride::{Diagnostic, Diagnostics, Options, Output, RuleSet, Target};

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum TargetArg {
    /// SPIR-V binary with Offset/ArrayStride/MatrixStride from the contract layout
    Spirv,
    /// GLSL, one file per entry point (<stem>.<entry>.<vert|frag|comp>),
    /// blocks with layout(offset = N) from the contract layout
    Glsl,
    /// HLSL, every entry point in one file (<stem>.hlsl): cbuffers with
    /// packoffset from the contract layout, storage as (RW)ByteAddressBuffer
    /// read at the contract's byte offsets
    Hlsl,
    /// Slang, every entry point in one file (<stem>.slang): the HLSL program
    /// with [[vk::binding]] from the WGSL bindings and [shader] entry points
    Slang,
    /// Annotated struct listings: offset, align, size and padding of every buffer struct
    Layout,
    /// JSON: every global, its binding and every type's contract layout
    Reflect,
    /// C11 header (<stem>.h, also valid C++17): a struct per buffer struct
    /// with explicit padding, offsetof/sizeof asserts and binding constants
    C,
    /// Rust module (<stem>.rs): #[repr(C)] structs with explicit padding,
    /// offset_of!/size_of asserts and binding constants
    Rust,
}

impl From<TargetArg> for Target {
    fn from(t: TargetArg) -> Target {
        match t {
            TargetArg::Spirv => Target::Spirv,
            TargetArg::Glsl => Target::Glsl,
            TargetArg::Hlsl => Target::Hlsl,
            TargetArg::Slang => Target::Slang,
            TargetArg::Layout => Target::Layout,
            TargetArg::Reflect => Target::Reflect,
            TargetArg::C => Target::C,
            TargetArg::Rust => Target::Rust,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum UniformArg {
    /// WGSL's uniform rules
    Wgsl,
    /// The storage rules (`uniform_buffer_standard_layout`)
    Standard,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum ColorArg {
    /// Color when stderr is a terminal and NO_COLOR is not set
    Auto,
    Always,
    Never,
}

/// `--spirv-version` when not given.
const DEFAULT_SPIRV_VERSION: &str = "1.3";
/// `--line-directives` when not given.
const DEFAULT_LINE_DIRECTIVES: &str = "auto";

const AFTER_HELP: &str = "\
Exit status: 0 success, 1 diagnostics with errors, 2 usage or IO error.
Examples:
  stride --target spirv shader.wgsl -o shader.spv
  stride -t hlsl --shader-model 6_2 shader.wgsl -o shader.hlsl
  stride -t layout --rules std140,hlsl-cbuffer shader.wgsl
  stride -t reflect a.wgsl b.wgsl -o out/
Several targets from one parse, each keeping its options:
  stride -t spirv,hlsl,glsl --glsl gl450 --shader-model 6_2 shader.wgsl -o out/
A tree (shaders/a/main.wgsl -> out/a/main.spv, out/a/main.hlsl, ...):
  stride -t spirv,hlsl shaders/ -o out/
  stride -t spirv --root shaders shaders/a/main.wgsl shaders/b/main.wgsl -o out/
For a build system (unchanged outputs keep their mtime; --force-write rewrites):
  stride -t spirv,hlsl shaders/ -o out/ --depfile out/shaders.d --manifest out/manifest.json
The edit-run loop (translate again on every save, until Ctrl-C):
  stride -t spirv,hlsl shaders/ -o out/ --watch
  stride -t layout --watch shader.wgsl
";

/// Translate WGSL (plus the stride layout dialect) into targets whose buffer
/// layouts are exactly the source's.
///
/// Every buffer layout is computed from the source (WGSL memory layout plus
/// the dialect's @align/@size on structs and aliases, @stride on arrays) and
/// checked against the address-space rules. Errors point at the source
/// member and say how to fix it.
#[derive(Debug, Parser)]
#[command(name = "stride", version, about, long_about = None)]
#[command(after_help = AFTER_HELP)]
struct Cli {
    /// Input WGSL files; `-` reads standard input; a directory stands for
    /// every *.wgsl file below it, in sorted path order. Several inputs are
    /// translated in parallel; output and diagnostics keep input order.
    #[arg(required = true, value_name = "INPUT")]
    inputs: Vec<String>,

    /// What to produce; several targets (comma-separated or repeated -t)
    /// come from one parse and layout of each input, each with its own
    /// options below
    #[arg(short, long, value_enum, value_name = "TARGET[,TARGET...]",
          value_delimiter = ',', default_values_t = [TargetArg::Spirv])]
    target: Vec<TargetArg>,

    /// Output file for one input and target, else a directory (created if
    /// missing; files are named <stem>.spv, <stem>.hlsl, <stem>.slang,
    /// <stem>.layout.txt, <stem>.reflect.json, or
    /// <stem>.<entry>.<vert|frag|comp> for GLSL). In a directory, outputs
    /// mirror the inputs' folders below their common root (or --root).
    /// Text targets go to stdout without it (or with `-o -`). A GLSL module with several
    /// entry points needs a directory (or -e).
    #[arg(short, long, value_name = "PATH")]
    output: Option<PathBuf>,

    /// With -o DIR: mirror the inputs' folders relative to this one
    /// instead of their common root
    #[arg(long, value_name = "DIR")]
    root: Option<PathBuf>,

    /// Write a Makefile-style depfile (for make and ninja): one rule
    /// `OUTPUT: INPUT` per output file
    #[arg(long, value_name = "FILE")]
    depfile: Option<PathBuf>,

    /// Write a JSON manifest: every input, its outputs per target with
    /// size and FNV-1a 64 hash, and its diagnostics
    #[arg(long, value_name = "FILE")]
    manifest: Option<PathBuf>,

    /// Rewrite output files whose bytes are unchanged (by default they are
    /// left alone, so that their modification time stays)
    #[arg(long)]
    force_write: bool,

    /// Only check the inputs (for the chosen targets, including what they
    /// cannot express) and print diagnostics; write nothing
    #[arg(long)]
    check: bool,

    /// Keep running: after a first full run, translate again each input
    /// that changes (a file input, or a *.wgsl file added, changed or
    /// removed below a directory input; a removed one's outputs go too),
    /// updating outputs, --depfile and --manifest as a run would.
    /// Diagnostics are printed and errors do not stop it; Ctrl-C does, or
    /// an input's folder going away (exit status 2). Not with `-` (standard
    /// input), nor SPIR-V to standard output
    #[arg(long)]
    watch: bool,

    /// Color diagnostics
    #[arg(long, value_enum, default_value_t = ColorArg::Auto, value_name = "WHEN")]
    color: ColorArg,

    /// For --target layout: other rule sets to show beside the contract
    /// (comma-separated: std140, std430, scalar, hlsl-cbuffer,
    /// hlsl-structured, wgsl)
    #[arg(long, value_name = "SET[,SET...]", value_delimiter = ',', value_parser = parse_rule_set)]
    rules: Vec<RuleSet>,

    /// SPIR-V version to emit, 1.0 to 1.6
    #[arg(long, value_name = "MAJOR.MINOR", default_value = DEFAULT_SPIRV_VERSION, value_parser = parse_spirv_version)]
    spirv_version: (u8, u8),

    /// GLSL dialect: vulkan450 (sets and bindings, separate samplers,
    /// specialization constants), gl430, gl440, gl450, gl460 (bindings
    /// allocated per resource kind, combined samplers), es310, es320
    /// (no offset qualifiers: layouts by padding members only)
    /// [default: vulkan450]
    #[arg(long, value_name = "DIALECT", value_parser = parse_glsl_dialect)]
    glsl: Option<stride::back::glsl::Dialect>,

    /// #line directives pointing GLSL, HLSL and Slang statements back to
    /// their WGSL line: auto (`#line N "input"` for HLSL, Slang, Vulkan
    /// and desktop GLSL, `#line N` for GLSL ES, nothing elsewhere),
    /// file, numeric, none. An explicit file or numeric also gives SPIR-V
    /// OpSource/OpLine debug info
    #[arg(long, value_name = "FORM", default_value = DEFAULT_LINE_DIRECTIVES, value_parser = parse_line_directives)]
    line_directives: stride::back::lines::LineDirectives,

    /// The entry point to write (GLSL, HLSL, Slang); without it GLSL writes
    /// every entry point to its own file, HLSL and Slang all of them into
    /// one file
    #[arg(short = 'e', long = "entry-point", value_name = "NAME")]
    entry_point: Option<String>,

    /// HLSL shader model: 5_1, 6_0 ... 6_6 [default: the lowest the module
    /// needs, at least 6_0, with a note when above it: f16 and 16- or
    /// 64-bit storage values need 6_2, which DXC compiles f16 with
    /// -enable-16bit-types for]
    #[arg(long, value_name = "MODEL", value_parser = parse_shader_model)]
    shader_model: Option<stride::back::hlsl::ShaderModel>,

    /// HLSL registers: wgsl (space = @group, register = @binding) or
    /// compact (per space and register class, the first free range in
    /// declaration order) [default: wgsl]
    #[arg(long, value_name = "MODE", value_parser = parse_register_mode)]
    registers: Option<stride::back::hlsl::RegisterMode>,

    /// Leave debug names (OpName, OpMemberName) out of SPIR-V
    #[arg(long)]
    strip_names: bool,

    /// Value of a pipeline-overridable constant, by name or @id (repeatable).
    /// SPIR-V output bakes every override in: this value, else its default
    #[arg(long = "override", value_name = "NAME=VALUE", value_parser = parse_override)]
    overrides: Vec<(String, f64)>,

    /// Uniform buffer layout rules: wgsl (16-byte array strides, struct
    /// sizes and offsets, unless the module says `requires
    /// uniform_buffer_standard_layout;`) or standard (the storage rules, as
    /// that directive gives; SPIR-V then needs uniformBufferStandardLayout,
    /// GLSL declares such uniforms as 16-byte words, HLSL and Slang refuse
    /// what a cbuffer cannot hold)
    #[arg(long, value_name = "RULES", value_enum, default_value_t = UniformArg::Wgsl)]
    uniform_layout: UniformArg,

    /// --target rust: extra derives; `bytemuck` adds bytemuck::Pod and
    /// bytemuck::Zeroable (sound: every padding byte is a named field)
    #[arg(long, value_name = "CRATE", value_parser = ["bytemuck"])]
    rust_derive: Option<String>,
}

fn parse_override(s: &str) -> Result<(String, f64), String> {
    let (name, value) = s
        .split_once('=')
        .ok_or_else(|| format!("`{s}`: expected NAME=VALUE"))?;
    let name = name.trim();
    if name.is_empty() {
        return Err(format!("`{s}`: the override name is empty"));
    }
    let value = value.trim();
    let number = match value {
        "true" => 1.0,
        "false" => 0.0,
        _ => value
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite())
            .ok_or_else(|| format!("`{value}` is not a finite number (or true/false)"))?,
    };
    Ok((name.to_string(), number))
}

fn parse_glsl_dialect(s: &str) -> Result<stride::back::glsl::Dialect, String> {
    use stride::back::glsl::Dialect;
    Dialect::from_name(s.trim()).ok_or_else(|| {
        let names: Vec<&str> = Dialect::ALL.iter().map(|d| d.name()).collect();
        format!("unknown GLSL dialect `{s}` (valid: {})", names.join(", "))
    })
}

fn parse_line_directives(s: &str) -> Result<stride::back::lines::LineDirectives, String> {
    stride::back::lines::LineDirectives::from_name(s.trim()).ok_or_else(|| {
        format!("unknown line-directive form `{s}` (valid: auto, none, numeric, file)")
    })
}

fn parse_shader_model(s: &str) -> Result<stride::back::hlsl::ShaderModel, String> {
    use stride::back::hlsl::ShaderModel;
    ShaderModel::from_name(s.trim()).ok_or_else(|| {
        let names: Vec<&str> = ShaderModel::ALL.iter().map(|m| m.name()).collect();
        format!("unknown shader model `{s}` (valid: {})", names.join(", "))
    })
}

fn parse_register_mode(s: &str) -> Result<stride::back::hlsl::RegisterMode, String> {
    stride::back::hlsl::RegisterMode::from_name(s.trim())
        .ok_or_else(|| format!("unknown register mode `{s}` (valid: wgsl, compact)"))
}

fn parse_rule_set(s: &str) -> Result<RuleSet, String> {
    RuleSet::from_name(s.trim()).ok_or_else(|| {
        let names: Vec<&str> = RuleSet::ALL.iter().map(|r| r.name()).collect();
        format!("unknown rule set `{s}` (valid: {})", names.join(", "))
    })
}

fn parse_spirv_version(s: &str) -> Result<(u8, u8), String> {
    let bad = || format!("`{s}` is not a SPIR-V version: use 1.0, 1.1, ... 1.6");
    let (major, minor) = s.split_once('.').ok_or_else(bad)?;
    let major: u8 = major.parse().map_err(|_| bad())?;
    let minor: u8 = minor.parse().map_err(|_| bad())?;
    if major == 1 && minor <= 6 {
        Ok((major, minor))
    } else {
        Err(bad())
    }
}

fn main() -> ExitCode {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    // The plain one-file call of a build system skips building clap's
    // command (see `cli::quick`); clap reads everything else.
    let mut cli = match args.get(1..).and_then(cli::quick::plain_call) {
        Some(cli) => cli,
        None => Cli::parse_from(args),
    };
    // `-o -`: standard output, as without -o (not a file named `-`).
    if cli.output.as_deref() == Some(std::path::Path::new("-")) {
        cli.output = None;
    }
    let color = match cli.color {
        ColorArg::Always => true,
        ColorArg::Never => false,
        ColorArg::Auto => std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none(),
    };
    match run(&cli, color) {
        Ok(code) => code,
        Err(Fatal(message)) => {
            eprintln!("error: {message}");
            ExitCode::from(2)
        }
    }
}

/// The targets asked for, in the order first given.
fn targets(cli: &Cli) -> Vec<Target> {
    let mut targets: Vec<Target> = Vec::new();
    for &t in &cli.target {
        if !targets.contains(&t.into()) {
            targets.push(t.into());
        }
    }
    targets
}

fn run(cli: &Cli, color: bool) -> Result<ExitCode, Fatal> {
    let targets = targets(cli);
    let has = |wanted: &[Target]| targets.iter().any(|t| wanted.contains(t));
    if !cli.rules.is_empty() && !has(&[Target::Layout]) {
        return Err(Fatal("--rules only applies to --target layout".into()));
    }
    if cli.entry_point.is_some() && !has(&[Target::Glsl, Target::Hlsl, Target::Slang]) {
        return Err(Fatal(
            "-e/--entry-point only applies to --target glsl, hlsl and slang".into(),
        ));
    }
    if cli.shader_model.is_some() && !has(&[Target::Hlsl]) {
        return Err(Fatal("--shader-model only applies to --target hlsl".into()));
    }
    if cli.registers.is_some() && !has(&[Target::Hlsl, Target::Slang]) {
        return Err(Fatal(
            "--registers only applies to --target hlsl and slang".into(),
        ));
    }
    if cli.rust_derive.is_some() && !has(&[Target::Rust]) {
        return Err(Fatal("--rust-derive only applies to --target rust".into()));
    }
    if cli.glsl.is_some() && !has(&[Target::Glsl]) {
        return Err(Fatal("--glsl only applies to --target glsl".into()));
    }
    if cli.watch {
        check_watch(cli, &targets)?;
    }
    let options = Options {
        target: Target::Spirv,
        rules: cli.rules.clone(),
        pipeline: stride::back::Pipeline {
            entry_point: cli.entry_point.clone(),
            overrides: cli.overrides.clone(),
        },
        spirv: stride::back::spirv::SpirvOptions {
            version: cli.spirv_version,
            strip_names: cli.strip_names,
            debug_file: None,
        },
        glsl: stride::back::glsl::GlslOptions {
            dialect: cli.glsl.unwrap_or_default(),
            f16_words: false,
        },
        hlsl: stride::back::hlsl::HlslOptions {
            shader_model: cli.shader_model,
            registers: cli.registers.unwrap_or_default(),
            slang: false,
        },
        host: stride::back::host::HostOptions {
            name: None,
            bytemuck: cli.rust_derive.is_some(),
        },
        lines: stride::back::lines::LineOptions {
            directives: cli.line_directives,
            source_name: String::new(),
        },
        uniform_layout: match cli.uniform_layout {
            UniformArg::Wgsl => stride::UniformLayout::Default,
            UniformArg::Standard => stride::UniformLayout::Standard,
        },
    };
    let job = Job {
        cli,
        targets: &targets,
        options: &options,
        color,
    };
    let (inputs, any_directory) = read_inputs(&cli.inputs)?;
    let destinations = plan_outputs(cli, &targets, &inputs, any_directory)?;
    if cli.watch {
        // Watching starts before the first run, so that no change made
        // during it is missed.
        let watcher = cli::watch::Watcher::new(&cli.inputs)?;
        let reports = job.run_all(&inputs, &destinations)?;
        let state = Watched {
            inputs,
            destinations,
            reports,
            lists_stale: false,
        };
        return job.watch(watcher, state);
    }
    let reports = job.run_all(&inputs, &destinations)?;
    Ok(if reports.iter().any(InputReport::has_errors) {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// The targets' diagnostics as printed, in target order: with several
/// targets, each names the targets it is for, and a diagnostic that several
/// targets give alike (one cause, as `texture_external` refused by HLSL and
/// Slang) is printed once, naming them all (`hlsl, slang: ...`).
fn by_target(diagnostics: &[(Option<Target>, Diagnostic)], several: bool) -> Diagnostics {
    if !several {
        return Diagnostics(diagnostics.iter().map(|(_, d)| d.clone()).collect());
    }
    let mut printed: Vec<(Vec<Target>, &Diagnostic)> = Vec::new();
    for (target, d) in diagnostics {
        let Some(target) = *target else { continue };
        match printed.iter_mut().find(|(_, p)| *p == d) {
            Some((names, _)) if !names.contains(&target) => names.push(target),
            Some(_) => {}
            None => printed.push((vec![target], d)),
        }
    }
    Diagnostics(
        printed
            .into_iter()
            .map(|(names, d)| {
                let names: Vec<&str> = names.iter().map(|t| t.name()).collect();
                let mut d = d.clone();
                d.message = format!("{}: {}", names.join(", "), d.message);
                d
            })
            .collect(),
    )
}

/// One call's settings, shared by the first run and every watch round.
struct Job<'a> {
    cli: &'a Cli,
    targets: &'a [Target],
    options: &'a Options,
    color: bool,
}

impl Job<'_> {
    /// Translate every input, write the outputs, the depfile and the
    /// manifest.
    fn run_all(&self, inputs: &[Input], destinations: &[Dest]) -> Result<Vec<InputReport>, Fatal> {
        let chosen: Vec<(&Input, &Dest)> = inputs.iter().zip(destinations).collect();
        let reports = self.translate(&chosen)?;
        self.write_lists(inputs, &reports)?;
        Ok(reports)
    }

    /// Translate these inputs, print their diagnostics in input order and
    /// write (or remove) their outputs.
    fn translate(&self, chosen: &[(&Input, &Dest)]) -> Result<Vec<InputReport>, Fatal> {
        let (cli, targets) = (self.cli, self.targets);
        let results = translate_all(chosen, targets, self.options, cli);
        let mut stdout = std::io::stdout().lock();
        let mut stderr = std::io::stderr().lock();
        let mut reports = Vec::with_capacity(chosen.len());
        for (&(input, destination), done) in chosen.iter().zip(results) {
            let render = |diagnostics: &Diagnostics| {
                diagnostics.render(&input.name, &input.source, self.color)
            };
            if !done.common.is_empty() {
                let _ = stderr.write_all(render(&done.common).as_bytes());
            }
            let mut report = InputReport {
                targets: Vec::with_capacity(targets.len()),
                diagnostics: done.common.into_iter().map(|d| (None, d)).collect(),
            };
            let start = report.diagnostics.len();
            let written = done
                .written
                .into_iter()
                .map(Some)
                .chain(std::iter::repeat_with(|| None));
            for ((&target, result), written) in targets.iter().zip(done.targets).zip(written) {
                let (output, diagnostics) = match result {
                    Ok(t) => (Some(t.output), t.warnings),
                    Err(diags) => (None, diags),
                };
                let ok = output.is_some();
                let outputs = match (written, output) {
                    // Written (or removed) by the worker that translated it.
                    (Some(written), _) => written?,
                    (None, Some(_)) if cli.check => Vec::new(),
                    (None, Some(output)) => {
                        emit(cli, target, input, output, destination, &mut stdout)?
                    }
                    (None, None) => {
                        remove_outputs(target, input, destination)?;
                        Vec::new()
                    }
                };
                report.targets.push(TargetReport {
                    target,
                    ok,
                    outputs,
                });
                report
                    .diagnostics
                    .extend(diagnostics.into_iter().map(|d| (Some(target), d)));
            }
            let text = render(&by_target(&report.diagnostics[start..], targets.len() > 1));
            let _ = stderr.write_all(text.as_bytes());
            reports.push(report);
        }
        let _ = stdout.flush();
        Ok(reports)
    }

    /// The depfile and the manifest, when asked for.
    fn write_lists(&self, inputs: &[Input], reports: &[InputReport]) -> Result<(), Fatal> {
        let cli = self.cli;
        if let Some(path) = &cli.depfile {
            let text = cli::report::depfile(inputs, reports)?;
            write_output(path, text.as_bytes(), cli.force_write)?;
        }
        if let Some(path) = &cli.manifest {
            let text = cli::report::manifest(inputs, reports);
            write_output(path, text.as_bytes(), cli.force_write)?;
        }
        Ok(())
    }

    /// `--watch`: after the first run, one round per settled change, until
    /// an input can no longer be watched. A round that fails (an input
    /// cannot be read, an output cannot be written) is reported and the
    /// next change tries again.
    fn watch(
        &self,
        mut watcher: cli::watch::Watcher,
        mut state: Watched,
    ) -> Result<ExitCode, Fatal> {
        eprintln!(
            "stride: watching {} for changes (Ctrl-C stops)",
            cli::watch::count(state.inputs.len(), "input")
        );
        loop {
            watcher.wait()?;
            if let Err(Fatal(message)) = self.round(&mut state) {
                eprintln!("error: {message}");
            }
        }
    }

    /// One watch round: read the inputs again and translate those whose
    /// name, text or output place changed; the others keep their report
    /// and their files. Outputs of inputs that are gone are removed.
    fn round(&self, state: &mut Watched) -> Result<(), Fatal> {
        let (inputs, any_directory) = read_inputs(&self.cli.inputs)?;
        let destinations = plan_outputs(self.cli, self.targets, &inputs, any_directory)?;
        let old: Vec<(&Input, &Dest)> = state.inputs.iter().zip(&state.destinations).collect();
        let new: Vec<(&Input, &Dest)> = inputs.iter().zip(&destinations).collect();
        let changes = cli::watch::Changes::between(&old, &new, |(input, _)| &input.name);
        if changes.is_empty() && !state.lists_stale {
            return Ok(());
        }
        let chosen: Vec<(&Input, &Dest)> = changes.changed.iter().map(|&i| new[i]).collect();
        let fresh = self.translate(&chosen)?;
        let changed: Vec<String> = chosen.iter().map(|(i, _)| i.name.clone()).collect();
        let removed: Vec<String> = changes
            .removed
            .iter()
            .map(|&j| old[j].0.name.clone())
            .collect();
        let failed = fresh.iter().filter(|r| r.has_errors()).count();
        let (reports, gone) = changes.merge(std::mem::take(&mut state.reports), fresh);
        *state = Watched {
            inputs,
            destinations,
            reports,
            lists_stale: true,
        };
        // Files of inputs that are gone, unless a present input wrote the
        // same path.
        let written: Vec<&Path> = produced(&state.reports).collect();
        for path in produced(&gone) {
            if !written.contains(&path) {
                remove_stale(path)?;
            }
        }
        self.write_lists(&state.inputs, &state.reports)?;
        state.lists_stale = false;
        cli::watch::summary(&changed, &removed, failed);
        Ok(())
    }
}

/// What `--watch` keeps between rounds: the inputs as last read, where
/// their outputs go, and what became of them.
struct Watched {
    inputs: Vec<Input>,
    destinations: Vec<Dest>,
    reports: Vec<InputReport>,
    /// The depfile and manifest do not show the reports yet (their writing
    /// failed): the next round writes them even when nothing changed.
    lists_stale: bool,
}

/// Every output file these reports name.
fn produced(reports: &[InputReport]) -> impl Iterator<Item = &Path> {
    reports
        .iter()
        .flat_map(|r| &r.targets)
        .flat_map(|t| &t.outputs)
        .map(|o| o.path.as_path())
}

/// What `--watch` cannot do.
fn check_watch(cli: &Cli, targets: &[Target]) -> Result<(), Fatal> {
    if cli.inputs.iter().any(|name| name == "-") {
        return Err(Fatal(
            "--watch cannot watch `-` (standard input); give files or directories".into(),
        ));
    }
    if cli.output.is_none() && !cli.check && targets.contains(&Target::Spirv) {
        return Err(Fatal(
            "--watch would write SPIR-V module after module to standard output; use -o".into(),
        ));
    }
    Ok(())
}

/// Where one input's outputs go.
#[derive(Clone, PartialEq)]
enum Dest {
    Stdout,
    /// This file (one input and target; for GLSL, one entry point).
    File(PathBuf),
    /// `<dir>/<stem>.<extension>`; for GLSL `<dir>/<stem>.<entry>.<stage>`.
    Dir(PathBuf),
}

/// Where each input's outputs go.
fn plan_outputs(
    cli: &Cli,
    targets: &[Target],
    inputs: &[Input],
    any_directory: bool,
) -> Result<Vec<Dest>, Fatal> {
    let stdout = || inputs.iter().map(|_| Dest::Stdout).collect();
    let lists = cli.depfile.is_some() || cli.manifest.is_some();
    if cli.check {
        if cli.output.is_some() {
            return Err(Fatal("--check writes nothing; drop -o/--output".into()));
        }
        if lists {
            return Err(Fatal(
                "--check writes nothing; drop --depfile and --manifest".into(),
            ));
        }
    }
    if cli.output.is_none() {
        if cli.root.is_some() {
            return Err(Fatal("--root only applies with -o DIR".into()));
        }
        if lists {
            return Err(Fatal(
                "--depfile and --manifest list output files: give -o".into(),
            ));
        }
    }
    match &cli.output {
        None if cli.check => Ok(stdout()),
        None => {
            if targets.len() > 1 {
                return Err(Fatal(
                    "several targets cannot share standard output; use -o DIR".into(),
                ));
            }
            if targets.contains(&Target::Spirv) {
                if inputs.len() > 1 {
                    return Err(Fatal(
                        "several SPIR-V modules cannot share standard output; use -o DIR".into(),
                    ));
                }
                if std::io::stdout().is_terminal() {
                    return Err(Fatal(
                        "refusing to write binary SPIR-V to a terminal; use -o FILE (or a text target such as --target layout)"
                            .into(),
                    ));
                }
            }
            if targets.contains(&Target::Glsl) && inputs.len() > 1 {
                return Err(Fatal(
                    "several GLSL outputs cannot share standard output; use -o DIR".into(),
                ));
            }
            Ok(stdout())
        }
        Some(path)
            if inputs.len() == 1
                && targets.len() == 1
                && !any_directory
                && cli.root.is_none()
                && !path.is_dir()
                && !ends_with_separator(path) =>
        {
            Ok(vec![Dest::File(path.clone())])
        }
        Some(dir) => {
            if dir.exists() && !dir.is_dir() {
                return Err(Fatal(format!(
                    "`{}` is a file; with several inputs or targets -o must be a directory",
                    dir.display()
                )));
            }
            std::fs::create_dir_all(dir)
                .map_err(|e| Fatal(format!("cannot create directory `{}`: {e}", dir.display())))?;
            let dirs: Vec<PathBuf> = mirrored_dirs(inputs, cli.root.as_deref())?
                .into_iter()
                .map(|rel| dir.join(rel))
                .collect();
            let mut seen = indexmap::IndexMap::new();
            for (input, out) in inputs.iter().zip(&dirs) {
                let place = out.join(&input.stem);
                if let Some(first) = seen.insert(place.clone(), &input.name) {
                    return Err(Fatal(format!(
                        "`{first}` and `{}` would both write `{}.*`",
                        input.name,
                        place.display()
                    )));
                }
            }
            Ok(dirs.into_iter().map(Dest::Dir).collect())
        }
    }
}

fn ends_with_separator(path: &Path) -> bool {
    path.as_os_str()
        .to_string_lossy()
        .ends_with(std::path::is_separator)
}

/// Write one target's output of one input; the files written (or found
/// unchanged) come back.
fn emit(
    cli: &Cli,
    target: Target,
    input: &Input,
    output: Output,
    destination: &Dest,
    stdout: &mut impl Write,
) -> Result<Vec<Produced>, Fatal> {
    let to_stdout = |stdout: &mut dyn Write, bytes: &[u8]| {
        stdout
            .write_all(bytes)
            .map_err(|e| Fatal(format!("cannot write to standard output: {e}")))
    };
    let to_file = |path: PathBuf, bytes: &[u8]| {
        let hashed = cli.manifest.is_some();
        write_output(&path, bytes, cli.force_write).map(|()| Produced::new(path, bytes, hashed))
    };
    let Output::Files(files) = output else {
        let bytes = output.to_bytes();
        return match destination {
            Dest::Stdout => to_stdout(stdout, &bytes).map(|()| Vec::new()),
            Dest::File(path) => Ok(vec![to_file(path.clone(), &bytes)?]),
            Dest::Dir(dir) => {
                let name = format!("{}.{}", input.stem, target.extension());
                Ok(vec![to_file(dir.join(name), &bytes)?])
            }
        };
    };
    // A several-file output (GLSL: one file per entry point): to a file or
    // standard output only when there is exactly one.
    let single = || -> Result<&stride::OutputFile, Fatal> {
        match files.as_slice() {
            [one] => Ok(one),
            _ => Err(Fatal(format!(
                "`{}` gives {} files ({}); pick one with -e NAME or write them all with -o DIR",
                input.name,
                files.len(),
                files
                    .iter()
                    .map(|f| format!("{}.{}", input.stem, f.suffix))
                    .collect::<Vec<_>>()
                    .join(", ")
            ))),
        }
    };
    match destination {
        Dest::Stdout => to_stdout(stdout, single()?.text.as_bytes()).map(|()| Vec::new()),
        Dest::File(path) => Ok(vec![to_file(path.clone(), single()?.text.as_bytes())?]),
        Dest::Dir(dir) => files
            .iter()
            .map(|f| {
                let name = format!("{}.{}", input.stem, f.suffix);
                to_file(dir.join(name), f.text.as_bytes())
            })
            .collect(),
    }
}

/// After a failed translation: no output of an earlier run is left behind
/// for this target.
fn remove_outputs(target: Target, input: &Input, destination: &Dest) -> Result<(), Fatal> {
    match destination {
        Dest::Stdout => Ok(()),
        Dest::File(path) => remove_stale(path),
        Dest::Dir(dir) if target == Target::Glsl => remove_stale_entry_files(dir, &input.stem),
        Dest::Dir(dir) => remove_stale(&dir.join(format!("{}.{}", input.stem, target.extension()))),
    }
}

/// The results of one input: the diagnostics of the stages every target
/// shares, then one result per target. When the shared stages fail, every
/// target's result is an empty error.
struct Done {
    common: Diagnostics,
    targets: Vec<Result<stride::Translation, Diagnostics>>,
    /// Per target, once [`write_files`] has run: the files written (an
    /// output taken from `targets`), or removed after a failure. Empty
    /// when the outputs are still to be written.
    written: Vec<Result<Vec<Produced>, Fatal>>,
}

/// Write the outputs of `done` to their files (or remove what an earlier
/// run left, for a target that failed), in the worker that translated
/// them, so that writing is parallel too. Not for standard output, whose
/// order is the inputs'.
fn write_files(cli: &Cli, targets: &[Target], input: &Input, destination: &Dest, done: &mut Done) {
    let mut sink = std::io::sink();
    done.written = targets
        .iter()
        .zip(&mut done.targets)
        .map(|(&target, result)| match result {
            Ok(t) => {
                let output = std::mem::replace(&mut t.output, Output::Text(String::new()));
                emit(cli, target, input, output, destination, &mut sink)
            }
            Err(_) => remove_outputs(target, input, destination).map(|()| Vec::new()),
        })
        .collect();
}

/// Translate one input to every target. One target is one
/// `stride::translate`; several share one `stride::analyze`.
fn translate_one(input: &Input, targets: &[Target], options: &Options, check_only: bool) -> Done {
    // --check runs the whole translation, so that it reports what the
    // target cannot express too, and drops the output.
    let kept = |result: Result<stride::Translation, Diagnostics>| {
        result.map(|t| {
            if check_only {
                stride::Translation {
                    output: Output::Text(String::new()),
                    warnings: t.warnings,
                }
            } else {
                t
            }
        })
    };
    let for_target = |target: Target| Options {
        target,
        // The C header's include guard carries the input's stem.
        host: stride::back::host::HostOptions {
            name: Some(input.stem.clone()),
            ..options.host.clone()
        },
        // `#line N "name"`: the input as the user named it.
        lines: stride::back::lines::LineOptions {
            source_name: input.name.clone(),
            ..options.lines.clone()
        },
        ..options.clone()
    };
    if let [target] = targets {
        let result = stride::translate(&input.source, &for_target(*target));
        return Done {
            common: Diagnostics::new(),
            targets: vec![kept(result)],
            written: Vec::new(),
        };
    }
    match stride::analyze_with(&input.source, options.uniform_layout) {
        Ok(analysis) => Done {
            targets: targets
                .iter()
                .map(|&t| kept(stride::translate_analysis(&analysis, &for_target(t))))
                .collect(),
            common: analysis.warnings,
            written: Vec::new(),
        },
        Err(diagnostics) => failed(diagnostics, targets),
    }
}

fn failed(common: Diagnostics, targets: &[Target]) -> Done {
    Done {
        common,
        targets: targets.iter().map(|_| Err(Diagnostics::new())).collect(),
        written: Vec::new(),
    }
}

/// Translate every input, in parallel with one worker per core, each
/// writing the files of the inputs it translated (unless `--check`, or
/// the destination is standard output). Results come back in input order.
/// After a write fails, the workers write nothing more: the caller
/// reports the first failure in input order and stops there.
fn translate_all(
    chosen: &[(&Input, &Dest)],
    targets: &[Target],
    options: &Options,
    cli: &Cli,
) -> Vec<Done> {
    let stop = AtomicBool::new(false);
    let one = |&(input, destination): &(&Input, &Dest)| {
        let mut done = translate_one(input, targets, options, cli.check);
        let to_files = !cli.check && !matches!(destination, Dest::Stdout);
        if to_files && !stop.load(Ordering::Relaxed) {
            write_files(cli, targets, input, destination, &mut done);
            if done.written.iter().any(Result::is_err) {
                stop.store(true, Ordering::Relaxed);
            }
        }
        done
    };
    // One input needs no pool, nor the core count (which reads the
    // process' cgroup files: measurable at start-up).
    let workers = match chosen.len() {
        0 | 1 => 1,
        n => std::thread::available_parallelism().map_or(1, |c| c.get().min(n)),
    };
    if workers <= 1 {
        return chosen.iter().map(one).collect();
    }
    let slots: Vec<Mutex<Option<Done>>> = chosen.iter().map(|_| Mutex::new(None)).collect();
    let next = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(input) = chosen.get(i) else { break };
                let result = one(input);
                if let Ok(mut slot) = slots[i].lock() {
                    *slot = Some(result);
                }
            });
        }
    });
    slots
        .into_iter()
        .zip(chosen)
        .map(|(slot, (input, _))| {
            slot.into_inner().ok().flatten().unwrap_or_else(|| {
                let message = format!(
                    "internal error: the translation of `{}` did not finish",
                    input.name
                );
                failed(stride::Diagnostic::internal(message).into(), targets)
            })
        })
        .collect()
}
