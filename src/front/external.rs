//! `texture_external`, lowered once in the front end into what every target
//! has: two plane textures and a uniform buffer of conversion parameters,
//! read by helper functions. Backends, reflection and the layout contract
//! then see ordinary resources.
//!
//! ```wgsl
//! @group(0) @binding(3) var t: texture_external;
//! ```
//!
//! becomes
//!
//! - `t: texture_2d<f32>` at `@binding(3)`: plane 0 (Y, or RGBA for a
//!   one-plane texture), so host code binds the main plane where it did;
//! - `t_uv: texture_2d<f32>`: plane 1 (interleaved
//!   UV/CbCr);
//! - `var<uniform> t_params: ExternalTextureParams` at `@binding(5)`.
//!
//! A `texture_external` is one parameter of three bindings in the sense of
//! spec/001: with `@binding(b)` written, the three are `b`, `b + 1`,
//! `b + 2`; without it, the first free range of three in its group
//! ([`super::bindings`]). A name already taken gets `_` appended.
//!
//! `ExternalTextureParams` has wgpu's layout and meaning (naga's
//! `NagaExternalTextureParams`, 208 bytes), so a wgpu-style host fills it
//! as it is: `num_planes` 1 reads plane 0 as it is; 2 reads Y from plane 0
//! and UV from plane 1, converts with `yuv_conversion_matrix`, decodes with
//! `src_tf`, converts the gamut and encodes with `dst_tf`. `sample_transform`
//! and `load_transform` map the visible rectangle (crop, flip, rotation)
//! into plane 0's normalized and texel coordinates; `size` is the visible
//! size (zero: plane 0's size).
//!
//! The rewrite has two parts. [`append`] (text, after the split) appends
//! the declarations, the parameter struct and the helper functions, written
//! in WGSL, to the source naga parses; the appended text maps back to the
//! `texture_external` declaration. [`lower`] (naga IR, before the binding
//! assignment) retypes the global to `texture_2d<f32>`, makes it the
//! helpers' plane 0 (the helpers take plane 0 as their first parameter so
//! that naga can parse them; the parameter is replaced by the global), and
//! turns every `textureLoad`, `textureSampleBaseClampToEdge` and
//! `textureDimensions` of it into a call. Any other use is an error at its
//! span.

use super::dialect::{parse_literal, Annotations, GlobalAnn, Spanned};
use super::scan::{lex, ItemKind, LexKind, Name, ScannedModule};
use super::split::{Field, Param, SourceMap};
use crate::diag::{Diagnostic, Diagnostics, Span};
use naga::{Expression, Function, Handle, ImageClass, Statement, TypeInner};
use std::collections::{HashMap, HashSet};

/// One lowered `texture_external` and the names it was given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct External {
    /// The variable: plane 0 after lowering.
    pub name: Name,
    pub name_span: Span,
    /// The whole declaration.
    pub span: Span,
    pub plane1: String,
    pub params: String,
    /// The conversion helper the texture's helpers call (shared).
    pub yuv: String,
    /// `@binding(b)` as written: plane 0's; `None` when allocated.
    pub binding: Option<u32>,
    /// The helper functions, where the module calls the builtin at all.
    pub load: Option<String>,
    /// The sampling helpers: one per module-scope sampler the source
    /// samples the texture with (`Some(sampler)`, which the helper reads
    /// directly, as OpenGL needs), and one taking the sampler as a
    /// parameter (`None`) where the sampler is something else.
    pub samples: Vec<(Option<Name>, String)>,
    pub dimensions: Option<String>,
}

impl External {
    /// The globals it becomes, in binding order.
    pub fn globals(&self) -> impl Iterator<Item = &str> {
        [self.name.as_str(), &self.plane1, &self.params].into_iter()
    }

    /// The globals whose bindings stride allocates, as one range: all
    /// three, or plane 1 and the parameters where plane 0's is written.
    pub fn allocated(&self) -> impl Iterator<Item = &str> {
        self.globals().skip(usize::from(self.binding.is_some()))
    }
}

/// One `texture_external` [`append`] lowers: a module-scope variable, or a
/// resource-struct member the split made into a global.
struct Source {
    name: Name,
    name_span: Span,
    /// The declaration (the parameter's, for a member).
    span: Span,
    /// `@group` as written on a module-scope variable.
    group: Option<Spanned<u32>>,
    /// Plane 0's binding as written.
    binding: Option<u32>,
    /// A member whose parameter's bindings are written: the group's text
    /// and plane 1's binding (the parameter buffer's is the next).
    written: Option<(String, u32)>,
}

/// The globals resource-struct parameter `p` becomes, in binding order
/// (spec/001: one range): its data buffer, then each resource member's
/// global, a `texture_external` member's followed by the plane 1 and
/// parameter buffer [`append`] declared for it. Each comes with the member
/// it stores (`None`: the data buffer).
pub fn param_globals<'a>(
    p: &'a Param,
    externals: &'a [External],
) -> Vec<(Option<&'a Field>, &'a str)> {
    let mut out = Vec::with_capacity(p.fields.len() + 1);
    if p.data {
        out.push((None, p.name.as_str()));
    }
    for f in &p.fields {
        out.push((Some(f), f.global.as_str()));
        if let Some(e) = externals.iter().find(|e| e.name == f.global) {
            out.extend([(Some(f), e.plane1.as_str()), (Some(f), e.params.as_str())]);
        }
    }
    out
}

/// The parameter struct and its transfer function, shared by every external
/// texture. `{P}`, `{TF}` are the names.
const SHARED: &str = "
struct {TF} { a: f32, b: f32, g: f32, k: f32 }
struct {P} {
    yuv_conversion_matrix: mat4x4<f32>,
    gamut_conversion_matrix: mat3x3<f32>,
    src_tf: {TF},
    dst_tf: {TF},
    sample_transform: mat3x2<f32>,
    load_transform: mat3x2<f32>,
    size: vec2<u32>,
    num_planes: u32,
}
";

