//! Unit tests of naming, literals and the interface variables.

use super::interface::push_location_name;
use super::names::module_names;
use super::resources::push_literal;
use super::*;

/// The name of the interface variable at `location` (see
/// [`push_location_name`]).
fn location_name(
    stage: ShaderStage,
    output: bool,
    location: u32,
    blend_src: Option<u32>,
) -> String {
    let mut name = String::new();
    push_location_name(&mut name, stage, output, location, blend_src);
    name
}

fn names_of(source: &str) -> (naga::Module, naga::FastHashMap<NameKey, String>) {
    let module = naga::front::wgsl::parse_str(source).expect("parses");
    let names = module_names(&module);
    (module, names)
}

#[test]
fn reserved_prefix_names_have_no_double_underscore() {
    let (module, names) = names_of(
        "var<private> _s_x: f32;
             var<private> gen_s_x: f32;
             @compute @workgroup_size(1) fn main() { _s_x = gen_s_x; }",
    );
    let mut globals: Vec<&str> = module
        .global_variables
        .iter()
        .map(|(h, _)| names[&NameKey::GlobalVariable(h)].as_str())
        .collect();
    globals.sort_unstable();
    assert!(globals.iter().all(|n| !n.contains("__")), "{globals:?}");
    assert_eq!(globals.len(), 2);
    assert_ne!(globals[0], globals[1]);
}

#[test]
fn entry_point_named_main_is_renamed_but_functions_keep_names() {
    let (module, names) = names_of(
        "fn helper() -> f32 { return 1.0; }
             @compute @workgroup_size(1) fn main() { _ = helper(); }",
    );
    assert_eq!(names[&NameKey::EntryPoint(0)], "main_");
    let (h, _) = module.functions.iter().next().expect("a function");
    assert_eq!(names[&NameKey::Function(h)], "helper");
}

#[test]
fn reachable_functions_follow_calls_in_arena_order() {
    let module = naga::front::wgsl::parse_str(
        "fn a() -> f32 { return 1.0; }
             fn b() -> f32 { return a(); }
             fn unused() {}
             @compute @workgroup_size(1) fn main() { if true { _ = b(); } }",
    )
    .expect("parses");
    let names: Vec<_> = reachable_functions(&module, 0)
        .into_iter()
        .map(|f| module.functions[f].name.clone().unwrap_or_default())
        .collect();
    assert_eq!(names, ["a", "b"]);
}

#[test]
fn float_literals_keep_a_point() {
    let mut needs = Needs::default();
    let literal = |needs: &mut Needs, lit: &naga::Literal| {
        let mut text = String::new();
        push_literal(&mut text, needs, lit);
        text
    };
    assert_eq!(literal(&mut needs, &naga::Literal::F32(1.0)), "1.0");
    assert_eq!(literal(&mut needs, &naga::Literal::F32(0.5)), "0.5");
    assert_eq!(literal(&mut needs, &naga::Literal::U32(7)), "7u");
    assert_eq!(literal(&mut needs, &naga::Literal::I32(-3)), "-3");
    assert_eq!(literal(&mut needs, &naga::Literal::Bool(true)), "true");
}

#[test]
fn interface_names_match_across_stages() {
    assert_eq!(
        location_name(ShaderStage::Vertex, true, 2, None),
        location_name(ShaderStage::Fragment, false, 2, None)
    );
    assert_eq!(
        location_name(ShaderStage::Vertex, false, 0, None),
        "_s_attr0"
    );
    assert_eq!(
        location_name(ShaderStage::Fragment, true, 0, Some(1)),
        "_s_frag0_1"
    );
}

#[test]
fn types_a_dialect_cannot_spell_are_unsupported_errors() {
    let private = "enable f16;
        var<private> h: vec2<f16>;
        @compute @workgroup_size(1) fn main() { h = vec2<f16>(1.0h); }";
    let buffer = "enable f16;
        @group(0) @binding(0) var<storage, read_write> h: vec2<f16>;
        @compute @workgroup_size(1) fn main() { h = vec2<f16>(1.0h); }";
    let translate = |source: &str, dialect| {
        let options = crate::Options {
            target: crate::Target::Glsl,
            glsl: GlslOptions {
                dialect,
                ..Default::default()
            },
            ..Default::default()
        };
        crate::translate(source, &options)
    };
    use crate::back::glsl::Dialect;
    // f16 arithmetic: GL_AMD_gpu_shader_half_float from GLSL 4.50 and in ES.
    for dialect in [
        Dialect::Gl450,
        Dialect::Gl460,
        Dialect::Es310,
        Dialect::Es320,
    ] {
        let t = translate(private, dialect).expect("f16 arithmetic in OpenGL GLSL");
        let crate::Output::Files(files) = t.output else {
            panic!("GLSL gives files");
        };
        assert!(
            files[0]
                .text
                .contains("#extension GL_AMD_gpu_shader_half_float : require\n"),
            "{}",
            files[0].text
        );
    }
    // A buffer that holds f16: its words outside Vulkan, 16-bit storage in
    // Vulkan.
    for (dialect, declared) in [
        (Dialect::Gl450, "uint _s_words[];"),
        (Dialect::Es310, "uint _s_words[];"),
        (Dialect::Vulkan450, "f16vec2 value;"),
    ] {
        let t = translate(buffer, dialect).expect("f16 in a buffer");
        let crate::Output::Files(files) = t.output else {
            panic!("GLSL gives files");
        };
        assert!(files[0].text.contains(declared), "{}", files[0].text);
    }
    // Before GLSL 4.50, f16 is an error.
    for (source, dialect, what) in [
        (
            private,
            Dialect::Gl430,
            "`f16` cannot be written as GLSL gl430",
        ),
        (
            buffer,
            Dialect::Gl440,
            "`f16` cannot be written as GLSL gl440",
        ),
    ] {
        let e = translate(source, dialect).expect_err(what);
        assert!(e.0[0].message.starts_with(what), "{:?}", e.0[0]);
        assert_eq!(e.0[0].kind, crate::diag::DiagnosticKind::Unsupported);
    }
}
