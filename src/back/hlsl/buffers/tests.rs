//! Tests of the HLSL buffer plan. The oracle test prints every corpus (and
//! inline) module's cbuffers, compiles a compute shader reading all of them
//! with DXC and compares the member offsets DXC reports (`-Fc`, Buffer
//! Definitions) with the contract; the same shaders load and store every
//! storage type through the byte-address helpers and are compiled to DXIL,
//! with `-HV 2021`, and to SPIR-V (`-spirv`, checked by `spirv-val`).

use super::*;
use crate::back::common::ModuleSource;
use crate::back::hlsl::{keywords, HlslOptions, ShaderModel};
use crate::back::test_support::{self, Fixture};
use crate::layout::realize::cbuffer::Shape;
use crate::layout::MemberSlot;
use std::path::{Path, PathBuf};
use std::process::Command;

#[allow(dead_code)]
#[path = "../../../../tests/common/dxc.rs"]
mod dxc;
#[allow(dead_code)]
#[path = "../../../../tests/common/process.rs"]
mod process;
use process::output_bounded;

// What tests/common/dxc.rs expects from its parent module.
fn temp_dir(tag: &str) -> PathBuf {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static COUNTER: AtomicUsize = AtomicUsize::new(0);
    let n = COUNTER.fetch_add(1, Ordering::SeqCst);
    let dir = std::env::temp_dir().join(format!(
        "stride-hlsl-buffers-{tag}-{}-{n}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::create_dir_all(&dir);
    dir
}

fn loud(text: &str) {
    eprintln!("{text}");
}

fn oracles_required() -> bool {
    std::env::var("STRIDE_REQUIRE_ORACLES").is_ok_and(|v| !v.is_empty() && v != "0")
}

fn hlsl_ident(name: &str) -> String {
    let reserved = |n: &str| {
        keywords::RESERVED.contains(n)
            || keywords::BUILTINS.contains(n)
            || keywords::RESERVED_CASE_INSENSITIVE.contains(n)
    };
    test_support::ident(name, reserved, "_s_")
}

/// The global every test shader stores loaded values into.
const SINK: &str = "stride_sink";

fn fixture(source: &str) -> Result<Fixture, String> {
    let source =
        format!("{source}\n@group(7) @binding(0) var<storage, read_write> {SINK}: array<u32>;\n");
    test_support::fixture(&source, hlsl_ident)
}

/// The HLSL plan and writer context of a fixture.
trait HlslFixture {
    fn plan(&self) -> Result<Plan, Diagnostics>;
    fn ctx<'a>(&'a self, options: &'a HlslOptions, plan: Plan) -> Ctx<'a>;
}

impl HlslFixture for Fixture {
    fn plan(&self) -> Result<Plan, Diagnostics> {
        plan(
            &self.parsed,
            &self.parsed.module,
            &self.contract,
            &self.names,
            false,
        )
    }

    fn ctx<'a>(&'a self, options: &'a HlslOptions, plan: Plan) -> Ctx<'a> {
        let names = test_support::names_for(&self.parsed.module, hlsl_ident);
        let source = ModuleSource::parsed(&self.parsed, &self.info, &self.contract);
        let model = options.shader_model.unwrap_or_default();
        Ctx::new(source, options, model, names, plan)
    }
}

fn options(model: ShaderModel) -> HlslOptions {
    HlslOptions {
        shader_model: Some(model),
        ..HlslOptions::default()
    }
}

fn type_has(
    module: &naga::Module,
    ty: Handle<naga::Type>,
    what: &dyn Fn(&naga::TypeInner) -> bool,
) -> bool {
    let inner = &module.types[ty].inner;
    if what(inner) {
        return true;
    }
    match inner {
        naga::TypeInner::Array { base, .. } => type_has(module, *base, what),
        naga::TypeInner::Struct { members, .. } => {
            members.iter().any(|m| type_has(module, m.ty, what))
        }
        _ => false,
    }
}

fn has_runtime_or_atomic(module: &naga::Module, ty: Handle<naga::Type>) -> bool {
    type_has(module, ty, &|t| {
        matches!(
            t,
            naga::TypeInner::Atomic(_)
                | naga::TypeInner::Array {
                    size: naga::ArraySize::Dynamic,
                    ..
                }
        )
    })
}

/// The sink's place at byte 0, holding `layout`.
fn sink<'a>(ctx: &Ctx<'_>, layout: &'a Layout) -> Option<Place<'a>> {
    let (g, _) = ctx
        .module
        .global_variables
        .iter()
        .find(|(_, g)| g.name.as_deref() == Some(SINK))?;
    Some(Place::Bytes(BytePlace {
        buffer: g,
        offset: ByteOffset::constant(0),
        layout: std::borrow::Cow::Borrowed(layout),
    }))
}

/// Statements reading everything at `place` (of type `ty`) and writing it
/// to the sink, and back to `place` itself when `writable`; atomics get
/// every atomic operation.
fn exercise(
    ctx: &Ctx<'_>,
    needs: &mut Needs,
    place: &Place,
    ty: Handle<naga::Type>,
    writable: bool,
    n: &mut usize,
    out: &mut String,
) {
    let plan = &ctx.plan;
    let layout = match place {
        Place::Bytes(p) => Some(p.layout.clone().into_owned()),
        Place::Text { .. } => None,
    };
    let inner = ctx.module.types[ty].inner.clone();
    if !has_runtime_or_atomic(ctx.module, ty) {
        *n += 1;
        let v = format!("v{n}");
        let (value, _) = plan.load(ctx, needs, place, ty);
        let t = crate::back::hlsl::types::type_name(ctx, ty);
        let _ = writeln!(out, "    {t} {v} = {value};");
        let contract = match &layout {
            Some(l) => l.clone(),
            None => return,
        };
        if let Some(s) = sink(ctx, &contract) {
            out.push_str(&indent(&plan.store(ctx, needs, &s, ty, &v)));
        }
        if writable {
            out.push_str(&indent(&plan.store(ctx, needs, place, ty, &v)));
        }
        return;
    }
    match inner {
        naga::TypeInner::Atomic(s) => {
            let t = crate::back::hlsl::types::scalar(s);
            use naga::AtomicFunction as F;
            for fun in [
                F::Add,
                F::Subtract,
                F::And,
                F::InclusiveOr,
                F::ExclusiveOr,
                F::Min,
                F::Max,
                F::Exchange { compare: None },
            ] {
                *n += 1;
                let r = format!("a{n}");
                let _ = writeln!(out, "    {t} {r};");
                out.push_str(&indent(&plan.atomic(
                    needs,
                    place,
                    &fun,
                    "2",
                    None,
                    Some((&r, ("", ""))),
                )));
            }
            let cx = ctx
                .module
                .special_types
                .predeclared_types
                .get(&naga::PredeclaredType::AtomicCompareExchangeWeakResult(s))
                .copied();
            let any_expr = ctx
                .module
                .entry_points
                .first()
                .and_then(|e| e.function.expressions.iter().next().map(|(h, _)| h));
            if let (Some(h), Some(e)) = (cx, any_expr) {
                *n += 1;
                let r = format!("x{n}");
                let _ = writeln!(out, "    {} {r};", ctx.name(NameKey::Type(h)));
                let members = (
                    ctx.name(NameKey::StructMember(h, 0)),
                    ctx.name(NameKey::StructMember(h, 1)),
                );
                out.push_str(&indent(&plan.atomic(
                    needs,
                    place,
                    &F::Exchange { compare: Some(e) },
                    "3",
                    Some("1"),
                    Some((&r, members)),
                )));
            }
            *n += 1;
            let (value, _) = plan.load(ctx, needs, place, ty);
            let _ = writeln!(out, "    {t} l{n} = {value};");
            out.push_str(&indent(&plan.store(
                ctx,
                needs,
                place,
                ty,
                &format!("l{n}"),
            )));
        }
        naga::TypeInner::Struct { members, .. } => {
            for (i, m) in members.iter().enumerate() {
                let p = plan.member(ctx, place.clone(), i as u32);
                exercise(ctx, needs, &p, m.ty, writable, n, out);
            }
        }
        naga::TypeInner::Array { base, size, .. } => {
            if size == naga::ArraySize::Dynamic {
                *n += 1;
                let _ = write!(out, "    uint n{n} = ");
                plan.push_array_length(out, needs, place);
                out.push_str(";\n");
            }
            let p = plan.element(place.clone(), Index::Dynamic("id.x"));
            exercise(ctx, needs, &p, base, writable, n, out);
            let p = plan.element(place.clone(), Index::Constant(1));
            exercise(ctx, needs, &p, base, writable, n, out);
        }
        _ => {}
    }
}

/// What [`walk_text`] appends statements to: the helpers they need, the
/// count of values named so far and the function body.
struct Walk<'w> {
    needs: &'w mut Needs,
    n: &'w mut usize,
    out: &'w mut String,
}

/// Statements loading every member, element (constant and dynamic index)
/// and matrix column below the cbuffer place `place` (of type `ty`, contract
/// `layout`) and storing each into the sink.
fn walk_text(
    ctx: &Ctx<'_>,
    w: &mut Walk<'_>,
    (place, ty, layout): (&Place, Handle<naga::Type>, &Layout),
    depth: usize,
) {
    if depth > 0 {
        *w.n += 1;
        let v = format!("v{}", w.n);
        let (value, _) = ctx.plan.load(ctx, w.needs, place, ty);
        let t = crate::back::hlsl::types::type_name(ctx, ty);
        let _ = writeln!(w.out, "    {t} {v} = {value};");
        if let Some(s) = sink(ctx, layout) {
            w.out
                .push_str(&indent(&ctx.plan.store(ctx, w.needs, &s, ty, &v)));
        }
    }
    if depth > 4 {
        return;
    }
    match (&ctx.module.types[ty].inner, &layout.kind) {
        (naga::TypeInner::Struct { members, .. }, LayoutKind::Struct(h)) => {
            let Some(sl) = ctx.contract.structs.get(h) else {
                return;
            };
            for slot in sl.members() {
                let Some(m) = members.get(slot.index) else {
                    continue;
                };
                let p = ctx.plan.member(ctx, place.clone(), slot.index as u32);
                walk_text(ctx, w, (&p, m.ty, &slot.layout), depth + 1);
            }
        }
        (naga::TypeInner::Array { base, .. }, LayoutKind::Array { element, .. }) => {
            for index in [Index::Constant(1), Index::Dynamic("(id.x % 2u)")] {
                let p = ctx.plan.element(place.clone(), index);
                walk_text(ctx, w, (&p, *base, element), depth + 1);
            }
        }
        (
            naga::TypeInner::Matrix { rows, scalar, .. },
            LayoutKind::Matrix {
                rows: lrows,
                scalar: lscalar,
                ..
            },
        ) => {
            let vector = ctx
                .module
                .types
                .iter()
                .find(|(_, t)| {
                    t.inner
                        == naga::TypeInner::Vector {
                            size: *rows,
                            scalar: *scalar,
                        }
                })
                .map(|(h, _)| h);
            let Some(vt) = vector else {
                return;
            };
            let column = Layout {
                size: Some(u64::from(*lrows) * u64::from(lscalar.width)),
                align: u64::from(lscalar.width),
                kind: LayoutKind::Vector {
                    size: *lrows,
                    scalar: *lscalar,
                },
            };
            for index in [Index::Constant(1), Index::Dynamic("(id.x % 2u)")] {
                let p = ctx.plan.element(place.clone(), index);
                walk_text(ctx, w, (&p, vt, &column), depth + 1);
            }
        }
        _ => {}
    }
}

/// A compute shader declaring every buffer of `ctx.plan` and reading every
/// one of them whole (cbuffers: their loaded value is stored to the sink).
fn shader(ctx: &Ctx<'_>) -> String {
    let mut needs = Needs::default();
    let mut decls = String::new();
    let mut body = String::new();
    let mut n = 0usize;
    for (k, c) in ctx.plan.real.cbuffers.iter().enumerate() {
        decls.push_str(&ctx.plan.buffer_declaration(c.global, &format!("b{k}")));
        let Some(place) = ctx.plan.global(c.global) else {
            continue;
        };
        let (value, _) = ctx.plan.load(ctx, &mut needs, &place, c.ty);
        n += 1;
        let t = crate::back::hlsl::types::type_name(ctx, c.ty);
        let _ = writeln!(body, "    {t} v{n} = {value};");
        let layout = ctx
            .contract
            .globals
            .iter()
            .find(|g| g.handle == c.global)
            .map(|g| g.layout.clone());
        if let Some(l) = &layout {
            if let Some(s) = sink(ctx, l) {
                body.push_str(&indent(&ctx.plan.store(
                    ctx,
                    &mut needs,
                    &s,
                    c.ty,
                    &format!("v{n}"),
                )));
            }
            let mut w = Walk {
                needs: &mut needs,
                n: &mut n,
                out: &mut body,
            };
            walk_text(ctx, &mut w, (&place, c.ty, l), 0);
        }
    }
    for (k, s) in ctx.plan.storages.iter().enumerate() {
        let reg = if s.words.is_some() {
            // A cbuffer declared as words: after the realized ones.
            format!("b{}", ctx.plan.real.cbuffers.len() + k)
        } else if s.read_only {
            format!("t{k}")
        } else {
            format!("u{k}")
        };
        decls.push_str(&ctx.plan.buffer_declaration(s.global, &reg));
        if s.name == SINK {
            continue;
        }
        let ty = ctx.module.global_variables[s.global].ty;
        let Some(place) = ctx.plan.global(s.global) else {
            continue;
        };
        exercise(ctx, &mut needs, &place, ty, !s.read_only, &mut n, &mut body);
    }
    let mut out = String::from("#pragma pack_matrix(row_major)\n");
    out.push_str(&crate::back::hlsl::types::struct_declarations(ctx));
    out.push_str(&ctx.plan.declarations());
    out.push_str(&decls);
    for h in needs.helpers.values() {
        out.push_str(h);
        out.push('\n');
    }
    let _ = write!(
        out,
        "[numthreads(1, 1, 1)]\nvoid main(uint3 id : SV_DispatchThreadID) {{\n{body}}}\n"
    );
    out
}

/// What the oracle comparison found.
#[derive(Default, Debug)]
struct Stats {
    modules: usize,
    cbuffers: usize,
    storages: usize,
    compared: usize,
    variants: usize,
    wrapped: usize,
    split: usize,
    mismatches: Vec<String>,
    plan_errors: Vec<String>,
    dxc_failures: Vec<String>,
    spirv_failures: Vec<String>,
    skipped: Vec<String>,
}

struct Cmp<'a> {
    ctx: &'a Ctx<'a>,
    stats: &'a mut Stats,
    at: String,
}

