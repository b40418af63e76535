//! Unit tests of override handling at module level.

use super::*;
use crate::back::common::remap_contract;
use crate::back::glsl::Dialect;

const OVERRIDES: &str = "
        struct Unused { x: f32 }
        struct Inner { a: vec2<f32>, b: f32 }
        struct Params { inner: Inner, scale: f32 }
        override gain: f32 = 2.0;
        @group(0) @binding(0) var<uniform> params: Params;
        @group(0) @binding(1) var<storage, read_write> out_data: array<f32>;
        @compute @workgroup_size(1) fn main() { out_data[0] = params.scale * params.inner.b * gain; }
    ";

#[test]
fn baking_remaps_the_contract_onto_the_compacted_module() {
    let (parsed, info, contract) = crate::back::test_support::analyzed(OVERRIDES);
    let (baked, _, warnings) = crate::back::overrides::bake(
        &parsed.module,
        &info,
        &[],
        "GLSL",
        &bake_reason(&parsed.module, false, Dialect::Gl450).expect("baked"),
    )
    .expect("bakes");
    assert_eq!(warnings.len(), 1);
    assert!(
        warnings[0].message.contains("`gain`"),
        "{}",
        warnings[0].message
    );
    let remapped = remap_contract(&contract, &parsed.module, &baked);
    assert_eq!(remapped.globals.len(), contract.globals.len());
    for g in &remapped.globals {
        let var = &baked.global_variables[g.handle];
        assert_eq!(var.name.as_deref(), Some(g.name.as_str()));
    }
    assert_eq!(remapped.structs.len(), contract.structs.len());
    for (h, s) in &remapped.structs {
        assert_eq!(baked.types[*h].name.as_deref(), Some(s.name.as_str()));
        assert_eq!(s.ty, *h);
    }
}

#[test]
fn vulkan_keeps_literal_overrides_as_specialization_constants() {
    let module = naga::front::wgsl::parse_str(
        "override a: f32 = 1.0; @id(0) override b: u32 = 3u;
             @compute @workgroup_size(1) fn main() { _ = a * f32(b); }",
    )
    .expect("parses");
    let vulkan = GlslOptions::default().dialect;
    assert!(bake_reason(&module, false, vulkan).is_none());
    assert!(bake_reason(&module, true, vulkan).is_some());
    assert!(bake_reason(&module, false, Dialect::Es310).is_some());
    let sized = naga::front::wgsl::parse_str(
        "override n: u32 = 4u;
             @compute @workgroup_size(n) fn main() {}",
    )
    .expect("parses");
    assert!(bake_reason(&sized, false, vulkan).is_some());
    let derived = naga::front::wgsl::parse_str(
        "override a: f32 = 1.0; override b: f32 = a * 2.0;
             @compute @workgroup_size(1) fn main() { _ = b; }",
    )
    .expect("parses");
    assert!(bake_reason(&derived, false, vulkan).is_some());
}
