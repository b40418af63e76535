//! Layout unit tests: the worked examples of spec/000, spec/002 and spec/003,
//! rule-set sanity checks, the dialect's precedence rules and overflow.

use super::{build, Layout, LayoutKind, LayoutModule, PaddingReason, RuleSet, Slot, StructLayout};
use crate::diag::Diagnostics;
use crate::front::{self, Parsed};

fn parse(source: &str) -> Parsed {
    match front::parse(source) {
        Ok(p) => p,
        Err(e) => panic!("parse failed:\n{}", e.render("test.wgsl", source, false)),
    }
}

fn lay(source: &str, rules: RuleSet) -> LayoutModule {
    let parsed = parse(source);
    match build(&parsed, rules) {
        Ok(m) => m,
        Err(e) => panic!("layout failed:\n{}", e.render("test.wgsl", source, false)),
    }
}

fn lay_err(source: &str, rules: RuleSet) -> Diagnostics {
    let parsed = parse(source);
    match build(&parsed, rules) {
        Ok(m) => panic!("expected a layout error, got {m:#?}"),
        Err(e) => e,
    }
}

fn st<'m>(m: &'m LayoutModule, name: &str) -> &'m StructLayout {
    match m.structs.values().find(|s| s.name == name) {
        Some(s) => s,
        None => panic!(
            "no struct {name} in {:?}",
            m.structs.values().map(|s| &s.name)
        ),
    }
}

/// `align size | slot slot ...`, a slot being `name@offset+size` or
/// `pad@offset+size` (`end@...` for struct size padding).
fn summary(s: &StructLayout) -> String {
    let mut out = format!("align {} size {}", s.align, fmt_size(s.size));
    out.push_str(" |");
    for slot in &s.slots {
        match slot {
            Slot::Member(m) => {
                out.push_str(&format!(" {}@{}+{}", m.name, m.offset, fmt_size(m.size)))
            }
            Slot::Padding(p) => {
                let name = match p.reason {
                    PaddingReason::FieldAlignment => "pad",
                    PaddingReason::StructSize => "end",
                };
                out.push_str(&format!(" {name}@{}+{}", p.offset, p.size));
            }
        }
    }
    out
}

fn fmt_size(s: Option<u64>) -> String {
    s.map_or("runtime".to_string(), |s| s.to_string())
}

fn member<'s>(s: &'s StructLayout, name: &str) -> &'s super::MemberSlot {
    match s.members().find(|m| m.name == name) {
        Some(m) => m,
        None => panic!("no member {name} in {}", s.name),
    }
}

fn has_message(d: &Diagnostics, needle: &str) -> bool {
    d.iter().any(|d| d.is_error() && d.message.contains(needle))
}

// ---------------------------------------------------------------- spec/000

const SPEC000_A: &str = "
struct A {
    u : f32,
    v : f32,
    w : vec2<f32>,
    x : f32,
}
";

/// spec/000's default example, standard WGSL only (the default array stride
/// is already 24). `h : 32` in the spec means `h : f32`.
const SPEC000_DEFAULT_STD: &str = "
struct B {
    a : vec2<f32>,
    b : vec3<f32>,
    c : f32,
    d : f32,
    e : A,
    f : vec3<f32>,
    g : array<A, 3>,
    h : f32,
}
@group(0) @binding(0) var<storage> storage_buffer : B;
";

const A_DEFAULT: &str = "align 8 size 24 | u@0+4 v@4+4 w@8+8 x@16+4 end@20+4";
// The spec's listing says the padding after `d` is 12 bytes; `e` (align 8)
// is at 40, so the padding is 36..40, 4 bytes (a typo in the spec).
const B_DEFAULT: &str = "align 16 size 160 | a@0+8 pad@8+8 b@16+12 c@28+4 d@32+4 pad@36+4 \
     e@40+24 f@64+12 pad@76+4 g@80+72 h@152+4 end@156+4";