impl Cmp<'_> {
    fn check(&mut self, what: &str, got: Option<u32>, want: u64) {
        self.stats.compared += 1;
        if got.map(u64::from) != Some(want) {
            self.stats
                .mismatches
                .push(format!("{}: {what}: DXC {got:?}, contract {want}", self.at));
        }
    }

    fn members(
        &mut self,
        list: &[dxc::Member],
        members: &[(String, Repr)],
        slots: &[MemberSlot],
        base: u64,
        path: &str,
    ) {
        for ((name, repr), slot) in members.iter().zip(slots) {
            let p = format!("{path}.{}", slot.name);
            self.value(list, name, repr, &slot.layout, base + slot.offset, &p);
        }
    }

    fn value(
        &mut self,
        list: &[dxc::Member],
        name: &str,
        repr: &Repr,
        layout: &Layout,
        offset: u64,
        path: &str,
    ) {
        if let (Repr::Columns { columns, .. }, LayoutKind::Matrix { column_stride, .. }) =
            (repr, &layout.kind)
        {
            self.stats.split += 1;
            for j in 0..u64::from(*columns) {
                let got = list
                    .iter()
                    .find(|m| m.name == column_name(name, j))
                    .map(|m| m.offset);
                self.check(
                    &format!("{path} column {j}"),
                    got,
                    offset + j * column_stride,
                );
            }
            return;
        }
        let Some(m) = list.iter().find(|m| m.name == name) else {
            self.stats
                .mismatches
                .push(format!("{}: {path}: member `{name}` missing", self.at));
            return;
        };
        self.check(path, Some(m.offset), offset);
        self.inner(m, repr, layout, offset, path);
    }

    fn inner(&mut self, m: &dxc::Member, repr: &Repr, layout: &Layout, offset: u64, path: &str) {
        match &layout.kind {
            LayoutKind::Struct(h) => {
                let Some(sl) = self.ctx.contract.structs.get(h) else {
                    return;
                };
                let slots: Vec<MemberSlot> = sl.members().cloned().collect();
                let members: Vec<(String, Repr)> = match repr {
                    Repr::Variant(i) => {
                        let real = &self.ctx.plan.real.variants[*i];
                        if !real.value {
                            self.stats.variants += 1;
                        }
                        let names = self.ctx.plan.names.variants[*i].members.iter().cloned();
                        names.zip(real.members.iter().cloned()).collect()
                    }
                    _ => slots
                        .iter()
                        .map(|s| {
                            (
                                self.ctx
                                    .name(NameKey::StructMember(*h, s.index as u32))
                                    .to_string(),
                                Repr::Plain,
                            )
                        })
                        .collect(),
                };
                self.members(&m.members, &members, &slots, offset, path);
            }
            LayoutKind::Array { element, .. } => {
                let erepr = match repr {
                    Repr::Array(e) => (**e).clone(),
                    _ => Repr::Plain,
                };
                match erepr {
                    Repr::Wrapped { inner, .. } => {
                        self.stats.wrapped += 1;
                        let p = format!("{path}[0].v");
                        self.value(&m.members, "v", &inner, element, offset, &p);
                    }
                    other => self.inner(m, &other, element, offset, &format!("{path}[0]")),
                }
            }
            _ => {}
        }
    }
}