/// The conversion of two planes' values to RGB, which the load and sample
/// helpers share.
const YUV: &str = "
fn {YUV}(y: f32, uv: vec2<f32>, yuv: mat4x4<f32>, gamut: mat3x3<f32>, src: {TF}, dst: {TF}) -> vec4<f32> {
    let gamma = (yuv * vec4<f32>(y, uv, 1.0)).rgb;
    let linear = select(pow((gamma + src.a - 1.0) / src.a, vec3<f32>(src.g)), gamma / src.k, gamma < vec3<f32>(src.k * src.b));
    let out = gamut * linear;
    let encoded = select(dst.a * pow(out, vec3<f32>(1.0 / dst.g)) - (dst.a - 1.0), dst.k * out, out < vec3<f32>(dst.b));
    return vec4<f32>(encoded, 1.0);
}
";

/// Per external texture `{T}`: its plane 1 and parameters `{T1}`, `{TP}`.
const GLOBALS: &str = "
var {T1}: texture_2d<f32>;
var<uniform> {TP}: {P};
";

/// [`GLOBALS`] with the bindings written: a resource-struct member whose
/// parameter's `@binding` is written (`{G}`, `{B1}`, `{B2}`).
const GLOBALS_AT: &str = "
@group({G}) @binding({B1}) var {T1}: texture_2d<f32>;
@group({G}) @binding({B2}) var<uniform> {TP}: {P};
";

const LOAD: &str = "
fn {F}(plane0: texture_2d<f32>, coords: vec2<u32>) -> vec4<f32> {
    let size0 = textureDimensions(plane0);
    let size = select(size0, {TP}.size, any({TP}.size != vec2<u32>(0u)));
    let c = vec3<f32>(vec2<f32>(min(coords, size - 1u)), 1.0);
    let c0 = vec2<u32>(round({TP}.load_transform * c));
    if {TP}.num_planes == 1u {
        return textureLoad(plane0, c0, 0);
    }
    let c1 = vec2<u32>(floor(vec2<f32>(c0) * vec2<f32>(textureDimensions({T1})) / vec2<f32>(size0)));
    return {YUV}(textureLoad(plane0, c0, 0).x, textureLoad({T1}, c1, 0).xy, {TP}.yuv_conversion_matrix, {TP}.gamut_conversion_matrix, {TP}.src_tf, {TP}.dst_tf);
}
";

const SAMPLE: &str = "
fn {F}(plane0: texture_2d<f32>, s: sampler, coords: vec2<f32>) -> vec4<f32> {
    let m = {TP}.sample_transform;
    let c = m * vec3<f32>(coords, 1.0);
    let corner0 = m * vec3<f32>(0.0, 0.0, 1.0);
    let corner1 = m * vec3<f32>(1.0, 1.0, 1.0);
    let lo = min(corner0, corner1);
    let hi = max(corner0, corner1);
    let half0 = vec2<f32>(0.5) / vec2<f32>(textureDimensions(plane0));
    let c0 = clamp(c, lo + half0, hi - half0);
    if {TP}.num_planes == 1u {
        return textureSampleLevel(plane0, s, c0, 0.0);
    }
    let half1 = vec2<f32>(0.5) / vec2<f32>(textureDimensions({T1}));
    let c1 = clamp(c, lo + half1, hi - half1);
    return {YUV}(textureSampleLevel(plane0, s, c0, 0.0).x, textureSampleLevel({T1}, s, c1, 0.0).xy, {TP}.yuv_conversion_matrix, {TP}.gamut_conversion_matrix, {TP}.src_tf, {TP}.dst_tf);
}
";

const DIMENSIONS: &str = "
fn {F}(plane0: texture_2d<f32>) -> vec2<u32> {
    let size = {TP}.size;
    return select(textureDimensions(plane0), size, any(size != vec2<u32>(0u)));
}
";

/// `text` with each `{KEY}` replaced.
fn fill(text: &str, names: &[(&str, &str)]) -> String {
    names.iter().fold(text.to_string(), |t, (k, v)| {
        t.replace(&format!("{{{k}}}"), v)
    })
}

/// `want`, or `want` with `_` appended until no module-scope name has it.
fn unique(taken: &mut HashSet<String>, want: String) -> String {
    let mut name = want;
    while taken.contains(&name) {
        name.push('_');
    }
    taken.insert(name.clone());
    name
}

/// What the function bodies call on texture_external variables, from their
/// tokens: whether they call each builtin at all, and per variable the
/// samplers `textureSampleBaseClampToEdge` names (`None`: not a plain
/// module-scope sampler). A helper made for a name that turns out not to
/// be a texture_external is only unused.
#[derive(Default)]
struct Uses {
    load: bool,
    dimensions: bool,
    samplers: HashMap<Name, Vec<Option<Name>>>,
}

fn uses(source: &str, scanned: &ScannedModule, vars: &HashSet<&str>) -> Uses {
    let mut uses = Uses::default();
    for item in &scanned.items {
        if !matches!(item.kind, ItemKind::Fn { .. }) {
            continue;
        }
        let toks = lex(source, item.span.clone());
        let text = |i: usize| toks.get(i).map(|(_, span)| &source[span.clone()]);
        for (i, (kind, span)) in toks.iter().enumerate() {
            if *kind != LexKind::Ident {
                continue;
            }
            match &source[span.clone()] {
                "textureLoad" => uses.load = true,
                "textureDimensions" => uses.dimensions = true,
                "textureSampleBaseClampToEdge" => {
                    // `name` or a member path `a.b` (a resource struct's
                    // member, which the split made the global `a_b`): the
                    // global's name, and the token after it.
                    let path = |mut at: usize| -> Option<(String, usize)> {
                        let mut name = text(at)?.to_string();
                        while text(at + 1) == Some(".") {
                            name.push('_');
                            name.push_str(text(at + 2)?);
                            at += 2;
                        }
                        Some((name, at + 1))
                    };
                    if text(i + 1) != Some("(") {
                        continue;
                    }
                    let Some((texture, next)) = path(i + 2) else {
                        continue;
                    };
                    let sampler = match (text(next), path(next + 1)) {
                        (Some(","), Some((s, after)))
                            if text(after) == Some(",") && vars.contains(s.as_str()) =>
                        {
                            Some(Name::from(s))
                        }
                        _ => None,
                    };
                    let list = uses.samplers.entry(Name::from(texture)).or_default();
                    if !list.contains(&sampler) {
                        list.push(sampler);
                    }
                }
                _ => {}
            }
        }
    }
    uses
}