#[test]
fn spec000_default_layout_standard_wgsl() {
    let src = format!("{SPEC000_A}{SPEC000_DEFAULT_STD}");
    let m = lay(&src, RuleSet::Wgsl);
    assert_eq!(summary(st(&m, "A")), A_DEFAULT);
    assert_eq!(summary(st(&m, "B")), B_DEFAULT);
    let g = member(st(&m, "B"), "g");
    assert_eq!(g.align, 8);
    match &g.layout.kind {
        LayoutKind::Array { stride, count, .. } => assert_eq!((*stride, *count), (24, Some(3))),
        k => panic!("g is {k:?}"),
    }
    // Structs in naga type order; the global is laid out.
    let names: Vec<_> = m.structs.values().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["A", "B"]);
    assert_eq!(m.globals.len(), 1);
    assert_eq!(m.globals[0].name, "storage_buffer");
    assert_eq!(m.globals[0].layout.size, Some(160));
}

#[test]
fn spec000_default_layout_with_stride() {
    let src = format!(
        "{SPEC000_A}{}",
        SPEC000_DEFAULT_STD.replace("g : array<A, 3>", "g : @stride(24) array<A, 3>")
    );
    let m = lay(&src, RuleSet::Wgsl);
    assert_eq!(summary(st(&m, "A")), A_DEFAULT);
    assert_eq!(summary(st(&m, "B")), B_DEFAULT);
}

const B_FIXED: &str = "align 16 size 208 | a@0+8 pad@8+8 b@16+12 c@28+4 d@32+4 pad@36+12 \
     e@48+32 f@80+12 pad@92+4 g@96+96 h@192+4 end@196+12";

#[test]
fn spec000_fix1_struct_attributes() {
    let src = "
@align(16) @size(32) struct A {
    u : f32,
    v : f32,
    w : vec2<f32>,
    x : f32,
}
@align(16) @size(208) struct B {
    a : vec2<f32>,
    b : vec3<f32>,
    c : f32,
    d : f32,
    e : A,
    f : vec3<f32>,
    g : @stride(32) array<A, 3>,
    h : f32,
}
@group(0) @binding(0) var<storage> storage_buffer : B;
";
    let m = lay(src, RuleSet::Wgsl);
    assert_eq!(
        summary(st(&m, "A")),
        "align 16 size 32 | u@0+4 v@4+4 w@8+8 x@16+4 end@20+12"
    );
    assert_eq!(summary(st(&m, "B")), B_FIXED);
    assert_eq!(member(st(&m, "B"), "e").align, 16);
    assert_eq!(member(st(&m, "B"), "g").align, 16);
}

#[test]
fn spec000_fix1_in_bracket_syntax() {
    let src = "
[[align(16), size(32)]] struct A {
    u : f32,
    v : f32,
    w : vec2<f32>,
    x : f32,
}
@group(0) @binding(0) var<storage> storage_buffer : A;
";
    let m = lay(src, RuleSet::Wgsl);
    assert_eq!(
        summary(st(&m, "A")),
        "align 16 size 32 | u@0+4 v@4+4 w@8+8 x@16+4 end@20+12"
    );
}

#[test]
fn spec000_fix2_member_attributes() {
    let src = "
struct A {
    u : f32,
    v : f32,
    w : vec2<f32>,
    @size(16) x : f32,
}
struct B {
    a : vec2<f32>,
    b : vec3<f32>,
    c : f32,
    d : f32,
    @align(16) e : A,
    f : vec3<f32>,
    g : @stride(32) array<A, 3>,
    h : f32,
}
@group(0) @binding(0) var<storage> storage_buffer : B;
";
    let m = lay(src, RuleSet::Wgsl);
    assert_eq!(
        summary(st(&m, "A")),
        "align 8 size 32 | u@0+4 v@4+4 w@8+8 x@16+16"
    );
    assert_eq!(summary(st(&m, "B")), B_FIXED);
    assert_eq!(member(st(&m, "B"), "e").align, 16);
    assert_eq!(member(st(&m, "B"), "g").align, 8);
}