fn dxc_ready() -> bool {
    dxc::require_dxc("hlsl::buffers oracle")
}

fn spirv_val_ready() -> bool {
    Command::new("spirv-val").arg("--version").output().is_ok()
}

/// Plan, print, compile and compare one module.
fn run_one(stem: &str, source: &str, stats: &mut Stats) {
    let fx = match test_support::checked(stem, fixture(source)) {
        Ok(fx) => fx,
        Err(skip) => {
            stats.skipped.push(skip);
            return;
        }
    };
    let plan = match fx.plan() {
        Ok(p) => p,
        Err(d) => {
            let first = d
                .iter()
                .next()
                .map(|d| d.message.clone())
                .unwrap_or_default();
            stats.plan_errors.push(format!("{stem}: {first}"));
            return;
        }
    };
    stats.modules += 1;
    let opts = options(ShaderModel::Sm6_2);
    let ctx = fx.ctx(&opts, plan);
    let hlsl = shader(&ctx);
    let at = stem.to_string();
    let mut args = vec!["-enable-16bit-types"];
    let compiled = match dxc::compile(&hlsl, "cs_6_2", "main", &args) {
        Ok(c) => c,
        Err(e) => {
            stats
                .dxc_failures
                .push(format!("{at}: {e}\n--- shader:\n{hlsl}"));
            return;
        }
    };
    args.extend(["-HV", "2021"]);
    if let Err(e) = dxc::compile(&hlsl, "cs_6_2", "main", &args) {
        stats
            .dxc_failures
            .push(format!("{at} (-HV 2021): {e}\n--- shader:\n{hlsl}"));
    }
    if spirv_val_ready() {
        let dir = temp_dir("spirv");
        match dxc::run_dxc(
            &hlsl,
            &[
                "-T",
                "cs_6_2",
                "-E",
                "main",
                "-enable-16bit-types",
                "-spirv",
                "-fvk-use-dx-layout",
                "-fspv-target-env=vulkan1.1",
                "-Fo",
                "x.spv",
            ],
            Some(&dir),
        ) {
            Ok(_) => {
                let out = Command::new("spirv-val")
                    .arg("--target-env")
                    .arg("vulkan1.1")
                    // D3D cbuffer packing (tails of arrays and structs)
                    // is valid SPIR-V only under scalar block layout.
                    .arg("--scalar-block-layout")
                    .arg(dir.join("x.spv"))
                    .output();
                if let Ok(o) = out {
                    if !o.status.success() {
                        stats.spirv_failures.push(format!(
                            "{at}: spirv-val: {}",
                            String::from_utf8_lossy(&o.stderr)
                        ));
                    }
                }
            }
            Err(e) => stats
                .spirv_failures
                .push(format!("{at} (-spirv): {e}\n--- shader:\n{hlsl}")),
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
    let cbuffers = compiled.cbuffers();
    stats.storages += ctx.plan.storages.len().saturating_sub(1);
    for (c, real) in ctx.plan.names.cbuffers.iter().zip(&ctx.plan.real.cbuffers) {
        stats.cbuffers += 1;
        let members: Vec<(String, Repr)> = c
            .members
            .iter()
            .cloned()
            .zip(real.members.iter().cloned())
            .collect();
        let Some(listed) = cbuffers.iter().find(|b| b.name == c.name) else {
            stats
                .mismatches
                .push(format!("{at}: cbuffer `{}` not in DXC's listing", c.name));
            continue;
        };
        let Some(g) = ctx
            .contract
            .globals
            .iter()
            .find(|g| g.handle == real.global)
        else {
            continue;
        };
        let mut cmp = Cmp {
            ctx: &ctx,
            stats,
            at: format!("{at}: {}", c.name),
        };
        match &g.layout.kind {
            LayoutKind::Struct(h) => {
                let slots: Vec<MemberSlot> = ctx
                    .contract
                    .structs
                    .get(h)
                    .map(|s| s.members().cloned().collect())
                    .unwrap_or_default();
                cmp.members(&listed.members, &members, &slots, 0, &g.name);
            }
            _ => {
                if let Some((name, repr)) = members.first() {
                    cmp.value(&listed.members, name, repr, &g.layout, 0, &g.name);
                }
            }
        }
        // The printed size is the end of the last member: ours must agree.
        let end = real
            .fields
            .iter()
            .map(|f| f.offset + Shape::of(&f.ty).size())
            .max()
            .unwrap_or(0);
        cmp.check("cbuffer size", Some(listed.size), end);
    }
}

fn corpus_sources(dirs: &[&str]) -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = Vec::new();
    for d in dirs {
        let Ok(entries) = std::fs::read_dir(root.join(d)) else {
            continue;
        };
        let mut files: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "wgsl"))
            .collect();
        files.sort();
        for f in files {
            if let Ok(text) = std::fs::read_to_string(&f) {
                let stem = format!(
                    "{d}/{}",
                    f.file_stem()
                        .map_or_else(String::new, |s| s.to_string_lossy().into_owned())
                );
                out.push((stem, text));
            }
        }
    }
    out
}

