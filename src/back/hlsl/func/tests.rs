//! Unit tests of the function writer: printed HLSL compiled with DXC
//! (HLSL 2018 and 2021, DXIL and SPIR-V checked with spirv-val) when the
//! DXC wrapper is installed.
//!
//! `decl` and `buffers` are other parts of the backend; these tests build
//! their own `Ctx` (names from naga's namer, an empty buffer plan) and
//! assemble the module around the printed functions by hand, so they
//! cover modules without buffers and textures.

use super::expr::{push_as_operand, push_literal, Prec};
use super::*;
use crate::back::common::ModuleSource;
use crate::back::hlsl::{buffers::Plan, HlslOptions};
use crate::layout::RuleSet;
use naga::proc::KeywordSet;
use naga::TypeInner as Ti;
use std::path::{Path, PathBuf};
use std::sync::LazyLock;

/// A few HLSL words the namer must avoid (the module part owns the full
/// list).
static RESERVED: LazyLock<KeywordSet> = LazyLock::new(|| {
    KeywordSet::from_iter(&[
        "float",
        "int",
        "uint",
        "bool",
        "half",
        "double",
        "min",
        "max",
        "main",
        "in",
        "out",
        "inout",
        "register",
        "cbuffer",
        "sample",
        "line",
        "point",
        "triangle",
        "matrix",
        "vector",
        "string",
        "texture",
        "static",
        "const",
        "groupshared",
        "precise",
        "linear",
        "sampler",
        "lerp",
        "mul",
        "dot",
        "abs",
        "select",
        "and",
        "or",
        "not",
        "asm",
        "pass",
        "discard",
        "export",
        "packoffset",
        "row_major",
        "column_major",
        "unorm",
        "snorm",
    ])
});

fn names_for(module: &naga::Module) -> naga::FastHashMap<NameKey, String> {
    let mut names = naga::FastHashMap::default();
    let mut namer = naga::proc::Namer::default();
    namer.reset(
        module,
        &RESERVED,
        KeywordSet::empty(),
        naga::proc::CaseInsensitiveKeywordSet::empty(),
        &["_s_"],
        &mut names,
    );
    names
}

struct Fixture {
    parsed: crate::front::Parsed,
    contract: crate::layout::LayoutModule,
    info: naga::valid::ModuleInfo,
    options: HlslOptions,
}

fn fixture(source: &str) -> Result<Fixture, String> {
    let parsed = crate::front::parse(source).map_err(|d| format!("{d:?}"))?;
    let contract = crate::layout::build(&parsed, RuleSet::Wgsl).map_err(|d| format!("{d:?}"))?;
    let info = crate::front::validate_parsed(&parsed).map_err(|d| format!("{d:?}"))?;
    Ok(Fixture {
        parsed,
        contract,
        info,
        options: HlslOptions::default(),
    })
}

impl Fixture {
    fn ctx(&self) -> Ctx<'_> {
        let source = ModuleSource::parsed(&self.parsed, &self.info, &self.contract);
        let model = self.options.shader_model.unwrap_or_default();
        let names = names_for(&self.parsed.module);
        Ctx::new(source, &self.options, model, names, Plan::default())
    }
}

// ---- assembling a module ----------------------------------------------------

/// Whether function or entry body `f` reaches a buffer, texture or sampler
/// global, or takes a texture or sampler.
fn uses_resources(module: &naga::Module, f: &naga::Function) -> bool {
    let resource_global = f.expressions.iter().any(|(_, e)| match *e {
        naga::Expression::GlobalVariable(g) => !matches!(
            module.global_variables[g].space,
            naga::AddressSpace::Private | naga::AddressSpace::WorkGroup
        ),
        _ => false,
    });
    let resource_arg = f.arguments.iter().any(|a| {
        matches!(
            module.types[a.ty].inner,
            Ti::Image { .. } | Ti::Sampler { .. } | Ti::BindingArray { .. }
        )
    });
    resource_global || resource_arg
}

/// The functions (in arena order) that reach no resources, directly or
/// through their callees.
fn plain_functions(module: &naga::Module) -> Vec<Handle<naga::Function>> {
    let mut ok: Vec<bool> = Vec::new();
    let mut out = Vec::new();
    for (h, f) in module.functions.iter() {
        let mut callees = Vec::new();
        crate::back::common::calls_in(&f.body, &mut callees);
        let good = !uses_resources(module, f)
            && callees
                .iter()
                .all(|c| ok.get(c.index()).copied().unwrap_or(false));
        ok.push(good);
        if good {
            out.push(h);
        }
    }
    out
}