#[test]
fn spec000_fix3_padding_members() {
    // `_` is not a WGSL identifier, so the padding members are named. The
    // spec's listing moves `e` to 48 without showing how; a padding member
    // after `d` does it.
    let src = "
struct A {
    u : f32,
    v : f32,
    w : vec2<f32>,
    x : f32,
    _pad0 : array<f32, 3>,
}
struct B {
    a : vec2<f32>,
    b : vec3<f32>,
    c : f32,
    d : f32,
    _pad1 : array<f32, 3>,
    e : A,
    f : vec3<f32>,
    g : array<A, 3>,
    h : f32,
}
@group(0) @binding(0) var<storage> storage_buffer : B;
";
    let m = lay(src, RuleSet::Wgsl);
    assert_eq!(
        summary(st(&m, "A")),
        "align 8 size 32 | u@0+4 v@4+4 w@8+8 x@16+4 _pad0@20+12"
    );
    assert_eq!(
        summary(st(&m, "B")),
        "align 16 size 208 | a@0+8 pad@8+8 b@16+12 c@28+4 d@32+4 _pad1@36+12 \
         e@48+32 f@80+12 pad@92+4 g@96+96 h@192+4 end@196+12"
    );
}

// ---------------------------------------------------------------- spec/002

const SPEC002: &str = "
struct simple1 { x : f32, y : f32 }
struct simple2 { x : vec3<f32>, y : f32 }
struct nested { s2 : simple2, s1 : simple1 }
struct array_struct { x : array<f32, 4>, y : f32 }
struct nested2 { s1 : simple1, s2 : simple2 }
@group(0) @binding(0) var<uniform> u_nested : nested;
@group(0) @binding(1) var<uniform> u_array_struct : array_struct;
@group(0) @binding(2) var<uniform> u_nested2 : nested2;
";

fn offsets(s: &StructLayout) -> Vec<u64> {
    s.members().map(|m| m.offset).collect()
}

#[test]
fn spec002_hlsl_structured() {
    let m = lay(SPEC002, RuleSet::HlslStructured);
    let expect: [(&str, u64, &[u64]); 5] = [
        ("simple1", 8, &[0, 4]),
        ("simple2", 16, &[0, 12]),
        ("nested", 24, &[0, 16]),
        ("array_struct", 20, &[0, 16]),
        ("nested2", 24, &[0, 8]),
    ];
    for (name, size, offs) in expect {
        let s = st(&m, name);
        assert_eq!(
            (s.size, offsets(s).as_slice()),
            (Some(size), offs),
            "{name}"
        );
        assert_eq!(s.align, 4, "{name}");
    }
}

#[test]
fn spec002_hlsl_cbuffer() {
    let m = lay(SPEC002, RuleSet::HlslCbuffer);
    let expect: [(&str, u64, &[u64]); 5] = [
        ("simple1", 8, &[0, 4]),
        ("simple2", 16, &[0, 12]),
        ("nested", 24, &[0, 16]),
        ("array_struct", 56, &[0, 52]),
        ("nested2", 32, &[0, 16]),
    ];
    for (name, size, offs) in expect {
        let s = st(&m, name);
        assert_eq!(
            (s.size, offsets(s).as_slice()),
            (Some(size), offs),
            "{name}"
        );
    }
    assert_eq!(
        summary(st(&m, "array_struct")),
        "align 16 size 56 | x@0+52 y@52+4"
    );
    assert_eq!(
        summary(st(&m, "nested2")),
        "align 16 size 32 | s1@0+8 pad@8+8 s2@16+16"
    );
}

// ---------------------------------------------------------------- spec/003

#[test]
fn spec003_cb1() {
    let src = "
struct S { v : i32 }
struct cb1 { i : i32, s : S, j : i32 }
@group(0) @binding(0) var<uniform> cb : cb1;
";
    let m = lay(src, RuleSet::HlslCbuffer);
    assert_eq!(
        summary(st(&m, "cb1")),
        "align 16 size 24 | i@0+4 pad@4+12 s@16+4 j@20+4"
    );
}

