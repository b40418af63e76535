//! Smoke test of the Slang oracle (scripts/install-slang.sh,
//! tests/common/slang.rs): an HLSL-syntax shader with a packoffset cbuffer, a
//! ByteAddressBuffer, a RWByteAddressBuffer (compute) and a Texture2D with a
//! SamplerState (fragment), every resource with `[[vk::binding(b, s)]]` and
//! `register(...)`, compiled by Slang 2026.12 to SPIR-V (valid for spirv-val
//! once its source language is patched) and to HLSL. The offsets and
//! bindings in Slang's `-reflection-json` must be what the source says.
//!
//! The expected offsets come from the rules, not from Slang's output: a
//! packoffset `cN.k` is byte 16 * N + 4 * k; a struct starts a new 16-byte
//! register and is not rounded up, so a float after a 12-byte struct packs
//! into its register (D3D packing, ../shared/spec/002 and 004).
//!
//! # The reflection JSON (Slang 2026.12)
//!
//! ```text
//! { "parameters": [ PARAM... ],
//!   "entryPoints": [ { "name": "main", "stage": "compute",
//!                      "threadGroupSize": [1, 1, 1],
//!                      "parameters": [...],        <- varying inputs, if any
//!                      "result": {...},            <- varying output, if any
//!                      "bindings": [ { "name": "Params",
//!                                      "binding": { BINDING..., "used": 1 } },
//!                                    ... ] } ],    <- every global, used 0/1
//!   "bindlessSpaceIndex": 1 }                      <- SPIR-V only
//! ```
//!
//! A resource PARAM: `{"name", "binding": BINDING, "type": {...}}`, where
//! BINDING is `{"kind", "space", "index"}` and `space` is left out when 0:
//! - `-target spirv`: `kind` is `descriptorTableSlot` for every descriptor
//!   (push constants: `pushConstantBuffer`), `space` is the descriptor set
//!   and `index` the binding, from `[[vk::binding(index, space)]]`;
//! - `-target hlsl`: `kind` is the register class, `constantBuffer` (b),
//!   `shaderResource` (t), `unorderedAccess` (u) or `samplerState` (s), with
//!   `space` and `index` from `register(<class><index>, space<space>)`.
//!
//! A parameter taking more than one kind of slot has `"bindings":
//! [BINDING...]` instead, in `parameters` and in the entry point's list: a
//! ParameterBlock of uniforms and textures, and for SPIR-V a
//! `[[vk::push_constant]]` cbuffer that also has a `register(b..)`
//! (`pushConstantBuffer` index 0 plus a `descriptorTableSlot` that the module
//! does not have; without the register only the former).
//!
//! A cbuffer (also `ConstantBuffer<T>`, a `[[vk::push_constant]]` cbuffer):
//!
//! ```text
//! { "name": "Params", "binding": BINDING,
//!   "type": { "kind": "constantBuffer",
//!             "elementType": { "kind": "struct", "fields": [FIELD...] },
//!             "containerVarLayout": { "binding": {"kind": ..., "index": 0} },
//!             "elementVarLayout": {
//!                 "type": { "kind": "struct", "fields": [FIELD...] },  <- same
//!                 "binding": {"kind": "uniform", "offset": 0, "size": 188,
//!                             "elementStride": 0} } } }
//! FIELD: { "name": "f", "type": TYPE,
//!          "binding": {"kind": "uniform", "offset": 28, "size": 4,
//!                      "elementStride": 0} }
//! ```
//!
//! - A field's `offset` is in bytes from the start of the struct that holds
//!   it: absolute for the cbuffer's own members, relative to the nested
//!   struct for a nested struct's fields (`o.inner.b` is 8, not 168), and to
//!   element 0 for the fields of an array of structs. packoffset is honoured
//!   (not validated: ORACLES.md).
//! - `size` is the bytes from the member's offset to its last byte (D3D
//!   style: a `float4 arr[3]` is 48, an array of 12-byte structs 16 + 12).
//! - `elementStride`: the scalar stride for vectors (4 for float), the
//!   element stride for arrays, 0 otherwise.
//! - TYPE: `{"kind": "scalar", "scalarType": "float32"|"uint32"|"int32"...}`,
//!   `{"kind": "vector", "elementCount", "elementType"}`,
//!   `{"kind": "matrix", "rowCount", "columnCount", "elementType"}` (no
//!   majorness), `{"kind": "array", "elementCount", "elementType",
//!   "uniformStride"}`, `{"kind": "struct", "name", "fields": [FIELD...]}`.
//!
//! Nested structs differ by target: `-target hlsl` and `-target spirv
//! -fvk-use-dx-layout` use D3D packing (a struct is not rounded up; `o.y`
//! packs after the 12-byte `inner`), plain `-target spirv` rounds a struct in
//! a cbuffer up to 16 bytes (std140: `o.y` 4 bytes later). This test
//! compiles SPIR-V with `-fvk-use-dx-layout` and checks the difference.
//!
//! Other facts the test relies on: Slang writes SPIR-V 1.5 unless told
//! `-profile spirv_1_3` (spirv-val's vulkan1.1 takes at most 1.3), and a
//! single entry point is named `main` in SPIR-V unless
//! `-fvk-use-entrypoint-name`.
//!
//! A missing `stride-slangc` skips loudly; `STRIDE_REQUIRE_ORACLES=1` makes
//! it a failure.

