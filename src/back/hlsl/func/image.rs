//! Textures: sampling, loads, queries, and the texels that stores and
//! atomics (`super`'s `texel_statement`) write.
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
//!
//! The operands of an image expression or statement are printed in the
//! order naga lists them, before the helper function or the error of its
//! form, so that helpers and errors come in visiting order.

use super::super::types::{self, storage_scalar_texel};
use super::super::{error_at, push_parts, Needs};
use super::expr::{operand_at, push_as_operand};
use super::math::{paren, push_paren};
use super::FunctionWriter;
use crate::back::text::{coordinate_count, size_count, Expr, Load, Prec, Sample, TextWriter as _};
use naga::{ImageClass, ImageDimension, SampleLevel, Scalar, ScalarKind};

/// A texture type's dimension, arrayedness and class.
type Kind = (ImageDimension, bool, ImageClass);

/// The address of a texel of a texture of `dim`: a vector of `s` made of
/// `coordinate` and the layer and level present, `int3(xy, level)`, or
/// `int(x)` (a conversion) for one component.
fn address(s: Scalar, dim: ImageDimension, coordinate: &str, rest: [Option<&str>; 2]) -> String {
    let n = coordinate_count(dim) + rest.iter().flatten().count();
    let mut text = text!("{}({coordinate}", types::shaped(n as u8, s));
    for part in rest.into_iter().flatten() {
        push_parts(&mut text, &[", ", part]);
    }
    text.push(')');
    text
}

/// The name of the helper sampling level 0 with coordinates clamped half a
/// texel inside the edges (`textureSampleBaseClampToEdge`).
fn clamp_to_edge_helper(needs: &mut Needs, kind: Kind) -> String {
    let (t, name) = helper_name("_s_sample_clamp_to_edge_", kind);
    needs.helper(&name, |_| {
        text!(
            "float4 {name}({t} t, SamplerState s, float2 c) {{\n    uint w, h, levels;\n    t.GetDimensions(0u, w, h, levels);\n    float2 half_texel = 0.5 / float2(w, h);\n    return t.SampleLevel(s, clamp(c, half_texel, 1.0 - half_texel), 0.0);\n}}\n"
        )
    });
    name
}

/// The spelling of texture type `kind`, and the name of its helper
/// `prefix`: the prefix, then the spelling's words joined by `_`.
fn helper_name(prefix: &str, (dim, arrayed, class): Kind) -> (String, String) {
    let t = types::texture_type(dim, arrayed, class);
    let mut out = String::with_capacity(prefix.len() + t.len());
    out.push_str(prefix);
    let start = out.len();
    for c in t.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if out.len() == start || !out.ends_with('_') {
            out.push('_');
        }
    }
    while out.len() > start && out.ends_with('_') {
        out.pop();
    }
    (t, out)
}

/// A texel of a storage texture: `t[uint2(xy)]`, `t[uint3(xy, layer)]`.
pub(super) fn storage_texel(
    (tex, prec): (&str, Prec),
    dim: ImageDimension,
    coordinate: &str,
    array_index: Option<&str>,
) -> String {
    let address = address(Scalar::U32, dim, coordinate, [array_index, None]);
    text!("{}[{address}]", paren(tex, prec))
}

