//! Unit tests of names, registers, module-level checks and the entry-point
//! interface (compiled with DXC where it is installed).

use super::interface::push_entry_io_declarations;
use super::names::{builtin_warnings, module_names, shader_model_type_errors};
use super::resources::{push_global_declarations, push_register, push_resource_declarations};
use super::*;
use crate::back::common::declaration_order;
use crate::back::common::ModuleSource;
use crate::back::hlsl::{keywords, RegisterMode};
use crate::diag::Severity;
use std::fmt::Write as _;
use std::path::PathBuf;

/// The input and output structs of entry point `index` (see
/// [`push_entry_io_declarations`]).
fn entry_io_declarations(ctx: &Ctx<'_>, needs: &mut Needs, index: usize) -> String {
    let mut out = String::new();
    push_entry_io_declarations(ctx, needs, index, &mut out);
    out
}

/// The entry function's attributes and signature (see
/// [`push_entry_signature`]).
fn entry_signature(ctx: &Ctx<'_>, needs: &mut Needs, index: usize) -> String {
    let mut out = String::new();
    push_entry_signature(ctx, needs, index, None, &mut out);
    out
}

/// The entry function's prologue (see [`push_entry_prologue`]).
fn entry_prologue(ctx: &Ctx<'_>, needs: &mut Needs, index: usize) -> String {
    let mut out = String::new();
    push_entry_prologue(ctx, needs, index, &mut out);
    out
}

/// The statements returning `value` (see [`push_entry_return`]).
fn entry_return(ctx: &Ctx<'_>, index: usize, value: Option<&str>) -> String {
    let mut out = String::new();
    push_entry_return(ctx, index, value, &mut out);
    out
}

/// The text inside `register(...)`: `t0, space1`.
fn register_text(r: &crate::bind::d3d::Register) -> String {
    let mut out = String::new();
    push_register(&mut out, r);
    out
}

