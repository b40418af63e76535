//! Oracle test of the GLSL backend (issue 3, "Checks"): stride's GLSL
//! checked by tools nobody on this project wrote.
//!
//! For every corpus input (every theme folder except `errors/`) and every
//! dialect of [`DIALECTS`]:
//!
//! - stride translates it to GLSL, one file per entry point; a translation
//!   that fails with error diagnostics must be listed in [`NOT_FITTING`]
//!   (the shader does not fit that dialect), and a listed pair that
//!   translates is a failure too (the list is stale);
//! - glslang accepts every file: `glslangValidator -V --target-env
//!   vulkan1.1` for vulkan450, `-G` (OpenGL SPIR-V) for gl450, and for es310
//!   the plain front end (`glslangValidator <file>`, the GLSL ES rules of
//!   the `#version 310 es` line) followed by `-G` to get SPIR-V;
//! - `spirv-cross --reflect` on glslang's SPIR-V reports, for every
//!   uniform, storage and push-constant block, the offsets (nested struct
//!   members included), array strides and matrix strides of stride's
//!   layout IR (`stride::analyze`). Padding members (`_s_pad*`) are ignored;
//!   a matrix split into column members `<m>_c0`, `<m>_c1`, ... (or an array
//!   element wrapped in a struct of columns `c0`, `c1`, ...) is compared
//!   column by column, its column stride being the offset difference.
//!
//! Missing tools skip the test loudly; `STRIDE_REQUIRE_ORACLES=1` turns a
//! missing tool into a failure.

mod common;

use std::collections::BTreeMap;
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::process::Command;

use common::*;
use serde_json::{Map, Value};
use stride::back::glsl::{Dialect, GlslBinding, GlslOptions};
use stride::layout::{GlobalLayout, Layout, LayoutKind, LayoutModule, StructLayout};
use stride::{Options, Output, Target};

/// The dialects checked, each with how glslang compiles it.
const DIALECTS: [Dialect; 3] = [Dialect::Vulkan450, Dialect::Gl450, Dialect::Es310];

/// `(input, dialect, why)`: corpus inputs that do not fit a dialect. stride
/// must reject them for that dialect with error diagnostics (not an
/// internal error); every other pair must translate. Inputs are named as in
/// diagnostics (`corpus/<theme>/<file>.wgsl`).
///
/// When this list is wrong the test prints the pairs that actually failed,
/// in this syntax, ready to paste after review.
/// (input, global) buffers that no GLSL block can hold, in every dialect,
/// so stride declares them as their 32-bit words: the only buffers without
/// f16 that may be words, and they must be.
const IN_WORDS: &[(&str, &str)] = &[
    // An array of structs whose element has a struct member with @size not
    // a multiple of its alignment, followed by a member inside GLSL's
    // rounded-up struct size (a struct in an array cannot be inlined).
    ("corpus/dialect/glsl_words_atomics.wgsl", "p"),
    // A uniform with `uniform_buffer_standard_layout`: 8-byte array strides
    // and a struct at offset 28, which std140 cannot declare.
    ("corpus/dialect/uniform_standard_layout.wgsl", "params"),
    // A push constant whose array element has a member inside the std430
    // size of the struct before it.
    ("tests/regressions/push_constant_words.wgsl", "pc"),
];

/// (input, member path) struct members that GLSL inlines into their block
/// in every dialect (their size under std140/std430 reaches past the
/// member after them, or past the block's contract size): the block
/// declares their members instead, at the struct's offset plus theirs.
const INLINED: &[(&str, &str)] = &[
    ("corpus/dialect/glsl_inline_struct.wgsl", "data.o"),
    ("corpus/dialect/glsl_inline_struct.wgsl", "data.o.inner"),
    ("corpus/dialect/glsl_inline_struct.wgsl", "params.p"),
    ("corpus/dialect/member_size_below_naga.wgsl", "h.m0"),
    // Two split columns and an f32 make 20 bytes, which std140 rounds up
    // to 32: past the 40 bytes of the contract.
    ("corpus/shaders/matcx2_tight.wgsl", "u.s"),
];

const NOT_FITTING: &[(&str, &str, &str)] = &[
    // No entry point: GLSL is written per entry point (HLSL writes it as a
    // library).
    ("corpus/shaders/library.wgsl", "vulkan450", "no entry point"),
    ("corpus/shaders/library.wgsl", "gl450", "no entry point"),
    ("corpus/shaders/library.wgsl", "es310", "no entry point"),
    // 64-bit floats and integers do not exist in GLSL ES.
    ("corpus/shaders/wide_ints.wgsl", "es310", "f64, i64, u64"),
    (
        "corpus/shaders/saturating_casts.wgsl",
        "es310",
        "f64, i64, u64",
    ),
    // GLSL ES has no rg32f storage images, and reads and writes together
    // only r32 ones (1D textures are 2D textures of height 1 there).
    (
        "corpus/shaders/storage_images.wgsl",
        "es310",
        "rg32float, read_write rgba8unorm",
    ),
    // GLSL ES cannot query the number of mip levels.
    (
        "corpus/shaders/texture_queries.wgsl",
        "es310",
        "textureNumLevels",
    ),
];

/// Where a file's SPIR-V comes from: the glslang command lines for a
/// dialect. The first checks the file; the last writes `-o <spv>`.
fn glslang_steps(dialect: Dialect) -> Vec<Vec<&'static str>> {
    if dialect.is_vulkan() {
        vec![vec!["-V", "--target-env", "vulkan1.1"]]
    } else if dialect.is_es() {
        // The plain front end applies the GLSL ES rules; `-G` then gives
        // SPIR-V for reflection.
        vec![vec![], vec!["-G"]]
    } else {
        vec![vec!["-G"]]
    }
}

/// Per-dialect counts for the summary.
#[derive(Default)]
struct Counts {
    inputs: usize,
    translated: usize,
    not_fitting: usize,
    files: usize,
    compiled: usize,
    reflected: usize,
    blocks: usize,
    members: usize,
    /// Struct members inlined into their block.
    inlined: usize,
    /// Buffer globals never declared by any entry point's file.
    unused_buffers: usize,
}

/// One output file of one translation.
struct GlslFile {
    /// `<entry>.<stage>`.
    suffix: String,
    text: String,
    /// The blocks this file declares, from the writer's binding list.
    bindings: Option<Vec<GlslBinding>>,
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "(non-string panic payload)".to_string())
}

/// The outcome of translating one input to one dialect.
enum Translated {
    Files(Vec<GlslFile>),
    /// Error diagnostics (rendered).
    Rejected(String),
    /// A panic or an internal error: always a failure.
    Broken(String),
}

