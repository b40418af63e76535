//! Tests of the block realization as data: offsets, padding fields, split
//! matrices, element structs, capabilities and errors. The GLSL printing of
//! realizations (and the glslang oracle) is tested in `back::glsl::buffers`.

use super::*;
use crate::layout::realize::Capabilities;

const U16: naga::Scalar = naga::Scalar {
    kind: naga::ScalarKind::Uint,
    width: 2,
};

/// Vulkan-like: offset qualifiers, 16-bit padding, std430 push constants.
const VULKAN: Capabilities = Capabilities {
    name: "vulkan450",
    member_offsets: true,
    padding_scalars: &[naga::Scalar::U32, U16],
    push_constant_rules: RuleSet::Std430,
};

/// ES-like: no offset qualifiers, 32-bit padding only, std140 push constants.
const ES: Capabilities = Capabilities {
    name: "es310",
    member_offsets: false,
    padding_scalars: &[naga::Scalar::U32],
    push_constant_rules: RuleSet::Std140,
};

struct Fixture {
    parsed: Parsed,
    contract: LayoutModule,
}

fn fixture(source: &str) -> Fixture {
    let parsed = crate::front::parse(source).unwrap_or_else(|d| panic!("{d}"));
    let contract = crate::layout::build(&parsed, RuleSet::Wgsl).unwrap_or_else(|d| panic!("{d}"));
    Fixture { parsed, contract }
}

impl Fixture {
    fn realize(&self, caps: &Capabilities) -> BlockRealization {
        realize(&self.parsed, &self.parsed.module, &self.contract, caps)
    }

    fn block(&self, r: &BlockRealization, name: &str) -> Block {
        let g = self
            .contract
            .globals
            .iter()
            .find(|g| g.name.as_str() == name)
            .expect("global");
        r.block(g.handle).expect("block").clone()
    }
}

/// Spells types by shape only, for messages in tests.
struct Plain;

impl crate::layout::realize::Spelling<Made> for Plain {
    fn storage(&self, ty: &Storage) -> String {
        match ty {
            Storage::Scalar(s) => format!("s{}", s.width),
            Storage::Vector(n, s) => format!("v{n}x{}", s.width),
            Storage::Matrix { columns, rows, .. } => format!("m{columns}x{rows}"),
            Storage::Array(e, n) => format!("{}[{}]", self.storage(e), n.unwrap_or(0)),
            Storage::Struct { of, .. } => format!("{of:?}"),
        }
    }
    fn name(&self, what: Made) -> String {
        format!("{what:?}")
    }
    fn field(&self, what: Made, index: usize) -> String {
        format!("{what:?}.{index}")
    }
}

fn offsets(fields: &[Field]) -> Vec<(u64, bool)> {
    fields.iter().map(|f| (f.offset, f.is_padding())).collect()
}

#[test]
fn offsets_or_padding_by_capability() {
    let fx = fixture(
        "struct S { a: f32, @align(32) b: f32 }
@group(0) @binding(0) var<storage, read_write> s: S;
@compute @workgroup_size(1) fn main() { s.a = s.b; }",
    );
    let r = fx.realize(&VULKAN);
    assert!(r.problems.is_empty());
    let b = fx.block(&r, "s");
    assert!(b.offsets);
    assert_eq!(b.rules, RuleSet::Std430);
    assert_eq!(offsets(&b.fields), [(0, false), (32, false)]);

    // Without offset qualifiers a padding field places `b`: a uvec4 at its
    // own alignment (16) ends at 32.
    let r = fx.realize(&ES);
    assert!(r.problems.is_empty());
    let b = fx.block(&r, "s");
    assert!(!b.offsets);
    assert_eq!(offsets(&b.fields), [(0, false), (16, true), (32, false)]);
    assert_eq!(b.fields[1].ty, Storage::Vector(4, naga::Scalar::U32));
    assert_eq!(b.fields[2].role, Role::Member(1));
}

