//! Host structs (`--target c`, `--target rust`) checked by the host
//! compilers, for every corpus input and the execution test's generated
//! layouts (same seed):
//!
//! - every C header compiles with `cc -std=c11 -Wall -Wextra -Werror` and
//!   as C++17 with `c++ -std=c++17 -Wall -Werror`; its `static_assert`s
//!   check each offset and size against the contract;
//! - a separate C program, written here from the layout IR (not from the
//!   header), prints `offsetof`/`sizeof` of every WGSL member and struct;
//!   the printed numbers must equal the layout IR;
//! - every Rust module compiles with `rustc --edition 2021 -D warnings`
//!   (its `const` asserts check each `offset_of!` and `size_of`), and so
//!   does the `--rust-derive bytemuck` variant, against the bytemuck crate
//!   this package takes as a dev-dependency (features `derive` and
//!   `min_const_generics`, as docs/targets.md tells users): `Pod` derives
//!   only for structs without implicit padding, so this also proves that
//!   every padding byte is a named field.

mod common;
#[path = "exec/gen.rs"]
#[allow(dead_code)]
mod gen;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;

use common::*;
use stride::layout::{LayoutKind, LayoutModule};
use stride::{Options, Output, Target};

/// The execution test's seed and how many of its modules to check.
const SEED: u64 = 0x5354_5249_4445_0001;
const GENERATED: u64 = 300;

struct Module {
    name: String,
    source: String,
}

fn modules() -> Vec<Module> {
    let mut out: Vec<Module> = corpus_inputs()
        .into_iter()
        .filter_map(|p| {
            Some(Module {
                name: display_name(&p),
                source: std::fs::read_to_string(&p).ok()?,
            })
        })
        .collect();
    for i in 0..GENERATED {
        out.push(Module {
            name: format!("generated #{i} (seed {SEED:#x})"),
            source: gen::module(SEED, i).source,
        });
    }
    out
}

fn text(source: &str, target: Target) -> Result<String, String> {
    text_with(
        source,
        &Options {
            target,
            ..Options::default()
        },
    )
}

fn text_with(source: &str, options: &Options) -> Result<String, String> {
    match stride::translate(source, options) {
        Ok(t) => match t.output {
            Output::Text(s) => Ok(s),
            _ => Err("not text".into()),
        },
        Err(d) => Err(d.render("input.wgsl", source, false)),
    }
}

/// The C program that prints every WGSL member's offset and every
/// struct's size, and what it must print (from the layout IR).
fn offsets_program(contract: &LayoutModule, header: &str) -> (String, String) {
    let mut program = format!("#include \"{header}\"\n#include <stdio.h>\nint main(void) {{\n");
    let mut expected = String::new();
    for s in contract.structs.values() {
        let c_name = stride::back::host::c::escape(&s.name);
        let mut tail = None;
        for m in s.members() {
            if let LayoutKind::Array { count: None, .. } = m.layout.kind {
                tail = Some(m.offset);
                continue;
            }
            let field = stride::back::host::c::escape(&m.name);
            let _ = writeln!(
                program,
                "    printf(\"{}.{} %zu\\n\", offsetof({c_name}, {field}));",
                s.name, m.name
            );
            let _ = writeln!(expected, "{}.{} {}", s.name, m.name, m.offset);
        }
        let _ = writeln!(
            program,
            "    printf(\"{} %zu\\n\", sizeof({c_name}));",
            s.name
        );
        let size = tail.or(s.size).unwrap_or(0);
        let _ = writeln!(expected, "{} {size}", s.name);
    }
    program.push_str("    return 0;\n}\n");
    (program, expected)
}

fn run(cmd: &mut Command) -> Result<String, String> {
    match cmd.output() {
        Ok(o) if o.status.success() => Ok(String::from_utf8_lossy(&o.stdout).into_owned()),
        Ok(o) => Err(format!(
            "{:?} failed:\n{}{}",
            cmd,
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        )),
        Err(e) => Err(format!("{cmd:?}: {e}")),
    }
}

