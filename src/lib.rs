//! stride: a layout-exact shader transpiler.
//!
//! WGSL (plus the layout dialect of the WGSL struct-layout proposal) is
//! parsed, every buffer layout is made explicit in a layout IR, and backends
//! emit targets whose byte layouts are exactly the source's.
//!
//! ```
//! let source = "
//!     struct Params { scale: f32, @align(16) offset: vec3<f32> }
//!     @group(0) @binding(0) var<uniform> params: Params;
//!     @compute @workgroup_size(1) fn main() { _ = params.scale; }
//! ";
//! let options = stride::Options { target: stride::Target::Spirv, ..Default::default() };
//! let translation = stride::translate(source, &options).expect("valid shader");
//! let stride::Output::Binary(words) = translation.output else { unreachable!() };
//! assert_eq!(words[0], 0x0723_0203); // the SPIR-V magic number
//! ```

pub mod back;
pub mod bind;
pub mod diag;
pub mod front;
mod guard;
pub mod layout;
pub mod limits;
pub mod remap;

pub use diag::{Diagnostic, DiagnosticKind, Diagnostics};
pub use layout::RuleSet;

use std::borrow::Cow;
use std::fmt;

/// What to produce.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Target {
    #[default]
    Spirv,
    Glsl,
    Hlsl,
    Slang,
    Layout,
    Reflect,
    /// A C11 header (also C++17) of host structs with the contract's bytes.
    C,
    /// A Rust module of `#[repr(C)]` host structs with the contract's bytes.
    Rust,
}

impl Target {
    pub const ALL: [Target; 8] = [
        Target::Spirv,
        Target::Glsl,
        Target::Hlsl,
        Target::Slang,
        Target::Layout,
        Target::Reflect,
        Target::C,
        Target::Rust,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Target::Spirv => "spirv",
            Target::Glsl => "glsl",
            Target::Hlsl => "hlsl",
            Target::Slang => "slang",
            Target::Layout => "layout",
            Target::Reflect => "reflect",
            Target::C => "c",
            Target::Rust => "rust",
        }
    }

    /// The file extension of this target's output. GLSL writes one file
    /// per entry point, `<stem>.<entry>.<vert|frag|comp>`: see
    /// [`OutputFile::suffix`].
    pub fn extension(self) -> &'static str {
        match self {
            Target::Spirv => "spv",
            Target::Glsl => "glsl",
            Target::Hlsl => "hlsl",
            Target::Slang => "slang",
            Target::Layout => "layout.txt",
            Target::Reflect => "reflect.json",
            Target::C => "h",
            Target::Rust => "rs",
        }
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    pub target: Target,
    /// Extra rule sets shown beside the contract by `--target layout`.
    pub rules: Vec<RuleSet>,
    /// The entry point to write and the override values, for every target.
    pub pipeline: back::Pipeline,
    pub spirv: back::spirv::SpirvOptions,
    /// Dialect of `--target glsl`.
    pub glsl: back::glsl::GlslOptions,
    /// Shader model and registers of `--target hlsl`.
    pub hlsl: back::hlsl::HlslOptions,
    /// Include-guard name and derives of `--target c` and `--target rust`.
    pub host: back::host::HostOptions,
    /// `#line` directives in GLSL, HLSL and Slang text pointing back to
    /// the WGSL lines (default: none, the output as without them), and the
    /// file name they give.
    pub lines: back::lines::LineOptions,
    /// The uniform address space's layout rules: WGSL's, or the storage
    /// rules as under `requires uniform_buffer_standard_layout;` (which a
    /// module can also say itself).
    pub uniform_layout: UniformLayout,
}

/// Which layout rules uniform buffers follow.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum UniformLayout {
    /// WGSL's uniform rules (16-byte array strides, struct sizes and
    /// offsets), unless the module says `requires
    /// uniform_buffer_standard_layout;`.
    #[default]
    Default,
    /// The storage rules, as if every module said `requires
    /// uniform_buffer_standard_layout;`.
    Standard,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            target: Target::Spirv,
            rules: Vec::new(),
            pipeline: back::Pipeline::default(),
            spirv: back::spirv::SpirvOptions::default(),
            glsl: back::glsl::GlslOptions::default(),
            hlsl: back::hlsl::HlslOptions::default(),
            host: back::host::HostOptions::default(),
            lines: back::lines::LineOptions::default(),
            uniform_layout: UniformLayout::Default,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Output {
    Text(String),
    /// SPIR-V words.
    Binary(Vec<u32>),
    /// Several text files (GLSL: one per entry point).
    Files(Vec<OutputFile>),
}

