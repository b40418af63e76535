//! Address-space checks and their computed fixes: every fix of every
//! diagnostic is applied and the source re-checked.

use stride::diag::Diagnostic;
use stride::layout::check::{check_keyed, violation_keys, ViolationKey, ViolationKind};
use stride::layout::{self, RuleSet};

/// Spec/000 example B, written in WGSL, used as `var<uniform>`.
const EXAMPLE_B_UNIFORM: &str = "struct A {
    u: f32,
    v: f32,
    w: vec2<f32>,
    x: f32,
}

struct B {
    a: vec2<f32>,
    b: vec3<f32>,
    c: f32,
    d: f32,
    e: A,
    f: vec3<f32>,
    g: @stride(24) array<A, 3>,
    h: f32,
}

@group(0) @binding(0) var<uniform> uniform_buffer: B;

@compute @workgroup_size(1)
fn main() {
    _ = uniform_buffer.h;
}
";

fn example_b_storage() -> String {
    EXAMPLE_B_UNIFORM
        .replace(
            "var<uniform> uniform_buffer",
            "var<storage, read> storage_buffer",
        )
        .replace("uniform_buffer.h", "storage_buffer.h")
}

/// Parse, build and check `source`; panics (in the test) when the front end
/// or the builder reject it.
fn keyed(source: &str) -> Vec<(ViolationKey, Diagnostic)> {
    let parsed = match stride::front::parse(source) {
        Ok(p) => p,
        Err(e) => panic!("parse failed:\n{}", e.render("test.wgsl", source, false)),
    };
    let contract = match layout::build(&parsed, RuleSet::Wgsl) {
        Ok(c) => c,
        Err(e) => panic!("layout failed:\n{}", e.render("test.wgsl", source, false)),
    };
    check_keyed(&parsed, &contract)
}

fn keys_of(source: &str) -> Vec<ViolationKey> {
    let parsed = match stride::front::parse(source) {
        Ok(p) => p,
        Err(e) => panic!("parse failed:\n{}", e.render("fixed.wgsl", source, false)),
    };
    let contract = match layout::build(&parsed, RuleSet::Wgsl) {
        Ok(c) => c,
        Err(e) => panic!("layout failed:\n{}", e.render("fixed.wgsl", source, false)),
    };
    violation_keys(&parsed, &contract)
}

fn key(kind: ViolationKind, place: &str) -> ViolationKey {
    ViolationKey {
        kind,
        place: place.to_string(),
    }
}

fn primary_text<'s>(source: &'s str, d: &Diagnostic) -> &'s str {
    let span = d.primary_span().expect("a primary label");
    &source[span]
}

/// Every diagnostic has at least one fix, and every fix works: applied to
/// the source, that violation is gone and no new one appears; the fixed
/// source also passes `stride::analyze` when nothing else was wrong.
fn assert_all_fixes_work(source: &str) {
    let found = keyed(source);
    assert!(!found.is_empty(), "expected violations");
    let before: Vec<ViolationKey> = found.iter().map(|(k, _)| k.clone()).collect();
    for (k, d) in &found {
        assert!(!d.fixes.is_empty(), "no fix for {k:?}: {}", d.message);
        for fix in &d.fixes {
            let fixed = fix.apply(source);
            let after = keys_of(&fixed);
            assert!(
                !after.contains(k),
                "fix `{}` leaves {k:?}:\n{fixed}",
                fix.title
            );
            for a in &after {
                assert!(
                    before.contains(a),
                    "fix `{}` for {k:?} introduces {a:?}:\n{fixed}",
                    fix.title
                );
            }
            assert!(!fix.outcome.is_empty());
            if after.is_empty() {
                if let Err(e) = stride::analyze(&fixed) {
                    panic!(
                        "fix `{}` gives a source that fails analysis:\n{}\n{fixed}",
                        fix.title,
                        e.render("fixed.wgsl", &fixed, false)
                    );
                }
            }
        }
    }
}