/// Append the declarations and helpers of every module-scope
/// `texture_external` to `standard`, mapped back through `map` to the
/// declaration; the lowered textures go into `ann.externals`.
pub fn append(
    source: &str,
    scanned: &ScannedModule,
    standard: &mut String,
    map: &mut SourceMap,
    ann: &mut Annotations,
) -> Result<(), Diagnostics> {
    let is_external = |ty: &Option<super::scan::TypeExpr>| {
        ty.as_ref().is_some_and(|t| t.name == "texture_external")
    };
    let found = scanned
        .items
        .iter()
        .any(|i| matches!(&i.kind, ItemKind::Var(v) if is_external(&v.ty)))
        || ann
            .params
            .iter()
            .any(|p| p.fields.iter().any(|f| f.is_external()));
    if !found {
        return Ok(());
    }
    let mut taken: HashSet<String> = scanned
        .items
        .iter()
        .filter_map(|i| match &i.kind {
            ItemKind::Struct(s) => Some(s.name.to_string()),
            ItemKind::Alias(a) => Some(a.name.to_string()),
            ItemKind::Var(v) => Some(v.name.to_string()),
            ItemKind::Const { name, .. }
            | ItemKind::Override { name, .. }
            | ItemKind::Fn { name, .. } => Some(name.to_string()),
            _ => None,
        })
        .chain(
            ann.params
                .iter()
                .flat_map(|p| p.globals().map(str::to_string).collect::<Vec<_>>()),
        )
        .collect();
    // Module-scope variables, and the globals the split made of
    // resource-struct members.
    let vars: HashSet<&str> = scanned
        .items
        .iter()
        .filter_map(|i| match &i.kind {
            ItemKind::Var(v) => Some(v.name.as_str()),
            _ => None,
        })
        .chain(
            ann.params
                .iter()
                .flat_map(|p| p.fields.iter().map(|f| f.global.as_str())),
        )
        .collect();
    let uses = uses(source, scanned, &vars);
    let params_ty = unique(&mut taken, "ExternalTextureParams".to_string());
    let tf_ty = unique(&mut taken, "ExternalTextureTransferFn".to_string());
    let yuv = unique(&mut taken, "external_texture_yuv_to_rgb".to_string());
    let mut tail = fill(SHARED, &[("P", &params_ty), ("TF", &tf_ty)]);
    if uses.load || !uses.samplers.is_empty() {
        tail.push_str(&fill(YUV, &[("TF", &tf_ty), ("YUV", &yuv)]));
    }
    let mut diags = Diagnostics::new();
    // (range of `tail`, original span)
    let mut segments = vec![(0..tail.len(), Span::default())];
    // Every texture to lower: the module-scope variables, then the
    // resource-struct members the split made into globals.
    let mut sources = Vec::new();
    for item in &scanned.items {
        let ItemKind::Var(v) = &item.kind else {
            continue;
        };
        if !is_external(&v.ty) {
            continue;
        }
        let attr = |name: &str| {
            item.attrs
                .iter()
                .find(|a| a.name == name)
                .and_then(|a| a.args.first())
        };
        // With `@binding` written, plane 0 keeps it and the other two are
        // allocated as a range of two in the same group; without it, the
        // three are one range.
        let literal = |name: &str| -> Result<Option<Spanned<u32>>, Diagnostic> {
            let Some(arg) = attr(name) else {
                return Ok(None);
            };
            match parse_literal(arg.text.trim()).map(u32::try_from) {
                Ok(Ok(value)) => Ok(Some(Spanned {
                    value,
                    span: arg.span.clone(),
                })),
                _ => Err(Diagnostic::error(format!(
                    "the `@{name}` of `{}` must be an integer literal",
                    v.name
                ))
                .at(arg.span.clone(), "not an integer literal")
                .note(
                    "stride allocates the bindings of its plane 1 and parameter buffer next to it",
                )),
            }
        };
        match (literal("group"), literal("binding")) {
            (Ok(group), Ok(b)) => sources.push(Source {
                name: v.name.clone(),
                name_span: v.name_span.clone(),
                span: item.span.clone(),
                group,
                binding: b.map(|b| b.value),
                written: None,
            }),
            (Err(d), _) | (_, Err(d)) => diags.push(d),
        }
    }
    for p in &ann.params {
        for f in p.fields.iter().filter(|f| f.is_external()) {
            // The parameter's range holds plane 1 and the parameters right
            // after plane 0 (`split` left room for them): written where
            // the parameter's `@binding` is, allocated with the range
            // otherwise (`bindings`).
            let written = p
                .group
                .clone()
                .zip(f.binding)
                .map(|(g, b)| (g, b.saturating_add(1)));
            sources.push(Source {
                name: f.global.clone(),
                name_span: p.name_span.clone(),
                span: p.span.clone(),
                group: None,
                binding: f.binding,
                written,
            });
        }
    }
    // The textures to lower, by the name their builtins' calls use.
    let externals: HashSet<&str> = sources.iter().map(|s| s.name.as_str()).collect();
    for v in &sources {
        let (group, binding) = (v.group.clone(), v.binding);
        let t = v.name.as_str();
        let plane1 = unique(&mut taken, format!("{t}_uv"));
        let params = unique(&mut taken, format!("{t}_params"));
        let mut helper = |used: bool, suffix: &str, text: &str, tail: &mut String| {
            used.then(|| {
                let f = unique(&mut taken, format!("{t}_{suffix}"));
                let names = [
                    ("F", f.as_str()),
                    ("T1", &plane1),
                    ("TP", &params),
                    ("YUV", &yuv),
                ];
                tail.push_str(&fill(text, &names));
                f
            })
        };
        // The texture's text maps to its declaration; its two globals to
        // its name, so that they sort right after it in declaration order.
        let start = tail.len();
        match &v.written {
            None => tail.push_str(&fill(
                GLOBALS,
                &[("T1", &plane1), ("TP", &params), ("P", &params_ty)],
            )),
            Some((g, b)) => tail.push_str(&fill(
                GLOBALS_AT,
                &[
                    ("T1", &plane1),
                    ("TP", &params),
                    ("P", &params_ty),
                    ("G", g),
                    ("B1", &b.to_string()),
                    ("B2", &b.saturating_add(1).to_string()),
                ],
            )),
        }
        segments.push((start..tail.len(), v.name_span.clone()));
        let load = helper(uses.load, "load", LOAD, &mut tail);
        // Its own samplers, and those sampled through a name that is not a
        // module-scope texture_external (a function parameter, which
        // [`bind_parameters`] binds to a texture): a helper that turns
        // out not to be needed is only unused.
        let mut samplers: Vec<&Option<Name>> = Vec::new();
        let sampled = uses
            .samplers
            .iter()
            .filter(|(name, _)| name.as_str() == t || !externals.contains(name.as_str()));
        for sampler in sampled.flat_map(|(_, list)| list) {
            if !samplers.contains(&sampler) {
                samplers.push(sampler);
            }
        }
        let samples = samplers
            .into_iter()
            .filter_map(|sampler| {
                let suffix = match sampler {
                    Some(s) => format!("sample_{s}"),
                    None => "sample".to_string(),
                };
                let f = helper(true, &suffix, SAMPLE, &mut tail)?;
                Some((sampler.clone(), f))
            })
            .collect();
        let dimensions = helper(uses.dimensions, "dimensions", DIMENSIONS, &mut tail);
        segments.push((start..tail.len(), v.span.clone()));
        // The group the two are allocated in: plane 0's.
        let group = group.or_else(|| ann.globals.get(t).and_then(|g| g.group.clone()));
        for name in [&plane1, &params] {
            ann.globals.insert(
                Name::from(name.as_str()),
                GlobalAnn {
                    name: Name::from(name.as_str()),
                    name_span: v.name_span.clone(),
                    span: v.span.clone(),
                    ty: None,
                    group: group.clone(),
                },
            );
        }
        ann.externals.push(External {
            name: v.name.clone(),
            name_span: v.name_span.clone(),
            span: v.span.clone(),
            plane1,
            params,
            yuv: yuv.clone(),
            binding,
            load,
            samples,
            dimensions,
        });
    }
    if !diags.is_empty() {
        return Err(diags);
    }
    // The shared text maps to the first declaration.
    if let (Some(shared), Some(first)) = (segments.first_mut(), ann.externals.first()) {
        shared.1 = first.span.clone();
    }
    let base = standard.len();
    standard.push_str(&tail);
    for (range, orig) in segments {
        map.append(source.len(), base + range.start..base + range.end, orig);
    }
    Ok(())
}

