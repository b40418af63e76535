//! Oracle tests: stride's SPIR-V output checked by tools nobody on this
//! project wrote.
//!
//! - `spirv-val --target-env vulkan1.1` accepts every SPIR-V output (with the
//!   relaxed/scalar/standard-uniform-buffer layout flag when stride warned
//!   that the layout needs that Vulkan feature);
//! - `spirv-cross --reflect` reports, for every uniform, storage and
//!   push-constant block and every member (nested ones included), the
//!   offsets, array strides and matrix strides of stride's layout IR.
//!
//! Missing tools skip these tests loudly; `STRIDE_REQUIRE_ORACLES=1` turns a
//! missing tool into a failure. `scripts/install-oracles.sh` installs them.

mod common;

use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::process::Command;

use common::*;
use serde_json::{Map, Value};
use stride::layout::{GlobalLayout, Layout, LayoutKind, LayoutModule, StructLayout};
use stride::{Diagnostics, Options, Output, Target};

/// Whether `tool` is installed; if not, say so loudly, and fail when the
/// oracles are required.
fn require_tool(tool: &str, probe: &[&str], test: &str) -> bool {
    if tool_available(tool, probe) {
        return true;
    }
    let msg = format!(
        "`{tool}` not found: oracle test `{test}` SKIPPED (install it with scripts/install-oracles.sh)"
    );
    if oracles_required() {
        panic!("{msg}; STRIDE_REQUIRE_ORACLES=1 makes a missing tool a failure");
    }
    let bar = "!".repeat(76);
    loud(&format!("\n{bar}\n!!! {msg}\n{bar}\n"));
    false
}

/// One corpus input translated to SPIR-V.
struct SpirvCase {
    input: PathBuf,
    source: String,
    bytes: Vec<u8>,
    warnings: Diagnostics,
}

/// Every corpus input that translates to SPIR-V, plus how many did not.
fn spirv_cases(failures: &mut Vec<String>) -> (Vec<SpirvCase>, usize) {
    let mut cases = Vec::new();
    let mut rejected = 0;
    let options = Options {
        target: Target::Spirv,
        ..Default::default()
    };
    for input in corpus_inputs() {
        let name = display_name(&input);
        let Ok(source) = std::fs::read_to_string(&input) else {
            failures.push(format!("{name}: cannot read"));
            continue;
        };
        match panic::catch_unwind(AssertUnwindSafe(|| stride::translate(&source, &options))) {
            Ok(Ok(t)) => match t.output {
                Output::Binary(words) => cases.push(SpirvCase {
                    input,
                    source,
                    bytes: words_to_bytes(&words),
                    warnings: t.warnings,
                }),
                _ => failures.push(format!("{name}: spirv target gave text")),
            },
            Ok(Err(_)) => rejected += 1,
            Err(_) => failures.push(format!("{name}: stride::translate panicked")),
        }
    }
    (cases, rejected)
}

fn write_spv(dir: &Path, case: &SpirvCase) -> Result<PathBuf, String> {
    let file_name = display_name(&case.input).replace('/', "__") + ".spv";
    let path = dir.join(file_name);
    std::fs::write(&path, &case.bytes)
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(path)
}

/// The spirv-val flags for the Vulkan layout features that stride's
/// warnings name.
fn layout_flags(warnings: &Diagnostics) -> Vec<&'static str> {
    let mut text = String::new();
    for d in warnings.iter() {
        text.push_str(&d.message);
        for n in &d.notes {
            text.push_str(n);
        }
        for l in &d.labels {
            text.push_str(&l.message);
        }
    }
    let squashed: String = text
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .map(|c| c.to_ascii_lowercase())
        .collect();
    let mut flags = Vec::new();
    if squashed.contains("relaxedblocklayout") || squashed.contains("relaxblocklayout") {
        flags.push("--relax-block-layout");
    }
    if squashed.contains("scalarblocklayout") {
        flags.push("--scalar-block-layout");
    }
    if squashed.contains("uniformbufferstandardlayout") {
        flags.push("--uniform-buffer-standard-layout");
    }
    flags
}