/// cb2 written in WGSL: naga 30's WGSL front end accepts `f64` (no `enable`
/// needed to parse) and `f16` with `enable f16;`, so every member can be
/// written; `float16_t a4[2][2]` is `array<array<f16, 2>, 2>`.
#[test]
fn spec003_cb2() {
    let src = "
enable f16;
struct cb2 {
    a1 : array<f32, 3>,
    a2 : array<vec3<f64>, 2>,
    a3 : array<vec4<u32>, 2>,
    a4 : array<array<f16, 2>, 2>,
}
@group(0) @binding(0) var<uniform> cb : cb2;
";
    let m = lay(src, RuleSet::HlslCbuffer);
    assert_eq!(
        summary(st(&m, "cb2")),
        "align 16 size 194 | a1@0+36 pad@36+12 a2@48+56 pad@104+8 a3@112+32 a4@144+50"
    );
    let a2 = member(st(&m, "cb2"), "a2");
    match &a2.layout.kind {
        LayoutKind::Array {
            stride, element, ..
        } => {
            assert_eq!((*stride, element.size), (32, Some(24)))
        }
        k => panic!("a2 is {k:?}"),
    }
}

// ------------------------------------------------------- rule-set sanity

const SANITY: &str = "
struct V3 { a : vec3<f32>, b : f32 }
struct Arr { a : array<f32, 4>, b : f32 }
struct M2 { m : mat2x2<f32>, b : f32 }
struct M3 { m : mat3x3<f32>, b : f32 }
struct Outer { x : f32, v : V3 }
@group(0) @binding(0) var<storage> s_v3 : V3;
@group(0) @binding(1) var<storage> s_arr : Arr;
@group(0) @binding(2) var<storage> s_m2 : M2;
@group(0) @binding(3) var<storage> s_m3 : M3;
@group(0) @binding(4) var<storage> s_outer : Outer;
";

fn matrix(l: &Layout) -> (u64, u64, Option<u64>) {
    match l.kind {
        LayoutKind::Matrix { column_stride, .. } => (column_stride, l.align, l.size),
        ref k => panic!("not a matrix: {k:?}"),
    }
}

fn array_stride(l: &Layout) -> u64 {
    match l.kind {
        LayoutKind::Array { stride, .. } => stride,
        ref k => panic!("not an array: {k:?}"),
    }
}

#[test]
fn std140_sanity() {
    let m = lay(SANITY, RuleSet::Std140);
    assert_eq!(summary(st(&m, "V3")), "align 16 size 16 | a@0+12 b@12+4");
    assert_eq!(
        summary(st(&m, "Arr")),
        "align 16 size 80 | a@0+64 b@64+4 end@68+12"
    );
    assert_eq!(array_stride(&member(st(&m, "Arr"), "a").layout), 16);
    assert_eq!(
        matrix(&member(st(&m, "M2"), "m").layout),
        (16, 16, Some(32))
    );
    assert_eq!(member(st(&m, "M2"), "b").offset, 32);
    assert_eq!(
        matrix(&member(st(&m, "M3"), "m").layout),
        (16, 16, Some(48))
    );
    assert_eq!(
        summary(st(&m, "Outer")),
        "align 16 size 32 | x@0+4 pad@4+12 v@16+16"
    );
}

#[test]
fn std430_sanity() {
    let m = lay(SANITY, RuleSet::Std430);
    assert_eq!(summary(st(&m, "V3")), "align 16 size 16 | a@0+12 b@12+4");
    assert_eq!(summary(st(&m, "Arr")), "align 4 size 20 | a@0+16 b@16+4");
    assert_eq!(array_stride(&member(st(&m, "Arr"), "a").layout), 4);
    assert_eq!(matrix(&member(st(&m, "M2"), "m").layout), (8, 8, Some(16)));
    assert_eq!(
        summary(st(&m, "M2")),
        "align 8 size 24 | m@0+16 b@16+4 end@20+4"
    );
    assert_eq!(
        matrix(&member(st(&m, "M3"), "m").layout),
        (16, 16, Some(48))
    );
}

#[test]
fn scalar_sanity() {
    let m = lay(SANITY, RuleSet::Scalar);
    assert_eq!(summary(st(&m, "V3")), "align 4 size 16 | a@0+12 b@12+4");
    assert_eq!(summary(st(&m, "Arr")), "align 4 size 20 | a@0+16 b@16+4");
    assert_eq!(matrix(&member(st(&m, "M2"), "m").layout), (8, 4, Some(16)));
    assert_eq!(matrix(&member(st(&m, "M3"), "m").layout), (12, 4, Some(36)));
    assert_eq!(summary(st(&m, "M3")), "align 4 size 40 | m@0+36 b@36+4");
    assert_eq!(summary(st(&m, "Outer")), "align 4 size 20 | x@0+4 v@4+16");
}