/// What one `texture_external` builtin call becomes.
struct Call {
    function: Handle<Function>,
    arguments: Vec<Handle<Expression>>,
    /// An expression the arguments need, emitted just before the call.
    emit: Option<Handle<Expression>>,
}

/// The lowered texture and its helpers, as naga handles.
struct Lowered {
    global: Handle<naga::GlobalVariable>,
    load: Option<Handle<Function>>,
    /// Per sampler global (`None`: the helper taking the sampler).
    samples: Vec<(Option<Handle<naga::GlobalVariable>>, Handle<Function>)>,
    dimensions: Option<Handle<Function>>,
}

/// The span of `span` in the original source.
fn original(map: &SourceMap, span: naga::Span) -> Span {
    map.span(&span.to_range().unwrap_or(0..0))
}

/// Lower the module's `texture_external` globals ([`append`] added what
/// they become) and report every use that cannot be lowered.
pub fn lower(
    module: &mut naga::Module,
    ann: &Annotations,
    map: &SourceMap,
) -> Result<(), Diagnostics> {
    let has_external = module.types.iter().any(|(_, t)| {
        matches!(
            t.inner,
            TypeInner::Image {
                class: ImageClass::External,
                ..
            }
        )
    });
    if !has_external {
        return Ok(());
    }
    let function = |name: &str| {
        module
            .functions
            .iter()
            .find(|(_, f)| f.name.as_deref() == Some(name))
            .map(|(h, _)| h)
    };
    let global = |name: &str| {
        module
            .global_variables
            .iter()
            .find(|(_, g)| g.name.as_deref() == Some(name))
            .map(|(h, _)| h)
    };
    let yuv = ann.externals.first().and_then(|e| function(&e.yuv));
    let mut lowered = Vec::new();
    for e in &ann.externals {
        let Some(texture) = global(&e.name) else {
            continue;
        };
        let samples = e
            .samples
            .iter()
            .filter_map(|(sampler, f)| {
                let sampler = match sampler {
                    Some(s) => Some(global(s)?),
                    None => None,
                };
                Some((sampler, function(f)?))
            })
            .collect();
        lowered.push(Lowered {
            global: texture,
            load: e.load.as_deref().and_then(function),
            samples,
            dimensions: e.dimensions.as_deref().and_then(function),
        });
    }
    let plane = module.types.insert(
        naga::Type {
            name: None,
            inner: TypeInner::Image {
                dim: naga::ImageDimension::D2,
                arrayed: false,
                class: ImageClass::Sampled {
                    kind: naga::ScalarKind::Float,
                    multi: false,
                },
            },
        },
        naga::Span::UNDEFINED,
    );
    let mut helpers: HashSet<_> = yuv.into_iter().collect();
    for l in &lowered {
        module.global_variables[l.global].ty = plane;
        for f in [l.load, l.dimensions].into_iter().flatten() {
            arguments_from_globals(&mut module.functions[f], &[l.global]);
            helpers.insert(f);
        }
        for &(sampler, f) in &l.samples {
            let globals: Vec<_> = [Some(l.global), sampler].into_iter().flatten().collect();
            arguments_from_globals(&mut module.functions[f], &globals);
            helpers.insert(f);
        }
    }
    let by_global: HashMap<_, _> = lowered.iter().map(|l| (l.global, l)).collect();
    let mut diags = Diagnostics::new();
    bind_parameters(module, &helpers, map, &mut diags);
    let handles: Vec<_> = module.functions.iter().map(|(h, _)| h).collect();
    for h in handles {
        if helpers.contains(&h) {
            continue;
        }
        let f = &module.functions[h];
        if f.arguments
            .iter()
            .any(|a| is_external(&module.types[a.ty].inner))
        {
            // `bind_parameters` reported why it could not bind them.
            continue;
        }
        rewrite_function(&mut module.functions[h], &by_global, map, &mut diags);
    }
    for ep in &mut module.entry_points {
        rewrite_function(&mut ep.function, &by_global, map, &mut diags);
    }
    for (h, g) in module.global_variables.iter() {
        if !is_external(&module.types[g.ty].inner) {
            continue;
        }
        diags.push(
            Diagnostic::unsupported(format!(
                "`{}` is a texture_external stride cannot lower",
                g.name.as_deref().unwrap_or("?")
            ))
            .at(original(map, module.global_variables.get_span(h)), "declared here")
            .note("help: declare it as `var name: texture_external;` at module scope, without an alias"),
        );
    }
    if !diags.is_empty() {
        return Err(diags);
    }
    drop_external_types(module);
    helpers_first(module, &helpers);
    Ok(())
}

