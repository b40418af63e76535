//! Oracle test of the HLSL backend (issue 4, "Checks"): stride's HLSL
//! checked by DXC, a compiler nobody on this project wrote.
//!
//! For every corpus input (every theme folder except `errors/`) and every
//! input of `tests/regressions/`:
//!
//! - stride translates it to HLSL with the default options: the shader
//!   model the module needs (6.0; 6.2 for inputs that use f16, which DXC
//!   compiles with `-enable-16bit-types`, or 64-bit storage values), which
//!   the output reports and the entry points are compiled for; an input
//!   that uses f16 must get 6.2 or later, with a note. A translation
//!   that fails with error diagnostics must be listed in [`NOT_FITTING`];
//!   a listed input that translates is a failure too (the list is stale);
//! - DXC compiles every entry point of the file for its stage, once as
//!   HLSL 2018 (DXC 1.7's default) and once with `-HV 2021`;
//! - for every cbuffer, the offsets in the `; Buffer Definitions` block of
//!   DXC's `-Fc` disassembly (D3D's own packing, packoffset applied) equal
//!   stride's layout IR (`stride::analyze`), nested members included, and
//!   every array's register stride equals the contract's array stride.
//!   Padding members (`_s_pad*`) are ignored; a matrix split into column
//!   members `<m>_c0`, `<m>_c1`, ... (or an array element wrapped in a
//!   struct `_s_...`, whose value member is `v` and whose columns are
//!   `v_c0`, `v_c1`, ...) is compared column by column. HLSL names come
//!   from the writer's [`stride::back::hlsl::HlslNames`].
//!
//! A missing DXC skips the test loudly; `STRIDE_REQUIRE_ORACLES=1` turns it
//! into a failure.

mod common;

use common::dxc::{self, CBuffer, Member};
use common::*;
use stride::back::hlsl::{HlslOptions, HlslOutput, ShaderModel};
use stride::layout::{Layout, LayoutKind, LayoutModule};

/// `(input, why)`: corpus inputs that HLSL cannot express. stride must
/// reject them with error diagnostics (not an internal error); every other
/// input must translate. Inputs are named as in diagnostics
/// (`corpus/<theme>/<file>.wgsl`). When this list is wrong the test prints
/// the inputs that actually failed, in this syntax.
const NOT_FITTING: &[(&str, &str)] = &[];

#[derive(Default)]
struct Counts {
    inputs: usize,
    /// Cbuffers declared as `uint4` words.
    words: usize,
    translated: usize,
    not_fitting: usize,
    entry_points: usize,
    /// Modules without entry points, compiled as `lib_6_3` libraries.
    libraries: usize,
    compiled: usize,
    cbuffers: usize,
    unused_cbuffers: usize,
    members: usize,
    strides: usize,
}

fn uses_f16(source: &str) -> bool {
    source.contains("enable f16")
}

/// Translate `input` to HLSL with the default options: `Ok(None)` when
/// stride rejects it with error diagnostics (rendered in the `Err` text of
/// the second value).
fn translate(source: &str) -> Result<(HlslOutput, LayoutModule), Result<String, String>> {
    let stride::Analysis {
        parsed,
        info,
        contract,
        ..
    } = stride::analyze(source).map_err(|e| Err(e.render("input.wgsl", source, false)))?;
    // The default options: `wgsl` registers, which split parameters fit
    // too (the Slang oracle checks them in compact mode).
    let options = HlslOptions::default();
    match stride::back::write_text(&parsed, &info, &contract, &Default::default(), &options) {
        Ok(out) => Ok((out, contract)),
        Err(e) => {
            let text = e.render("input.wgsl", source, false);
            if e.iter().any(|d| d.is_error() && d.is_internal()) {
                Err(Err(text))
            } else {
                Err(Ok(text))
            }
        }
    }
}

