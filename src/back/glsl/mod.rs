//! GLSL backend: whole shaders, one entry point per output file, whose
//! uniform and storage blocks read exactly the contract bytes.
//!
//! Buffers are written by [`buffers`]: the top-level members of a WGSL
//! buffer type are flattened into the block, each with `layout(offset = N)`
//! from the contract (padding members where the dialect has no offset
//! qualifier); nested structs become padded "buffer variants"; matrices
//! whose std140 column stride differs from the contract are split into
//! column vectors. Everything else reads naga IR and prints:
//!
//! - `types`: GLSL spellings of value types and the value struct declarations;
//! - `decl`: the header, constants, overrides, resources and their bindings,
//!   private and workgroup globals, and the entry point's inputs and outputs;
//! - `func`: function bodies (expressions, statements, WGSL's defined
//!   behaviours as polyfills);
//! - `keywords`: reserved words the namer must avoid.
//!
//! Function code always works on value types (plain GLSL structs with the
//! WGSL members); only pointers into buffers see buffer variants, through a
//! [`buffers::Repr`] that says how to index, load and store them.

pub(crate) use crate::back::common::push_decimal;

mod buffers;
pub(crate) mod decl;
mod func;
mod keywords;
mod types;

pub use buffers::Repr;

use crate::diag::Diagnostic;
use naga::{FastIndexMap, FastIndexSet};

/// The GLSL dialects stride writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Dialect {
    /// `#version 450` for Vulkan: descriptor sets, separate samplers,
    /// specialization constants.
    #[default]
    Vulkan450,
    Gl430,
    Gl440,
    Gl450,
    Gl460,
    Es310,
    Es320,
}

impl Dialect {
    pub const ALL: [Dialect; 7] = [
        Dialect::Vulkan450,
        Dialect::Gl430,
        Dialect::Gl440,
        Dialect::Gl450,
        Dialect::Gl460,
        Dialect::Es310,
        Dialect::Es320,
    ];

    /// Each dialect's name on the command line and its `#version` number,
    /// in declaration (and [`Dialect::ALL`]) order.
    const SPELLINGS: [(&'static str, u16); 7] = [
        ("vulkan450", 450),
        ("gl430", 430),
        ("gl440", 440),
        ("gl450", 450),
        ("gl460", 460),
        ("es310", 310),
        ("es320", 320),
    ];

    /// The name on the command line (`--glsl NAME`).
    pub fn name(self) -> &'static str {
        Self::SPELLINGS[self as usize].0
    }

    pub fn from_name(name: &str) -> Option<Dialect> {
        Dialect::ALL.into_iter().find(|d| d.name() == name)
    }

    /// The number in `#version N`.
    pub fn version(self) -> u16 {
        Self::SPELLINGS[self as usize].1
    }

    pub fn is_vulkan(self) -> bool {
        self == Dialect::Vulkan450
    }

    pub fn is_es(self) -> bool {
        matches!(self, Dialect::Es310 | Dialect::Es320)
    }

    /// Whether block members may carry `layout(offset = N)`: GLSL 4.40 and
    /// later, 4.30 with GL_ARB_enhanced_layouts; never in ES.
    pub fn has_offset_qualifier(self) -> bool {
        !self.is_es()
    }
}

impl std::fmt::Display for Dialect {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[derive(Clone, Debug, PartialEq, Default)]
pub struct GlslOptions {
    pub dialect: Dialect,
    /// Declare buffers that hold f16 as their 32-bit words in `vulkan450`
    /// too, as every OpenGL dialect must (`buffers::words`). Off by
    /// default: Vulkan GLSL holds f16 in blocks with 16-bit storage. The
    /// execution test turns it on to run the OpenGL dialects' f16 code on
    /// a Vulkan driver.
    pub f16_words: bool,
}

/// One output file: one entry point.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GlslFile {
    pub entry_point: String,
    pub stage: naga::ShaderStage,
    pub text: String,
}

impl GlslFile {
    /// `vert`, `frag` or `comp`: the file extension glslang expects.
    pub fn stage_extension(&self) -> &'static str {
        stage_extension(self.stage)
    }
}