#[test]
fn wgsl_sanity() {
    let m = lay(SANITY, RuleSet::Wgsl);
    assert_eq!(summary(st(&m, "Arr")), "align 4 size 20 | a@0+16 b@16+4");
    assert_eq!(matrix(&member(st(&m, "M2"), "m").layout), (8, 8, Some(16)));
    assert_eq!(
        matrix(&member(st(&m, "M3"), "m").layout),
        (16, 16, Some(48))
    );
    assert_eq!(
        summary(st(&m, "M3")),
        "align 16 size 64 | m@0+48 b@48+4 end@52+12"
    );
}

#[test]
fn hlsl_cbuffer_registers() {
    let src = "
struct R {
    a : f32, b : f32, c : vec3<f32>, d : vec2<f32>, e : f32, f : vec2<f32>, m : mat3x3<f32>, g : f32,
}
@group(0) @binding(0) var<uniform> r : R;
";
    let m = lay(src, RuleSet::HlslCbuffer);
    // c would straddle c0 (8..20) -> c1; d would straddle c1 (28..36) -> c2;
    // f would straddle c2 (44..52) -> c3; m starts c4, its columns at 64, 80
    // and 96 (44 bytes); g packs into the last column's register.
    assert_eq!(
        summary(st(&m, "R")),
        "align 16 size 112 | a@0+4 b@4+4 pad@8+8 c@16+12 pad@28+4 d@32+8 e@40+4 pad@44+4 \
         f@48+8 pad@56+8 m@64+44 g@108+4"
    );
    assert_eq!(matrix(&member(st(&m, "R"), "m").layout), (16, 16, Some(44)));
}

#[test]
fn f16_and_64_bit_types() {
    let src = "
enable f16;
struct H { a : f16, b : vec3<f16>, c : vec2<f16>, d : f64, e : vec3<f64>, i : i64, u : u64 }
@group(0) @binding(0) var<storage> h : H;
";
    let m = lay(src, RuleSet::Wgsl);
    assert_eq!(
        summary(st(&m, "H")),
        "align 32 size 96 | a@0+2 pad@2+6 b@8+6 pad@14+2 c@16+4 pad@20+4 d@24+8 e@32+24 \
         i@56+8 u@64+8 end@72+24"
    );
    let m = lay(src, RuleSet::Scalar);
    assert_eq!(
        summary(st(&m, "H")),
        "align 8 size 64 | a@0+2 b@2+6 c@8+4 pad@12+4 d@16+8 e@24+24 i@48+8 u@56+8"
    );
    let m = lay(src, RuleSet::HlslStructured);
    assert_eq!(st(&m, "H").size, Some(64));
    let m = lay(src, RuleSet::Std140);
    assert_eq!(st(&m, "H").align, 32);
}

#[test]
fn runtime_sized_arrays() {
    let src = "
struct P { n : u32, items : array<vec3<f32>> }
@group(0) @binding(0) var<storage, read_write> p : P;
@group(0) @binding(1) var<storage> raw : array<u32>;
";
    let m = lay(src, RuleSet::Wgsl);
    assert_eq!(
        summary(st(&m, "P")),
        "align 16 size runtime | n@0+4 pad@4+12 items@16+runtime"
    );
    assert_eq!(m.globals.len(), 2);
    assert_eq!(m.globals[1].layout.size, None);
    assert_eq!(array_stride(&m.globals[1].layout), 4);
}

#[test]
fn only_buffer_globals_and_reachable_structs() {
    let src = "
struct Used { a : f32 }
struct Unused { b : f32 }
var<private> p : Unused;
var<workgroup> w : Unused;
@group(0) @binding(0) var<uniform> u : Used;
";
    let m = lay(src, RuleSet::Wgsl);
    let names: Vec<_> = m.structs.values().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["Used"]);
    let globals: Vec<_> = m.globals.iter().map(|g| g.name.as_str()).collect();
    assert_eq!(globals, ["u"]);
}