#[test]
fn corpus_hlsl_compiles_with_dxc_and_cbuffers_match_the_contract() {
    if !dxc::require_dxc("hlsl::corpus_hlsl_compiles_with_dxc_and_cbuffers_match_the_contract") {
        return;
    }
    let mut counts = Counts::default();
    let mut failures = Vec::new();
    let mut rejected = Vec::new();
    for input in corpus_inputs().into_iter().chain(regression_inputs()) {
        let name = display_name(&input);
        if name.starts_with("corpus/errors/") {
            continue;
        }
        let Ok(source) = std::fs::read_to_string(&input) else {
            failures.push(format!("{name}: cannot read"));
            continue;
        };
        // Inputs the front end rejects are the errors/ corpus's business.
        if stride::analyze(&source).is_err() {
            continue;
        }
        counts.inputs += 1;
        let f16 = uses_f16(&source);
        let listed = NOT_FITTING.iter().find(|(n, _)| *n == name);
        let (out, contract) = match translate(&source) {
            Ok(x) => x,
            Err(Ok(diags)) => {
                if listed.is_some() {
                    counts.not_fitting += 1;
                } else {
                    rejected.push(format!("    (\"{name}\", \"...\"),"));
                    failures.push(format!("{name}: rejected, not in NOT_FITTING:\n{diags}"));
                }
                continue;
            }
            Err(Err(diags)) => {
                failures.push(format!("{name}: internal error or panic:\n{diags}"));
                continue;
            }
        };
        if listed.is_some() {
            failures.push(format!(
                "{name}: listed in NOT_FITTING but translates; remove it from the list"
            ));
        }
        counts.translated += 1;
        let model = out.shader_model;
        let noted = out
            .warnings
            .iter()
            .any(|w| w.severity == stride::diag::Severity::Note && w.message.contains("6.2"));
        if f16 && (model < ShaderModel::Sm6_2 || !noted) {
            failures.push(format!(
                "{name}: uses f16 but is written for shader model {model} (note given: {noted})"
            ));
        }
        let mut extra: Vec<&str> = Vec::new();
        if f16 {
            extra.push("-enable-16bit-types");
        }
        let mut seen_cbuffers: Vec<String> = Vec::new();
        // (WGSL name, HLSL function, profile); a module without entry
        // points is written as a library and compiled as one.
        let mut jobs: Vec<(String, String, String)> = out
            .entry_points
            .iter()
            .map(|ep| (ep.name.clone(), ep.function.clone(), ep.profile(model)))
            .collect();
        if jobs.is_empty() {
            counts.libraries += 1;
            jobs.push(("(library)".into(), String::new(), "lib_6_3".into()));
        }
        for (ep_name, function, profile) in &jobs {
            counts.entry_points += 1;
            let compiled = match dxc::compile(&out.text, profile, function, &extra) {
                Ok(c) => c,
                Err(e) => {
                    failures.push(format!(
                        "{name}: DXC rejects entry point `{ep_name}` ({profile}):\n{e}\n--- HLSL:\n{}",
                        numbered(&out.text)
                    ));
                    continue;
                }
            };
            let mut hv2021 = extra.clone();
            hv2021.extend(["-HV", "2021"]);
            if let Err(e) = dxc::compile(&out.text, profile, function, &hv2021) {
                failures.push(format!(
                    "{name}: DXC -HV 2021 rejects entry point `{ep_name}` ({profile}):\n{e}"
                ));
            }
            counts.compiled += 1;
            for cb in compiled.cbuffers() {
                if seen_cbuffers.contains(&cb.name) {
                    continue;
                }
                seen_cbuffers.push(cb.name.clone());
                counts.cbuffers += 1;
                if let Err(e) = cb.check_sizes() {
                    failures.push(format!("{name}: {e}"));
                }
                compare_cbuffer(&name, &cb, &out, &contract, &mut counts, &mut failures);
            }
        }
        // Uniform globals no entry point reads: DXC leaves them out.
        for r in out.registers.iter().filter(|r| r.kind == "cbuffer") {
            if !seen_cbuffers.contains(&r.hlsl_name) {
                counts.unused_cbuffers += 1;
            }
        }
    }
    if !rejected.is_empty() {
        loud(&format!(
            "hlsl: inputs rejected but not in NOT_FITTING:\n{}",
            rejected.join("\n")
        ));
    }
    let summary = format!(
        "{} inputs, {} translated, {} not fitting HLSL, {} entry points (and libraries: {}) \
         compiled by DXC of {} (HLSL 2018 and 2021), {} cbuffers ({} unused, left out by DXC), \
         {} members and {} array strides equal to the contract, {} cbuffers declared as words",
        counts.inputs,
        counts.translated,
        counts.not_fitting,
        counts.compiled,
        counts.libraries,
        counts.entry_points,
        counts.cbuffers,
        counts.unused_cbuffers,
        counts.members,
        counts.strides,
        counts.words
    );
    finish("hlsl", summary, failures);
}