/// Written straight to the process's stderr, past the test harness's output
/// capture, so that skips and totals show even when the test passes.
fn loud(text: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{text}");
}

fn finish(test: &str, summary: String, failures: Vec<String>) {
    loud(&format!("{test}: {summary}"));
    if !failures.is_empty() {
        let mut msg = format!("{test}: {} failure(s):\n", failures.len());
        for (i, f) in failures.iter().enumerate() {
            msg.push_str(&format!("\n--- [{}] {f}\n", i + 1));
        }
        panic!("{msg}");
    }
}

#[test]
fn spirv_val_accepts_every_spirv_output() {
    const TEST: &str = "spirv_val_accepts_every_spirv_output";
    if !require_tool("spirv-val", &["--version"], TEST) {
        return;
    }
    let mut failures = Vec::new();
    let (cases, rejected) = spirv_cases(&mut failures);
    let dir = temp_dir("spirv-val");
    let mut validated = 0;
    for case in &cases {
        let name = display_name(&case.input);
        let path = match write_spv(&dir, case) {
            Ok(p) => p,
            Err(e) => {
                failures.push(e);
                continue;
            }
        };
        let flags = layout_flags(&case.warnings);
        let out = Command::new("spirv-val")
            .args(["--target-env", "vulkan1.1"])
            .args(&flags)
            .arg(&path)
            .output();
        match out {
            Ok(o) if o.status.success() => validated += 1,
            Ok(o) => failures.push(format!(
                "{name}: spirv-val --target-env vulkan1.1 {} rejected the output:\n{}{}{}",
                flags.join(" "),
                String::from_utf8_lossy(&o.stdout),
                String::from_utf8_lossy(&o.stderr),
                if case.warnings.is_empty() {
                    String::new()
                } else {
                    format!(
                        "stride's warnings:\n{}",
                        case.warnings.render(&name, &case.source, false)
                    )
                }
            )),
            Err(e) => failures.push(format!("{name}: cannot run spirv-val: {e}")),
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    if cases.is_empty() && rejected > 0 {
        failures.push(format!(
            "none of the {rejected} corpus inputs translates to SPIR-V: nothing was validated"
        ));
    }
    finish(
        TEST,
        format!(
            "{validated} of {} SPIR-V outputs validated ({rejected} inputs do not translate to SPIR-V)",
            cases.len()
        ),
        failures,
    );
}

/// Compares spirv-cross reflection with the layout IR.
struct Comparer<'a> {
    file: String,
    contract: &'a LayoutModule,
    types: &'a Map<String, Value>,
    failures: Vec<String>,
    members: usize,
}

fn as_u64(v: &Value, key: &str) -> Option<u64> {
    v.get(key).and_then(Value::as_u64)
}

impl Comparer<'_> {
    fn fail(&mut self, path: &str, msg: String) {
        self.failures.push(format!("{}: {path}: {msg}", self.file));
    }

    fn check_value(&mut self, path: &str, sc: &Value, key: &str, expected: u64) {
        match as_u64(sc, key) {
            Some(v) if v == expected => {}
            Some(v) => self.fail(
                path,
                format!("{key}: spirv-cross says {v}, stride's layout IR says {expected}"),
            ),
            None => self.fail(
                path,
                format!(
                    "{key}: missing in spirv-cross reflection (stride's layout IR says {expected})"
                ),
            ),
        }
    }

    fn struct_layout(&mut self, path: &str, h: naga::Handle<naga::Type>) -> Option<&StructLayout> {
        let found = self.contract.structs.get(&h);
        if found.is_none() {
            self.failures.push(format!(
                "{}: {path}: struct {h:?} missing from the layout IR",
                self.file
            ));
        }
        self.contract.structs.get(&h)
    }

    fn sc_type(&mut self, path: &str, id: Option<&str>) -> Option<Value> {
        let found = id.and_then(|id| self.types.get(id)).cloned();
        if found.is_none() {
            self.fail(path, format!("spirv-cross type {id:?} not found"));
        }
        found
    }

    /// A spirv-cross struct type against an IR struct. Members are matched
    /// in order; a matrix member of a uniform struct may appear as one
    /// vector member per column (naga's std140-compatible types for two-row
    /// matrices, stride's own for other column strides Vulkan's uniform
    /// layout does not allow).
    fn compare_struct(&mut self, path: &str, sc: &Value, s: &StructLayout) {
        let empty = Vec::new();
        let sc_members = sc
            .get("members")
            .and_then(Value::as_array)
            .unwrap_or(&empty);
        let mut ir_members: Vec<_> = s.members().cloned().collect();
        ir_members.sort_by_key(|m| m.index);
        let mut cursor = 0;
        for m in &ir_members {
            let mpath = format!("{path}.{}", m.name);
            let Some(scm) = sc_members.get(cursor) else {
                self.fail(
                    &mpath,
                    "member missing in spirv-cross reflection".to_string(),
                );
                cursor += 1;
                continue;
            };
            self.members += 1;
            if let LayoutKind::Matrix {
                columns,
                column_stride,
                ..
            } = m.layout.kind
            {
                if is_vector(scm) {
                    // Hoisted columns: `<name>_col0`, `<name>_col1`, ...
                    for c in 0..columns as u64 {
                        let cpath = format!("{mpath}[column {c}]");
                        match sc_members.get(cursor) {
                            Some(col) if is_vector(col) => self.check_value(
                                &cpath,
                                col,
                                "offset",
                                m.offset + c * column_stride,
                            ),
                            _ => self.fail(
                                &cpath,
                                "column member missing in spirv-cross reflection".to_string(),
                            ),
                        }
                        cursor += 1;
                    }
                    continue;
                }
            }
            if let Some(name) = scm.get("name").and_then(Value::as_str) {
                if name != m.name && !name.starts_with("_m") {
                    self.fail(
                        &mpath,
                        format!(
                            "member order: spirv-cross has `{name}` where the layout IR has `{}`",
                            m.name
                        ),
                    );
                }
            }
            cursor += 1;
            self.check_value(&mpath, scm, "offset", m.offset);
            self.compare_member(&mpath, scm, &m.layout);
        }
        if cursor != sc_members.len() {
            self.fail(
                path,
                format!(
                    "struct {}: spirv-cross lists {} members, the layout IR accounts for {cursor}",
                    s.name,
                    sc_members.len()
                ),
            );
        }
    }

    /// A spirv-cross member (type, arrays, strides) against an IR layout.
    fn compare_member(&mut self, path: &str, scm: &Value, layout: &Layout) {
        // Array dimensions, outermost first, and the outermost stride.
        let mut dims = Vec::new();
        let mut base = layout;
        while let LayoutKind::Array {
            element,
            stride,
            count,
        } = &base.kind
        {
            if dims.is_empty() {
                self.check_value(path, scm, "array_stride", *stride);
            }
            dims.push(count.unwrap_or(0));
            base = element;
        }
        // spirv-cross lists dimensions innermost first.
        let sc_dims: Vec<u64> = scm
            .get("array")
            .and_then(Value::as_array)
            .map(|a| a.iter().rev().filter_map(Value::as_u64).collect())
            .unwrap_or_default();
        let literal = scm
            .get("array_size_is_literal")
            .and_then(Value::as_array)
            .is_none_or(|a| a.iter().all(|v| v.as_bool() != Some(false)));
        if literal && sc_dims != dims {
            self.fail(
                path,
                format!("array dimensions: spirv-cross says {sc_dims:?}, stride's layout IR says {dims:?}"),
            );
        }
        if dims.is_empty() && scm.get("array_stride").is_some() {
            self.fail(
                path,
                "spirv-cross reports an array, the layout IR does not".to_string(),
            );
        }
        match &base.kind {
            LayoutKind::Matrix {
                columns,
                column_stride,
                ..
            } => {
                let id = scm.get("type").and_then(Value::as_str).unwrap_or("");
                if id.starts_with('_') && scm.get("matrix_stride").is_none() {
                    // A uniform matrix as a struct of columns: naga's
                    // std140-compatible matCx2, or stride's column split.
                    let Some(sc) = self.sc_type(path, Some(id)) else {
                        return;
                    };
                    let empty = Vec::new();
                    let cols = sc
                        .get("members")
                        .and_then(Value::as_array)
                        .unwrap_or(&empty);
                    if cols.len() != *columns as usize {
                        self.fail(
                            path,
                            format!(
                                "matrix as struct: {} columns, the layout IR {columns}",
                                cols.len()
                            ),
                        );
                    }
                    for (c, col) in cols.iter().enumerate() {
                        self.check_value(
                            &format!("{path}[column {c}]"),
                            col,
                            "offset",
                            c as u64 * column_stride,
                        );
                    }
                } else {
                    self.check_value(path, scm, "matrix_stride", *column_stride);
                }
            }
            LayoutKind::Struct(h) => {
                let id = scm.get("type").and_then(Value::as_str).map(str::to_string);
                let (Some(sc), Some(s)) = (
                    self.sc_type(path, id.as_deref()),
                    self.struct_layout(path, *h).cloned(),
                ) else {
                    return;
                };
                self.compare_struct(path, &sc, &s);
            }
            _ => {
                if scm.get("matrix_stride").is_some() {
                    self.fail(
                        path,
                        "spirv-cross reports a matrix, the layout IR does not".to_string(),
                    );
                }
            }
        }
    }

    /// The size spirv-cross computes for a member of this layout
    /// (`get_declared_struct_member_size`): arrays are stride × count
    /// (runtime-sized: 0), matrices stride × columns, structs end at their
    /// last member.
    fn declared_size(&self, layout: &Layout) -> Option<u64> {
        Some(match &layout.kind {
            LayoutKind::Scalar(s) | LayoutKind::Atomic(s) => s.width as u64,
            LayoutKind::Vector { size, scalar } => *size as u64 * scalar.width as u64,
            LayoutKind::Matrix {
                columns,
                column_stride,
                ..
            } => *columns as u64 * column_stride,
            LayoutKind::Array { stride, count, .. } => stride * count.unwrap_or(0),
            LayoutKind::Struct(h) => self.declared_struct_size(self.contract.structs.get(h)?)?,
        })
    }

    /// `get_declared_struct_size`: the member with the highest offset (the
    /// first one on ties), plus its declared size.
    fn declared_struct_size(&self, s: &StructLayout) -> Option<u64> {
        let mut members: Vec<_> = s.members().collect();
        members.sort_by_key(|m| m.index);
        let mut last = *members.first()?;
        for m in &members {
            if m.offset > last.offset {
                last = m;
            }
        }
        Some(last.offset + self.declared_size(&last.layout)?)
    }

    fn compare_global(&mut self, g: &GlobalLayout, block: &Value) {
        let path = g.name.clone();
        let id = block
            .get("type")
            .and_then(Value::as_str)
            .map(str::to_string);
        let Some(sc) = self.sc_type(&path, id.as_deref()) else {
            return;
        };
        let expected_block_size = if naga_wraps(self.contract, &g.layout) {
            // naga wraps the global's type in a one-member block struct.
            let empty = Vec::new();
            let members = sc
                .get("members")
                .and_then(Value::as_array)
                .unwrap_or(&empty);
            if members.len() != 1 {
                self.fail(
                    &path,
                    format!(
                        "expected naga's one-member wrapper block, spirv-cross lists {} members",
                        members.len()
                    ),
                );
                return;
            }
            self.members += 1;
            self.check_value(&path, &members[0], "offset", 0);
            self.compare_member(&path, &members[0], &g.layout);
            self.declared_size(&g.layout)
        } else {
            let LayoutKind::Struct(h) = g.layout.kind else {
                return;
            };
            let Some(s) = self.struct_layout(&path, h).cloned() else {
                return;
            };
            self.compare_struct(&path, &sc, &s);
            self.declared_struct_size(&s)
        };
        if let (Some(expected), Some(_)) = (expected_block_size, block.get("block_size")) {
            self.check_value(&path, block, "block_size", expected);
        }
    }
}