/// Entry points that reach no resources (and whose callees do not).
fn plain_entry_points(module: &naga::Module) -> Vec<usize> {
    let plain = plain_functions(module);
    module
        .entry_points
        .iter()
        .enumerate()
        .filter(|(_, ep)| {
            let mut callees = Vec::new();
            crate::back::common::calls_in(&ep.function.body, &mut callees);
            !uses_resources(module, &ep.function) && callees.iter().all(|c| plain.contains(c))
        })
        .map(|(i, _)| i)
        .collect()
}

/// Test stand-in for `decl::push_entry_return`: evaluates nothing more.
fn test_entry_return(_: &Ctx<'_>, _: usize, _: Option<&str>, out: &mut String) {
    out.push_str("return;\n");
}

/// An entry point written as a plain function `void _s_entry<i>()` whose
/// arguments are zero-valued locals.
fn test_entry(ctx: &Ctx<'_>, needs: &mut Needs, index: usize) -> String {
    let ep = &ctx.module.entry_points[index];
    let mut prologue = String::new();
    for (i, a) in ep.function.arguments.iter().enumerate() {
        let name = ctx.name(NameKey::EntryPointArgument(index as u16, i as u32));
        let t = types::type_name(ctx, a.ty);
        prologue.push_str(&format!("    {t} {name} = ({t})0;\n"));
    }
    let signature = format!("void _s_entry{index}()");
    entry_point_with(ctx, needs, index, &signature, &prologue, test_entry_return)
}

/// The module around `bodies` (functions printed by the writer): value
/// types, constants, private and workgroup globals, helpers, the bodies,
/// and `main`.
fn assemble(ctx: &Ctx<'_>, needs: &mut Needs, bodies: &str, main: &str) -> String {
    let module = ctx.module;
    let mut out = String::from("#pragma pack_matrix(row_major)\n\n");
    out.push_str(&types::struct_declarations(ctx));
    for (h, c) in module.constants.iter() {
        let t = types::type_name(ctx, c.ty);
        let v = const_expression(ctx, needs, c.init);
        out.push_str(&format!(
            "static const {t} {} = {v};\n",
            ctx.name(NameKey::Constant(h))
        ));
    }
    out.push_str("RWByteAddressBuffer _s_out : register(u0);\nstatic uint _s_sink;\n");
    for (h, g) in module.global_variables.iter() {
        let name = ctx.name(NameKey::GlobalVariable(h));
        let t = types::type_name(ctx, g.ty);
        match g.space {
            naga::AddressSpace::Private => {
                let init = match g.init {
                    Some(i) => const_expression(ctx, needs, i),
                    None => types::zero_value(ctx, g.ty),
                };
                out.push_str(&format!("static {t} {name} = {init};\n"));
            }
            naga::AddressSpace::WorkGroup => {
                out.push_str(&format!("groupshared {t} {name};\n"));
            }
            _ => {}
        }
    }
    out.push('\n');
    for h in needs.helpers.values() {
        out.push_str(h);
        out.push('\n');
    }
    out.push_str(bodies);
    out.push_str(main);
    out
}

// ---- running DXC ------------------------------------------------------------

fn dxc_path() -> Option<PathBuf> {
    let home = std::env::var_os("HOME")?;
    let p = Path::new(&home).join(".cache/stride-tools/dxc/stride-dxc");
    p.exists().then_some(p)
}

fn temp_file(stem: &str, ext: &str) -> PathBuf {
    static COUNTER: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    std::env::temp_dir().join(format!(
        "stride-hlsl-func-{}-{stem}-{n}.{ext}",
        std::process::id()
    ))
}

