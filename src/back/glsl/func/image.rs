//! Textures: sampling, texel loads (coordinates clamped as naga's
//! `Restrict` policy does), stores, atomics and queries.
//!
//! Vulkan GLSL keeps textures and samplers separate and combines them at
//! each use (`texture(sampler2D(t, s), uv)`); reads without a sampler use
//! GL_EXT_samplerless_texture_functions. OpenGL dialects read the combined
//! sampler `decl::combined_sampler_name` declares for the pair.

use super::expr::component;
use super::FunctionWriter;
use crate::back::common::push_parts;
use crate::back::glsl::{decl, types};
use crate::back::text::{coordinate_count, size_count, Load, Sample, TextWriter as _};
use naga::{Expression as E, Handle, ImageClass, ImageDimension as Dim, ScalarKind as K};
use std::fmt::Write as _;

impl FunctionWriter<'_, '_> {
    fn global_of(&self, h: Handle<naga::Expression>) -> Option<Handle<naga::GlobalVariable>> {
        match self.st.exprs[h] {
            E::GlobalVariable(g) => Some(g),
            _ => None,
        }
    }

    /// The GLSL text that reads texture `image` (with `sampler`, or without
    /// a sampler for texel fetches and size queries).
    fn texture_text(
        &mut self,
        image: Handle<naga::Expression>,
        sampler: Option<Handle<naga::Expression>>,
        comparison: bool,
    ) -> String {
        let (dim, arrayed, class) = self.image_kind(image);
        if matches!(class, ImageClass::Storage { .. }) {
            return self.expr(image);
        }
        if self.ctx.dialect().is_vulkan() {
            let Some(s) = sampler else {
                self.needs.extension("GL_EXT_samplerless_texture_functions");
                return self.expr(image);
            };
            let t = types::sampler_type(dim, arrayed, class, comparison);
            return format!("{t}({}, {})", self.expr(image), self.expr(s));
        }
        // An element of a binding array of textures: the element of the
        // combined sampler array (one texture unit per element).
        let element = match self.st.exprs[image] {
            E::Access { base, index } => Some((base, Some(index), 0)),
            E::AccessIndex { base, index } => Some((base, None, index)),
            _ => None,
        };
        if let Some((base, dynamic, constant)) = element {
            let sg = match sampler {
                None => Some(None),
                Some(s) => self.global_of(s).map(Some),
            };
            if let (Some(ig), Some(sg)) = (self.global_of(base), sg) {
                let name = decl::combined_sampler_name(self.ctx, ig, sg);
                let index = match dynamic {
                    Some(d) => {
                        // ES 3.10 indexes sampler arrays with constants
                        // only; GL_EXT_gpu_shader5 allows dynamically
                        // uniform indices (core in ES 3.20 and GL 4.00).
                        let dialect = self.ctx.dialect();
                        if dialect.is_es() && dialect.version() < 320 {
                            self.needs.extension("GL_EXT_gpu_shader5");
                        }
                        self.expr(d)
                    }
                    None => constant.to_string(),
                };
                return format!("{name}[{index}]");
            }
        }
        let Some(ig) = self.module_global(
            image,
            "OpenGL GLSL needs the texture to be a module-scope variable here (textures cannot be function parameters)",
        ) else {
            return self.expr(image);
        };
        let sg = sampler.map(|s| {
            self.module_global(
                s,
                "OpenGL GLSL needs the sampler to be a module-scope variable here (samplers cannot be function parameters)",
            )
        });
        // A sampler that is no module-scope variable.
        if sg == Some(None) {
            return self.expr(image);
        }
        decl::combined_sampler_name(self.ctx, ig, sg.flatten())
    }

    /// The module-scope variable that texture or sampler `h` is; where it
    /// is none, `error` (except for a parameter, which is reported at the
    /// function's signature).
    fn module_global(
        &mut self,
        h: Handle<naga::Expression>,
        error: &str,
    ) -> Option<Handle<naga::GlobalVariable>> {
        let global = self.global_of(h);
        if global.is_none() && !matches!(self.st.exprs[h], E::FunctionArgument(_)) {
            self.error(error, h);
        }
        global
    }