/// Bind every `texture_external` parameter of a user function to the one
/// module-scope texture its calls pass: the parameter goes, its uses read
/// the texture (whose builtins [`rewrite_function`] then lowers), and the
/// calls drop the argument. Callers come after their callees in naga's
/// arena, so walking it backwards binds a caller's own parameters before
/// its calls are read, and a texture passed down through several
/// functions is followed to the variable. A parameter whose calls pass
/// different textures, or that no call reaches, is an error at the
/// function.
fn bind_parameters(
    module: &mut naga::Module,
    helpers: &HashSet<Handle<Function>>,
    map: &SourceMap,
    diags: &mut Diagnostics,
) {
    let handles: Vec<_> = module.functions.iter().map(|(h, _)| h).rev().collect();
    for h in handles {
        if helpers.contains(&h) {
            continue;
        }
        let params: Vec<usize> = module.functions[h]
            .arguments
            .iter()
            .enumerate()
            .filter(|(_, a)| is_external(&module.types[a.ty].inner))
            .map(|(i, _)| i)
            .collect();
        if params.is_empty() {
            continue;
        }
        let name = module.functions[h].name.clone().unwrap_or_default();
        let at = original(map, module.functions.get_span(h));
        // Per parameter, the textures its calls pass (`None`: something
        // that is not a module-scope variable).
        let mut passed: Vec<Vec<Option<Handle<naga::GlobalVariable>>>> =
            vec![Vec::new(); params.len()];
        let callers = module
            .functions
            .iter()
            .filter(|(c, _)| *c != h)
            .map(|(_, f)| f)
            .chain(module.entry_points.iter().map(|ep| &ep.function));
        for caller in callers {
            super::module::visit_calls(&caller.body, &mut |callee, arguments| {
                if callee != h {
                    return;
                }
                for (k, &i) in params.iter().enumerate() {
                    let g = match arguments.get(i).map(|&a| &caller.expressions[a]) {
                        Some(&Expression::GlobalVariable(g)) => Some(g),
                        _ => None,
                    };
                    if !passed[k].contains(&g) {
                        passed[k].push(g);
                    }
                }
            });
        }
        let mut bound = Vec::new();
        for (k, &i) in params.iter().enumerate() {
            let param = module.functions[h].arguments[i]
                .name
                .clone()
                .unwrap_or_default();
            match passed[k].as_slice() {
                [Some(g)] => bound.push((i, *g)),
                // A caller's own parameter it could not bind: reported
                // there (WGSL passes a texture only as a module-scope
                // variable or a parameter), so not again here.
                several if several.contains(&None) => {}
                [] => diags.push(
                    Diagnostic::unsupported(format!(
                        "`{name}` takes texture_external parameter `{param}` but no call reaches it"
                    ))
                    .at(at.clone(), "texture_external parameter")
                    .note("stride binds a texture_external parameter to the one module-scope texture its calls pass")
                    .note("help: call the function with the texture, or remove it"),
                ),
                several => {
                    let names: Vec<String> = several
                        .iter()
                        .flatten()
                        .map(|&g| {
                            let name = module.global_variables[g].name.as_deref();
                            format!("`{}`", name.unwrap_or("?"))
                        })
                        .collect();
                    diags.push(
                        Diagnostic::unsupported(format!(
                            "`{name}` is called with different textures for texture_external parameter `{param}`: {}",
                            names.join(", ")
                        ))
                        .at(at.clone(), "texture_external parameter")
                        .note("stride binds a texture_external parameter to the one module-scope texture its calls pass")
                        .note("help: write one function per texture, each reading its texture"),
                    );
                }
            }
        }
        if bound.len() != params.len() {
            continue;
        }
        // Highest index first, so that the lower ones stay where they are.
        for &(i, g) in bound.iter().rev() {
            bind_argument(&mut module.functions[h], i, g);
        }
        let dropped: Vec<usize> = bound.iter().rev().map(|&(i, _)| i).collect();
        let callers = module
            .functions
            .iter_mut()
            .filter(|(c, _)| *c != h)
            .map(|(_, f)| f)
            .chain(module.entry_points.iter_mut().map(|ep| &mut ep.function));
        for caller in callers {
            drop_call_arguments(&mut caller.body, h, &dropped);
        }
    }
}

/// Remove arguments `dropped` (highest index first) from every call of
/// `callee` in `block`.
fn drop_call_arguments(block: &mut naga::Block, callee: Handle<Function>, dropped: &[usize]) {
    for s in block.iter_mut() {
        if let Statement::Call {
            function,
            arguments,
            ..
        } = s
        {
            if *function == callee {
                for &i in dropped {
                    if i < arguments.len() {
                        arguments.remove(i);
                    }
                }
            }
        }
        for b in nested(s) {
            drop_call_arguments(b, callee, dropped);
        }
    }
}