mod common;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use common::slang::{self, Binding, Reflection};

/// Register `r`, component `k` (0 = x .. 3 = w): the byte offset of
/// `packoffset(c<r>.<k>)`.
const fn c(r: u64, k: u64) -> u64 {
    16 * r + 4 * k
}

const SHADER: &str = r#"
struct Inner {
    float2 a;
    float b;
};

struct Outer {
    float x;
    Inner inner;
    float y;
};

[[vk::binding(3, 1)]]
cbuffer Params : register(b2, space1) {
    float s0 : packoffset(c0);
    uint s1 : packoffset(c0.y);
    int s2 : packoffset(c0.w);
    float3 v : packoffset(c1);
    float f : packoffset(c1.w);
    row_major float4x4 mr : packoffset(c2);
    float4 arr[3] : packoffset(c6);
    Outer o : packoffset(c9);
    float t : packoffset(c11.z);
};

[[vk::binding(0, 0)]] ByteAddressBuffer src : register(t1, space0);
[[vk::binding(5, 2)]] RWByteAddressBuffer dst : register(u4, space2);

[numthreads(1, 1, 1)]
void main() {
    float r = s0 + float(s1) + float(s2) + v.x + f + mr[3][3] + arr[2].w
        + o.x + o.inner.a.y + o.inner.b + o.y + t;
    dst.Store(0, asuint(r) + src.Load(4));
}

[[vk::binding(0, 3)]] Texture2D<float4> tex : register(t3, space3);
[[vk::binding(1, 3)]] SamplerState samp : register(s2, space3);

float4 fs(float4 pos : SV_Position, float2 uv : LOC0) : SV_Target {
    return tex.Sample(samp, uv) * pos.w;
}
"#;

const FILE: &str = "smoke.hlsl";

/// `(path, offset from the cbuffer's start, size)` of every member of
/// `Params`, nested ones included, in declaration order, by D3D packing.
fn expected_params() -> Vec<(&'static str, u64, u64)> {
    let o = c(9, 0);
    // `inner` is a struct: the next register; Inner is float2 + float = 12
    // bytes, not rounded up, so `y` takes the free tail of its register.
    let inner = o + 16;
    let y = inner + 12;
    vec![
        ("s0", c(0, 0), 4),
        ("s1", c(0, 1), 4),
        ("s2", c(0, 3), 4),
        ("v", c(1, 0), 12),
        ("f", c(1, 3), 4),
        ("mr", c(2, 0), 64),
        ("arr", c(6, 0), 48),
        ("o", o, y + 4 - o),
        ("o.x", o, 4),
        ("o.inner", inner, 12),
        ("o.inner.a", inner, 8),
        ("o.inner.b", inner + 8, 4),
        ("o.y", y, 4),
        ("t", c(11, 2), 4),
    ]
}