/// Run `f` on a context for `source` (no buffer plan: the buffers part
/// is not needed by what these tests print).
fn with_ctx<R>(source: &str, options: HlslOptions, f: impl FnOnce(&Ctx<'_>) -> R) -> R {
    let (parsed, info, contract) = crate::back::test_support::analyzed(source);
    let names = module_names(&parsed.module);
    let source = ModuleSource::parsed(&parsed, &info, &contract);
    let model = options.shader_model.unwrap_or_default();
    let ctx = Ctx::new(source, &options, model, names, Default::default());
    f(&ctx)
}

fn global(ctx: &Ctx<'_>, name: &str) -> GlobalHandle {
    ctx.module
        .global_variables
        .iter()
        .find(|(_, v)| v.name.as_deref() == Some(name))
        .map(|(h, _)| h)
        .expect("global")
}

/// The DXC wrapper, or `None` (with a message) when it is not installed.
fn dxc_path() -> Option<PathBuf> {
    let path =
        PathBuf::from(std::env::var("HOME").ok()?).join(".cache/stride-tools/dxc/stride-dxc");
    if path.exists() {
        Some(path)
    } else {
        eprintln!(
            "skipping the DXC check: {} is missing (scripts/install-oracles.sh)",
            path.display()
        );
        None
    }
}

/// Compile `text` with DXC for `profile`/`entry` (default HLSL version
/// and HLSL 2021); panics with DXC's output on failure.
fn compile(dxc: &PathBuf, text: &str, tag: &str, profile: &str, entry: &str) {
    let file =
        std::env::temp_dir().join(text!("stride-hlsl-decl-{}-{tag}.hlsl", std::process::id()));
    std::fs::write(&file, text).expect("writes the temporary file");
    for version in [None, Some("2021")] {
        let mut cmd = std::process::Command::new(dxc);
        cmd.args(["-T", profile, "-E", entry]);
        if let Some(v) = version {
            cmd.args(["-HV", v]);
        }
        let out = cmd.arg(&file).output().expect("runs DXC");
        assert!(
            out.status.success(),
            "DXC ({profile}, -HV {version:?}) rejects:\n{text}\n{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    if std::env::var_os("STRIDE_KEEP_HLSL").is_none() {
        let _ = std::fs::remove_file(&file);
    }
}

/// An entry function assembled from our signature, prologue and return
/// around a hand-written body.
fn entry_function(ctx: &Ctx<'_>, needs: &mut Needs, index: usize, body: &str) -> String {
    let mut out = entry_signature(ctx, needs, index);
    out.push_str(" {\n");
    out.push_str(&entry_prologue(ctx, needs, index));
    out.push_str(body);
    let value = ctx.module.entry_points[index]
        .function
        .result
        .as_ref()
        .map(|_| "_s_value");
    for line in entry_return(ctx, index, value).lines() {
        let _ = writeln!(out, "    {line}");
    }
    out.push_str("}\n");
    out
}

#[test]
fn names_avoid_keywords_intrinsics_and_the_prefix() {
    let source = "
            struct SamplerState { line: f32, float4: f32, color: f32 }
            var<private> cbuffer: f32;
            var<private> mul: f32;
            var<private> Technique: f32;
            var<private> _s_x: f32;
            fn lerp(a: f32) -> f32 { return a; }
            @compute @workgroup_size(1) fn row_major() {
                var p: SamplerState;
                p.line = lerp(cbuffer + mul + Technique + _s_x);
            }";
    with_ctx(source, HlslOptions::default(), |ctx| {
        let mut all: Vec<&str> = ctx.names.values().map(String::as_str).collect();
        all.sort_unstable();
        for n in &all {
            assert!(!keywords::RESERVED.contains(n), "{n} is reserved: {all:?}");
            assert!(
                !keywords::RESERVED_CASE_INSENSITIVE.contains(n),
                "{n} is reserved: {all:?}"
            );
            assert!(!n.starts_with("_s_"), "{n} uses the prefix");
        }
        for g in ["cbuffer", "mul", "Technique", "_s_x"] {
            let name = ctx.name(NameKey::GlobalVariable(global(ctx, g)));
            assert_ne!(name, g);
            assert!(!keywords::BUILTINS.contains(name));
        }
        let (f, _) = ctx.module.functions.iter().next().expect("a function");
        assert_ne!(ctx.name(NameKey::Function(f)), "lerp");
        assert_ne!(ctx.name(NameKey::EntryPoint(0)), "row_major");
        let (s, _) = ctx
            .module
            .types
            .iter()
            .find(|(_, t)| t.name.as_deref() == Some("SamplerState"))
            .expect("struct");
        assert_ne!(ctx.name(NameKey::Type(s)), "SamplerState");
        assert_ne!(ctx.name(NameKey::StructMember(s, 0)), "line");
        assert_ne!(ctx.name(NameKey::StructMember(s, 1)), "float4");
        // Member names only avoid keywords: `color` stays.
        assert_eq!(ctx.name(NameKey::StructMember(s, 2)), "color");
    });
}

const RESOURCES: &str = "
        enable wgpu_binding_array;
        @group(1) @binding(4) var<storage, read_write> rw: array<u32>;
        @group(0) @binding(3) var<uniform> u0: vec4<f32>;
        @group(0) @binding(0) var t0: texture_2d<f32>;
        @group(0) @binding(1) var s0: sampler;
        @group(1) @binding(0) var<storage, read> ro: array<u32>;
        @group(1) @binding(5) var arr: binding_array<texture_2d<f32>, 4>;
        @group(1) @binding(1) var t1: texture_depth_2d;
        @group(1) @binding(8) var st: texture_storage_2d<rgba8unorm, write>;
        @group(1) @binding(9) var sr: texture_storage_2d<r32float, read>;
        @group(0) @binding(2) var sc: sampler_comparison;
        @group(3) @binding(0) var samplers: binding_array<sampler, 3>;
        @group(3) @binding(1) var t3: texture_2d_array<u32>;
        var<immediate> pc: vec4<f32>;
        @compute @workgroup_size(1) fn main(@builtin(num_workgroups) n: vec3<u32>) {
            rw[0] = ro[0] + u32(u0.x + pc.x) + n.x;
        }";

fn register_table(mode: RegisterMode) -> Vec<(String, &'static str, String)> {
    let options = HlslOptions {
        registers: mode,
        ..Default::default()
    };
    with_ctx(RESOURCES, options, |ctx| {
        let order = declaration_order(ctx.module);
        let r =
            crate::bind::d3d::assign(ctx.module, &order, ctx.options.registers).expect("allocates");
        r.list
            .iter()
            .map(|r| {
                assert!(r.count >= 1);
                (r.global.clone(), r.kind, register_text(r))
            })
            .collect()
    })
}

#[test]
fn wgsl_registers_follow_group_and_binding() {
    let table = register_table(RegisterMode::Wgsl);
    let expected = [
        ("rw", "rw-byte-address-buffer", "u4, space1"),
        ("u0", "cbuffer", "b3, space0"),
        ("t0", "texture", "t0, space0"),
        ("s0", "sampler", "s1, space0"),
        ("ro", "byte-address-buffer", "t0, space1"),
        ("arr", "texture", "t5, space1"),
        ("t1", "texture", "t1, space1"),
        ("st", "rw-texture", "u8, space1"),
        ("sr", "texture", "t9, space1"),
        ("sc", "comparison-sampler", "s2, space0"),
        ("samplers", "sampler", "s0, space3"),
        ("t3", "texture", "t1, space3"),
        // stride's own space: after the highest group.
        ("pc", "cbuffer", "b0, space4"),
        (NUM_WORKGROUPS, "cbuffer", "b1, space4"),
    ];
    let expected: Vec<(String, &str, String)> = expected
        .iter()
        .map(|&(g, k, r)| (g.to_string(), k, r.to_string()))
        .collect();
    assert_eq!(table, expected);
}

#[test]
fn compact_registers_take_the_first_free_range_per_space_and_class() {
    // spec/001: per space and resource class, parameters in declaration
    // order take the first free contiguous range; an array of N opaque
    // resources takes N registers; texture and sampler registers are
    // separate ranges.
    let table = register_table(RegisterMode::Compact);
    let expected = [
        ("rw", "rw-byte-address-buffer", "u0, space1"),
        ("u0", "cbuffer", "b0, space0"),
        ("t0", "texture", "t0, space0"),
        ("s0", "sampler", "s0, space0"),
        ("ro", "byte-address-buffer", "t0, space1"),
        ("arr", "texture", "t1, space1"),
        // After the four registers of `arr`.
        ("t1", "texture", "t5, space1"),
        ("st", "rw-texture", "u1, space1"),
        ("sr", "texture", "t6, space1"),
        ("sc", "comparison-sampler", "s1, space0"),
        ("samplers", "sampler", "s0, space3"),
        ("t3", "texture", "t0, space3"),
        ("pc", "cbuffer", "b0, space4"),
        (NUM_WORKGROUPS, "cbuffer", "b1, space4"),
    ];
    let expected: Vec<(String, &str, String)> = expected
        .iter()
        .map(|&(g, k, r)| (g.to_string(), k, r.to_string()))
        .collect();
    assert_eq!(table, expected);
    // Ranges never overlap within a space and class.
    let options = HlslOptions {
        registers: RegisterMode::Compact,
        ..Default::default()
    };
    with_ctx(RESOURCES, options, |ctx| {
        let order = declaration_order(ctx.module);
        let r =
            crate::bind::d3d::assign(ctx.module, &order, ctx.options.registers).expect("allocates");
        for (i, a) in r.list.iter().enumerate() {
            for b in &r.list[i + 1..] {
                if a.space == b.space && a.class == b.class {
                    assert!(
                        a.register + a.count <= b.register || b.register + b.count <= a.register,
                        "{a:?} overlaps {b:?}"
                    );
                }
            }
        }
    });
}

#[test]
fn runtime_sized_binding_arrays_are_errors() {
    let source = "
            enable wgpu_binding_array;
            @group(0) @binding(0) var ts: binding_array<texture_2d<f32>>;
            @fragment fn main() -> @location(0) vec4<f32> {
                return textureLoad(ts[0], vec2<i32>(0), 0);
            }";
    with_ctx(source, HlslOptions::default(), |ctx| {
        let order = declaration_order(ctx.module);
        let e = crate::bind::d3d::assign(ctx.module, &order, ctx.options.registers)
            .expect_err("runtime-sized");
        assert!(e.0[0].message.contains("runtime-sized binding array"));
        assert!(e.0[0].primary_span().is_some());
    });
}

#[test]
fn binding_arrays_move_the_next_bindings_past_their_registers() {
    let source = "
            enable wgpu_binding_array;
            @group(0) @binding(0) var ts: binding_array<texture_2d<f32>, 4>;
            @group(0) @binding(2) var t2: texture_2d<f32>;
            @group(0) @binding(5) var a: texture_2d<f32>;
            @group(0) @binding(5) var b: texture_2d<f32>;
            @group(0) @binding(1) var s: sampler;
            @fragment fn main() -> @location(0) vec4<f32> {
                return textureLoad(ts[1], vec2<i32>(0), 0) + textureLoad(t2, vec2<i32>(0), 0);
            }
            @fragment fn fa() -> @location(0) vec4<f32> { return textureLoad(a, vec2<i32>(0), 0); }
            @fragment fn fb() -> @location(0) vec4<f32> { return textureLoad(b, vec2<i32>(0), 0); }
            @fragment fn fs() -> @location(0) vec4<f32> {
                return textureSample(a, s, vec2<f32>(0.5));
            }";
    // `wgsl`: `t2` (binding 2) moves past t0..t3 to t4 instead of
    // overlapping it; `a` and `b` (binding 5, different entry points) share
    // t5; the sampler keeps its binding, another class.
    with_ctx(source, HlslOptions::default(), |ctx| {
        let order = declaration_order(ctx.module);
        let r = crate::bind::d3d::assign(ctx.module, &order, ctx.options.registers)
            .expect("no overlap");
        let regs: Vec<(char, u32, u32)> = r
            .list
            .iter()
            .map(|r| (r.class, r.register, r.count))
            .collect();
        assert_eq!(
            regs,
            vec![
                ('t', 0, 4),
                ('t', 4, 1),
                ('t', 5, 1),
                ('t', 5, 1),
                ('s', 1, 1)
            ]
        );
    });
    // Two resources one entry point uses at one register stay an error
    // (the front end reports a shared binding first).
    let module = naga::front::wgsl::parse_str(
        "enable wgpu_binding_array;
        @group(0) @binding(5) var a: binding_array<texture_2d<f32>, 2>;
        @group(0) @binding(5) var b: texture_2d<f32>;
        @fragment fn main() -> @location(0) vec4<f32> {
            return textureLoad(a[1], vec2<i32>(0), 0) + textureLoad(b, vec2<i32>(0), 0);
        }",
    )
    .expect("parses");
    let order = declaration_order(&module);
    let e = crate::bind::d3d::assign(&module, &order, RegisterMode::Wgsl).expect_err("t5 twice");
    assert_eq!(e.0.len(), 1, "{:?}", e.0);
    assert!(
        e.0[0].message.contains("`a` (t5..t6) and `b` (t5) overlap"),
        "{}",
        e.0[0].message
    );
    assert_eq!(e.0[0].labels.len(), 2);
    let compact = HlslOptions {
        registers: RegisterMode::Compact,
        ..HlslOptions::default()
    };
    with_ctx(source, compact, |ctx| {
        let order = declaration_order(ctx.module);
        let r = crate::bind::d3d::assign(ctx.module, &order, ctx.options.registers)
            .expect("compact ranges");
        let regs: Vec<(u32, u32)> = r.list.iter().map(|r| (r.register, r.count)).collect();
        assert_eq!(regs, vec![(0, 4), (4, 1), (5, 1), (6, 1), (0, 1)]);
    });
}

#[test]
fn module_level_errors() {
    let source = "
            override gain: f32;
            @compute @workgroup_size(1) fn main() { _ = gain; }";
    let e = crate::back::test_support::write_text(source, &HlslOptions::default())
        .expect_err("no value for the override");
    assert!(e.0[0].message.contains("no default value"), "{:?}", e.0[0]);
    // Unknown entry points and overrides: `back::text_writer_tests`.

    // No entry point: a library with every function.
    let lib = crate::back::test_support::write_text("fn f() {}", &HlslOptions::default())
        .expect("library");
    assert!(lib.entry_points.is_empty());
    assert!(lib.text.contains("void f()"), "{}", lib.text);
}

#[test]
fn shader_model_type_checks() {
    let f16 = "enable f16;
            var<private> h: vec2<f16>;
            @compute @workgroup_size(1) fn main() { h = vec2<f16>(1.0h); }";
    let (parsed, info, contract) = crate::back::test_support::analyzed(f16);
    let explicit = HlslOptions {
        shader_model: Some(ShaderModel::Sm6_0),
        ..HlslOptions::default()
    };
    let e = crate::back::write_text(&parsed, &info, &contract, &Default::default(), &explicit)
        .expect_err("f16 at 6.0");
    assert!(e.0[0].message.contains("`f16`"), "{:?}", e.0[0]);
    assert_eq!(e.0[0].kind, crate::diag::DiagnosticKind::Unsupported);
    assert!(e.0[0]
        .notes
        .iter()
        .any(|n| n.contains("--shader-model 6_2")));
    assert!(e.0[0].primary_span().is_some());
    assert!(shader_model_type_errors(&parsed.module, ShaderModel::Sm6_2).is_empty());

    let module = naga::front::wgsl::parse_str(
        "var<private> a: u64; var<private> b: f64;
             @compute @workgroup_size(1) fn main() { a = 1lu; b = 1.0lf; }",
    )
    .expect("parses");
    let e = shader_model_type_errors(&module, ShaderModel::Sm5_1);
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(e[0].message.contains("`u64`"));
    assert!(shader_model_type_errors(&module, ShaderModel::Sm6_0).is_empty());
}

/// Without `--shader-model`, the model is the lowest the module needs,
/// with a note at the first use that needs it; an explicit model stays.
#[test]
fn default_shader_model_follows_the_module() {
    let write = |source: &str, model: Option<ShaderModel>| {
        let (parsed, info, contract) = crate::back::test_support::analyzed(source);
        let options = HlslOptions {
            shader_model: model,
            ..HlslOptions::default()
        };
        crate::back::write_text(&parsed, &info, &contract, &Default::default(), &options)
    };
    let cases: &[(&str, &str, ShaderModel, &str)] = &[
        (
            "enable f16;
            var<private> h: vec2<f16>;
            @compute @workgroup_size(1) fn main() { h = vec2<f16>(1.0h); }",
            "vec2<f16>",
            ShaderModel::Sm6_2,
            "-enable-16bit-types",
        ),
        (
            "@group(0) @binding(0) var<storage, read_write> wide: array<u64>;
            @compute @workgroup_size(1) fn main() { wide[0] = 1lu; }",
            "wide",
            ShaderModel::Sm6_2,
            "Load<T>",
        ),
        (
            "enable f16;
            var<private> x: f32;
            @compute @workgroup_size(1) fn main() { let h = f16(x); x = f32(h * 2.0h); }",
            "enable f16;",
            ShaderModel::Sm6_2,
            "-enable-16bit-types",
        ),
        (
            "@fragment fn main(@builtin(barycentric) b: vec3<f32>) -> @location(0) vec4<f32> {
                return vec4<f32>(b, 1.0);
            }",
            "main",
            ShaderModel::Sm6_1,
            "barycentric",
        ),
        (
            "var<workgroup> n: atomic<u64>;
            @compute @workgroup_size(1) fn main() { atomicMax(&n, 1lu); }",
            "atomic<u64>",
            ShaderModel::Sm6_6,
            "64-bit atomic",
        ),
        (
            "@group(0) @binding(0) var t: texture_storage_2d<r64uint, atomic>;
            @compute @workgroup_size(1) fn main() { textureAtomicMax(t, vec2<i32>(0), 1lu); }",
            "texture_storage_2d<r64uint, atomic>",
            ShaderModel::Sm6_6,
            "64-bit atomic",
        ),
    ];
    for &(source, at, model, says) in cases {
        let out = write(source, None).expect("translates at the model it needs");
        assert_eq!(out.shader_model, model, "{source}");
        let header = format!("// Generated by stride from WGSL; shader model {model}\n");
        assert!(out.text.starts_with(&header), "{}", out.text);
        let notes = out.warnings.iter().filter(|w| w.severity == Severity::Note);
        assert_eq!(notes.count(), 1, "{:?}", out.warnings);
        let note = note_of(&out).expect("a note");
        assert!(
            note.message.contains(&format!("shader model {model}")),
            "{note:?}"
        );
        let span = note.primary_span().expect("at the first use");
        assert!(source[span].contains(at), "{note:?}");
        let text = format!("{} {}", note.message, note.notes.join(" "));
        assert!(text.contains(says), "{note:?}");
        // Explicit: below the need an error (the writer's, unchanged),
        // at it the same text without the note.
        let index = ShaderModel::ALL.iter().position(|&m| m == model);
        let below = ShaderModel::ALL[index.expect("a model") - 1];
        if at != "enable f16;" {
            // (f16 only inside expressions names no type the checks see.)
            let e = write(source, Some(below)).expect_err("below the need");
            assert!(e.has_errors(), "{e:?}");
        }
        let explicit = write(source, Some(model)).expect("at the need");
        assert_eq!(explicit.text, out.text);
        assert!(note_of(&explicit).is_none());
    }
    // Nothing above 6.0: 6.0, no note.
    let plain = write("@compute @workgroup_size(1) fn main() {}", None).expect("plain");
    assert_eq!(plain.shader_model, ShaderModel::Sm6_0);
    assert!(note_of(&plain).is_none());
}

fn note_of(out: &crate::back::hlsl::HlslOutput) -> Option<&crate::diag::Diagnostic> {
    out.warnings.iter().find(|w| w.severity == Severity::Note)
}

const STAGES: &str = "
        struct VOut {
            @builtin(position) @invariant pos: vec4<f32>,
            @location(1) @interpolate(flat) id: u32,
            @location(0) uv: vec2<f32>,
            @location(2) @interpolate(linear, centroid) w: f32,
        }
        struct FIn {
            @location(0) uv: vec2<f32>,
            @builtin(position) pos: vec4<f32>,
            @location(1) @interpolate(flat) id: u32,
            @builtin(front_facing) ff: bool,
        }
        struct FOut {
            @location(0) color: vec4<f32>,
            @builtin(frag_depth) depth: f32,
            @builtin(sample_mask) mask: u32,
        }
        @vertex fn vs(@builtin(vertex_index) vi: u32, @location(0) p: vec3<f32>,
                      @builtin(instance_index) ii: u32) -> VOut {
            return VOut(vec4<f32>(p, f32(vi + ii)), vi, p.xy, 1.0);
        }
        @fragment fn fs(in: FIn, @location(2) @interpolate(linear, centroid) w: f32,
                        @builtin(sample_index) si: u32) -> FOut {
            return FOut(vec4<f32>(in.uv, w, in.pos.w), in.pos.z, u32(in.ff) + in.id + si);
        }";

#[test]
fn vertex_and_fragment_io_structs_link_and_compile() {
    with_ctx(STAGES, HlslOptions::default(), |ctx| {
        let mut needs = Needs::default();
        let vs_io = entry_io_declarations(ctx, &mut needs, 0);
        let fs_io = entry_io_declarations(ctx, &mut needs, 1);
        assert!(needs.errors.is_empty(), "{:?}", needs.errors);
        // Varyings: same lines, same order, in both stages.
        let varyings = |io: &str, marker: &str| -> Vec<String> {
            let start = io.find(marker).expect("struct");
            io[start..]
                .lines()
                .skip(1)
                .take_while(|l| !l.starts_with('}'))
                .filter(|l| l.contains(": LOC"))
                .map(str::to_string)
                .collect()
        };
        let out = varyings(&vs_io, "struct _s_out_vs");
        let input = varyings(&fs_io, "struct _s_in_fs");
        assert_eq!(out, input);
        assert_eq!(
            out,
            [
                "    float2 _s_loc0 : LOC0;",
                "    nointerpolation uint _s_loc1 : LOC1;",
                "    noperspective centroid float _s_loc2 : LOC2;",
            ]
        );
        assert!(vs_io.contains("precise float4 _s_position : SV_Position;"));
        assert!(vs_io.contains("uint _s_vertex_index : SV_VertexID;"));
        assert!(vs_io.contains("float3 _s_loc0 : LOC0;"));
        assert!(fs_io.contains("bool _s_front_facing : SV_IsFrontFace;"));
        assert!(fs_io.contains("uint _s_sample_index : SV_SampleIndex;"));
        assert!(fs_io.contains("float4 _s_target0 : SV_Target0;"));
        assert!(fs_io.contains("float _s_frag_depth : SV_Depth;"));
        assert!(fs_io.contains("uint _s_sample_mask : SV_Coverage;"));

        let vs_sig = entry_signature(ctx, &mut needs, 0);
        assert_eq!(vs_sig, "_s_out_vs vs(_s_in_vs _s_in)");
        let prologue = entry_prologue(ctx, &mut needs, 1);
        assert!(
            prologue.contains("float4(_s_in._s_position.xyz, 1.0 / _s_in._s_position.w)"),
            "{prologue}"
        );
        assert_eq!(entry_return(ctx, 0, Some("x")), "return _s_output_vs(x);\n");

        let arg = |e: usize, i: u32| ctx.name(NameKey::EntryPointArgument(e as u16, i));
        let member = |ty: &str, i: u32| {
            let (h, _) = ctx
                .module
                .types
                .iter()
                .find(|(_, t)| t.name.as_deref() == Some(ty))
                .expect("struct");
            ctx.name(NameKey::StructMember(h, i)).to_string()
        };
        let vs_body = text!(
                "    VOut _s_value = (VOut)0;\n    _s_value.{} = float4({}, float({} + {}));\n    _s_value.{} = {};\n",
                member("VOut", 0),
                arg(0, 1),
                arg(0, 0),
                arg(0, 2),
                member("VOut", 1),
                arg(0, 0),
            );
        let fs_body = text!(
            "    FOut _s_value = (FOut)0;\n    _s_value.{} = float4({in}.{uv}, {w}, {in}.{pos}.w);\n    _s_value.{} = {in}.{pos}.z;\n    _s_value.{} = uint({in}.{ff}) + {in}.{id} + {si};\n",
            member("FOut", 0),
            member("FOut", 1),
            member("FOut", 2),
            in = arg(1, 0),
            uv = member("FIn", 0),
            pos = member("FIn", 1),
            id = member("FIn", 2),
            ff = member("FIn", 3),
            w = arg(1, 1),
            si = arg(1, 2),
        );
        let mut text = String::from("#pragma pack_matrix(row_major)\n\n");
        text.push_str(&types::struct_declarations(ctx));
        text.push_str(&vs_io);
        text.push_str(&entry_function(ctx, &mut needs, 0, &vs_body));
        text.push_str(&fs_io);
        text.push_str(&entry_function(ctx, &mut needs, 1, &fs_body));
        assert!(needs.errors.is_empty(), "{:?}", needs.errors);
        if let Some(dxc) = dxc_path() {
            compile(&dxc, &text, "vs", "vs_6_0", "vs");
            compile(&dxc, &text, "fs", "ps_6_0", "fs");
        }
    });
}

#[test]
fn compute_entry_zeroes_workgroup_memory_and_compiles() {
    let source = "
            enable wgpu_binding_array;
            struct Cell { a: atomic<u32>, v: array<f32, 4> }
            var<workgroup> cells: array<Cell, 8>;
            var<workgroup> total: f32;
            var<workgroup> unused: f32;
            @group(0) @binding(0) var tex: binding_array<texture_2d<f32>, 2>;
            @group(0) @binding(1) var smp: sampler;
            @group(1) @binding(0) var img: texture_storage_2d<rgba8unorm, write>;
            @compute @workgroup_size(8, 2, 1)
            fn main(@builtin(local_invocation_id) lid: vec3<u32>,
                    @builtin(num_workgroups) groups: vec3<u32>) {
                atomicAdd(&cells[lid.x].a, groups.x);
                total = textureSampleLevel(tex[1], smp, vec2<f32>(0.5), 0.0).x;
                textureStore(img, vec2<i32>(lid.xy), vec4<f32>(total));
            }
            @compute @workgroup_size(1) fn other() { unused = 1.0; }";
    with_ctx(source, HlslOptions::default(), |ctx| {
        let mut needs = Needs::default();
        let order = declaration_order(ctx.module);
        let registers =
            crate::bind::d3d::assign(ctx.module, &order, ctx.options.registers).expect("allocates");
        let mut resources = String::new();
        push_resource_declarations(ctx, &registers, &order, &[0], &mut resources);
        assert!(
            resources.contains("Texture2D<float4> tex[2] : register(t0, space0);"),
            "{resources}"
        );
        assert!(resources.contains("SamplerState smp : register(s1, space0);"));
        assert!(resources.contains("cbuffer _s_num_workgroups_cb : register(b0, space2)"));
        let mut globals = String::new();
        push_global_declarations(ctx, &mut needs, &order, &[0], &mut globals);
        assert!(
            globals.contains("groupshared _s_array8_Cell cells;"),
            "{globals}"
        );
        assert!(!globals.contains("unused"));
        let io = entry_io_declarations(ctx, &mut needs, 0);
        assert!(
            io.contains("uint _s_local_invocation_index : SV_GroupIndex;"),
            "{io}"
        );
        let prologue = entry_prologue(ctx, &mut needs, 0);
        assert!(prologue.contains("if (_s_in._s_local_invocation_index == 0u) {"));
        assert!(
            prologue.contains("cells = (_s_array8_Cell)0;"),
            "{prologue}"
        );
        assert!(!prologue.contains("unused"));
        assert!(prologue.contains("GroupMemoryBarrierWithGroupSync();"));
        assert!(prologue.contains(&text!(
            "uint3 {} = _s_num_workgroups;",
            ctx.name(NameKey::EntryPointArgument(0, 1))
        )));
        assert!(entry_signature(ctx, &mut needs, 0).starts_with("[numthreads(8, 2, 1)]\n"));
        let g = |n: &str| {
            ctx.name(NameKey::GlobalVariable(global(ctx, n)))
                .to_string()
        };
        let lid = ctx.name(NameKey::EntryPointArgument(0, 0));
        let body = text!(
                "    uint _s_old;\n    InterlockedAdd({cells}[{lid}.x].a, {groups}.x, _s_old);\n    {total} = {tex}[1].SampleLevel({smp}, float2(0.5, 0.5), 0.0).x;\n    {img}[int2({lid}.xy)] = float4({total}, {total}, {total}, {total});\n",
                cells = g("cells"),
                total = g("total"),
                tex = g("tex"),
                smp = g("smp"),
                img = g("img"),
                groups = ctx.name(NameKey::EntryPointArgument(0, 1)),
            );
        let mut text = String::from("#pragma pack_matrix(row_major)\n\n");
        text.push_str(&types::struct_declarations(ctx));
        text.push_str(&resources);
        text.push_str(&globals);
        text.push_str(&io);
        text.push_str(&entry_function(ctx, &mut needs, 0, &body));
        assert!(needs.errors.is_empty(), "{:?}", needs.errors);
        if let Some(dxc) = dxc_path() {
            compile(&dxc, &text, "cs", "cs_6_0", "main");
        }
    });
}

#[test]
fn unsupported_builtins_are_errors() {
    let source = "
            @vertex fn main(@builtin(vertex_index) v: u32) -> @builtin(position) vec4<f32> {
                return vec4<f32>(f32(v));
            }
            @fragment fn fs(@builtin(subgroup_size) s: u32) -> @location(0) vec4<f32> {
                return vec4<f32>(f32(s));
            }";
    let options = HlslOptions {
        shader_model: Some(ShaderModel::Sm5_1),
        ..Default::default()
    };
    with_ctx(source, options, |ctx| {
        let mut needs = Needs::default();
        let _ = entry_io_declarations(ctx, &mut needs, 0);
        assert!(needs.errors.is_empty());
        let _ = entry_prologue(ctx, &mut needs, 1);
        assert_eq!(needs.errors.len(), 1);
        assert!(needs.errors[0].message.contains("subgroup_size"));
        assert!(needs.errors[0].notes.iter().any(|n| n.contains("6_0")));
        // Void result and no input: a bare signature.
        let w = builtin_warnings(ctx, &[0, 1]);
        assert_eq!(w.len(), 1);
        assert!(w[0].message.contains("SV_VertexID"));
    });
}

#[test]
fn fragment_attributes_and_dual_source_targets() {
    let source = "
            enable dual_source_blending;
            struct Out {
                @location(0) @blend_src(0) a: vec4<f32>,
                @location(0) @blend_src(1) b: vec4<f32>,
            }
            @fragment @early_depth_test(force) fn main() -> Out {
                return Out(vec4<f32>(1.0), vec4<f32>(0.5));
            }
            @fragment @early_depth_test(greater_equal)
            fn depth() -> @builtin(frag_depth) f32 { return 1.0; }";
    with_ctx(source, HlslOptions::default(), |ctx| {
        let mut needs = Needs::default();
        assert_eq!(
            entry_signature(ctx, &mut needs, 0),
            "[earlydepthstencil]\n_s_out_main main()"
        );
        let io = entry_io_declarations(ctx, &mut needs, 0);
        assert!(io.contains("float4 _s_target0 : SV_Target0;"), "{io}");
        assert!(io.contains("float4 _s_target1 : SV_Target1;"), "{io}");
        let io = entry_io_declarations(ctx, &mut needs, 1);
        assert!(
            io.contains("float _s_frag_depth : SV_DepthGreaterEqual;"),
            "{io}"
        );
        assert!(needs.errors.is_empty(), "{:?}", needs.errors);
    });
}