fn numbered(text: &str) -> String {
    text.lines()
        .enumerate()
        .map(|(i, l)| format!("{:4} {l}\n", i + 1))
        .collect()
}

/// Compare one cbuffer DXC printed with the contract layout of its global.
fn compare_cbuffer(
    input: &str,
    cb: &CBuffer,
    out: &HlslOutput,
    contract: &LayoutModule,
    counts: &mut Counts,
    failures: &mut Vec<String>,
) {
    let Some(reg) = out
        .registers
        .iter()
        .find(|r| r.kind == "cbuffer" && r.hlsl_name == cb.name)
    else {
        failures.push(format!(
            "{input}: DXC lists cbuffer `{}`, which the writer's register list does not",
            cb.name
        ));
        return;
    };
    let Some(global) = contract.globals.iter().find(|g| g.name == reg.global) else {
        // stride's own cbuffers (e.g. the workgroup count) have no contract.
        return;
    };
    if reg.words {
        // Declared as `uint4` words (no cbuffer holds its layout): one
        // array from offset 0 covering the contract size. Its values are
        // checked by execution (tests/exec.rs).
        let size = u32::try_from(global.layout.size.unwrap_or(0)).unwrap_or(u32::MAX);
        let ok = match cb.members.as_slice() {
            [m] => {
                m.ty == "uint4"
                    && m.offset == 0
                    && m.array.first().copied().unwrap_or(1) * 16 >= size
            }
            _ => false,
        };
        if ok {
            counts.words += 1;
        } else {
            failures.push(format!(
                "{input}: `{}` is declared as words, but DXC lists {:?}",
                global.name, cb.members
            ));
        }
        return;
    }
    let Some((_, _, top)) = out
        .names
        .cbuffers
        .iter()
        .find(|(g, _, _)| *g == global.name)
    else {
        failures.push(format!(
            "{input}: the writer names no cbuffer members for `{}`",
            global.name
        ));
        return;
    };
    let mut cmp = Comparer {
        input,
        cbuffer: &cb.name,
        contract,
        names: &out.names,
        counts,
        failures,
    };
    match &global.layout.kind {
        LayoutKind::Struct(h) => {
            let Some(s) = contract.structs.get(h) else {
                cmp.fail(format!(
                    "no contract layout for the type of `{}`",
                    global.name
                ));
                return;
            };
            for m in s.members() {
                let Some(hlsl) = top.get(m.index) else {
                    cmp.fail(format!("no HLSL name for member `{}`", m.name));
                    continue;
                };
                cmp.member(&cb.members, hlsl, &m.layout, m.offset, &m.name);
            }
        }
        _ => match top.first() {
            Some(hlsl) => cmp.member(&cb.members, hlsl, &global.layout, 0, &global.name),
            None => cmp.fail(format!("no HLSL name for `{}`", global.name)),
        },
    }
}

struct Comparer<'a> {
    input: &'a str,
    cbuffer: &'a str,
    contract: &'a LayoutModule,
    names: &'a stride::back::hlsl::HlslNames,
    counts: &'a mut Counts,
    failures: &'a mut Vec<String>,
}