/// The target-independent part of a binding: `(name, space, index)`.
type Slot = (&'static str, u64, u64);

/// `[[vk::binding(index, space)]]` of each resource.
const VULKAN: [Slot; 5] = [
    ("Params", 1, 3),
    ("src", 0, 0),
    ("dst", 2, 5),
    ("tex", 3, 0),
    ("samp", 3, 1),
];

/// `register(<class><index>, space<space>)` of each resource, with the
/// register class's reflection kind.
const D3D: [(&str, &str, u64, u64); 5] = [
    ("Params", "constantBuffer", 1, 2),
    ("src", "shaderResource", 0, 1),
    ("dst", "unorderedAccess", 2, 4),
    ("tex", "shaderResource", 3, 3),
    ("samp", "samplerState", 3, 2),
];

/// The entry points with their stage and the resources each uses.
const ENTRIES: [(&str, &str, &[&str]); 2] = [
    ("main", "compute", &["Params", "src", "dst"]),
    ("fs", "fragment", &["tex", "samp"]),
];

/// Compiles `entry` for `target` (with `extra` arguments) into `dir`:
/// `<entry>.<ext>` and `<entry>.json`. Returns the output's bytes and the
/// reflection.
fn compile(
    dir: &Path,
    target: &str,
    entry: &str,
    stage: &str,
    extra: &[&str],
) -> (Vec<u8>, Reflection) {
    let ext = if target == "spirv" { "spv" } else { target };
    let out = format!("{entry}.{ext}");
    let json = format!("{entry}.json");
    let mut args = vec!["-target", target];
    args.extend_from_slice(extra);
    args.extend_from_slice(&[
        "-entry",
        entry,
        "-stage",
        stage,
        "-o",
        &out,
        "-reflection-json",
        &json,
    ]);
    slang::run_slangc(SHADER, FILE, &args, Some(dir))
        .unwrap_or_else(|e| panic!("Slang rejected the smoke shader ({}):\n{e}", args.join(" ")));
    let bytes =
        std::fs::read(dir.join(&out)).unwrap_or_else(|e| panic!("-o {out} was not written: {e}"));
    (bytes, Reflection::read(&dir.join(&json)))
}

/// Checks the reflected cbuffer offsets and each entry point's bindings.
fn check_reflection(
    what: &str,
    refl: &Reflection,
    entry: &str,
    expected: &BTreeMap<&str, Binding>,
) {
    if entry == "main" {
        let actual: Vec<(String, u64, u64)> = refl
            .uniform_members("Params")
            .into_iter()
            .map(|m| (m.path, m.offset, m.size))
            .collect();
        let wanted: Vec<(String, u64, u64)> = expected_params()
            .into_iter()
            .map(|(p, o, s)| (p.to_string(), o, s))
            .collect();
        pretty_assertions::assert_eq!(
            wanted,
            actual,
            "{what}: (path, offset, size) of cbuffer Params: left from the source, right from Slang"
        );
    }
    // Every global is reflected whichever entry point is compiled; the
    // entry point marks the ones it uses.
    for (name, binding) in expected {
        assert_eq!(&refl.binding(name), binding, "{what}: binding of `{name}`");
    }
    let uses = ENTRIES.iter().find(|e| e.0 == entry).unwrap().2;
    let listed = refl.entry_point_bindings(entry);
    let mut seen: Vec<&str> = Vec::new();
    for (name, binding, used) in &listed {
        let want = expected
            .get(name.as_str())
            .unwrap_or_else(|| panic!("{what}: unexpected parameter `{name}`"));
        assert_eq!(binding, want, "{what}: entry point binding of `{name}`");
        assert_eq!(
            *used,
            uses.contains(&name.as_str()),
            "{what}: is `{name}` used by `{entry}`?"
        );
        seen.push(name);
    }
    seen.sort();
    let mut all: Vec<&str> = expected.keys().copied().collect();
    all.sort();
    assert_eq!(
        seen, all,
        "{what}: parameters listed by entry point `{entry}`"
    );
}

/// `name -> (set, binding)` from `OpDecorate %name DescriptorSet/Binding`.
fn spirv_bindings(text: &str) -> BTreeMap<String, (u64, u64)> {
    let mut sets = BTreeMap::new();
    let mut bindings = BTreeMap::new();
    for line in text.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        if let ["OpDecorate", id, deco, n] = words[..] {
            let name = id.trim_start_matches('%').to_string();
            let Ok(n) = n.parse::<u64>() else { continue };
            match deco {
                "DescriptorSet" => {
                    sets.insert(name, n);
                }
                "Binding" => {
                    bindings.insert(name, n);
                }
                _ => {}
            }
        }
    }
    bindings
        .into_iter()
        .map(|(name, b)| {
            let set = sets.get(&name).copied().unwrap_or(0);
            (name, (set, b))
        })
        .collect()
}