/// One file of a several-file output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutputFile {
    /// What follows `<stem>.` in the file name, e.g. `main.comp`.
    pub suffix: String,
    pub text: String,
}

impl Output {
    /// The bytes to write to a file (SPIR-V little-endian).
    pub fn to_bytes(&self) -> Vec<u8> {
        match self {
            Output::Text(s) => s.clone().into_bytes(),
            Output::Binary(words) => words.iter().flat_map(|w| w.to_le_bytes()).collect(),
            Output::Files(files) => files
                .iter()
                .flat_map(|f| f.text.as_bytes().iter().copied())
                .collect(),
        }
    }
}

/// A successful translation: the output and any warnings.
#[derive(Clone, Debug)]
pub struct Translation {
    pub output: Output,
    pub warnings: Diagnostics,
}

/// Everything stride works out about a source before a backend runs.
#[derive(Debug)]
pub struct Analysis {
    pub parsed: front::Parsed,
    /// naga's validation of `parsed.module`: the GLSL and HLSL writers read
    /// expression types and use counts from it.
    pub info: naga::valid::ModuleInfo,
    /// The layout IR: every buffer layout under the source's rules.
    pub contract: layout::LayoutModule,
    /// Non-fatal diagnostics, spans in the original source.
    pub warnings: Diagnostics,
}

/// Parse, lay out, check and validate `source`; the result of every stage
/// before the backend. Errors are diagnostics; warnings are returned
/// alongside. Like [`translate`], it never panics.
pub fn analyze(source: &str) -> Result<Analysis, Diagnostics> {
    analyze_with(source, UniformLayout::Default)
}

/// [`analyze`] with uniform buffers under the rules `uniform` names (the
/// [`Options::uniform_layout`] the analysis is then translated with).
pub fn analyze_with(source: &str, uniform: UniformLayout) -> Result<Analysis, Diagnostics> {
    let mapped = || {
        let (parsed, contract, mut warnings) = lay_out(source, uniform)?;
        let info = validate(&parsed, &warnings).map_err(|mut d| {
            parsed.map.diagnostics(&mut d);
            once(&mut d);
            d
        })?;
        parsed.map.diagnostics(&mut warnings);
        once(&mut warnings);
        Ok(Analysis {
            parsed,
            info,
            contract,
            warnings,
        })
    };
    match guard::guarded(mapped) {
        Ok(result) => result,
        Err(panic) => Err(internal_error(&panic)),
    }
}

fn internal_error(panic: &str) -> Diagnostics {
    Diagnostic::internal(format!(
        "internal error while translating this input: {panic}; please report"
    ))
    .note("stride caught a panic and produced no output")
    .into()
}

/// Parse, lay out and check `source`: the stages every target runs. Errors
/// are mapped to the original source; the warnings of a success are not yet
/// (the caller maps them once, with the backend's).
fn lay_out(
    source: &str,
    uniform: UniformLayout,
) -> Result<(front::Parsed, layout::LayoutModule, Diagnostics), Diagnostics> {
    let mut parsed = front::parse(source).map_err(|mut d| {
        once(&mut d);
        d
    })?;
    if uniform == UniformLayout::Standard {
        parsed.uniform_standard = true;
    }
    let mut diags = Diagnostics(parsed.warnings.clone());
    match layout::build(&parsed, RuleSet::Wgsl) {
        Ok(contract) => {
            diags.extend(layout::check::check(&parsed, &contract));
            if !diags.has_errors() {
                return Ok((parsed, contract, diags));
            }
        }
        Err(e) => diags.extend(e),
    }
    parsed.map.diagnostics(&mut diags);
    once(&mut diags);
    Err(diags)
}

