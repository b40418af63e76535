//! Textures: sampling, texel loads (coordinates clamped as naga's
//! `Restrict` policy does), stores, atomics and queries.
//!
//! Vulkan GLSL keeps textures and samplers separate and combines them at
//! each use (`texture(sampler2D(t, s), uv)`); reads without a sampler use
//! GL_EXT_samplerless_texture_functions. OpenGL dialects read the combined
//! sampler `decl::combined_sampler_name` declares for the pair.

use super::expr::component;
use super::FunctionWriter;
use crate::back::glsl::{decl, types};
use crate::back::text::{coordinate_count, Load, Sample, TextWriter as _};
use naga::{Expression as E, Handle, ImageClass, ImageDimension as Dim, ScalarKind as K};

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
            E::Access { base, index } => Some((base, None, Some(index))),
            E::AccessIndex { base, index } => Some((base, Some(index), None)),
            _ => None,
        };
        if let Some((base, constant, dynamic)) = element {
            let sg = match sampler {
                None => Some(None),
                Some(s) => self.global_of(s).map(Some),
            };
            if let (Some(ig), Some(sg)) = (self.global_of(base), sg) {
                let name = decl::combined_sampler_name(self.ctx, ig, sg);
                let index = match (constant, dynamic) {
                    (Some(c), _) => c.to_string(),
                    (None, Some(d)) => {
                        // ES 3.10 indexes sampler arrays with constants
                        // only; GL_EXT_gpu_shader5 allows dynamically
                        // uniform indices (core in ES 3.20 and GL 4.00).
                        let dialect = self.ctx.dialect();
                        if dialect.is_es() && dialect.version() < 320 {
                            self.needs.extension("GL_EXT_gpu_shader5");
                        }
                        self.expr(d)
                    }
                    (None, None) => String::new(),
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
    /// function takes: `float(x)`/`int(x)` unless it already is one.
    fn as_scalar(&mut self, h: Handle<naga::Expression>, kind: K) -> String {
        let t = self.arg(h);
        match kind {
            _ if self.st.scalar_of(h).kind == kind => t,
            K::Float => format!("float({t})"),
            _ => format!("int({t})"),
        }
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

    pub(super) fn image_sample(&mut self, s: Sample) -> String {
        let (dim, arrayed, class) = self.image_kind(s.image);
        let shadow = s.depth_ref.is_some();
        let tex = self.texture_text(s.image, Some(s.sampler), shadow);
        let depth = matches!(class, ImageClass::Depth { .. });
        let one_row = self.one_row(dim);
        let n = coordinate_count(types::declared_dim(self.ctx.dialect(), dim));

        // Coordinates, the layer, and (for most shadow lookups) the
        // reference value make up one vector. The one row of a 1D texture
        // in ES is sampled at its centre.
        let mut parts = vec![self.arg(s.coordinate)];
        if one_row {
            parts.push("0.5".to_string());
        }
        if let Some(layer) = s.array_index {
            parts.push(self.as_scalar(layer, K::Float));
        }
        let dref = s.depth_ref.map(|d| self.as_scalar(d, K::Float));
        let gathering = s.gather.is_some();
        let separate_ref = gathering || n + usize::from(arrayed) + 1 > 4;
        let mut count = n + usize::from(arrayed);
        if let (Some(d), false) = (&dref, separate_ref) {
            parts.push(d.clone());
            count += 1;
        }
        let mut coords = if parts.len() == 1 {
            parts.remove(0)
        } else {
            format!("vec{count}({})", parts.join(", "))
        };
        let offset = s.offset.map(|o| {
            let o = self.arg(o);
            if one_row {
                format!("ivec2({o}, 0)")
            } else {
                o
            }
        });

        if let Some(comp) = s.gather {
            let f = if offset.is_some() {
                "textureGatherOffset"
            } else {
                "textureGather"
            };
            let mut args = vec![tex, coords];
            args.extend(dref);
            args.extend(offset);
            if !shadow {
                args.push((comp as u32).to_string());
            }
            return format!("{f}({})", args.join(", "));
        }

        if s.clamp_to_edge {
            // textureSampleBaseClampToEdge: clamp to half a texel inside
            // the edges of level 0.
            let half = format!("(vec2(0.5) / vec2(textureSize({tex}, 0)))");
            coords = format!("clamp({coords}, {half}, vec2(1.0) - {half})");
        }

        let mut args = vec![tex, coords];
        let mut tail = Vec::new();
        let name = match s.level {
            naga::SampleLevel::Auto => "texture",
            naga::SampleLevel::Bias(b) => {
                tail.push(self.as_scalar(b, K::Float));
                "texture"
            }
            naga::SampleLevel::Exact(l) => {
                tail.push(self.as_scalar(l, K::Float));
                "textureLod"
            }
            naga::SampleLevel::Zero if shadow && arrayed && dim == Dim::Cube => {
                self.needs.extension("GL_EXT_texture_shadow_lod");
                tail.push("0.0".to_string());
                "textureLod"
            }
            naga::SampleLevel::Zero if shadow && (arrayed || dim == Dim::Cube) => {
                // No textureLod for these shadow samplers: zero gradients
                // select level 0.
                let z = format!("vec{n}(0.0)");
                tail.push(z.clone());
                tail.push(z);
                "textureGrad"
            }
            naga::SampleLevel::Zero => {
                tail.push("0.0".to_string());
                "textureLod"
            }
            naga::SampleLevel::Gradient { x, y } => {
                for d in [x, y] {
                    let d = self.arg(d);
                    tail.push(if one_row {
                        format!("vec2({d}, 0.0)")
                    } else {
                        d
                    });
                }
                "textureGrad"
            }
        };
        if separate_ref {
            args.extend(dref);
        }
        // The offset goes before a bias and after a level or gradients.
        let suffix = if offset.is_some() { "Offset" } else { "" };
        if matches!(s.level, naga::SampleLevel::Bias(_)) {
            args.extend(offset);
            args.extend(tail);
        } else {
            args.extend(tail);
            args.extend(offset);
        }
        let call = format!("{name}{suffix}({})", args.join(", "));
        if depth && !shadow {
            format!("{call}.x")
        } else {
            call
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

    /// Texel load `load` of `image`, appended to `out`.
    pub(super) fn image_load_into(
        &mut self,
        image: Handle<naga::Expression>,
        load: Load,
        out: &mut String,
    ) {
        let Load {
            coordinate,
            array_index,
            sample,
            level,
        } = load;
        let (dim, _, class) = self.image_kind(image);
        let (coords, n) = self.texel_coords(dim, coordinate, array_index);
        let d = self.ctx.dialect();
        match class {
            ImageClass::Storage { format, .. } => {
                let img = self.expr(image);
                for part in ["imageLoad(", &img, ", "] {
                    out.push_str(part);
                }
                push_clamped_coords(out, &coords, n, &["imageSize(", &img, ")"]);
                out.push(')');
                if let Some(swizzle) = types::texel_swizzle(format) {
                    out.push_str(swizzle);
                }
            }
            _ => {
                let multi = matches!(
                    class,
                    ImageClass::Sampled { multi: true, .. } | ImageClass::Depth { multi: true }
                );
                let tex = self.texture_text(image, None, false);
                // The sample index of a multisampled texture, else the
                // level, clamped to those that exist where the dialect can
                // count them: ES has neither textureSamples nor
                // textureQueryLevels, and level 0 always exists.
                let level_zero = level.is_none_or(|l| self.is_zero(l));
                let i = if multi { sample } else { level };
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
                for part in ["texelFetch(", &tex, ", "] {
                    out.push_str(part);
                }
                // A multisampled texture's size has no level.
                let (sep, lod) = if multi { ("", "") } else { (", ", i.as_str()) };
                push_clamped_coords(out, &coords, n, &["textureSize(", &tex, sep, lod, ")"]);
                for part in [", ", &i, ")"] {
                    out.push_str(part);
                }
                if matches!(class, ImageClass::Depth { .. }) {
                    out.push_str(".x");
                }
            }
        }
    }

    pub(super) fn image_query(
        &mut self,
        h: Handle<naga::Expression>,
        image: Handle<naga::Expression>,
        query: naga::ImageQuery,
    ) -> String {
        let (dim, arrayed, class) = self.image_kind(image);
        let storage = matches!(class, ImageClass::Storage { .. });
        let multi = matches!(
            class,
            ImageClass::Sampled { multi: true, .. } | ImageClass::Depth { multi: true }
        );
        let tex = self.texture_text(image, None, false);
        let size = |lod: &str| {
            if storage {
                format!("imageSize({tex})")
            } else if multi {
                format!("textureSize({tex})")
            } else {
                format!("textureSize({tex}, {lod})")
            }
        };
        // Components of the size vector: width.. then layers.
        let dims = match dim {
            Dim::D1 => 1,
            Dim::D2 | Dim::Cube => 2,
            Dim::D3 => 3,
        };
        // The size of a 1D texture in ES is the width of its 2D size.
        let total = dims + usize::from(arrayed) + usize::from(self.one_row(dim));
        match query {
            naga::ImageQuery::Size { level } => {
                let lod = level
                    .map(|l| self.as_scalar(l, K::Sint))
                    .unwrap_or_else(|| "0".into());
                let target = self.type_of(h);
                let s = size(&lod);
                // The width.. components alone (`.xy` of a layered size).
                let swizzle = if total == dims { "" } else { &".xyz"[..=dims] };
                format!("{target}({s}{swizzle})")
            }
            naga::ImageQuery::NumLayers => {
                let s = size("0");
                format!("uint({s}.{})", component(dims as u32))
            }
            naga::ImageQuery::NumLevels => {
                if self.ctx.dialect().is_es() {
                    self.error("ES GLSL cannot query the number of mip levels", h);
                }
                format!("uint(textureQueryLevels({tex}))")
            }
            naga::ImageQuery::NumSamples => {
                if self.ctx.dialect().is_es() {
                    self.error("ES GLSL cannot query the number of samples", h);
                }
                self.samples_extension();
                if storage {
                    format!("uint(imageSamples({tex}))")
                } else {
                    format!("uint(textureSamples({tex}))")
                }
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
    for part in ["clamp(", coords, ", ", zero, ", "] {
        out.push_str(part);
    }
    for part in size {
        out.push_str(part);
    }
    for part in [" - ", one, ")"] {
        out.push_str(part);
    }
}