#[test]
fn override_sized_array_is_an_error() {
    let src = "
override n : u32 = 4u;
var<workgroup> w : array<f32, n>;
";
    // Workgroup arrays may be override-sized; they are not buffers.
    let m = lay(src, RuleSet::Wgsl);
    assert!(m.globals.is_empty());
    // In a buffer, naga's front end accepts the declaration (validation
    // would reject it later); the layout reports it.
    let src = "
override n : u32 = 4u;
struct S { a : array<f32, n> }
@group(0) @binding(0) var<storage> s : S;
";
    if let Ok(parsed) = front::parse(src) {
        let d = match build(&parsed, RuleSet::Wgsl) {
            Ok(m) => panic!("expected an error, got {m:?}"),
            Err(d) => d,
        };
        assert!(
            has_message(&d, "override-sized arrays are not supported"),
            "{d}"
        );
    }
}

// ------------------------------------------------------ dialect precedence

#[test]
fn member_attributes_beat_the_type() {
    let src = "
@size(16) alias RGBX = vec3<f32>;
@align(16) struct A { x : f32 }
struct S {
    @size(20) c : RGBX,
    @align(32) a : A,
    d : RGBX,
}
@group(0) @binding(0) var<storage> s : S;
";
    let m = lay(src, RuleSet::Wgsl);
    assert_eq!(summary(st(&m, "A")), "align 16 size 16 | x@0+4 end@4+12");
    assert_eq!(
        summary(st(&m, "S")),
        "align 32 size 64 | c@0+20 pad@20+12 a@32+16 d@48+16"
    );
}

#[test]
fn struct_align_drives_the_default_size() {
    let src = "
@align(16) struct A { x : f32, y : f32 }
@group(0) @binding(0) var<storage> a : A;
";
    let m = lay(src, RuleSet::Wgsl);
    assert_eq!(
        summary(st(&m, "A")),
        "align 16 size 16 | x@0+4 y@4+4 end@8+8"
    );
}

#[test]
fn explicit_struct_size_below_the_rounding_is_legal() {
    // The spec's `[[size(16), align(32)]] struct S { u32 i; }`.
    let src = "
[[size(16), align(32)]] struct S { i : u32 }
struct T { s : S, j : u32 }
@group(0) @binding(0) var<storage> t : T;
";
    let m = lay(src, RuleSet::Wgsl);
    assert_eq!(summary(st(&m, "S")), "align 32 size 16 | i@0+4 end@4+12");
    assert_eq!(
        summary(st(&m, "T")),
        "align 32 size 32 | s@0+16 j@16+4 end@20+12"
    );
}

#[test]
fn alias_align_changes_alignment_only() {
    let src = "
@align(16) alias V2 = vec2<f32>;
@size(16) alias RGBX = vec3<f32>;
struct S { a : V2, b : f32, c : RGBX, d : f32 }
@group(0) @binding(0) var<storage> s : S;
";
    let m = lay(src, RuleSet::Wgsl);
    assert_eq!(
        summary(st(&m, "S")),
        "align 16 size 48 | a@0+8 b@8+4 pad@12+4 c@16+16 d@32+4 end@36+12"
    );
    let a = member(st(&m, "S"), "a");
    assert_eq!((a.align, a.layout.size), (16, Some(8)));
}

#[test]
fn alias_chains_and_arrays_of_aliases() {
    let src = "
@size(16) alias RGBX = vec3<f32>;
alias Pixel = RGBX;
@align(32) alias Wide = Pixel;
struct S { p : array<Pixel, 2>, w : Wide }
@group(0) @binding(0) var<storage> s : S;
";
    let m = lay(src, RuleSet::Wgsl);
    assert_eq!(
        summary(st(&m, "S")),
        "align 32 size 64 | p@0+32 w@32+16 end@48+16"
    );
    assert_eq!(array_stride(&member(st(&m, "S"), "p").layout), 16);
}