pub fn stage_extension(stage: naga::ShaderStage) -> &'static str {
    match stage {
        naga::ShaderStage::Vertex => "vert",
        naga::ShaderStage::Fragment => "frag",
        naga::ShaderStage::Compute => "comp",
        naga::ShaderStage::Task => "task",
        naga::ShaderStage::Mesh => "mesh",
        _ => "glsl",
    }
}

/// A texture and sampler used together. OpenGL dialects declare one
/// combined `sampler*` per pair (`<texture>_<sampler>`); Vulkan GLSL keeps
/// them separate and combines at each use.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CombinedSampler {
    pub texture: String,
    /// `None`: a texture read without a sampler (texelFetch and friends),
    /// which OpenGL still declares as a `sampler*`.
    pub sampler: Option<String>,
    /// The GLSL name of the combined sampler.
    pub name: String,
    /// Its texture unit (OpenGL dialects).
    pub binding: u32,
}

/// Where a resource global is bound in one output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GlslBinding {
    /// The WGSL global's name.
    pub global: String,
    /// The GLSL declaration's name.
    pub glsl_name: String,
    /// `uniform-block`, `storage-block`, `texture`, `sampler`, `image`,
    /// `combined-sampler`.
    pub kind: &'static str,
    /// Descriptor set (Vulkan); `None` in OpenGL dialects.
    pub set: Option<u32>,
    pub binding: u32,
    /// A buffer declared as its 32-bit words (`uint _s_words[]`; a uniform
    /// block `uvec4 _s_words[N]`) rather than as members: it holds f16
    /// outside Vulkan, or no GLSL block can hold its layout. Its bytes are
    /// still the contract's; only reflection by member name finds nothing.
    pub words: bool,
}

#[derive(Clone, Debug, Default)]
pub struct GlslOutput {
    pub files: Vec<GlslFile>,
    /// The bindings of every file, in file order then declaration order.
    pub bindings: Vec<(String, Vec<GlslBinding>)>,
    /// OpenGL dialects: the combined samplers of every file.
    pub combined_samplers: Vec<(String, Vec<CombinedSampler>)>,
    pub warnings: Vec<Diagnostic>,
}

/// Everything the parts of the writer share for one module.
pub(crate) type Ctx<'a> =
    crate::back::common::WriterCtx<'a, GlslOptions, buffers::Plan, types::TypeNames, ()>;

impl Ctx<'_> {
    pub fn dialect(&self) -> Dialect {
        self.options.dialect
    }
}

/// What writing one entry point's code found it needs, collected while
/// writing and printed above the code.
#[derive(Default)]
pub(crate) struct Needs {
    /// `#extension NAME : require` lines, in first-use order.
    pub extensions: FastIndexSet<&'static str>,
    /// Helper functions (polyfills for WGSL's defined behaviours, buffer
    /// conversions), keyed by the function's GLSL name, in first-use order.
    /// Each value is the complete definition.
    pub helpers: FastIndexMap<String, String>,
    /// Errors found while writing (a construct the dialect cannot express).
    pub errors: Vec<Diagnostic>,
}

impl Needs {
    pub fn extension(&mut self, name: &'static str) {
        self.extensions.insert(name);
    }

    /// Add helper `name` unless present; `define` is called only the first time.
    pub fn helper(&mut self, name: &str, define: impl FnOnce() -> String) {
        if !self.helpers.contains_key(name) {
            let text = define();
            self.helpers.insert(name.to_string(), text);
        }
    }
}

/// Whether `name` holds `__`, which GLSL reserves in every identifier
/// (a byte scan: cheaper than a substring search for names this short).
pub(crate) fn has_double_underscore(name: &str) -> bool {
    name.as_bytes().windows(2).any(|w| w == b"__")
}

/// `name` with every run of `_` collapsed to one, as GLSL reserves `__`
/// (naga's namer ends names that end in a digit with `_`, so joined names
/// may double it); the name itself, no copy, when it has none.
pub(crate) fn collapse_underscores(name: String) -> String {
    if !has_double_underscore(&name) {
        return name;
    }
    let mut out = String::with_capacity(name.len());
    for c in name.chars() {
        if !(c == '_' && out.ends_with('_')) {
            out.push(c);
        }
    }
    out
}