/// Compile `text` with DXC for `profile` (with `args`); `Err` holds the
/// diagnostics and the source.
fn dxc(
    dxc: &Path,
    text: &str,
    profile: &str,
    entry: Option<&str>,
    args: &[&str],
) -> Result<(), String> {
    let file = temp_file("t", "hlsl");
    std::fs::write(&file, text).map_err(|e| e.to_string())?;
    // `STRIDE_HLSL_FUNC_DUMP=<folder>` keeps every compiled file.
    if let Some(dir) = std::env::var_os("STRIDE_HLSL_FUNC_DUMP") {
        if let Some(name) = file.file_name() {
            let _ = std::fs::copy(&file, Path::new(&dir).join(name));
        }
    }
    let mut cmd = std::process::Command::new(dxc);
    cmd.args(["-T", profile]);
    if let Some(e) = entry {
        cmd.args(["-E", e]);
    }
    cmd.args(args);
    let spv = temp_file("t", "spv");
    let spirv = args.contains(&"-spirv");
    if spirv {
        cmd.arg("-Fo").arg(&spv);
    } else {
        cmd.args(["-Fc", "-"]);
    }
    cmd.arg(&file);
    let out = cmd.output().map_err(|e| e.to_string())?;
    let _ = std::fs::remove_file(&file);
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    if !out.status.success() {
        return Err(format!(
            "{profile} {args:?}:\n{stderr}\n---- source:\n{text}"
        ));
    }
    if spirv {
        let val = std::process::Command::new("spirv-val").arg(&spv).output();
        let _ = std::fs::remove_file(&spv);
        match val {
            Ok(v) if !v.status.success() => {
                return Err(format!(
                    "spirv-val: {}{}\n---- source:\n{text}",
                    String::from_utf8_lossy(&v.stdout),
                    String::from_utf8_lossy(&v.stderr)
                ))
            }
            Ok(_) => {}
            Err(_) => eprintln!("spirv-val not found: SPIR-V not validated"),
        }
    }
    Ok(())
}

/// Compile a compute shader with entry `main` as HLSL 2018, HLSL 2021
/// and SPIR-V (validated).
fn compile_all(text: &str, profile: &str, extra: &[&str]) -> Result<(), String> {
    let Some(d) = dxc_path() else {
        eprintln!("DXC wrapper not installed (~/.cache/stride-tools/dxc/stride-dxc): skipping compilation");
        return Ok(());
    };
    let e = Some("main");
    dxc(&d, text, profile, e, extra)?;
    let mut hv = extra.to_vec();
    hv.extend(["-HV", "2021"]);
    dxc(&d, text, profile, e, &hv)?;
    let mut sp = extra.to_vec();
    sp.push("-spirv");
    dxc(&d, text, profile, e, &sp)?;
    Ok(())
}

/// Print every function of `source` and compile it with `main` (HLSL)
/// calling them.
fn print_module(source: &str, main: &str, entries: bool) -> (String, Vec<String>) {
    let fx = match fixture(source) {
        Ok(f) => f,
        Err(e) => panic!("fixture: {e}"),
    };
    let ctx = fx.ctx();
    let mut needs = Needs::default();
    let mut bodies = String::new();
    for (h, _) in ctx.module.functions.iter() {
        bodies.push_str(&write_function(&ctx, &mut needs, h));
        bodies.push('\n');
    }
    if entries {
        for i in 0..ctx.module.entry_points.len() {
            bodies.push_str(&test_entry(&ctx, &mut needs, i));
            bodies.push('\n');
        }
    }
    let text = assemble(&ctx, &mut needs, &bodies, main);
    let errors = needs.errors.iter().map(|e| format!("{e:?}")).collect();
    (text, errors)
}

// ---- the tests ----------------------------------------------------------------

const CORE: &str = r#"
struct Light { pos: vec3<f32>, color: vec4<f32>, ids: array<u32, 3> }
struct Pair { a: i32, b: u32 }
const K: array<f32, 4> = array<f32, 4>(1.0, 2.0, 3.0, 4.0);
const L: Light = Light(vec3(1.0), vec4(0.5), array<u32, 3>(1u, 2u, 3u));
const M: mat2x3<f32> = mat2x3<f32>(vec3(1.0, 2.0, 3.0), vec3(4.0, 5.0, 6.0));
var<private> counter: u32 = 3u;
var<private> lights: array<Light, 2>;
var<workgroup> shared_sum: atomic<u32>;
var<workgroup> shared_i: atomic<i32>;
var<workgroup> tile: array<vec4<f32>, 16>;