fn translate(name: &str, source: &str, dialect: Dialect) -> Translated {
    let glsl = GlslOptions {
        dialect,
        ..Default::default()
    };
    let options = Options {
        target: Target::Glsl,
        glsl: glsl.clone(),
        ..Default::default()
    };
    let result = match panic::catch_unwind(AssertUnwindSafe(|| stride::translate(source, &options)))
    {
        Ok(r) => r,
        Err(p) => {
            return Translated::Broken(format!(
                "stride::translate panicked: {}",
                panic_message(&*p)
            ))
        }
    };
    let files = match result {
        Ok(t) => match t.output {
            Output::Files(files) => files,
            _ => return Translated::Broken("the GLSL target did not return files".into()),
        },
        Err(d) => {
            let text = d.render(name, source, false);
            if d.iter().any(|d| d.is_internal()) {
                return Translated::Broken(text);
            }
            return Translated::Rejected(text);
        }
    };
    // The binding list (which blocks each file declares, and where) comes
    // from the backend's own output.
    let bindings = panic::catch_unwind(AssertUnwindSafe(|| {
        let stride::Analysis {
            parsed,
            info,
            contract,
            ..
        } = stride::analyze(source).ok()?;
        stride::back::write_text(&parsed, &info, &contract, &Default::default(), &glsl).ok()
    }))
    .ok()
    .flatten();
    let mut out = Vec::new();
    for (i, f) in files.into_iter().enumerate() {
        let entry = f.suffix.split('.').next().unwrap_or_default().to_string();
        let b = bindings.as_ref().and_then(|o| {
            o.bindings
                .iter()
                .find(|(key, _)| *key == f.suffix || *key == entry)
                .or_else(|| o.bindings.get(i))
                .map(|(_, list)| list.clone())
        });
        out.push(GlslFile {
            suffix: f.suffix,
            text: f.text,
            bindings: b,
        });
    }
    Translated::Files(out)
}

/// Run glslang's steps for `dialect` on `file`; on success the SPIR-V path.
fn compile(dialect: Dialect, file: &Path) -> Result<PathBuf, String> {
    let spv = file.with_extension(format!(
        "{}.spv",
        file.extension().and_then(|e| e.to_str()).unwrap_or("glsl")
    ));
    let steps = glslang_steps(dialect);
    let last = steps.len() - 1;
    for (i, args) in steps.iter().enumerate() {
        let mut cmd = Command::new("glslangValidator");
        cmd.args(args);
        if i == last {
            cmd.arg("-o").arg(&spv);
        }
        cmd.arg(file);
        let out = cmd
            .output()
            .map_err(|e| format!("cannot run glslangValidator: {e}"))?;
        if !out.status.success() {
            return Err(format!(
                "glslangValidator {} rejected it:\n{}{}",
                args.join(" "),
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            ));
        }
    }
    Ok(spv)
}

