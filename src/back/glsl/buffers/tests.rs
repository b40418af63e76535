//! Tests of the buffer plan. The oracle test writes every corpus buffer as
//! GLSL, compiles it with glslang and compares the offsets and strides that
//! `spirv-cross --reflect` reports with the contract.

use super::*;
use crate::back::common::ModuleSource;
use crate::back::glsl::{keywords, GlslOptions};
use crate::back::test_support::{self, Fixture};
use crate::layout::{Layout, MemberSlot};
use std::path::{Path, PathBuf};
use std::process::Command;

fn glsl_ident(name: &str) -> String {
    let reserved = |n: &str| keywords::RESERVED.contains(n) || keywords::BUILTINS.contains(n);
    test_support::ident(name, reserved, "gl_")
}

fn fixture(source: &str) -> Result<Fixture, String> {
    test_support::fixture(source, glsl_ident)
}

/// [`Plan::member`] of the lvalue `base`: the member's text and repr.
fn member(plan: &Plan, base: &str, repr: &Repr, index: u32) -> (String, Repr) {
    let mut text = base.to_string();
    let repr = plan.member(&mut text, repr, index);
    (text, repr)
}

/// [`Plan::element`] of the lvalue `base`: the element's text and repr.
fn element(plan: &Plan, base: &str, repr: &Repr, index: Index<'_>) -> (String, Repr) {
    let mut text = base.to_string();
    let repr = plan.element(&mut text, 0, repr, index);
    (text, repr)
}

/// The statements of [`Plan::copy`] one way, as a text of their own.
fn copied(
    ctx: &Ctx<'_>,
    way: Way,
    base: &str,
    repr: &Repr,
    ty: Handle<naga::Type>,
    value: &str,
    indent: &str,
) -> String {
    let mut out = String::new();
    ctx.plan
        .copy(ctx, way, base, repr, ty, value, indent, 0, &mut out);
    out
}

/// The GLSL plan and writer context of a fixture.
trait GlslFixture {
    fn plan(&self, dialect: Dialect) -> Result<Plan, Diagnostics>;
    fn ctx<'a>(&'a self, options: &'a GlslOptions, plan: Plan) -> Ctx<'a>;
}

impl GlslFixture for Fixture {
    fn plan(&self, dialect: Dialect) -> Result<Plan, Diagnostics> {
        plan(
            &self.parsed,
            &self.parsed.module,
            &self.contract,
            dialect,
            false,
            &self.names,
        )
    }

    fn ctx<'a>(&'a self, options: &'a GlslOptions, plan: Plan) -> Ctx<'a> {
        let names = test_support::names_for(&self.parsed.module, glsl_ident);
        let source = ModuleSource::parsed(&self.parsed, &self.info, &self.contract);
        Ctx::new(source, options, (), names, plan)
    }
}

/// Value struct declarations (test-only stand-in for `types`).
fn value_structs(ctx: &Ctx<'_>) -> String {
    let mut out = String::new();
    for (h, t) in ctx.module.types.iter() {
        let naga::TypeInner::Struct { members, .. } = &t.inner else {
            continue;
        };
        if has_runtime_array(ctx.module, h) {
            continue;
        }
        let _ = writeln!(out, "struct {} {{", ctx.name(NameKey::Type(h)));
        for (i, m) in members.iter().enumerate() {
            let (b, d) = value_name(ctx, m.ty);
            let _ = writeln!(
                out,
                "    {b} {}{d};",
                ctx.name(NameKey::StructMember(h, i as u32))
            );
        }
        out.push_str("};\n");
    }
    out
}

fn has_runtime_array(module: &naga::Module, ty: Handle<naga::Type>) -> bool {
    match &module.types[ty].inner {
        naga::TypeInner::Array { size, base, .. } => {
            *size == naga::ArraySize::Dynamic || has_runtime_array(module, *base)
        }
        naga::TypeInner::Struct { members, .. } => {
            members.iter().any(|m| has_runtime_array(module, m.ty))
        }
        _ => false,
    }
}

fn has_atomic(module: &naga::Module, ty: Handle<naga::Type>) -> bool {
    match &module.types[ty].inner {
        naga::TypeInner::Atomic(_) => true,
        naga::TypeInner::Array { base, .. } => has_atomic(module, *base),
        naga::TypeInner::Struct { members, .. } => members.iter().any(|m| has_atomic(module, m.ty)),
        _ => false,
    }
}