#[test]
fn split_matrices_and_column_structs() {
    let fx = fixture(
        "@group(0) @binding(0) var<uniform> m: mat4x2<f32>;
@group(0) @binding(1) var<uniform> ms: array<mat2x2<f32>, 3>;
@group(0) @binding(2) var<storage, read_write> o: f32;
@compute @workgroup_size(1) fn main() { o = m[1].x + ms[2][0].y; }",
    );
    let r = fx.realize(&VULKAN);
    assert!(r.problems.is_empty());
    let m = fx.block(&r, "m");
    assert!(matches!(
        m.repr,
        Repr::Columns {
            columns: 4,
            rows: 2,
            style: ColumnStyle::Members,
            ..
        }
    ));
    let columns: Vec<(u64, Role)> = m.fields.iter().map(|f| (f.offset, f.role)).collect();
    assert_eq!(
        columns,
        (0..4u8)
            .map(|j| (
                u64::from(j) * 8,
                Role::Column {
                    member: 0,
                    column: j
                }
            ))
            .collect::<Vec<_>>()
    );
    // In an array, a struct of columns (std140 rounds it to 16 bytes).
    let ms = fx.block(&r, "ms");
    assert_eq!(r.columns.len(), 1);
    assert!(matches!(
        &ms.fields[0].ty,
        Storage::Array(e, Some(3)) if **e == Storage::Struct {
            of: StructRef::Columns(0),
            size: Some(16),
            align: 16,
        }
    ));
    assert_eq!(r.made[..2], [Made::Block(0), Made::Block(1)]);
    assert!(r.made.contains(&Made::Columns(0)));
}

#[test]
fn element_structs_reach_the_stride() {
    let fx = fixture(
        "struct S { a: u32, xs: @stride(24) array<vec2<f32>, 4> }
@group(0) @binding(0) var<storage, read_write> s: S;
@group(0) @binding(1) var<storage, read_write> t: @stride(24) array<vec2<f32>, 2>;
@compute @workgroup_size(1) fn main() { s.a = 1u; t[0].x = 1.0; }",
    );
    let r = fx.realize(&VULKAN);
    assert!(r.problems.is_empty());
    // One element struct for both arrays: vec2 at 0, then padding to 24.
    assert_eq!(r.elements.len(), 1);
    let e = &r.elements[0];
    assert_eq!((e.size, e.align), (24, 8));
    assert_eq!(offsets(&e.fields), [(0, false), (8, true), (16, true)]);
    assert_eq!(e.fields[0].role, Role::Member(0));
    assert_eq!(r.order, [Declared::Element(0)]);
    let s = fx.block(&r, "s");
    assert!(
        matches!(&s.members[1], Repr::Array(e) if matches!(**e, Repr::Wrapped { element: 0, .. }))
    );
}

#[test]
fn variants_pad_nested_structs() {
    let fx = fixture(
        "struct A { @size(20) x: f32, y: u32 }
struct B { a: A, tail: f32 }
@group(0) @binding(0) var<storage, read_write> s: B;
@compute @workgroup_size(1) fn main() { s.tail = 1.0; }",
    );
    let r = fx.realize(&VULKAN);
    assert!(r.problems.is_empty());
    // A: x at 0, padding 4..20 (uints: padding never raises A's
    // alignment of 4), y at 20.
    let v = &r.variants[0];
    assert_eq!(v.stride, None);
    assert_eq!(v.rules, RuleSet::Std430);
    assert_eq!(
        offsets(&v.fields),
        [
            (0, false),
            (4, true),
            (8, true),
            (12, true),
            (16, true),
            (20, false)
        ]
    );
    assert_eq!(v.size, Some(24));
    assert_eq!(fx.block(&r, "s").members[0], Repr::Variant(0));
    assert!(r.value_structs.is_empty());
}