/// Inline modules exercising what the corpus does not: dialect strides,
/// f16, split matrices in arrays, padded struct variants.
const INLINE: &[(&str, &str)] = &[
    (
        "inline/strides",
        "struct E { a: vec3<f32>, b: f32 }
struct U {
    x: f32,
    @align(16) v: @stride(32) array<vec2<f32>, 3>,
    y: f32,
    es: @stride(48) array<E, 2>,
    z: vec2<f32>,
    @align(16) m: array<mat2x2<f32>, 2>,
    w: f32,
    @align(16) ms: @stride(32) array<mat3x2<f32>, 2>,
    q: u32,
}
@group(0) @binding(0) var<uniform> u: U;
@compute @workgroup_size(1) fn main() { _ = u.x; }",
    ),
    (
        "inline/nested_padding",
        "struct In { a: f32, @align(16) b: f32, c: vec2<f32>, @size(20) d: f32 }
struct Mid { p: f32, i: In, @align(32) t: vec3<f32>, m: mat2x2<f32>, n: mat4x2<f32> }
struct U { head: u32, mid: Mid, tail: f32, mids: array<Mid, 2>, last: vec3<i32> }
@group(0) @binding(1) var<uniform> u: U;
@compute @workgroup_size(1) fn main() { _ = u.head; }",
    ),
    (
        "inline/f16",
        "enable f16;
struct H { a: f16, b: f16, c: vec3<f16>, d: f32, m: mat2x2<f16>, n: mat3x3<f16>, e: vec2<f16> }
struct U { h: H, x: f16, @align(16) y: @stride(16) array<vec4<f16>, 2>, z: f16, k: mat4x4<f16> }
@group(0) @binding(0) var<uniform> u: U;
@group(0) @binding(1) var<storage, read_write> s: U;
@group(0) @binding(2) var<storage, read> r: array<H>;
@compute @workgroup_size(1) fn main() { _ = u.x; }",
    ),
    (
        "inline/non_struct",
        "@group(0) @binding(0) var<uniform> m: mat3x2<f32>;
@group(0) @binding(1) var<uniform> a: array<vec4<u32>, 3>;
@group(0) @binding(2) var<uniform> f: f32;
@group(0) @binding(3) var<uniform> ms: array<mat2x2<f32>, 2>;
@compute @workgroup_size(1) fn main() { _ = f; }",
    ),
    (
        "inline/matrix_tails",
        "struct T { m: mat2x3<f32>, @align(16) f: f32, n: mat3x3<f32>, @align(32) v: vec4<f32>, k: mat4x3<f32> }
struct W { t: T, @align(16) g: f32 }
struct U {
    t: T,
    w: array<W, 2>,
    ms: @stride(64) array<mat2x3<f32>, 2>,
    grid: array<array<mat3x4<f32>, 3>, 2>,
    tails: array<array<mat2x3<f32>, 2>, 2>,
}
@group(0) @binding(0) var<uniform> u: U;
@compute @workgroup_size(1) fn main() { _ = u.t.f; }",
    ),
    (
        "inline/storage_all",
        "struct S { a: u32, b: vec3<f32>, c: i32, m: mat3x3<f32>, n: mat2x2<f32>, arr: array<vec2<i32>, 3>, @align(32) t: f32 }
struct R { head: vec4<f32>, items: array<S> }
@group(0) @binding(0) var<storage, read_write> w: R;
@group(0) @binding(1) var<storage, read> ro: array<S, 2>;
@group(0) @binding(2) var<storage, read_write> nested: array<array<f32, 3>, 2>;
@compute @workgroup_size(1) fn main() { _ = w.head; }",
    ),
];