/// A compute shader declaring every block of `ctx.plan`, loading each
/// (whole, where WGSL could) and storing the value back into writable
/// storage blocks.
fn shader(ctx: &Ctx<'_>) -> String {
    let dialect = ctx.dialect();
    let mut needs = Needs::default();
    let mut blocks = String::new();
    let mut body = String::new();
    for (k, b) in ctx.plan.blocks.iter().enumerate() {
        let prefix = match (b.kind, dialect.is_vulkan()) {
            (BlockKind::PushConstant, _) => "push_constant".to_string(),
            (_, true) => format!("set = 0, binding = {k}"),
            (_, false) => format!("binding = {k}"),
        };
        blocks.push_str(&ctx.plan.block_declaration(ctx, &mut needs, b, &prefix));
        let ty = ctx.module.global_variables[b.global].ty;
        if has_runtime_array(ctx.module, ty) || has_atomic(ctx.module, ty) {
            continue;
        }
        let Some((base, repr)) = ctx.plan.global(b.global) else {
            continue;
        };
        let (vb, vd) = value_name(ctx, ty);
        match ctx.plan.load(ctx, &base, &repr, ty) {
            Some(value) => {
                let _ = writeln!(body, "    {vb} v{k}{vd} = {value};");
            }
            None => {
                // Rebuilt in place, as the function writer does.
                assert!(ctx.plan.rebuilt(&repr));
                let _ = writeln!(body, "    {vb} v{k}{vd};");
                let dest = format!("v{k}");
                body.push_str(&copied(ctx, Way::Load, &base, &repr, ty, &dest, "    "));
            }
        }
        if b.kind == (BlockKind::Storage { read_only: false }) {
            body.push_str(&copied(
                ctx,
                Way::Store,
                &base,
                &repr,
                ty,
                &format!("v{k}"),
                "    ",
            ));
        }
    }
    // Buffers declared as their words: the whole value loaded and, in a
    // writable buffer, stored back.
    for (k, w) in ctx.plan.words.iter().enumerate() {
        let k = ctx.plan.blocks.len() + k;
        needs.extension(crate::back::glsl::types::F16_EXTENSION);
        let _ = write!(blocks, "layout(binding = {k}, ");
        w.write_declaration(&mut blocks);
        let ty = ctx.module.global_variables[w.global].ty;
        let global = ctx.contract.globals.iter().find(|g| g.handle == w.global);
        let Some(global) = global.filter(|_| !has_runtime_array(ctx.module, ty)) else {
            continue;
        };
        let place = words::Place {
            buffer: k,
            offset: words::Offset::default(),
            layout: std::borrow::Cow::Borrowed(&global.layout),
        };
        let Some(value) = words::load(ctx, &mut needs, w, &place, Some(ty)) else {
            continue;
        };
        let (vb, vd) = value_name(ctx, ty);
        let _ = writeln!(body, "    {vb} v{k}{vd} = {value};");
        if w.kind == (BlockKind::Storage { read_only: false }) && !has_atomic(ctx.module, ty) {
            words::store(ctx, w, &place, ty, &format!("v{k}"), "    ", 0, &mut body);
        }
    }
    let decls = ctx.plan.declarations(ctx, &mut needs);
    let structs = value_structs(ctx);
    if structs.contains("float16_t") || structs.contains("f16") {
        needs.extension(crate::back::glsl::types::F16_EXTENSION);
    }
    let mut out = String::new();
    if dialect.is_es() {
        let _ = writeln!(out, "#version {} es", dialect.version());
    } else {
        let _ = writeln!(out, "#version {}", dialect.version());
    }
    for &e in &needs.extensions {
        let e = crate::back::glsl::extension_spelling(dialect, e);
        let _ = writeln!(out, "#extension {e} : require");
    }
    out.push_str("layout(local_size_x = 1) in;\n");
    if dialect.is_es() {
        out.push_str("precision highp float;\nprecision highp int;\n");
    }
    out.push_str(&structs);
    out.push_str(&decls);
    out.push_str(&blocks);
    for h in needs.helpers.values() {
        out.push_str(h);
    }
    let _ = write!(out, "void main() {{\n{body}}}\n");
    out
}

fn tool(name: &str) -> bool {
    // Spawning succeeds exactly when the tool is installed.
    Command::new(name).arg("--help").output().is_ok()
}

/// What the oracle comparison found.
#[derive(Default, Debug)]
struct Stats {
    modules: usize,
    buffers: usize,
    compared: usize,
    mismatches: Vec<String>,
    plan_errors: Vec<String>,
    glslang_failures: Vec<String>,
    skipped: Vec<String>,
    /// Arrays of wrapped elements compared.
    wrapped: usize,
    /// `<stem> (<dialect>): <instance>` of every buffer declared as words
    /// (glslang compiled them; execution checks their offsets).
    words: Vec<String>,
}

struct Reflect<'a> {
    types: &'a serde_json::Map<String, serde_json::Value>,
}

impl Reflect<'_> {
    fn find(&self, name: &str) -> Option<&serde_json::Value> {
        self.types.values().find(|t| t["name"] == name)
    }
    fn members<'b>(&'b self, t: &'b serde_json::Value) -> Vec<&'b serde_json::Value> {
        t["members"]
            .as_array()
            .map(|m| m.iter().collect())
            .unwrap_or_default()
    }
    fn member<'b>(&'b self, t: &'b serde_json::Value, name: &str) -> Option<&'b serde_json::Value> {
        self.members(t).into_iter().find(|m| m["name"] == name)
    }
}

struct Cmp<'a> {
    ctx: &'a Ctx<'a>,
    r: Reflect<'a>,
    stats: &'a mut Stats,
    at: String,
}