impl Comparer<'_> {
    /// The HLSL name of member `index` of the WGSL struct `wgsl`.
    fn field_name(&self, wgsl: &str, index: usize) -> Option<String> {
        self.names
            .structs
            .iter()
            .find(|(w, _, _)| w == wgsl)
            .and_then(|(_, _, fields)| fields.get(index).cloned())
    }

    /// Compare every member of struct `h` (at absolute `offset`) with the
    /// fields DXC lists.
    fn fields(&mut self, fields: &[Member], h: naga::Handle<naga::Type>, offset: u64, path: &str) {
        let Some(s) = self.contract.structs.get(&h) else {
            return;
        };
        for f in s.members() {
            let Some(name) = self.field_name(&s.name, f.index) else {
                self.fail(format!("no HLSL name for `{}.{}`", s.name, f.name));
                continue;
            };
            self.member(
                fields,
                &name,
                &f.layout,
                offset + f.offset,
                &format!("{path}.{}", f.name),
            );
        }
    }

    fn fail(&mut self, what: String) {
        self.failures
            .push(format!("{}: cbuffer {}: {what}", self.input, self.cbuffer));
    }

    /// The member named `name` among `siblings` must hold a value laid out
    /// as `layout` at absolute offset `offset` (`path`: for messages).
    fn member(
        &mut self,
        siblings: &[Member],
        name: &str,
        layout: &Layout,
        offset: u64,
        path: &str,
    ) {
        let found = siblings.iter().find(|m| m.name == name);
        let Some(m) = found else {
            // A matrix split into columns.
            if let LayoutKind::Matrix {
                columns,
                column_stride,
                ..
            } = layout.kind
            {
                if siblings.iter().any(|m| m.name == format!("{name}_c0")) {
                    for j in 0..u64::from(columns) {
                        let col = format!("{name}_c{j}");
                        self.leaf(
                            siblings,
                            &col,
                            offset + j * column_stride,
                            &format!("{path} column {j}"),
                        );
                    }
                    return;
                }
            }
            self.fail(format!(
                "no member `{name}` for `{path}` (members: {})",
                siblings
                    .iter()
                    .map(|m| m.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
            return;
        };
        self.at(m, layout, offset, path);
    }

    fn leaf(&mut self, siblings: &[Member], name: &str, offset: u64, path: &str) {
        match siblings.iter().find(|m| m.name == name) {
            Some(m) => self.check_offset(m, offset, path),
            None => self.fail(format!("no member `{name}` for `{path}`")),
        }
    }

    fn check_offset(&mut self, m: &Member, offset: u64, path: &str) {
        if u64::from(m.offset) == offset {
            self.counts.members += 1;
        } else {
            self.fail(format!(
                "`{path}` (HLSL `{}`) is at {} in DXC, {offset} in the contract",
                m.name, m.offset
            ));
        }
    }

    /// `m` (found) holds `layout` at `offset`.
    fn at(&mut self, m: &Member, layout: &Layout, offset: u64, path: &str) {
        match &layout.kind {
            LayoutKind::Struct(h) => {
                self.check_offset(m, offset, path);
                self.fields(&m.members, *h, offset, path);
            }
            LayoutKind::Array { .. } => {
                self.check_offset(m, offset, path);
                // DXC flattens nested arrays: peel every dimension, except
                // below a wrapper element struct (`_s_...`), which holds
                // the next dimension itself.
                let wrapper = m.ty.starts_with("struct _s_");
                let mut element = layout;
                let mut strides = Vec::new();
                while let LayoutKind::Array {
                    element: e,
                    stride,
                    count,
                } = &element.kind
                {
                    strides.push((*stride, count.unwrap_or(1)));
                    element = e;
                    if wrapper {
                        break;
                    }
                }
                let total: u64 = strides.iter().map(|(_, n)| *n).product();
                if let (Some(&n), true) = (m.array.first(), total > 1) {
                    let dxc_stride = u64::from(m.size).div_ceil(16) * 16 / u64::from(n).max(1);
                    let innermost = strides.last().map_or(0, |(s, _)| *s);
                    // Flattened, every element is `innermost` apart; outer
                    // strides must be whole inner arrays.
                    let mut consistent = true;
                    for w in strides.windows(2) {
                        if w[0].0 != w[1].0 * w[1].1 {
                            consistent = false;
                        }
                    }
                    if dxc_stride == innermost && consistent && u64::from(n) == total {
                        self.counts.strides += 1;
                    } else {
                        self.fail(format!(
                            "`{path}`: DXC packs {n} elements {dxc_stride} bytes apart, the \
                             contract has strides {strides:?}"
                        ));
                    }
                }
                // Element 0.
                if wrapper && m.members.iter().any(|f| f.name == "v") {
                    self.member(&m.members, "v", element, offset, &format!("{path}[0]"));
                } else if let LayoutKind::Matrix {
                    columns,
                    column_stride,
                    ..
                } = element.kind
                {
                    if wrapper {
                        for j in 0..u64::from(columns) {
                            self.leaf(
                                &m.members,
                                &format!("v_c{j}"),
                                offset + j * column_stride,
                                &format!("{path}[0] column {j}"),
                            );
                        }
                    }
                } else if let LayoutKind::Struct(h) = element.kind {
                    self.fields(&m.members, h, offset, &format!("{path}[0]"));
                }
            }
            LayoutKind::Matrix {
                columns,
                column_stride,
                ..
            } => {
                self.check_offset(m, offset, path);
                if *columns > 1 && *column_stride != 16 {
                    self.fail(format!(
                        "`{path}`: a {} matrix has 16-byte rows in a cbuffer, the contract \
                         column stride is {column_stride}",
                        m.ty
                    ));
                }
                if !m.ty.starts_with("row_major") {
                    self.fail(format!(
                        "`{path}`: matrix declared `{}`, not row_major",
                        m.ty
                    ));
                }
            }
            LayoutKind::Scalar(_) | LayoutKind::Atomic(_) | LayoutKind::Vector { .. } => {
                self.check_offset(m, offset, path);
                // The value's own size (an alias `@size` may make the
                // layout larger than the value).
                let size = match layout.kind {
                    LayoutKind::Vector { size, scalar } => {
                        Some(u64::from(size) * u64::from(scalar.width))
                    }
                    LayoutKind::Scalar(s) | LayoutKind::Atomic(s) => Some(u64::from(s.width)),
                    _ => None,
                };
                if let Some(size) = size {
                    if u64::from(m.size) != size {
                        self.fail(format!(
                            "`{path}`: DXC type `{}` is {} bytes, the contract {size}",
                            m.ty, m.size
                        ));
                    }
                }
            }
        }
    }
}

/// A uniform array whose elements are not stored plain (here a struct
/// holding an f16 matrix, rebuilt from its columns) is read element by
/// element straight from the cbuffer when it has at most 64 elements: no
/// whole-array copy and no rebuilding loop, which NVIDIA's Vulkan driver
/// (580) was seen to read wrong (docs/targets.md). A longer one keeps the
/// loop helper. DXC compiles both (the corpus test compiles every
/// regression input).
#[test]
fn cbuffer_arrays_are_read_element_by_element() {
    let source = "enable f16;
struct S { tag: vec4<u32>, m: mat2x3<f16> }
struct Block { few: array<S, 3>, many: array<S, 65> }
@group(0) @binding(0) var<uniform> block: Block;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
@compute @workgroup_size(1)
fn main() {
    let b = block;
    out[0] = f32(b.few[2].m[1].z) + f32(b.many[64].m[0].z);
}
";
    let (out, _) = match translate(source) {
        Ok(t) => t,
        Err(Ok(e) | Err(e)) => panic!("{e}"),
    };
    let text = &out.text;
    let helper = text
        .split("\n\n")
        .find(|part| part.contains("_s_cbload_block_cb()"))
        .unwrap_or_else(|| panic!("no load helper for `block`:\n{text}"));
    for k in 0..3 {
        let line = format!("    r.few[{k}] = _s_cbload_S_cb(block_few[{k}]);");
        assert!(helper.contains(&line), "missing `{line}`:\n{helper}");
    }
    assert!(!helper.contains("r.few[3]"), "{helper}");
    assert!(!helper.contains("r.few = "), "{helper}");
    assert!(
        helper.contains("    r.many = _s_cbload_S_cb_a65(block_many);"),
        "the 65-element array keeps its loop helper:\n{helper}"
    );
    assert!(text.contains("for (uint i = 0u; i < 65u; ++i)"), "{text}");
    assert!(!text.contains("i < 3u;"), "{text}");
}