#[test]
fn dxc_oracle_matches_contract() {
    if !dxc_ready() {
        return;
    }
    let mut sources = corpus_sources(&["corpus/layout", "corpus/dialect"]);
    sources.extend(INLINE.iter().map(|(s, t)| (s.to_string(), t.to_string())));
    let mut stats = Stats::default();
    for (stem, source) in &sources {
        run_one(stem, source, &mut stats);
    }
    // Every count and every listed skip, plan error, failure and mismatch.
    eprintln!("hlsl buffers oracle: {stats:#?}");
    let failures: Vec<&String> = stats
        .mismatches
        .iter()
        .chain(&stats.dxc_failures)
        .chain(&stats.spirv_failures)
        .collect();
    assert!(failures.is_empty(), "{failures:#?}");
    assert!(stats.cbuffers > 10, "too few cbuffers compared: {stats:?}");
}

/// Print the shader of one inline module (for eyeballing: `--nocapture`).
#[test]
fn print_inline_shaders() {
    for (stem, source) in INLINE {
        let fx = match fixture(source) {
            Ok(fx) => fx,
            Err(e) => panic!("{stem}: {e}"),
        };
        let plan = match fx.plan() {
            Ok(p) => p,
            Err(d) => panic!("{stem}: {:?}", d.iter().next()),
        };
        let opts = options(ShaderModel::Sm6_2);
        let ctx = fx.ctx(&opts, plan);
        if std::env::var_os("STRIDE_PRINT_HLSL").is_some() {
            eprintln!("// ---- {stem}\n{}", shader(&ctx));
        }
    }
}