impl Cmp<'_> {
    fn check(&mut self, what: &str, got: Option<u64>, want: u64) {
        self.stats.compared += 1;
        if got != Some(want) {
            self.stats.mismatches.push(format!(
                "{}: {what}: glslang {got:?}, contract {want}",
                self.at
            ));
        }
    }

    /// Compare the members `members` (plan names and reprs) of reflect type
    /// `t` with contract slots `slots`, offsets relative to `base`.
    fn members(
        &mut self,
        t: &serde_json::Value,
        members: &[(Rc<str>, Repr)],
        slots: &[MemberSlot],
        path: &str,
    ) {
        for ((name, repr), slot) in members.iter().zip(slots) {
            self.value(
                t,
                name,
                repr,
                &slot.layout,
                slot.offset,
                &format!("{path}.{}", slot.name),
            );
        }
    }

    /// Compare member `name` of reflect type `t`, holding `layout` at `offset`.
    fn value(
        &mut self,
        t: &serde_json::Value,
        name: &str,
        repr: &Repr,
        layout: &Layout,
        offset: u64,
        path: &str,
    ) {
        if let (
            Repr::Inline {
                global,
                first,
                count,
            },
            LayoutKind::Struct(h),
        ) = (repr, &layout.kind)
        {
            // The struct's members are block members of the same reflect
            // type, at the struct's offset plus theirs.
            let ctx = self.ctx;
            let Some(b) = ctx.plan.block(*global) else {
                return;
            };
            let range = *first..first + count;
            let members = pairs(
                &b.named.members[range.clone()],
                &ctx.plan.layout.blocks[b.index].members[range],
            );
            let slots: Vec<MemberSlot> = ctx.contract.structs[h].members().cloned().collect();
            for ((name, repr), slot) in members.iter().zip(&slots) {
                let sub = format!("{path}.{}", slot.name);
                self.value(t, name, repr, &slot.layout, offset + slot.offset, &sub);
            }
            return;
        }
        if let (
            Repr::Columns {
                columns,
                style: ColumnStyle::Members,
                ..
            },
            LayoutKind::Matrix { column_stride, .. },
        ) = (repr, &layout.kind)
        {
            for j in 0..u64::from(*columns) {
                let m = self.r.member(t, &format!("{name}_c{j}")).cloned();
                let got = m.as_ref().and_then(|m| m["offset"].as_u64());
                self.check(
                    &format!("{path} column {j} offset"),
                    got,
                    offset + j * column_stride,
                );
            }
            return;
        }
        let Some(m) = self.r.member(t, name).cloned() else {
            self.stats
                .mismatches
                .push(format!("{}: {path}: member `{name}` missing", self.at));
            return;
        };
        self.check(&format!("{path} offset"), m["offset"].as_u64(), offset);
        self.inner(&m, repr, layout, path, 0);
    }

    /// The element struct of the array member `m`: its only real member is
    /// `v` at offset 0, whose own strides and members hold `layout`.
    fn wrapped(&mut self, m: &serde_json::Value, inner: &Repr, layout: &Layout, path: &str) {
        let Some(t) = m["type"]
            .as_str()
            .and_then(|id| self.r.types.get(id))
            .cloned()
        else {
            self.stats
                .mismatches
                .push(format!("{}: {path}: element struct missing", self.at));
            return;
        };
        let real: Vec<String> = self
            .r
            .members(&t)
            .into_iter()
            .filter_map(|f| f["name"].as_str())
            .filter(|n| !n.starts_with("_s_pad"))
            .map(str::to_string)
            .collect();
        if real != ["v"] {
            self.stats.mismatches.push(format!(
                "{}: {path}: element struct members {real:?}, expected [\"v\"]",
                self.at
            ));
            return;
        }
        let Some(v) = self.r.member(&t, "v").cloned() else {
            return;
        };
        self.stats.wrapped += 1;
        self.check(&format!("{path}.v offset"), v["offset"].as_u64(), 0);
        self.inner(&v, inner, layout, &format!("{path}.v"), 0);
    }

    /// Compare strides and nested members of reflect member `m`.
    fn inner(
        &mut self,
        m: &serde_json::Value,
        repr: &Repr,
        layout: &Layout,
        path: &str,
        depth: usize,
    ) {
        match &layout.kind {
            LayoutKind::Array {
                element, stride, ..
            } => {
                // spirv-cross reports the stride of the outermost dimension only.
                if depth == 0 {
                    self.check(
                        &format!("{path} array stride"),
                        m["array_stride"].as_u64(),
                        *stride,
                    );
                }
                let erepr = match repr {
                    Repr::Array(e) => (**e).clone(),
                    _ => Repr::Plain,
                };
                let epath = format!("{path}[]");
                if let Repr::Wrapped { inner, .. } = &erepr {
                    self.wrapped(m, inner, element, &epath);
                    return;
                }
                self.inner(m, &erepr, element, &epath, depth + 1);
            }
            LayoutKind::Matrix { column_stride, .. } => match repr {
                Repr::Columns {
                    columns,
                    style: ColumnStyle::Wrapper,
                    ..
                } => {
                    let Some(t) = m["type"]
                        .as_str()
                        .and_then(|id| self.r.types.get(id))
                        .cloned()
                    else {
                        return;
                    };
                    for j in 0..u64::from(*columns) {
                        let got = self
                            .r
                            .member(&t, &format!("c{j}"))
                            .and_then(|c| c["offset"].as_u64());
                        self.check(&format!("{path} column {j} offset"), got, j * column_stride);
                    }
                }
                _ => {
                    self.check(
                        &format!("{path} matrix stride"),
                        m["matrix_stride"].as_u64(),
                        *column_stride,
                    );
                }
            },
            LayoutKind::Struct(h) => {
                let Some(t) = m["type"]
                    .as_str()
                    .and_then(|id| self.r.types.get(id))
                    .cloned()
                else {
                    return;
                };
                let Some(sl) = self.ctx.contract.structs.get(h) else {
                    return;
                };
                let slots: Vec<MemberSlot> = sl.members().cloned().collect();
                let members: Vec<(Rc<str>, Repr)> = match repr {
                    Repr::Variant(i) => pairs(
                        &self.ctx.plan.names.variants[*i].members,
                        &self.ctx.plan.layout.variants[*i].members,
                    ),
                    _ => slots
                        .iter()
                        .map(|s| {
                            (
                                self.ctx
                                    .name(NameKey::StructMember(*h, s.index as u32))
                                    .into(),
                                Repr::Plain,
                            )
                        })
                        .collect(),
                };
                self.members(&t, &members, &slots, path);
            }
            _ => {}
        }
    }
}

/// GLSL member names paired with their reprs.
fn pairs(names: &[Rc<str>], reprs: &[Repr]) -> Vec<(Rc<str>, Repr)> {
    names.iter().cloned().zip(reprs.iter().cloned()).collect()
}

fn corpus_files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let mut files = Vec::new();
    for dir in ["layout", "dialect", "shaders"] {
        if let Ok(rd) = std::fs::read_dir(root.join(dir)) {
            for e in rd.flatten() {
                let p = e.path();
                if p.extension().is_some_and(|x| x == "wgsl") {
                    files.push(p);
                }
            }
        }
    }
    files.sort();
    files
}

/// Compile `text` with glslang and return spirv-cross's reflection JSON.
fn compile_reflect(
    dir: &Path,
    stem: &str,
    text: &str,
    vulkan: bool,
) -> Result<serde_json::Value, String> {
    let src = dir.join(format!("{stem}.comp"));
    let spv = dir.join(format!("{stem}.spv"));
    std::fs::write(&src, text).map_err(|e| e.to_string())?;
    let out = Command::new("glslangValidator")
        .arg(if vulkan { "-V" } else { "-G" })
        .arg(&src)
        .arg("-o")
        .arg(&spv)
        .output()
        .map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let out = Command::new("spirv-cross")
        .arg(&spv)
        .arg("--reflect")
        .output()
        .map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    serde_json::from_slice(&out.stdout).map_err(|e| e.to_string())
}

const DIALECTS: [Dialect; 3] = [Dialect::Vulkan450, Dialect::Gl450, Dialect::Es310];

