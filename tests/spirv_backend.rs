//! The SPIR-V backend against its oracles: `spirv-val --target-env vulkan1.1`
//! (with the flag a layout warning names) and `spirv-cross --reflect`, whose
//! offsets and strides must equal the contract layout.
//!
//! Without the tools the oracle parts are skipped with a message;
//! `STRIDE_REQUIRE_ORACLES=1` makes a missing tool fail.

use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

use stride::back::spirv::{self, SpirvOptions};
use stride::layout::{LayoutKind, LayoutModule};
use stride::RuleSet;

fn tool(name: &str) -> bool {
    let found = Command::new(name).arg("--version").output().is_ok();
    if !found {
        if std::env::var_os("STRIDE_REQUIRE_ORACLES").is_some_and(|v| v == "1") {
            panic!("{name} is required (STRIDE_REQUIRE_ORACLES=1) but not installed");
        }
        eprintln!("skipped: {name} is not installed (scripts/install-oracles.sh installs it)");
    }
    found
}

fn temp_file(words: &[u32]) -> PathBuf {
    static COUNTER: AtomicUsize = AtomicUsize::new(0);
    let n = COUNTER.fetch_add(1, Ordering::SeqCst);
    let path = std::env::temp_dir().join(format!(
        "stride-spirv-backend-{}-{n}.spv",
        std::process::id()
    ));
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    std::fs::write(&path, bytes).expect("write temp file");
    path
}

/// `spirv-val --target-env vulkan1.1 [flags]`; `Ok` when valid or skipped.
fn spirv_val(words: &[u32], flags: &[&str]) -> Result<(), String> {
    spirv_val_env(words, "vulkan1.1", flags)
}