/// naga's SPIR-V writer wraps a buffer global in a block struct unless it
/// is a struct ending in a runtime-sized array.
fn naga_wraps(contract: &LayoutModule, layout: &Layout) -> bool {
    match &layout.kind {
        LayoutKind::Struct(h) => match contract.structs.get(h).and_then(|s| s.members().last()) {
            Some(last) => !matches!(last.layout.kind, LayoutKind::Array { count: None, .. }),
            None => false,
        },
        _ => true,
    }
}

/// A spirv-cross member whose type is a plain vector (`vec2`, `dvec2`, ...).
fn is_vector(scm: &Value) -> bool {
    scm.get("array").is_none()
        && scm
            .get("type")
            .and_then(Value::as_str)
            .is_some_and(|t| t.contains("vec"))
}

fn find_block<'v>(reflect: &'v Value, g: &GlobalLayout) -> Option<&'v Value> {
    let key = match g.space {
        naga::AddressSpace::Uniform => "ubos",
        naga::AddressSpace::Storage { .. } => "ssbos",
        naga::AddressSpace::Immediate => "push_constants",
        _ => return None,
    };
    let list = reflect.get(key)?.as_array()?;
    match &g.binding {
        Some(rb) => list.iter().find(|b| {
            as_u64(b, "set") == Some(rb.group as u64)
                && as_u64(b, "binding") == Some(rb.binding as u64)
        }),
        None if list.len() == 1 => list.first(),
        None => None,
    }
}

