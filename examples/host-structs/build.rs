//! Writes the host structs of `shaders/lights.wgsl` to `$OUT_DIR/lights.rs`,
//! which `src/main.rs` includes. A layout error fails the build with
//! stride's diagnostic, pointing at the WGSL member.

use std::path::PathBuf;

fn main() {
    let input = "shaders/lights.wgsl";
    println!("cargo:rerun-if-changed={input}");
    let source = match std::fs::read_to_string(input) {
        Ok(s) => s,
        Err(e) => fail(&format!("cannot read {input}: {e}")),
    };
    let options = stride::Options {
        target: stride::Target::Rust,
        host: stride::back::host::HostOptions {
            name: Some("lights".into()),
            ..Default::default()
        },
        ..Default::default()
    };
    let translation = match stride::translate(&source, &options) {
        Ok(t) => t,
        Err(diagnostics) => fail(&diagnostics.render(input, &source, false)),
    };
    for warning in translation.warnings.iter() {
        println!("cargo:warning={}", warning.message);
    }
    let stride::Output::Text(module) = translation.output else {
        fail("--target rust gave no text");
    };
    let out = PathBuf::from(std::env::var_os("OUT_DIR").unwrap_or_default()).join("lights.rs");
    if let Err(e) = std::fs::write(&out, module) {
        fail(&format!("cannot write {}: {e}", out.display()));
    }
}

fn fail(message: &str) -> ! {
    eprintln!("{message}");
    std::process::exit(1);
}