/// naga's validation of the parsed module: once per translation, by the
/// targets that read the source module (SPIR-V validates the module it
/// rewrites instead). Errors follow `warnings`, spans not yet mapped.
fn validate(
    parsed: &front::Parsed,
    warnings: &Diagnostics,
) -> Result<naga::valid::ModuleInfo, Diagnostics> {
    front::validate_parsed(parsed).map_err(|e| {
        let mut all = warnings.clone();
        all.extend(e);
        all
    })
}

/// Translate one WGSL source to `options.target`.
///
/// Never panics: a panic left in naga (or in stride) is caught and
/// returned as an internal-error diagnostic.
pub fn translate(source: &str, options: &Options) -> Result<Translation, Diagnostics> {
    match guard::guarded(|| translate_unguarded(source, options)) {
        Ok(result) => result,
        Err(panic) => Err(internal_error(&panic)),
    }
}

fn translate_unguarded(source: &str, options: &Options) -> Result<Translation, Diagnostics> {
    let (parsed, contract, warnings) = lay_out(source, options.uniform_layout)?;
    let map = parsed.map.clone();
    let result = backend(
        source,
        options,
        Cow::Owned(parsed),
        &contract,
        warnings,
        None,
    );
    mapped(&map, result)
}

/// Run the backend of `options.target` on an [`analyze`]d source: several
/// targets from one parse, layout and validation (call it once per target
/// on the same analysis). The uniform layout rules are the analysis' own
/// ([`analyze_with`]); `options.uniform_layout` is not read here. The diagnostics are this backend's own, spans in
/// the original source; the analysis' warnings are not repeated. Like
/// [`translate`], it never panics.
pub fn translate_analysis(
    analysis: &Analysis,
    options: &Options,
) -> Result<Translation, Diagnostics> {
    let run = || {
        let result = backend(
            &analysis.parsed.source,
            options,
            Cow::Borrowed(&analysis.parsed),
            &analysis.contract,
            Diagnostics::new(),
            Some(&analysis.info),
        );
        mapped(&analysis.parsed.map, result)
    };
    match guard::guarded(run) {
        Ok(result) => result,
        Err(panic) => Err(internal_error(&panic)),
    }
}

/// `result` with its spans mapped to the original source, each
/// diagnostic once ([`once`]).
fn mapped(
    map: &front::split::SourceMap,
    mut result: Result<Translation, Diagnostics>,
) -> Result<Translation, Diagnostics> {
    match &mut result {
        Ok(t) => {
            map.diagnostics(&mut t.warnings);
            once(&mut t.warnings);
        }
        Err(d) => {
            map.diagnostics(d);
            once(d);
        }
    }
    result
}

/// Drop every diagnostic equal to an earlier one (severity, message,
/// labels and notes): two stages, or two globals a split made from one
/// parameter, meeting one cause at one place of the source.
fn once(diagnostics: &mut Diagnostics) {
    let mut kept: Vec<Diagnostic> = Vec::with_capacity(diagnostics.0.len());
    for d in diagnostics.0.drain(..) {
        if !kept.contains(&d) {
            kept.push(d);
        }
    }
    diagnostics.0 = kept;
}

/// naga's validation of `parsed`, unless `known` (an [`Analysis`]'s) is
/// given.
fn validated<'a>(
    parsed: &front::Parsed,
    warnings: &Diagnostics,
    known: Option<&'a naga::valid::ModuleInfo>,
) -> Result<Cow<'a, naga::valid::ModuleInfo>, Diagnostics> {
    match known {
        Some(info) => Ok(Cow::Borrowed(info)),
        None => validate(parsed, warnings).map(Cow::Owned),
    }
}

/// `options.spirv`, with debug info naming the source where
/// `options.lines` asks for a form explicitly (`auto` gives SPIR-V none).
fn spirv_options(options: &Options) -> Cow<'_, back::spirv::SpirvOptions> {
    use back::lines::LineDirectives as L;
    match options.lines.directives {
        L::File | L::Numeric if options.spirv.debug_file.is_none() => {
            Cow::Owned(back::spirv::SpirvOptions {
                debug_file: Some(back::lines::source_name(&options.lines).to_string()),
                ..options.spirv.clone()
            })
        }
        _ => Cow::Borrowed(&options.spirv),
    }
}