#[test]
fn explicit_stride() {
    let src = "
struct S { a : @stride(16) array<f32, 4>, b : f32, c : array<@stride(8) array<f32, 2>, 3> }
@group(0) @binding(0) var<storage> s : S;
";
    let m = lay(src, RuleSet::Wgsl);
    assert_eq!(
        summary(st(&m, "S")),
        "align 4 size 116 | a@0+64 b@64+4 c@68+48"
    );
    let c = &member(st(&m, "S"), "c").layout;
    assert_eq!(array_stride(c), 16);
    match &c.kind {
        LayoutKind::Array { element, .. } => assert_eq!(array_stride(element), 8),
        k => panic!("c is {k:?}"),
    }
}

#[test]
fn other_rule_sets_ignore_attributes() {
    let src = "
@align(16) @size(32) struct A { x : f32, @size(8) y : f32 }
struct S { @align(16) a : A, b : @stride(16) array<f32, 2> }
@group(0) @binding(0) var<storage> s : S;
";
    let wgsl = lay(src, RuleSet::Wgsl);
    assert_eq!(summary(st(&wgsl, "S")), "align 16 size 64 | a@0+32 b@32+32");
    let std430 = lay(src, RuleSet::Std430);
    assert_eq!(summary(st(&std430, "A")), "align 4 size 8 | x@0+4 y@4+4");
    assert_eq!(summary(st(&std430, "S")), "align 4 size 16 | a@0+8 b@8+8");
}

#[test]
fn attribute_errors_point_at_the_value() {
    let cases = [
        (
            "@align(2) struct A { x : f32 }",
            "@align(2)",
            "natural alignment",
        ),
        ("@size(2) struct A { x : f32 }", "@size(2)", "natural size"),
        (
            "@size(2) alias F = f32; struct A { x : F }",
            "@size(2)",
            "natural size",
        ),
        (
            "@align(2) alias F = f32; struct A { x : F }",
            "@align(2)",
            "natural alignment",
        ),
        (
            "struct A { x : @stride(2) array<f32, 2> }",
            "@stride(2)",
            "element size",
        ),
        (
            "struct A { x : @stride(6) array<f32, 2> }",
            "@stride(6)",
            "multiple",
        ),
        (
            "struct A { x : @stride(20) array<vec4<f32>, 2> }",
            "@stride(20)",
            "multiple",
        ),
    ];
    for (decl, attr, needle) in cases {
        let src = format!("{decl}\n@group(0) @binding(0) var<storage> a : A;\n");
        let d = lay_err(&src, RuleSet::Wgsl);
        assert!(has_message(&d, needle), "{decl}: {d}");
        // The primary label covers the value inside the attribute.
        let at = src.find(attr).map(|i| i..i + attr.len());
        let span = d.iter().find_map(|d| d.primary_span());
        match (at, span) {
            (Some(at), Some(span)) => assert!(
                span.start >= at.start && span.end <= at.end && span.start < span.end,
                "{decl}: span {span:?} not within {at:?}"
            ),
            _ => panic!("{decl}: no span"),
        }
        // The natural layout of other rule sets is not affected.
        assert!(build(&parse(&src), RuleSet::Std430).is_ok(), "{decl}");
    }
}

// ---------------------------------------------------------------- overflow

/// A module built by hand: naga's WGSL front end itself rejects types over
/// 4 GiB, so `array<f32, 4000000000>` never reaches `build` through `parse`.
fn hand_built(
    types: impl FnOnce(&mut naga::UniqueArena<naga::Type>) -> naga::Handle<naga::Type>,
) -> Parsed {
    let mut module = naga::Module::default();
    let ty = types(&mut module.types);
    module.global_variables.append(
        naga::GlobalVariable {
            name: Some("big".to_string()),
            space: naga::AddressSpace::Storage {
                access: naga::StorageAccess::LOAD,
            },
            binding: Some(naga::ResourceBinding {
                group: 0,
                binding: 0,
            }),
            ty,
            init: None,
            memory_decorations: Default::default(),
        },
        naga::Span::new(10, 20),
    );
    Parsed {
        source: " ".repeat(32),
        standard: " ".repeat(32),
        map: Default::default(),
        scanned: Default::default(),
        annotations: Default::default(),
        module,
        warnings: Vec::new(),
        allocations: Vec::new(),
        uniform_standard: false,
    }
}