    /// Whether a texture of `dim` is a 2D texture of height 1 here (a 1D
    /// texture in GLSL ES, [`types::declared_dim`]): its coordinates get
    /// the row, its size is the width of the 2D size.
    fn one_row(&self, dim: Dim) -> bool {
        types::declared_dim(self.ctx.dialect(), dim) != dim
    }

    /// textureSamples/imageSamples: core in GLSL 4.50.
    fn samples_extension(&mut self) {
        let d = self.ctx.dialect();
        if !d.is_es() && d.version() < 450 {
            self.needs.extension("GL_ARB_shader_texture_image_samples");
        }
    }

    /// `x` as the `float` (`kind` Float) or `int` (Sint) a texture
    /// function takes, appended to `out`: `float(x)`/`int(x)` unless it
    /// already is one.
    fn push_scalar(&mut self, out: &mut String, h: Handle<naga::Expression>, kind: K) {
        let convert = self.st.scalar_of(h).kind != kind;
        if convert {
            out.push_str(if kind == K::Float { "float(" } else { "int(" });
        }
        self.push_bare(out, h);
        if convert {
            out.push(')');
        }
    }

    /// The text [`Self::push_scalar`] writes.
    fn as_scalar(&mut self, h: Handle<naga::Expression>, kind: K) -> String {
        let mut text = String::new();
        self.push_scalar(&mut text, h, kind);
        text
    }

    /// Whether `h` is written as the literal `0`: an `i32` (or abstract)
    /// zero literal or zero value that is not baked into a name.
    fn is_zero(&self, h: Handle<naga::Expression>) -> bool {
        use naga::Literal as L;
        !self.st.baked.contains_key(&h)
            && match self.st.exprs[h] {
                E::Literal(L::I32(0) | L::AbstractInt(0)) => true,
                E::ZeroValue(_) => *self.st.ty(h) == naga::TypeInner::Scalar(naga::Scalar::I32),
                _ => false,
            }
    }

