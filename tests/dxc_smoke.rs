//! Smoke test of the DXC oracle (scripts/install-dxc.sh, tests/common/dxc.rs)
//! before the HLSL backend relies on it: a hand-written cbuffer with
//! packoffset, compiled by DXC, must report the offsets that the HLSL packing
//! rules give, and DXC must reject a vector packoffset that crosses a
//! register.
//!
//! The expected numbers come from the rules, not from DXC's output:
//! - ../shared/spec/004 (packoffset): `packoffset(cN.k)` is byte
//!   16 * N + 4 * k (c = 16-byte register, components x y z w of 4 bytes);
//!   structs, matrices and arrays take a register without a component; a
//!   vector may not cross a register boundary.
//! - ../shared/spec/002 (D3D cbuffer layout): every array element starts a
//!   new register (`float x[4]` is 52 bytes, a member after it packs at 52);
//!   a struct starts a new register (`nested_cbuf`: s2 at 16 after an 8-byte
//!   s1); a float3 followed by a float shares one register (`simple2`: 0, 12).
//! - A matrix is an array of its rows (row_major) or columns (column_major,
//!   HLSL's default): each starts a new register.
//!
//! A missing `stride-dxc` skips loudly; `STRIDE_REQUIRE_ORACLES=1` makes it
//! a failure.

mod common;

use common::dxc::{self, CBuffer};

/// Register `r`, component `k` (0 = x .. 3 = w): the byte offset of
/// `packoffset(c<r>.<k>)`.
const fn c(r: u32, k: u32) -> u32 {
    16 * r + 4 * k
}

const PACKED: &str = r#"
struct Inner {
    float2 a;
    float b;
};

struct Outer {
    float x;
    Inner inner;
    float y;
};

cbuffer Params : register(b0) {
    float s0 : packoffset(c0);
    uint s1 : packoffset(c0.y);
    int s2 : packoffset(c0.w);
    float3 v : packoffset(c1);
    float f : packoffset(c1.w);
    row_major float4x4 mr : packoffset(c2);
    column_major float4x4 mc : packoffset(c6);
    float4 arr[3] : packoffset(c10);
    Outer o : packoffset(c13);
    float2x2 m22 : packoffset(c16);
    float t : packoffset(c17.z);
};

RWStructuredBuffer<float> result : register(u0);

[numthreads(1, 1, 1)]
void main() {
    result[0] = s0 + float(s1) + float(s2) + v.x + f + mr[3][3] + mc[3][3] + arr[2].w
        + o.x + o.inner.a.y + o.inner.b + o.y + m22[1][1] + t;
}
"#;

/// `(path, offset, size)` of every member of `Params`, nested ones included,
/// in declaration order.
fn expected_params() -> Vec<(&'static str, u32, u32)> {
    // Outer in a cbuffer: x at its start; `inner` is a struct, so it starts
    // the next register; Inner is float2 + float = 12 bytes; `y` packs into
    // the free tail of inner's register.
    let o = c(13, 0);
    let inner = o + 16;
    let inner_size = 8 + 4;
    let y = inner + inner_size;
    vec![
        ("s0", c(0, 0), 4),
        ("s1", c(0, 1), 4),
        ("s2", c(0, 3), 4),
        ("v", c(1, 0), 12),
        // The float after the float3, in the same register.
        ("f", c(1, 3), 4),
        // 4 rows, a register each.
        ("mr", c(2, 0), 3 * 16 + 16),
        // 4 columns, a register each.
        ("mc", c(6, 0), 3 * 16 + 16),
        // 3 elements, a register each.
        ("arr", c(10, 0), 2 * 16 + 16),
        ("o", o, y + 4 - o),
        ("o.x", o, 4),
        ("o.inner", inner, inner_size),
        ("o.inner.a", inner, 8),
        ("o.inner.b", inner + 8, 4),
        ("o.y", y, 4),
        // column_major (the default): 2 columns of 2 floats, a register each.
        ("m22", c(16, 0), 16 + 8),
        // After m22's second column (c17.xy), in the same register.
        ("t", c(17, 2), 4),
    ]
}

fn params(cbuffers: &[CBuffer]) -> &CBuffer {
    let names: Vec<&str> = cbuffers.iter().map(|b| b.name.as_str()).collect();
    cbuffers
        .iter()
        .find(|b| b.name == "Params")
        .unwrap_or_else(|| panic!("no cbuffer Params in DXC's buffer definitions: {names:?}"))
}