fn spirv_val_env(words: &[u32], env: &str, flags: &[&str]) -> Result<(), String> {
    if !tool("spirv-val") {
        return Ok(());
    }
    let path = temp_file(words);
    let out = Command::new("spirv-val")
        .args(["--target-env", env])
        .args(flags)
        .arg(&path)
        .output()
        .expect("run spirv-val");
    let _ = std::fs::remove_file(&path);
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

fn reflect(words: &[u32]) -> Option<serde_json::Value> {
    if !tool("spirv-cross") {
        return None;
    }
    let path = temp_file(words);
    let out = Command::new("spirv-cross")
        .arg(&path)
        .arg("--reflect")
        .output()
        .expect("run spirv-cross");
    let _ = std::fs::remove_file(&path);
    assert!(
        out.status.success(),
        "spirv-cross failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(serde_json::from_slice(&out.stdout).expect("spirv-cross JSON"))
}

struct Written {
    words: Vec<u32>,
    warnings: Vec<stride::Diagnostic>,
    contract: LayoutModule,
}

fn write_with(source: &str, options: &SpirvOptions) -> Written {
    write_baked(source, &[], options)
}

fn write_baked(source: &str, overrides: &[(String, f64)], options: &SpirvOptions) -> Written {
    let stride::Analysis {
        parsed, contract, ..
    } = match stride::analyze(source) {
        Ok(r) => r,
        Err(e) => panic!("analyze failed:\n{}", e.render("test.wgsl", source, false)),
    };
    let out = match spirv::write(&parsed, &contract, overrides, options) {
        Ok(o) => o,
        Err(e) => panic!("spirv failed:\n{}", e.render("test.wgsl", source, false)),
    };
    Written {
        words: out.words,
        warnings: out.warnings,
        contract,
    }
}

fn write(source: &str) -> Written {
    write_with(source, &SpirvOptions::default())
}

/// The `spirv-val` flags the warnings name.
fn warning_flags(w: &Written) -> Vec<&'static str> {
    let mut flags = Vec::new();
    for (flag, word) in [
        ("--relax-block-layout", "relaxed block layout"),
        (
            "--uniform-buffer-standard-layout",
            "uniformBufferStandardLayout",
        ),
        ("--scalar-block-layout", "scalarBlockLayout"),
    ] {
        if w.warnings.iter().any(|d| d.message.contains(word)) {
            flags.push(flag);
        }
    }
    flags
}

/// Every member of every contract struct has the contract offset, array
/// stride and matrix stride in `spirv-cross --reflect`.
fn compare_with_reflection(w: &Written) {
    let Some(json) = reflect(&w.words) else {
        return;
    };
    let types = json["types"].as_object().expect("types object");
    let mut compared = 0;
    for layout in w.contract.structs.values() {
        let candidates: Vec<&serde_json::Value> = types
            .values()
            .filter(|t| t["name"] == layout.name.as_str())
            .collect();
        assert!(
            !candidates.is_empty(),
            "struct {} is not in the reflection: {json:#}",
            layout.name
        );
        for t in candidates {
            let members = t["members"].as_array().expect("members");
            for slot in layout.members() {
                let columns = format!("{}_col0", slot.name);
                if let (None, Some(col0), LayoutKind::Matrix { column_stride, .. }) = (
                    members.iter().find(|m| m["name"] == slot.name.as_str()),
                    members.iter().position(|m| m["name"] == columns.as_str()),
                    &slot.layout.kind,
                ) {
                    // A matrix declared as its columns: each at its offset.
                    for (k, column) in members[col0..].iter().enumerate() {
                        let name = format!("{}_col{k}", slot.name);
                        if column["name"] != name.as_str() {
                            break;
                        }
                        let offset = slot.offset + k as u64 * column_stride;
                        assert_eq!(column["offset"].as_u64(), Some(offset), "{name}");
                    }
                    compared += 1;
                    continue;
                }
                let m = members
                    .iter()
                    .find(|m| m["name"] == slot.name.as_str())
                    .unwrap_or_else(|| panic!("{}.{} not reflected", layout.name, slot.name));
                assert_eq!(
                    m["offset"].as_u64(),
                    Some(slot.offset),
                    "offset of {}.{}",
                    layout.name,
                    slot.name
                );
                let mut l = &slot.layout;
                if let LayoutKind::Array { stride, .. } = &l.kind {
                    assert_eq!(
                        m["array_stride"].as_u64(),
                        Some(*stride),
                        "array stride of {}.{}",
                        layout.name,
                        slot.name
                    );
                }
                while let LayoutKind::Array { element, .. } = &l.kind {
                    l = element;
                }
                if let LayoutKind::Matrix { column_stride, .. } = &l.kind {
                    // An array element declared as a struct of its columns
                    // (`col<k>`, each at its offset), or a matrix.
                    let columns = types
                        .get(m["type"].as_str().unwrap_or(""))
                        .and_then(|t| t["members"].as_array());
                    match columns {
                        Some(columns) => {
                            for (k, column) in columns.iter().enumerate() {
                                assert_eq!(column["name"], format!("col{k}").as_str());
                                let offset = k as u64 * column_stride;
                                assert_eq!(column["offset"].as_u64(), Some(offset));
                            }
                        }
                        None => assert_eq!(
                            m["matrix_stride"].as_u64(),
                            Some(*column_stride),
                            "matrix stride of {}.{}",
                            layout.name,
                            slot.name
                        ),
                    }
                }
                compared += 1;
            }
        }
    }
    assert!(compared > 0 || w.contract.structs.is_empty());
}

/// Valid under the flags its warnings name, and laid out as the contract.
fn check(w: &Written) {
    let flags = warning_flags(w);
    if let Err(e) = spirv_val(&w.words, &flags) {
        panic!("spirv-val {flags:?} failed:\n{e}");
    }
    compare_with_reflection(w);
}

#[test]
fn member_align_raises_struct_alignment() {
    // gfx-rs/wgpu#4377: In has align 32, so `i` is at 32 and `b` at 96.
    let w = write(
        "struct In { x: f32, @align(32) y: f32 }
         struct Outer { a: f32, i: In, b: f32 }
         @group(0) @binding(0) var<storage, read_write> buf: Outer;
         @compute @workgroup_size(1) fn main() { buf.b = buf.i.y + buf.a; }",
    );
    assert!(w.warnings.is_empty(), "{:?}", w.warnings);
    let outer = w
        .contract
        .structs
        .values()
        .find(|s| s.name == "Outer")
        .expect("Outer");
    let offsets: Vec<u64> = outer.members().map(|m| m.offset).collect();
    assert_eq!(offsets, [0, 32, 96]);
    check(&w);
}

#[test]
fn one_array_type_with_two_strides() {
    let w = write(
        "struct A { a: @stride(16) array<f32, 4>, b: array<f32, 4>, m: mat3x3<f32>, n: array<mat2x2<f32>, 2> }
         struct B { c: array<f32, 4>, d: @stride(32) array<f32, 4> }
         @group(0) @binding(0) var<storage, read_write> buf: A;
         @group(0) @binding(1) var<storage, read_write> other: B;
         @compute @workgroup_size(1) fn main() {
             buf.b[1] = buf.a[2] + buf.m[1][1] + buf.n[1][0][1];
             other.c[0] = other.d[3];
         }",
    );
    assert!(w.warnings.is_empty(), "{:?}", w.warnings);
    check(&w);
}

#[test]
fn uniform_buffer_layouts() {
    let w = write(
        "struct L { dir: vec3<f32>, intensity: f32, color: vec4<f32>, m: mat2x2<f32>, arr: array<vec4<f32>, 2> }
         struct P { lights: array<L, 2>, count: u32 }
         @group(0) @binding(0) var<uniform> p: P;
         @group(0) @binding(1) var<storage, read_write> out: array<f32>;
         @compute @workgroup_size(1) fn main() {
             out[0] = p.lights[1].m[1][0] + p.lights[0].dir.y + f32(p.count);
         }",
    );
    assert!(w.warnings.is_empty(), "{:?}", w.warnings);
    check(&w);
}

#[test]
fn runtime_sized_array_with_stride() {
    let w = write(
        "struct Particle { pos: vec3<f32>, vel: vec3<f32> }
         struct Buf { count: u32, items: @stride(48) array<Particle> }
         @group(0) @binding(0) var<storage, read_write> buf: Buf;
         @group(0) @binding(1) var<storage, read> plain: @stride(16) array<f32>;
         @compute @workgroup_size(1) fn main() {
             buf.items[buf.count].pos = buf.items[0].vel * plain[2];
         }",
    );
    check(&w);
}

#[test]
fn nested_matcx2_in_uniform_hazard() {
    // naga 30 writes an invalid OpAccessChain for a two-row matrix inside a
    // nested struct of a uniform buffer.
    let w = write(
        "struct S { m: mat2x2<f32>, @size(16) x: f32 }
         struct Root { a: vec4<f32>, s: S }
         @group(0) @binding(0) var<uniform> u: Root;
         @group(0) @binding(1) var<storage, read_write> sink: array<u32>;
         @compute @workgroup_size(1) fn main() { sink[0] = bitcast<u32>(u.s.m[1][0]); }",
    );
    check(&w);
}

/// The exact repro of the issue: S is 24 bytes, which stride's uniform
/// checks reject, so the front end and the layout builder are called
/// directly, without the checks, to hand naga's writer its original input.
#[test]
fn nested_matcx2_exact_repro() {
    let source = "struct S { m: mat2x2<f32>, x: f32 } struct Root { a: vec4<f32>, s: S } @group(0) @binding(0) var<uniform> u: Root; @group(0) @binding(1) var<storage, read_write> sink: array<u32>; @compute @workgroup_size(1) fn main() { sink[0] = bitcast<u32>(u.s.m[1][0]); }";
    let parsed = stride::front::parse(source).expect("parse");
    let contract = stride::layout::build(&parsed, RuleSet::Wgsl).expect("layout");
    let out = spirv::write(&parsed, &contract, &[], &SpirvOptions::default()).expect("spirv");
    let w = Written {
        words: out.words,
        warnings: out.warnings,
        contract,
    };
    assert!(w.warnings.is_empty(), "{:?}", w.warnings);
    check(&w);
    // u.s.m[1][0] is at byte 16 + 8: column 1 of m, component 0.
    if let Some(glsl) = cross_glsl(&w.words) {
        assert!(glsl.contains(".s.m_col1.x"), "{glsl}");
    }
}

fn cross_glsl(words: &[u32]) -> Option<String> {
    if !tool("spirv-cross") {
        return None;
    }
    let path = temp_file(words);
    let out = Command::new("spirv-cross")
        .arg(&path)
        .arg("--vulkan-semantics")
        .output()
        .expect("run spirv-cross");
    let _ = std::fs::remove_file(&path);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn nested_matcx2_every_access_form() {
    let w = write(
        "struct S { m: mat3x2<f32>, @size(16) x: f32, @align(16) @size(48) arr: array<mat2x2<f32>, 2> }
         struct T { pre: f32, @align(16) s: S }
         struct Root { a: vec4<f32>, t: T, s: S, many: array<T, 2> }
         @group(0) @binding(0) var<uniform> u: Root;
         @group(0) @binding(1) var<storage, read_write> sink: array<f32>;
         fn take(s: S) -> f32 { return s.m[2][1]; }
         fn make(s: S) -> T { return T(1.0, s); }
         @compute @workgroup_size(1) fn main(@builtin(local_invocation_index) i: u32) {
             let r = u;
             let m = u.t.s.m;
             var local: T = u.t;
             local.s = u.s;
             sink[0] = u.t.s.m[1][0] + u.s.m[i % 3u][1] + m[2].x + r.t.s.m[0].y;
             sink[1] = take(u.many[1].s) + u.many[i % 2u].s.arr[1][1][0] + local.s.x;
             sink[2] = make(u.s).s.m[1].y + T(2.0, u.t.s).s.x + u.t.s.arr[i % 2u][0].y;
         }",
    );
    assert!(w.warnings.is_empty(), "{:?}", w.warnings);
    check(&w);
}

#[test]
fn determinism() {
    let source = "struct In { x: f32, @align(32) y: vec3<f32> }
         @group(0) @binding(0) var<storage, read_write> buf: In;
         @compute @workgroup_size(1) fn main() { buf.x = buf.y.z; }";
    let a = write(source);
    let b = write(source);
    assert_eq!(a.words, b.words);
}

#[test]
fn strip_names() {
    let source = "struct Params { scale: f32, offset: vec3<f32> }
         @group(0) @binding(0) var<uniform> params: Params;
         @group(0) @binding(1) var<storage, read_write> out: array<f32>;
         @compute @workgroup_size(1) fn main() { out[0] = params.scale; }";
    let named = write(source);
    let stripped = write_with(
        source,
        &SpirvOptions {
            strip_names: true,
            ..Default::default()
        },
    );
    const OP_NAME: u32 = 5;
    const OP_MEMBER_NAME: u32 = 6;
    const OP_STRING: u32 = 7;
    const OP_SOURCE: u32 = 3;
    let opcodes = |words: &[u32]| {
        let mut ops = Vec::new();
        let mut i = 5;
        while i < words.len() {
            let count = (words[i] >> 16) as usize;
            ops.push(words[i] & 0xffff);
            i += count.max(1);
        }
        ops
    };
    assert!(opcodes(&named.words).contains(&OP_MEMBER_NAME));
    let ops = opcodes(&stripped.words);
    for op in [OP_NAME, OP_MEMBER_NAME, OP_STRING, OP_SOURCE] {
        assert!(!ops.contains(&op), "opcode {op} left after strip_names");
    }
    if let Err(e) = spirv_val(&stripped.words, &[]) {
        panic!("stripped module invalid:\n{e}");
    }
    check(&named);
}

#[test]
fn version_selection() {
    let source = "@group(0) @binding(0) var<storage, read_write> out: array<f32>;
         @compute @workgroup_size(1) fn main() { out[0] = 1.0; }";
    for minor in 0..=6u8 {
        let w = write_with(
            source,
            &SpirvOptions {
                version: (1, minor),
                ..Default::default()
            },
        );
        assert_eq!(w.words[1], 0x0001_0000 | (u32::from(minor) << 8));
        // vulkan1.1 accepts SPIR-V up to 1.3, vulkan1.3 up to 1.6.
        let env = if minor <= 3 { "vulkan1.1" } else { "vulkan1.3" };
        if let Err(e) = spirv_val_env(&w.words, env, &[]) {
            panic!("SPIR-V 1.{minor} invalid:\n{e}");
        }
    }
    let stride::Analysis {
        parsed, contract, ..
    } = stride::analyze(source).expect("valid");
    for bad in [(1, 7), (2, 0), (0, 9)] {
        let e = spirv::write(
            &parsed,
            &contract,
            &[],
            &SpirvOptions {
                version: bad,
                ..Default::default()
            },
        )
        .err()
        .expect("unsupported version rejected");
        assert!(e.iter().any(|d| d.message.contains("not supported")));
    }
}

#[test]
fn scalar_layout_warning() {
    // A struct @size below the rounded size puts `b` inside the struct's
    // alignment padding: only scalar block layout allows that.
    let w = write(
        "@size(20) struct S { a: vec4<f32>, x: f32 }
         struct Root { s: S, b: f32 }
         @group(0) @binding(0) var<storage, read_write> r: Root;
         @compute @workgroup_size(1) fn main() { r.b = r.s.x; }",
    );
    let flags = warning_flags(&w);
    assert_eq!(flags, ["--scalar-block-layout"], "{:?}", w.warnings);
    assert!(spirv_val(&w.words, &[]).is_err() || !tool("spirv-val"));
    check(&w);
}

/// An f16 matrix in a uniform buffer has a column stride of 8, which
/// Vulkan's standard uniform layout does not allow for a matrix: stride
/// declares its columns as vector members, and the module needs no
/// device feature.
#[test]
fn uniform_f16_matrices_need_no_feature() {
    let w = write(
        "enable f16;
         struct U { m: mat4x4<f16>, v: vec4<f32>, n: mat2x3<f16> }
         @group(0) @binding(0) var<uniform> u: U;
         @group(0) @binding(1) var<storage, read_write> out: array<f32>;
         @compute @workgroup_size(1) fn main() { out[0] = f32(u.m[1][2]) + u.v.x + f32(u.n[1].z); }",
    );
    assert!(w.warnings.is_empty(), "{:?}", w.warnings);
    check(&w);
    // Every column is a member at its contract offset.
    if let Some(glsl) = cross_glsl(&w.words) {
        assert!(glsl.contains("f16vec4 m_col3;"), "{glsl}");
        assert!(glsl.contains("f16vec3 n_col1;"), "{glsl}");
    }
}

#[test]
fn warning_points_at_the_global() {
    let source = "@size(20) struct S { a: vec4<f32>, x: f32 }
         struct Root { s: S, b: f32 }
         @group(0) @binding(0) var<storage, read_write> r: Root;
         @compute @workgroup_size(1) fn main() { r.b = r.s.x; }";
    let w = write(source);
    let d = &w.warnings[0];
    let span = d.primary_span().expect("span");
    assert_eq!(&source[span], "r");
}

#[test]
fn contract_layout_rules_are_the_only_ones() {
    // naga's own layouter would put `b` at 36; the contract's `@size` on the
    // member says 48.
    let w = write(
        "struct S { @size(48) a: f32, b: f32 }
         @group(0) @binding(0) var<storage, read_write> s: S;
         @compute @workgroup_size(1) fn main() { s.b = s.a; }",
    );
    let _ = RuleSet::Wgsl;
    check(&w);
}

#[test]
fn pointer_arguments_into_variables() {
    // naga 30 panics with "Expression [N] is not cached!" on these calls;
    // the arguments are passed through copies instead.
    let w = write(
        "struct P { pos: vec3<f32>, vel: array<f32, 4> }
         var<private> g: P;
         fn bump(q: ptr<function, f32>) { *q += 1.0; }
         fn first(q: ptr<function, f32>) -> f32 { return *q; }
         fn pick(p: ptr<function, array<f32, 2>>) -> f32 { return first(&(*p)[0]) + first(&(*p)[1]); }
         fn touch(q: ptr<private, vec3<f32>>) -> f32 { (*q).y = 5.0; return (*q).x; }
         fn walk(p: ptr<function, P>, i: u32) -> f32 {
             for (var k = 0u; k < 4u; k++) { (*p).vel[k] = f32(k); bump(&(*p).vel[i]); }
             return (*p).vel[i];
         }
         @group(0) @binding(0) var<storage, read_write> sink: array<f32>;
         @compute @workgroup_size(1) fn main() {
             var x: P;
             var a: array<f32, 2>;
             bump(&a[1]);
             sink[0] = walk(&x, 2u) + touch(&g.pos) + pick(&a) + first(&x.vel[3]);
         }",
    );
    check(&w);
}

#[test]
fn whole_array_copies_between_strides() {
    // `array<f32, 4>` is one WGSL type but two SPIR-V types here (strides 16
    // and 4); stores between them are rebuilt element by element.
    let w = write(
        "struct A { a: @stride(16) array<f32, 4>, n: array<array<f32, 2>, 2> }
         struct B { c: array<f32, 4>, n: @stride(16) array<@stride(8) array<f32, 2>, 2> }
         @group(0) @binding(0) var<storage, read_write> buf: A;
         @group(0) @binding(1) var<storage, read_write> other: B;
         @compute @workgroup_size(1) fn main() {
             var t = buf.a;
             other.c = t;
             buf.a = other.c;
             other.n = buf.n;
         }",
    );
    assert!(w.warnings.is_empty(), "{:?}", w.warnings);
    check(&w);
}

const WITH_OVERRIDES: &str = "
override TILE: u32 = 64u;
@id(7) override GAIN: f32;
@group(0) @binding(0) var<storage, read_write> out: array<f32>;
@compute @workgroup_size(1) fn main() { out[0] = f32(TILE) * GAIN; }
";

#[test]
fn overrides_are_baked_with_defaults_or_given_values() {
    let given = [("GAIN".into(), 2.0), ("TILE".into(), 16.0)];
    let w = write_baked(WITH_OVERRIDES, &given, &SpirvOptions::default());
    assert_eq!(w.warnings.len(), 2, "one warning per baked override");
    assert!(w.warnings[0].message.contains("`TILE`") && w.warnings[0].message.contains("16"));
    check(&w);

    // By @id, with TILE left at its default.
    let by_id = [("7".into(), 0.5)];
    let w = write_baked(WITH_OVERRIDES, &by_id, &SpirvOptions::default());
    assert!(w.warnings[0].message.contains("default value"));
    check(&w);
}

#[test]
fn override_without_value_or_unknown_name_is_an_error() {
    let stride::Analysis {
        parsed, contract, ..
    } = stride::analyze(WITH_OVERRIDES).expect("valid");
    let missing = spirv::write(&parsed, &contract, &[], &SpirvOptions::default())
        .err()
        .expect("GAIN has no default");
    let d = &missing.0[0];
    assert!(d.message.contains("`GAIN` has no default"), "{}", d.message);
    let span = d.primary_span().expect("points at the override");
    assert!(WITH_OVERRIDES[span].contains("override GAIN"));

    let unknown = [("NOPE".into(), 1.0)];
    let err = spirv::write(&parsed, &contract, &unknown, &SpirvOptions::default())
        .err()
        .expect("unknown name");
    assert!(err.0[0].message.contains("no override named `NOPE`"));
}

/// A matCx2 in a nested struct, including where the struct's size leaves
/// no room for a 16-byte multiple before the next member: stride declares
/// every two-row matrix of the buffer as its columns, and the module needs
/// no device feature. (Found by fuzzing: naga's invalid access chain used
/// to get through.)
#[test]
fn nested_matcx2_without_room_for_a_16_byte_stride() {
    for root in [
        "struct Root { s: S }",
        "struct Root { a: mat2x2<f32>, s: S }",
    ] {
        let source = format!(
            "struct S {{ m: mat2x2<f32>, x: f32 }}
             {root}
             @group(0) @binding(0) var<uniform> u: Root;
             @group(0) @binding(1) var<storage, read_write> sink: array<f32>;
             @compute @workgroup_size(1) fn main() {{
                 let s = u.s;
                 let r = u;
                 sink[0] = u.s.m[1][0] + u.s.x + s.m[0][1] + r.s.m[1].y;
             }}"
        );
        let w = write(&source);
        assert!(w.warnings.is_empty(), "{root}: {:?}", w.warnings);
        check(&w);
    }
}
fn write_err(source: &str) -> stride::Diagnostics {
    let stride::Analysis {
        parsed, contract, ..
    } = stride::analyze(source).expect("analyze");
    match spirv::write(&parsed, &contract, &[], &SpirvOptions::default()) {
        Ok(_) => panic!("expected an error for:\n{source}"),
        Err(e) => e,
    }
}

/// A module-scope constant builds the struct holding a nested matCx2:
/// stride declares the buffer's two-row matrices as columns in
/// uniform-only copies of the types, which leaves values and constants as
/// they are.
#[test]
fn nested_matcx2_built_by_a_constant() {
    let source = "struct S { m: mat2x2<f32> }
struct Root { a: vec4<f32>, s: S }
const k = Root(vec4(1.0), S(mat2x2<f32>(1.0, 2.0, 3.0, 4.0)));
@group(0) @binding(0) var<uniform> u: Root;
@group(0) @binding(1) var<storage, read_write> sink: array<f32>;
@compute @workgroup_size(1) fn main() { sink[0] = u.s.m[1][0] + k.a.x + k.s.m[1][1]; }";
    let w = write(source);
    assert!(w.warnings.is_empty(), "{:?}", w.warnings);
    check(&w);
}

#[test]
fn a_module_without_entry_point_is_an_error() {
    let e = write_err("fn f() -> f32 { return 1.0; }");
    assert!(
        e.0[0].message.contains("no entry point"),
        "{}",
        e.0[0].message
    );
}

#[test]
fn failed_override_baking_points_at_the_overrides() {
    let source = "override TILE: u32 = 0;\n@compute @workgroup_size(TILE) fn main() {}\n";
    let e = write_err(source);
    let d = &e.0[0];
    assert!(d.message.contains("strictly positive"), "{}", d.message);
    assert!(d
        .labels
        .iter()
        .any(|l| source[l.span.clone()].starts_with("override TILE")));
}

/// `spirv-val` for Vulkan 1.1 and 1.3 (which checks more of the image
/// rules) accepts `words` with no flag.
fn valid_for_vulkan_1_1_and_1_3(words: &[u32]) {
    for env in ["vulkan1.1", "vulkan1.3"] {
        if let Err(e) = spirv_val_env(words, env, &[]) {
            panic!("spirv-val --target-env {env} failed:\n{e}");
        }
    }
}

/// naga defect: `textureNumLayers` on a storage texture is written as
/// `OpImageQuerySizeLod`, which Vulkan allows only on sampled images
/// (VUID-StandaloneSpirv-OpImageQuerySizeLod-04659, checked by spirv-val
/// for Vulkan 1.3). stride writes `OpImageQuerySize` instead.
#[test]
fn storage_texture_layer_count_queries_without_a_level() {
    let w = write(
        "@group(0) @binding(0) var w: texture_storage_2d_array<rgba8unorm, write>;
         @group(0) @binding(1) var rw: texture_storage_2d_array<r32float, read_write>;
         @group(0) @binding(2) var s: texture_2d_array<f32>;
         @group(0) @binding(3) var<storage, read_write> out: array<u32, 3>;
         @compute @workgroup_size(1) fn main() {
             out[0] = textureNumLayers(w);
             out[1] = textureNumLayers(rw);
             out[2] = textureNumLayers(s);
         }",
    );
    valid_for_vulkan_1_1_and_1_3(&w.words);
}

/// naga defect: a binding-array element passed to a function that takes a
/// texture is passed loaded, where the parameter is a pointer; stride
/// passes the element's access chain.
#[test]
fn binding_array_element_as_texture_argument() {
    let w = write(
        "enable wgpu_binding_array;
         @group(0) @binding(0) var arr: binding_array<texture_2d<f32>, 4>;
         @group(0) @binding(1) var<storage, read_write> out: array<u32, 2>;
         fn levels(t: texture_2d<f32>) -> u32 { return textureNumLevels(t); }
         @compute @workgroup_size(1) fn main() {
             out[0] = levels(arr[1]);
             out[1] = levels(arr[out[1] & 3u]);
         }",
    );
    valid_for_vulkan_1_1_and_1_3(&w.words);
}

/// f16 matrices as a whole uniform buffer and as array elements are
/// declared as structs of their columns; whole, column, dynamic-column and
/// element loads all rebuild from them.
#[test]
fn uniform_f16_matrix_globals_need_no_feature() {
    let w = write(
        "enable f16;
         @group(0) @binding(0) var<uniform> m: mat2x3<f16>;
         @group(0) @binding(1) var<uniform> list: array<mat4x3<f16>, 2>;
         @group(0) @binding(2) var<storage, read_write> out: array<f32>;
         @compute @workgroup_size(2) fn main(@builtin(local_invocation_index) i: u32) {
             let whole = m;
             let all = list;
             out[i] = f32(whole[1][2]) + f32(m[i][2]) + f32(m[1][i]) + f32(list[i][3][i])
                 + f32(all[1][2].y) + f32(list[1][i].z);
         }",
    );
    assert!(w.warnings.is_empty(), "{:?}", w.warnings);
    if let Err(e) = spirv_val(&w.words, &[]) {
        panic!("spirv-val failed:\n{e}");
    }
}
