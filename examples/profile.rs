//! A profiling harness for the GLSL and HLSL writers and the front end:
//! heap allocations per pass, time per pass, and one function to point
//! callgrind at.
//!
//! ```text
//! cargo build --release --example profile
//! target/release/examples/profile SIDE [PASSES [REPEAT]]
//! valgrind --tool=callgrind --toggle-collect='profile::measured' \
//!     target/release/examples/profile SIDE 2
//! ```
//!
//! SIDE is one of:
//!
//! - `stride-glsl`, `naga-glsl`: naga's validation and
//!   `stride::back::write_text` (GLSL) (Vulkan GLSL 4.50, every entry point) on
//!   stride's parsed module and layout, against
//!   naga's validation plus its GLSL writer (desktop 4.50, once per entry
//!   point), as the bench's `glsl-writer` section times them;
//! - `stride-hlsl`, `naga-hlsl`: the same for HLSL (shader model 6.0, every
//!   entry point), the bench's `hlsl-writer`;
//! - `stride-glsl-backend`, `stride-hlsl-backend`: stride's layout IR (built
//!   and checked) and then the writer, against the same naga sides, as the
//!   bench's `glsl-backend` and `hlsl-backend` sections time them;
//! - `stride-front`, `naga-parse`: `stride::front::parse` (scanner, dialect,
//!   naga's parser, bindings) against naga's parser on the same standard
//!   WGSL text;
//! - `stride-glsl-whole`, `naga-glsl-whole`, `stride-hlsl-whole`,
//!   `naga-hlsl-whole`, `stride-spirv-whole`, `naga-spirv-whole`: the whole
//!   pipeline from WGSL text, `stride::translate` against naga's parser,
//!   validation and writer, as the bench's `glsl`, `hlsl` and `spirv`
//!   sections time them.
//!
//! The inputs are the corpus files the bench times for that comparison:
//! those that stride translates and that naga's side handles. PASSES (default
//! 100) passes over all of them are run after the setup; the harness prints
//! the number of heap allocations, reallocations and bytes requested per
//! pass (counted by a wrapping global allocator, so deterministic) and the
//! mean wall time per pass. With REPEAT (default 1), every file is run
//! REPEAT times in a row, as the bench does, instead of once per pass; the
//! figures are still per pass over the files. With `PROFILE_FILTER=TEXT` in
//! the environment, only the corpus files whose path contains TEXT are used. Only [`measured`] runs the passes, so
//! callgrind's `--toggle-collect` on it leaves the setup out.
//!
//! Allocation counts are a deterministic progress measure where wall
//! times are noisy: glibc's malloc, free and realloc were about 30% of the
//! GLSL writer's instructions when its expressions were still printed into
//! a `String` per level.

use std::alloc::{GlobalAlloc, Layout, System};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::time::Instant;

use stride::{Options, Target};

#[path = "../benches/common/shared.rs"]
mod shared;
use shared::{
    corpus_inputs, naga_glsl_writer, naga_hlsl_writer, naga_spirv_writer, stride_backend,
    stride_write,
};

static ALLOCS: AtomicUsize = AtomicUsize::new(0);
static REALLOCS: AtomicUsize = AtomicUsize::new(0);
static BYTES: AtomicUsize = AtomicUsize::new(0);

/// The system allocator, counting the calls made to it.
struct Counting;

// SAFETY: every call is forwarded unchanged to `System`, which upholds the
// `GlobalAlloc` contract; the counters are plain atomics.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCS.fetch_add(1, Relaxed);
        BYTES.fetch_add(layout.size(), Relaxed);
        // SAFETY: the caller's guarantees are passed on unchanged.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's guarantees are passed on unchanged.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        REALLOCS.fetch_add(1, Relaxed);
        BYTES.fetch_add(new_size.saturating_sub(layout.size()), Relaxed);
        // SAFETY: the caller's guarantees are passed on unchanged.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// One corpus file, ready for either side of a writer comparison.
struct Case {
    parsed: stride::front::Parsed,
    contract: stride::layout::LayoutModule,
    /// naga's own parse of the same standard text.
    module: naga::Module,
}

/// One corpus file for the front-end comparison.
struct Source {
    wgsl: String,
    /// The standard WGSL naga parses (dialect text blanked).
    standard: String,
}

/// Whether `f` returns true without panicking (naga's writers panic on a
/// few inputs).
fn works(f: impl FnOnce() -> bool) -> bool {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).unwrap_or(false)
}