#[test]
fn example_b_uniform_errors() {
    let found = keyed(EXAMPLE_B_UNIFORM);
    let keys: Vec<ViolationKey> = found.iter().map(|(k, _)| k.clone()).collect();
    assert_eq!(
        keys,
        vec![
            key(ViolationKind::StructSize, "A"),
            key(ViolationKind::MemberOffset, "B.e"),
            key(ViolationKind::StructGap, "B.e"),
            key(ViolationKind::ArrayStride, "B.g"),
        ]
    );
    let d = &found[0].1;
    assert_eq!(
        d.message,
        "struct A size is 24 bytes. Uniform buffers require structure sizes to be a multiple of 16 bytes."
    );
    assert_eq!(primary_text(EXAMPLE_B_UNIFORM, d), "A");
    let d = &found[1].1;
    assert_eq!(
        d.message,
        "Structure field `e` has byte offset 40. Uniform buffers require structures to be 16 byte aligned."
    );
    assert_eq!(primary_text(EXAMPLE_B_UNIFORM, d), "e: A");
    let d = &found[2].1;
    assert!(d.message.contains("roundUp(16, 24) = 32"), "{}", d.message);
    assert_eq!(primary_text(EXAMPLE_B_UNIFORM, d), "e: A");
    let d = &found[3].1;
    assert!(d.message.contains("stride"), "{}", d.message);
    assert!(d.message.contains("24 bytes"), "{}", d.message);
    assert_eq!(
        primary_text(EXAMPLE_B_UNIFORM, d),
        "g: @stride(24) array<A, 3>"
    );
    // Every error points at the global that puts B in the uniform buffer.
    for (_, d) in &found {
        assert!(d.severity == stride::diag::Severity::Error);
        assert!(
            d.labels
                .iter()
                .any(|l| !l.primary && &EXAMPLE_B_UNIFORM[l.span.clone()] == "uniform_buffer"),
            "{d:?}"
        );
    }
}

#[test]
fn example_b_uniform_struct_size_fix_updates_stride() {
    let found = keyed(EXAMPLE_B_UNIFORM);
    let (_, d) = &found[0];
    let fix = d
        .fixes
        .iter()
        .find(|f| f.title.contains("struct A"))
        .expect("a struct-level fix");
    let fixed = fix.apply(EXAMPLE_B_UNIFORM);
    assert!(fixed.contains("@size(32) struct A"), "{fixed}");
    assert!(fixed.contains("@stride(32) array<A, 3>"), "{fixed}");
    assert!(
        fix.outcome.contains("struct A: size 24 -> 32"),
        "{}",
        fix.outcome
    );
}

#[test]
fn example_b_uniform_every_fix_works() {
    assert_all_fixes_work(EXAMPLE_B_UNIFORM);
}

#[test]
fn example_b_storage_has_no_errors() {
    let source = example_b_storage();
    assert!(keyed(&source).is_empty());
    if let Err(e) = stride::analyze(&source) {
        panic!("{}", e.render("b.wgsl", &source, false));
    }
}

#[test]
fn example_b_fixed_as_in_spec_passes() {
    // Spec/000 fix (1): align and size on the structs, stride 32.
    let source = EXAMPLE_B_UNIFORM
        .replace("struct A {", "@align(16) @size(32) struct A {")
        .replace("@stride(24)", "@stride(32)");
    assert_eq!(keys_of(&source), vec![]);
    // Spec/000 fix (2): member attributes.
    let source = EXAMPLE_B_UNIFORM
        .replace("    x: f32,", "    @size(16) x: f32,")
        .replace("    e: A,", "    @align(16) e: A,")
        .replace("@stride(24)", "@stride(32)");
    assert_eq!(keys_of(&source), vec![]);
}

const UNIFORM_F32_ARRAY: &str = "struct U {
    values: array<f32, 4>,
}
@group(0) @binding(0) var<uniform> u: U;
";