/// The helper returning `uint4(width, height, depth or layers, levels or
/// samples)` of a texture of type `kind` at a mip level.
fn dimensions_helper(needs: &mut Needs, (dim, arrayed, class): Kind) -> String {
    let (t, name) = helper_name("_s_dimensions_", (dim, arrayed, class));
    let rw = matches!(class, ImageClass::Storage { access, .. } if types::is_rw(access));
    let multi = class.is_multisampled();
    needs.helper(&name, |_| {
        // The out parameters of GetDimensions, after the level where there
        // is one.
        let mut outs = ["r.x", "r.y", "r.z"][..size_count(dim)].to_vec();
        if arrayed {
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

impl FunctionWriter<'_, '_> {
    /// `textureSample*` and `textureGather*` (`ImageSample` `h`), appended
    /// to `out`, and its class.
    pub(super) fn push_image_sample(&mut self, out: &mut String, h: Expr) -> Prec {
        let Some(s) = Sample::of(&self.st.exprs[h]) else {
            return Prec::Word;
        };
        let (level, gather) = (s.level, s.gather);
        let (l1, l2) = match level {
            SampleLevel::Exact(e) | SampleLevel::Bias(e) => (Some(e), None),
            SampleLevel::Gradient { x, y } => (Some(x), Some(y)),
            _ => (None, None),
        };
        let mut texts = self.st.take_buf();
        let kind = self.image_kind(s.image);
        let operands = [
            Some(s.image),
            Some(s.sampler),
            Some(s.coordinate),
            s.array_index,
            s.offset,
            s.depth_ref,
            l1,
            l2,
        ];
        let [image, sampler, coordinate, layer, offset_text, ref_text, l1, l2] = self
            .push_operands(&mut texts, operands, 2)
            .map(|at| operand_at(&texts, at));
        let (sampler, coordinate) = (sampler.0, coordinate.0);
        let depth_ref = s.depth_ref.map(|_| ref_text.0);
        let n = coordinate_count(kind.0);
        // The coordinate, with the layer appended as a float.
        let push_coordinate = |out: &mut String| match s.array_index.map(|_| layer) {
            Some((layer, prec)) => {
                out.push_str(&types::vector(n as u8 + 1, Scalar::F32));
                push_parts(out, &["(", coordinate, ", (float)"]);
                push_paren(out, layer, prec);
                out.push(')');
            }
            None => out.push_str(coordinate),
        };
        if s.clamp_to_edge {
            let name = clamp_to_edge_helper(self.needs, kind);
            push_parts(out, &[&name, "(", image.0, ", ", sampler, ", "]);
            push_coordinate(out);
            out.push(')');
            self.st.give_buf(texts);
            return Prec::Call;
        }
        let method = if let Some(component) = gather {
            match depth_ref {
                Some(_) => "GatherCmp",
                None => match component {
                    naga::SwizzleComponent::X => "GatherRed",
                    naga::SwizzleComponent::Y => "GatherGreen",
                    naga::SwizzleComponent::Z => "GatherBlue",
                    naga::SwizzleComponent::W => "GatherAlpha",
                },
            }
        } else if depth_ref.is_some() {
            match level {
                SampleLevel::Auto => "SampleCmp",
                SampleLevel::Zero => "SampleCmpLevelZero",
                SampleLevel::Exact(_) | SampleLevel::Bias(_) | SampleLevel::Gradient { .. } => {
                    self.needs.error(error_at(
                        "HLSL at shader model 6.6 and below compares depth samples only with implicit derivatives or at level 0",
                        self.st.exprs.get_span(h),
                        "depth comparison with an explicit level, bias or gradients",
                    ));
                    "SampleCmpLevelZero"
                }
            }
        } else {
            match level {
                SampleLevel::Auto => "Sample",
                SampleLevel::Zero | SampleLevel::Exact(_) => "SampleLevel",
                SampleLevel::Bias(_) => "SampleBias",
                SampleLevel::Gradient { .. } => "SampleGrad",
            }
        };
        // A method call, `t.Sample(...)`, in parentheses of its own.
        out.push('(');
        push_paren(out, image.0, image.1);
        push_parts(out, &[".", method, "(", sampler, ", "]);
        push_coordinate(out);
        if let Some(r) = depth_ref {
            // A depth comparison takes the reference and no level.
            push_parts(out, &[", ", r]);
        } else if gather.is_none() {
            let ((l, prec), (y, _)) = (l1, l2);
            match level {
                SampleLevel::Auto => {}
                SampleLevel::Zero => out.push_str(", 0.0"),
                SampleLevel::Exact(_) => {
                    out.push_str(", ");
                    // Depth textures take integer levels in WGSL.
                    if kind.2.is_depth() {
                        out.push_str("(float)");
                        push_paren(out, l, prec);
                    } else {
                        out.push_str(l);
                    }
                }
                SampleLevel::Bias(_) => push_parts(out, &[", ", l]),
                SampleLevel::Gradient { .. } => push_parts(out, &[", ", l, ", ", y]),
            }
        }
        if let Some(o) = s.offset.map(|_| offset_text.0) {
            push_parts(out, &[", ", o]);
        }
        out.push_str("))");
        self.st.give_buf(texts);
        Prec::Group
    }

    /// `textureLoad` (`ImageLoad` `h`), appended to `out`, and its class.
    pub(super) fn push_image_load(&mut self, out: &mut String, h: Expr) -> Prec {
        let Some(load) = Load::of(&self.st.exprs[h]) else {
            return Prec::Word;
        };
        let mut texts = self.st.take_buf();
        let (dim, _, class) = self.image_kind(load.image);
        let operands = [
            Some(load.image),
            Some(load.coordinate),
            load.array_index,
            load.sample,
            load.level,
        ];
        let [image, coordinate_text, layer_text, sample_text, level_text] = self
            .push_operands(&mut texts, operands, 1)
            .map(|at| operand_at(&texts, at));
        let coordinate = coordinate_text.0;
        let layer = load.array_index.map(|_| layer_text.0);
        let tex = paren(image.0, image.1);
        let prec = match class {
            ImageClass::Storage { format, .. } => {
                let texel = storage_texel(image, dim, coordinate, layer);
                match storage_scalar_texel(format) {
                    Some(s) => {
                        let (zero, one) = match s.kind {
                            ScalarKind::Sint => ("0", "1"),
                            ScalarKind::Float => ("0.0", "1.0"),
                            _ => ("0u", "1u"),
                        };
                        let widened =
                            text!("{}({texel}, {zero}, {zero}, {one})", types::vector(4, s));
                        push_as_operand(out, &widened, Prec::Call)
                    }
                    None => push_as_operand(out, &texel, Prec::Postfix),
                }
            }
            ImageClass::Sampled { multi: true, .. } | ImageClass::Depth { multi: true } => {
                let address = address(Scalar::I32, dim, coordinate, [layer, None]);
                let sample = load.sample.map_or("0", |_| sample_text.0);
                let loaded = text!("{tex}.Load({address}, {sample})");
                push_as_operand(out, &loaded, Prec::Postfix)
            }
            // texture_external is lowered to textures in the front end.
            ImageClass::Sampled { .. } | ImageClass::Depth { .. } | ImageClass::External => {
                let level = load.level.map_or("0", |_| level_text.0);
                let address = address(Scalar::I32, dim, coordinate, [layer, Some(level)]);
                push_as_operand(out, &text!("{tex}.Load({address})"), Prec::Postfix)
            }
        };
        self.st.give_buf(texts);
        prec
    }

    /// `textureDimensions`, `textureNumLevels`, `textureNumLayers`,
    /// `textureNumSamples` of `image`, appended to `out`, and its class:
    /// through a helper function, as HLSL's `GetDimensions` needs out
    /// parameters (a size query without a level is of level 0).
    pub(super) fn push_image_query(
        &mut self,
        out: &mut String,
        image: Expr,
        query: naga::ImageQuery,
    ) -> Prec {
        use naga::ImageQuery as Q;
        let level = match query {
            Q::Size { level } => level,
            _ => None,
        };
        let mut texts = self.st.take_buf();
        let kind = self.image_kind(image);
        let [image_at, level_at] = self
            .push_operands(&mut texts, [Some(image), level], 1)
            .map(|at| operand_at(&texts, at));
        let name = dimensions_helper(self.needs, kind);
        let swizzle = match query {
            Q::Size { .. } => &"xyz"[..size_count(kind.0)],
            Q::NumLayers => "z",
            Q::NumLevels | Q::NumSamples => "w",
        };
        let level = level.map_or("0u", |_| level_at.0);
        push_parts(
            out,
            &["(", &name, "(", image_at.0, ", ", level, ").", swizzle, ")"],
        );
        self.st.give_buf(texts);
        Prec::Group
    }
}

#[cfg(test)]
mod tests {
    use super::super::math::test_support::{compile, dxc_available};
    use crate::back::hlsl::{HlslOptions, ShaderModel};
    use naga::{Expression as E, Literal as L, SampleLevel, Statement as S};
    use std::fmt::Write as _;

    /// A WGSL shader under construction: its textures (declared once per
    /// type) and the statements of its entry point `main`.
    #[derive(Default)]
    struct Shader {
        textures: Vec<String>,
        body: String,
    }

    impl Shader {
        /// The name of the texture of WGSL type `ty`, declared once.
        fn texture(&mut self, ty: &str) -> String {
            let i = match self.textures.iter().position(|t| t == ty) {
                Some(i) => i,
                None => {
                    self.textures.push(ty.to_string());
                    self.textures.len() - 1
                }
            };
            format!("tex{i}")
        }

        /// Scalar `value` kept live, added to `acc`.
        fn value(&mut self, value: &str) {
            let _ = writeln!(self.body, "    acc += f32({value});");
        }

        fn statement(&mut self, statement: &str) {
            let _ = writeln!(self.body, "    {statement};");
        }

        fn source(&self, pixel: bool) -> String {
            let mut src = String::new();
            for (i, t) in self.textures.iter().enumerate() {
                let _ = writeln!(src, "@group(0) @binding({i}) var tex{i}: {t};");
            }
            src.push_str("@group(1) @binding(0) var samp: sampler;\n@group(1) @binding(1) var cmp: sampler_comparison;\n");
            if pixel {
                src.push_str(
                    "@fragment fn main(@builtin(position) pos: vec4f) -> @location(0) vec4f {\n",
                );
            } else {
                src.push_str("@group(1) @binding(2) var<storage, read_write> o: array<vec4f>;\n@compute @workgroup_size(1) fn main(@builtin(global_invocation_id) id: vec3u) {\n    let pos = o[id.x];\n");
            }
            src.push_str("    var acc = 0.0;\n    let c1 = pos.x;\n    let c2 = pos.xy;\n    let c3 = pos.xyz;\n    let lf = pos.w;\n    let dref = pos.z;\n    let i1 = i32(pos.x);\n    let u1 = u32(pos.y);\n    let i2 = vec2i(pos.xy);\n    let u2 = vec2u(pos.xy);\n    let i3 = vec3i(pos.xyz);\n    let u3 = vec3u(pos.xyz);\n    let f4 = pos;\n    let u4 = vec4u(pos);\n    let i4 = vec4i(pos);\n");
            src.push_str(&self.body);
            if pixel {
                src.push_str("    return vec4f(acc);\n}\n");
            } else {
                src.push_str("    o[0].x = acc;\n}\n");
            }
            src
        }
    }

    /// Every sample and gather form on every texture type WGSL has. A
    /// level written `0.0` (or `0` for depth) stands for level zero
    /// (`SampleLevel::Zero`, which WGSL writes only for gathers and
    /// `textureSampleBaseClampToEdge`): [`translate`] makes it one.
    fn samples(sh: &mut Shader, implicit: bool) {
        // (dimension, arrayed, coordinate, offset).
        let dims = [
            ("1d", false, "c1", None),
            ("2d", false, "c2", Some("vec2i(1, -1)")),
            ("2d", true, "c2", Some("vec2i(1, -1)")),
            ("3d", false, "c3", Some("vec3i(1, 0, -1)")),
            ("cube", false, "c3", None),
            ("cube", true, "c3", None),
        ];
        for (dim, arrayed, c, offset) in dims {
            let array = if arrayed { "_array" } else { "" };
            for depth in [false, true] {
                if depth && matches!(dim, "1d" | "3d") {
                    continue;
                }
                let tex = if depth {
                    sh.texture(&format!("texture_depth_{dim}{array}"))
                } else {
                    sh.texture(&format!("texture_{dim}{array}<f32>"))
                };
                let x = if depth { "" } else { ".x" };
                let layers: &[&str] = if arrayed { &[", i1", ", u1"] } else { &[""] };
                for off in if offset.is_some() {
                    vec![None, offset]
                } else {
                    vec![None]
                } {
                    let o = off.map_or(String::new(), |o| format!(", {o}"));
                    for layer in layers {
                        let args = |level: &str| format!("{tex}, samp, {c}{layer}{level}{o}");
                        let (exact, zero) = if depth { ("i1", "0") } else { ("lf", "0.0") };
                        for level in [zero, exact] {
                            let a = args(&format!(", {level}"));
                            sh.value(&format!("textureSampleLevel({a}){x}"));
                        }
                        if implicit {
                            sh.value(&format!("textureSample({}){x}", args("")));
                            // naga biases no 1D sample.
                            if !depth && dim != "1d" {
                                let a = args(", lf");
                                sh.value(&format!("textureSampleBias({a}){x}"));
                            }
                        }
                        if !depth {
                            let a = args(&format!(", {c}, {c}"));
                            sh.value(&format!("textureSampleGrad({a}){x}"));
                        }
                    }
                    // Comparisons and gathers (2D and cube only).
                    if !matches!(dim, "2d" | "cube") {
                        continue;
                    }
                    let layer = if arrayed { ", i1" } else { "" };
                    if depth {
                        let a = format!("{tex}, cmp, {c}{layer}, dref{o}");
                        sh.value(&format!("textureSampleCompareLevel({a})"));
                        if implicit {
                            sh.value(&format!("textureSampleCompare({a})"));
                        }
                        sh.value(&format!("textureGatherCompare({a}).x"));
                        sh.value(&format!("textureGather({tex}, samp, {c}{layer}{o}).x"));
                    } else {
                        for component in 0..4 {
                            let a = format!("{component}, {tex}, samp, {c}{layer}{o}");
                            sh.value(&format!("textureGather({a}).x"));
                        }
                    }
                }
            }
        }
        // Gathers of integer textures.
        for kind in ["i32", "u32"] {
            let tex = sh.texture(&format!("texture_2d<{kind}>"));
            sh.value(&format!("textureGather(1, {tex}, samp, c2, vec2i(0, 1)).x"));
        }
        // textureSampleBaseClampToEdge.
        let tex = sh.texture("texture_2d<f32>");
        sh.value(&format!("textureSampleBaseClampToEdge({tex}, samp, c2).x"));
    }

    /// Storage texture formats and the WGSL value a texel of each is.
    const STORAGE_FORMATS: [(&str, &str); 11] = [
        ("rgba8unorm", "f4"),
        ("rgba8snorm", "f4"),
        ("r32float", "f4"),
        ("r8unorm", "f4"),
        ("r16float", "f4"),
        ("rg16float", "f4"),
        ("r8sint", "i4"),
        ("rgba32uint", "u4"),
        ("rg32sint", "i4"),
        ("r32uint", "u4"),
        ("r32sint", "i4"),
    ];

    /// Loads, stores, queries and atomics on every texture type WGSL has.
    fn loads_stores_queries(sh: &mut Shader) {
        // Sampled and depth loads, with u32 and i32 coordinates.
        let shapes = [
            ("1d", false, ["i1", "u1"]),
            ("2d", false, ["i2", "u2"]),
            ("2d", true, ["i2", "u2"]),
            ("3d", false, ["i3", "u3"]),
        ];
        for (dim, arrayed, coords) in shapes {
            let array = if arrayed { "_array" } else { "" };
            for kind in ["<f32>", "<u32>", "depth"] {
                if kind == "depth" && dim != "2d" {
                    continue;
                }
                let tex = match kind {
                    "depth" => sh.texture(&format!("texture_depth_{dim}{array}")),
                    _ => sh.texture(&format!("texture_{dim}{array}{kind}")),
                };
                let x = if kind == "depth" { "" } else { ".x" };
                let layer = if arrayed { ", u1" } else { "" };
                for c in coords {
                    for level in ["i1", "u1"] {
                        sh.value(&format!("textureLoad({tex}, {c}{layer}, {level}){x}"));
                    }
                }
                let x = if dim == "1d" { "" } else { ".x" };
                sh.value(&format!("textureDimensions({tex}){x}"));
                sh.value(&format!("textureDimensions({tex}, i1){x}"));
                sh.value(&format!("textureNumLevels({tex})"));
                if arrayed {
                    sh.value(&format!("textureNumLayers({tex})"));
                }
            }
        }
        // Cube queries.
        for array in ["", "_array"] {
            for ty in ["texture_cube{array}<f32>", "texture_depth_cube{array}"] {
                let tex = sh.texture(&ty.replace("{array}", array));
                sh.value(&format!("textureDimensions({tex}, u1).x"));
                sh.value(&format!("textureNumLevels({tex})"));
                if !array.is_empty() {
                    sh.value(&format!("textureNumLayers({tex})"));
                }
            }
        }
        // Multisampled loads and queries.
        for (ty, x) in [
            ("texture_multisampled_2d<f32>", ".x"),
            ("texture_multisampled_2d<i32>", ".x"),
            ("texture_depth_multisampled_2d", ""),
        ] {
            let tex = sh.texture(ty);
            for c in ["i2", "u2"] {
                for s in ["i1", "u1"] {
                    sh.value(&format!("textureLoad({tex}, {c}, {s}){x}"));
                }
            }
            sh.value(&format!("textureDimensions({tex}).x"));
            sh.value(&format!("textureNumSamples({tex})"));
        }
        // Storage textures: read-only, write-only, read-write.
        for (format, value) in STORAGE_FORMATS {
            for (dim, arrayed, coords) in [
                ("1d", false, ["i1", "u1"]),
                ("2d", false, ["i2", "u2"]),
                ("2d", true, ["i2", "u2"]),
                ("3d", false, ["i3", "u3"]),
            ] {
                let array = if arrayed { "_array" } else { "" };
                let layer = if arrayed { ", i1" } else { "" };
                for access in ["read", "write", "read_write"] {
                    let ty = format!("texture_storage_{dim}{array}<{format}, {access}>");
                    let tex = sh.texture(&ty);
                    for c in coords {
                        if access != "write" {
                            sh.value(&format!("textureLoad({tex}, {c}{layer}).x"));
                        }
                        if access != "read" {
                            sh.statement(&format!("textureStore({tex}, {c}{layer}, {value})"));
                        }
                    }
                    let x = if dim == "1d" { "" } else { ".x" };
                    sh.value(&format!("textureDimensions({tex}){x}"));
                    if arrayed {
                        sh.value(&format!("textureNumLayers({tex})"));
                    }
                }
            }
        }
        // Atomics.
        for (format, value) in [("r32uint", "u1"), ("r32sint", "i1")] {
            for (array, c, layer) in [("", "i2", ""), ("_array", "u2", ", u1")] {
                let tex = sh.texture(&format!("texture_storage_2d{array}<{format}, atomic>"));
                for _ in ATOMICS {
                    sh.statement(&format!("textureAtomicMax({tex}, {c}{layer}, {value})"));
                }
            }
        }
    }

    /// The texture atomics: WGSL has no subtract nor exchange, so the
    /// shaders write `textureAtomicMax` and [`translate`] makes the
    /// atomics these, in turn.
    const ATOMICS: [naga::AtomicFunction; 8] = {
        use naga::AtomicFunction as A;
        [
            A::Add,
            A::Subtract,
            A::And,
            A::InclusiveOr,
            A::ExclusiveOr,
            A::Min,
            A::Max,
            A::Exchange { compare: None },
        ]
    };

    /// `source` translated to HLSL (the profile of `main` and the text),
    /// with the IR WGSL cannot write made first: an explicit level of
    /// literal zero becomes `SampleLevel::Zero`; the texture atomics become
    /// `atomics`, in turn. `model`: the shader model to write for. Also
    /// how many levels and atomics were rewritten.
    fn translate(
        source: &str,
        atomics: &[naga::AtomicFunction],
        model: Option<ShaderModel>,
    ) -> (String, String, [usize; 2]) {
        let (mut parsed, info, contract) = crate::back::test_support::analyzed(source);
        let function = &mut parsed.module.entry_points[0].function;
        let zeros: Vec<_> = function
            .expressions
            .iter()
            .filter(|(_, e)| matches!(e, E::Literal(L::F32(0.0) | L::I32(0))))
            .map(|(h, _)| h)
            .collect();
        let mut rewritten = [0, 0];
        for (_, e) in function.expressions.iter_mut() {
            if let E::ImageSample { ref mut level, .. } = *e {
                if matches!(*level, SampleLevel::Exact(h) if zeros.contains(&h)) {
                    *level = SampleLevel::Zero;
                    rewritten[0] += 1;
                }
            }
        }
        let mut next = atomics.iter().cycle();
        for statement in function.body.iter_mut() {
            if let (S::ImageAtomic { ref mut fun, .. }, Some(&f)) = (statement, next.next()) {
                *fun = f;
                rewritten[1] += 1;
            }
        }
        let options = HlslOptions {
            shader_model: model,
            ..HlslOptions::default()
        };
        let out = crate::back::write_text(&parsed, &info, &contract, &Default::default(), &options)
            .unwrap_or_else(|e| panic!("{e:?}\n{source}"));
        let profile = out.entry_points[0].profile(out.shader_model);
        (profile, out.text, rewritten)
    }

    /// Translates `sh` and compiles it with DXC where DXC is installed;
    /// how many levels and atomics [`translate`] rewrote.
    fn check(name: &str, sh: &Shader, pixel: bool) -> [usize; 2] {
        let source = sh.source(pixel);
        let (profile, text, rewritten) = translate(&source, &ATOMICS, None);
        if !dxc_available(name) {
            return rewritten;
        }
        if std::env::var_os("STRIDE_DUMP_HLSL").is_some() {
            eprintln!("{text}");
        }
        if let Err(e) = compile(name, &text, &profile, &[], true) {
            panic!("{e}");
        }
        rewritten
    }

    #[test]
    fn dxc_samples_pixel() {
        let mut sh = Shader::default();
        samples(&mut sh, true);
        // The zero levels WGSL cannot write are made and compiled.
        assert!(check("image_samples_ps", &sh, true)[0] > 0);
    }

    #[test]
    fn dxc_samples_compute() {
        let mut sh = Shader::default();
        samples(&mut sh, false);
        assert!(check("image_samples_cs", &sh, false)[0] > 0);
    }

    #[test]
    fn dxc_loads_stores_queries_atomics() {
        let mut sh = Shader::default();
        loads_stores_queries(&mut sh);
        // Every texture atomic gets one of the functions WGSL cannot write.
        let atomics = sh.source(false).matches("textureAtomic").count();
        assert_eq!(check("image_loads_cs", &sh, false)[1], atomics);
        check("image_loads_ps", &sh, true);
    }

    /// `r64uint` storage textures (shader model 6.6): loads, stores and
    /// atomics on `u64` texels.
    #[test]
    fn dxc_64_bit_texture_atomics() {
        let mut sh = Shader::default();
        let tex = sh.texture("texture_storage_2d<r64uint, atomic>");
        sh.value(&format!("textureLoad({tex}, i2).x"));
        sh.statement(&format!("textureStore({tex}, u2, vec4<u64>(u4))"));
        use naga::AtomicFunction as A;
        let atomics = [
            A::Add,
            A::Subtract,
            A::Min,
            A::Max,
            A::Exchange { compare: None },
        ];
        for _ in atomics {
            sh.statement(&format!("textureAtomicMax({tex}, i2, u64(u1))"));
        }
        // Without --shader-model: 64-bit texture atomics choose 6.6.
        let (profile, text, [_, rewritten]) = translate(&sh.source(false), &atomics, None);
        assert_eq!(profile, "cs_6_6");
        assert_eq!(rewritten, atomics.len());
        if !dxc_available("image_r64uint") {
            return;
        }
        // DXC's SPIR-V needs an extension for 64-bit image atomics.
        if let Err(e) = compile("image_r64uint", &text, &profile, &[], false) {
            panic!("{e}");
        }
    }
}
