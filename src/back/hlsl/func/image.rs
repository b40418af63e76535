//! Textures: sampling, loads, stores, queries and atomics, as free
//! functions on printed operands.
//!
//! INTERFACE (owned by the math/image part; `func::expr` calls it).
//!
//! - Coordinates: sampling takes float coordinates with the array layer
//!   appended as a float (`float3(uv, (float)layer)`); loads take `int`
//!   vectors with the layer and the mip level appended
//!   (`t.Load(int3(xy, level))`, multisampled `t.Load(int2(xy), sample)`);
//!   storage textures are indexed with `uint` vectors (`t[uint2(xy)]`), so
//!   that a negative coordinate is out of bounds. D3D defines out-of-bounds
//!   loads (zero) and stores (dropped), which WGSL allows, so nothing is
//!   clamped.
//! - Depth textures are declared `Texture2D<float>`: their samples and
//!   loads are already WGSL's `f32`.
//! - Storage textures of the formats that allow atomics (`r32uint`,
//!   `r32sint`, `r64uint`) are declared with a scalar texel, as HLSL's
//!   `Interlocked*` needs ([`storage_scalar_texel`]); every other storage
//!   texture has a four-component texel. [`types::texture_type`] is the
//!   declared type.
//! - Size queries go through one helper per texture type,
//!   `uint4 _s_dimensions_<type>(tex, level)`, whose result holds the width,
//!   height, depth or layer count, and the level or sample count in `x`,
//!   `y`, `z`, `w`.

use super::super::types::{self, storage_scalar_texel};
use super::super::{error_at, Needs};
use super::math::{paren, push_paren};
use crate::back::text::{coordinate_count, Prec};
use naga::{ImageClass, ImageDimension, SampleLevel, Scalar, ScalarKind};
use std::borrow::Cow;

/// A printed texture operand (a global, a binding-array element or a
/// function argument), its class and its type.
pub(crate) struct Image<'a> {
    pub text: &'a str,
    pub prec: Prec,
    pub dim: ImageDimension,
    pub arrayed: bool,
    pub class: ImageClass,
}