#[test]
fn offsets_fold_constants() {
    let o = ByteOffset::constant;
    assert_eq!(o(0).plus(16).text(), "16u");
    assert_eq!(
        o(16).plus(16).plus_scaled(16, "i").text(),
        "(32u + 16u * i)"
    );
    assert_eq!(
        o(16).plus(16).plus_scaled(16, "i").plus(8).text(),
        "(40u + 16u * i)"
    );
    let base = || ByteOffset::base("o");
    // Indexes come as operands (`Index::Dynamic`).
    assert_eq!(
        base().plus_scaled(4, "(i + 1)").text(),
        "(o + 4u * (i + 1))"
    );
    assert_eq!(base().plus(4).plus(4).text(), "(8u + o)");
    assert_eq!(
        o(0).plus_scaled(64, "id.x").plus(4).text(),
        "(4u + 64u * id.x)"
    );
    assert_eq!(
        o(0).plus_scaled(16, "min(i, 3u)").text(),
        "16u * min(i, 3u)"
    );
    assert!(o(0).plus(0).is_zero());
}

/// A uniform whose layout no cbuffer can hold is declared as `uint4` words
/// read at the contract's offsets, with a note at the global; the other
/// uniforms of the module stay cbuffers.
#[test]
fn inexpressible_uniform_layouts_are_declared_as_words() {
    for (source, why) in [
        // A dialect stride no cbuffer can hold (the WGSL uniform check would
        // also object; the plan must not rely on it).
        (
            "struct U { a: f32, v: @stride(4) array<f32, 4> }
@group(0) @binding(0) var<uniform> u: U;
@group(0) @binding(1) var<uniform> k: vec4<f32>;
@compute @workgroup_size(1) fn main() { _ = u.a; _ = k.x; }",
            "stride 4",
        ),
        // An array that does not start a register.
        (
            "struct U { a: vec2<f32>, v: @stride(16) array<vec2<f32>, 2> }
@group(0) @binding(0) var<uniform> u: U;
@group(0) @binding(1) var<uniform> k: vec4<f32>;
@compute @workgroup_size(1) fn main() { _ = u.a; _ = k.x; }",
            "array at offset 8",
        ),
    ] {
        let fx = fixture(source).unwrap_or_else(|e| panic!("{e}"));
        let plan = fx
            .plan()
            .unwrap_or_else(|e| panic!("{why}: {}", e.render("u.wgsl", source, false)));
        let words: Vec<&str> = plan
            .storages
            .iter()
            .filter(|s| s.words.is_some())
            .map(|s| s.name.as_str())
            .collect();
        assert_eq!(words, ["u"], "{why}");
        assert_eq!(plan.real.cbuffers.len(), 1, "{why}: `k` stays a cbuffer");
        let note = plan.notes.first().expect("a note");
        assert!(note
            .message
            .contains("`u` is declared as a cbuffer of `uint4` words"));
        let span = note.primary_span().expect("a span");
        assert_eq!(&fx.parsed.source[span], "u", "{why}");
    }
}

#[test]
fn verification_catches_overlaps_and_moved_members() {
    let fx = fixture(INLINE[1].1).expect("fixture");
    let plan = fx.plan().expect("plan");
    assert!(verify_plan(&plan).is_empty());
    let mut bad = plan.clone();
    if let Some(f) = bad.real.variants[0].fields.last_mut() {
        f.offset += 4;
    }
    assert!(verify_plan(&bad).iter().any(|p| p.contains("variant")));
    let mut bad = plan.clone();
    let c = &mut bad.real.cbuffers[0];
    let first = c.fields[0].offset;
    c.fields[1].offset = first;
    assert!(
        verify_plan(&bad).iter().any(|p| p.contains("overlaps")),
        "{:?}",
        verify_plan(&bad)
    );
    let mut bad = plan;
    bad.real.cbuffers[0].fields.push(Field {
        ty: LStorage::Vector(3, naga::Scalar::F32),
        offset: 8 + 16 * 40,
        role: Role::Member(0),
    });
    bad.names.cbuffers[0].fields.push("straddle".to_string());
    assert!(!verify_plan(&bad).is_empty());
}

