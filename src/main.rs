//! The `stride` command line: arguments -> library calls -> files and
//! diagnostics. Everything that translates lives in the library.

use clap::{Parser, ValueEnum};
use std::io::{IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use stride::{Diagnostics, Options, Output, RuleSet, Target};

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
enum ColorArg {
    /// Color when stderr is a terminal and NO_COLOR is not set
    Auto,
    Always,
    Never,
}

/// Translate WGSL (plus the stride layout dialect) into targets whose buffer
/// layouts are exactly the source's.
///
/// Every buffer layout is computed from the source (WGSL memory layout plus
/// the dialect's @align/@size on structs and aliases, @stride on arrays) and
/// checked against the address-space rules. Errors point at the source
/// member and say how to fix it.
#[derive(Debug, Parser)]
#[command(name = "stride", version, about, long_about = None)]
#[command(
    after_help = "Exit status: 0 success, 1 diagnostics with errors, 2 usage or IO error.\n\
Examples:\n  stride --target spirv shader.wgsl -o shader.spv\n  stride -t hlsl --shader-model 6_2 shader.wgsl -o shader.hlsl\n  stride -t layout --rules std140,hlsl-cbuffer shader.wgsl\n  stride -t reflect a.wgsl b.wgsl -o out/"
)]
struct Cli {
    /// Input WGSL files; `-` reads standard input. Several inputs are
    /// translated in parallel; output and diagnostics keep input order.
    #[arg(required = true, value_name = "INPUT")]
    inputs: Vec<String>,

    /// What to produce
    #[arg(short, long, value_enum, default_value_t = TargetArg::Spirv)]
    target: TargetArg,

    /// Output file for one input, directory for several (created if
    /// missing; files are named <stem>.spv, <stem>.hlsl, <stem>.slang,
    /// <stem>.layout.txt, <stem>.reflect.json, or
    /// <stem>.<entry>.<vert|frag|comp> for GLSL).
    /// Text targets go to stdout without it. A GLSL module with several
    /// entry points needs a directory (or -e).
    #[arg(short, long, value_name = "PATH")]
    output: Option<PathBuf>,

    /// Only check the inputs (for the chosen target, including what it
    /// cannot express) and print diagnostics; write nothing
    #[arg(long)]
    check: bool,

    /// Color diagnostics
    #[arg(long, value_enum, default_value_t = ColorArg::Auto, value_name = "WHEN")]
    color: ColorArg,

    /// For --target layout: other rule sets to show beside the contract
    /// (comma-separated: std140, std430, scalar, hlsl-cbuffer,
    /// hlsl-structured, wgsl)
    #[arg(long, value_name = "SET[,SET...]", value_delimiter = ',', value_parser = parse_rule_set)]
    rules: Vec<RuleSet>,

    /// SPIR-V version to emit, 1.0 to 1.6
    #[arg(long, value_name = "MAJOR.MINOR", default_value = "1.3", value_parser = parse_spirv_version)]
    spirv_version: (u8, u8),

    /// GLSL dialect: vulkan450 (sets and bindings, separate samplers,
    /// specialization constants), gl430, gl440, gl450, gl460 (bindings
    /// allocated per resource kind, combined samplers), es310, es320
    /// (no offset qualifiers: layouts by padding members only)
    /// [default: vulkan450]
    #[arg(long, value_name = "DIALECT", value_parser = parse_glsl_dialect)]
    glsl: Option<stride::back::glsl::Dialect>,

    /// The entry point to write (GLSL, HLSL, Slang); without it GLSL writes
    /// every entry point to its own file, HLSL and Slang all of them into
    /// one file
    #[arg(short = 'e', long = "entry-point", value_name = "NAME")]
    entry_point: Option<String>,