#[test]
fn inexpressible_layouts_are_errors_with_fixes() {
    // A 2-byte gap: `uint16_t` padding only where the capability allows.
    let fx = fixture(
        "enable f16;
struct H { a: f16, @size(4) b: f16, c: f16 }
struct G { h: H, x: f32 }
@group(0) @binding(0) var<storage, read_write> s: G;
@compute @workgroup_size(1) fn main() { s.x = f32(s.h.c); }",
    );
    assert!(fx.realize(&VULKAN).problems.is_empty());
    let r = fx.realize(&ES);
    let d = r.diagnostics(&Plain);
    let d = &d.0[0];
    let span = d.primary_span().expect("span");
    assert_eq!(&fx.parsed.source[span], "c: f16");
    assert!(
        d.notes
            .iter()
            .any(|n| n.contains("es310 has no 2-byte padding type")),
        "{:?}",
        d.notes
    );

    // Push constants follow the capability: std140 cannot pad vec2 to 24.
    let fx = fixture(
        "struct P { a: f32, @align(16) xs: @stride(24) array<vec2<f32>, 2>, tail: f32 }
var<immediate> p: P;
@group(0) @binding(0) var<storage, read_write> o: f32;
@compute @workgroup_size(1) fn main() { o = p.xs[1].y; }",
    );
    assert!(fx.realize(&VULKAN).problems.is_empty());
    let d = fx.realize(&ES).diagnostics(&Plain);
    let d = &d.0[0];
    assert!(
        d.message
            .contains("GLSL std140 lays out arrays of `v2x4` with a stride of 16 bytes"),
        "{}",
        d.message
    );
    assert!(d.notes.iter().any(|n| n.contains("@size(24)")));
    assert!(d.notes.iter().any(|n| n.contains("multiple of 16")));
    assert!(d
        .labels
        .iter()
        .any(|l| !l.primary && l.message == "`p` is a push-constant block (std140) in es310"));
}

#[test]
fn padding_choices_follow_the_rule_table() {
    let pads = padding_choices(RuleSet::Std140.table(), &[naga::Scalar::U32, U16]);
    let shapes: Vec<(u64, u64)> = pads.iter().map(|p| (p.size, p.align)).collect();
    assert_eq!(shapes, [(16, 16), (8, 8), (4, 4), (2, 2)]);
    let pads = padding_choices(RuleSet::Std430.table(), &[naga::Scalar::U32]);
    assert_eq!(pads.len(), 3);
}

#[test]
fn struct_members_are_inlined_where_rounding_collides() {
    // std430 rounds S1 to 64 bytes; `after` is at 40.
    let fx = fixture(
        "@size(40) struct S1 { a: f32, @align(32) b: f32 }
struct H { @size(40) m0: S1, after: f32 }
@group(0) @binding(0) var<storage, read_write> h: H;
@compute @workgroup_size(1) fn main() { h.after = h.m0.b; }",
    );
    let r = fx.realize(&VULKAN);
    assert!(r.problems.is_empty());
    let b = fx.block(&r, "h");
    let roles: Vec<(u64, Role)> = b.fields.iter().map(|f| (f.offset, f.role)).collect();
    assert_eq!(
        roles,
        [
            (0, Role::Member(2)),
            (32, Role::Member(3)),
            (40, Role::Member(1))
        ]
    );
    assert_eq!(
        b.members[0],
        Repr::Inline {
            global: b.global,
            first: 2,
            count: 2
        }
    );
    assert_eq!(b.members.len(), 4);
    assert_eq!(b.inlined.len(), 1);
    assert_eq!((b.inlined[0].parent, b.inlined[0].first), (0, 2));
    // Nothing made for S1: no variant is declared.
    assert!(r.order.is_empty());

    // Without offset qualifiers, padding places the inlined members.
    let r = fx.realize(&ES);
    assert!(r.problems.is_empty());
    let b = fx.block(&r, "h");
    assert_eq!(
        offsets(&b.fields),
        [(0, false), (16, true), (32, false), (36, true), (40, false)]
    );

    // A struct in an array is never inlined: the collision is an error
    // (GLSL then declares the buffer as its words).
    let fx = fixture(
        "@size(40) struct S1 { a: f32, @align(32) b: f32 }
struct H { @size(40) m0: S1, after: f32 }
struct A { hs: array<H, 2> }
@group(0) @binding(0) var<storage, read_write> a: A;
@compute @workgroup_size(1) fn main() { a.hs[1].after = a.hs[0].m0.b; }",
    );
    let r = fx.realize(&VULKAN);
    let d = r.diagnostics(&Plain);
    assert!(
        d.0.iter()
            .any(|d| d.message.contains("inside the previous member `m0`")),
        "{d:?}"
    );
    assert!(fx.block(&r, "a").inlined.is_empty());
}