#[test]
fn spirv_cross_offsets_match_layout_ir() {
    const TEST: &str = "spirv_cross_offsets_match_layout_ir";
    if !require_tool("spirv-cross", &["--help"], TEST) {
        return;
    }
    let mut failures = Vec::new();
    let (cases, rejected) = spirv_cases(&mut failures);
    if cases.is_empty() && rejected > 0 {
        failures.push(format!(
            "none of the {rejected} corpus inputs translates to SPIR-V: nothing was compared"
        ));
    }
    let dir = temp_dir("spirv-cross");
    let mut files = 0;
    let mut blocks = 0;
    let mut members = 0;
    for case in &cases {
        let name = display_name(&case.input);
        let contract = match stride::analyze(&case.source) {
            Ok(a) => a.contract,
            Err(_) => {
                failures.push(format!(
                    "{name}: translates to SPIR-V but stride::analyze fails"
                ));
                continue;
            }
        };
        let path = match write_spv(&dir, case) {
            Ok(p) => p,
            Err(e) => {
                failures.push(e);
                continue;
            }
        };
        let out = match Command::new("spirv-cross")
            .arg(&path)
            .arg("--reflect")
            .output()
        {
            Ok(o) => o,
            Err(e) => {
                failures.push(format!("{name}: cannot run spirv-cross: {e}"));
                continue;
            }
        };
        if !out.status.success() {
            failures.push(format!(
                "{name}: spirv-cross --reflect failed:\n{}",
                String::from_utf8_lossy(&out.stderr)
            ));
            continue;
        }
        let reflect: Value = match serde_json::from_slice(&out.stdout) {
            Ok(v) => v,
            Err(e) => {
                failures.push(format!("{name}: spirv-cross JSON does not parse: {e}"));
                continue;
            }
        };
        let result = compare_module(&name, &contract, &reflect);
        blocks += result.blocks;
        files += 1;
        members += result.members;
        failures.extend(result.failures);
    }
    let _ = std::fs::remove_dir_all(&dir);
    finish(
        TEST,
        format!("{files} SPIR-V files reflected, {blocks} blocks and {members} members compared"),
        failures,
    );
}

