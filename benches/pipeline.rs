//! In-process timing of whole pipelines, per corpus file, stride against
//! naga in the same run:
//!
//! - SPIR-V: `stride::translate` with `Target::Spirv` (scan, dialect, naga
//!   parse, layout IR, checks, validation, SPIR-V writer) against
//!   `naga::front::wgsl::parse_str` on the standard WGSL (dialect text
//!   blanked, so dialect files work), `Validator::validate` and
//!   `naga::back::spv::write_vec`, with the same validation flags, SPIR-V
//!   version and debug names as stride.
//! - GLSL: `stride::translate` with `Target::Glsl` (Vulkan GLSL 4.50, every
//!   entry point) against naga's parse, validation and its GLSL writer run
//!   once per entry point (desktop GLSL 4.50, same bounds-check policies).
//!
//! Each number is the median of many runs. `cargo bench --bench pipeline`
//! runs it; under `cargo test --all-targets` (no `--bench` argument) every
//! file runs once, as a smoke test.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use stride::{Options, Target};

/// Time budget per file and pipeline, so that the whole bench stays under a
/// minute on a small machine.
const BUDGET_PER_FILE: Duration = Duration::from_millis(200);
const MIN_RUNS: usize = 5;
const MAX_RUNS: usize = 2000;

fn corpus_inputs(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            corpus_inputs(&path, out);
        } else if path.extension().is_some_and(|e| e == "wgsl") {
            out.push(path);
        }
    }
}

fn naga_reference(standard: &str) -> Result<Vec<u32>, String> {
    let module = naga::front::wgsl::parse_str(standard).map_err(|e| e.to_string())?;
    let flags = naga::valid::ValidationFlags::all() - naga::valid::ValidationFlags::STRUCT_LAYOUTS;
    let info = naga::valid::Validator::new(flags, naga::valid::Capabilities::all())
        .validate(&module)
        .map_err(|e| e.to_string())?;
    // The same writer options stride uses (debug names, bounds-check
    // policies, SPIR-V 1.3), so the ratio measures stride's own work.
    let options =
        stride::back::spirv::writer_options(&stride::back::spirv::SpirvOptions::default());
    naga::back::spv::write_vec(&module, &info, &options, None).map_err(|e| e.to_string())
}

fn naga_glsl_reference(standard: &str) -> Result<Vec<String>, String> {
    use naga::back::glsl;
    let module = naga::front::wgsl::parse_str(standard).map_err(|e| e.to_string())?;
    let flags = naga::valid::ValidationFlags::all() - naga::valid::ValidationFlags::STRUCT_LAYOUTS;
    let info = naga::valid::Validator::new(flags, naga::valid::Capabilities::all())
        .validate(&module)
        .map_err(|e| e.to_string())?;
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
    let mut files = Vec::new();
    for ep in &module.entry_points {
        let pipeline = glsl::PipelineOptions {
            shader_stage: ep.stage,
            entry_point: ep.name.clone(),
            multiview: None,
        };
        let mut text = String::new();
        glsl::Writer::new(&mut text, &module, &info, &options, &pipeline, policies)
            .and_then(|mut w| w.write())
            .map_err(|e| e.to_string())?;
        files.push(text);
    }
    Ok(files)
}

fn naga_hlsl_reference(standard: &str) -> Result<String, String> {
    use naga::back::hlsl;
    let module = naga::front::wgsl::parse_str(standard).map_err(|e| e.to_string())?;
    let flags = naga::valid::ValidationFlags::all() - naga::valid::ValidationFlags::STRUCT_LAYOUTS;
    let info = naga::valid::Validator::new(flags, naga::valid::Capabilities::all())
        .validate(&module)
        .map_err(|e| e.to_string())?;
    // Shader model 6.0 like stride's default; every entry point in one file.
    let options = hlsl::Options {
        shader_model: hlsl::ShaderModel::V6_0,
        ..Default::default()
    };
    let pipeline = hlsl::PipelineOptions { entry_point: None };
    let mut text = String::new();
    hlsl::Writer::new(&mut text, &options, &pipeline)
        .write(&module, &info, None)
        .map_err(|e| e.to_string())?;
    Ok(text)
}

fn stride_pipeline(source: &str, options: &Options) -> bool {
    stride::translate(source, options).is_ok()
}

/// Median time of `f` over enough runs to fill the budget.
fn median_time(quick: bool, mut f: impl FnMut()) -> Duration {
    let start = Instant::now();
    f();
    let first = start.elapsed();
    if quick {
        return first;
    }
    let per_run = first.max(Duration::from_nanos(100));
    let runs =
        ((BUDGET_PER_FILE.as_nanos() / per_run.as_nanos()) as usize).clamp(MIN_RUNS, MAX_RUNS);
    // Warm up caches and the allocator.
    for _ in 0..runs.min(3) {
        f();
    }
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .collect();
    times.sort();
    times[times.len() / 2]
}