/// Parameter `i` of `f` becomes the module-scope variable `g`: uses of it
/// read `g`, and the later parameters move down by one.
fn bind_argument(f: &mut Function, i: usize, g: Handle<naga::GlobalVariable>) {
    if i >= f.arguments.len() {
        return;
    }
    f.arguments.remove(i);
    for (_, e) in f.expressions.iter_mut() {
        if let Expression::FunctionArgument(k) = *e {
            let k = k as usize;
            if k == i {
                *e = Expression::GlobalVariable(g);
            } else if k > i {
                *e = Expression::FunctionArgument((k - 1) as u32);
            }
        }
    }
}

/// Move the helpers (appended last) before every other function: naga
/// wants a function's callees before it, and user functions now call them.
fn helpers_first(module: &mut naga::Module, helpers: &HashSet<Handle<Function>>) {
    let old: Vec<_> = module.functions.drain().collect();
    let mut new_handle = vec![None; old.len()];
    let (first, rest): (Vec<_>, Vec<_>) = old.into_iter().partition(|(h, ..)| helpers.contains(h));
    for (h, f, span) in first.into_iter().chain(rest) {
        new_handle[h.index()] = Some(module.functions.append(f, span));
    }
    let map = |h: Handle<Function>| new_handle.get(h.index()).copied().flatten().unwrap_or(h);
    let functions = module.functions.iter_mut().map(|(_, f)| f);
    for f in functions.chain(module.entry_points.iter_mut().map(|ep| &mut ep.function)) {
        for (_, e) in f.expressions.iter_mut() {
            if let Expression::CallResult(callee) = e {
                *callee = map(*callee);
            }
        }
        remap_calls(&mut f.body, &map);
    }
}

fn remap_calls(block: &mut naga::Block, map: &dyn Fn(Handle<Function>) -> Handle<Function>) {
    for s in block.iter_mut() {
        if let Statement::Call { function, .. } = s {
            *function = map(*function);
        }
        for b in nested(s) {
            remap_calls(b, map);
        }
    }
}

fn is_external(inner: &TypeInner) -> bool {
    matches!(
        inner,
        TypeInner::Image {
            class: ImageClass::External,
            ..
        }
    )
}

/// Replace a helper's first parameters (plane 0, and the sampler of a
/// helper made for one) by `globals`.
fn arguments_from_globals(f: &mut Function, globals: &[Handle<naga::GlobalVariable>]) {
    let n = globals.len().min(f.arguments.len());
    f.arguments.drain(..n);
    for (_, e) in f.expressions.iter_mut() {
        if let Expression::FunctionArgument(i) = *e {
            let i = i as usize;
            *e = match globals.get(i) {
                Some(&g) => Expression::GlobalVariable(g),
                None => Expression::FunctionArgument((i - n) as u32),
            };
        }
    }
}

/// Turn the builtin calls on lowered textures in `f` into helper calls;
/// every other use of one is an error.
fn rewrite_function(
    f: &mut Function,
    by_global: &HashMap<Handle<naga::GlobalVariable>, &Lowered>,
    map: &SourceMap,
    diags: &mut Diagnostics,
) {
    let lowered_of = |exprs: &naga::Arena<Expression>, h: Handle<Expression>| match exprs[h] {
        Expression::GlobalVariable(g) => by_global.get(&g).copied(),
        _ => None,
    };
    let mut calls: HashMap<Handle<Expression>, Call> = HashMap::new();
    let handles: Vec<_> = f.expressions.iter().map(|(h, _)| h).collect();
    for h in handles {
        let call = match f.expressions[h] {
            Expression::ImageLoad {
                image, coordinate, ..
            } => lowered_of(&f.expressions, image)
                .and_then(|l| l.load)
                .map(|function| {
                    let span = f.expressions.get_span(h);
                    let cast = f.expressions.append(
                        Expression::As {
                            expr: coordinate,
                            kind: naga::ScalarKind::Uint,
                            convert: Some(4),
                        },
                        span,
                    );
                    Call {
                        function,
                        arguments: vec![cast],
                        emit: Some(cast),
                    }
                }),
            Expression::ImageSample {
                image,
                sampler,
                coordinate,
                ..
            } => lowered_of(&f.expressions, image).and_then(|l| {
                // The helper made for this sampler, else the one taking it.
                let global = match f.expressions[sampler] {
                    Expression::GlobalVariable(g) => Some(g),
                    _ => None,
                };
                let made = |s| l.samples.iter().find(|x| x.0 == s).map(|x| x.1);
                match global.and_then(|g| made(Some(g))) {
                    Some(function) => Some(Call {
                        function,
                        arguments: vec![coordinate],
                        emit: None,
                    }),
                    None => made(None).map(|function| Call {
                        function,
                        arguments: vec![sampler, coordinate],
                        emit: None,
                    }),
                }
            }),
            Expression::ImageQuery { image, .. } => lowered_of(&f.expressions, image)
                .and_then(|l| l.dimensions)
                .map(|function| Call {
                    function,
                    arguments: Vec::new(),
                    emit: None,
                }),
            _ => None,
        };
        if let Some(call) = call {
            f.expressions[h] = Expression::CallResult(call.function);
            calls.insert(h, call);
        }
    }
    // Whatever still reads a lowered texture cannot be lowered.
    for (h, e) in f.expressions.iter() {
        let bad = crate::remap::expression_operands(e)
            .into_iter()
            .any(|x| lowered_of(&f.expressions, x).is_some());
        if bad {
            diags.push(
                Diagnostic::unsupported("this use of a texture_external cannot be lowered")
                    .at(original(map, f.expressions.get_span(h)), "texture_external used here")
                    .note("stride lowers texture_external into two textures and a parameter buffer; it supports textureLoad, textureSampleBaseClampToEdge and textureDimensions on the module-scope variable"),
            );
        }
    }
    if !calls.is_empty() {
        rewrite_block(&mut f.body, &calls);
    }
}