/// spirv-dis of Slang's SPIR-V (patched), with names.
fn spirv_dis(bytes: &[u8]) -> Option<String> {
    let dir = common::temp_dir("slang-dis");
    let file = dir.join("module.spv");
    std::fs::write(&file, slang::spirv_for_tools(bytes)).ok()?;
    let out = Command::new("spirv-dis")
        .arg("--no-color")
        .arg(&file)
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn spirv_offsets_and_vulkan_bindings() {
    if !slang::require_slang("spirv_offsets_and_vulkan_bindings")
        || !common::require_tool(
            "spirv-val",
            &["--version"],
            "spirv_offsets_and_vulkan_bindings",
        )
    {
        return;
    }
    let dir = common::temp_dir("slang-smoke-spirv");
    let expected: BTreeMap<&str, Binding> = VULKAN
        .iter()
        .map(|&(name, space, index)| {
            let kind = "descriptorTableSlot".to_string();
            (name, Binding { kind, space, index })
        })
        .collect();
    for (entry, stage, _) in ENTRIES {
        let what = format!("-target spirv -entry {entry}");
        let (spv, refl) = compile(
            &dir,
            "spirv",
            entry,
            stage,
            &["-profile", "spirv_1_3", "-fvk-use-dx-layout"],
        );

        // Without the patch spirv-tools 2023.1 refuses the module; with it,
        // it must validate.
        let mut words = slang::spirv_words(&spv);
        assert_eq!(
            slang::patch_source_language(&mut words),
            1,
            "{what}: one OpSource to patch"
        );
        slang::spirv_val(
            &spv,
            &["--target-env", "vulkan1.1", "--scalar-block-layout"],
        )
        .unwrap_or_else(|e| panic!("{what}: spirv-val rejects Slang's SPIR-V:\n{e}"));

        check_reflection(&what, &refl, entry, &expected);

        // The module's own decorations agree with the reflection (the
        // resources an entry point does not use are not in its module).
        // spirv-dis comes with spirv-val (spirv-tools).
        let text = spirv_dis(&spv)
            .unwrap_or_else(|| panic!("{what}: spirv-dis cannot read the patched module"));
        let uses = ENTRIES.iter().find(|e| e.0 == entry).unwrap().2;
        let want: BTreeMap<String, (u64, u64)> = VULKAN
            .iter()
            .filter(|s| uses.contains(&s.0))
            .map(|&(n, s, b)| (n.to_string(), (s, b)))
            .collect();
        assert_eq!(spirv_bindings(&text), want, "{what}: SPIR-V decorations");
    }

    // Without -fvk-use-dx-layout, Slang rounds the nested struct up to 16
    // bytes (std140), so `o.y` moves 4 bytes later; the rest stays.
    let (_, refl) = compile(&dir, "spirv", "main", "compute", &["-profile", "spirv_1_3"]);
    let members = refl.uniform_members("Params");
    let offset = |path: &str| {
        members
            .iter()
            .find(|m| m.path == path)
            .unwrap_or_else(|| panic!("no member {path}"))
            .offset
    };
    assert_eq!(offset("o.inner"), c(10, 0));
    assert_eq!(offset("o.y"), c(11, 0), "std140: o.y after a 16-byte inner");
    assert_eq!(offset("t"), c(11, 2));
}

#[test]
fn hlsl_offsets_and_registers() {
    if !slang::require_slang("hlsl_offsets_and_registers") {
        return;
    }
    let dir = common::temp_dir("slang-smoke-hlsl");
    let expected: BTreeMap<&str, Binding> = D3D
        .iter()
        .map(|&(name, kind, space, index)| {
            let kind = kind.to_string();
            (name, Binding { kind, space, index })
        })
        .collect();
    for (entry, stage, _) in ENTRIES {
        let what = format!("-target hlsl -entry {entry}");
        let (hlsl, refl) = compile(&dir, "hlsl", entry, stage, &[]);
        check_reflection(&what, &refl, entry, &expected);

        // The generated HLSL keeps the registers and packoffsets.
        let text = String::from_utf8(hlsl).expect("HLSL output is UTF-8");
        let wanted: &[&str] = if entry == "main" {
            &[
                "register(b2, space1)",
                "register(t1)",
                "register(u4, space2)",
                "packoffset(c1.w)",
                "packoffset(c11.z)",
            ]
        } else {
            &["register(t3, space3)", "register(s2, space3)"]
        };
        for w in wanted {
            assert!(text.contains(w), "{what}: no `{w}` in the output:\n{text}");
        }
    }
}

/// A `[[vk::push_constant]]` cbuffer with a register, as a stride push
/// constant block would be: a push-constant block in SPIR-V (reflected with
/// two bindings, see the module docs), a `b` register in HLSL, the same
/// packoffset offsets in both.
#[test]
fn push_constant_cbuffer() {
    if !slang::require_slang("push_constant_cbuffer")
        || !common::require_tool("spirv-val", &["--version"], "push_constant_cbuffer")
    {
        return;
    }
    let source = r#"
[[vk::push_constant]]
cbuffer draw_cb : register(b0, space0) {
    row_major float4x4 transform : packoffset(c0);
    float3 tint : packoffset(c4.x);
    float alpha : packoffset(c4.w);
    uint base : packoffset(c5.x);
};
float4 vs(float3 p : LOC0) : SV_Position {
    return mul(float4(p, alpha), transform) + float4(tint, float(base));
}
"#;
    let dir = common::temp_dir("slang-smoke-push");
    let expected = vec![
        ("transform".to_string(), c(0, 0), 64),
        ("tint".to_string(), c(4, 0), 12),
        ("alpha".to_string(), c(4, 3), 4),
        ("base".to_string(), c(5, 0), 4),
    ];
    let binding = |kind: &str, index| Binding {
        kind: kind.to_string(),
        space: 0,
        index,
    };
    for target in ["spirv", "hlsl"] {
        let out = format!("push.{target}");
        let mut args = vec!["-target", target];
        if target == "spirv" {
            args.extend_from_slice(&["-profile", "spirv_1_3"]);
        }
        args.extend_from_slice(&[
            "-entry",
            "vs",
            "-stage",
            "vertex",
            "-o",
            &out,
            "-reflection-json",
            "push.json",
        ]);
        slang::run_slangc(source, "push.hlsl", &args, Some(&dir))
            .unwrap_or_else(|e| panic!("-target {target}: Slang rejected the shader:\n{e}"));
        let refl = Reflection::read(&dir.join("push.json"));
        let members: Vec<(String, u64, u64)> = refl
            .uniform_members("draw_cb")
            .into_iter()
            .map(|m| (m.path, m.offset, m.size))
            .collect();
        assert_eq!(members, expected, "-target {target}: draw_cb members");
        let bindings = refl.bindings("draw_cb");
        if target == "spirv" {
            assert_eq!(
                bindings,
                [
                    binding("pushConstantBuffer", 0),
                    binding("descriptorTableSlot", 0)
                ]
            );
            let spv = std::fs::read(dir.join(&out)).expect("push.spirv");
            slang::spirv_val(
                &spv,
                &["--target-env", "vulkan1.1", "--scalar-block-layout"],
            )
            .unwrap_or_else(|e| panic!("spirv-val rejects Slang's SPIR-V:\n{e}"));
            let text = spirv_dis(&spv).expect("spirv-dis reads the patched module");
            assert!(
                text.contains("OpVariable %_ptr_PushConstant_"),
                "no push-constant variable:\n{text}"
            );
            assert!(!text.contains("DescriptorSet"), "a descriptor:\n{text}");
        } else {
            assert_eq!(bindings, [binding("constantBuffer", 0)]);
        }
        let listed: Vec<(String, Binding, bool)> = refl.entry_point_bindings("vs");
        let names: Vec<&str> = listed.iter().map(|(n, _, _)| n.as_str()).collect();
        assert_eq!(names.len(), bindings.len(), "-target {target}: {listed:?}");
        assert!(names.iter().all(|&n| n == "draw_cb"), "{listed:?}");
    }
}

#[test]
fn errors_come_back_as_err() {
    if !slang::require_slang("errors_come_back_as_err") {
        return;
    }
    let bad = "[numthreads(1, 1, 1)] void main() { int x = ; }";
    let args = ["-target", "hlsl", "-entry", "main", "-stage", "compute"];
    match slang::run_slangc(bad, "bad.hlsl", &args, None) {
        Ok(out) => panic!("Slang accepted a syntax error:\n{}", out.stdout),
        Err(e) => assert!(
            e.contains("error[E20002]") && e.contains("bad.hlsl:1:"),
            "unexpected diagnostics:\n{e}"
        ),
    }
    // Without -o, the HLSL goes to stdout.
    let good = "RWByteAddressBuffer o : register(u0);\n\
                [numthreads(1, 1, 1)] void main() { o.Store(0, 1u); }";
    let out = slang::run_slangc(good, "good.hlsl", &args, None).expect("Slang rejects a store");
    assert!(
        out.stdout.contains("[numthreads(1, 1, 1)]"),
        "{}",
        out.stdout
    );
}

/// The OpSource patch on hand-made words: runs without Slang.
#[test]
fn source_language_patch() {
    // Header, OpCapability Shader, OpSource Slang(11) 1, OpSource with a
    // file operand, OpMemoryModel.
    let mut words = vec![
        0x0723_0203,
        0x0001_0300,
        0,
        100,
        0,
        (2 << 16) | 17,
        1,
        (3 << 16) | 3,
        11,
        1,
        (4 << 16) | 3,
        5,
        600,
        7,
        (3 << 16) | 14,
        0,
        1,
    ];
    let before = words.clone();
    assert_eq!(slang::patch_source_language(&mut words), 2);
    let changed: Vec<usize> = (0..words.len())
        .filter(|&i| words[i] != before[i])
        .collect();
    assert_eq!(changed, [8, 11], "only OpSource's first operands change");
    assert_eq!((words[8], words[11]), (0, 0));
    // Idempotent, and not SPIR-V: nothing to do.
    assert_eq!(slang::patch_source_language(&mut words), 0);
    let mut not_spirv = vec![1, 2, 3, 4, 5, (3 << 16) | 3, 11, 1];
    assert_eq!(slang::patch_source_language(&mut not_spirv), 0);
    // Bytes round trip.
    let bytes = common::words_to_bytes(&before);
    assert_eq!(slang::spirv_words(&slang::spirv_for_tools(&bytes)), words);
}