impl<'a> Image<'a> {
    /// Texture text `text` of class `prec`, of the type `kind` gives
    /// (dimension, arrayed, class).
    pub fn new((text, prec): (&'a str, Prec), kind: (ImageDimension, bool, ImageClass)) -> Self {
        let (dim, arrayed, class) = kind;
        Image {
            text,
            prec,
            dim,
            arrayed,
            class,
        }
    }
}

/// `textureSample*`/`textureGather*` (naga `ImageSample`), every operand
/// printed.
pub(crate) struct Sample<'a> {
    pub image: Image<'a>,
    pub sampler: &'a str,
    /// `Some`: a gather of this component.
    pub gather: Option<naga::SwizzleComponent>,
    pub coordinate: &'a str,
    /// The layer and its class.
    pub array_index: Option<(&'a str, Prec)>,
    /// A constant integer vector expression.
    pub offset: Option<&'a str>,
    /// The level of detail; its operands printed in `level_operands`.
    pub level: SampleLevel,
    /// The printed level or bias, or the two gradients, and their classes.
    pub level_operands: [(&'a str, Prec); 2],
    pub depth_ref: Option<&'a str>,
    /// `textureSampleBaseClampToEdge`.
    pub clamp_to_edge: bool,
    /// The expression's span, for errors.
    pub span: naga::Span,
}

/// `float`, `int3`...: the spelling of `n` components of `s`.
fn spelled(n: usize, s: Scalar) -> Cow<'static, str> {
    if n == 1 {
        Cow::Borrowed(types::scalar(s))
    } else {
        types::vector(n as u8, s)
    }
}

/// A vector of `n` components of `s` made of `parts`: `int3(xy, level)`,
/// or `int(x)` (a conversion) for one part.
fn construct(n: usize, s: Scalar, parts: &[&str]) -> String {
    text!("{}({})", spelled(n, s), parts.join(", "))
}

/// The name of the helper sampling level 0 with coordinates clamped half a
/// texel inside the edges (`textureSampleBaseClampToEdge`).
fn clamp_to_edge_helper(needs: &mut Needs, image: &Image<'_>) -> String {
    let t = types::texture_type(image.dim, image.arrayed, image.class);
    let mut name = String::from("_s_sample_clamp_to_edge_");
    push_suffix(&mut name, &t);
    needs.helper(&name, |_| {
        text!(
            "float4 {name}({t} t, SamplerState s, float2 c) {{\n    uint w, h, levels;\n    t.GetDimensions(0u, w, h, levels);\n    float2 half_texel = 0.5 / float2(w, h);\n    return t.SampleLevel(s, clamp(c, half_texel, 1.0 - half_texel), 0.0);\n}}\n"
        )
    });
    name
}

/// A helper's name suffix for a type spelling (its words joined by `_`),
/// appended to `out`.
fn push_suffix(out: &mut String, type_text: &str) {
    let start = out.len();
    for c in type_text.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if out.len() == start || !out.ends_with('_') {
            out.push('_');
        }
    }
    while out.len() > start && out.ends_with('_') {
        out.pop();
    }
}

/// `textureSample*` and `textureGather*`, and the class of the text.
pub(crate) fn sample(needs: &mut Needs, s: &Sample<'_>) -> (String, Prec) {
    let image = &s.image;
    let n = coordinate_count(image.dim);
    // One string for the whole call, with room for its operands.
    let mut out = String::with_capacity(
        image.text.len()
            + s.sampler.len()
            + s.coordinate.len()
            + 2 * s.offset.map_or(0, str::len)
            + 64,
    );
    // The coordinate, with the layer appended as a float.
    let push_coordinate = |out: &mut String| match s.array_index {
        Some((layer, prec)) => {
            out.push_str(&spelled(n + 1, Scalar::F32));
            super::super::push_parts(out, &["(", s.coordinate, ", (float)"]);
            push_paren(out, layer, prec);
            out.push(')');
        }
        None => out.push_str(s.coordinate),
    };
    if s.clamp_to_edge {
        let name = clamp_to_edge_helper(needs, image);
        super::super::push_parts(&mut out, &[&name, "(", image.text, ", ", s.sampler, ", "]);
        push_coordinate(&mut out);
        out.push(')');
        return (out, Prec::Call);
    }
    let method = if let Some(component) = s.gather {
        match s.depth_ref {
            Some(_) => "GatherCmp",
            None => match component {
                naga::SwizzleComponent::X => "GatherRed",
                naga::SwizzleComponent::Y => "GatherGreen",
                naga::SwizzleComponent::Z => "GatherBlue",
                naga::SwizzleComponent::W => "GatherAlpha",
            },
        }
    } else if s.depth_ref.is_some() {
        match s.level {
            SampleLevel::Auto => "SampleCmp",
            SampleLevel::Zero => "SampleCmpLevelZero",
            SampleLevel::Exact(_) | SampleLevel::Bias(_) | SampleLevel::Gradient { .. } => {
                needs.error(error_at(
                    "HLSL at shader model 6.6 and below compares depth samples only with implicit derivatives or at level 0",
                    s.span,
                    "depth comparison with an explicit level, bias or gradients",
                ));
                "SampleCmpLevelZero"
            }
        }
    } else {
        match s.level {
            SampleLevel::Auto => "Sample",
            SampleLevel::Zero | SampleLevel::Exact(_) => "SampleLevel",
            SampleLevel::Bias(_) => "SampleBias",
            SampleLevel::Gradient { .. } => "SampleGrad",
        }
    };
    push_paren(&mut out, image.text, image.prec);
    super::super::push_parts(&mut out, &[".", method, "(", s.sampler, ", "]);
    push_coordinate(&mut out);
    if let Some(r) = s.depth_ref {
        // A depth comparison takes the reference and no level.
        super::super::push_parts(&mut out, &[", ", r]);
    } else if s.gather.is_none() {
        let [(l, prec), (y, _)] = s.level_operands;
        match s.level {
            SampleLevel::Auto => {}
            SampleLevel::Zero => out.push_str(", 0.0"),
            SampleLevel::Exact(_) => {
                out.push_str(", ");
                // Depth textures take integer levels in WGSL.
                if matches!(image.class, ImageClass::Depth { .. }) {
                    out.push_str("(float)");
                    push_paren(&mut out, l, prec);
                } else {
                    out.push_str(l);
                }
            }
            SampleLevel::Bias(_) => super::super::push_parts(&mut out, &[", ", l]),
            SampleLevel::Gradient { .. } => super::super::push_parts(&mut out, &[", ", l, ", ", y]),
        }
    }
    if let Some(o) = s.offset {
        super::super::push_parts(&mut out, &[", ", o]);
    }
    out.push(')');
    // A method call: `t.Sample(...)`.
    (out, Prec::Postfix)
}

/// A texel of a storage texture: `t[uint2(xy)]`, `t[uint3(xy, layer)]`.
fn storage_texel(image: &Image<'_>, coordinate: &str, array_index: Option<&str>) -> String {
    let n = coordinate_count(image.dim);
    let address = match array_index {
        Some(layer) => construct(n + 1, Scalar::U32, &[coordinate, layer]),
        None => construct(n, Scalar::U32, &[coordinate]),
    };
    text!("{}[{address}]", paren(image.text, image.prec))
}

/// `textureLoad` (naga `ImageLoad`), and the class of the text; `sample`
/// and `level` as printed.
pub(crate) fn load(
    image: &Image<'_>,
    coordinate: &str,
    array_index: Option<&str>,
    sample: Option<&str>,
    level: Option<&str>,
) -> (String, Prec) {
    let tex = paren(image.text, image.prec);
    let n = coordinate_count(image.dim);
    match image.class {
        ImageClass::Storage { format, .. } => {
            let texel = storage_texel(image, coordinate, array_index);
            match storage_scalar_texel(format) {
                Some(s) => {
                    let (zero, one) = match s.kind {
                        ScalarKind::Sint => ("0", "1"),
                        ScalarKind::Float => ("0.0", "1.0"),
                        _ => ("0u", "1u"),
                    };
                    let widened = text!("{}({texel}, {zero}, {zero}, {one})", spelled(4, s));
                    (widened, Prec::Call)
                }
                None => (texel, Prec::Postfix),
            }
        }
        ImageClass::Sampled { multi: true, .. } | ImageClass::Depth { multi: true } => {
            let mut parts = vec![coordinate];
            parts.extend(array_index);
            let address = construct(parts.len() + n - 1, Scalar::I32, &parts);
            let sample = sample.unwrap_or("0");
            (text!("{tex}.Load({address}, {sample})"), Prec::Postfix)
        }
        // texture_external is lowered to textures in the front end.
        ImageClass::Sampled { .. } | ImageClass::Depth { .. } | ImageClass::External => {
            let mut parts = vec![coordinate];
            parts.extend(array_index);
            parts.push(level.unwrap_or("0"));
            let address = construct(parts.len() + n - 1, Scalar::I32, &parts);
            (text!("{tex}.Load({address})"), Prec::Postfix)
        }
    }
}

/// `textureStore`: one statement (ending in `;`, no newline).
pub(crate) fn store(
    image: &Image<'_>,
    coordinate: &str,
    array_index: Option<&str>,
    (value, value_prec): (&str, Prec),
) -> String {
    let texel = storage_texel(image, coordinate, array_index);
    let scalar = match image.class {
        ImageClass::Storage { format, .. } => storage_scalar_texel(format).is_some(),
        _ => false,
    };
    if scalar {
        text!("{texel} = {}.x;", paren(value, value_prec))
    } else {
        text!("{texel} = {value};")
    }
}

/// The helper returning `uint4(width, height, depth or layers, levels or
/// samples)` of a texture of `image`'s type at a mip level.
fn dimensions_helper(needs: &mut Needs, image: &Image<'_>) -> String {
    let t = types::texture_type(image.dim, image.arrayed, image.class);
    let mut name = String::with_capacity(14 + t.len());
    name.push_str("_s_dimensions_");
    push_suffix(&mut name, &t);
    let rw = matches!(image.class, ImageClass::Storage { access, .. } if types::is_rw(access));
    let multi = matches!(
        image.class,
        ImageClass::Sampled { multi: true, .. } | ImageClass::Depth { multi: true }
    );
    needs.helper(&name, |_| {
        // The out parameters of GetDimensions, after the level where there
        // is one.
        let mut outs = vec!["r.x"];
        match image.dim {
            ImageDimension::D1 => {}
            ImageDimension::D2 | ImageDimension::Cube => outs.push("r.y"),
            ImageDimension::D3 => outs.extend(["r.y", "r.z"]),
        }
        if image.arrayed {
            outs.push("r.z");
        }
        if !rw {
            outs.push("r.w");
        }
        let level = if rw || multi { "" } else { "level, " };
        let levels = if rw { "    r.w = 1u;\n" } else { "" };
        text!(
            "uint4 {name}({t} t, uint level) {{\n    uint4 r = uint4(1u, 1u, 1u, 1u);\n    t.GetDimensions({level}{});\n{levels}    return r;\n}}\n",
            outs.join(", ")
        )
    });
    name
}

/// `textureDimensions`, `textureNumLevels`, `textureNumLayers`,
/// `textureNumSamples`: an expression, through a helper function where
/// HLSL's `GetDimensions` needs out parameters. `level`: the printed
/// level of a size query (level 0 without one).
pub(crate) fn query(
    needs: &mut Needs,
    image: &Image<'_>,
    query: naga::ImageQuery,
    level: Option<&str>,
) -> (String, Prec) {
    use naga::ImageQuery as Q;
    let name = dimensions_helper(needs, image);
    let level = level.unwrap_or("0u");
    let swizzle = match query {
        Q::Size { .. } => match image.dim {
            ImageDimension::D1 => "x",
            ImageDimension::D2 | ImageDimension::Cube => "xy",
            ImageDimension::D3 => "xyz",
        },
        Q::NumLayers => "z",
        Q::NumLevels | Q::NumSamples => "w",
    };
    let text = [name.as_str(), "(", image.text, ", ", level, ").", swizzle].concat();
    (text, Prec::Postfix)
}

/// `textureAtomic*` on a storage texture: statements (not indented, each
/// ending in a newline) performing `fun` with `value`. naga's
/// `ImageAtomic` has no result. The errors here (a texture of a format
/// without atomics, a compare-exchange) are rejected by naga's validation
/// of WGSL first, so they carry no span.
pub(crate) fn atomic(
    needs: &mut Needs,
    image: &Image<'_>,
    coordinate: &str,
    array_index: Option<&str>,
    fun: &naga::AtomicFunction,
    (value, value_prec): (&str, Prec),
) -> String {
    let texel = storage_texel(image, coordinate, array_index);
    let scalar = match image.class {
        ImageClass::Storage { format, .. } => storage_scalar_texel(format),
        _ => None,
    };
    let Some(scalar) = scalar else {
        needs.error(error_at(
            "texture atomics need an r32uint, r32sint or r64uint storage texture",
            naga::Span::UNDEFINED,
            "atomic on this texture",
        ));
        return String::new();
    };
    let (op, negate) = crate::back::common::atomic_op(fun);
    match *fun {
        naga::AtomicFunction::Exchange { compare: None } => text!(
            "{{ {} _s_old; InterlockedExchange({texel}, {value}, _s_old); }}\n",
            types::scalar(scalar)
        ),
        naga::AtomicFunction::Exchange { compare: Some(_) } => {
            needs.error(error_at(
                "textureAtomicCompareExchange is not supported",
                naga::Span::UNDEFINED,
                "compare-exchange on a texture",
            ));
            String::new()
        }
        // WGSL's subtract adds the negated value.
        _ if negate => text!(
            "Interlocked{op}({texel}, 0 - {});\n",
            paren(value, value_prec)
        ),
        _ => text!("Interlocked{op}({texel}, {value});\n"),
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::Needs;
    use super::super::math::test_support::{compile, dxc_available};
    use super::*;
    use naga::{ImageDimension as D, StorageAccess, StorageFormat, SwizzleComponent as Sw};
    use std::fmt::Write as _;

    /// The texts of a level without operands.
    const NONE: [(&str, Prec); 2] = [("", Prec::Word); 2];

    fn sampled(kind: ScalarKind) -> ImageClass {
        ImageClass::Sampled { kind, multi: false }
    }
    const FLOAT: ImageClass = ImageClass::Sampled {
        kind: ScalarKind::Float,
        multi: false,
    };
    const DEPTH: ImageClass = ImageClass::Depth { multi: false };

    fn storage(format: StorageFormat, access: StorageAccess) -> ImageClass {
        ImageClass::Storage { format, access }
    }

    /// The shader under construction: declared textures (by type) and the
    /// body.
    #[derive(Default)]
    struct Shader {
        textures: Vec<(D, bool, ImageClass)>,
        body: String,
        needs: Needs,
        count: usize,
    }

    impl Shader {
        /// The name of the texture of this type, declared once.
        fn texture(&mut self, dim: D, arrayed: bool, class: ImageClass) -> String {
            let key = (dim, arrayed, class);
            let i = match self.textures.iter().position(|k| *k == key) {
                Some(i) => i,
                None => {
                    self.textures.push(key);
                    self.textures.len() - 1
                }
            };
            text!("tex{i}")
        }

        /// `result_type r = expression;`, kept live.
        fn value(&mut self, result_type: &str, expression: &str) {
            let i = self.count;
            self.count += 1;
            let first = if result_type.ends_with(|c: char| c.is_ascii_digit()) {
                text!("r{i}.x")
            } else {
                text!("r{i}")
            };
            let _ = writeln!(self.body, "    {result_type} r{i} = {expression};");
            let _ = writeln!(self.body, "    acc += (float){first};");
        }

        fn source(&self, pixel: bool) -> String {
            let mut src = String::new();
            let (mut t, mut u) = (0, 1);
            for (i, &(dim, arrayed, class)) in self.textures.iter().enumerate() {
                let decl = types::texture_type(dim, arrayed, class);
                let reg = if decl.starts_with("RW") {
                    u += 1;
                    text!("u{}", u - 1)
                } else {
                    t += 1;
                    text!("t{}", t - 1)
                };
                let _ = writeln!(src, "{decl} tex{i} : register({reg});");
            }
            src.push_str("SamplerState samp : register(s0);\nSamplerComparisonState cmp : register(s1);\nRWByteAddressBuffer o : register(u0);\n");
            for h in self.needs.helpers.values() {
                src.push_str(h);
                src.push('\n');
            }
            if pixel {
                src.push_str("float4 main(float4 pos : SV_Position) : SV_Target {\n");
            } else {
                src.push_str("[numthreads(1, 1, 1)]\nvoid main(uint3 id : SV_DispatchThreadID) {\n    float4 pos = asfloat(o.Load4(id.x * 16u));\n");
            }
            src.push_str("    float acc = 0.0;\n    float c1 = pos.x;\n    float2 c2 = pos.xy;\n    float3 c3 = pos.xyz;\n    float lf = pos.w;\n    float dref = pos.z;\n    int i1 = (int)pos.x;\n    uint u1 = (uint)pos.y;\n    int2 i2 = (int2)pos.xy;\n    uint2 u2 = (uint2)pos.xy;\n    int3 i3 = (int3)pos.xyz;\n    uint3 u3 = (uint3)pos.xyz;\n    float4 f4 = pos;\n    uint4 u4 = (uint4)pos;\n    int4 i4 = (int4)pos;\n");
            src.push_str(&self.body);
            if pixel {
                src.push_str("    return (float4)acc;\n}\n");
            } else {
                src.push_str("    o.Store(0u, asuint(acc));\n}\n");
            }
            src
        }
    }

    /// Every sample and gather form on every texture type.
    fn samples(sh: &mut Shader, implicit: bool) {
        // A handle for the level operands, whose texts are given apart.
        let literal = naga::Expression::Literal(naga::Literal::F32(0.0));
        let h = naga::Arena::new().append(literal, naga::Span::UNDEFINED);
        let dims = [
            (D::D1, false, "c1", None),
            (D::D1, true, "c1", None),
            (D::D2, false, "c2", Some("int2(1, -1)")),
            (D::D2, true, "c2", Some("int2(1, -1)")),
            (D::D3, false, "c3", Some("int3(1, 0, -1)")),
            (D::Cube, false, "c3", None),
            (D::Cube, true, "c3", None),
        ];
        for (dim, arrayed, c, offset) in dims {
            for class in [FLOAT, DEPTH] {
                if class == DEPTH && matches!(dim, D::D1 | D::D3) {
                    continue;
                }
                let tex = sh.texture(dim, arrayed, class);
                let result = if class == DEPTH { "float" } else { "float4" };
                let grad = if c == "c3" {
                    ("c3", "c3")
                } else if c == "c2" {
                    ("c2", "c2")
                } else {
                    ("c1", "c1")
                };
                let exact = if class == DEPTH { "i1" } else { "lf" };
                let mut levels = vec![
                    (SampleLevel::Zero, NONE),
                    (
                        SampleLevel::Exact(h),
                        [(exact, Prec::Word), ("", Prec::Word)],
                    ),
                ];
                if implicit {
                    levels.push((SampleLevel::Auto, NONE));
                    levels.push((SampleLevel::Bias(h), [("lf", Prec::Word), ("", Prec::Word)]));
                }
                let gradient = SampleLevel::Gradient { x: h, y: h };
                levels.push((gradient, [(grad.0, Prec::Word), (grad.1, Prec::Word)]));
                for (level, level_operands) in levels {
                    let explicit =
                        matches!(level, SampleLevel::Bias(_) | SampleLevel::Gradient { .. });
                    if class == DEPTH && explicit {
                        continue;
                    }
                    for off in [None, offset] {
                        for layer in if arrayed {
                            vec![Some("i1"), Some("u1")]
                        } else {
                            vec![None]
                        } {
                            let s = Sample {
                                image: Image {
                                    text: &tex,
                                    prec: Prec::Word,
                                    dim,
                                    arrayed,
                                    class,
                                },
                                sampler: "samp",
                                gather: None,
                                coordinate: c,
                                array_index: layer.map(|l| (l, Prec::Word)),
                                offset: off,
                                level,
                                level_operands,
                                depth_ref: None,
                                clamp_to_edge: false,
                                span: naga::Span::UNDEFINED,
                            };
                            let (text, _) = sample(&mut sh.needs, &s);
                            sh.value(result, &text);
                        }
                    }
                }
                // Comparisons and gathers (2D and cube only).
                if matches!(dim, D::D2 | D::Cube) {
                    let layer = if arrayed { Some("i1") } else { None };
                    let mut cmp_levels = vec![SampleLevel::Zero];
                    if implicit {
                        cmp_levels.push(SampleLevel::Auto);
                    }
                    if class == DEPTH {
                        for level in cmp_levels {
                            for off in [None, offset] {
                                let s = Sample {
                                    image: Image {
                                        text: &tex,
                                        prec: Prec::Word,
                                        dim,
                                        arrayed,
                                        class,
                                    },
                                    sampler: "cmp",
                                    gather: None,
                                    coordinate: c,
                                    array_index: layer.map(|l| (l, Prec::Word)),
                                    offset: off,
                                    level,
                                    level_operands: NONE,
                                    depth_ref: Some("dref"),
                                    clamp_to_edge: false,
                                    span: naga::Span::UNDEFINED,
                                };
                                let (text, _) = sample(&mut sh.needs, &s);
                                sh.value("float", &text);
                            }
                        }
                    }
                    for (gather, dref) in [
                        (Sw::X, None),
                        (Sw::Y, None),
                        (Sw::Z, None),
                        (Sw::W, None),
                        (Sw::X, Some("dref")),
                    ] {
                        if class == DEPTH && gather != Sw::X {
                            continue;
                        }
                        if class != DEPTH && dref.is_some() {
                            continue;
                        }
                        for off in [None, offset] {
                            let s = Sample {
                                image: Image {
                                    text: &tex,
                                    prec: Prec::Word,
                                    dim,
                                    arrayed,
                                    class,
                                },
                                sampler: if dref.is_some() { "cmp" } else { "samp" },
                                gather: Some(gather),
                                coordinate: c,
                                array_index: layer.map(|l| (l, Prec::Word)),
                                offset: off,
                                level: SampleLevel::Zero,
                                level_operands: NONE,
                                depth_ref: dref,
                                clamp_to_edge: false,
                                span: naga::Span::UNDEFINED,
                            };
                            let (text, _) = sample(&mut sh.needs, &s);
                            sh.value("float4", &text);
                        }
                    }
                }
            }
        }
        // Gathers of integer textures.
        for kind in [ScalarKind::Sint, ScalarKind::Uint] {
            let tex = sh.texture(D::D2, false, sampled(kind));
            let s = Sample {
                image: Image {
                    text: &tex,
                    prec: Prec::Word,
                    dim: D::D2,
                    arrayed: false,
                    class: sampled(kind),
                },
                sampler: "samp",
                gather: Some(Sw::Y),
                coordinate: "c2",
                array_index: None,
                offset: Some("int2(0, 1)"),
                level: SampleLevel::Zero,
                level_operands: NONE,
                depth_ref: None,
                clamp_to_edge: false,
                span: naga::Span::UNDEFINED,
            };
            let (text, _) = sample(&mut sh.needs, &s);
            let t = if kind == ScalarKind::Sint {
                "int4"
            } else {
                "uint4"
            };
            sh.value(t, &text);
        }
        // textureSampleBaseClampToEdge.
        let tex = sh.texture(D::D2, false, FLOAT);
        let s = Sample {
            image: Image {
                text: &tex,
                prec: Prec::Word,
                dim: D::D2,
                arrayed: false,
                class: FLOAT,
            },
            sampler: "samp",
            gather: None,
            coordinate: "c2",
            array_index: None,
            offset: None,
            level: SampleLevel::Zero,
            level_operands: NONE,
            depth_ref: None,
            clamp_to_edge: true,
            span: naga::Span::UNDEFINED,
        };
        let (text, _) = sample(&mut sh.needs, &s);
        sh.value("float4", &text);
    }

    /// Storage texture classes: (format, WGSL texel type).
    fn storage_formats() -> Vec<(StorageFormat, &'static str)> {
        vec![
            (StorageFormat::Rgba8Unorm, "float4"),
            (StorageFormat::Rgba8Snorm, "float4"),
            (StorageFormat::R32Float, "float4"),
            (StorageFormat::R8Unorm, "float4"),
            (StorageFormat::R16Float, "float4"),
            (StorageFormat::Rg16Float, "float4"),
            (StorageFormat::R8Sint, "int4"),
            (StorageFormat::Rgba32Uint, "uint4"),
            (StorageFormat::Rg32Sint, "int4"),
            (StorageFormat::R32Uint, "uint4"),
            (StorageFormat::R32Sint, "int4"),
        ]
    }

    fn loads_stores_queries(sh: &mut Shader) {
        // Sampled and depth loads, with u32 and i32 coordinates.
        let shapes = [
            (D::D1, false, ["i1", "u1"]),
            (D::D1, true, ["i1", "u1"]),
            (D::D2, false, ["i2", "u2"]),
            (D::D2, true, ["i2", "u2"]),
            (D::D3, false, ["i3", "u3"]),
        ];
        for (dim, arrayed, coords) in shapes {
            for class in [FLOAT, sampled(ScalarKind::Uint), DEPTH] {
                if class == DEPTH && dim != D::D2 {
                    continue;
                }
                let tex = sh.texture(dim, arrayed, class);
                let image = Image {
                    text: &tex,
                    prec: Prec::Word,
                    dim,
                    arrayed,
                    class,
                };
                let result = match class {
                    DEPTH => "float",
                    ImageClass::Sampled {
                        kind: ScalarKind::Uint,
                        ..
                    } => "uint4",
                    _ => "float4",
                };
                for c in coords {
                    let layer = if arrayed { Some("u1") } else { None };
                    for level in [Some("i1"), Some("u1")] {
                        let (text, _) = load(&image, c, layer, None, level);
                        sh.value(result, &text);
                    }
                }
                let (text, _) = query(
                    &mut sh.needs,
                    &image,
                    naga::ImageQuery::Size { level: None },
                    None,
                );
                let t = match dim {
                    D::D1 => "uint",
                    D::D3 => "uint3",
                    _ => "uint2",
                };
                sh.value(t, &text);
                let (text, _) = query(
                    &mut sh.needs,
                    &image,
                    naga::ImageQuery::Size { level: None },
                    Some("i1"),
                );
                sh.value(t, &text);
                let (text, _) = query(&mut sh.needs, &image, naga::ImageQuery::NumLevels, None);
                sh.value("uint", &text);
                if arrayed {
                    let (text, _) = query(&mut sh.needs, &image, naga::ImageQuery::NumLayers, None);
                    sh.value("uint", &text);
                }
            }
        }
        // Cube queries.
        for arrayed in [false, true] {
            for class in [FLOAT, DEPTH] {
                let tex = sh.texture(D::Cube, arrayed, class);
                let image = Image {
                    text: &tex,
                    prec: Prec::Word,
                    dim: D::Cube,
                    arrayed,
                    class,
                };
                let (text, _) = query(
                    &mut sh.needs,
                    &image,
                    naga::ImageQuery::Size { level: None },
                    Some("u1"),
                );
                sh.value("uint2", &text);
                let (text, _) = query(&mut sh.needs, &image, naga::ImageQuery::NumLevels, None);
                sh.value("uint", &text);
                if arrayed {
                    let (text, _) = query(&mut sh.needs, &image, naga::ImageQuery::NumLayers, None);
                    sh.value("uint", &text);
                }
            }
        }
        // Multisampled loads and queries.
        for (arrayed, class, result) in [
            (
                false,
                ImageClass::Sampled {
                    kind: ScalarKind::Float,
                    multi: true,
                },
                "float4",
            ),
            (
                true,
                ImageClass::Sampled {
                    kind: ScalarKind::Sint,
                    multi: true,
                },
                "int4",
            ),
            (false, ImageClass::Depth { multi: true }, "float"),
        ] {
            let tex = sh.texture(D::D2, arrayed, class);
            let image = Image {
                text: &tex,
                prec: Prec::Word,
                dim: D::D2,
                arrayed,
                class,
            };
            let layer = if arrayed { Some("i1") } else { None };
            for c in ["i2", "u2"] {
                for s in ["i1", "u1"] {
                    let (text, _) = load(&image, c, layer, Some(s), None);
                    sh.value(result, &text);
                }
            }
            let (text, _) = query(
                &mut sh.needs,
                &image,
                naga::ImageQuery::Size { level: None },
                None,
            );
            sh.value("uint2", &text);
            let (text, _) = query(&mut sh.needs, &image, naga::ImageQuery::NumSamples, None);
            sh.value("uint", &text);
            if arrayed {
                let (text, _) = query(&mut sh.needs, &image, naga::ImageQuery::NumLayers, None);
                sh.value("uint", &text);
            }
        }
        // Storage textures: read-only, write-only, read-write.
        let rw = StorageAccess::LOAD | StorageAccess::STORE;
        for (format, texel) in storage_formats() {
            for (dim, arrayed, coords, value_layer) in [
                (D::D1, false, ["i1", "u1"], None),
                (D::D2, false, ["i2", "u2"], None),
                (D::D2, true, ["i2", "u2"], Some("i1")),
                (D::D3, false, ["i3", "u3"], None),
            ] {
                for access in [StorageAccess::LOAD, StorageAccess::STORE, rw] {
                    let class = storage(format, access);
                    let tex = sh.texture(dim, arrayed, class);
                    let image = Image {
                        text: &tex,
                        prec: Prec::Word,
                        dim,
                        arrayed,
                        class,
                    };
                    for c in coords {
                        if access.contains(StorageAccess::LOAD) {
                            let (text, _) = load(&image, c, value_layer, None, None);
                            sh.value(texel, &text);
                        }
                        if access.contains(StorageAccess::STORE) {
                            let value = match texel {
                                "float4" => "f4",
                                "uint4" => "u4",
                                _ => "i4",
                            };
                            let text = store(&image, c, value_layer, (value, Prec::Word));
                            let _ = writeln!(sh.body, "    {text}");
                        }
                    }
                    let t = match dim {
                        D::D1 => "uint",
                        D::D3 => "uint3",
                        _ => "uint2",
                    };
                    let (text, _) = query(
                        &mut sh.needs,
                        &image,
                        naga::ImageQuery::Size { level: None },
                        None,
                    );
                    sh.value(t, &text);
                    if arrayed {
                        let (text, _) =
                            query(&mut sh.needs, &image, naga::ImageQuery::NumLayers, None);
                        sh.value("uint", &text);
                    }
                }
            }
        }
        // Atomics.
        for (format, value) in [
            (StorageFormat::R32Uint, "u1"),
            (StorageFormat::R32Sint, "i1"),
        ] {
            for (arrayed, c, layer) in [(false, "i2", None), (true, "u2", Some("u1"))] {
                let class = storage(
                    format,
                    StorageAccess::LOAD | StorageAccess::STORE | StorageAccess::ATOMIC,
                );
                let tex = sh.texture(D::D2, arrayed, class);
                let image = Image {
                    text: &tex,
                    prec: Prec::Word,
                    dim: D::D2,
                    arrayed,
                    class,
                };
                use naga::AtomicFunction as A;
                for fun in [
                    A::Add,
                    A::Subtract,
                    A::And,
                    A::InclusiveOr,
                    A::ExclusiveOr,
                    A::Min,
                    A::Max,
                    A::Exchange { compare: None },
                ] {
                    let text = atomic(&mut sh.needs, &image, c, layer, &fun, (value, Prec::Word));
                    for line in text.lines() {
                        let _ = writeln!(sh.body, "    {line}");
                    }
                }
            }
        }
    }

    fn check(name: &str, sh: &Shader, pixel: bool) {
        assert!(sh.needs.errors.is_empty(), "{:?}", sh.needs.errors);
        if !dxc_available(name) {
            return;
        }
        let src = sh.source(pixel);
        if std::env::var_os("STRIDE_DUMP_HLSL").is_some() {
            eprintln!("{src}");
        }
        let profile = if pixel { "ps_6_0" } else { "cs_6_0" };
        if let Err(e) = compile(name, &src, profile, &[], true) {
            panic!("{e}");
        }
    }

    #[test]
    fn dxc_samples_pixel() {
        let mut sh = Shader::default();
        samples(&mut sh, true);
        check("image_samples_ps", &sh, true);
    }

    #[test]
    fn dxc_samples_compute() {
        let mut sh = Shader::default();
        samples(&mut sh, false);
        check("image_samples_cs", &sh, false);
    }

    #[test]
    fn dxc_loads_stores_queries_atomics() {
        let mut sh = Shader::default();
        loads_stores_queries(&mut sh);
        check("image_loads_cs", &sh, false);
        check("image_loads_ps", &sh, true);
    }

    /// `r64uint` storage textures (shader model 6.6): loads, stores and
    /// atomics on `uint64_t` texels.
    #[test]
    fn dxc_64_bit_texture_atomics() {
        let mut sh = Shader::default();
        let class = storage(
            StorageFormat::R64Uint,
            StorageAccess::LOAD | StorageAccess::STORE | StorageAccess::ATOMIC,
        );
        let tex = sh.texture(D::D2, false, class);
        let image = Image {
            text: &tex,
            prec: Prec::Word,
            dim: D::D2,
            arrayed: false,
            class,
        };
        let (text, _) = load(&image, "i2", None, None, None);
        sh.value("uint64_t4", &text);
        let text = store(&image, "u2", None, ("(uint64_t4)u4", Prec::Operator));
        let _ = writeln!(sh.body, "    {text}");
        use naga::AtomicFunction as A;
        for fun in [
            A::Add,
            A::Subtract,
            A::Min,
            A::Max,
            A::Exchange { compare: None },
        ] {
            let text = atomic(
                &mut sh.needs,
                &image,
                "i2",
                None,
                &fun,
                ("(uint64_t)u1", Prec::Operator),
            );
            let _ = write!(sh.body, "    {text}");
        }
        assert!(sh.needs.errors.is_empty(), "{:?}", sh.needs.errors);
        if !dxc_available("image_r64uint") {
            return;
        }
        // DXC's SPIR-V needs an extension for 64-bit image atomics.
        if let Err(e) = compile("image_r64uint", &sh.source(false), "cs_6_6", &[], false) {
            panic!("{e}");
        }
    }
}