/// The `#line` form of `options.target` (`es`: GLSL ES output).
fn line_form(options: &Options, es: bool) -> back::lines::LineDirectives {
    options.lines.directives.resolve(options.target, es)
}

/// The backend part of [`translate`]: spans in its diagnostics are still
/// those of `parsed.standard`.
fn backend(
    source: &str,
    options: &Options,
    parsed: Cow<'_, front::Parsed>,
    contract: &layout::LayoutModule,
    mut warnings: Diagnostics,
    info: Option<&naga::valid::ModuleInfo>,
) -> Result<Translation, Diagnostics> {
    let output = match options.target {
        Target::Spirv => {
            let spirv = spirv_options(options);
            let overrides = &options.pipeline.overrides;
            let out = match parsed {
                Cow::Owned(parsed) => back::spirv::write_owned(parsed, contract, overrides, &spirv),
                Cow::Borrowed(parsed) => back::spirv::write(parsed, contract, overrides, &spirv),
            };
            let out = out.map_err(|e| {
                // The backend validates the module it rewrote, not the
                // source's (whose validation would serve no writer). When
                // the source itself is invalid, report naga's errors on the
                // source as they are.
                let e = match front::parse(source).map(|p| front::validate_parsed(&p)) {
                    Ok(Err(source_errors)) => source_errors,
                    _ => e,
                };
                let mut all = warnings.clone();
                all.extend(e);
                all
            })?;
            warnings.0.extend(out.warnings);
            Output::Binary(out.words)
        }
        Target::Glsl => {
            let glsl = &options.glsl;
            let info = validated(&parsed, &warnings, info)?;
            let modules = back::common::Modules::new(&parsed, &info, contract, &options.pipeline)
                .with_lines(
                    line_form(options, glsl.dialect.is_es()),
                    &options.lines.source_name,
                );
            let out = back::glsl::decl::write_modules(&modules, glsl).map_err(|e| {
                let mut all = warnings.clone();
                all.extend(e);
                all
            })?;
            warnings.0.extend(out.warnings);
            Output::Files(
                out.files
                    .into_iter()
                    .map(|f| OutputFile {
                        suffix: format!("{}.{}", f.entry_point, f.stage_extension()),
                        text: f.text,
                    })
                    .collect(),
            )
        }
        Target::Hlsl | Target::Slang => {
            let mut hlsl = options.hlsl.clone();
            if options.target == Target::Slang {
                // Slang has every type the HLSL writer gates on a shader
                // model (f16, 64-bit) and lowers them per target itself.
                hlsl.slang = true;
                hlsl.shader_model = Some(back::hlsl::ShaderModel::Sm6_6);
            }
            let info = validated(&parsed, &warnings, info)?;
            let modules = back::common::Modules::new(&parsed, &info, contract, &options.pipeline)
                .with_lines(line_form(options, false), &options.lines.source_name);
            let out = back::hlsl::decl::write_modules(&modules, &hlsl).map_err(|e| {
                let mut all = warnings.clone();
                all.extend(e);
                all
            })?;
            warnings.0.extend(out.warnings);
            Output::Text(out.text)
        }
        Target::Layout => {
            // The listing reads no expression, but an invalid module is
            // reported as for every other target.
            validated(&parsed, &warnings, info)?;
            let mut others = Vec::new();
            for &r in &options.rules {
                if r != RuleSet::Wgsl {
                    others.push(layout::build(&parsed, r)?);
                }
            }
            Output::Text(back::listing::write(&parsed, contract, &others))
        }
        Target::Reflect => {
            let info = validated(&parsed, &warnings, info)?;
            // Reflect reports the targets with their default options: no
            // override values (the defaults are baked where a target bakes).
            let pipeline = back::Pipeline::default();
            let modules = back::common::Modules::new(&parsed, &info, contract, &pipeline);
            Output::Text(back::reflect::write_modules(&modules))
        }
        Target::C | Target::Rust => {
            validated(&parsed, &warnings, info)?;
            let host = layout::realize::host::realize(&parsed, contract).map_err(|e| {
                let mut all = warnings.clone();
                all.extend(e);
                all
            })?;
            Output::Text(if options.target == Target::C {
                back::host::c::write(contract, &host, &options.host)
            } else {
                back::host::rust::write(contract, &host, &options.host)
            })
        }
    };
    Ok(Translation { output, warnings })
}