/// Plan, print, compile and compare every module of `sources` in every
/// dialect of [`DIALECTS`]; modules whose contract is invalid are skipped.
fn run_oracle(sources: &[(String, String)], dir: &Path, stats: &mut Stats) {
    for (stem, source) in sources {
        let fx = match test_support::checked(stem, fixture(source)) {
            Ok(fx) => fx,
            Err(skip) => {
                stats.skipped.push(skip);
                continue;
            }
        };
        if fx.contract.globals.is_empty() {
            continue;
        }
        stats.modules += 1;
        for dialect in DIALECTS {
            let at = format!("{stem} ({dialect})");
            if !super::super::dialect_type_errors(&fx.parsed.module, dialect).is_empty() {
                stats
                    .skipped
                    .push(format!("{at}: its types do not exist in this dialect"));
                continue;
            }
            let plan = match fx.plan(dialect) {
                Ok(p) => p,
                Err(d) => {
                    for e in d.iter() {
                        stats.plan_errors.push(format!("{at}: {}", e.message));
                    }
                    continue;
                }
            };
            for w in &plan.words {
                stats.words.push(format!("{at}: {}", w.instance));
            }
            let options = GlslOptions {
                dialect,
                ..GlslOptions::default()
            };
            let ctx = fx.ctx(&options, plan);
            let text = shader(&ctx);
            let name = format!("{stem}.{dialect}");
            let json = match compile_reflect(dir, &name, &text, dialect.is_vulkan()) {
                Ok(j) => j,
                Err(e) => {
                    stats.glslang_failures.push(format!("{at}: {e}\n{text}"));
                    continue;
                }
            };
            let Some(types) = json["types"].as_object() else {
                stats
                    .glslang_failures
                    .push(format!("{at}: no types in reflection"));
                continue;
            };
            for b in &ctx.plan.blocks {
                let Some(g) = ctx.contract.globals.iter().find(|g| g.handle == b.global) else {
                    continue;
                };
                stats.buffers += 1;
                let mut cmp = Cmp {
                    ctx: &ctx,
                    r: Reflect { types },
                    stats,
                    at: at.clone(),
                };
                let Some(t) = cmp.r.find(&b.named.name).cloned() else {
                    cmp.stats
                        .mismatches
                        .push(format!("{at}: block `{}` not in reflection", b.named.name));
                    continue;
                };
                match &g.layout.kind {
                    LayoutKind::Struct(h) => {
                        let slots: Vec<MemberSlot> =
                            ctx.contract.structs[h].members().cloned().collect();
                        let members =
                            pairs(&b.named.members, &ctx.plan.layout.blocks[b.index].members);
                        cmp.members(&t, &members, &slots, &g.name);
                    }
                    _ => {
                        let repr = &ctx.plan.layout.blocks[b.index].repr;
                        cmp.value(&t, "value", repr, &g.layout, 0, &g.name)
                    }
                }
            }
        }
    }
}