/// Split the emit ranges of `block` (and the blocks inside it) around the
/// rewritten expressions and put each one's call in its place.
fn rewrite_block(block: &mut naga::Block, calls: &HashMap<Handle<Expression>, Call>) {
    let old = std::mem::take(block);
    for (statement, span) in old.span_into_iter() {
        match statement {
            Statement::Emit(range) => {
                let mut start = None;
                let flush = |start: &mut Option<(Handle<Expression>, Handle<Expression>)>,
                             block: &mut naga::Block| {
                    if let Some((first, last)) = start.take() {
                        block.push(
                            Statement::Emit(naga::Range::new_from_bounds(first, last)),
                            span,
                        );
                    }
                };
                for h in range {
                    let Some(call) = calls.get(&h) else {
                        start = Some(start.map_or((h, h), |(first, _)| (first, h)));
                        continue;
                    };
                    flush(&mut start, block);
                    if let Some(e) = call.emit {
                        block.push(Statement::Emit(naga::Range::new_from_bounds(e, e)), span);
                    }
                    block.push(
                        Statement::Call {
                            function: call.function,
                            arguments: call.arguments.clone(),
                            result: Some(h),
                        },
                        span,
                    );
                }
                flush(&mut start, block);
            }
            mut other => {
                for b in nested(&mut other) {
                    rewrite_block(b, calls);
                }
                block.push(other, span);
            }
        }
    }
}

/// The blocks directly inside a statement.
fn nested(s: &mut Statement) -> Vec<&mut naga::Block> {
    match s {
        Statement::Block(b) => vec![b],
        Statement::If { accept, reject, .. } => vec![accept, reject],
        Statement::Switch { cases, .. } => cases.iter_mut().map(|c| &mut c.body).collect(),
        Statement::Loop {
            body, continuing, ..
        } => vec![body, continuing],
        _ => Vec::new(),
    }
}

/// Remove the external image type and naga's parameter types, which
/// nothing uses once the textures are lowered.
fn drop_external_types(module: &mut naga::Module) {
    let special = &mut module.special_types;
    let mut dropped: Vec<Handle<naga::Type>> = [
        special.external_texture_params.take(),
        special.external_texture_transfer_function.take(),
    ]
    .into_iter()
    .flatten()
    .collect();
    dropped.extend(
        module
            .types
            .iter()
            .filter(|(_, t)| is_external(&t.inner))
            .map(|(h, _)| h),
    );
    let mut types = naga::UniqueArena::new();
    let mut handles = Vec::with_capacity(module.types.len());
    for (h, t) in module.types.iter() {
        let span = module.types.get_span(h);
        let new = if dropped.contains(&h) {
            // Unused: any handle will do.
            handles.first().copied().unwrap_or(h)
        } else {
            let inner =
                crate::remap::map_inner(&t.inner, |x| handles.get(x.index()).copied().unwrap_or(x));
            types.insert(
                naga::Type {
                    name: t.name.clone(),
                    inner,
                },
                span,
            )
        };
        handles.push(new);
    }
    let map = crate::remap::TypeMap::new(handles);
    crate::remap::remap_types(module, types, &map);
}

#[cfg(test)]
mod tests {
    use crate::front;

    fn error(source: &str) -> (String, String) {
        match front::parse(source) {
            Ok(_) => panic!("no error for:\n{source}"),
            Err(d) => {
                let e = d.iter().next().unwrap();
                let span = e.primary_span().unwrap();
                (e.message.clone(), source[span].to_string())
            }
        }
    }