#[cfg(test)]
mod tests {
    use super::{translate, Options, Target};

    const PLAIN: &str = "
        @group(0) @binding(0) var<storage, read_write> out: array<f32>;
        @group(0) @binding(1) var<uniform> scale: vec4<f32>;
        @group(0) @binding(2) var tex: texture_2d<f32>;
        @group(0) @binding(3) var samp: sampler;
        @fragment fn main() -> @location(0) vec4<f32> {
            out[0] = scale.x;
            return textureSample(tex, samp, vec2<f32>(0.5)) * scale;
        }";

    const OVERRIDES: &str = "
        override gain: f32 = 2.0;
        @group(0) @binding(0) var<storage, read_write> out: array<f32>;
        @compute @workgroup_size(1) fn main() { out[0] = gain; }";

    const SIZED: &str = "
        override n: u32 = 4u;
        @group(0) @binding(0) var<storage, read_write> out: array<f32>;
        var<workgroup> tile: array<f32, n>;
        @compute @workgroup_size(1) fn main() {
            tile[1] = 1.0;
            out[0] = tile[1];
        }";

    /// The validations, and the binding assignments made, while
    /// translating `source` to `target` (with `dialect` for GLSL).
    fn counts(source: &str, target: Target, dialect: back::glsl::Dialect) -> (usize, usize) {
        let options = Options {
            target,
            glsl: back::glsl::GlslOptions {
                dialect,
                ..Default::default()
            },
            ..Default::default()
        };
        let (validations, made) = (crate::front::validations(), crate::bind::made());
        let result = translate(source, &options);
        assert!(result.is_ok(), "{target}: {:?}", result.err());
        (
            crate::front::validations() - validations,
            crate::bind::made() - made,
        )
    }

    use crate::back;
    use back::glsl::Dialect;

    #[test]
    fn one_validation_per_translation_and_one_after_baking() {
        for target in [Target::Glsl, Target::Hlsl, Target::Slang, Target::Reflect] {
            assert_eq!(counts(PLAIN, target, Dialect::Gl450).0, 1, "{target}");
            // Baked: by HLSL, Slang, OpenGL GLSL and reflect (for them).
            assert_eq!(counts(OVERRIDES, target, Dialect::Gl450).0, 2, "{target}");
            // The override-sized array gets its length in place: the
            // validation of naga's baking stands.
            assert_eq!(counts(SIZED, target, Dialect::Gl450).0, 2, "{target}");
        }
        // Vulkan GLSL keeps the overrides as specialization constants.
        assert_eq!(counts(OVERRIDES, Target::Glsl, Dialect::Vulkan450).0, 1);
        assert_eq!(counts(SIZED, Target::Glsl, Dialect::Vulkan450).0, 2);
    }

    /// An override-sized array whose baked type the module already has
    /// (`array<f32, 4>`): the two types become one, handles move, and the
    /// module is validated a third time.
    #[test]
    fn an_array_size_that_merges_two_types_validates_again() {
        let source = SIZED.replace(
            "out[0] = tile[1];",
            "var four: array<f32, 4>; four[0] = tile[1]; out[0] = four[0];",
        );
        assert_eq!(counts(&source, Target::Hlsl, Dialect::Gl450).0, 3);
        let options = Options {
            target: Target::Hlsl,
            ..Default::default()
        };
        let text = match translate(&source, &options).map(|t| t.output) {
            Ok(crate::Output::Text(text)) => text,
            other => panic!("{other:?}"),
        };
        assert!(text.contains("[4]"), "{text}");
    }

    #[test]
    fn reflect_assigns_each_api_once() {
        for source in [PLAIN, OVERRIDES, SIZED] {
            // Vulkan and OpenGL GLSL, D3D in both register modes.
            assert_eq!(counts(source, Target::Reflect, Dialect::Gl450).1, 4);
            for target in [Target::Glsl, Target::Hlsl, Target::Slang] {
                assert_eq!(counts(source, target, Dialect::Gl450).1, 1, "{target}");
            }
        }
    }
}
