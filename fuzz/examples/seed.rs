//! Fill the seed corpora, `fuzz/corpus/<target>/`: every `.wgsl` file
//! of the repository's corpus/ and modules of the execution test's
//! generator (with the entry point of the `structured` target) for the
//! text targets; tapes of choices for `structured`.
//!
//! Run from the repository root or fuzz/:
//! `cargo run --manifest-path fuzz/Cargo.toml --example seed`

use std::path::{Path, PathBuf};

/// Generated modules (and tapes) per target.
const GENERATED: u64 = 24;
/// Of the generator's seed: the execution test's own, so that the seeds
/// are the modules it runs.
const SEED: u64 = 0x5354_5249_4445_0001;

const TEXT_TARGETS: [&str; 9] = [
    "front",
    "translate_spirv",
    "translate_glsl",
    "translate_hlsl",
    "translate_slang",
    "translate_layout",
    "translate_reflect",
    "translate_c",
    "translate_rust",
];

fn wgsl_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            wgsl_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "wgsl") {
            out.push(path);
        }
    }
}

fn main() -> std::io::Result<()> {
    let fuzz = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut sources = Vec::new();
    wgsl_files(&fuzz.join("../corpus"), &mut sources);
    sources.sort();
    let mut texts: Vec<(String, String)> = Vec::new();
    for path in &sources {
        let name = path.strip_prefix(fuzz.join("../corpus")).unwrap_or(path);
        let name = name.to_string_lossy().replace('/', "_");
        texts.push((name, std::fs::read_to_string(path)?));
    }
    for i in 0..GENERATED {
        let g = stride_fuzz::gen::module(SEED, i);
        texts.push((
            format!("generated_{i}.wgsl"),
            format!("{}{}", g.source, stride_fuzz::ENTRY),
        ));
    }
    for target in TEXT_TARGETS {
        let dir = fuzz.join("corpus").join(target);
        std::fs::create_dir_all(&dir)?;
        for (name, text) in &texts {
            std::fs::write(dir.join(name), text)?;
        }
    }
    // `structured` reads a seed, then a length-prefixed tape of choices.
    let dir = fuzz.join("corpus/structured");
    std::fs::create_dir_all(&dir)?;
    let mut rng = stride_fuzz::gen::Rng::new(SEED);
    for i in 0..GENERATED {
        let len = 32 + rng.below(200) as usize;
        let bytes: Vec<u8> = (0..8 + len).map(|_| rng.below(256) as u8).collect();
        std::fs::write(dir.join(format!("tape_{i}")), bytes)?;
    }
    println!(
        "seeded fuzz/corpus/: {} texts for each of {} targets, {GENERATED} tapes for structured",
        texts.len(),
        TEXT_TARGETS.len()
    );
    Ok(())
}