fn reflect(spv: &Path) -> Result<Value, String> {
    let out = Command::new("spirv-cross")
        .arg(spv)
        .arg("--reflect")
        .output()
        .map_err(|e| format!("cannot run spirv-cross: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "spirv-cross --reflect failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    serde_json::from_slice(&out.stdout).map_err(|e| format!("spirv-cross JSON does not parse: {e}"))
}

fn as_u64(v: &Value, key: &str) -> Option<u64> {
    v.get(key).and_then(Value::as_u64)
}

fn member_name(v: &Value) -> &str {
    v.get("name").and_then(Value::as_str).unwrap_or("")
}

fn is_padding(v: &Value) -> bool {
    member_name(v).starts_with("_s_pad")
}

/// A spirv-cross member whose type is a plain vector (`vec2`, `f16vec2`,
/// `dvec3`, `uvec4`, ...).
fn is_vector(scm: &Value) -> bool {
    scm.get("array").is_none()
        && scm
            .get("type")
            .and_then(Value::as_str)
            .is_some_and(|t| t.contains("vec"))
}

/// spirv-cross reflection of GLSL blocks against the layout IR.
struct Comparer<'a> {
    file: String,
    contract: &'a LayoutModule,
    types: &'a Map<String, Value>,
    failures: Vec<String>,
    members: usize,
    /// Struct members inlined into their block.
    inlined: usize,
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
                format!("{key}: glslang/spirv-cross say {v}, stride's layout IR says {expected}"),
            ),
            None => self.fail(
                path,
                format!(
                    "{key}: missing in spirv-cross reflection (stride's layout IR says {expected})"
                ),
            ),
        }
    }

    fn sc_type(&mut self, path: &str, id: Option<&str>) -> Option<Value> {
        let found = id.and_then(|id| self.types.get(id)).cloned();
        if found.is_none() {
            self.fail(path, format!("spirv-cross type {id:?} not found"));
        }
        found
    }

    fn struct_layout(&mut self, path: &str, h: naga::Handle<naga::Type>) -> Option<StructLayout> {
        let found = self.contract.structs.get(&h).cloned();
        if found.is_none() {
            self.fail(path, format!("struct {h:?} missing from the layout IR"));
        }
        found
    }

    /// The members of a spirv-cross struct, padding members left out.
    fn real_members(sc: &Value) -> Vec<Value> {
        sc.get("members")
            .and_then(Value::as_array)
            .map(|a| a.iter().filter(|m| !is_padding(m)).cloned().collect())
            .unwrap_or_default()
    }

    /// A GLSL struct (block or buffer variant) against an IR struct: the
    /// real members in order, split matrices as runs of `<m>_c<j>`. In a
    /// block (`block`), a struct member may be inlined: its own members
    /// are block members, at the struct's offset plus theirs.
    fn compare_struct(&mut self, path: &str, sc: &Value, s: &StructLayout, block: bool) {
        let sc_members = Self::real_members(sc);
        let mut cursor = 0;
        self.compare_members(path, &sc_members, &mut cursor, s, block.then_some(0));
        if cursor != sc_members.len() {
            let extra: Vec<&str> = sc_members.iter().skip(cursor).map(member_name).collect();
            self.fail(
                path,
                format!(
                    "struct {}: spirv-cross lists {} non-padding members, the layout IR accounts for {cursor} (extra: {extra:?})",
                    s.name,
                    sc_members.len()
                ),
            );
        }
    }

    /// The members of IR struct `s` against spirv-cross members from
    /// `cursor` on. `inline_at`: the members are a block's, at this offset
    /// (`None`: a struct's, at their own offsets, never inlined).
    fn compare_members(
        &mut self,
        path: &str,
        sc_members: &[Value],
        cursor: &mut usize,
        s: &StructLayout,
        inline_at: Option<u64>,
    ) {
        let base = inline_at.unwrap_or(0);
        let mut ir_members: Vec<_> = s.members().cloned().collect();
        ir_members.sort_by_key(|m| m.index);
        for m in &ir_members {
            let mpath = format!("{path}.{}", m.name);
            let Some(scm) = sc_members.get(*cursor) else {
                self.fail(&mpath, "member missing in spirv-cross reflection".into());
                *cursor += 1;
                continue;
            };
            let scm_name = member_name(scm).to_string();
            if let (LayoutKind::Struct(h), Some(at)) = (&m.layout.kind, inline_at) {
                let ty = scm.get("type").and_then(Value::as_str).unwrap_or("");
                let listed = self.in_inlined_list(&mpath);
                let inlined = !self.types.contains_key(ty);
                if listed != inlined {
                    let msg = if listed {
                        "listed in INLINED but declared as a struct member: remove it from the list"
                    } else {
                        "inlined into the block but not listed in INLINED"
                    };
                    self.fail(&mpath, msg.into());
                }
                if inlined {
                    // Its members are block members.
                    self.inlined += 1;
                    if let Some(inner) = self.struct_layout(&mpath, *h) {
                        let sub = Some(at + m.offset);
                        self.compare_members(&mpath, sc_members, cursor, &inner, sub);
                    }
                    continue;
                }
            }
            self.members += 1;
            if let LayoutKind::Matrix {
                columns,
                column_stride,
                ..
            } = m.layout.kind
            {
                if let (true, Some(prefix)) = (is_vector(scm), scm_name.strip_suffix("_c0")) {
                    let prefix = prefix.to_string();
                    for c in 0..columns as usize {
                        let cpath = format!("{mpath}[column {c}]");
                        match sc_members.get(*cursor) {
                            Some(col)
                                if is_vector(col)
                                    && member_name(col) == format!("{prefix}_c{c}") =>
                            {
                                self.check_value(
                                    &cpath,
                                    col,
                                    "offset",
                                    base + m.offset + c as u64 * column_stride,
                                );
                            }
                            other => self.fail(
                                &cpath,
                                format!(
                                    "expected column member `{prefix}_c{c}`, spirv-cross has {:?}",
                                    other.map(member_name)
                                ),
                            ),
                        }
                        *cursor += 1;
                    }
                    continue;
                }
            }
            if !names_agree(&scm_name, &m.name) {
                self.fail(
                    &mpath,
                    format!(
                        "member order: spirv-cross has `{scm_name}` where the layout IR has `{}`",
                        m.name
                    ),
                );
            }
            *cursor += 1;
            self.check_value(&mpath, scm, "offset", base + m.offset);
            self.compare_member(&mpath, scm, &m.layout);
        }
    }

    /// A member (its arrays, strides and element) against an IR layout.
    fn compare_member(&mut self, path: &str, scm: &Value, layout: &Layout) {
        // The array dimensions spirv-cross reports for this member, outer
        // first. Where the contract stride is one GLSL cannot give a plain
        // array, stride wraps the element in a struct whose only real
        // member is `v`: the dimensions then stop at the wrapper and go on
        // inside `v`.
        let sc_dims: Vec<u64> = scm
            .get("array")
            .and_then(Value::as_array)
            .map(|a| a.iter().rev().filter_map(Value::as_u64).collect())
            .unwrap_or_default();
        let mut dims = Vec::new();
        let mut strides = Vec::new();
        let mut base = layout;
        while dims.len() < sc_dims.len().max(1) {
            let LayoutKind::Array {
                element,
                stride,
                count,
            } = &base.kind
            else {
                break;
            };
            if dims.is_empty() {
                self.check_value(path, scm, "array_stride", *stride);
            }
            dims.push(count.unwrap_or(0));
            strides.push(*stride);
            base = element;
        }
        // spirv-cross reports only the outermost stride; GLSL derives each
        // inner stride as outer stride / inner count, so the IR must agree.
        for k in 1..strides.len() {
            if strides[k - 1] != strides[k] * dims[k] {
                self.fail(
                    path,
                    format!(
                        "array dimension {k}: the layout IR's stride {} is not {} x {} (GLSL cannot express it as a plain array)",
                        strides[k - 1], strides[k], dims[k]
                    ),
                );
            }
        }
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
                "spirv-cross reports an array, the layout IR does not".into(),
            );
        }
        let id = scm
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string();
        let sc_struct = self.types.get(&id).cloned();
        if let Some(sc) = &sc_struct {
            let real = Self::real_members(sc);
            let wrapper = real.len() == 1
                && member_name(&real[0]) == "v"
                && !matches!(base.kind, LayoutKind::Struct(_));
            if wrapper && !dims.is_empty() {
                // A stride wrapper: `v` at offset 0 holds the element.
                let inner = format!("{path}.v");
                self.check_value(&inner, &real[0], "offset", 0);
                let v = real[0].clone();
                self.compare_member(&inner, &v, base);
                return;
            }
        }
        match &base.kind {
            LayoutKind::Matrix {
                columns,
                column_stride,
                ..
            } => {
                if let Some(sc) = sc_struct {
                    // A matrix stored as a struct of column vectors.
                    let cols = Self::real_members(&sc);
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
                        let cpath = format!("{path}[column {c}]");
                        if member_name(col) != format!("c{c}") || !is_vector(col) {
                            self.fail(
                                &cpath,
                                format!(
                                    "expected vector member `c{c}`, spirv-cross has `{}`",
                                    member_name(col)
                                ),
                            );
                        }
                        self.check_value(&cpath, col, "offset", c as u64 * column_stride);
                    }
                } else {
                    self.check_value(path, scm, "matrix_stride", *column_stride);
                }
            }
            LayoutKind::Struct(h) => {
                let (Some(sc), Some(s)) =
                    (self.sc_type(path, Some(&id)), self.struct_layout(path, *h))
                else {
                    return;
                };
                self.compare_struct(path, &sc, &s, false);
            }
            _ => {
                if sc_struct.is_some() {
                    self.fail(
                        path,
                        format!(
                            "spirv-cross reports a struct ({id}), the layout IR a {:?}",
                            base.kind
                        ),
                    );
                }
                if scm.get("matrix_stride").is_some() {
                    self.fail(
                        path,
                        "spirv-cross reports a matrix, the layout IR does not".into(),
                    );
                }
            }
        }
    }

    /// One block against one buffer global: a struct global's members are
    /// the block's members; any other global is the single member `value`.
    /// A buffer declared as its 32-bit words (one that holds f16, outside
    /// Vulkan GLSL, or one no block can hold, listed in [`IN_WORDS`]): storage `uint _s_words[]` (stride 4), uniform
    /// `uvec4 _s_words[N]` (stride 16) covering the contract size. Code
    /// reads and writes the words at the contract's offsets, so there are
    /// no members to compare.
    fn in_words_list(&self, g: &GlobalLayout) -> bool {
        IN_WORDS
            .iter()
            .any(|(input, name)| self.file.starts_with(&format!("{input} [")) && g.name == *name)
    }

    /// Whether member `path` (`global.member...`) is listed in [`INLINED`].
    fn in_inlined_list(&self, path: &str) -> bool {
        INLINED
            .iter()
            .any(|(input, p)| self.file.starts_with(&format!("{input} [")) && path == *p)
    }

    fn compare_words(&mut self, path: &str, g: &GlobalLayout, words: &Value) {
        if !holds_f16(self.contract, &g.layout) && !self.in_words_list(g) {
            self.fail(
                path,
                "declared as words but holds no f16 and is not listed in IN_WORDS".into(),
            );
        }
        self.members += 1;
        self.check_value(path, words, "offset", 0);
        let count = words
            .get("array")
            .and_then(Value::as_array)
            .and_then(|a| a.first())
            .and_then(Value::as_u64);
        let ty = words.get("type").and_then(Value::as_str);
        match g.space {
            naga::AddressSpace::Storage { .. } => {
                self.check_value(path, words, "array_stride", 4);
                if ty != Some("uint") || count != Some(0) {
                    self.fail(
                        path,
                        format!("expected uint _s_words[], spirv-cross says {ty:?} [{count:?}]"),
                    );
                }
            }
            _ => {
                self.check_value(path, words, "array_stride", 16);
                let size = g.layout.size.unwrap_or(0);
                if ty != Some("uvec4") || count.is_none_or(|n| n * 16 < size) {
                    self.fail(
                        path,
                        format!("expected uvec4 _s_words[] of {size} bytes or more, spirv-cross says {ty:?} [{count:?}]"),
                    );
                }
            }
        }
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
        if let [only] = Self::real_members(&sc).as_slice() {
            if member_name(only) == "_s_words" {
                return self.compare_words(&path, g, only);
            }
        }
        if self.in_words_list(g) {
            self.fail(
                &path,
                "listed in IN_WORDS but declared as a block: remove it from the list".into(),
            );
        }
        match g.layout.kind {
            LayoutKind::Struct(h) => {
                let Some(s) = self.struct_layout(&path, h) else {
                    return;
                };
                self.compare_struct(&path, &sc, &s, true);
            }
            _ => {
                let members = Self::real_members(&sc);
                match members.as_slice() {
                    [only] if member_name(only) == "value" => {
                        self.members += 1;
                        self.check_value(&path, only, "offset", 0);
                        self.compare_member(&path, only, &g.layout);
                    }
                    // A matrix split into its columns `value_c0`, ...: the
                    // block is a struct of one member `value`.
                    [first, ..] if member_name(first) == "value_c0" => {
                        let value = stride::layout::MemberSlot {
                            index: 0,
                            name: "value".into(),
                            offset: 0,
                            size: g.layout.size,
                            align: g.layout.align,
                            layout: g.layout.clone(),
                        };
                        let block = StructLayout {
                            name: g.name.clone(),
                            // Not read: a handle of a throwaway arena.
                            ty: naga::UniqueArena::new().insert(
                                naga::Type {
                                    name: None,
                                    inner: naga::TypeInner::Scalar(naga::Scalar::U32),
                                },
                                naga::Span::default(),
                            ),
                            size: g.layout.size,
                            align: g.layout.align,
                            slots: vec![stride::layout::Slot::Member(value)],
                        };
                        self.compare_struct(&path, &sc, &block, true);
                    }
                    _ => self.fail(
                        &path,
                        format!(
                            "expected one block member `value`, spirv-cross lists {:?}",
                            members.iter().map(member_name).collect::<Vec<_>>()
                        ),
                    ),
                }
            }
        }
        // The block must not reach past the contract's bytes.
        if let (Some(size), Some(block_size)) = (g.layout.size, as_u64(block, "block_size")) {
            if block_size > size {
                self.fail(
                    &path,
                    format!("block_size {block_size} is larger than the contract size {size}"),
                );
            }
        }
    }
}