#[test]
fn wide_types_in_byte_address_buffers_need_shader_model_6_2() {
    let source = "enable f16;
@group(0) @binding(0) var<storage, read_write> s: vec2<f16>;
@compute @workgroup_size(1) fn main() { _ = s.x; }";
    let fx = fixture(source).expect("fixture");
    let plan = fx.plan().expect("plan");
    for (model, errors) in [(ShaderModel::Sm6_0, 1), (ShaderModel::Sm6_2, 0)] {
        let opts = options(model);
        let ctx = fx.ctx(&opts, plan.clone());
        let g = ctx.plan.storages[0].global;
        let place = ctx.plan.global(g).expect("place");
        let ty = ctx.module.global_variables[g].ty;
        let mut needs = Needs::default();
        let text = ctx.plan.load(&ctx, &mut needs, &place, ty);
        // From the containing word, not `Load<float16_t2>` (see the
        // module documentation).
        assert_eq!(text, ("_s_rwload_float16_t2(s, 0u)".into(), Prec::Call));
        let helper = &needs.helpers["_s_rwload_float16_t2"];
        assert!(helper.contains("b.Load(o)"), "{helper}");
        assert!(helper.contains("f16tof32(w >> 16u)"), "{helper}");
        assert_eq!(needs.errors.len(), errors, "{model}");
        if let Some(e) = needs.errors.first() {
            assert!(e.notes.iter().any(|n| n.contains("--shader-model 6_2")));
            let span = e.primary_span().expect("span");
            assert_eq!(&fx.parsed.source[span], "s");
        }
    }
}

#[test]
fn cbuffer_places_and_accesses() {
    let source = "struct P { q: f32, r: vec2<f32> }
struct In { a: f32, m: mat2x2<f32>, @align(16) p: P, s: Q }
struct Q { z: vec4<f32> }
struct U { x: f32, @align(16) i: In, @align(16) arr: array<mat2x2<f32>, 2>, v: array<vec4<f32>, 2> }
@group(0) @binding(3) var<uniform> u: U;
@group(0) @binding(4) var<storage, read> b: array<U>;
@compute @workgroup_size(1) fn main() { _ = u.x; }";
    let fx = fixture(source).expect("fixture");
    let plan = fx.plan().expect("plan");
    let opts = options(ShaderModel::Sm6_0);
    let ctx = fx.ctx(&opts, plan);
    let g = ctx.plan.real.cbuffers[0].global;
    let u = ctx.plan.global(g).expect("u");
    let decl = ctx.plan.buffer_declaration(g, "b3, space0");
    assert!(
        decl.starts_with("cbuffer u_cb : register(b3, space0) {\n"),
        "{decl}"
    );
    assert!(
        decl.contains("    float u_x : packoffset(c0.x);\n"),
        "{decl}"
    );
    let text = |p: Place| match p {
        Place::Text { text, .. } => text.into_owned(),
        Place::Bytes(p) => p.offset.text(),
    };
    let i = ctx.plan.member(&ctx, u.clone(), 1);
    let m = ctx.plan.member(&ctx, i.clone(), 1);
    assert_eq!(
        text(ctx.plan.element(m.clone(), Index::Constant(1))),
        "u_i.m_c1"
    );
    assert_eq!(
        text(ctx.plan.element(m.clone(), Index::Dynamic("k"))),
        "(float2x2(u_i.m_c0, u_i.m_c1))[k]"
    );
    // A plain struct inside a variant: members by name.
    let p = ctx.plan.member(&ctx, i.clone(), 2);
    assert_eq!(text(ctx.plan.member(&ctx, p.clone(), 1)), "u_i.p.r");
    let q = ctx.plan.member(&ctx, i.clone(), 3);
    assert!(matches!(
        q,
        Place::Text {
            repr: Repr::Variant(_),
            ..
        }
    ));
    assert_eq!(text(ctx.plan.member(&ctx, q.clone(), 0)), "u_i.s.z");
    let arr = ctx.plan.member(&ctx, u.clone(), 2);
    let e = ctx.plan.element(arr.clone(), Index::Dynamic("j"));
    assert_eq!(
        text(ctx.plan.element(e.clone(), Index::Constant(1))),
        "u_arr[j].v_c1"
    );
    // Storage: offsets fold.
    let sg = ctx.plan.storages[0].global;
    let b = ctx.plan.global(sg).expect("b");
    let e = ctx.plan.element(b.clone(), Index::Dynamic("k"));
    let v = ctx.plan.member(&ctx, e.clone(), 3);
    let v1 = ctx.plan.element(v.clone(), Index::Constant(1));
    let (stride, v_offset) = match &ctx.contract.globals[1].layout.kind {
        LayoutKind::Array {
            stride, element, ..
        } => match element.kind {
            LayoutKind::Struct(h) => (
                *stride,
                ctx.contract.structs[&h]
                    .members()
                    .nth(3)
                    .map_or(0, |m| m.offset),
            ),
            _ => (0, 0),
        },
        _ => (0, 0),
    };
    let want = format!("({}u + {stride}u * k)", v_offset + 16);
    assert_eq!(text(v1.clone()), want);
    let mut needs = Needs::default();
    let ty = ctx
        .module
        .types
        .iter()
        .find(|(_, t)| {
            t.inner
                == naga::TypeInner::Vector {
                    size: naga::VectorSize::Quad,
                    scalar: naga::Scalar::F32,
                }
        })
        .map(|(h, _)| h)
        .expect("vec4");
    assert_eq!(
        ctx.plan.load(&ctx, &mut needs, &v1, ty),
        (format!("asfloat(b.Load4({want}))"), Prec::Call)
    );
    let mut len = String::new();
    let prec = ctx.plan.push_array_length(&mut len, &mut needs, &b);
    assert_eq!(len, format!("(_s_byte_size(b) / {stride}u)"));
    assert_eq!(prec, Prec::Group);
}

