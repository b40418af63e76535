//! The resource limits of `stride::limits`, each at the limit (translates)
//! and just past it (an error whose span points at the place that passes
//! it). Inputs are built here; every case is fast.

use stride::limits::{
    MAX_ALIAS_DEPTH, MAX_BRACKET_NESTING, MAX_BYTES, MAX_SPLIT_RESOURCES, MAX_STRUCT_MEMBERS,
    MAX_TYPE_ARGUMENT_NESTING, MAX_TYPE_NESTING,
};
use stride::{Options, Target};

const ENTRY: &str = "@compute @workgroup_size(1) fn main() { _ = &b; }\n";

fn translate(source: &str, target: Target) -> Result<stride::Translation, stride::Diagnostics> {
    let options = Options {
        target,
        ..Default::default()
    };
    stride::translate(source, &options)
}

/// `source` translates to every target.
fn accepted(source: &str) {
    for target in Target::ALL {
        if let Err(d) = translate(source, target) {
            panic!("{target}: {}", d.render("limit.wgsl", source, false));
        }
    }
}

/// `source` is refused with an error containing `message`, labelled at
/// text that starts with `at`.
fn refused(source: &str, message: &str, at: &str) {
    let d = match translate(source, Target::Layout) {
        Ok(_) => panic!("accepted past the limit"),
        Err(d) => d,
    };
    let first = d.iter().next().expect("an error");
    assert!(
        first.message.contains(message),
        "{}",
        d.render("limit.wgsl", source, false)
    );
    let span = first.labels.first().expect("a span").span.clone();
    assert!(
        source[span.start..].starts_with(at),
        "label at {:?}: {}",
        &source[span.clone()],
        d.render("limit.wgsl", source, false)
    );
}

fn parens(n: usize) -> String {
    format!(
        "const c = {}1{};\n@group(0) @binding(0) var<storage> b: f32;\n{ENTRY}",
        "(".repeat(n),
        ")".repeat(n)
    )
}

#[test]
fn bracket_nesting() {
    accepted(&parens(MAX_BRACKET_NESTING));
    refused(
        &parens(MAX_BRACKET_NESTING + 1),
        "brackets nest too deeply",
        "(1)",
    );
    // Braces in a function body (the body's own brace is the first).
    let blocks = |n: usize| {
        format!(
            "@group(0) @binding(0) var<storage> b: f32;\n@compute @workgroup_size(1) fn main() {{ _ = &b; {}{} }}\n",
            "{".repeat(n - 1),
            "}".repeat(n - 1)
        )
    };
    accepted(&blocks(MAX_BRACKET_NESTING));
    refused(
        &blocks(MAX_BRACKET_NESTING + 1),
        "brackets nest too deeply",
        "{}",
    );
}

/// Parentheses deeper than naga's parser takes, in a function body:
/// naga's span-less error becomes the scanner's, with a span.
#[test]
fn parentheses_past_nagas_parser_get_a_span() {
    let source = format!(
        "@group(0) @binding(0) var<storage> b: f32;\n@compute @workgroup_size(1) fn main() {{ _ = &b; let x = {}1{}; }}\n",
        "(".repeat(400),
        ")".repeat(400)
    );
    refused(&source, "brackets nest too deeply", "(");
}

#[test]
fn type_argument_nesting() {
    let alias = |n: usize| {
        format!(
            "alias T = {}f32{};\n@group(0) @binding(0) var<storage> b: f32;\n{ENTRY}",
            "array<".repeat(n),
            ", 1>".repeat(n)
        )
    };
    accepted(&alias(MAX_TYPE_ARGUMENT_NESTING));
    refused(
        &alias(MAX_TYPE_ARGUMENT_NESTING + 1),
        "type arguments nest too deeply",
        "<f32",
    );
}

/// A buffer of a chain of `n` structs, each holding the one before.
fn struct_chain(n: usize) -> String {
    let mut s = String::from("struct S1 { a: f32 }\n");
    for i in 2..=n {
        s.push_str(&format!("struct S{i} {{ a: S{} }}\n", i - 1));
    }
    format!("{s}@group(0) @binding(0) var<storage> b: S{n};\n{ENTRY}")
}

#[test]
fn type_nesting() {
    accepted(&struct_chain(MAX_TYPE_NESTING));
    refused(
        &struct_chain(MAX_TYPE_NESTING + 1),
        "nests too deeply",
        "S1 }",
    );
    // Arrays count as levels too: a struct of 63 nested arrays is 64.
    let arrays = |n: usize| {
        format!(
            "struct S {{ a: {}f32{} }}\n@group(0) @binding(0) var<storage> b: S;\n{ENTRY}",
            "array<".repeat(n),
            ", 1>".repeat(n)
        )
    };
    accepted(&arrays(MAX_TYPE_NESTING - 1));
    refused(
        &arrays(MAX_TYPE_NESTING),
        "nests too deeply",
        "array<f32, 1>",
    );
}