/// `None` (with a notice) when the oracles are missing and not required.
fn oracle_dir(tag: &str) -> Option<PathBuf> {
    if !tool("glslangValidator") || !tool("spirv-cross") {
        if std::env::var("STRIDE_REQUIRE_ORACLES").as_deref() == Ok("1") {
            panic!("glslangValidator or spirv-cross missing and STRIDE_REQUIRE_ORACLES=1");
        }
        eprintln!("notice: glslangValidator/spirv-cross not found; buffer oracle test skipped");
        return None;
    }
    let dir = std::env::temp_dir().join(format!("stride-buffers-{tag}-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    Some(dir)
}

fn finish(tag: &str, dir: &Path, stats: &Stats) {
    match std::env::var("STRIDE_BUFFERS_KEEP") {
        Ok(_) => eprintln!("generated GLSL kept in {}", dir.display()),
        Err(_) => {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
    // Every count and every listed skip, plan error, failure and mismatch.
    eprintln!("buffer oracle ({tag}): {stats:#?}");
    assert!(stats.buffers > 0, "no buffers compared");
    assert!(
        stats.mismatches.is_empty(),
        "offsets differ from the contract"
    );
    assert!(
        stats.glslang_failures.is_empty(),
        "glslang rejected generated GLSL"
    );
}

#[test]
fn oracle_corpus_offsets_match_contract() {
    let Some(dir) = oracle_dir("corpus") else {
        return;
    };
    let sources: Vec<(String, String)> = corpus_files()
        .into_iter()
        .filter_map(|f| {
            let stem = f.file_stem()?.to_str()?.to_string();
            Some((stem, std::fs::read_to_string(&f).ok()?))
        })
        .collect();
    let mut stats = Stats::default();
    run_oracle(&sources, &dir, &mut stats);
    finish("corpus", &dir, &stats);
    // The dialect's @stride files plan in every dialect, with element
    // structs the oracle compared.
    let stride_errors: Vec<&String> = stats
        .plan_errors
        .iter()
        .filter(|e| e.starts_with("stride_"))
        .collect();
    assert!(stride_errors.is_empty(), "{stride_errors:#?}");
    assert!(stats.wrapped > 0, "no wrapped-element arrays compared");
}

#[test]
fn oracle_synthetic_offsets_match_contract() {
    let Some(dir) = oracle_dir("synthetic") else {
        return;
    };
    let sources: Vec<(String, String)> = SYNTHETIC
        .iter()
        .map(|(n, s)| (n.to_string(), s.to_string()))
        .collect();
    let mut stats = Stats::default();
    run_oracle(&sources, &dir, &mut stats);
    finish("synthetic", &dir, &stats);
    // Layouts no block can hold are declared as words, in every dialect.
    for d in DIALECTS {
        let at = format!("struct_tail_overlap ({d}): s");
        assert!(
            stats.words.contains(&at),
            "expected {at} declared as words: {:#?}",
            stats.words
        );
    }
    // Outside an array the same struct is inlined into the block instead,
    // in every dialect, and glslang agrees with its offsets (above).
    let fx = synthetic("struct_inline");
    for d in DIALECTS {
        let plan = fx
            .plan(d)
            .unwrap_or_else(|e| panic!("{}", e.render("s.wgsl", &fx.parsed.source, false)));
        assert!(plan.words.is_empty(), "{d}: no words");
        // `s.q` (Q cannot be placed whole) and `s.q.t` inside it; `u.p`
        // (std140 rounds its split columns and `x` to 32 bytes, past the
        // contract's 40-byte buffer).
        let inlined: Vec<(&str, usize)> = plan
            .blocks
            .iter()
            .map(|b| {
                (
                    b.instance.as_str(),
                    plan.layout.blocks[b.index].inlined.len(),
                )
            })
            .collect();
        assert_eq!(inlined, [("s", 2), ("u", 1)], "{d}");
    }
    // So are push constants outside Vulkan that std140 cannot hold.
    for (stem, global) in [
        ("stride_not_a_multiple", "p"),
        ("push_constant_stride4", "p"),
    ] {
        for d in ["gl450", "es310"] {
            let at = format!("{stem} ({d}): {global}");
            assert!(
                stats.words.contains(&at),
                "expected {at} declared as words: {:#?}",
                stats.words
            );
        }
    }
    // The inexpressible ones are errors, in the dialects that cannot express them.
    for (stem, dialects) in EXPECTED_ERRORS {
        for d in *dialects {
            let at = format!("{stem} ({d})");
            assert!(
                stats.plan_errors.iter().any(|e| e.starts_with(&at)),
                "expected a plan error for {at}"
            );
        }
    }
    let unexpected: Vec<&String> = stats
        .plan_errors
        .iter()
        .filter(|e| {
            !EXPECTED_ERRORS
                .iter()
                .any(|(stem, ds)| ds.iter().any(|d| e.starts_with(&format!("{stem} ({d})"))))
        })
        .collect();
    assert!(
        unexpected.is_empty(),
        "unexpected plan errors: {unexpected:#?}"
    );
}

/// Synthetic modules for what the corpus does not cover.
const SYNTHETIC: &[(&str, &str)] = &[
    (
        "f16_uniform_matrices",
        "enable f16;
struct M { a: mat2x2<f16>, b: mat3x3<f16>, c: mat4x4<f16>, d: mat2x3<f16>, e: mat4x2<f16>, tail: f16 }
struct W { ms: array<mat4x4<f16>, 2>, h: f16 }
@group(0) @binding(0) var<uniform> u: M;
@group(0) @binding(1) var<uniform> w: W;
@group(0) @binding(2) var<storage, read_write> s: M;
@compute @workgroup_size(1) fn main() { s.tail = u.tail + w.h; }",
    ),
    (
        "nested_split",
        "struct Inner { m: mat3x2<f32>, v: vec2<f32> }
struct Outer { a: f32, @align(16) inner: Inner, arr: array<Inner, 2>, after: u32 }
@group(0) @binding(0) var<uniform> u: Outer;
@group(0) @binding(1) var<storage, read_write> s: Outer;
@compute @workgroup_size(1) fn main() { s.after = u.after; }",
    ),
    (
        "split_globals",
        "@group(0) @binding(0) var<uniform> m: mat4x2<f32>;
@group(0) @binding(1) var<uniform> ms: array<mat2x2<f32>, 3>;
@group(0) @binding(2) var<uniform> v: vec3<f32>;
@group(0) @binding(3) var<storage, read_write> o: array<mat3x2<f32>, 2>;
@compute @workgroup_size(1) fn main() { o[0][0] = m[1] + ms[2][0] + v.xy; }",
    ),
    (
        "immediate_matrix",
        "struct P { m: mat2x2<f32>, c: vec3<f32>, k: u32 }
var<immediate> p: P;
@group(0) @binding(0) var<storage, read_write> o: vec4<f32>;
@compute @workgroup_size(1) fn main() { o = vec4<f32>(p.m[0], p.c.xy); }",
    ),
    (
        "member_attrs_nested",
        "struct A { @size(20) x: f32, @align(16) y: vec2<f32>, @size(12) z: u32 }
struct B { a: A, @align(64) b: A, tail: f32, items: array<A, 2> }
@group(0) @binding(0) var<storage, read_write> s: B;
@group(0) @binding(1) var<uniform> u: B;
@compute @workgroup_size(1) fn main() { s.tail = u.tail; }",
    ),
    (
        "half_padding",
        "enable f16;
struct H { a: f16, @size(4) b: f16, c: f16 }
struct G { h: H, x: f32 }
@group(0) @binding(0) var<storage, read_write> s: G;
@compute @workgroup_size(1) fn main() { s.x = f32(s.h.c); }",
    ),
    (
        "struct_tail_overlap",
        "@size(12) struct T { v: vec3<f32> }
struct Q { t: T, x: f32 }
@group(0) @binding(0) var<storage, read_write> s: array<Q, 2>;
@compute @workgroup_size(1) fn main() { s[0].x = 1.0; }",
    ),
    (
        "struct_inline",
        "@size(12) struct T { v: vec3<f32> }
struct Q { t: T, x: f32 }
struct R { q: Q, @align(16) m: mat2x2<f32>, y: f32 }
struct P { m: mat2x2<f32>, x: f32 }
struct U { a: mat2x2<f32>, p: P }
@group(0) @binding(0) var<storage, read_write> s: R;
@group(0) @binding(1) var<uniform> u: U;
@compute @workgroup_size(1) fn main() { s.q.x = u.p.x + s.y; }",
    ),
    (
        "stride_scalar",
        "struct S { a: u32, xs: @stride(8) array<f32, 4> }
@group(0) @binding(0) var<storage, read_write> s: S;
@compute @workgroup_size(1) fn main() { s.a = 1u; }",
    ),
    (
        "stride_vectors",
        "struct S { a: u32, xs: @stride(24) array<vec2<f32>, 4>, ys: @stride(32) array<vec3<f32>, 2>,
  zs: @stride(8) array<u32, 3>, ws: @stride(12) array<i32, 2>, tail: f32 }
struct U { a: f32, @align(16) xs: @stride(32) array<f32, 2>, ys: @stride(48) array<vec3<f32>, 2>,
  zs: @stride(32) array<vec2<u32>, 2>, tail: f32 }
@group(0) @binding(0) var<storage, read_write> s: S;
@group(0) @binding(1) var<uniform> u: U;
@group(0) @binding(2) var<storage, read_write> g: @stride(16) array<vec2<f32>, 3>;
@compute @workgroup_size(1) fn main() { s.tail = u.tail + s.xs[1].y + g[2].x; }",
    ),
    (
        "stride_f16",
        "enable f16;
struct H { a: f16, xs: @stride(8) array<f16, 3>, ys: @stride(6) array<f16, 2>,
  vs: @stride(12) array<vec2<f16>, 2>, ws: @stride(16) array<vec3<f16>, 2>, tail: f16 }
struct U { a: f16, @align(16) xs: @stride(32) array<vec4<f16>, 2>, tail: f16 }
@group(0) @binding(0) var<storage, read_write> s: H;
@group(0) @binding(1) var<uniform> u: U;
@compute @workgroup_size(1) fn main() { s.tail = u.tail + s.xs[1]; }",
    ),
    (
        "stride_matrices",
        "struct S { a: f32, m2: @stride(48) array<mat2x2<f32>, 2>, m3: @stride(64) array<mat3x3<f32>, 2>,
  m32: @stride(32) array<mat3x2<f32>, 2>, tail: f32 }
struct U { a: f32, @align(16) m2: @stride(64) array<mat2x2<f32>, 2>, m32: @stride(64) array<mat3x2<f32>, 2>,
  m4: @stride(80) array<mat4x4<f32>, 2>, tail: f32 }
@group(0) @binding(0) var<storage, read_write> s: S;
@group(0) @binding(1) var<uniform> u: U;
@compute @workgroup_size(1) fn main() { s.tail = u.tail + u.m2[1][0].y + s.m32[1][2].x; }",
    ),
    (
        "stride_arrays_of_arrays",
        "struct S { a: f32, p: array<@stride(32) array<f32, 2>, 3>, q: @stride(48) array<@stride(8) array<f32, 3>, 2>,
  r: @stride(64) array<array<vec2<f32>, 2>, 2>, tail: f32 }
struct U { a: f32, @align(16) cells: @stride(64) array<@stride(16) array<f32, 3>, 4>,
  p: array<@stride(32) array<f32, 2>, 2>, tail: f32 }
@group(0) @binding(0) var<storage, read_write> s: S;
@group(0) @binding(1) var<uniform> u: U;
@compute @workgroup_size(1) fn main() { s.tail = u.tail + u.cells[1][2] + s.q[1][2]; }",
    ),
    (
        "stride_runtime",
        "struct R { n: u32, items: @stride(32) array<vec2<f32>> }
@group(0) @binding(0) var<storage, read_write> r: R;
@group(0) @binding(1) var<storage, read_write> xs: @stride(16) array<f32>;
@group(0) @binding(2) var<storage, read> ms: @stride(48) array<mat2x2<f32>>;
@compute @workgroup_size(1) fn main() { xs[0] = f32(arrayLength(&r.items)) + ms[0][1].x; }",
    ),
    (
        "stride_not_a_multiple",
        "struct P { a: f32, @align(16) xs: @stride(24) array<vec2<f32>, 2>, tail: f32 }
var<immediate> p: P;
@group(0) @binding(0) var<storage, read_write> o: f32;
@compute @workgroup_size(1) fn main() { o = p.xs[1].y; }",
    ),
    (
        "push_constant_stride4",
        "struct P { xs: array<f32, 4>, y: u32 }
var<immediate> p: P;
@group(0) @binding(0) var<storage, read_write> o: f32;
@compute @workgroup_size(1) fn main() { o = p.xs[1]; }",
    ),
];

/// Modules of [`SYNTHETIC`] that must be errors, and in which dialects.
/// (Push constants no block can hold are declared as words, like the
/// other buffers: none is left.)
const EXPECTED_ERRORS: &[(&str, &[&str])] = &[];

fn synthetic(name: &str) -> Fixture {
    let src = SYNTHETIC
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, s)| *s)
        .unwrap_or_default();
    match fixture(src) {
        Ok(fx) => fx,
        Err(e) => panic!("{name}: {e}"),
    }
}