#[test]
fn layout_flags_follow_warning_text() {
    let w = |m: &str| Diagnostics::from(stride::Diagnostic::warning(m));
    assert_eq!(
        layout_flags(&w("this layout needs Vulkan's scalarBlockLayout feature")),
        ["--scalar-block-layout"]
    );
    assert_eq!(
        layout_flags(&w(
            "requires VK_KHR_relaxed_block_layout (relaxed block layout)"
        )),
        ["--relax-block-layout"]
    );
    assert_eq!(
        layout_flags(&w("needs the uniform buffer standard layout feature")),
        ["--uniform-buffer-standard-layout"]
    );
    assert!(layout_flags(&w("[[block]] is deprecated")).is_empty());
}

/// stride's contract and spirv-cross's reflection of naga's own SPIR-V for
/// a standard WGSL source.
fn naga_reflection(source: &str) -> (LayoutModule, Value) {
    let contract = match stride::analyze(source) {
        Ok(a) => a.contract,
        Err(d) => panic!(
            "stride::analyze rejects the self-check shader:\n{}",
            d.render("self-check.wgsl", source, false)
        ),
    };
    let module = match naga::front::wgsl::parse_str(source) {
        Ok(m) => m,
        Err(e) => panic!("naga rejects the self-check shader: {e}"),
    };
    let flags = naga::valid::ValidationFlags::all() - naga::valid::ValidationFlags::STRUCT_LAYOUTS;
    let info = match naga::valid::Validator::new(flags, naga::valid::Capabilities::all())
        .validate(&module)
    {
        Ok(i) => i,
        Err(e) => panic!("naga validation: {e:?}"),
    };
    let options = naga::back::spv::Options {
        lang_version: (1, 3),
        flags: naga::back::spv::WriterFlags::DEBUG,
        ..Default::default()
    };
    let words = match naga::back::spv::write_vec(&module, &info, &options, None) {
        Ok(w) => w,
        Err(e) => panic!("naga spv-out: {e}"),
    };
    let dir = temp_dir("self-check");
    let path = dir.join("self.spv");
    if let Err(e) = std::fs::write(&path, words_to_bytes(&words)) {
        panic!("cannot write {}: {e}", path.display());
    }
    let out = match Command::new("spirv-cross")
        .arg(&path)
        .arg("--reflect")
        .output()
    {
        Ok(o) => o,
        Err(e) => panic!("cannot run spirv-cross: {e}"),
    };
    let _ = std::fs::remove_dir_all(&dir);
    let reflect: Value = match serde_json::from_slice(&out.stdout) {
        Ok(v) => v,
        Err(e) => panic!(
            "spirv-cross JSON: {e}\n{}",
            String::from_utf8_lossy(&out.stderr)
        ),
    };
    (contract, reflect)
}