/// A GLSL member name and a WGSL member name agree: equal, or one renamed
/// by the namer from the other (keyword or clash suffix/prefix).
fn names_agree(glsl: &str, wgsl: &str) -> bool {
    glsl == wgsl || glsl.contains(wgsl) || wgsl.contains(glsl.trim_matches('_'))
}

/// Whether layout `l` holds an f16 anywhere.
fn holds_f16(contract: &LayoutModule, l: &Layout) -> bool {
    match &l.kind {
        LayoutKind::Scalar(s) | LayoutKind::Atomic(s) => s.width == 2,
        LayoutKind::Vector { scalar, .. } | LayoutKind::Matrix { scalar, .. } => scalar.width == 2,
        LayoutKind::Array { element, .. } => holds_f16(contract, element),
        LayoutKind::Struct(h) => contract
            .structs
            .get(h)
            .is_some_and(|s| s.members().any(|m| holds_f16(contract, &m.layout))),
    }
}

/// The reflection entry of `g`'s block in one file, if the file declares it.
fn find_block<'v>(
    reflect: &'v Value,
    g: &GlobalLayout,
    dialect: Dialect,
    bindings: Option<&[GlslBinding]>,
) -> Result<Option<&'v Value>, String> {
    let list = |key: &str| {
        reflect
            .get(key)
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default()
    };
    let pick =
        |key: &str, set: u64, binding: u64| -> Option<&'v Value> {
            reflect.get(key)?.as_array()?.iter().find(|b| {
                as_u64(b, "set").unwrap_or(0) == set && as_u64(b, "binding") == Some(binding)
            })
        };
    if let Some(bindings) = bindings {
        let Some(b) = bindings.iter().find(|b| b.global == g.name) else {
            if dialect.is_vulkan() && g.space == naga::AddressSpace::Immediate {
                return Ok(reflect
                    .get("push_constants")
                    .and_then(|p| p.as_array()?.first()));
            }
            return Ok(None);
        };
        let key = match b.kind {
            "uniform-block" => "ubos",
            "storage-block" => "ssbos",
            other => return Err(format!("buffer global listed as a `{other}` binding")),
        };
        return match pick(key, b.set.unwrap_or(0) as u64, b.binding as u64) {
            Some(v) => Ok(Some(v)),
            None => Err(format!(
                "the writer lists `{}` as {key} set {:?} binding {}, spirv-cross has no such block (it has {} {key})",
                b.glsl_name,
                b.set,
                b.binding,
                list(key).len()
            )),
        };
    }
    // No binding list: Vulkan keeps WGSL's group and binding.
    if !dialect.is_vulkan() {
        return Err("the writer reported no bindings for this file".into());
    }
    let key = match g.space {
        naga::AddressSpace::Uniform => "ubos",
        naga::AddressSpace::Storage { .. } => "ssbos",
        naga::AddressSpace::Immediate => {
            return Ok(reflect
                .get("push_constants")
                .and_then(|p| p.as_array()?.first()))
        }
        _ => return Ok(None),
    };
    Ok(g.binding
        .as_ref()
        .and_then(|rb| pick(key, rb.group as u64, rb.binding as u64)))
}