fn int_ops(a: i32, b: i32, u: u32, v: u32) -> vec4<i32> {
    let d = a / b;
    let m = a % b;
    let ud = u / v;
    let um = u % v;
    let s = (a << u) ^ (a >> v);
    let us = (u << v) | (v >> u) | (u << 31u);
    let vd = vec3(a, b, a) / vec3(b, a, 2);
    let vm = vec3(u, v, 3u) % v;
    let neg = -a;
    let inv = ~u;
    return vec4(d + m + i32(ud + um) + s + neg, i32(us + inv), vd.x + i32(vm.y), -2147483647 - 1);
}

fn float_ops(x: f32, y: f32) -> vec4<f32> {
    let m = x % y;
    let v = vec3(x, y, 1.5) % vec3(y);
    let i = i32(x);
    let u = u32(y);
    let bits = bitcast<u32>(x);
    let back = bitcast<f32>(bits + 1u);
    let iv = vec2<i32>(vec2(x, y));
    let ib = bitcast<vec2<f32>>(iv);
    let b = bool(x);
    let fb = f32(b) + f32(vec2<bool>(iv).y);
    return vec4(m + v.z + ib.x + fb, f32(i) + f32(u), back, f32(iv.y) * -0.25);
}

fn bool_ops(a: vec3<bool>, b: vec3<bool>, c: bool, x: vec3<f32>) -> vec3<f32> {
    let and_ = a & b;
    let or_ = a | b;
    let x_ = a != b;
    let n = !a;
    let sel = select(x, vec3(1.0), and_);
    let sel2 = select(x, -x, (c && any(or_)) || all(n));
    let cmp = x < sel;
    let s = select(1, 2, c & !c | (c != c));
    return select(sel, sel2, cmp | x_) * f32(s);
}

fn matrices(m: mat3x4<f32>, n: mat4x3<f32>, v: vec3<f32>, w: vec4<f32>) -> vec4<f32> {
    let mv = m * v;
    let wm = w * m;
    let mn = m * n;
    let nm = n * m;
    let s = m * 2.0;
    let s2 = 0.5 * m;
    let sum = m + s - s2;
    let t = transpose(m);
    var col = m[1];
    let d = determinant(nm);
    var mm = m;
    mm[2] = w;
    mm[0].y = 5.0;
    mm[u32(d) % 3u][2] = 1.0;
    let dyn_ = mm[u32(d) % 3u];
    let built = mat2x2<f32>(1.0, 2.0, 3.0, 4.0);
    return mv + mn[0] + vec4(wm, d) + sum[2] + t[1].xyzz + col + dyn_ + vec4(built[1], M[1].yz);
}

fn arrays(i: i32, p: ptr<function, array<f32, 4>>, light: ptr<private, Light>) -> f32 {
    var a = K;
    a[i] = 2.0;
    (*p)[i] = a[3 - i];
    var l = L;
    l.ids[i] = 7u;
    (*light).color.w = f32(l.ids[u32(i)]);
    (*light).pos[i] = 1.0;
    let arr = array<vec2<f32>, 2>(vec2(1.0), vec2(f32(i)));
    let st = Pair(i, 3u);
    let nested = array<Pair, 2>(st, Pair(-1, 0u));
    return a[0] + (*p)[1] + arr[i].y + f32(st.a) + f32(st.b) + lights[i].pos.x + f32(nested[1].a) + K[i];
}

fn loops(n: i32) -> i32 {
    var sum = 0;
    for (var i = 0; i < n; i++) {
        if (i == 3) {
            continue;
        }
        switch i {
            case 0, 1: {
                sum += 1;
            }
            case 5: {
                continue;
            }
            case 7: {
                break;
            }
            default: {
                sum += i;
            }
        }
        sum += 2;
    }
    var j = 0u;
    loop {
        let k = j * 2u;
        j += 1u;
        if (j > 10u) {
            break;
        }
        continuing {
            sum += i32(k);
            break if k > 12u;
        }
    }
    while (sum > 100) {
        sum -= 7;
    }
    switch (n) {
        default: {
            sum += 1;
        }
    }
    switch (u32(n)) {
        case 1u: {
            return 3;
        }
        default: {}
    }
    return sum;
}