fn global_named(module: &naga::Module, name: &str) -> Handle<naga::GlobalVariable> {
    module
        .global_variables
        .iter()
        .find(|(_, g)| g.name.as_deref() == Some(name))
        .map(|(h, _)| h)
        .expect("global")
}

#[test]
fn split_matrix_access_text() {
    let fx = synthetic("split_globals");
    let plan = fx.plan(Dialect::Vulkan450).expect("plan");
    let options = GlslOptions::default();
    let ctx = fx.ctx(&options, plan);
    let m = global_named(&fx.parsed.module, "m");
    let (base, repr) = ctx.plan.global(m).expect("buffer global");
    assert_eq!(base, "m.value");
    assert!(matches!(
        repr,
        Repr::Columns {
            columns: 4,
            rows: 2,
            style: ColumnStyle::Members,
            ..
        }
    ));
    assert_eq!(
        element(&ctx.plan, &base, &repr, Index::Constant(1)).0,
        "m.value_c1"
    );
    assert_eq!(
        element(&ctx.plan, &base, &repr, Index::Dynamic("i")),
        (
            "mat4x2(m.value_c0, m.value_c1, m.value_c2, m.value_c3)[i]".to_string(),
            Repr::Plain
        )
    );
    // An array of split matrices: wrapper elements.
    let ms = global_named(&fx.parsed.module, "ms");
    let (base, repr) = ctx.plan.global(ms).expect("buffer global");
    let (elem, erepr) = element(&ctx.plan, &base, &repr, Index::Dynamic("j"));
    assert_eq!(elem, "ms.value[j]");
    assert_eq!(
        element(&ctx.plan, &elem, &erepr, Index::Constant(0)).0,
        "ms.value[j].c0"
    );
    let mut needs = Needs::default();
    let ty = fx.parsed.module.global_variables[ms].ty;
    let naga::TypeInner::Array { base: mat_ty, .. } = fx.parsed.module.types[ty].inner else {
        panic!("array")
    };
    assert_eq!(
        ctx.plan.load(&ctx, &elem, &erepr, mat_ty).as_deref(),
        Some("mat2(ms.value[j].c0, ms.value[j].c1)")
    );
    // Per-column stores.
    let stored = copied(&ctx, Way::Store, &elem, &erepr, mat_ty, "v", "  ");
    assert_eq!(
        stored,
        "  ms.value[j].c0 = v[0];\n  ms.value[j].c1 = v[1];\n"
    );
    let decls = ctx.plan.declarations(&ctx, &mut needs);
    assert!(
        decls.contains("struct _s_mat2_cols {\n    vec2 c0;\n    vec2 c1;\n};"),
        "{decls}"
    );
}