#[test]
fn uniform_array_stride_4() {
    let found = keyed(UNIFORM_F32_ARRAY);
    assert_eq!(found.len(), 1, "{found:?}");
    let (k, d) = &found[0];
    assert_eq!(*k, key(ViolationKind::ArrayStride, "U.values"));
    assert_eq!(primary_text(UNIFORM_F32_ARRAY, d), "values: array<f32, 4>");
    let fix = &d.fixes[0];
    let fixed = fix.apply(UNIFORM_F32_ARRAY);
    assert!(
        fixed.contains("values: @stride(16) array<f32, 4>"),
        "{fixed}"
    );
    assert!(fix.outcome.contains("stride 4 -> 16"), "{}", fix.outcome);
    assert_all_fixes_work(UNIFORM_F32_ARRAY);
}

#[test]
fn uniform_array_global_and_nested_arrays() {
    let source = "@group(0) @binding(0) var<uniform> u: array<array<f32, 2>, 4>;\n";
    let keys: Vec<ViolationKey> = keyed(source).into_iter().map(|(k, _)| k).collect();
    assert_eq!(
        keys,
        vec![
            key(ViolationKind::ArrayStride, "var u"),
            key(ViolationKind::ArrayStride, "var u[]"),
        ]
    );
    assert_all_fixes_work(source);
}

const GAP: &str = "struct S {
    a: vec2<f32>,
    b: f32,
}
struct U {
    s: S,
    t: f32,
}
@group(0) @binding(0) var<uniform> u: U;
";

#[test]
fn uniform_struct_member_gap() {
    // S is 16 bytes (vec2 + f32 rounded to 8): no size error; but s is at
    // offset 0 with align 8 ... here S = 16 bytes, so the gap holds.
    assert!(keyed(GAP).is_empty());
    let source = GAP.replace("    b: f32,\n", "");
    // S = 8 bytes; t at 8 < roundUp(16, 8) = 16.
    let keys: Vec<ViolationKey> = keyed(&source).into_iter().map(|(k, _)| k).collect();
    assert_eq!(
        keys,
        vec![
            key(ViolationKind::StructSize, "S"),
            key(ViolationKind::StructGap, "U.s"),
        ]
    );
    assert_all_fixes_work(&source);
}

const NESTED: &str = "struct Inner {
    x: f32,
}
struct Middle {
    k: f32,
    inner: Inner,
}
struct Outer {
    m: Middle,
    @align(8) other: Middle,
}
@group(0) @binding(0) var<uniform> u: Outer;
";

#[test]
fn uniform_nested_structs() {
    let keys: Vec<ViolationKey> = keyed(NESTED).into_iter().map(|(k, _)| k).collect();
    // Inner (4 bytes) is the last field of Middle: WGSL needs no room
    // after it, so its size is not an error.
    assert!(
        !keys.contains(&key(ViolationKind::StructSize, "Inner")),
        "{keys:?}"
    );
    assert!(
        keys.contains(&key(ViolationKind::MemberOffset, "Middle.inner")),
        "{keys:?}"
    );
    assert!(
        keys.contains(&key(ViolationKind::MemberAlign, "Outer.other")),
        "{keys:?}"
    );
    // Each struct is reported once even though Middle is used twice.
    let mut sorted = keys.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), keys.len());
    assert_all_fixes_work(NESTED);
}

#[test]
fn semicolon_separators_are_respected() {
    let source = "struct A {
    u: f32;
    v: vec2<f32>;
    w: f32;
}
struct B {
    a: A;
    b: f32;
}
@group(0) @binding(0) var<uniform> u: B;
";
    let found = keyed(source);
    assert!(!found.is_empty());
    for (_, d) in &found {
        for fix in &d.fixes {
            for e in &fix.edits {
                assert!(!e.replacement.contains(','), "{:?}", e.replacement);
            }
        }
    }
    assert_all_fixes_work(source);
}

#[test]
fn storage_runtime_array_and_clean_layouts() {
    let source = "struct P { pos: vec3<f32>, mass: f32 }
struct Ps { count: u32, items: array<P> }
@group(0) @binding(0) var<storage, read_write> ps: Ps;
@group(0) @binding(1) var<uniform> m: mat4x4<f32>;
";
    assert!(keyed(source).is_empty());
}