    /// `texture*` and `textureGather*` (`ImageSample` `h`), appended to
    /// `out`. The operands are printed in naga's order (the offset before
    /// a level or gradients it follows).
    pub(super) fn image_sample_into(&mut self, h: Handle<naga::Expression>, out: &mut String) {
        use naga::SampleLevel as L;
        let Some(s) = Sample::of(&self.st.exprs[h]) else {
            return;
        };
        let (dim, arrayed, class) = self.image_kind(s.image);
        let shadow = s.depth_ref.is_some();
        let tex = self.texture_text(s.image, Some(s.sampler), shadow);
        let one_row = self.one_row(dim);
        let n = coordinate_count(types::declared_dim(self.ctx.dialect(), dim));
        // No textureLod for 2D array and cube shadow samplers: zero
        // gradients select level 0 (cube arrays have GL_EXT_texture_shadow_lod).
        let zero_gradients = shadow && arrayed != (dim == Dim::Cube);
        let name = match s.level {
            _ if s.gather.is_some() => "textureGather",
            L::Auto | L::Bias(_) => "texture",
            L::Zero if zero_gradients => "textureGrad",
            L::Zero | L::Exact(_) => "textureLod",
            L::Gradient { .. } => "textureGrad",
        };
        let suffix = if s.offset.is_some() { "Offset" } else { "" };
        let _ = write!(out, "{name}{suffix}({tex}, ");
        if s.clamp_to_edge {
            out.push_str("clamp(");
        }

        // Coordinates, the layer, and (for most shadow lookups) the
        // reference value make up one vector. The one row of a 1D texture
        // in ES is sampled at its centre.
        let separate_ref = s.gather.is_some() || n + usize::from(arrayed) + 1 > 4;
        let inner_ref = s.depth_ref.filter(|_| !separate_ref);
        let vector = one_row || s.array_index.is_some() || inner_ref.is_some();
        if vector {
            let count = n + usize::from(arrayed) + usize::from(inner_ref.is_some());
            let _ = write!(out, "vec{count}(");
        }
        self.push_bare(out, s.coordinate);
        if one_row {
            out.push_str(", 0.5");
        }
        for part in s.array_index.into_iter().chain(inner_ref) {
            out.push_str(", ");
            self.push_scalar(out, part, K::Float);
        }
        if vector {
            out.push(')');
        }
        if s.clamp_to_edge {
            // textureSampleBaseClampToEdge: clamp to half a texel inside
            // the edges of level 0.
            let half = "vec2(0.5) / vec2(textureSize(";
            let _ = write!(out, ", ({half}{tex}, 0))), vec2(1.0) - ({half}{tex}, 0))))");
        }
        if let Some(d) = s.depth_ref.filter(|_| separate_ref) {
            out.push_str(", ");
            self.push_scalar(out, d, K::Float);
        }
        let offset = s.offset.map(|o| match self.arg(o) {
            o if one_row => format!("ivec2({o}, 0)"),
            o => o,
        });
        // The offset goes before a bias or a gather's component and after
        // a level or gradients.
        let offset_first = s.gather.is_some() || matches!(s.level, L::Bias(_));
        if let Some(o) = offset.as_deref().filter(|_| offset_first) {
            let _ = write!(out, ", {o}");
        }
        match s.level {
            _ if s.gather.is_some() => {
                if let Some(comp) = s.gather.filter(|_| !shadow) {
                    let _ = write!(out, ", {}", comp as u32);
                }
            }
            L::Auto => {}
            L::Bias(l) | L::Exact(l) => {
                out.push_str(", ");
                self.push_scalar(out, l, K::Float);
            }
            L::Zero if zero_gradients => {
                let _ = write!(out, ", vec{n}(0.0), vec{n}(0.0)");
            }
            L::Zero => {
                if shadow && arrayed && dim == Dim::Cube {
                    self.needs.extension("GL_EXT_texture_shadow_lod");
                }
                out.push_str(", 0.0");
            }
            L::Gradient { x, y } => {
                for d in [x, y] {
                    out.push_str(if one_row { ", vec2(" } else { ", " });
                    self.push_bare(out, d);
                    if one_row {
                        out.push_str(", 0.0)");
                    }
                }
            }
        }
        if let Some(o) = offset.as_deref().filter(|_| !offset_first) {
            let _ = write!(out, ", {o}");
        }
        out.push(')');
        if class.is_depth() && !shadow && s.gather.is_none() {
            out.push_str(".x");
        }
    }

    /// `ivecN(coordinate[, layer])`.
    pub(super) fn texel_coords(
        &mut self,
        dim: Dim,
        coordinate: Handle<naga::Expression>,
        array_index: Option<Handle<naga::Expression>>,
    ) -> (String, usize) {
        let n = coordinate_count(dim) + usize::from(array_index.is_some());
        if self.one_row(dim) {
            let x = self.as_scalar(coordinate, K::Sint);
            return (format!("ivec2({x}, 0)"), 2);
        }
        let c = self.arg(coordinate);
        let text = match array_index {
            Some(l) => {
                let l = self.as_scalar(l, K::Sint);
                format!("ivec{n}({c}, {l})")
            }
            None if self.st.scalar_of(coordinate).kind == K::Sint => c,
            None if n == 1 => format!("int({c})"),
            None => format!("ivec{n}({c})"),
        };
        (text, n)
    }