/// Compare every buffer global declared in one file with the reflection.
/// Returns (blocks compared, members compared, failures, globals seen).
fn compare_file(
    file: &str,
    contract: &LayoutModule,
    reflect: &Value,
    dialect: Dialect,
    bindings: Option<&[GlslBinding]>,
) -> (usize, usize, usize, Vec<String>, Vec<String>) {
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
        inlined: 0,
    };
    let mut blocks = 0;
    let mut seen = Vec::new();
    for g in &contract.globals {
        match find_block(reflect, g, dialect, bindings) {
            Ok(Some(block)) => {
                blocks += 1;
                seen.push(g.name.to_string());
                cmp.compare_global(g, block);
            }
            Ok(None) => {}
            Err(e) => cmp.fail(&g.name, e),
        }
    }
    (blocks, cmp.members, cmp.inlined, cmp.failures, seen)
}

/// Every corpus input the test covers: all but `errors/`, and the fuzzing
/// regression inputs of tests/regressions/ (f16 and column-split globals,
/// which every dialect writes).
fn inputs() -> Vec<PathBuf> {
    let mut inputs: Vec<PathBuf> = corpus_inputs()
        .into_iter()
        .filter(|p| !display_name(p).starts_with("corpus/errors/"))
        .collect();
    let mut regressions = Vec::new();
    walk(&repo_root().join("tests/regressions"), &mut |p| {
        if p.extension().is_some_and(|e| e == "wgsl") {
            regressions.push(p.to_path_buf());
        }
    });
    regressions.sort();
    inputs.extend(regressions);
    inputs
}

/// Whether glslang and spirv-cross, the two tools the GLSL checks run, are
/// installed ([`require_tool`] says which is missing, and fails the test
/// when the oracles are required).
fn oracles_ready(test: &str) -> bool {
    require_tool("glslangValidator", &["--version"], test)
        && require_tool("spirv-cross", &["--help"], test)
}

/// The first line of rendered diagnostics.
fn first_line(text: &str) -> &str {
    text.lines().next().unwrap_or("")
}

