//! In-process timing, per corpus file, stride against naga in the same run.
//!
//! Whole pipelines, from WGSL text to output:
//!
//! - `spirv`: `stride::translate` with `Target::Spirv` (scan, dialect, naga
//!   parse, layout IR, checks, validation, SPIR-V writer) against
//!   `naga::front::wgsl::parse_str` on the standard WGSL (dialect text
//!   blanked, so dialect files work), `Validator::validate` and
//!   `naga::back::spv::write_vec`, with the same validation flags, SPIR-V
//!   version and debug names as stride.
//! - `glsl`: `stride::translate` with `Target::Glsl` (Vulkan GLSL 4.50, every
//!   entry point) against naga's parse, validation and its GLSL writer run
//!   once per entry point (desktop GLSL 4.50, same bounds-check policies).
//! - `hlsl`: `stride::translate` with `Target::Hlsl` (shader model 6.0, every
//!   entry point in one file) against naga's parse, validation and HLSL
//!   writer (shader model 6.0, every entry point).
//!
//! From a parsed module to output; both sides validate the module, since
//! each writer needs naga's `ModuleInfo` (naga's validation also computes
//! naga's own layouts):
//!
//! - `glsl-backend`: stride's layout IR (built and checked, as
//!   `stride::translate` does) and `stride::back::write_text` (GLSL) on stride's
//!   parsed module, against naga's validation and GLSL writer on naga's
//!   module.
//! - `hlsl-backend`: the same with `stride::back::write_text` (HLSL) against
//!   naga's validation and HLSL writer.
//! - `glsl-writer`, `hlsl-writer`: the writers alone: as the `-backend`
//!   sections, with stride's layout IR built once before timing.
//!
//! Each number is a median over many runs. The two sides of a file are
//! timed interleaved (stride, naga, naga, stride, ...), so a change in the
//! machine's speed during the run affects both alike. `cargo bench --bench
//! pipeline` runs every section, `-- --bench NAME` one of them; under
//! `cargo test --all-targets` (no `--bench` argument) every file runs once,
//! as a smoke test.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use stride::{Options, Target};

#[path = "common/shared.rs"]
mod shared;
use shared::{
    corpus_inputs, naga_glsl_writer, naga_hlsl_writer, naga_spirv_writer, stride_backend,
    stride_layout, stride_write,
};

/// Time budget per file and section (both sides together), so that the
/// whole bench stays around two minutes on a small machine.
const BUDGET_PER_FILE: Duration = Duration::from_millis(400);
const MIN_RUNS: usize = 5;
const MAX_RUNS: usize = 2000;

fn naga_glsl_reference(standard: &str) -> Result<Vec<String>, String> {
    let module = naga::front::wgsl::parse_str(standard).map_err(|e| e.to_string())?;
    naga_glsl_writer(&module)
}

fn naga_hlsl_reference(standard: &str) -> Result<String, String> {
    let module = naga::front::wgsl::parse_str(standard).map_err(|e| e.to_string())?;
    naga_hlsl_writer(&module)
}

/// One timed case: stride's side and naga's side of one corpus file.
struct Case {
    stride: Box<dyn Fn()>,
    naga: Box<dyn Fn()>,
}

/// Median times of `a` and `b`, run interleaved (in alternating order)
/// over enough runs to fill the budget.
fn paired_medians(quick: bool, a: &dyn Fn(), b: &dyn Fn()) -> (Duration, Duration) {
    let time = |f: &dyn Fn()| {
        let t = Instant::now();
        f();
        t.elapsed()
    };
    let first = (time(a), time(b));
    if quick {
        return first;
    }
    let per_run = (first.0 + first.1).max(Duration::from_nanos(100));
    let runs =
        ((BUDGET_PER_FILE.as_nanos() / per_run.as_nanos()) as usize).clamp(MIN_RUNS, MAX_RUNS);
    // Warm up caches and the allocator.
    for _ in 0..runs.min(3) {
        a();
        b();
    }
    let mut ta = Vec::with_capacity(runs);
    let mut tb = Vec::with_capacity(runs);
    for i in 0..runs {
        if i % 2 == 0 {
            ta.push(time(a));
            tb.push(time(b));
        } else {
            tb.push(time(b));
            ta.push(time(a));
        }
    }
    ta.sort();
    tb.sort();
    (ta[runs / 2], tb[runs / 2])
}