/// The element structs of `stride_vectors`, `stride_matrices` and
/// `stride_runtime`: lvalues step through `.v`, whole loads use a loop
/// helper, stores write `.v` only, and `.length()` applies to the array.
#[test]
fn wrapped_element_access_text() {
    let fx = synthetic("stride_vectors");
    let plan = fx.plan(Dialect::Vulkan450).expect("plan");
    let options = GlslOptions::default();
    let ctx = fx.ctx(&options, plan);
    let mut needs = Needs::default();
    let decls = ctx.plan.declarations(&ctx, &mut needs);
    assert!(
        decls.contains(
            "struct _s_vec2_s24 {\n    vec2 v;\n    uvec2 _s_pad0;\n    uvec2 _s_pad1;\n};"
        ),
        "{decls}"
    );
    assert!(
        decls.contains("struct _s_uint_s8 {\n    uint v;\n    uint _s_pad0;\n};"),
        "{decls}"
    );
    // std140: rounded to 16, padded with a uvec4.
    assert!(
        decls.contains("struct _s_float_s32 {\n    float v;\n    uvec4 _s_pad0;\n};"),
        "{decls}"
    );
    let s = global_named(&fx.parsed.module, "s");
    let (base, repr) = ctx.plan.global(s).expect("buffer global");
    let (xs, xrepr) = member(&ctx.plan, &base, &repr, 1);
    assert_eq!(xs, "s.xs");
    let (x, r) = element(&ctx.plan, &xs, &xrepr, Index::Dynamic("i"));
    assert_eq!((x.as_str(), r), ("s.xs[i].v", Repr::Plain));
    let ty = fx.parsed.module.global_variables[s].ty;
    let naga::TypeInner::Struct { ref members, .. } = fx.parsed.module.types[ty].inner else {
        panic!("struct")
    };
    let xs_ty = members[1].ty;
    // Read element by element into the local, never through a helper
    // taking the array by value.
    assert_eq!(ctx.plan.load(&ctx, &xs, &xrepr, xs_ty), None);
    assert_eq!(
        copied(&ctx, Way::Load, &xs, &xrepr, xs_ty, "val", ""),
        "for (int _s_i0 = 0; _s_i0 < 4; ++_s_i0) {\n    val[_s_i0] = s.xs[_s_i0].v;\n}\n"
    );
    let store = copied(&ctx, Way::Store, &xs, &xrepr, xs_ty, "val", "");
    assert_eq!(
        store,
        "for (int _s_i0 = 0; _s_i0 < 4; ++_s_i0) {\n    s.xs[_s_i0].v = val[_s_i0];\n}\n"
    );
    // A non-struct global: `<instance>.value`.
    let g = global_named(&fx.parsed.module, "g");
    let (gbase, grepr) = ctx.plan.global(g).expect("buffer global");
    assert_eq!(
        element(&ctx.plan, &gbase, &grepr, Index::Constant(2)).0,
        "g.value[2].v"
    );

    // Split columns inside an element struct (std140 mat2x2, stride 64).
    let fx = synthetic("stride_matrices");
    let plan = fx.plan(Dialect::Vulkan450).expect("plan");
    let ctx = fx.ctx(&options, plan);
    let u = global_named(&fx.parsed.module, "u");
    let (base, repr) = ctx.plan.global(u).expect("buffer global");
    let (m2, mrepr) = member(&ctx.plan, &base, &repr, 1);
    let (e, erepr) = element(&ctx.plan, &m2, &mrepr, Index::Dynamic("j"));
    assert_eq!(e, "u.m2[j].v");
    assert_eq!(
        element(&ctx.plan, &e, &erepr, Index::Constant(1)).0,
        "u.m2[j].v.c1"
    );
    let mut needs = Needs::default();
    let decls = ctx.plan.declarations(&ctx, &mut needs);
    let cols = decls.find("struct _s_mat2_cols {").expect("column wrapper");
    let elem = decls
        .find("struct _s_mat2_cols_s64 {\n    _s_mat2_cols v;")
        .expect("element struct of the column wrapper");
    assert!(cols < elem, "{decls}");

    // Runtime-sized arrays: the array lvalue is the array itself.
    let fx = synthetic("stride_runtime");
    let plan = fx.plan(Dialect::Vulkan450).expect("plan");
    let ctx = fx.ctx(&options, plan);
    let r = global_named(&fx.parsed.module, "r");
    let (base, repr) = ctx.plan.global(r).expect("buffer global");
    let (items, irepr) = member(&ctx.plan, &base, &repr, 1);
    assert_eq!(items, "r.items");
    assert_eq!(
        element(&ctx.plan, &items, &irepr, Index::Dynamic("k")).0,
        "r.items[k].v"
    );
    let xs = global_named(&fx.parsed.module, "xs");
    let (base, repr) = ctx.plan.global(xs).expect("buffer global");
    assert_eq!(base, "xs.value");
    assert_eq!(
        element(&ctx.plan, &base, &repr, Index::Dynamic("k")).0,
        "xs.value[k].v"
    );
}

#[test]
fn stores_never_write_padding() {
    let fx = synthetic("member_attrs_nested");
    for dialect in DIALECTS {
        let plan = fx.plan(dialect).expect("plan");
        assert!(
            plan.layout
                .variants
                .iter()
                .any(|v| v.fields.iter().any(|f| f.is_padding())),
            "{dialect}: expected padded variants"
        );
        let options = GlslOptions {
            dialect,
            ..GlslOptions::default()
        };
        let ctx = fx.ctx(&options, plan);
        let s = global_named(&fx.parsed.module, "s");
        let (base, repr) = ctx.plan.global(s).expect("buffer global");
        let ty = fx.parsed.module.global_variables[s].ty;
        let text = copied(&ctx, Way::Store, &base, &repr, ty, "val", "");
        assert!(!text.contains("_s_pad"), "{dialect}: {text}");
        assert!(
            text.contains("for (int _s_i0 = 0; _s_i0 < 2; ++_s_i0) {"),
            "{text}"
        );
        // Nor do loads read it: the padded struct is rebuilt member by
        // member.
        assert_eq!(ctx.plan.load(&ctx, &base, &repr, ty), None);
        let load = copied(&ctx, Way::Load, &base, &repr, ty, "val", "");
        assert!(!load.contains("_s_pad"), "{dialect}: {load}");
        assert!(load.contains("val."), "{dialect}: {load}");
    }
}