#[test]
fn packoffset_layout_matches_the_packing_rules() {
    if !dxc::require_dxc("packoffset_layout_matches_the_packing_rules") {
        return;
    }
    let compiled = dxc::compile(PACKED, "cs_6_0", "main", &[])
        .unwrap_or_else(|e| panic!("DXC rejected the packoffset shader:\n{e}"));
    let cbuffers = compiled.cbuffers();
    let cb = params(&cbuffers);

    let actual: Vec<(String, u32, u32)> = cb
        .flatten()
        .into_iter()
        .map(|(path, m)| (path, m.offset, m.size))
        .collect();
    let expected: Vec<(String, u32, u32)> = expected_params()
        .into_iter()
        .map(|(p, o, s)| (p.to_string(), o, s))
        .collect();
    pretty_assertions::assert_eq!(
        expected,
        actual,
        "(path, offset, size) of cbuffer Params: left from the packing rules, right from DXC"
    );

    // DXC prints only the total; it is the end of the last member.
    assert_eq!(cb.size, c(17, 2) + 4, "cbuffer Params Size");
    cb.check_sizes().unwrap();

    // The parsed types and array dimensions.
    let ty = |path: &str| {
        let m = cb.find(path).unwrap_or_else(|| panic!("no member {path}"));
        (m.ty.clone(), m.array.clone())
    };
    assert_eq!(ty("v"), ("float3".to_string(), vec![]));
    assert_eq!(ty("s1"), ("uint".to_string(), vec![]));
    assert_eq!(ty("mr"), ("row_major float4x4".to_string(), vec![]));
    assert_eq!(ty("mc"), ("column_major float4x4".to_string(), vec![]));
    assert_eq!(ty("m22"), ("column_major float2x2".to_string(), vec![]));
    assert_eq!(ty("arr"), ("float4".to_string(), vec![3]));
    assert_eq!(ty("o"), ("struct Outer".to_string(), vec![]));
    assert_eq!(ty("o.inner"), ("struct Inner".to_string(), vec![]));
    assert_eq!(ty("o.inner.a"), ("float2".to_string(), vec![]));
}

#[test]
fn packoffset_crossing_a_register_is_rejected() {
    if !dxc::require_dxc("packoffset_crossing_a_register_is_rejected") {
        return;
    }
    // A float3 at c0.z would take c0.z, c0.w and c1.x.
    let hlsl = r#"
cbuffer Bad : register(b0) {
    float3 v : packoffset(c0.z);
};
RWStructuredBuffer<float> result : register(u0);
[numthreads(1, 1, 1)]
void main() { result[0] = v.x; }
"#;
    match dxc::compile(hlsl, "cs_6_0", "main", &[]) {
        Ok(c) => panic!(
            "DXC accepted a float3 at packoffset(c0.z):\n{}",
            c.disassembly
        ),
        Err(e) => assert!(
            e.contains("register or offset bind not valid"),
            "unexpected DXC error:\n{e}"
        ),
    }
}