/// The outcome of comparing one module's reflection with its layout IR.
struct Compared {
    blocks: usize,
    members: usize,
    failures: Vec<String>,
}

/// Compare every buffer global of `contract` with spirv-cross's reflection.
fn compare_module(file: &str, contract: &LayoutModule, reflect: &Value) -> Compared {
    let empty = Map::new();
    let types = reflect
        .get("types")
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    let mut cmp = Comparer {
        file: file.to_string(),
        contract,
        types,
        failures: Vec::new(),
        members: 0,
    };
    let mut blocks = 0;
    for g in &contract.globals {
        match find_block(reflect, g) {
            Some(block) => {
                blocks += 1;
                cmp.compare_global(g, block);
            }
            None => cmp.fail(
                &g.name,
                format!(
                    "{:?} global (binding {:?}) not found in spirv-cross reflection",
                    g.space, g.binding
                ),
            ),
        }
    }
    Compared {
        blocks,
        members: cmp.members,
        failures: cmp.failures,
    }
}

/// Standard WGSL whose naga layout is right (no member `@align` that raises
/// a struct's alignment), covering nested structs, arrays of arrays,
/// matrices, runtime arrays and immediates.
const SELF_CHECK: &str = "
struct Inner { m: mat2x2<f32>, x: f32, v: vec3<f32> }
struct Root {
    a: vec4<f32>,
    s: Inner,
    grid: array<array<vec4<f32>, 3>, 2>,
    items: array<Inner, 2>,
    m3: mat3x3<f32>,
    mats: array<mat4x2<f32>, 2>,
    tail: u32,
}
struct Particles { count: u32, pos: array<vec4<f32>> }
struct Push { scale: vec2<f32>, index: u32 }
@group(0) @binding(0) var<uniform> u: Root;
@group(0) @binding(1) var<storage, read_write> particles: Particles;
@group(1) @binding(0) var<storage, read> plain: array<mat4x3<f32>, 4>;
@group(1) @binding(1) var<uniform> m2: mat2x2<f32>;
var<immediate> push: Push;
@compute @workgroup_size(1) fn main() {
    particles.pos[0] = u.a + vec4<f32>(u.grid[1][2].x + u.items[1].x + plain[0][0][0] + push.scale.x + u.mats[1][3].y + m2[1].x);
}
";

