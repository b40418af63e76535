//! Bindings across APIs: for every corpus input, the `--target reflect`
//! JSON lists every resource's binding for Vulkan (`globals`, and the
//! `vulkan450` GLSL files), OpenGL (`gl450` files: units per kind), and
//! D3D (`hlsl`: registers in both register modes). This test checks that
//! the three assignments agree with each other and with the source, and
//! that none of them overlaps:
//!
//! - Vulkan: every resource has a (group, binding), explicit or allocated by
//!   `src/bind.rs`; each GLSL file binds exactly those, and no two
//!   resources one entry point uses share one.
//! - OpenGL: each file lists every resource its entry point uses (textures
//!   through their combined samplers, samplers inside those); within a kind
//!   (uniform blocks, storage blocks, texture units, image units) the units
//!   are distinct and follow declaration order.
//! - D3D: every resource has exactly one register range. `wgsl` mode:
//!   space = group, register = binding, or the first register after the
//!   ranges of the lower bindings of its space and class where a binding
//!   array reaches past it (a split parameter's binding arrays lie one
//!   after the other, spec/001); no module's ranges overlap, and the
//!   ranges one entry point uses do not overlap within a class. `compact` mode: per space and class, the
//!   ranges are contiguous from 0 in declaration order (spec/001's first
//!   free range, nothing reserved).
//! - All three name the same resources.

mod common;

use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

/// One resource global of the module, in declaration order.
struct Resource {
    name: String,
    space: String,
    group: Option<u64>,
    binding: Option<u64>,
}

fn resources(reflect: &Value) -> Vec<Resource> {
    reflect["globals"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|g| {
            matches!(
                g["space"].as_str(),
                Some("uniform" | "storage" | "handle" | "push_constant")
            )
        })
        .map(|g| Resource {
            name: g["name"].as_str().unwrap_or_default().to_string(),
            space: g["space"].as_str().unwrap_or_default().to_string(),
            group: g["group"].as_u64(),
            binding: g["binding"].as_u64(),
        })
        .collect()
}

/// Per entry point name, the resource globals it statically uses.
fn used(source: &str) -> BTreeMap<String, BTreeSet<String>> {
    let Ok(stride::Analysis { parsed, .. }) = stride::analyze(source) else {
        return BTreeMap::new();
    };
    let module = &parsed.module;
    module
        .entry_points
        .iter()
        .enumerate()
        .map(|(i, ep)| {
            let flags = stride::front::bindings::used_by_entry_point(module, i);
            let names = module
                .global_variables
                .iter()
                .filter(|(h, v)| flags[h.index()] && stride::front::bindings::is_resource(v))
                .filter_map(|(_, v)| v.name.clone())
                .collect();
            (ep.name.clone(), names)
        })
        .collect()
}

/// A D3D register range: first register, count, declaration index, global.
type Range = (u64, u64, usize, String);

#[derive(Default)]
struct Counts {
    inputs: usize,
    resources: usize,
    vulkan_files: usize,
    gl_files: usize,
    d3d_registers: usize,
    checked: usize,
}

