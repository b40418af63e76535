//! The README's make and ninja recipes, run as written there on a small
//! tree: a first build makes every output, a changed input rebuilds its
//! output (and only it), and a build with nothing changed does nothing.
//! Output mtimes are set back explicitly, never by waiting, so that a
//! coarse file-system clock cannot make the test pass or fail by chance.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, SystemTime};

use common::{repo_root, require_tool, temp_dir};

const STRIDE: &str = env!("CARGO_BIN_EXE_stride");

const A: &str = common::PARAMS_SHADER;

const B: &str = common::LIGHTS_SHADER;

/// The first fenced block of `language` in the README.
fn readme_block(language: &str) -> String {
    let readme = std::fs::read_to_string(repo_root().join("README.md")).unwrap_or_default();
    let fence = format!("```{language}\n");
    let Some(start) = readme.find(&fence) else {
        panic!("README.md has no ```{language} block");
    };
    let body = &readme[start + fence.len()..];
    body[..body.find("```").unwrap_or(body.len())].to_string()
}

/// A temp tree with `shaders/a.wgsl`, `shaders/sub/b.wgsl` and the build
/// file.
fn tree(tag: &str, build_file: &str, text: &str) -> PathBuf {
    let dir = temp_dir(tag);
    for (name, source) in [
        ("shaders/a.wgsl", A),
        ("shaders/sub/b.wgsl", B),
        (build_file, text),
    ] {
        let path = dir.join(name);
        if let Some(parent) = path.parent() {
            let _ = std::fs::create_dir_all(parent);
        }
        if let Err(e) = std::fs::write(&path, source) {
            panic!("cannot write {}: {e}", path.display());
        }
    }
    dir
}

fn run(dir: &Path, tool: &str, args: &[&str]) -> Output {
    let output = Command::new(tool)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output();
    match output {
        Ok(o) => o,
        Err(e) => panic!("cannot run {tool}: {e}"),
    }
}

fn ok(o: &Output, what: &str) -> String {
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(o.status.success(), "{what} failed:\n{text}");
    text
}

fn mtime(path: &Path) -> SystemTime {
    match std::fs::metadata(path).and_then(|m| m.modified()) {
        Ok(t) => t,
        Err(e) => panic!("no mtime for {}: {e}", path.display()),
    }
}

/// An edit of `input` (with `text`, its contents change; without, it is
/// only touched) made after `output` was built: `output`'s mtime is set two
/// seconds before `input`'s, rather than waiting for the clock.
fn edit_after(input: &Path, output: &Path, text: Option<&str>) {
    let written = match text {
        Some(text) => std::fs::write(input, text),
        None => std::fs::File::options()
            .write(true)
            .open(input)
            .and_then(|f| f.set_modified(SystemTime::now())),
    };
    if let Err(e) = written {
        panic!("cannot write {}: {e}", input.display());
    }
    let when = mtime(input) - Duration::from_secs(2);
    let set = std::fs::File::options()
        .write(true)
        .open(output)
        .and_then(|f| f.set_modified(when));
    if let Err(e) = set {
        panic!("cannot set the mtime of {}: {e}", output.display());
    }
}

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_default()
}

/// The steps both recipes go through. `build` runs the tool; `up_to_date`
/// tells whether a build would do nothing.
fn exercise(dir: &Path, build: &dyn Fn() -> String, up_to_date: &dyn Fn() -> bool) {
    let (a_in, a_out) = (dir.join("shaders/a.wgsl"), dir.join("out/a.spv"));
    let b_out = dir.join("out/sub/b.spv");

    build();
    assert!(read(&a_out).starts_with(&[0x03, 0x02, 0x23, 0x07]));
    assert!(read(&b_out).starts_with(&[0x03, 0x02, 0x23, 0x07]));
    assert!(up_to_date(), "nothing changed, yet a build would run");

    // An edit: its output is rebuilt, the other one is not touched.
    let (a_before, b_time) = (read(&a_out), mtime(&b_out));
    edit_after(&a_in, &a_out, Some(&A.replace("scale", "gain")));
    assert!(!up_to_date(), "an edited input does not make a build run");
    let log = build();
    assert!(
        log.contains("a.wgsl"),
        "stride did not run for a.wgsl:\n{log}"
    );
    assert!(!log.contains("b.wgsl"), "stride ran for b.wgsl too:\n{log}");
    assert_ne!(read(&a_out), a_before, "out/a.spv was not rebuilt");
    assert_eq!(mtime(&b_out), b_time);
    assert!(up_to_date(), "a build right after a build would run again");

    // Touched, not changed: one more run at most, then up to date again.
    edit_after(&a_in, &a_out, None);
    build();
    assert!(up_to_date(), "a touched input keeps making builds run");
}

#[test]
fn make_recipe_from_the_readme() {
    if !require_tool("make", &["--version"], "make_recipe_from_the_readme") {
        return;
    }
    let dir = tree("recipe-make", "Makefile", &readme_block("make"));
    let stride_var = format!("STRIDE={STRIDE}");
    let make = |args: &[&str]| {
        let mut all = vec!["--no-print-directory", stride_var.as_str()];
        all.extend_from_slice(args);
        run(&dir, "make", &all)
    };
    exercise(
        &dir,
        &|| ok(&make(&[]), "make"),
        // make -q: exit status 0 when every target is up to date.
        &|| make(&["-q"]).status.success(),
    );
    // The depfiles are stride's.
    let deps = String::from_utf8_lossy(&read(&dir.join("out/sub/b.spv.d"))).into_owned();
    assert_eq!(deps, "out/sub/b.spv: shaders/sub/b.wgsl\n");
}

#[test]
fn ninja_recipe_from_the_readme() {
    if !require_tool("ninja", &["--version"], "ninja_recipe_from_the_readme") {
        return;
    }
    let recipe = readme_block("ninja").replace("stride = stride", &format!("stride = {STRIDE}"));
    let dir = tree("recipe-ninja", "build.ninja", &recipe);
    exercise(&dir, &|| ok(&run(&dir, "ninja", &["-v"]), "ninja"), &|| {
        ok(&run(&dir, "ninja", &["-n"]), "ninja -n").contains("no work to do")
    });
    // ninja took the depfiles into its own log (deps = gcc).
    let deps = ok(&run(&dir, "ninja", &["-t", "deps"]), "ninja -t deps");
    assert!(deps.contains("out/a.spv: #deps 1"), "{deps}");
    assert!(deps.contains("shaders/a.wgsl"), "{deps}");
}