fn micros(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

const SECTIONS: [&str; 7] = [
    "spirv",
    "glsl",
    "hlsl",
    "glsl-backend",
    "hlsl-backend",
    "glsl-writer",
    "hlsl-writer",
];

fn main() {
    // naga's writers panic on some inputs (caught and listed as skipped).
    std::panic::set_hook(Box::new(|_| {}));
    let quick = !std::env::args().any(|a| a == "--bench");
    let only: Option<String> = std::env::args()
        .skip(1)
        .find(|a| SECTIONS.contains(&a.as_str()));
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut inputs = Vec::new();
    corpus_inputs(&root.join("corpus"), &mut inputs);
    inputs.sort();
    let started = Instant::now();
    for name in SECTIONS {
        if only.as_deref().is_none_or(|o| o == name) {
            section(&root, &inputs, quick, name);
        }
    }
    println!("bench time: {:.1} s", started.elapsed().as_secs_f64());
}

/// The case of `source` in section `name`, or why it is skipped: only files
/// that stride translates and naga's side handles are timed.
fn prepare(name: &str, source: String) -> Result<Case, String> {
    let target = match name {
        "spirv" => Target::Spirv,
        "glsl" | "glsl-backend" | "glsl-writer" => Target::Glsl,
        _ => Target::Hlsl,
    };
    let options = Options {
        target,
        ..Default::default()
    };
    if stride::translate(&source, &options).is_err() {
        return Err("stride reports errors".to_string());
    }
    let parsed = stride::front::parse(&source).map_err(|_| "front end fails".to_string())?;
    let standard = parsed.standard.clone();
    let guarded = |f: &dyn Fn() -> Result<(), String>| match std::panic::catch_unwind(
        std::panic::AssertUnwindSafe(f),
    ) {
        Ok(Ok(())) => Ok(()),
        Ok(Err(e)) => Err(format!("naga reference fails: {e}")),
        Err(_) => Err("naga reference panics; stride works around it".to_string()),
    };
    let whole = |naga: fn(&str) -> Result<(), String>| -> Result<Case, String> {
        guarded(&|| naga(&standard))?;
        let standard = standard.clone();
        let source = source.clone();
        let options = options.clone();
        Ok(Case {
            stride: Box::new(move || {
                std::hint::black_box(
                    stride::translate(std::hint::black_box(&source), &options).is_ok(),
                );
            }),
            naga: Box::new(move || {
                let _ = std::hint::black_box(naga(std::hint::black_box(&standard)));
            }),
        })
    };
    match name {
        "spirv" => whole(|s| {
            let module = naga::front::wgsl::parse_str(s).map_err(|e| e.to_string())?;
            naga_spirv_writer(&module).map(|_| ())
        }),
        "glsl" => whole(|s| naga_glsl_reference(s).map(|_| ())),
        "hlsl" => whole(|s| naga_hlsl_reference(s).map(|_| ())),
        _ => {
            let module = naga::front::wgsl::parse_str(&standard).map_err(|e| e.to_string())?;
            let glsl = name.starts_with("glsl");
            guarded(&|| {
                if glsl {
                    naga_glsl_writer(&module).map(|_| ())
                } else {
                    naga_hlsl_writer(&module).map(|_| ())
                }
            })?;
            let contract = stride_layout(&parsed).ok_or("stride's layout fails")?;
            if !stride_write(&parsed, &contract, &options, glsl) {
                return Err("stride's writer fails".to_string());
            }
            // `-backend`: the layout IR is built on every run; `-writer`:
            // once, here.
            let backend = name.ends_with("-backend");
            Ok(Case {
                stride: Box::new(move || {
                    let ok = if backend {
                        stride_backend(&parsed, &options, glsl)
                    } else {
                        stride_write(&parsed, &contract, &options, glsl)
                    };
                    std::hint::black_box(ok);
                }),
                naga: Box::new(move || {
                    let ok = if glsl {
                        naga_glsl_writer(&module).is_ok()
                    } else {
                        naga_hlsl_writer(&module).is_ok()
                    };
                    std::hint::black_box(ok);
                }),
            })
        }
    }
}

/// Time every input of section `name` that both sides translate.
fn section(root: &Path, inputs: &[PathBuf], quick: bool, name: &str) {
    println!("== {name}: stride against naga ==");
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
        let file = input
            .strip_prefix(root)
            .unwrap_or(input)
            .to_string_lossy()
            .replace('\\', "/");
        let Ok(source) = std::fs::read_to_string(input) else {
            skipped.push(format!("{file} (unreadable)"));
            continue;
        };
        let case = match prepare(name, source) {
            Ok(case) => case,
            Err(why) => {
                skipped.push(format!("{file} ({why})"));
                continue;
            }
        };
        let (t_stride, t_naga) = paired_medians(quick, &*case.stride, &*case.naga);
        let ratio = t_stride.as_secs_f64() / t_naga.as_secs_f64().max(1e-12);
        println!(
            "{:<48} {:>12.1} {:>12.1} {:>7.2}x",
            file,
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
        println!("no corpus file translates to {name} with both: nothing timed");
        return;
    }
    println!(
        "{name}: {timed} files{}: stride {:.1} us, naga {:.1} us in total",
        if quick {
            " (single runs: smoke test, pass --bench for timings)"
        } else {
            " (medians)"
        },
        micros(sum_stride),
        micros(sum_naga)
    );
    println!(
        "{name}: overall ratio (sum stride / sum naga): {:.2}x",
        sum_stride.as_secs_f64() / sum_naga.as_secs_f64().max(1e-12)
    );
    println!(
        "{name}: geometric mean of per-file ratios:     {:.2}x",
        (log_ratio_sum / timed as f64).exp()
    );
    println!();
}