fn array_of(
    types: &mut naga::UniqueArena<naga::Type>,
    base: naga::Handle<naga::Type>,
    count: u32,
) -> naga::Handle<naga::Type> {
    let size = naga::ArraySize::Constant(std::num::NonZeroU32::MIN.saturating_add(count - 1));
    types.insert(
        naga::Type {
            name: None,
            inner: naga::TypeInner::Array {
                base,
                size,
                stride: 4,
            },
        },
        naga::Span::new(10, 20),
    )
}

fn f32_type(types: &mut naga::UniqueArena<naga::Type>) -> naga::Handle<naga::Type> {
    types.insert(
        naga::Type {
            name: None,
            inner: naga::TypeInner::Scalar(naga::Scalar::F32),
        },
        naga::Span::new(10, 20),
    )
}

#[test]
fn huge_array_is_an_error_not_an_overflow() {
    let parsed = hand_built(|t| {
        let f = f32_type(t);
        array_of(t, f, 4_000_000_000)
    });
    for rules in RuleSet::ALL {
        let d = match build(&parsed, rules) {
            Ok(m) => panic!("{rules:?}: expected an error, got {m:?}"),
            Err(d) => d,
        };
        assert!(has_message(&d, "bytes a buffer can address"), "{d}");
        assert_eq!(d.iter().find_map(|d| d.primary_span()), Some(10..20));
    }
}

#[test]
fn nested_huge_arrays_do_not_overflow_u64() {
    let parsed = hand_built(|t| {
        let f = f32_type(t);
        let a = array_of(t, f, 4_000_000_000);
        let b = array_of(t, a, 4_000_000_000);
        array_of(t, b, 4_000_000_000)
    });
    for rules in RuleSet::ALL {
        assert!(build(&parsed, rules).is_err(), "{rules:?}");
    }
}

#[test]
fn huge_array_from_wgsl_is_a_diagnostic() {
    // naga's front end reports it; either way no panic and an error.
    let src = "
struct S { a : array<f32, 4000000000> }
@group(0) @binding(0) var<storage> s : S;
";
    let result = front::parse(src).map(|p| build(&p, RuleSet::Wgsl).map(|_| ()));
    assert!(matches!(result, Err(_) | Ok(Err(_))));
}

#[test]
fn stride_on_an_alias_of_an_array_applies_to_the_array() {
    let src = "
alias Y = array<f32, 4>;
alias Z = @stride(8) array<f32, 4>;
struct S { a : @stride(16) Y, b : f32, c : Z, d : @stride(32) Z }
@group(0) @binding(0) var<storage> s : S;
";
    let m = lay(src, RuleSet::Wgsl);
    let s = st(&m, "S");
    assert_eq!(
        summary(s),
        "align 4 size 228 | a@0+64 b@64+4 c@68+32 d@100+128"
    );
    assert_eq!(array_stride(&member(s, "a").layout), 16);
    assert_eq!(array_stride(&member(s, "c").layout), 8);
    assert_eq!(array_stride(&member(s, "d").layout), 32);
}

/// `requires uniform_buffer_standard_layout;` lifts the uniform rules (16-byte
/// array strides, struct sizes and offsets); the offsets stay WGSL's.
#[test]
fn uniform_standard_layout_takes_the_storage_rules() {
    let body = "struct S { a: f32, b: f32 }
struct U { pairs: array<S, 3>, t: f32, inner: S, w: array<f32, 2> }
@group(0) @binding(0) var<uniform> u: U;
";
    let plain = crate::analyze(body).err().unwrap_or_default();
    assert!(has_message(&plain, "Uniform buffers require"), "{plain:?}");
    let standard = format!("requires uniform_buffer_standard_layout;\n{body}");
    if let Err(e) = crate::analyze(&standard) {
        panic!("{}", e.render("u.wgsl", &standard, false));
    }
    // The contract is the same either way: the directive changes checks only.
    let a = crate::analyze(&standard).ok();
    let offsets: Vec<u64> = a
        .as_ref()
        .and_then(|a| a.contract.structs.values().find(|s| s.name == "U"))
        .map(|s| s.members().map(|m| m.offset).collect())
        .unwrap_or_default();
    assert_eq!(offsets, [0, 24, 28, 36]);
}