fn atomics(v: u32) -> u32 {
    let a = atomicAdd(&shared_sum, v);
    atomicSub(&shared_sum, 1u);
    let b = atomicMax(&shared_sum, v);
    let c = atomicExchange(&shared_sum, 4u);
    atomicExchange(&shared_sum, 5u);
    atomicStore(&shared_sum, a);
    let d = atomicLoad(&shared_sum);
    let e = atomicCompareExchangeWeak(&shared_i, 1, 2);
    let f = atomicMin(&shared_i, -3);
    atomicOr(&shared_sum, 8u);
    atomicAnd(&shared_sum, 9u);
    atomicXor(&shared_sum, 10u);
    atomicSub(&shared_i, 2);
    workgroupBarrier();
    storageBarrier();
    tile[v % 16u] = vec4(f32(v));
    let g = workgroupUniformLoad(&tile);
    return a + b + c + d + u32(e.old_value) + select(0u, 1u, e.exchanged) + u32(f) + u32(g[2].x);
}

fn inc(p: ptr<function, i32>) {
    *p += 1;
}

fn inc_private(p: ptr<private, u32>) -> u32 {
    *p += 1u;
    return *p;
}

fn calls() -> i32 {
    var x = 1;
    inc(&x);
    inc(&x);
    let y = inc_private(&counter);
    return x + i32(y);
}

fn wide(a: i64, b: u64, d: f64) -> vec3<f64> {
    let q = a / 3li;
    let r = b % 5lu;
    let s = (a << 40u) + i64(b >> 2u);
    let m = d % 1.5lf;
    let v = vec2(d, 2.0lf) % vec2(0.75lf);
    let bits = bitcast<u64>(d);
    let back = bitcast<f64>(bits ^ 1lu);
    let i = i32(d);
    let u = u32(d);
    return vec3(f64(q) + f64(r) + m + v.y, f64(s) + back, f64(i) + f64(u));
}

@compute @workgroup_size(1)
fn cs(@builtin(global_invocation_id) id: vec3<u32>, @builtin(local_invocation_index) li: u32) {
    var acc = atomics(id.x + li);
    if (id.y > 2u) {
        return;
    }
    acc += u32(calls());
    counter = acc;
}
"#;

const CORE_MAIN: &str = r#"
[numthreads(1, 1, 1)]
void main(uint3 gid : SV_DispatchThreadID)
{
    int i = (int)gid.x;
    uint u = gid.y;
    float f = (float)gid.z * 0.5f;
    _s_out.Store4(0, asuint(int_ops(i, i - 1, u, u + 1u)));
    _s_out.Store4(16, asuint(float_ops(f, f - 2.0f)));
    _s_out.Store3(32, asuint(bool_ops(gid > 1u, gid < 3u, i > 2, (float3)gid)));
    float3x4 m = float3x4(f, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11);
    float4x3 n = transpose(m);
    _s_out.Store4(48, asuint(matrices(m, n, (float3)gid, float4(f, f, 1.0f, 2.0f))));
    _s_array4_float a = (_s_array4_float)0;
    _s_out.Store(64, asuint(arrays(i & 1, a, lights[1])));
    _s_out.Store(68, asuint(loops(i)));
    _s_out.Store(72, atomics(u));
    _s_out.Store(76, asuint(calls()));
    double3 w = wide((int64_t)i, (uint64_t)u, (double)f);
    _s_out.Store(80, (uint)w.x + (uint)w.y + (uint)w.z);
    _s_entry0();
    _s_out.Store(84, _s_sink + counter);
}
"#;

#[test]
fn core_constructs_compile() {
    let (text, errors) = print_module(CORE, CORE_MAIN, true);
    assert!(errors.is_empty(), "{errors:?}\n{text}");
    // Spot checks of the spellings.
    for needle in [
        "mul(",
        "_s_div_int(",
        "_s_mod_uint3(",
        "_s_select_float3(",
        "_s_and_bool3(",
        "_s_make_Pair(",
        "_s_make__s_array2_float2(",
        "InterlockedCompareExchange(shared_i",
        "InterlockedAdd(shared_sum, -(1u)",
        "GroupMemoryBarrierWithGroupSync();",
        "DeviceMemoryBarrierWithGroupSync();",
        "(-2147483647 - 1)",
        "clamp(",
        "asuint(",
        "inout int p",
        "_s_fmod_double(",
        "_s_loop_init",
    ] {
        assert!(text.contains(needle), "missing `{needle}` in\n{text}");
    }
    assert!(
        !text.contains(" ? ") || !text.contains("bool3 c ?"),
        "{text}"
    );
    if let Err(e) = compile_all(&text, "cs_6_0", &[]) {
        panic!("{e}");
    }
}