#[test]
fn vulkan_gl_and_d3d_bindings_agree_and_do_not_overlap() {
    let mut failures = Vec::new();
    let mut counts = Counts::default();
    for input in common::corpus_inputs() {
        let name = common::display_name(&input);
        if name.starts_with("corpus/errors/") {
            continue;
        }
        let Ok(source) = std::fs::read_to_string(&input) else {
            failures.push(format!("{name}: cannot read"));
            continue;
        };
        let options = stride::Options {
            target: stride::Target::Reflect,
            ..Default::default()
        };
        let text = match stride::translate(&source, &options) {
            Ok(t) => match t.output {
                stride::Output::Text(t) => t,
                _ => continue,
            },
            Err(_) => continue,
        };
        let reflect: Value = match serde_json::from_str(&text) {
            Ok(v) => v,
            Err(e) => {
                failures.push(format!("{name}: reflect JSON does not parse: {e}"));
                continue;
            }
        };
        counts.inputs += 1;
        let res = resources(&reflect);
        counts.resources += res.len();
        let used = used(&source);
        let mut fail = |what: String| failures.push(format!("{name}: {what}"));
        let order: BTreeMap<&str, usize> = res
            .iter()
            .enumerate()
            .map(|(i, r)| (r.name.as_str(), i))
            .collect();
        let by_name: BTreeMap<&str, &Resource> = res.iter().map(|r| (r.name.as_str(), r)).collect();

        // Vulkan: every non-push resource has a binding; the GLSL files
        // bind exactly those.
        for r in &res {
            if r.space != "push_constant" && (r.group.is_none() || r.binding.is_none()) {
                fail(format!("Vulkan: `{}` has no (group, binding)", r.name));
            }
        }
        if let Some(files) = reflect["glsl"]["vulkan450"]["files"].as_array() {
            for f in files {
                counts.vulkan_files += 1;
                let entry = f["entry_point"].as_str().unwrap_or_default();
                let mut seen: BTreeMap<(u64, u64), &str> = BTreeMap::new();
                let mut listed = BTreeSet::new();
                for b in f["bindings"].as_array().into_iter().flatten() {
                    let global = b["global"].as_str().unwrap_or_default();
                    listed.insert(global.to_string());
                    let Some(r) = by_name.get(global) else {
                        fail(format!(
                            "Vulkan `{entry}`: binds `{global}`, which is not a resource"
                        ));
                        continue;
                    };
                    if b["kind"] == "push-constant" {
                        continue;
                    }
                    let (set, binding) = (b["set"].as_u64(), b["binding"].as_u64());
                    counts.checked += 1;
                    if (set, binding) != (r.group, r.binding) {
                        fail(format!(
                            "Vulkan `{entry}`: `{global}` at set {set:?} binding {binding:?}, the source says group {:?} binding {:?}",
                            r.group, r.binding
                        ));
                    }
                    if let (Some(s), Some(b)) = (set, binding) {
                        if let Some(other) = seen.insert((s, b), global) {
                            if other != global {
                                fail(format!(
                                    "Vulkan `{entry}`: `{other}` and `{global}` share set {s} binding {b}"
                                ));
                            }
                        }
                    }
                }
                for u in used.get(entry).into_iter().flatten() {
                    if !listed.contains(u) {
                        fail(format!("Vulkan `{entry}`: uses `{u}` but does not bind it"));
                    }
                }
            }
        }

        // OpenGL: units per kind distinct and in declaration order; every
        // used resource present.
        if let Some(files) = reflect["glsl"]["gl450"]["files"].as_array() {
            for f in files {
                counts.gl_files += 1;
                let entry = f["entry_point"].as_str().unwrap_or_default();
                let mut present = BTreeSet::new();
                let mut units: BTreeMap<&str, Vec<(u64, usize, String)>> = BTreeMap::new();
                for b in f["bindings"].as_array().into_iter().flatten() {
                    let global = b["global"].as_str().unwrap_or_default();
                    present.insert(global.to_string());
                    let kind = match b["kind"].as_str().unwrap_or_default() {
                        "combined-sampler" | "texture" => "texture unit",
                        other => other,
                    };
                    if kind == "push-constant" {
                        continue;
                    }
                    if let Some(unit) = b["binding"].as_u64() {
                        let at = order.get(global).copied().unwrap_or(usize::MAX);
                        units
                            .entry(kind)
                            .or_default()
                            .push((unit, at, global.to_string()));
                    }
                }
                for c in f["combined_samplers"].as_array().into_iter().flatten() {
                    if let Some(s) = c["sampler"].as_str() {
                        present.insert(s.to_string());
                    }
                }
                for (kind, list) in &units {
                    counts.checked += list.len();
                    let mut distinct = BTreeSet::new();
                    for (unit, _, global) in list {
                        if !distinct.insert(*unit) {
                            fail(format!(
                                "GL `{entry}`: {kind} {unit} given twice (`{global}`)"
                            ));
                        }
                    }
                    // Blocks follow declaration order; combined samplers
                    // are pairs, ordered by their texture's declaration.
                    let mut by_unit = list.clone();
                    by_unit.sort();
                    if by_unit.windows(2).any(|w| w[0].1 > w[1].1) {
                        fail(format!(
                            "GL `{entry}`: {kind} units do not follow declaration order: {by_unit:?}"
                        ));
                    }
                }
                for u in used.get(entry).into_iter().flatten() {
                    if !present.contains(u) {
                        fail(format!(
                            "GL `{entry}`: uses `{u}` but the file does not bind it"
                        ));
                    }
                }
            }
        }

        // D3D, both register modes.
        for mode in ["wgsl", "compact"] {
            let Some(regs) = reflect["hlsl"][mode]["registers"].as_array() else {
                if let Some(e) = reflect["hlsl"][mode]["error"].as_str() {
                    if e.contains("overlap") {
                        fail(format!("D3D {mode}: ranges overlap: {e}"));
                    }
                }
                continue;
            };
            let wgsl_registers = moved_past_lower_bindings(regs, &by_name);
            let mut named = BTreeSet::new();
            // (space, class) -> its ranges.
            let mut ranges: BTreeMap<(u64, char), Vec<Range>> = BTreeMap::new();
            for r in regs {
                let global = r["global"].as_str().unwrap_or_default().to_string();
                let reg = r["register"].as_str().unwrap_or_default();
                let class = reg.chars().next().unwrap_or('?');
                let number: u64 = reg[class.len_utf8()..].parse().unwrap_or(u64::MAX);
                let space = r["space"].as_u64().unwrap_or(u64::MAX);
                let count = r["count"].as_u64().unwrap_or(1);
                counts.d3d_registers += 1;
                if global.starts_with("_s_") {
                    // stride's own cbuffer (workgroup count), in its own space.
                    continue;
                }
                if !named.insert(global.clone()) {
                    fail(format!("D3D {mode}: `{global}` has two registers"));
                }
                let Some(src) = by_name.get(global.as_str()) else {
                    fail(format!("D3D {mode}: `{global}` is not a resource"));
                    continue;
                };
                if mode == "wgsl" && src.space != "push_constant" {
                    counts.checked += 1;
                    let expected = wgsl_registers.get(&global).copied().or(src.binding);
                    if (Some(space), Some(number)) != (src.group, expected) {
                        fail(format!(
                            "D3D wgsl: `{global}` at {reg} space {space}, the source says group {:?} binding {:?} (register {expected:?})",
                            src.group, src.binding
                        ));
                    }
                }
                let at = order.get(global.as_str()).copied().unwrap_or(usize::MAX);
                ranges
                    .entry((space, class))
                    .or_default()
                    .push((number, count, at, global));
            }
            for r in &res {
                if !named.contains(&r.name) {
                    fail(format!("D3D {mode}: no register for `{}`", r.name));
                }
            }
            for ((space, class), list) in &ranges {
                let overlaps = |a: &Range, b: &Range| a.0 < b.0 + b.1 && b.0 < a.0 + a.1;
                if mode == "compact" {
                    counts.checked += list.len();
                    let mut by_decl = list.clone();
                    by_decl.sort_by_key(|r| r.2);
                    let mut next = 0;
                    for (number, count, _, global) in &by_decl {
                        if *number != next {
                            fail(format!(
                                "D3D compact: `{global}` at {class}{number} space {space}, the first free register in declaration order is {class}{next}"
                            ));
                        }
                        next = number + count;
                    }
                }
                for (i, a) in list.iter().enumerate() {
                    for b in &list[..i] {
                        if !overlaps(a, b) {
                            continue;
                        }
                        let shared = used
                            .iter()
                            .find(|(_, u)| u.contains(&a.3) && u.contains(&b.3));
                        if mode == "compact" || shared.is_some() {
                            fail(format!(
                                "D3D {mode}: `{}` and `{}` overlap in {class} space {space}{}",
                                b.3,
                                a.3,
                                shared.map_or(String::new(), |(e, _)| format!(
                                    ", both used by `{e}`"
                                ))
                            ));
                        }
                    }
                }
            }
        }
    }
    let summary = format!(
        "{} inputs, {} resources; {} Vulkan GLSL files, {} OpenGL files, {} D3D registers (two modes); {} bindings and units checked against the source and each other",
        counts.inputs,
        counts.resources,
        counts.vulkan_files,
        counts.gl_files,
        counts.d3d_registers,
        counts.checked
    );
    assert!(counts.inputs > 50, "too few inputs: {summary}");
    common::finish("bindings", summary, failures);
}