    /// HLSL shader model: 5_1, 6_0 ... 6_6 (f16 needs 6_2, which compilers
    /// also need -enable-16bit-types for) [default: 6_0]
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

/// A usage or IO error: exit status 2.
struct Fatal(String);

struct Input {
    /// As given on the command line (`<stdin>` for `-`).
    name: String,
    /// File stem used for output names.
    stem: String,
    source: String,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
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

fn run(cli: &Cli, color: bool) -> Result<ExitCode, Fatal> {
    let target: Target = cli.target.into();
    if !cli.rules.is_empty() && target != Target::Layout {
        return Err(Fatal("--rules only applies to --target layout".into()));
    }
    if cli.entry_point.is_some() && !matches!(target, Target::Glsl | Target::Hlsl | Target::Slang) {
        return Err(Fatal(
            "-e/--entry-point only applies to --target glsl, hlsl and slang".into(),
        ));
    }
    if cli.shader_model.is_some() && target != Target::Hlsl {
        return Err(Fatal("--shader-model only applies to --target hlsl".into()));
    }
    if cli.registers.is_some() && !matches!(target, Target::Hlsl | Target::Slang) {
        return Err(Fatal(
            "--registers only applies to --target hlsl and slang".into(),
        ));
    }
    if cli.rust_derive.is_some() && target != Target::Rust {
        return Err(Fatal("--rust-derive only applies to --target rust".into()));
    }
    if cli.glsl.is_some() && target != Target::Glsl {
        return Err(Fatal("--glsl only applies to --target glsl".into()));
    }
    let inputs = read_inputs(&cli.inputs)?;
    let destinations = plan_outputs(cli, target, &inputs)?;

    let options = Options {
        target,
        rules: cli.rules.clone(),
        spirv: stride::back::spirv::SpirvOptions {
            version: cli.spirv_version,
            strip_names: cli.strip_names,
            overrides: cli.overrides.clone(),
        },
        glsl: stride::back::glsl::GlslOptions {
            dialect: cli.glsl.unwrap_or_default(),
            entry_point: cli.entry_point.clone(),
            overrides: cli.overrides.clone(),
        },
        hlsl: stride::back::hlsl::HlslOptions {
            shader_model: cli.shader_model.unwrap_or_default(),
            registers: cli.registers.unwrap_or_default(),
            entry_point: cli.entry_point.clone(),
            overrides: cli.overrides.clone(),
            slang: false,
        },
        host: stride::back::host::HostOptions {
            name: None,
            bytemuck: cli.rust_derive.is_some(),
        },
    };
    let results = translate_all(&inputs, &options, cli.check);

    let mut had_errors = false;
    let mut stdout = std::io::stdout().lock();
    let mut stderr = std::io::stderr().lock();
    for ((input, result), destination) in inputs.iter().zip(results).zip(destinations) {
        let (output, diagnostics) = match result {
            Ok(t) => (Some(t.output), t.warnings),
            Err(diags) => (None, diags),
        };
        if !diagnostics.is_empty() {
            let text = diagnostics.render(&input.name, &input.source, color);
            let _ = stderr.write_all(text.as_bytes());
        }
        had_errors |= diagnostics.has_errors();
        match (output, destination) {
            (Some(_), _) if cli.check => {}
            (Some(Output::Files(files)), destination) => {
                write_files(input, &files, destination, &mut stdout)?
            }
            (Some(output), Dest::File(path)) => write_atomically(&path, &output.to_bytes())?,
            (Some(output), Dest::Dir(dir)) => write_atomically(
                &dir.join(format!("{}.{}", input.stem, target.extension())),
                &output.to_bytes(),
            )?,
            (Some(output), Dest::Stdout) => stdout
                .write_all(&output.to_bytes())
                .map_err(|e| Fatal(format!("cannot write to standard output: {e}")))?,
            (None, Dest::File(path)) => remove_stale(&path)?,
            (None, Dest::Dir(dir)) if target == Target::Glsl => {
                remove_stale_entry_files(&dir, &input.stem)?
            }
            (None, Dest::Dir(dir)) => {
                remove_stale(&dir.join(format!("{}.{}", input.stem, target.extension())))?
            }
            (None, Dest::Stdout) => {}
        }
    }
    let _ = stdout.flush();
    Ok(if had_errors {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn read_inputs(names: &[String]) -> Result<Vec<Input>, Fatal> {
    let mut inputs = Vec::with_capacity(names.len());
    let mut stdin_used = false;
    for name in names {
        if name == "-" {
            if stdin_used {
                return Err(Fatal("`-` (standard input) can be given only once".into()));
            }
            stdin_used = true;
            let mut source = String::new();
            std::io::stdin()
                .read_to_string(&mut source)
                .map_err(|e| Fatal(format!("cannot read standard input: {e}")))?;
            inputs.push(Input {
                name: "<stdin>".into(),
                stem: "stdin".into(),
                source,
            });
        } else {
            let path = Path::new(name);
            let bytes =
                std::fs::read(path).map_err(|e| Fatal(format!("cannot read `{name}`: {e}")))?;
            let source = String::from_utf8(bytes)
                .map_err(|e| Fatal(format!("`{name}` is not UTF-8 text: {e}")))?;
            let stem = path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_else(|| "out".into());
            inputs.push(Input {
                name: name.clone(),
                stem,
                source,
            });
        }
    }
    Ok(inputs)
}

/// Where one input's output goes.
enum Dest {
    Stdout,
    /// This file (one input; for GLSL, one entry point).
    File(PathBuf),
    /// `<dir>/<stem>.<extension>`; for GLSL `<dir>/<stem>.<entry>.<stage>`.
    Dir(PathBuf),
}

/// Where each input's output goes.
fn plan_outputs(cli: &Cli, target: Target, inputs: &[Input]) -> Result<Vec<Dest>, Fatal> {
    let stdout = || inputs.iter().map(|_| Dest::Stdout).collect();
    if cli.check {
        if cli.output.is_some() {
            return Err(Fatal("--check writes nothing; drop -o/--output".into()));
        }
        return Ok(stdout());
    }
    match &cli.output {
        None => {
            if target == Target::Spirv {
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
            if target == Target::Glsl && inputs.len() > 1 {
                return Err(Fatal(
                    "several GLSL outputs cannot share standard output; use -o DIR".into(),
                ));
            }
            Ok(stdout())
        }
        Some(path) if inputs.len() == 1 && !path.is_dir() && !ends_with_separator(path) => {
            Ok(vec![Dest::File(path.clone())])
        }
        Some(dir) => {
            if dir.exists() && !dir.is_dir() {
                return Err(Fatal(format!(
                    "`{}` is a file; with several inputs -o must be a directory",
                    dir.display()
                )));
            }
            std::fs::create_dir_all(dir)
                .map_err(|e| Fatal(format!("cannot create directory `{}`: {e}", dir.display())))?;
            let mut seen = indexmap::IndexMap::new();
            for input in inputs {
                if let Some(first) = seen.insert(input.stem.clone(), input.name.clone()) {
                    return Err(Fatal(format!(
                        "`{first}` and `{}` have the same stem `{}`: their outputs would overwrite each other",
                        input.name, input.stem
                    )));
                }
            }
            Ok(inputs.iter().map(|_| Dest::Dir(dir.clone())).collect())
        }
    }
}

fn ends_with_separator(path: &Path) -> bool {
    path.as_os_str()
        .to_string_lossy()
        .ends_with(std::path::is_separator)
}

/// Write a several-file output (GLSL: one file per entry point). To a
/// file or standard output only when there is exactly one.
fn write_files(
    input: &Input,
    files: &[stride::OutputFile],
    destination: Dest,
    stdout: &mut impl Write,
) -> Result<(), Fatal> {
    let single = || -> Result<&stride::OutputFile, Fatal> {
        match files {
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
        Dest::Stdout => stdout
            .write_all(single()?.text.as_bytes())
            .map_err(|e| Fatal(format!("cannot write to standard output: {e}"))),
        Dest::File(path) => write_atomically(&path, single()?.text.as_bytes()),
        Dest::Dir(dir) => {
            for f in files {
                let path = dir.join(format!("{}.{}", input.stem, f.suffix));
                write_atomically(&path, f.text.as_bytes())?;
            }
            Ok(())
        }
    }
}

/// After a failed GLSL translation: remove `<stem>.<entry>.<stage>` files an
/// earlier run left in `dir`.
fn remove_stale_entry_files(dir: &Path, stem: &str) -> Result<(), Fatal> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Ok(());
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(rest) = name.strip_prefix(stem).and_then(|r| r.strip_prefix('.')) else {
            continue;
        };
        let Some((entry_name, stage)) = rest.split_once('.') else {
            continue;
        };
        let is_identifier = !entry_name.is_empty()
            && entry_name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_');
        if is_identifier && matches!(stage, "vert" | "frag" | "comp") {
            remove_stale(&entry.path())?;
        }
    }
    Ok(())
}

/// Translate every input, in parallel with one worker per core. Results
/// come back in input order.
fn translate_all(
    inputs: &[Input],
    options: &Options,
    check_only: bool,
) -> Vec<Result<stride::Translation, Diagnostics>> {
    // --check runs the whole translation, so that it reports what the
    // target cannot express too, and drops the output.
    let one = |input: &Input| {
        let named;
        let options = if matches!(options.target, Target::C) {
            // The header's include guard carries the input's stem.
            named = Options {
                host: stride::back::host::HostOptions {
                    name: Some(input.stem.clone()),
                    ..options.host.clone()
                },
                ..options.clone()
            };
            &named
        } else {
            options
        };
        stride::translate(&input.source, options).map(|t| {
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
    let workers = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
        .min(inputs.len());
    if workers <= 1 {
        return inputs.iter().map(one).collect();
    }
    let slots: Vec<Mutex<Option<Result<stride::Translation, Diagnostics>>>> =
        inputs.iter().map(|_| Mutex::new(None)).collect();
    let next = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(input) = inputs.get(i) else { break };
                let result = one(input);
                if let Ok(mut slot) = slots[i].lock() {
                    *slot = Some(result);
                }
            });
        }
    });
    slots
        .into_iter()
        .zip(inputs)
        .map(|(slot, input)| {
            slot.into_inner().ok().flatten().unwrap_or_else(|| {
                Err(stride::Diagnostic::internal(format!(
                    "internal error: the translation of `{}` did not finish",
                    input.name
                ))
                .into())
            })
        })
        .collect()
}

/// Write through a temporary file in the same folder, then rename, so that
/// readers never see a partial file.
fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), Fatal> {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "out".into());
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let result = std::fs::File::create(&tmp)
        .and_then(|mut f| {
            f.write_all(bytes)?;
            f.sync_all()
        })
        .and_then(|()| std::fs::rename(&tmp, path));
    result.map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        Fatal(format!("cannot write `{}`: {e}", path.display()))
    })
}

/// A failed translation leaves no stale output from an earlier run behind.
fn remove_stale(path: &Path) -> Result<(), Fatal> {
    match std::fs::remove_file(path) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(Fatal(format!(
            "cannot remove stale output `{}`: {e}",
            path.display()
        ))),
    }
}