const HALF: &str = r#"
enable f16;
struct H { a: f16, v: vec3<f16> }
fn halves(x: f16, v: vec4<f16>, m: mat2x2<f16>) -> vec4<f16> {
    let q = x % 1.5h;
    let u = u32(x);
    let i = i32(x);
    let bits = bitcast<u16>(0u);
    let s = H(x, v.xyz);
    let mv = m * v.xy;
    let c = vec4<f16>(vec4<f32>(v) * 2.0);
    let w = bitcast<vec2<f16>>(u);
    return vec4(q, f16(u) + f16(i), s.v.y + mv.x + w.y, 65504.0h) + c;
}
"#;

#[test]
fn half_precision_compiles() {
    // naga has no `u16` bitcast: drop that line.
    let source = HALF.replace("    let bits = bitcast<u16>(0u);\n", "");
    let main = r#"
[numthreads(1, 1, 1)]
void main(uint3 gid : SV_DispatchThreadID)
{
    float16_t2x2 m = float16_t2x2(1.0h, 2.0h, 3.0h, 4.0h);
    float16_t4 r = halves((float16_t)gid.x, (float16_t4)gid.xyzz, m);
    _s_out.Store4(0, (uint4)r);
}
"#;
    let fx = fixture(&source);
    let Ok(fx) = fx else {
        // naga cannot take a size-changing bitcast: test without it.
        let source = source
            .replace("    let w = bitcast<vec2<f16>>(u);\n", "")
            .replace(" + w.y", "");
        let (text, errors) = print_module(&source, main, false);
        assert!(errors.is_empty(), "{errors:?}\n{text}");
        if let Err(e) = compile_all(&text, "cs_6_2", &["-enable-16bit-types"]) {
            panic!("{e}");
        }
        return;
    };
    drop(fx);
    let (text, errors) = print_module(&source, main, false);
    assert!(errors.is_empty(), "{errors:?}\n{text}");
    if let Err(e) = compile_all(&text, "cs_6_2", &["-enable-16bit-types"]) {
        panic!("{e}");
    }
}

#[test]
fn unsupported_constructs_are_errors() {
    let source = r#"
var<workgroup> w: atomic<i64>;
fn f() -> i64 {
    return atomicMax(&w, 1li);
}
"#;
    if fixture(source).is_ok() {
        let (_, errors) = print_module(source, "", false);
        assert!(errors.iter().any(|e| e.contains("6.6")), "{errors:?}");
    }
}