#[test]
fn diagnostics_render_readably() {
    let parsed = stride::front::parse(EXAMPLE_B_UNIFORM).expect("parses");
    let contract = layout::build(&parsed, RuleSet::Wgsl).expect("lays out");
    let diags = layout::check::check(&parsed, &contract);
    let text = diags.render("example_b.wgsl", EXAMPLE_B_UNIFORM, false);
    println!("{text}");
    assert!(text.contains("example_b.wgsl"));
    assert!(text.contains("fix 1:"));
    assert!(text.contains("result:"));
}

/// Spec/000's own syntax: `[[...]]` attributes and `;` separators.
const BRACKET_SYNTAX: &str = "[[block]] struct A {
    u: f32;
    v: f32;
    w: vec2<f32>;
    x: f32;
};
[[block]] struct B {
    a: vec2<f32>;
    e: A;
    g: [[stride(24)]] array<A, 3>;
    h: f32;
};
[[group(0), binding(0)]] var<uniform> uniform_buffer: B;
";

#[test]
fn bracket_syntax_fixes_use_brackets() {
    let found = keyed(BRACKET_SYNTAX);
    let keys: Vec<ViolationKey> = found.iter().map(|(k, _)| k.clone()).collect();
    assert_eq!(
        keys,
        vec![
            key(ViolationKind::StructSize, "A"),
            key(ViolationKind::MemberOffset, "B.e"),
            key(ViolationKind::StructGap, "B.e"),
            key(ViolationKind::ArrayStride, "B.g"),
        ]
    );
    for (_, d) in &found {
        for fix in &d.fixes {
            for e in &fix.edits {
                assert!(!e.replacement.contains('@'), "{:?}", e.replacement);
            }
        }
    }
    assert_all_fixes_work(BRACKET_SYNTAX);
}

#[test]
fn alias_array_reported_once_at_the_alias() {
    let source = "alias Arr = array<f32, 4>;
struct S { a: vec4<f32>, v: Arr, w: Arr }
@group(0) @binding(0) var<uniform> s: S;
";
    let found = keyed(source);
    let keys: Vec<ViolationKey> = found.iter().map(|(k, _)| k.clone()).collect();
    assert_eq!(keys, vec![key(ViolationKind::ArrayStride, "alias Arr")]);
    assert_eq!(primary_text(source, &found[0].1), "array<f32, 4>");
    assert_all_fixes_work(source);
}

#[test]
fn f16_struct_padding() {
    let source = "enable f16;
struct H { a: f16, b: f16, c: f16 }
struct U { h: H, x: f32, arr: array<H, 2> }
@group(0) @binding(0) var<uniform> u: U;
@group(0) @binding(1) var<storage> s: U;
";
    let keys: Vec<ViolationKey> = keyed(source).into_iter().map(|(k, _)| k).collect();
    assert_eq!(
        keys,
        vec![
            key(ViolationKind::StructSize, "H"),
            key(ViolationKind::StructGap, "U.h"),
            key(ViolationKind::MemberOffset, "U.arr"),
            key(ViolationKind::ArrayStride, "U.arr"),
        ]
    );
    assert_all_fixes_work(source);
}

#[test]
fn existing_attributes_are_changed_not_duplicated() {
    let source = "@size(20) struct A { x: f32 }
struct B { @size(20) a: A, b: f32, @align(8) c: A, d: f32 }
@group(0) @binding(0) var<uniform> u: B;
";
    let found = keyed(source);
    let keys: Vec<ViolationKey> = found.iter().map(|(k, _)| k.clone()).collect();
    assert!(
        keys.contains(&key(ViolationKind::StructSize, "A")),
        "{keys:?}"
    );
    assert!(
        keys.contains(&key(ViolationKind::StructGap, "B.a")),
        "{keys:?}"
    );
    assert!(
        keys.contains(&key(ViolationKind::MemberAlign, "B.c")),
        "{keys:?}"
    );
    let size_fix = &found
        .iter()
        .find(|(k, _)| k.kind == ViolationKind::StructSize)
        .expect("size error")
        .1
        .fixes[0];
    let fixed = size_fix.apply(source);
    assert!(fixed.starts_with("@size(32) struct A"), "{fixed}");
    assert_all_fixes_work(source);
}

