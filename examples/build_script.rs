//! The README's cargo build script recipe, compiled with the other
//! examples so that it stays correct. As `build.rs` of a crate with
//! `[build-dependencies] stride = { version = "0.1", default-features = false }`
//! it translates `shaders/*.wgsl` into `$OUT_DIR/<stem>.spv`; run here
//! (`cargo run --example build_script -- SHADERS OUT`) it does the same
//! with the two folders given.

use std::path::{Path, PathBuf};

fn main() {
    let mut args = std::env::args_os().skip(1).map(PathBuf::from);
    let shaders = args.next().unwrap_or_else(|| "shaders".into());
    let out_dir = args
        .next()
        .or_else(|| std::env::var_os("OUT_DIR").map(PathBuf::from))
        .expect("cargo sets OUT_DIR for a build script");
    if let Err(message) = build(&shaders, &out_dir) {
        // A build script fails by panicking; cargo shows the message.
        panic!("{message}");
    }
}

fn build(shaders: &Path, out_dir: &Path) -> Result<(), String> {
    // Run again when a shader is added or removed ...
    println!("cargo:rerun-if-changed={}", shaders.display());
    let entries = std::fs::read_dir(shaders).map_err(|e| e.to_string())?;
    for entry in entries {
        let path = entry.map_err(|e| e.to_string())?.path();
        if path.extension().is_none_or(|e| e != "wgsl") {
            continue;
        }
        // ... or changed.
        println!("cargo:rerun-if-changed={}", path.display());
        let source = std::fs::read_to_string(&path).map_err(|e| e.to_string())?;
        let options = stride::Options {
            target: stride::Target::Spirv,
            ..Default::default()
        };
        let name = path.display().to_string();
        let translation = stride::translate(&source, &options)
            .map_err(|diagnostics| diagnostics.render(&name, &source, false))?;
        for warning in translation.warnings.render(&name, &source, false).lines() {
            println!("cargo:warning={warning}");
        }
        let stem = path.file_stem().unwrap_or_default().to_string_lossy();
        let out = out_dir.join(format!("{stem}.spv"));
        std::fs::write(&out, translation.output.to_bytes()).map_err(|e| e.to_string())?;
    }
    Ok(())
}