/// In `wgsl` mode, where each resource must be: at the first register at
/// or after its binding that the resources at lower bindings of its space
/// and class leave free (its binding, unless a binding array below reaches
/// past it: a split parameter's binding arrays `gPairs_a`, `gPairs_b` at
/// bindings 0 and 1 take t0..t7 and t8..t15, spec/001's layout).
fn moved_past_lower_bindings(
    regs: &[Value],
    by_name: &BTreeMap<&str, &Resource>,
) -> BTreeMap<String, u64> {
    // (space, class) -> (binding, end of the register range) of every
    // resource.
    let mut placed: BTreeMap<(u64, char), Vec<(u64, u64)>> = BTreeMap::new();
    for r in regs {
        let global = r["global"].as_str().unwrap_or_default();
        let reg = r["register"].as_str().unwrap_or_default();
        let class = reg.chars().next().unwrap_or('?');
        let Some(binding) = by_name.get(global).and_then(|s| s.binding) else {
            continue;
        };
        let number: u64 = reg[class.len_utf8()..].parse().unwrap_or(u64::MAX);
        let space = r["space"].as_u64().unwrap_or(u64::MAX);
        let count = r["count"].as_u64().unwrap_or(1);
        placed
            .entry((space, class))
            .or_default()
            .push((binding, number + count));
    }
    let mut expected = BTreeMap::new();
    for r in regs {
        let global = r["global"].as_str().unwrap_or_default();
        let reg = r["register"].as_str().unwrap_or_default();
        let class = reg.chars().next().unwrap_or('?');
        let space = r["space"].as_u64().unwrap_or(u64::MAX);
        let Some(binding) = by_name.get(global).and_then(|s| s.binding) else {
            continue;
        };
        let below = placed
            .get(&(space, class))
            .into_iter()
            .flatten()
            .filter(|&&(b, _)| b < binding)
            .map(|&(_, end)| end)
            .max()
            .unwrap_or(0);
        expected.insert(global.to_string(), binding.max(below));
    }
    expected
}