#[test]
fn blocks_no_rule_set_holds_are_words() {
    let fx = synthetic("half_padding");
    assert!(
        fx.plan(Dialect::Vulkan450).is_ok(),
        "uint16_t padding in Vulkan"
    );
    // Without uint16_t padding (and without 16-bit storage) the buffer is
    // declared as its words: no block to realize, no gap to pad.
    let plan = fx.plan(Dialect::Es310).expect("f16 buffer as words in ES");
    assert!(plan.blocks.is_empty());
    assert_eq!(plan.words.len(), 1);
    assert_eq!(plan.words[0].instance, "s");

    // Stride 8 of f32 in std430: an element struct, no error.
    assert!(synthetic("stride_scalar").plan(Dialect::Vulkan450).is_ok());
    let fx = synthetic("stride_not_a_multiple");
    assert!(
        fx.plan(Dialect::Vulkan450).is_ok(),
        "std430 pads vec2 to 24"
    );
    // Push constants are std140 outside Vulkan, where stride 24 of `vec2`
    // is no array stride: declared as words, with a note at the global.
    let plan = fx
        .plan(Dialect::Gl450)
        .unwrap_or_else(|e| panic!("{}", e.render("p.wgsl", &fx.parsed.source, false)));
    let words: Vec<&str> = plan.words.iter().map(|w| w.instance.as_str()).collect();
    assert_eq!(words, ["p"]);
    let note = plan.notes.first().expect("a note");
    assert!(note.message.contains("`p` is declared as its 32-bit words"));
    assert!(note.notes.iter().any(|n| n.contains("push-constant range")));
}

#[test]
fn offsets_by_dialect() {
    let fx = synthetic("nested_split");
    for (dialect, offsets, ext) in [
        (Dialect::Gl430, true, true),
        (Dialect::Gl440, true, false),
        (Dialect::Vulkan450, true, false),
        (Dialect::Es310, false, false),
    ] {
        let plan = fx.plan(dialect).expect("plan");
        let options = GlslOptions {
            dialect,
            ..GlslOptions::default()
        };
        let ctx = fx.ctx(&options, plan);
        let mut needs = Needs::default();
        let text = ctx
            .plan
            .block_declaration(&ctx, &mut needs, &ctx.plan.blocks[0], "binding = 0");
        assert_eq!(
            text.contains("layout(offset = "),
            offsets,
            "{dialect}: {text}"
        );
        assert_eq!(
            needs.extensions.contains("GL_ARB_enhanced_layouts"),
            ext,
            "{dialect}"
        );
        assert!(
            text.starts_with("layout(binding = 0, std140) uniform u_block {"),
            "{text}"
        );
    }
}

#[test]
fn deterministic_plans() {
    let fx = synthetic("member_attrs_nested");
    let options = GlslOptions::default();
    let print = || {
        let ctx = fx.ctx(&options, fx.plan(Dialect::Vulkan450).expect("plan"));
        let mut needs = Needs::default();
        let mut text = ctx.plan.declarations(&ctx, &mut needs);
        for b in &ctx.plan.blocks {
            text.push_str(&ctx.plan.block_declaration(&ctx, &mut needs, b, ""));
        }
        text
    };
    assert_eq!(print(), print());
}

#[test]
#[ignore = "prints rendered diagnostics for review"]
fn show_diagnostics() {
    for (name, dialect) in [
        ("half_padding", Dialect::Es310),
        ("struct_tail_overlap", Dialect::Vulkan450),
        ("push_constant_stride4", Dialect::Gl450),
    ] {
        let fx = synthetic(name);
        if let Err(d) = fx.plan(dialect) {
            eprintln!(
                "{}",
                d.render(&format!("{name}.wgsl"), &fx.parsed.source, false)
            );
        }
    }
}

/// A variant planned for an array element whose stride then needs a larger
/// stride variant is not declared: no block stores it, so nothing names it.
/// The stride variant, and the variant a stored variant contains, are.
#[test]
fn only_stored_variants_are_declared() {
    let src = "
        @size(16) @align(32) struct S { i: u32 }
        struct Inner { a: f32, @align(16) b: f32 }
        struct Outer { inner: Inner, c: f32 }
        @group(0) @binding(0) var<storage, read_write> items: array<S, 4>;
        @group(0) @binding(1) var<storage, read_write> outer: array<Outer, 2>;
        @compute @workgroup_size(1) fn main() { items[1].i = 1u; outer[0].c = 2.0; }
    ";
    let fx = fixture(src).unwrap_or_else(|e| panic!("{e}"));
    let plan = fx.plan(Dialect::Vulkan450).expect("plan");
    let options = GlslOptions::default();
    let ctx = fx.ctx(&options, plan);
    let mut needs = Needs::default();
    let decls = ctx.plan.declarations(&ctx, &mut needs);
    assert!(decls.contains("struct S_std430_s32 {"), "{decls}");
    assert!(!decls.contains("struct S_std430 {"), "{decls}");
    // Every declared struct is named outside its own declaration (by a
    // block member or by another declared struct).
    let mut blocks = String::new();
    for b in &ctx.plan.blocks {
        blocks.push_str("layout(set = 0, ");
        ctx.plan
            .write_block_declaration(&ctx, &mut needs, b, &mut blocks);
    }
    let text = format!("{decls}{blocks}");
    for line in decls.lines() {
        let Some(name) = line
            .strip_prefix("struct ")
            .and_then(|l| l.strip_suffix(" {"))
        else {
            continue;
        };
        let uses = text
            .match_indices(name)
            .filter(|(at, _)| {
                let after = text[at + name.len()..].chars().next();
                !after.is_some_and(|c| c.is_alphanumeric() || c == '_')
            })
            .count();
        assert!(uses >= 2, "{name} is declared but never named:\n{text}");
    }
}