/// The writer cases for `target`, as the bench selects them.
fn writer_cases(files: &[(PathBuf, String)], target: Target) -> Vec<Case> {
    let options = Options {
        target,
        ..Default::default()
    };
    let mut cases = Vec::new();
    for (_, source) in files {
        if stride::translate(source, &options).is_err() {
            continue;
        }
        let Ok(parsed) = stride::front::parse(source) else {
            continue;
        };
        let Ok(module) = naga::front::wgsl::parse_str(&parsed.standard) else {
            continue;
        };
        let Ok(contract) = stride::layout::build(&parsed, stride::RuleSet::Wgsl) else {
            continue;
        };
        let naga_works = match target {
            Target::Glsl => works(|| naga_glsl_writer(&module).is_ok()),
            _ => works(|| naga_hlsl_writer(&module).is_ok()),
        };
        if naga_works {
            cases.push(Case {
                parsed,
                contract,
                module,
            });
        }
    }
    cases
}

/// The front-end cases: files stride parses and naga parses too.
fn front_sources(files: &[(PathBuf, String)]) -> Vec<Source> {
    files
        .iter()
        .filter_map(|(_, wgsl)| {
            let parsed = stride::front::parse(wgsl).ok()?;
            naga::front::wgsl::parse_str(&parsed.standard).ok()?;
            Some(Source {
                wgsl: wgsl.clone(),
                standard: parsed.standard,
            })
        })
        .collect()
}

/// The whole-pipeline cases for `target`: files stride translates and
/// naga parses and writes, as the bench's glsl, hlsl and spirv sections
/// select them.
fn whole_sources(files: &[(PathBuf, String)], target: Target) -> Vec<Source> {
    let options = Options {
        target,
        ..Default::default()
    };
    front_sources(files)
        .into_iter()
        .filter(|s| {
            stride::translate(&s.wgsl, &options).is_ok()
                && works(|| {
                    let Ok(module) = naga::front::wgsl::parse_str(&s.standard) else {
                        return false;
                    };
                    match target {
                        Target::Glsl => naga_glsl_writer(&module).is_ok(),
                        Target::Spirv => naga_spirv_writer(&module).is_ok(),
                        _ => naga_hlsl_writer(&module).is_ok(),
                    }
                })
        })
        .collect()
}

/// One pass of `side` over its inputs. The only function callgrind needs
/// to collect.
#[inline(never)]
fn measured(side: &str, cases: &[Case], sources: &[Source], options: &Options, repeat: usize) {
    match side {
        "stride-glsl" => {
            for c in cases.iter().flat_map(|c| std::iter::repeat_n(c, repeat)) {
                let glsl = true;
                std::hint::black_box(stride_write(&c.parsed, &c.contract, options, glsl));
            }
        }
        "stride-hlsl" => {
            for c in cases.iter().flat_map(|c| std::iter::repeat_n(c, repeat)) {
                let glsl = false;
                std::hint::black_box(stride_write(&c.parsed, &c.contract, options, glsl));
            }
        }
        "stride-glsl-backend" | "stride-hlsl-backend" => {
            let glsl = side == "stride-glsl-backend";
            for c in cases.iter().flat_map(|c| std::iter::repeat_n(c, repeat)) {
                std::hint::black_box(stride_backend(&c.parsed, options, glsl));
            }
        }
        "naga-glsl" => {
            for c in cases.iter().flat_map(|c| std::iter::repeat_n(c, repeat)) {
                std::hint::black_box(naga_glsl_writer(&c.module).is_ok());
            }
        }
        "naga-hlsl" => {
            for c in cases.iter().flat_map(|c| std::iter::repeat_n(c, repeat)) {
                std::hint::black_box(naga_hlsl_writer(&c.module).is_ok());
            }
        }
        "stride-front" => {
            for s in sources.iter().flat_map(|s| std::iter::repeat_n(s, repeat)) {
                std::hint::black_box(stride::front::parse(&s.wgsl).is_ok());
            }
        }
        "naga-parse" => {
            for s in sources.iter().flat_map(|s| std::iter::repeat_n(s, repeat)) {
                std::hint::black_box(naga::front::wgsl::parse_str(&s.standard).is_ok());
            }
        }
        "stride-glsl-whole" | "stride-hlsl-whole" | "stride-spirv-whole" => {
            for s in sources.iter().flat_map(|s| std::iter::repeat_n(s, repeat)) {
                std::hint::black_box(stride::translate(&s.wgsl, options).is_ok());
            }
        }
        "naga-glsl-whole" => {
            for s in sources.iter().flat_map(|s| std::iter::repeat_n(s, repeat)) {
                let module = naga::front::wgsl::parse_str(&s.standard);
                std::hint::black_box(module.is_ok_and(|m| naga_glsl_writer(&m).is_ok()));
            }
        }
        "naga-hlsl-whole" => {
            for s in sources.iter().flat_map(|s| std::iter::repeat_n(s, repeat)) {
                let module = naga::front::wgsl::parse_str(&s.standard);
                std::hint::black_box(module.is_ok_and(|m| naga_hlsl_writer(&m).is_ok()));
            }
        }
        "naga-spirv-whole" => {
            for s in sources.iter().flat_map(|s| std::iter::repeat_n(s, repeat)) {
                let module = naga::front::wgsl::parse_str(&s.standard);
                std::hint::black_box(module.is_ok_and(|m| naga_spirv_writer(&m).is_ok()));
            }
        }
        _ => {}
    }
}