#[test]
fn glsl_compiles_and_blocks_match_layout_ir() {
    const TEST: &str = "glsl_compiles_and_blocks_match_layout_ir";
    if !oracles_ready(TEST) {
        return;
    }
    let dir = temp_dir("glsl-oracle");
    let mut failures = Vec::new();
    let mut counts: BTreeMap<&'static str, Counts> = BTreeMap::new();
    // (input, dialect) pairs that did not translate, with the first error.
    let mut rejected: Vec<(String, &'static str, String)> = Vec::new();
    let inputs = inputs();
    for input in &inputs {
        let name = display_name(input);
        let Ok(source) = std::fs::read_to_string(input) else {
            failures.push(format!("{name}: cannot read"));
            continue;
        };
        let contract = stride::analyze(&source).ok().map(|a| a.contract);
        for dialect in DIALECTS {
            let c = counts.entry(dialect.name()).or_default();
            c.inputs += 1;
            let listed = NOT_FITTING
                .iter()
                .find(|(i, d, _)| *i == name && *d == dialect.name());
            let files = match translate(&name, &source, dialect) {
                Translated::Broken(msg) => {
                    failures.push(format!("{name} [{dialect}]: {msg}"));
                    continue;
                }
                Translated::Rejected(diags) => {
                    rejected.push((name.clone(), dialect.name(), first_line(&diags).to_string()));
                    if listed.is_some() {
                        c.not_fitting += 1;
                    } else {
                        failures.push(format!(
                            "{name} [{dialect}]: stride rejects it, and it is not listed in NOT_FITTING:\n{diags}"
                        ));
                    }
                    continue;
                }
                Translated::Files(files) => files,
            };
            c.translated += 1;
            if let Some((_, _, why)) = listed {
                failures.push(format!(
                    "{name} [{dialect}]: listed in NOT_FITTING ({why}) but stride translates it: remove it from the list, or make stride reject it"
                ));
            }
            if files.is_empty() {
                failures.push(format!("{name} [{dialect}]: translated to no files"));
            }
            let Some(contract) = &contract else {
                failures.push(format!(
                    "{name} [{dialect}]: translates but stride::analyze fails"
                ));
                continue;
            };
            let mut seen_globals: Vec<String> = Vec::new();
            for f in &files {
                c.files += 1;
                let label = format!("{name} [{dialect}] {}", f.suffix);
                let flat = name.trim_end_matches(".wgsl").replace('/', "__");
                let path = dir.join(format!("{flat}.{}.{}", dialect.name(), f.suffix));
                if let Err(e) = std::fs::write(&path, &f.text) {
                    failures.push(format!("{label}: cannot write {}: {e}", path.display()));
                    continue;
                }
                let spv = match compile(dialect, &path) {
                    Ok(spv) => spv,
                    Err(e) => {
                        failures.push(format!("{label}: {e}\n    file: {}", path.display()));
                        continue;
                    }
                };
                c.compiled += 1;
                let reflection = match reflect(&spv) {
                    Ok(v) => v,
                    Err(e) => {
                        failures.push(format!("{label}: {e}"));
                        continue;
                    }
                };
                c.reflected += 1;
                let (blocks, members, inlined, fails, seen) = compare_file(
                    &label,
                    contract,
                    &reflection,
                    dialect,
                    f.bindings.as_deref(),
                );
                c.blocks += blocks;
                c.members += members;
                c.inlined += inlined;
                if !fails.is_empty() {
                    failures.push(format!(
                        "{}\n    file: {}",
                        fails.join("\n"),
                        path.display()
                    ));
                }
                seen_globals.extend(seen);
            }
            c.unused_buffers += contract
                .globals
                .iter()
                .filter(|g| !seen_globals.contains(&g.name.to_string()))
                .count();
        }
    }

    let expected_rejections: usize = NOT_FITTING.len();
    let mut summary = format!(
        "{} inputs (corpus/ without errors/, and tests/regressions/)",
        inputs.len()
    );
    for (d, c) in &counts {
        summary.push_str(&format!(
            "\n  {d}: {} translated, {} do not fit (listed), {} files, {} compiled by glslang, {} reflected, {} blocks and {} members compared ({} struct members inlined), {} buffer globals declared by no entry point",
            c.translated, c.not_fitting, c.files, c.compiled, c.reflected, c.blocks, c.members, c.inlined, c.unused_buffers
        ));
    }
    if rejected.len() != expected_rejections || failures.iter().any(|f| f.contains("NOT_FITTING")) {
        let mut list = String::from("pairs stride rejected in this run (NOT_FITTING syntax):");
        for (i, d, why) in &rejected {
            list.push_str(&format!(
                "\n    (\"{i}\", \"{d}\", \"{}\"),",
                why.replace('"', "'")
            ));
        }
        loud(&list);
    }
    if failures.is_empty() {
        let _ = std::fs::remove_dir_all(&dir);
    }
    finish(TEST, summary, failures);
}

/// Every NOT_FITTING entry names an existing input and a checked dialect.
#[test]
fn not_fitting_list_is_well_formed() {
    let names: Vec<String> = inputs().iter().map(|p| display_name(p)).collect();
    for (input, dialect, why) in NOT_FITTING {
        assert!(
            names.iter().any(|n| n == input),
            "NOT_FITTING names a missing input {input}"
        );
        assert!(
            DIALECTS.iter().any(|d| d.name() == *dialect),
            "NOT_FITTING: {input}: dialect {dialect} is not checked"
        );
        assert!(!why.is_empty());
    }
}

/// A hand-written GLSL translation (Vulkan GLSL, the writer's conventions)
/// of [`SELF_CHECK`]: flattened block members with offsets, a nested struct
/// with a padding member, a uniform mat3x2 split into columns, an array of
/// mat2x2 whose elements are wrapped in a struct of columns, and a
/// non-struct global as the single member `value`.
const SELF_CHECK: &str = "
struct Inner { x: f32, v: vec3<f32> }
struct Root {
    a: f32,
    s: Inner,
    m: mat3x2<f32>,
    @align(16) ms: array<mat2x2<f32>, 2>,
    tail: u32,
}
struct Out { n: u32, items: array<vec4<f32>> }
@group(0) @binding(0) var<uniform> u: Root;
@group(0) @binding(1) var<storage, read_write> o: Out;
@group(1) @binding(0) var<storage, read> plain: array<vec2<f32>, 3>;
@compute @workgroup_size(1) fn main() {
    o.items[0] = vec4<f32>(u.a + u.s.x + u.m[2].y + u.ms[1][1].x + plain[2].y, 0.0, 0.0, f32(u.tail + o.n));
}
";

const SELF_CHECK_GLSL: &str = "#version 450
layout(local_size_x = 1) in;
struct Inner_std140 { float x; float _s_pad0; float _s_pad1; float _s_pad2; vec3 v; };
struct _mat2x2_cols { vec2 c0; vec2 c1; };
layout(set = 0, binding = 0, std140) uniform Root_block {
    layout(offset = 0) float a;
    layout(offset = 16) Inner_std140 s;
    layout(offset = 48) vec2 m_c0;
    layout(offset = 56) vec2 m_c1;
    layout(offset = 64) vec2 m_c2;
    layout(offset = 80) _mat2x2_cols ms[2];
    layout(offset = 112) uint tail;
} u;
layout(set = 0, binding = 1, std430) buffer Out_block {
    layout(offset = 0) uint n;
    layout(offset = 16) vec4 items[];
} o;
layout(set = 1, binding = 0, std430) readonly buffer plain_block {
    layout(offset = 0) vec2 value[3];
} plain;
void main() {
    o.items[0] = vec4(u.a + u.s.x + u.m_c2.y + u.ms[1].c1.x + plain.value[2].y, 0.0, 0.0, float(u.tail + o.n));
}
";

/// Compile the hand-written GLSL and compare its reflection with the
/// layout IR of `contract`.
fn self_check_compare(contract: &LayoutModule) -> (usize, usize, Vec<String>) {
    self_check_compare_in(contract, Dialect::Vulkan450, SELF_CHECK_GLSL, None)
}

fn self_check_compare_in(
    contract: &LayoutModule,
    dialect: Dialect,
    glsl: &str,
    bindings: Option<&[GlslBinding]>,
) -> (usize, usize, Vec<String>) {
    let dir = temp_dir("glsl-self-check");
    let path = dir.join("self.main.comp");
    if let Err(e) = std::fs::write(&path, glsl) {
        panic!("cannot write {}: {e}", path.display());
    }
    let spv = match compile(dialect, &path) {
        Ok(p) => p,
        Err(e) => panic!("the self-check GLSL does not compile: {e}"),
    };
    let reflection = match reflect(&spv) {
        Ok(v) => v,
        Err(e) => panic!("{e}"),
    };
    let _ = std::fs::remove_dir_all(&dir);
    let (blocks, members, _, failures, _) =
        compare_file("self-check", contract, &reflection, dialect, bindings);
    (blocks, members, failures)
}

fn self_check_contract() -> LayoutModule {
    match stride::analyze(SELF_CHECK) {
        Ok(a) => a.contract,
        Err(d) => panic!("{}", d.render("self-check.wgsl", SELF_CHECK, false)),
    }
}

/// The comparer accepts a correct hand-written translation.
#[test]
fn harness_self_check_with_hand_written_glsl() {
    const TEST: &str = "harness_self_check_with_hand_written_glsl";
    if !oracles_ready(TEST) {
        return;
    }
    let (blocks, members, mut failures) = self_check_compare(&self_check_contract());
    if blocks != 3 {
        failures.push(format!("expected 3 blocks, compared {blocks}"));
    }
    // u: a s s.x s.v m ms tail = 7; o: n items = 2; plain: value = 1.
    if members != 10 {
        failures.push(format!("expected 10 members compared, got {members}"));
    }
    finish(
        TEST,
        format!("{blocks} blocks, {members} members compared"),
        failures,
    );
}

/// The comparer is not vacuous: a layout IR with one offset, one array
/// stride or one matrix column stride changed no longer matches.
#[test]
fn harness_detects_wrong_offsets_and_strides() {
    const TEST: &str = "glsl harness_detects_wrong_offsets_and_strides";
    if !oracles_ready(TEST) {
        return;
    }
    let contract = self_check_contract();
    for kind in ["offset", "nested offset", "array stride", "matrix stride"] {
        let mut bad = contract.clone();
        let mut done = false;
        for s in bad.structs.values_mut() {
            let nested = s.name == "Inner";
            for slot in &mut s.slots {
                let stride::layout::Slot::Member(m) = slot else {
                    continue;
                };
                match (kind, &mut m.layout.kind) {
                    ("offset", _) if !nested && m.offset > 0 => m.offset += 4,
                    ("nested offset", _) if nested && m.offset > 0 => m.offset += 4,
                    ("array stride", LayoutKind::Array { stride, .. }) => *stride += 16,
                    ("matrix stride", LayoutKind::Matrix { column_stride, .. }) => {
                        *column_stride += 8
                    }
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
        let (_, _, failures) = self_check_compare(&bad);
        assert!(
            !failures.is_empty(),
            "a wrong {kind} in the layout IR went unnoticed"
        );
    }
}

/// The OpenGL path: no descriptor sets, blocks found through the writer's
/// binding list (bindings per kind: uniform blocks and storage blocks are
/// numbered separately).
#[test]
fn harness_self_check_gl_with_binding_list() {
    const TEST: &str = "harness_self_check_gl_with_binding_list";
    if !oracles_ready(TEST) {
        return;
    }
    let glsl = SELF_CHECK_GLSL
        .replace("set = 0, binding = 0", "binding = 0")
        .replace("set = 0, binding = 1", "binding = 0")
        .replace("set = 1, binding = 0", "binding = 1");
    let binding = |global: &str, kind: &'static str, binding: u32| GlslBinding {
        global: global.to_string(),
        glsl_name: global.to_string(),
        kind,
        set: None,
        binding,
        words: false,
    };
    let bindings = [
        binding("u", "uniform-block", 0),
        binding("o", "storage-block", 0),
        binding("plain", "storage-block", 1),
    ];
    let contract = self_check_contract();
    let (blocks, members, mut failures) =
        self_check_compare_in(&contract, Dialect::Gl450, &glsl, Some(&bindings));
    if (blocks, members) != (3, 10) {
        failures.push(format!(
            "expected 3 blocks and 10 members, compared {blocks} and {members}"
        ));
    }
    // A wrong binding in the list is reported, not skipped.
    let mut wrong = bindings.clone();
    wrong[2].binding = 5;
    let (_, _, wrong_failures) =
        self_check_compare_in(&contract, Dialect::Gl450, &glsl, Some(&wrong));
    if wrong_failures.is_empty() {
        failures.push("a binding missing from the reflection went unnoticed".into());
    }
    finish(
        TEST,
        format!("{blocks} blocks, {members} members compared"),
        failures,
    );
}

/// Storage textures GLSL declares with another format: every
/// `bgra8unorm` texture, read, written or both, is an `rgba8` image whose
/// texels are swizzled `.bgra` at every load and store (the host binds the
/// bytes viewed as rgba8), and glslang accepts the result in every dialect;
/// GLSL ES, which reads and writes together only r32 images, refuses the
/// read_write one. Not in corpus/: naga 30's SPIR-V writer reads such a
/// texture without StorageImageReadWithoutFormat, which spirv-val rejects.
#[test]
fn bgra8unorm_storage_textures_are_swizzled_rgba8() {
    const TEST: &str = "bgra8unorm_storage_textures_are_swizzled_rgba8";
    const READ: &str = "
@group(0) @binding(0) var src: texture_storage_2d<bgra8unorm, read>;
@group(0) @binding(1) var dst: texture_storage_2d_array<bgra8unorm, write>;
@compute @workgroup_size(8, 8, 1)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let p = vec2<i32>(gid.xy);
    textureStore(dst, p, 1, textureLoad(src, p) * 0.5);
}
";
    const READ_WRITE: &str = "
@group(0) @binding(0) var image: texture_storage_2d<bgra8unorm, read_write>;
@compute @workgroup_size(8, 8, 1)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let p = vec2<i32>(gid.xy);
    let c = textureLoad(image, p);
    textureStore(image, p, c + vec4<f32>(0.25, 0.0, 0.0, 0.0));
}
";
    if !require_tool("glslangValidator", &["--version"], TEST) {
        return;
    }
    let dir = temp_dir("glsl-bgra8");
    let mut failures = Vec::new();
    let mut compiled = 0;
    for dialect in Dialect::ALL {
        for (name, source) in [("read", READ), ("read_write", READ_WRITE)] {
            let files = match translate(name, source, dialect) {
                Translated::Files(files) => files,
                Translated::Rejected(text)
                    if dialect.is_es()
                        && name == "read_write"
                        && text.contains("GLSL ES can read and write only r32f") =>
                {
                    continue;
                }
                Translated::Rejected(text) | Translated::Broken(text) => {
                    failures.push(format!("{name} [{dialect}]: not translated:\n{text}"));
                    continue;
                }
            };
            if dialect.is_es() && name == "read_write" {
                failures.push(format!(
                    "{name} [{dialect}]: ES cannot read and write rgba8"
                ));
            }
            for f in files {
                let text = &f.text;
                let declared = text.matches(", rgba8) uniform ").count();
                let images = text.matches(" image2D").count();
                // (calls, of them ending in `end`) per line that makes `call`.
                let count = |call: &str, end: &str| {
                    let lines: Vec<&str> = text.lines().filter(|l| l.contains(call)).collect();
                    (
                        lines.len(),
                        lines.iter().filter(|l| l.ends_with(end)).count(),
                    )
                };
                let (loads, swizzled_loads) = count("imageLoad(", ".bgra;");
                let (stores, swizzled_stores) = count("imageStore(", ".bgra);");
                if declared != images
                    || declared == 0
                    || loads == 0
                    || stores == 0
                    || swizzled_loads != loads
                    || swizzled_stores != stores
                {
                    failures.push(format!(
                        "{name} [{dialect}]: expected every image rgba8 and every load and store swizzled .bgra:\n{text}"
                    ));
                    continue;
                }
                compiled += write_and_compile(&dir, name, dialect, &f, &mut failures);
            }
        }
    }
    // Every dialect compiles the read texture, and all but the two ES
    // dialects the read_write one.
    let expected = 2 * Dialect::ALL.len() - 2;
    if compiled != expected && failures.is_empty() {
        failures.push(format!("compiled {compiled} files, expected {expected}"));
    }
    finish(TEST, format!("{compiled} files compiled"), failures);
}

/// Writes `f` (the `name` input in `dialect`) into `dir` and compiles it
/// with glslang: 1 when it compiles, else 0 with the failure recorded.
fn write_and_compile(
    dir: &Path,
    name: &str,
    dialect: Dialect,
    f: &GlslFile,
    failures: &mut Vec<String>,
) -> usize {
    let path = dir.join(format!("{name}-{dialect}.{}", f.suffix));
    if let Err(e) = std::fs::write(&path, &f.text) {
        failures.push(format!("cannot write {}: {e}", path.display()));
        return 0;
    }
    match compile(dialect, &path) {
        Ok(_) => 1,
        Err(e) => {
            failures.push(format!("{name} [{dialect}]: {e}\n{}", f.text));
            0
        }
    }
}

/// Three GLSL spellings that once came out wrong, compiled by glslang in
/// every dialect:
/// - `@builtin(view_index)` is a `u32`: it was read as `int(...)` into a
///   `uint` local, which GLSL ES rejects (no implicit conversion);
/// - ES 3.10's unfused `fma(a, b, c)` printed `b` and `c` without their
///   parentheses, so `fma(f, f + 1.0, x)` computed `f * f + 1.0 + x` and a
///   `select` operand swallowed the whole sum;
/// - a Vulkan push-constant block said `push_constant` twice in its
///   `layout(...)` (glslang takes the repeat, so the text is checked).
#[test]
fn view_index_fma_and_push_constants_spelled_right() {
    const TEST: &str = "view_index_fma_and_push_constants_spelled_right";
    const VIEW: &str = "
@fragment
fn main(@builtin(view_index) v: u32) -> @location(0) vec4<f32> {
    return vec4<f32>(f32(v + 1u));
}
";
    const FMA: &str = "
@group(0) @binding(0) var<storage, read_write> o: array<vec4<f32>>;
@compute @workgroup_size(1)
fn main() {
    let f = o[0];
    let g = o[1];
    o[2] = fma(f, f + vec4(1.0), g - f);
    o[3] = fma(f - g, f, select(f, g, f.x > 0.0));
}
";
    const PUSH: &str = "
struct P { scale: vec4<f32>, count: u32 }
var<immediate> p: P;
@group(0) @binding(0) var<storage, read_write> o: array<vec4<f32>>;
@compute @workgroup_size(1)
fn main() {
    o[0] = p.scale * f32(p.count);
}
";
    // The text is checked without glslang too; compiling needs it.
    let glslang = require_tool("glslangValidator", &["--version"], TEST);
    let dir = temp_dir("glsl-spelled");
    let mut failures = Vec::new();
    let (mut checked, mut compiled) = (0, 0);
    for dialect in Dialect::ALL {
        for (name, source) in [("view", VIEW), ("fma", FMA), ("push", PUSH)] {
            let files = match translate(name, source, dialect) {
                Translated::Files(files) => files,
                Translated::Rejected(text) | Translated::Broken(text) => {
                    failures.push(format!("{name} [{dialect}]: not translated:\n{text}"));
                    continue;
                }
            };
            for f in files {
                let text = &f.text;
                let wrong = match name {
                    // Read as a uint, never as an int.
                    "view" => {
                        !text.contains("uint v = uint(gl_ViewIndex);")
                            && !text.contains("uint v = gl_ViewID_OVR;")
                            || text.replace("uint(gl_View", "").contains("int(gl_View")
                    }
                    "fma" => {
                        dialect == Dialect::Es310
                            && !(text.contains("f_e2 * (f_e2 + vec4(1.0)) + (g_e5 - f_e2)")
                                && text.contains("+ ((f_e2.x > 0.0) ? g_e5 : f_e2)"))
                    }
                    _ => text.lines().any(|l| l.matches("push_constant").count() > 1),
                };
                if wrong {
                    failures.push(format!("{name} [{dialect}]: misspelled:\n{text}"));
                    continue;
                }
                checked += 1;
                if glslang {
                    compiled += write_and_compile(&dir, name, dialect, &f, &mut failures);
                }
            }
        }
    }
    let expected = 3 * Dialect::ALL.len();
    if (checked, compiled) != (expected, if glslang { expected } else { 0 }) && failures.is_empty()
    {
        failures.push(format!(
            "checked {checked} and compiled {compiled} files, expected {expected}"
        ));
    }
    finish(
        TEST,
        format!("{checked} files checked, {compiled} compiled"),
        failures,
    );
}

/// The comparer checks inlined struct members: stride's GLSL of the inline
/// example matches its contract, and the same GLSL against a contract with
/// an inlined member moved by 4 bytes fails.
#[test]
fn harness_detects_wrong_inlined_offsets() {
    const TEST: &str = "glsl harness_detects_wrong_inlined_offsets";
    if !oracles_ready(TEST) {
        return;
    }
    let input = "corpus/dialect/glsl_inline_struct.wgsl";
    let source = std::fs::read_to_string(repo_root().join(input)).expect("the inline example");
    let contract = match stride::analyze(&source) {
        Ok(a) => a.contract,
        Err(d) => panic!("{}", d.render(input, &source, false)),
    };
    let Translated::Files(files) = translate(input, &source, Dialect::Vulkan450) else {
        panic!("{input} does not translate to GLSL");
    };
    let [file] = files.as_slice() else {
        panic!("{input}: expected one GLSL file");
    };
    let compare = |contract: &LayoutModule| {
        let dir = temp_dir("glsl-inline-check");
        let path = dir.join("inline.main.comp");
        std::fs::write(&path, &file.text).expect("write the GLSL");
        let spv = compile(Dialect::Vulkan450, &path).unwrap_or_else(|e| panic!("{e}"));
        let reflection = reflect(&spv).unwrap_or_else(|e| panic!("{e}"));
        let _ = std::fs::remove_dir_all(&dir);
        // Named like the corpus file, so that the INLINED list applies.
        let label = format!("{input} [vulkan450]");
        let (_, _, inlined, failures, _) = compare_file(
            &label,
            contract,
            &reflection,
            Dialect::Vulkan450,
            file.bindings.as_deref(),
        );
        (inlined, failures)
    };
    let (inlined, failures) = compare(&contract);
    assert!(failures.is_empty(), "{failures:#?}");
    assert_eq!(inlined, 3, "data.o, data.o.inner and params.p are inlined");

    // `Inner.w` is a member of the struct inlined inside the inlined `o`.
    let mut bad = contract.clone();
    let inner = bad
        .structs
        .values_mut()
        .find(|s| s.name == "Inner")
        .expect("struct Inner");
    for slot in &mut inner.slots {
        if let stride::layout::Slot::Member(m) = slot {
            if m.name == "w" {
                m.offset += 4;
            }
        }
    }
    let (_, failures) = compare(&bad);
    assert!(
        failures.iter().any(|f| f.contains("data.o.inner.w")),
        "a wrong offset of an inlined member went unnoticed: {failures:#?}"
    );
}