/// The first of `base`, `retry(&base, 0)`, `retry(&base, 1)`, ... that is
/// not `taken`: how every name the writer makes avoids the others.
pub(crate) fn first_free(
    base: String,
    mut taken: impl FnMut(&str) -> bool,
    retry: fn(&str, usize) -> String,
) -> String {
    if !taken(&base) {
        return base;
    }
    let mut n = 0;
    loop {
        let name = retry(&base, n);
        if !taken(&name) {
            return name;
        }
        n += 1;
    }
}

/// Retry `n` of a taken name under the reserved prefix: `_s_base`,
/// `_s_base_1`, `_s_base_2`, ...
pub(crate) fn prefixed(base: &str, n: usize) -> String {
    match n {
        0 => format!("_s_{base}"),
        n => format!("_s_{base}_{n}"),
    }
}

/// Retry `n` of a taken name: `base_1`, `base_2`, ...
pub(crate) fn numbered(base: &str, n: usize) -> String {
    format!("{base}_{}", n + 1)
}

/// The note on every error about a buffer layout that is valid WGSL (the
/// SPIR-V target writes it) but that GLSL's block layout rules cannot
/// express. Tools can tell these errors from errors in the source by it.
pub const INEXPRESSIBLE_NOTE: &str =
    "the layout is valid and --target spirv writes it; only GLSL's block layout rules cannot express it";

pub(crate) use crate::back::common::error_at;

/// The extension GLSL `dialect` enables for f16 arithmetic (`float16_t`,
/// `f16vec*`, `f16mat*`): Vulkan GLSL's
/// GL_EXT_shader_explicit_arithmetic_types_float16 ([`types::F16_EXTENSION`],
/// which writing records), and GL_AMD_gpu_shader_half_float, which glslang
/// accepts for desktop GL and ES, in the OpenGL dialects.
pub(crate) fn extension_spelling(dialect: Dialect, extension: &'static str) -> &'static str {
    if extension == types::F16_EXTENSION && !dialect.is_vulkan() {
        "GL_AMD_gpu_shader_half_float"
    } else {
        extension
    }
}

/// Errors for the types of `module` that `dialect` has no spelling for:
/// 64-bit types in GLSL ES and f16 before GLSL 4.50 (one error per scalar
/// kind, at the first type that uses it). f16 arithmetic is written in the
/// other dialects ([`extension_spelling`]), and a buffer that holds f16 is
/// declared as its words outside Vulkan GLSL (`buffers::words`).
pub(crate) fn dialect_type_errors(module: &naga::Module, dialect: Dialect) -> Vec<Diagnostic> {
    let errors = crate::back::common::first_scalar_uses(module).filter_map(|(scalar, ty)| {
        let (why, fix) = match (scalar.width, scalar.kind) {
            (8, _) if dialect.is_es() => (
                "GLSL ES has no 64-bit types",
                "use --glsl vulkan450, or --target spirv",
            ),
            (2, naga::ScalarKind::Float) if !dialect.is_es() && dialect.version() < 450 => (
                "f16 needs GL_AMD_gpu_shader_half_float, whose builtins need GLSL 4.50",
                "use --glsl gl450 or later, --glsl vulkan450, or --target spirv",
            ),
            _ => return None,
        };
        // A 64-bit or 16-bit number (naga's bools are one byte wide).
        let name = crate::layout::Scalar {
            kind: match scalar.kind {
                naga::ScalarKind::Sint => crate::layout::ScalarKind::Sint,
                naga::ScalarKind::Uint => crate::layout::ScalarKind::Uint,
                _ => crate::layout::ScalarKind::Float,
            },
            width: scalar.width,
        }
        .wgsl_name();
        let message = format!("`{name}` cannot be written as GLSL {dialect}: {why}");
        let span = crate::back::common::use_span(module, ty);
        let error = error_at(message, span, format!("uses `{name}`")).note(fix);
        Some(error.with_kind(crate::diag::DiagnosticKind::Unsupported))
    });
    errors.collect()
}