fn micros(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

fn main() {
    // naga's writers panic on some inputs (caught and listed as skipped).
    std::panic::set_hook(Box::new(|_| {}));
    let quick = !std::env::args().any(|a| a == "--bench");
    let only: Option<String> = std::env::args()
        .skip(1)
        .find(|a| a == "spirv" || a == "glsl" || a == "hlsl");
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut inputs = Vec::new();
    corpus_inputs(&root.join("corpus"), &mut inputs);
    inputs.sort();
    let started = Instant::now();
    let run = |name: &str| only.as_deref().is_none_or(|o| o == name);
    if run("spirv") {
        section(&root, &inputs, quick, Target::Spirv, |standard| {
            naga_reference(standard).map(|_| ())
        });
    }
    if run("glsl") {
        section(&root, &inputs, quick, Target::Glsl, |standard| {
            naga_glsl_reference(standard).map(|_| ())
        });
    }
    if run("hlsl") {
        section(&root, &inputs, quick, Target::Hlsl, |standard| {
            naga_hlsl_reference(standard).map(|_| ())
        });
    }
    println!("bench time: {:.1} s", started.elapsed().as_secs_f64());
}

/// Time every input that both stride and the naga reference translate.
fn section(
    root: &Path,
    inputs: &[PathBuf],
    quick: bool,
    target: Target,
    reference: impl Fn(&str) -> Result<(), String> + std::panic::RefUnwindSafe,
) {
    let options = Options {
        target,
        ..Default::default()
    };
    println!("== {target}: stride against naga ==");
    println!(
        "{:<48} {:>12} {:>12} {:>8}",
        "file", "stride (us)", "naga (us)", "ratio"
    );
    let mut sum_stride = Duration::ZERO;
    let mut sum_naga = Duration::ZERO;
    let mut log_ratio_sum = 0.0f64;
    let mut timed = 0usize;
    let mut skipped = Vec::new();
    for input in inputs {
        let name = input
            .strip_prefix(root)
            .unwrap_or(input)
            .to_string_lossy()
            .replace('\\', "/");
        let Ok(source) = std::fs::read_to_string(input) else {
            skipped.push(format!("{name} (unreadable)"));
            continue;
        };
        // Only files that translate, and whose standard WGSL naga handles.
        if !stride_pipeline(&source, &options) {
            skipped.push(format!("{name} (stride reports errors)"));
            continue;
        }
        let standard = match stride::front::parse(&source) {
            Ok(p) => p.standard,
            Err(_) => {
                skipped.push(format!("{name} (front end fails)"));
                continue;
            }
        };
        match std::panic::catch_unwind(|| reference(&standard)) {
            Ok(Ok(())) => {}
            Ok(Err(e)) => {
                skipped.push(format!("{name} (naga reference fails: {e})"));
                continue;
            }
            Err(_) => {
                skipped.push(format!(
                    "{name} (naga reference panics; stride works around it)"
                ));
                continue;
            }
        }
        let t_stride = median_time(quick, || {
            std::hint::black_box(stride_pipeline(std::hint::black_box(&source), &options));
        });
        let t_naga = median_time(quick, || {
            let _ = std::hint::black_box(reference(std::hint::black_box(&standard)));
        });
        let ratio = t_stride.as_secs_f64() / t_naga.as_secs_f64().max(1e-12);
        println!(
            "{:<48} {:>12.1} {:>12.1} {:>7.2}x",
            name,
            micros(t_stride),
            micros(t_naga),
            ratio
        );
        sum_stride += t_stride;
        sum_naga += t_naga;
        log_ratio_sum += ratio.ln();
        timed += 1;
    }
    println!();
    for s in &skipped {
        println!("skipped: {s}");
    }
    if timed == 0 {
        println!("no corpus file translates to {target} with both: nothing timed");
        return;
    }
    println!(
        "{target}: {timed} files{}: stride {:.1} us, naga {:.1} us in total",
        if quick {
            " (single runs: smoke test, pass --bench for timings)"
        } else {
            " (medians)"
        },
        micros(sum_stride),
        micros(sum_naga)
    );
    println!(
        "{target}: overall ratio (sum stride / sum naga): {:.2}x",
        sum_stride.as_secs_f64() / sum_naga.as_secs_f64().max(1e-12)
    );
    println!(
        "{target}: geometric mean of per-file ratios:     {:.2}x",
        (log_ratio_sum / timed as f64).exp()
    );
    println!();
}