/// Compile and check one module's C header; the number of members compared.
fn check_c(
    dir: &Path,
    index: usize,
    contract: &LayoutModule,
    header: &str,
) -> Result<usize, String> {
    let h = format!("m{index}.h");
    std::fs::write(dir.join(&h), header).map_err(|e| e.to_string())?;
    let (program, expected) = offsets_program(contract, &h);
    let c = dir.join(format!("m{index}.c"));
    std::fs::write(&c, &program).map_err(|e| e.to_string())?;
    let exe = dir.join(format!("m{index}"));
    run(Command::new("cc")
        .args(["-std=c11", "-Wall", "-Wextra", "-Werror", "-o"])
        .arg(&exe)
        .arg(&c))?;
    cxx_syntax(&c)?;
    let printed = run(&mut Command::new(&exe))?;
    if printed != expected {
        return Err(format!(
            "offsetof/sizeof differ from the layout IR:\nprinted:\n{printed}\nlayout IR:\n{expected}"
        ));
    }
    Ok(expected.lines().count())
}

/// The C program `c` compiles as C++17.
fn cxx_syntax(c: &Path) -> Result<String, String> {
    run(Command::new("c++")
        .args([
            "-x",
            "c++",
            "-std=c++17",
            "-Wall",
            "-Werror",
            "-fsyntax-only",
        ])
        .arg(c))
}

/// `lib` compiles as a Rust 2021 library without warnings.
fn rustc_lib(lib: &Path, out: &Path) -> Result<String, String> {
    run(Command::new("rustc")
        .args([
            "--edition",
            "2021",
            "--crate-type",
            "lib",
            "-D",
            "warnings",
            "-o",
        ])
        .arg(out)
        .arg(lib))
}

/// The bytemuck rlib cargo built for this test (a dev-dependency), found
/// next to the test binary: `(rlib, deps directory)`.
fn bytemuck_rlib() -> Option<(std::path::PathBuf, std::path::PathBuf)> {
    let deps = std::env::current_exe().ok()?.parent()?.to_path_buf();
    let mut found: Vec<(std::time::SystemTime, std::path::PathBuf)> = std::fs::read_dir(&deps)
        .ok()?
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| {
            p.file_name().is_some_and(|n| {
                let n = n.to_string_lossy();
                n.starts_with("libbytemuck-") && n.ends_with(".rlib")
            })
        })
        .filter_map(|p| Some((p.metadata().ok()?.modified().ok()?, p)))
        .collect();
    found.sort();
    found.pop().map(|(_, p)| (p, deps))
}

/// `lib` (which derives bytemuck's traits) compiles as a Rust 2021 library
/// without warnings, against `rlib`.
fn rustc_lib_bytemuck(lib: &Path, out: &Path, rlib: &Path, deps: &Path) -> Result<String, String> {
    let mut extern_arg = std::ffi::OsString::from("bytemuck=");
    extern_arg.push(rlib);
    let mut dependency = std::ffi::OsString::from("dependency=");
    dependency.push(deps);
    run(Command::new("rustc")
        .args(["--edition", "2021", "--crate-type", "lib", "-D", "warnings"])
        .arg("--extern")
        .arg(extern_arg)
        .arg("-L")
        .arg(dependency)
        .arg("-o")
        .arg(out)
        .arg(lib))
}

fn tool(name: &str) -> bool {
    tool_available(name, &["--version"])
}

/// The host targets refuse `source` with an inexpressible-layout error at a
/// member, whose fix gives a source they translate.
fn refusal_with_working_fix(source: &str) -> Result<(), String> {
    let options = Options {
        target: Target::C,
        ..Options::default()
    };
    let Err(diags) = stride::translate(source, &options) else {
        return Err("expected a refusal".into());
    };
    let Some(d) = diags.iter().find(|d| d.is_error()) else {
        return Err("a refusal without an error".into());
    };
    if d.kind != stride::DiagnosticKind::Inexpressible || d.primary_span().is_none() {
        return Err(format!(
            "not an inexpressible-layout error with a span: {d:?}"
        ));
    }
    let Some(fix) = d.fixes.first() else {
        return Err(format!("no fix: {}", d.message));
    };
    let fixed = fix.apply(source);
    text(&fixed, Target::C)
        .map(|_| ())
        .map_err(|e| format!("the fix does not work:\n{e}"))
}