#[test]
fn sixteen_bit_types_and_spirv_pass_through() {
    if !dxc::require_dxc("sixteen_bit_types_and_spirv_pass_through") {
        return;
    }
    // -enable-16bit-types: `half` is a real 16-bit type (printed as such;
    // without the flag DXC prints it as float).
    let hlsl = r#"
cbuffer H : register(b0) {
    half a;
    half b;
    half3 c;
};
RWStructuredBuffer<half> result : register(u0);
[numthreads(1, 1, 1)]
void main() { result[0] = a + b + c.z; }
"#;
    let compiled = dxc::compile(hlsl, "cs_6_2", "main", &["-enable-16bit-types"])
        .unwrap_or_else(|e| panic!("DXC rejected the 16-bit shader:\n{e}"));
    let cbuffers = compiled.cbuffers();
    let cb = cbuffers.iter().find(|b| b.name == "H").expect("cbuffer H");
    let types: Vec<&str> = cb.members.iter().map(|m| m.ty.as_str()).collect();
    assert_eq!(types, ["half", "half", "half3"]);
    cb.check_sizes().unwrap();

    // -spirv -fvk-use-dx-layout: SPIR-V comes out (-Fo).
    let spirv_hlsl = r#"
cbuffer P : register(b0) {
    float3 v;
    float f;
    float4 arr[2];
};
RWStructuredBuffer<float> result : register(u0);
[numthreads(1, 1, 1)]
void main() { result[0] = v.x + f + arr[1].y; }
"#;
    let dir = common::temp_dir("dxc-spirv");
    let args = [
        "-T",
        "cs_6_0",
        "-E",
        "main",
        "-spirv",
        "-fvk-use-dx-layout",
        "-Fo",
        "out.spv",
    ];
    dxc::run_dxc(spirv_hlsl, &args, Some(&dir))
        .unwrap_or_else(|e| panic!("DXC -spirv rejected the shader:\n{e}"));
    let bytes = std::fs::read(dir.join("out.spv")).expect("-Fo out.spv was not written");
    assert!(
        bytes.len() > 20 && bytes[..4] == 0x0723_0203u32.to_le_bytes(),
        "out.spv is not SPIR-V"
    );
    // With spirv-dis, `-Fc -` prints the SPIR-V text: D3D offsets (f in the
    // float3's register, each array element in its own).
    if common::tool_available("spirv-dis", &["--version"]) {
        let args = [
            "-T",
            "cs_6_0",
            "-E",
            "main",
            "-spirv",
            "-fvk-use-dx-layout",
            "-Fc",
            "-",
        ];
        let text = dxc::run_dxc(spirv_hlsl, &args, None)
            .unwrap_or_else(|e| panic!("DXC -spirv -Fc - failed:\n{e}"))
            .stdout;
        for (member, offset) in [(1, 12), (2, 16)] {
            let line = format!("OpMemberDecorate %type_P {member} Offset {offset}");
            assert!(text.contains(&line), "no `{line}` in:\n{text}");
        }
    }
}

/// The parser on a captured excerpt (DXC 1.7, `-enable-16bit-types`): runs
/// without DXC. Arrays of structs end in `;;`, nested offsets are absolute,
/// struct names carry `struct.`/`hostlayout.` prefixes, and other blocks
/// (structured buffers) are skipped.
#[test]
fn buffer_definitions_parser() {
    let text = "\
; Buffer Definitions:
;
; cbuffer A
; {
;
;   struct hostlayout.A
;   {
;
;       float a0;                                     ; Offset:    0
;       struct struct.Mid
;       {
;
;           struct struct.Leaf
;           {
;
;               float2 x;                             ; Offset:   16
;           
;           } l[2];;                                  ; Offset:   16
;
;           float y;                                  ; Offset:   40
;       
;       } mids[2];;                                   ; Offset:   16
;
;       float a1;                                     ; Offset:   76
;       double d;                                     ; Offset:   80
;       row_major float2x3 m;                         ; Offset:   96
;       half2 hv;                                     ; Offset:  124
;   
;   } A;                                              ; Offset:    0 Size:   128
;
; }
;
; Resource bind info for o
; {
;
;   float $Element;                                   ; Offset:    0 Size:     4
;
; }
;
;
; Resource Bindings:
;
; Name                                 Type  Format         Dim      ID      HLSL Bind  Count
";
    let cbs = dxc::parse_buffer_definitions(text).unwrap();
    assert_eq!(cbs.len(), 1);
    let cb = &cbs[0];
    assert_eq!((cb.name.as_str(), cb.size), ("A", 128));
    let flat: Vec<(String, String, Vec<u32>, u32, u32)> = cb
        .flatten()
        .into_iter()
        .map(|(p, m)| (p, m.ty.clone(), m.array.clone(), m.offset, m.size))
        .collect();
    let s = |x: &str| x.to_string();
    let expected = vec![
        (s("a0"), s("float"), vec![], 0, 4),
        // Mid = l (16 + 8) then y at +24: 28 bytes; two of them, the second
        // on a new register: 32 + 28.
        (s("mids"), s("struct Mid"), vec![2], 16, 60),
        (s("mids.l"), s("struct Leaf"), vec![2], 16, 24),
        (s("mids.l.x"), s("float2"), vec![], 16, 8),
        (s("mids.y"), s("float"), vec![], 40, 4),
        (s("a1"), s("float"), vec![], 76, 4),
        (s("d"), s("double"), vec![], 80, 8),
        (s("m"), s("row_major float2x3"), vec![], 96, 28),
        (s("hv"), s("half2"), vec![], 124, 4),
    ];
    pretty_assertions::assert_eq!(expected, flat);
    cb.check_sizes().unwrap();
    assert!(dxc::parse_buffer_definitions("no definitions here")
        .unwrap()
        .is_empty());
}