/// Every function and entry point of `corpus/shaders` that reaches no
/// buffer, texture or sampler, printed and compiled as a library
/// (`lib_6_3`, HLSL 2018 and 2021).
#[test]
fn corpus_functions_compile() {
    let Ok(entries) = std::fs::read_dir("corpus/shaders") else {
        eprintln!("corpus/shaders not found: skipping");
        return;
    };
    let mut paths: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    paths.retain(|p| p.extension().and_then(|e| e.to_str()) == Some("wgsl"));
    paths.sort();
    let d = dxc_path();
    let mut failures = Vec::new();
    let mut printed = 0;
    for path in paths {
        let source = std::fs::read_to_string(&path).unwrap_or_default();
        let Ok(fx) = fixture(&source) else {
            continue;
        };
        if !fx.parsed.module.overrides.is_empty() {
            continue;
        }
        let ctx = fx.ctx();
        let module = ctx.module;
        let mut needs = Needs::default();
        let mut bodies = String::new();
        for h in plain_functions(module) {
            let f = &module.functions[h];
            // Export only what a library can export: value parameters.
            let keep = !f
                .arguments
                .iter()
                .any(|a| matches!(module.types[a.ty].inner, Ti::Pointer { .. }));
            let text = write_function(&ctx, &mut needs, h);
            let text = if keep { format!("export {text}") } else { text };
            bodies.push_str(&text);
            bodies.push('\n');
            printed += 1;
        }
        for i in plain_entry_points(module) {
            bodies.push_str("export ");
            bodies.push_str(&test_entry(&ctx, &mut needs, i));
            bodies.push('\n');
            printed += 1;
        }
        if bodies.is_empty() {
            continue;
        }
        let text = assemble(&ctx, &mut needs, &bodies, "");
        let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("?");
        if !needs.errors.is_empty() {
            let stand_in = needs
                .errors
                .iter()
                .all(|e| e.message.starts_with("test stand-in"));
            if stand_in {
                eprintln!("{stem}: skipped (math functions the test stand-in lacks)");
            } else {
                failures.push(format!("{stem}: {:?}", needs.errors));
            }
            continue;
        }
        let Some(d) = d.as_deref() else {
            continue;
        };
        let f16 = source.contains("enable f16");
        let args: Vec<&str> = if f16 {
            vec!["-enable-16bit-types"]
        } else {
            vec![]
        };
        if let Err(e) = dxc(d, &text, "lib_6_3", None, &args) {
            failures.push(format!("{stem}: {e}"));
            continue;
        }
        let mut hv = args.clone();
        hv.extend(["-HV", "2021"]);
        if let Err(e) = dxc(d, &text, "lib_6_3", None, &hv) {
            failures.push(format!("{stem} (2021): {e}"));
        }
    }
    if d.is_none() {
        eprintln!("DXC wrapper not installed: corpus functions printed, not compiled");
    }
    assert!(printed > 0);
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// [`push_literal`] of `lit`, in a string of its own.
fn literal_text(lit: naga::Literal) -> String {
    let mut text = String::new();
    push_literal(&mut text, lit);
    text
}

#[test]
fn literals() {
    use naga::Literal as L;
    let f32_text = |v| literal_text(L::F32(v));
    assert_eq!(f32_text(1.0), "1.0f");
    assert_eq!(f32_text(1e-7), "1e-7f");
    assert_eq!(f32_text(-2.5), "(-2.5f)");
    assert_eq!(f32_text(f32::INFINITY), "asfloat(0x7f800000u)");
    assert_eq!(literal_text(L::F64(0.5)), "0.5L");
    assert_eq!(literal_text(L::F64(-0.5)), "(-0.5L)");
    let f16 = L::new(
        1,
        naga::Scalar {
            kind: naga::ScalarKind::Float,
            width: 2,
        },
    );
    assert_eq!(f16.map(literal_text).as_deref(), Some("1.0h"));
    assert_eq!(literal_text(L::I64(-3)), "(-3L)");
    assert_eq!(
        literal_text(L::I64(i64::MIN)),
        "(-9223372036854775807L - 1L)"
    );
    assert_eq!(literal_text(L::I16(-3)), "int16_t(-3)");
    assert_eq!(literal_text(L::U64(7)), "7UL");
    assert_eq!(literal_text(L::I32(i32::MIN)), "(-2147483647 - 1)");
    assert_eq!(literal_text(L::I32(-5)), "(-5)");
    for v in [0.1f32, 3.4028235e38, 1.175_494_4e-38, 16777216.0] {
        let t = f32_text(v);
        assert_eq!(t.trim_end_matches('f').parse::<f32>().ok(), Some(v), "{t}");
    }
}

#[test]
fn operand_wrapping() {
    // Decided by class.
    let op = |t: &str, p| {
        let mut out = String::new();
        let p = push_as_operand(&mut out, t, p);
        (out, p)
    };
    assert_eq!(op("a", Prec::Word), ("a".into(), Prec::Word));
    assert_eq!(op("f(a)", Prec::Call), ("f(a)".into(), Prec::Call));
    assert_eq!(op("(a + b)", Prec::Group), ("(a + b)".into(), Prec::Group));
    assert_eq!(op("a + b", Prec::Operator), ("(a + b)".into(), Prec::Group));
    assert_eq!(op("a.x", Prec::Postfix), ("(a.x)".into(), Prec::Group));
    assert_eq!(op("1u", Prec::Number), ("(1u)".into(), Prec::Group));
    // Texts the buffer plan prints, by the class it gives them.
    use crate::back::hlsl::buffers::place_prec;
    assert_eq!(op("a", place_prec(true)), ("a".into(), Prec::Word));
    assert_eq!(op("a.b[1]", place_prec(false)).0, "(a.b[1])");
    assert_eq!(op("b.Load(0u)", Prec::Postfix).0, "(b.Load(0u))");
    assert_eq!(op("(int64_t)(x)", Prec::Operator).0, "((int64_t)(x))");
}