#[test]
fn host_structs_compile_and_match_the_layout_ir() {
    if !(tool("cc") && tool("c++") && tool("rustc")) {
        assert!(
            !oracles_required(),
            "cc, c++ and rustc are required (STRIDE_REQUIRE_ORACLES is set)"
        );
        eprintln!("SKIPPED: cc, c++ or rustc not found");
        return;
    }
    let dir = temp_dir("host");
    let modules = modules();
    let mut failures = Vec::new();
    let mut rust_crate = String::new();
    let mut bytemuck_crate = String::new();
    let bytemuck_options = Options {
        target: Target::Rust,
        host: stride::back::host::HostOptions {
            bytemuck: true,
            ..Default::default()
        },
        ..Options::default()
    };
    let mut jobs = Vec::new();
    let mut structs = 0usize;
    // Offset and size asserts the compilers checked, per language.
    let mut c_asserts = 0usize;
    let mut rust_asserts = 0usize;
    let mut refused_by_all = 0usize;
    let mut refused_with_fix = Vec::new();
    for (i, m) in modules.iter().enumerate() {
        let Ok(analysis) = stride::analyze(&m.source) else {
            // Not a valid module: every target refuses it; the host ones too.
            refused_by_all += 1;
            if text(&m.source, Target::C).is_ok() || text(&m.source, Target::Rust).is_ok() {
                failures.push(format!(
                    "{}: invalid input translated to a host target",
                    m.name
                ));
            }
            continue;
        };
        let (c, rust) = match (text(&m.source, Target::C), text(&m.source, Target::Rust)) {
            (Ok(c), Ok(r)) => (c, r),
            (Err(_), Err(_)) => {
                // A layout C cannot declare: an error at the WGSL member
                // with a fix, and the fixed source has a host form.
                match refusal_with_working_fix(&m.source) {
                    Ok(()) => refused_with_fix.push(m.name.clone()),
                    Err(e) => failures.push(format!("{}: {e}", m.name)),
                }
                continue;
            }
            (c, r) => {
                failures.push(format!(
                    "{}: C and Rust disagree on whether there is a host form: {}",
                    m.name,
                    c.err().or(r.err()).unwrap_or_default()
                ));
                continue;
            }
        };
        structs += analysis.contract.structs.len();
        c_asserts += c.matches("static_assert(").count();
        rust_asserts += rust.matches("const _: () = assert!(").count();
        let _ = writeln!(
            rust_crate,
            "pub mod m{i} {{\n    include!(\"m{i}.rs\");\n}}"
        );
        if let Err(e) = std::fs::write(dir.join(format!("m{i}.rs")), &rust) {
            failures.push(format!("{}: {e}", m.name));
        }
        match text_with(&m.source, &bytemuck_options) {
            Ok(b) => {
                let _ = writeln!(
                    bytemuck_crate,
                    "pub mod m{i} {{\n    include!(\"b{i}.rs\");\n}}"
                );
                if let Err(e) = std::fs::write(dir.join(format!("b{i}.rs")), &b) {
                    failures.push(format!("{}: {e}", m.name));
                }
            }
            Err(e) => failures.push(format!("{}: --rust-derive bytemuck: {e}", m.name)),
        }
        jobs.push((i, m.name.clone(), analysis.contract, c));
    }

    // C and C++: one translation unit per module (the struct names of
    // different modules collide), on every core.
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get());
    let chunk = jobs.len().div_ceil(workers.max(1)).max(1);
    let results: BTreeMap<usize, (String, Result<usize, String>)> = std::thread::scope(|s| {
        let handles: Vec<_> = jobs
            .chunks(chunk)
            .map(|part| {
                let dir = &dir;
                s.spawn(move || {
                    part.iter()
                        .map(|(i, name, contract, header)| {
                            (*i, (name.clone(), check_c(dir, *i, contract, header)))
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| match h.join() {
                Ok(part) => part,
                Err(payload) => {
                    let why = payload
                        .downcast_ref::<String>()
                        .cloned()
                        .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
                        .unwrap_or_default();
                    vec![(
                        usize::MAX,
                        ("a C-check worker".into(), Err(format!("panicked: {why}"))),
                    )]
                }
            })
            .collect()
    });
    let mut members = 0;
    for (name, r) in results.values() {
        match r {
            Ok(n) => members += n,
            Err(e) => failures.push(format!("{name}: {e}")),
        }
    }

    // Rust: every module in one crate, each in its own `mod`.
    let lib = dir.join("lib.rs");
    let rust_ok = std::fs::write(&lib, &rust_crate)
        .map_err(|e| e.to_string())
        .and_then(|_| rustc_lib(&lib, &dir.join("libhost.rlib")));
    if let Err(e) = rust_ok {
        failures.push(format!("rustc: {e}"));
    }
    // The same with `--rust-derive bytemuck`.
    let bytemuck_note = match bytemuck_rlib() {
        Some((rlib, deps)) => {
            let lib = dir.join("lib_bytemuck.rs");
            let ok = std::fs::write(&lib, &bytemuck_crate)
                .map_err(|e| e.to_string())
                .and_then(|_| {
                    rustc_lib_bytemuck(&lib, &dir.join("libhost_bytemuck.rlib"), &rlib, &deps)
                });
            if let Err(e) = ok {
                failures.push(format!("rustc (--rust-derive bytemuck): {e}"));
            }
            format!(
                "the --rust-derive bytemuck variants of the same {} modules compiled against {}",
                jobs.len(),
                rlib.file_name().unwrap_or_default().to_string_lossy()
            )
        }
        None => {
            failures
                .push("the bytemuck rlib (a dev-dependency) is not next to the test binary".into());
            String::new()
        }
    };
    eprintln!(
        "host structs: {} modules ({} invalid, refused by every target), {} compiled as C11, C++17 and Rust; {structs} structs; {c_asserts} C static_asserts and {rust_asserts} Rust const asserts (offsets and sizes) hold; {members} offsets and sizes printed by the C program equal the layout IR",
        modules.len(),
        refused_by_all,
        jobs.len()
    );
    eprintln!(
        "host structs: {} modules refused (a runtime-sized array C cannot place), each with a fix that works: {}",
        refused_with_fix.len(),
        refused_with_fix.join(", ")
    );
    eprintln!("host structs: {bytemuck_note}");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn spec000_struct_b_fixed_in_c_and_rust() {
    // spec/000's struct B with the dialect fix on the declarations (A: align
    // 16, size 32; B: align 16, size 208; g: @stride(32)).
    let path = corpus_dir().join("dialect/spec_fix_struct_attrs.wgsl");
    let src = std::fs::read_to_string(path).unwrap();
    let c = text(&src, Target::C).unwrap();
    for line in [
        "    alignas(16) float u;",
        "    uint8_t _pad1[12];\n    A e;",
        "    A g[3];\n    float h;\n    uint8_t _pad3[12];\n} B;",
        "static_assert(sizeof(B) == 208, \"B: size\");",
        "static_assert(offsetof(B, g) == 96, \"B.g: offset\");",
        "#define UNIFORM_BUFFER_MIN_BINDING_SIZE 208u",
    ] {
        assert!(c.contains(line), "missing {line:?} in\n{c}");
    }
    let r = text(&src, Target::Rust).unwrap();
    for line in [
        "#[repr(C, align(16))]\n#[derive(Clone, Copy, Debug, PartialEq)]\n#[allow(non_camel_case_types, non_snake_case)]\npub struct A {",
        "    pub g: [A; 3],",
        "const _: () = assert!(core::mem::size_of::<B>() == 208);",
        "pub const STORAGE_BUFFER_BINDING: u32 = 1;",
        "pub const UNIFORM_BUFFER_MIN_BINDING_SIZE: u64 = 208;",
    ] {
        assert!(r.contains(line), "missing {line:?} in\n{r}");
    }
}

#[test]
fn a_head_that_cannot_end_at_the_array_is_an_error_with_a_fix() {
    let src = "enable f16;\n\
               struct S { a: u32, b: f16, data: array<f16> }\n\
               @group(0) @binding(0) var<storage, read_write> s: S;\n\
               @compute @workgroup_size(1) fn main() { s.data[0] = s.b; }\n";
    let options = Options {
        target: Target::C,
        ..Options::default()
    };
    let err = stride::translate(src, &options).unwrap_err();
    let d = err.iter().find(|d| d.is_error()).expect("an error");
    let span = d.primary_span().expect("a span");
    assert_eq!(&src[span], "data");
    let fix = d.fixes.first().expect("a fix");
    let fixed = fix.apply(src);
    assert!(fixed.contains("@align(4) data"), "{fixed}");
    let out = text(&fixed, Target::C).expect("the fix works");
    assert!(out.contains("#define S_DATA_OFFSET 8u"), "{out}");
}

fn host_text(source: &str, target: Target, stem: &str) -> String {
    let options = Options {
        target,
        host: stride::back::host::HostOptions {
            name: Some(stem.to_string()),
            bytemuck: false,
        },
        ..Options::default()
    };
    match stride::translate(source, &options) {
        Ok(t) => match t.output {
            Output::Text(s) => s,
            _ => panic!("not text"),
        },
        Err(d) => panic!("{}", d.render("input.wgsl", source, false)),
    }
}

/// Compile a C header (as C11 and C++17) and a Rust module; panics with
/// the compiler's output.
fn compile_both(name: &str, header: &str, module: &str) {
    let dir = temp_dir(name);
    std::fs::write(dir.join("h.h"), header).unwrap();
    std::fs::write(
        dir.join("t.c"),
        "#include \"h.h\"\nint main(void) { return 0; }\n",
    )
    .unwrap();
    std::fs::write(dir.join("m.rs"), module).unwrap();
    let c = dir.join("t.c");
    let checks = [
        run(Command::new("cc")
            .args(["-std=c11", "-Wall", "-Wextra", "-Werror", "-fsyntax-only"])
            .arg(&c)),
        cxx_syntax(&c),
        rustc_lib(&dir.join("m.rs"), &dir.join("m.rlib")),
    ];
    for r in checks {
        if let Err(e) = r {
            panic!("{e}\nheader:\n{header}\nmodule:\n{module}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn colliding_names_stay_distinct_and_compile() {
    // `int` escapes to `int_` in C, which a member already has; padding
    // skips the member `_pad0`; `myParams` and `my_params` have the same
    // constant name, and a struct `MY_PARAMS_GROUP` would be replaced by a
    // C macro of that name; a struct is named like a generated element
    // wrapper; a global that is a runtime-sized array of a wrapped element;
    // `_params` loses its leading underscore (C reserves `_P...`); a
    // runtime-sized array of arrays with wrapped elements keeps its
    // `<global>_Element` name (the wrapper inside is named after it).
    let src = "struct Params { int: u32, int_: u32, _pad0: u32, v: vec3<f32>, arr: array<vec2<f32>, 2> }\n\
               @group(1) @binding(0) var<uniform> _params: vec4<f32>;\n\
               @group(1) @binding(1) var<storage> nested: array<@stride(8) array<i32, 2>>;\n\
               struct Holder_arr_Element { x: f32 }\n\
               struct Holder { arr: @stride(16) array<vec2<f32>, 2>, h: Holder_arr_Element }\n\
               struct MY_PARAMS_GROUP { y: f32 }\n\
               @group(0) @binding(0) var<storage> myParams: Params;\n\
               @group(0) @binding(1) var<storage> my_params: MY_PARAMS_GROUP;\n\
               @group(0) @binding(2) var<uniform> holder: Holder;\n\
               @group(0) @binding(3) var<storage> floats: array<vec3<f32>>;\n\
               @compute @workgroup_size(1) fn main() { _ = _params.x; _ = nested[0][1]; _ = myParams.int; _ = my_params.y; _ = holder.h.x; _ = floats[0].x; }\n";
    let c = host_text(src, Target::C, "coll");
    let r = host_text(src, Target::Rust, "coll");
    for line in [
        "    alignas(16) uint32_t int_2;\n    uint32_t int_;\n    uint32_t _pad0;\n    uint8_t _pad1[4];",
        "typedef struct Holder_arr_Element {\n    float x;",
        "    alignas(8) Holder_arr_Element_2 arr[2];\n    Holder_arr_Element h;",
        "#define MY_PARAMS_2_BINDING 0u",
        "#define MY_PARAMS_3_BINDING 1u",
        "#define FLOATS_STRIDE 16u\nstatic_assert(sizeof(floats_Element) == 16",
        "#define PARAMS_GROUP 1u",
        "typedef float _params_Type[4];",
        "typedef nested_Element_Element nested_Element[2];",
    ] {
        assert!(c.contains(line), "missing {line:?} in\n{c}");
    }
    // The wrapper named for the runtime-sized array is its element type:
    // no alias of an alias.
    assert!(!c.contains("typedef floats_Element"), "{c}");
    for line in [
        "    pub int: u32,\n    pub int_: u32,\n    pub _pad0: u32,",
        "pub const MY_PARAMS_2_BINDING: u32 = 0;",
        "pub const MY_PARAMS_3_BINDING: u32 = 1;",
    ] {
        assert!(r.contains(line), "missing {line:?} in\n{r}");
    }
    assert!(!r.contains("pub type floats_Element"), "{r}");
    if tool("cc") && tool("c++") && tool("rustc") {
        compile_both("host-collisions", &c, &r);
    } else {
        assert!(!oracles_required(), "cc, c++ and rustc are required");
    }
}

#[test]
fn include_guard_from_odd_stems() {
    let src = "struct S { x: f32 }\n@group(0) @binding(0) var<storage> s: S;\n";
    for (stem, guard) in [
        ("my-shader.v2", "STRIDE_MY_SHADER_V2_H"),
        ("myShader", "STRIDE_MY_SHADER_H"),
        ("000", "STRIDE_000_H"),
        ("__a--b__", "STRIDE_A_B_H"),
        ("ünï", "STRIDE_N_H"),
        ("---", "STRIDE_H"),
    ] {
        let c = host_text(src, Target::C, stem);
        assert!(
            c.contains(&format!("#ifndef {guard}\n#define {guard}\n")),
            "{stem}: expected {guard} in\n{c}"
        );
    }
}

/// `examples/host-structs`: a build script writes the Rust module of its
/// shader into `OUT_DIR`, the program `include!`s it, fills the uniform
/// buffer through the structs and prints the bytes. Every value it stored
/// must sit at the contract offset that `stride::analyze` gives.
#[test]
fn build_script_example_fills_the_contract_bytes() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let example = root.join("examples/host-structs");
    let run = || {
        Command::new(env!("CARGO"))
            .args(["run", "--manifest-path"])
            .arg(example.join("Cargo.toml"))
            .env(
                "CARGO_TARGET_DIR",
                Path::new(env!("CARGO_TARGET_TMPDIR")).join("example-host"),
            )
            .stdin(std::process::Stdio::null())
            .output()
            .expect("cargo runs")
    };
    let mut output = run();
    // On the shared 2-core machine, cargo's probe of rustc (`rustc -
    // --print=...`) has twice read unrelated text as its input and failed
    // before building anything; that says nothing about the example, so it
    // gets one more try, said out loud.
    let probe = "to learn about target-specific information";
    if !output.status.success() && String::from_utf8_lossy(&output.stderr).contains(probe) {
        eprintln!(
            "!!! build_script_example: cargo failed to probe rustc ({}); RETRYING once:\n{}",
            output.status,
            String::from_utf8_lossy(&output.stderr)
        );
        output = run();
    }
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "the example failed ({}):\n{stdout}{}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    // The printed rows: `<offset>: <16 hex bytes>`.
    let mut bytes = Vec::new();
    for line in stdout.lines() {
        let Some((offset, hex)) = line.split_once(": ") else {
            continue;
        };
        if offset.trim().parse::<usize>() != Ok(bytes.len()) {
            continue;
        }
        bytes.extend(hex.split(' ').map(|b| u8::from_str_radix(b, 16).unwrap()));
    }
    let source = std::fs::read_to_string(example.join("shaders/lights.wgsl")).unwrap();
    let contract = stride::analyze(&source).unwrap().contract;
    let frame = contract.globals.iter().find(|g| g.name == "frame").unwrap();
    assert_eq!(Some(bytes.len() as u64), frame.layout.size, "{stdout}");
    let member = |strukt: &str, name: &str| {
        let s = contract
            .structs
            .values()
            .find(|s| s.name == strukt)
            .unwrap();
        let m = s.members().find(|m| m.name == name).unwrap();
        (m.offset, m.layout.clone())
    };
    let f32_at = |o: u64| {
        let o = o as usize;
        f32::from_le_bytes([bytes[o], bytes[o + 1], bytes[o + 2], bytes[o + 3]])
    };
    let (lights, lights_layout) = member("Frame", "lights");
    let LayoutKind::Array { stride, .. } = lights_layout.kind else {
        panic!("lights is an array")
    };
    let (intensity, _) = member("Light", "intensity");
    let (color, _) = member("Light", "color");
    let (exposure, _) = member("Frame", "exposure");
    let (count, _) = member("Frame", "light_count");
    assert_eq!(f32_at(lights + intensity), 4.0);
    assert_eq!(f32_at(lights + color + 4), 0.5);
    assert_eq!(f32_at(lights + stride + intensity), 0.5);
    assert_eq!(f32_at(lights + stride), -1.0);
    assert_eq!(f32_at(exposure), 1.5);
    assert_eq!(bytes[count as usize], 2);
}