#[test]
fn storage_runtime_array_of_a_uniform_struct() {
    let source = "struct A { x: f32 }
struct B { a: A, b: f32 }
@group(0) @binding(0) var<uniform> u: B;
@group(0) @binding(1) var<storage> s: array<A>;
";
    let keys: Vec<ViolationKey> = keyed(source).into_iter().map(|(k, _)| k).collect();
    assert_eq!(
        keys,
        vec![
            key(ViolationKind::StructSize, "A"),
            key(ViolationKind::StructGap, "B.a"),
        ]
    );
    assert_all_fixes_work(source);
}

#[test]
fn struct_in_both_address_spaces() {
    let source = "struct A { v: vec2<f32> }
struct B { k: f32, a: A }
@group(0) @binding(0) var<storage> s: B;
@group(0) @binding(1) var<uniform> u: B;
";
    let found = keyed(source);
    let keys: Vec<ViolationKey> = found.iter().map(|(k, _)| k.clone()).collect();
    assert_eq!(keys, vec![key(ViolationKind::MemberOffset, "B.a")]);
    // The secondary label names the uniform global, not the storage one.
    for (_, d) in &found {
        assert!(d.labels.iter().any(|l| &source[l.span.clone()] == "u"));
    }
    assert_all_fixes_work(source);
}

/// Every corpus error input that reaches the address-space checks gets
/// fixes that work.
#[test]
fn corpus_error_fixes_work() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/errors");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return;
    };
    let mut paths: Vec<_> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "wgsl"))
        .collect();
    paths.sort();
    let mut checked = 0;
    for path in paths {
        let Ok(source) = std::fs::read_to_string(&path) else {
            continue;
        };
        let Ok(parsed) = stride::front::parse(&source) else {
            continue;
        };
        let Ok(contract) = layout::build(&parsed, RuleSet::Wgsl) else {
            continue;
        };
        if violation_keys(&parsed, &contract).is_empty() {
            continue;
        }
        println!("checking fixes of {}", path.display());
        assert_all_fixes_work(&source);
        checked += 1;
    }
    println!("{checked} corpus inputs with address-space errors");
}

#[test]
fn huge_arrays_do_not_overflow() {
    let source = "struct S { a: f32, big: array<f32, 100000000>, b: vec3<f32> }
@group(0) @binding(0) var<uniform> u: S;
";
    if let Ok(parsed) = stride::front::parse(source) {
        if let Ok(contract) = layout::build(&parsed, RuleSet::Wgsl) {
            let keys = violation_keys(&parsed, &contract);
            assert!(
                keys.contains(&key(ViolationKind::ArrayStride, "S.big")),
                "{keys:?}"
            );
            let _ = check_keyed(&parsed, &contract);
        }
    }
}

/// naga's validator overflows on push-constant blocks over 256 bytes; stride
/// reports them at the variable instead.
#[test]
fn push_constants_over_256_bytes_are_an_error() {
    let source = "var<immediate> d: array<u32, 65>;
@compute @workgroup_size(1) fn main() { _ = d[0]; }
";
    let e = match stride::analyze(source) {
        Ok(_) => panic!("260 bytes of push constants must be an error"),
        Err(e) => e,
    };
    let d = &e.0[0];
    assert!(d.message.contains("260 bytes"), "{}", d.message);
    assert_eq!(&source[d.primary_span().expect("span")], "d");
    let fits = "var<immediate> d: array<u32, 64>;
@compute @workgroup_size(1) fn main() { _ = d[0]; }
";
    assert!(stride::analyze(fits).is_ok());
}