/// Thousands of nested structs: an error (65 levels down from the buffer),
/// not a stack overflow.
#[test]
fn deep_struct_chains_do_not_overflow_the_stack() {
    refused(&struct_chain(5000), "nests too deeply", "S4936 }");
}

#[test]
fn alias_depth() {
    let chain = |n: usize| {
        let mut s = String::from("alias A1 = f32;\n");
        for i in 2..=n {
            s.push_str(&format!("alias A{i} = A{};\n", i - 1));
        }
        format!("{s}@group(0) @binding(0) var<storage> b: A{n};\n{ENTRY}")
    };
    accepted(&chain(MAX_ALIAS_DEPTH));
    refused(&chain(MAX_ALIAS_DEPTH + 1), "nests too deeply", "A");
}

#[test]
fn buffer_bytes() {
    // The largest u32 array under the limit, then one element more.
    let array = |n: u64| format!("@group(0) @binding(0) var<storage> b: array<u32, {n}>;\n{ENTRY}");
    let most = MAX_BYTES / 4;
    for target in Target::ALL {
        assert!(translate(&array(most), target).is_ok(), "{target}");
    }
    refused(&array(most + 1), "", "array");
    // `@size` and `@stride` values past the limit.
    let size = |n: u64| {
        format!(
            "struct S {{ @size({n}) a: u32 }}\n@group(0) @binding(0) var<storage> b: S;\n{ENTRY}"
        )
    };
    assert!(translate(&size(MAX_BYTES - 3), Target::Layout).is_ok());
    refused(&size(MAX_BYTES + 1), "", "");
}

#[test]
fn struct_members() {
    let members = |n: usize| {
        let list: String = (0..n).map(|i| format!("m{i}: f32, ")).collect();
        format!("struct S {{ {list}}}\n@group(0) @binding(0) var<storage> b: S;\n{ENTRY}")
    };
    assert!(translate(&members(MAX_STRUCT_MEMBERS), Target::Layout).is_ok());
    refused(&members(MAX_STRUCT_MEMBERS + 1), "more than the", "S {");
}

/// A resource-struct parameter whose structs each hold the next twice:
/// `2^levels` textures, plus `extra` more at the top.
fn doubling(levels: u32, extra: usize) -> String {
    let mut text = String::new();
    let top: String = (0..extra)
        .map(|i| format!("x{i}: texture_2d<f32>, "))
        .collect();
    for i in 0..levels {
        let first = if i == 0 { top.as_str() } else { "" };
        let next = i + 1;
        text.push_str(&format!(
            "struct L{i} {{ {first}a: L{next}, b: L{next} }}\n"
        ));
    }
    text.push_str(&format!("struct L{levels} {{ t: texture_2d<f32> }}\n"));
    text.push_str("@group(0) @binding(0) var p: L0;\n");
    text.push_str("@group(1) @binding(0) var<storage> b: f32;\n");
    text.push_str(ENTRY);
    text
}

#[test]
fn split_resources() {
    assert_eq!(MAX_SPLIT_RESOURCES, 1 << 12);
    let at_limit = translate(&doubling(12, 0), Target::Layout);
    assert!(at_limit.is_ok(), "{:?}", at_limit.err());
    refused(&doubling(12, 1), "splits into more than", "p: L0");
    // Past it by far (2^40 textures): refused as quickly.
    refused(&doubling(40, 0), "splits into more than", "p: L0");
}

#[test]
fn resource_struct_nesting() {
    let chain = |n: usize| {
        let mut text = String::new();
        for i in 0..n {
            text.push_str(&format!("struct R{i} {{ r: R{} }}\n", i + 1));
        }
        text.push_str(&format!("struct R{n} {{ t: texture_2d<f32> }}\n"));
        text.push_str("@group(0) @binding(0) var p: R0;\n");
        text.push_str("@group(1) @binding(0) var<storage> b: f32;\n");
        text.push_str(ENTRY);
        text
    };
    let at_limit = translate(&chain(MAX_TYPE_NESTING), Target::Layout);
    assert!(at_limit.is_ok(), "{:?}", at_limit.err());
    refused(&chain(MAX_TYPE_NESTING + 1), "nested more than", "p: R0");
}

#[test]
fn a_resource_struct_holding_itself_is_an_error_not_a_blow_up() {
    // Found by the `front` fuzz target: the split followed `Detail` into
    // itself twice per level (2^32 fields) before naga saw the module.
    let source = format!(
        "struct Detail {{ t: texture_2d<f32>, d: Detail, e: Detail }}\n\
         @group(0) @binding(0) var p: Detail;\n\
         @group(1) @binding(0) var<storage> b: f32;\n{ENTRY}"
    );
    refused(&source, "contains itself", "Detail, e");
}

#[test]
fn long_identifiers_translate() {
    let name = "s".repeat(100_000);
    accepted(&format!(
        "struct {name} {{ a: f32 }}\n@group(0) @binding(0) var<storage> b: {name};\n{ENTRY}"
    ));
}