const SIDES: [&str; 14] = [
    "stride-glsl",
    "naga-glsl",
    "stride-hlsl",
    "naga-hlsl",
    "stride-glsl-backend",
    "stride-hlsl-backend",
    "stride-front",
    "naga-parse",
    "stride-glsl-whole",
    "naga-glsl-whole",
    "stride-hlsl-whole",
    "naga-hlsl-whole",
    "stride-spirv-whole",
    "naga-spirv-whole",
];

/// A count argument: `default` when absent, `None` (after saying why) when
/// it is not a positive number.
fn positive(arg: Option<String>, default: usize, what: &str) -> Option<usize> {
    match arg.map(|a| a.parse()) {
        None => Some(default),
        Some(Ok(n)) if n > 0 => Some(n),
        Some(_) => {
            eprintln!("{what} must be a positive number");
            None
        }
    }
}

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let side = args.next().unwrap_or_default();
    if !SIDES.contains(&side.as_str()) {
        eprintln!(
            "usage: profile SIDE [PASSES [REPEAT]]; SIDE is one of {}",
            SIDES.join(", ")
        );
        return ExitCode::from(2);
    }
    let (Some(passes), Some(repeat)) = (
        positive(args.next(), 100, "PASSES"),
        positive(args.next(), 1, "REPEAT"),
    ) else {
        return ExitCode::from(2);
    };
    // naga's writers panic on a few corpus files; those are left out.
    std::panic::set_hook(Box::new(|_| {}));

    let mut paths = Vec::new();
    corpus_inputs(
        &PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("corpus"),
        &mut paths,
    );
    paths.sort();
    // `PROFILE_FILTER=TEXT` keeps only the files whose path contains TEXT.
    if let Ok(filter) = std::env::var("PROFILE_FILTER") {
        paths.retain(|p| p.to_string_lossy().contains(filter.as_str()));
    }
    let files: Vec<(PathBuf, String)> = paths
        .into_iter()
        .filter_map(|p| std::fs::read_to_string(&p).ok().map(|s| (p, s)))
        .collect();
    let (cases, sources) = match side.as_str() {
        "stride-glsl" | "naga-glsl" | "stride-glsl-backend" => {
            (writer_cases(&files, Target::Glsl), Vec::new())
        }
        "stride-hlsl" | "naga-hlsl" | "stride-hlsl-backend" => {
            (writer_cases(&files, Target::Hlsl), Vec::new())
        }
        "stride-glsl-whole" | "naga-glsl-whole" => {
            (Vec::new(), whole_sources(&files, Target::Glsl))
        }
        "stride-hlsl-whole" | "naga-hlsl-whole" => {
            (Vec::new(), whole_sources(&files, Target::Hlsl))
        }
        "stride-spirv-whole" | "naga-spirv-whole" => {
            (Vec::new(), whole_sources(&files, Target::Spirv))
        }
        _ => (Vec::new(), front_sources(&files)),
    };
    let options = Options {
        target: if side.contains("hlsl") {
            Target::Hlsl
        } else if side.contains("spirv") {
            Target::Spirv
        } else {
            Target::Glsl
        },
        ..Default::default()
    };

    let before = (
        ALLOCS.load(Relaxed),
        REALLOCS.load(Relaxed),
        BYTES.load(Relaxed),
    );
    let started = Instant::now();
    for _ in 0..passes {
        measured(&side, &cases, &sources, &options, repeat);
    }
    let elapsed = started.elapsed();
    let per_pass = |now: usize, then: usize| (now - then) / (passes * repeat);
    println!(
        "{side}: {} files, {passes} passes",
        cases.len().max(sources.len())
    );
    println!(
        "per pass: {} allocations, {} reallocations, {} bytes, {:.1} us",
        per_pass(ALLOCS.load(Relaxed), before.0),
        per_pass(REALLOCS.load(Relaxed), before.1),
        per_pass(BYTES.load(Relaxed), before.2),
        elapsed.as_secs_f64() * 1e6 / (passes * repeat) as f64
    );
    ExitCode::SUCCESS
}