    /// Texel load `ImageLoad` `h`, appended to `out`.
    pub(super) fn image_load_into(&mut self, h: Handle<naga::Expression>, out: &mut String) {
        let Some(s) = Load::of(&self.st.exprs[h]) else {
            return;
        };
        let (dim, _, class) = self.image_kind(s.image);
        let (coords, n) = self.texel_coords(dim, s.coordinate, s.array_index);
        let d = self.ctx.dialect();
        match class {
            ImageClass::Storage { format, .. } => {
                let img = self.expr(s.image);
                push_parts(out, &["imageLoad(", &img, ", "]);
                push_clamped_coords(out, &coords, n, &["imageSize(", &img, ")"]);
                out.push(')');
                if let Some(swizzle) = types::texel_swizzle(format) {
                    out.push_str(swizzle);
                }
            }
            _ => {
                let multi = class.is_multisampled();
                let tex = self.texture_text(s.image, None, false);
                // The sample index of a multisampled texture, else the
                // level, clamped to those that exist where the dialect can
                // count them: ES has neither textureSamples nor
                // textureQueryLevels, and level 0 always exists.
                let level_zero = s.level.is_none_or(|l| self.is_zero(l));
                let i = if multi { s.sample } else { s.level };
                let i = i
                    .map(|i| self.as_scalar(i, K::Sint))
                    .unwrap_or_else(|| "0".into());
                let i = if d.is_es() || (!multi && level_zero) {
                    i
                } else if multi {
                    self.samples_extension();
                    ["clamp(", &i, ", 0, textureSamples(", &tex, ") - 1)"].concat()
                } else {
                    ["clamp(", &i, ", 0, textureQueryLevels(", &tex, ") - 1)"].concat()
                };
                push_parts(out, &["texelFetch(", &tex, ", "]);
                // A multisampled texture's size has no level.
                let (sep, lod) = if multi { ("", "") } else { (", ", i.as_str()) };
                push_clamped_coords(out, &coords, n, &["textureSize(", &tex, sep, lod, ")"]);
                push_parts(out, &[", ", &i, ")"]);
                if class.is_depth() {
                    out.push_str(".x");
                }
            }
        }
    }

    /// `textureDimensions`, `textureNumLevels`, `textureNumLayers`,
    /// `textureNumSamples` (`ImageQuery` `h` of `image`), appended to `out`.
    pub(super) fn image_query_into(
        &mut self,
        h: Handle<naga::Expression>,
        image: Handle<naga::Expression>,
        query: naga::ImageQuery,
        out: &mut String,
    ) {
        let (dim, arrayed, class) = self.image_kind(image);
        let storage = matches!(class, ImageClass::Storage { .. });
        let tex = self.texture_text(image, None, false);
        // imageSize/textureSize, imageSamples/textureSamples.
        let family = if storage { "image" } else { "texture" };
        // Storage and multisampled textures have no levels to size.
        let levels = !storage && !class.is_multisampled();
        // Components of the size vector: width.. then layers.
        let dims = size_count(dim);
        // The size of a 1D texture in ES is the width of its 2D size.
        let total = dims + usize::from(arrayed) + usize::from(self.one_row(dim));
        match query {
            naga::ImageQuery::Size { level } => {
                let target = self.type_of(h);
                let _ = write!(out, "{target}({family}Size({tex}");
                if let Some(l) = level.filter(|_| levels) {
                    out.push_str(", ");
                    self.push_scalar(out, l, K::Sint);
                } else if levels {
                    out.push_str(", 0");
                }
                // The width.. components alone (`.xy` of a layered size).
                let swizzle = if total == dims { "" } else { &".xyz"[..=dims] };
                let _ = write!(out, "){swizzle})");
            }
            naga::ImageQuery::NumLayers => {
                let lod = if levels { ", 0" } else { "" };
                let layers = component(dims as u32);
                let _ = write!(out, "uint({family}Size({tex}{lod}).{layers})");
            }
            naga::ImageQuery::NumLevels => {
                if self.ctx.dialect().is_es() {
                    self.error("ES GLSL cannot query the number of mip levels", h);
                }
                let _ = write!(out, "uint(textureQueryLevels({tex}))");
            }
            naga::ImageQuery::NumSamples => {
                if self.ctx.dialect().is_es() {
                    self.error("ES GLSL cannot query the number of samples", h);
                }
                self.samples_extension();
                let _ = write!(out, "uint({family}Samples({tex}))");
            }
        }
    }
}

/// `clamp(coords, 0, size - 1)` for `n` integer coordinates (`ivecN(0)`
/// and `ivecN(1)` for vectors), the size given in parts, appended to `out`.
fn push_clamped_coords(out: &mut String, coords: &str, n: usize, size: &[&str]) {
    let (zero, one) = match n {
        1 => ("0", "1"),
        2 => ("ivec2(0)", "ivec2(1)"),
        3 => ("ivec3(0)", "ivec3(1)"),
        _ => ("ivec4(0)", "ivec4(1)"),
    };
    push_parts(out, &["clamp(", coords, ", ", zero, ", "]);
    push_parts(out, size);
    push_parts(out, &[" - ", one, ")"]);
}