/// The oracle harness itself: naga's own SPIR-V for standard WGSL (where
/// naga's offsets are right) reflected by spirv-cross agrees with stride's
/// layout IR. Checks the comparer and the layout builder without relying on
/// stride's SPIR-V backend.
#[test]
fn harness_self_check_with_naga_spirv() {
    const TEST: &str = "harness_self_check_with_naga_spirv";
    if !require_tool("spirv-cross", &["--help"], TEST) {
        return;
    }
    let (contract, reflect) = naga_reflection(SELF_CHECK);
    let result = compare_module("self-check", &contract, &reflect);
    let blocks = result.blocks;
    let mut failures = result.failures;
    if blocks != 5 {
        failures.push(format!("expected 5 blocks, compared {blocks}"));
    }
    // u: wrapper, a s s.m s.x s.v grid items items.m items.x items.v m3
    // mats tail = 14; particles (not wrapped: runtime array): count pos = 2;
    // plain, m2: wrapper = 1 each; push: wrapper, scale index = 3.
    if result.members != 21 {
        failures.push(format!(
            "expected 21 members compared, got {}",
            result.members
        ));
    }
    finish(
        TEST,
        format!("{blocks} blocks, {} members compared", result.members),
        failures,
    );
}

/// The comparer is not vacuous: a layout IR with one offset, one array
/// stride or one matrix stride changed no longer matches.
#[test]
fn harness_detects_wrong_offsets_and_strides() {
    const TEST: &str = "harness_detects_wrong_offsets_and_strides";
    if !require_tool("spirv-cross", &["--help"], TEST) {
        return;
    }
    let (contract, reflect) = naga_reflection(SELF_CHECK);
    let mut tampered_kinds = 0;
    for kind in ["offset", "array stride", "matrix stride"] {
        let mut bad = contract.clone();
        let mut done = false;
        for s in bad.structs.values_mut() {
            for slot in &mut s.slots {
                let stride::layout::Slot::Member(m) = slot else {
                    continue;
                };
                match (kind, &mut m.layout.kind) {
                    ("offset", _) if m.offset > 0 => m.offset += 4,
                    ("array stride", LayoutKind::Array { stride, .. }) => *stride += 16,
                    (
                        "matrix stride",
                        LayoutKind::Matrix {
                            rows: 3..,
                            column_stride,
                            ..
                        },
                    ) => *column_stride += 16,
                    _ => continue,
                }
                done = true;
                break;
            }
            if done {
                break;
            }
        }
        assert!(
            done,
            "self-check shader has no member to tamper with ({kind})"
        );
        tampered_kinds += 1;
        let result = compare_module("tampered", &bad, &reflect);
        assert!(
            !result.failures.is_empty(),
            "a wrong {kind} in the layout IR went unnoticed"
        );
    }
    assert_eq!(tampered_kinds, 3);
}