    #[test]
    fn no_external_texture_is_left_for_the_backends() {
        let parsed = front::parse(
            "@group(0) @binding(0) var t: texture_external;
@group(0) @binding(1) var s: sampler;
@fragment fn main(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {
    let d = textureDimensions(t);
    return textureSampleBaseClampToEdge(t, s, uv) + textureLoad(t, vec2<i32>(d) - 1);
}",
        )
        .unwrap();
        let m = &parsed.module;
        assert!(m.special_types.external_texture_params.is_none());
        assert!(!m.types.iter().any(|(_, t)| super::is_external(&t.inner)
            || t.name.as_deref().is_some_and(|n| n.starts_with("Naga"))));
        front::validate(m).unwrap();
        let names: Vec<_> = m
            .functions
            .iter()
            .filter_map(|(_, f)| f.name.as_deref())
            .collect();
        assert_eq!(
            names,
            [
                "external_texture_yuv_to_rgb",
                "t_load",
                "t_sample_s",
                "t_dimensions"
            ]
        );
    }

    #[test]
    fn a_texture_external_parameter_is_bound_to_the_texture_its_calls_pass() {
        // Passed down two functions, beside other parameters, and sampled
        // with a module-scope sampler inside the innermost one.
        let parsed = front::parse(
            "@group(0) @binding(0) var video: texture_external;
@group(0) @binding(3) var lut: sampler;
fn inner(a: f32, t: texture_external, uv: vec2<f32>) -> vec4<f32> {
    return a * textureSampleBaseClampToEdge(t, lut, uv) + textureLoad(t, textureDimensions(t) / 2u);
}
fn outer(t: texture_external, b: f32) -> vec4<f32> { return inner(b, t, vec2<f32>(b)); }
@fragment fn main() -> @location(0) vec4<f32> { return outer(video, 0.5) + outer(video, 0.25); }",
        )
        .unwrap();
        let m = &parsed.module;
        front::validate(m).unwrap();
        let params = |name: &str| -> Vec<String> {
            let (_, f) = m
                .functions
                .iter()
                .find(|(_, f)| f.name.as_deref() == Some(name))
                .unwrap();
            f.arguments.iter().filter_map(|a| a.name.clone()).collect()
        };
        assert_eq!(params("inner"), ["a", "uv"]);
        assert_eq!(params("outer"), ["b"]);
        assert!(!m.types.iter().any(|(_, t)| super::is_external(&t.inner)));
    }

    #[test]
    fn a_texture_external_member_takes_three_bindings_in_its_parameter() {
        let bindings = |source: &str| -> Vec<(String, u32, u32)> {
            let parsed = front::parse(source).unwrap();
            front::validate(&parsed.module).unwrap();
            let m = &parsed.module;
            assert!(!m.types.iter().any(|(_, t)| super::is_external(&t.inner)));
            let mut b: Vec<_> = m
                .global_variables
                .iter()
                .filter_map(|(_, g)| {
                    let rb = g.binding?;
                    Some((g.name.clone()?, rb.group, rb.binding))
                })
                .collect();
            b.sort_by_key(|(_, g, b)| (*g, *b));
            b
        };
        let body = "struct Video { frame: texture_external, samp: sampler, tint: vec4<f32> }
@fragment fn main(@location(0) uv: vec2<f32>) -> @location(0) vec4<f32> {
    return textureSampleBaseClampToEdge(video.frame, video.samp, uv) * video.tint
        + textureLoad(video.frame, textureDimensions(video.frame) / 2u);
}";
        let names = |b: &[(String, u32, u32)]| -> Vec<String> {
            b.iter().map(|(n, g, b)| format!("{n}@{g}.{b}")).collect()
        };
        // Written: the range numbers on from the parameter's binding, plane
        // 1 and the parameter buffer right after plane 0.
        let written = bindings(&format!("@group(2) @binding(5) var video: Video;\n{body}"));
        assert_eq!(
            names(&written),
            [
                "video@2.5",
                "video_frame@2.6",
                "video_frame_uv@2.7",
                "video_frame_params@2.8",
                "video_samp@2.9"
            ]
        );
        // Allocated: the first free range of five in the group.
        let allocated = bindings(&format!(
            "@group(1) @binding(1) var other: texture_2d<f32>;\n@group(1) var video: Video;\n{body}"
        ));
        assert_eq!(
            names(&allocated),
            [
                "other@1.1",
                "video@1.2",
                "video_frame@1.3",
                "video_frame_uv@1.4",
                "video_frame_params@1.5",
                "video_samp@1.6"
            ]
        );
    }

    #[test]
    fn only_the_helpers_the_module_calls_are_made() {
        let parsed = front::parse(
            "@group(0) @binding(0) var t: texture_external;
@compute @workgroup_size(1) fn main() { _ = textureDimensions(t); }",
        )
        .unwrap();
        let names: Vec<_> = parsed
            .module
            .functions
            .iter()
            .filter_map(|(_, f)| f.name.as_deref())
            .collect();
        assert_eq!(names, ["t_dimensions"]);
        front::validate(&parsed.module).unwrap();
    }

    #[test]
    fn taken_names_are_not_reused() {
        let parsed = front::parse(
            "@group(0) @binding(0) var t: texture_external;
@group(0) @binding(1) var<uniform> t_uv: vec4<f32>;
struct ExternalTextureParams { x: f32 }
fn t_load() -> f32 { return t_uv.x; }
@fragment fn main() -> @location(0) vec4<f32> { return textureLoad(t, vec2(0u)) * t_load(); }",
        )
        .unwrap();
        let e = &parsed.annotations.externals[0];
        assert_eq!(
            (e.plane1.as_str(), e.params.as_str()),
            ("t_uv_", "t_params")
        );
        assert_eq!(e.load.as_deref(), Some("t_load_"));
        front::validate(&parsed.module).unwrap();
    }

    #[test]
    fn uses_that_cannot_be_lowered_are_errors_at_their_span() {
        let (message, at) = error(
            "@group(0) @binding(0) var t: texture_external;
@group(0) @binding(3) var u: texture_external;
fn f(x: texture_external) -> vec4<f32> { return textureLoad(x, vec2<u32>(0u)); }
@fragment fn main() -> @location(0) vec4<f32> { return f(t) + f(u); }",
        );
        assert_eq!(
            message,
            "`f` is called with different textures for texture_external parameter `x`: `t`, `u`"
        );
        assert!(at.starts_with("fn f(x: texture_external)"), "{at}");

        // Passed on from a function that is itself called with two
        // textures: one error, at that function, not a second at `inner`.
        let source = "@group(0) @binding(0) var a: texture_external;
@group(0) @binding(3) var b: texture_external;
fn inner(t: texture_external) -> vec4<f32> { return textureLoad(t, vec2<u32>(0u)); }
fn outer(t: texture_external) -> vec4<f32> { return inner(t); }
@fragment fn main() -> @location(0) vec4<f32> { return outer(a) + outer(b); }";
        let Err(d) = front::parse(source) else {
            panic!("no error")
        };
        let messages: Vec<&str> = d.iter().map(|e| e.message.as_str()).collect();
        assert_eq!(
            messages,
            ["`outer` is called with different textures for texture_external parameter `t`: `a`, `b`"]
        );

        let (message, at) = error(
            "@group(0) @binding(0) var t: texture_external;
fn f(x: texture_external) -> vec4<f32> { return textureLoad(x, vec2<u32>(0u)); }
@fragment fn main() -> @location(0) vec4<f32> { return textureLoad(t, vec2<u32>(0u)); }",
        );
        assert!(message.contains("no call reaches it"), "{message}");
        assert!(at.starts_with("fn f(x: texture_external)"), "{at}");

        let (message, at) = error(
            "struct Video { frame: texture_external, tint: vec4<f32> }
@group(0) @binding(0) var videos: array<Video, 2>;
@fragment fn main() -> @location(0) vec4<f32> { return textureLoad(videos[0].frame, vec2<u32>(0u)) * videos[1].tint; }",
        );
        assert_eq!(
            message,
            "`videos.frame` would be a binding array of texture_external, which stride cannot lower"
        );
        assert_eq!(at, "frame: texture_external");

        let (message, at) = error(
            "alias E = texture_external;
@group(0) @binding(0) var t: E;
@fragment fn main() -> @location(0) vec4<f32> { return textureLoad(t, vec2<u32>(0u)); }",
        );
        assert!(message.contains("stride cannot lower"), "{message}");
        assert!(at.contains("var t: E"), "{at}");

        let (message, at) = error(
            "const B = 2u;
@group(0) @binding(B) var t: texture_external;
@fragment fn main() -> @location(0) vec4<f32> { return textureLoad(t, vec2<u32>(0u)); }",
        );
        assert!(message.contains("must be an integer literal"), "{message}");
        assert_eq!(at, "B");
    }
}
