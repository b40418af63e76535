//! Backends. Each reads the layout IR and only prints.

pub(crate) mod common;
pub mod glsl;
pub mod hlsl;
pub mod host;
pub mod lines;
pub mod listing;
pub(crate) mod offset;
pub mod overrides;
pub mod reflect;
pub(crate) mod scope;
pub mod spirv;
#[cfg(test)]
mod test_support;
pub(crate) mod text;
#[cfg(test)]
mod text_writer_tests;

/// Write `parsed` with a text writer: GLSL with [`glsl::GlslOptions`] (one
/// file per entry point), HLSL or Slang with [`hlsl::HlslOptions`] (one
/// file). Every entry point, or only `pipeline.entry_point`; overrides
/// baked with `pipeline.overrides` where the target needs it. `info` is
/// naga's validation of `parsed.module`, `contract` its layout IR.
pub fn write_text<Options: TextOptions>(
    parsed: &crate::front::Parsed,
    info: &naga::valid::ModuleInfo,
    contract: &crate::layout::LayoutModule,
    pipeline: &Pipeline,
    options: &Options,
) -> Result<Options::Output, crate::diag::Diagnostics> {
    (Options::WRITE)(
        &common::Modules::new(parsed, info, contract, pipeline),
        options,
    )
}

/// The options of a text writer, which [`write_text`] writes with.
pub trait TextOptions: sealed::Writer {}

// Sealed: outside the crate `Writer` can be neither named nor implemented,
// so the crate-private `Modules` in `WRITE` reaches no user.
#[allow(private_interfaces)]
mod sealed {
    /// The writer of one options type: the module-level entry of `decl`.
    pub trait Writer: Sized {
        type Output;
        const WRITE: Write<Self>;
    }
    pub type Write<Options> = fn(
        &super::common::Modules<'_>,
        &Options,
    )
        -> Result<<Options as Writer>::Output, crate::diag::Diagnostics>;

    impl Writer for super::glsl::GlslOptions {
        type Output = super::glsl::GlslOutput;
        const WRITE: Write<Self> = super::glsl::decl::write_modules;
    }
    impl Writer for super::hlsl::HlslOptions {
        type Output = super::hlsl::HlslOutput;
        const WRITE: Write<Self> = super::hlsl::decl::write_modules;
    }
}

impl TextOptions for glsl::GlslOptions {}
impl TextOptions for hlsl::HlslOptions {}

/// What a pipeline chooses when it is made from a module (WebGPU's
/// `GPUProgrammableStage`): the entry point and the values of the
/// pipeline-overridable constants. One choice for every target of a
/// translation (`--entry-point`, `--override`).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Pipeline {
    /// Only this entry point; `None`: every entry point. GLSL, HLSL and
    /// Slang honour it; the other targets describe or hold the whole
    /// module (SPIR-V every entry point), and the CLI refuses
    /// `--entry-point` without a target that honours it.
    pub entry_point: Option<String>,
    /// Values for pipeline-overridable constants, by name or `@id`. A
    /// target without specialization constants bakes every override:
    /// these values, else the declared defaults.
    pub overrides: Vec<(String, f64)>,
}

/// The error for a panic caught in naga's `stage` (its SPIR-V writer, its
/// validator, its override processing).
pub(crate) fn naga_panic(stage: &str, panic: &str) -> crate::diag::Diagnostic {
    crate::diag::Diagnostic::internal(format!(
        "internal error in naga's {stage}: {panic}; please report"
    ))
    .note("stride caught a panic in naga and produced no output")
}

/// The blocks directly inside `statement`, in order, to change: a block's
/// own, an `if`'s accept and reject, a `switch`'s case bodies, a loop's
/// body and continuing block; none for any other statement.
pub(crate) fn nested_blocks_mut(
    statement: &mut naga::Statement,
) -> impl Iterator<Item = &mut naga::Block> {
    use naga::Statement as S;
    let (pair, cases): ([Option<&mut naga::Block>; 2], &mut [naga::SwitchCase]) = match statement {
        S::Block(b) => ([Some(b), None], &mut []),
        S::If { accept, reject, .. } => ([Some(accept), Some(reject)], &mut []),
        S::Switch { cases, .. } => ([None, None], cases),
        S::Loop {
            body, continuing, ..
        } => ([Some(body), Some(continuing)], &mut []),
        _ => ([None, None], &mut []),
    };
    pair.into_iter()
        .flatten()
        .chain(cases.iter_mut().map(|c| &mut c.body))
}