#[test]
fn sixteen_bit_stores_keep_the_other_half_of_the_word() {
    let source = "enable f16;
struct S { a: f16, b: f16, c: vec3<f16>, d: vec2<f16> }
@group(0) @binding(0) var<storage, read_write> s: S;
@compute @workgroup_size(1) fn main() { s.a = 1.0h; }";
    let fx = fixture(source).expect("fixture");
    let plan = fx.plan().expect("plan");
    let opts = options(ShaderModel::Sm6_2);
    let ctx = fx.ctx(&opts, plan);
    let g = ctx.plan.storages[0].global;
    let place = ctx.plan.global(g).expect("place");
    let ty = ctx.module.global_variables[g].ty;
    let mut needs = Needs::default();
    let text = ctx.plan.store(&ctx, &mut needs, &place, ty, "v");
    assert!(needs.errors.is_empty());
    assert!(text.contains("_s_store_S("), "{text}");
    let whole = &needs.helpers["_s_store_S"];
    // `b` at byte 2 shares a word with `a`: both go through the atomic
    // half-word store; `c` (bytes 8..14) writes one word and a half.
    assert!(whole.contains("_s_store_float16_t(b, o, v.a)"), "{whole}");
    assert!(
        whole.contains("_s_store_float16_t(b, (2u + o), v.b)"),
        "{whole}"
    );
    let half = &needs.helpers["_s_store_float16_t"];
    assert!(
        half.contains("InterlockedAnd(o & ~3u, ~(0xFFFFu << s))"),
        "{half}"
    );
    assert!(
        half.contains("InterlockedOr(o & ~3u, f32tof16((float)(v)) << s)"),
        "{half}"
    );
    assert!(!half.contains("Store<"), "{half}");
    let vec3 = &needs.helpers["_s_store_float16_t3"];
    assert!(vec3.contains("b.Store(o, "), "{vec3}");
    assert!(
        vec3.contains("_s_store_float16_t(b, o + 4u, v.z)"),
        "{vec3}"
    );
}

#[test]
fn padding_never_sits_in_a_matrix_tail_and_inner_matrix_arrays_are_wrapped() {
    let (_, source) = INLINE
        .iter()
        .find(|(n, _)| *n == "inline/matrix_tails")
        .expect("inline module");
    let fx = fixture(source).expect("fixture");
    let plan = fx.plan().expect("plan");
    // Every padding member in a variant or element struct starts where no
    // `row_major floatCx3` leaves its 4-byte tail.
    let tails = |fields: &[Field], names: &Named| -> Vec<String> {
        let end = |f: &Field| f.offset + Shape::of(&f.ty).size();
        (1..fields.len())
            .filter(|&k| {
                let (a, b) = (&fields[k - 1], &fields[k]);
                b.is_padding()
                    && matches!(a.ty, LStorage::Matrix { .. })
                    && b.offset < end(a).next_multiple_of(16)
            })
            .map(|k| format!("{} after {}", names.fields[k], names.fields[k - 1]))
            .collect()
    };
    for (v, n) in plan.real.variants.iter().zip(&plan.names.variants) {
        assert!(
            tails(&v.fields, n).is_empty(),
            "{}: {:?}",
            n.name,
            tails(&v.fields, n)
        );
    }
    for (e, n) in plan.real.elements.iter().zip(&plan.names.elements) {
        assert!(
            tails(&e.fields, n).is_empty(),
            "{}: {:?}",
            n.name,
            tails(&e.fields, n)
        );
    }
    // `T.m` (a mat2x3 followed by padding) is split; `T.n`, followed by a
    // register-aligned member that needs no padding, is not.
    let t = plan
        .names
        .variants
        .iter()
        .find(|v| v.name == "T_cb")
        .expect("variant T_cb");
    let names: Vec<&str> = t.fields.iter().map(String::as_str).collect();
    assert!(
        names.contains(&"m_c0") && names.contains(&"m_c1"),
        "{names:?}"
    );
    assert!(names.contains(&"n"), "{names:?}");
    // `grid` and `tails`: arrays of arrays of matrices hold element
    // structs, not bare matrices.
    let (c, real) = (&plan.names.cbuffers[0], &plan.real.cbuffers[0]);
    for name in c
        .members
        .iter()
        .filter(|n| n.contains("grid") || n.contains("tails"))
    {
        let k = c.fields.iter().position(|f| f == name).expect("field");
        let f = &real.fields[k];
        let LStorage::Array(inner, _) = &f.ty else {
            panic!("{name}: {:?}", f.ty)
        };
        let LStorage::Array(elem, _) = inner.as_ref() else {
            panic!("{name}: {inner:?}")
        };
        assert!(
            matches!(elem.as_ref(), LStorage::Struct { .. }),
            "{name}: {elem:?}"
        );
    }
}

/// Indent every line of `text` by four spaces.
fn indent(text: &str) -> String {
    text.lines().map(|l| format!("    {l}\n")).collect()
}
