//! `--target spirv`: naga's SPIR-V writer over the module with the contract
//! layouts written into its types.
//!
//! Steps: [`apply::apply_contract`] writes the contract offsets, spans and
//! strides into a copy of the naga module (never naga's own offsets);
//! [`hazard`] finds what two naga 30 writer bugs need (two-row matrices
//! behind nested structs in uniform buffers; pointers into variables as call
//! arguments, which it spills); [`coerce`] rebuilds whole-array stores
//! between sites whose strides differ; [`columns`] declares uniform matrices
//! whose column stride Vulkan's standard layout does not allow as their
//! columns (and every two-row one when naga would mishandle one of them);
//! [`crate::layout::vulkan::required_features`] says which Vulkan layout
//! feature each buffer needs (a warning at the global); naga validates the
//! rewritten module (layout rules off: they are ours) and writes SPIR-V with
//! fixed options; [`words`] repairs what naga's writer gets wrong in the
//! words. A panic inside naga (or here) is caught and reported as an
//! internal error.
//!
//! Writer options (fixed, so that debug and release builds give the same
//! bytes): `ADJUST_COORDINATE_SPACE`, `LABEL_VARYINGS` and `CLAMP_FRAG_DEPTH`
//! as naga's own tools use them, `DEBUG` (OpName/OpMemberName) unless names
//! are stripped, no OpSource/OpString, WGSL `@group/@binding` as
//! `DescriptorSet/Binding`, and the `Restrict` bounds-check policy for
//! indices, buffers, image loads and binding arrays: an out-of-bounds index is
//! clamped to the last element, one of the behaviors WGSL allows, without the
//! extra branches of `ReadZeroSkipWrite`.

pub mod apply;
pub mod coerce;
pub mod columns;
pub mod hazard;
pub mod words;

use crate::diag::{Diagnostic, Diagnostics};
use crate::front::{Annotations, Parsed};
use crate::guard::guarded;
use crate::layout::realize::spirv::ColumnSplit;
use crate::layout::vulkan::Feature;
use crate::layout::LayoutModule;
use naga::back::spv;
use naga::proc::{BoundsCheckPolicies, BoundsCheckPolicy};
use std::borrow::Cow;

#[derive(Clone, Debug, PartialEq)]
pub struct SpirvOptions {
    /// (major, minor), 1.0 ..= 1.6.
    pub version: (u8, u8),
    /// Drop debug names (OpName, OpMemberName).
    pub strip_names: bool,
    /// With a file name: debug info naming it, `OpSource` with the WGSL
    /// text and an `OpLine` per statement (naga's writer; not with
    /// `strip_names`). [`crate::translate`] sets it from an explicit
    /// [`crate::Options::lines`] form (`file`, `numeric`).
    pub debug_file: Option<String>,
}

impl Default for SpirvOptions {
    fn default() -> Self {
        SpirvOptions {
            version: (1, 3),
            strip_names: false,
            debug_file: None,
        }
    }
}

/// SPIR-V words plus warnings (e.g. the Vulkan feature a layout needs).
pub struct SpirvOutput {
    pub words: Vec<u32>,
    pub warnings: Vec<Diagnostic>,
}

/// The SPIR-V versions stride writes.
pub const VERSIONS: [(u8, u8); 7] = [(1, 0), (1, 1), (1, 2), (1, 3), (1, 4), (1, 5), (1, 6)];

/// naga's writer options for `options`, every field set explicitly.
pub fn writer_options(options: &SpirvOptions) -> spv::Options<'static> {
    let mut flags = spv::WriterFlags::ADJUST_COORDINATE_SPACE
        | spv::WriterFlags::LABEL_VARYINGS
        | spv::WriterFlags::CLAMP_FRAG_DEPTH;
    if !options.strip_names {
        flags |= spv::WriterFlags::DEBUG;
    }
    let policy = BoundsCheckPolicy::Restrict;
    spv::Options {
        lang_version: options.version,
        flags,
        fake_missing_bindings: true,
        binding_map: spv::BindingMap::default(),
        capabilities: None,
        bounds_check_policies: BoundsCheckPolicies {
            index: policy,
            buffer: policy,
            image_load: policy,
            binding_array: policy,
        },
        zero_initialize_workgroup_memory: spv::ZeroInitializeWorkgroupMemoryMode::Polyfill,
        force_loop_bounding: true,
        ray_query_initialization_tracking: true,
        trace_ray_argument_validation: true,
        use_storage_input_output_16: true,
        debug_info: None,
        task_dispatch_limits: None,
        mesh_shader_primitive_indices_clamp: true,
        emit_int_div_checks: true,
    }
}

/// Write `parsed` as one SPIR-V module holding every entry point. naga's
/// SPIR-V writer has no specialization constants, so every override is
/// baked in: `overrides`' values (by name or `@id`), else the defaults.
pub fn write(
    parsed: &Parsed,
    contract: &LayoutModule,
    overrides: &[(String, f64)],
    options: &SpirvOptions,
) -> Result<SpirvOutput, Diagnostics> {
    write_module(
        Cow::Borrowed(&parsed.module),
        parsed,
        contract,
        overrides,
        options,
    )
}

/// [`write()`] for a caller that no longer needs `parsed`: the naga module is
/// rewritten in place instead of copied. Same output.
pub fn write_owned(
    mut parsed: Parsed,
    contract: &LayoutModule,
    overrides: &[(String, f64)],
    options: &SpirvOptions,
) -> Result<SpirvOutput, Diagnostics> {
    let module = std::mem::take(&mut parsed.module);
    write_module(Cow::Owned(module), &parsed, contract, overrides, options)
}

/// [`write()`] and [`write_owned`] on the module as borrowed or owned. Of
/// `source` only the source text, its map and the annotations are read:
/// its module may have been taken out.
fn write_module(
    source_module: Cow<'_, naga::Module>,
    source: &Parsed,
    contract: &LayoutModule,
    overrides: &[(String, f64)],
    options: &SpirvOptions,
) -> Result<SpirvOutput, Diagnostics> {
    if !VERSIONS.contains(&options.version) {
        let (major, minor) = options.version;
        return Err(Diagnostic::error(format!(
            "SPIR-V version {major}.{minor} is not supported; choose one of 1.0 to 1.6"
        ))
        .into());
    }

    if source_module.entry_points.is_empty() {
        return Err(Diagnostic::error(
            "this module has no entry point; a Vulkan SPIR-V module needs a @compute, @vertex or @fragment function",
        )
        .note("naga would emit a library module with the Linkage capability, which Vulkan rejects")
        .into());
    }
    // naga mishandles a two-row matrix reached through a struct-typed
    // member of a uniform buffer: then stride declares every two-row matrix
    // of the uniform buffers as its columns, and naga sees none (with
    // `ColumnSplit::All`, a module whose split does not apply is an error).
    let split = if hazard::nested_two_row_matrix(&source_module) {
        ColumnSplit::All
    } else {
        ColumnSplit::Standard
    };
    let module = guarded_here(|| prepare(source_module, contract))??;

    // Uniform matrices declared as columns (see `columns`); where that
    // module does not validate, the one without the split is written, and
    // the warnings say which device feature it needs.
    let done = guarded_here(|| columns::split_uniform_columns(&module, contract, split))?
        .and_then(|split| validated_spilled(split).ok());
    let (mut module, mut info, split) = match done {
        Some((module, info)) => (module, info, split),
        None if split == ColumnSplit::All => {
            return Err(Diagnostic::internal("the column split does not apply").into())
        }
        None => {
            let (module, info) = validated_spilled(module)?;
            (module, info, ColumnSplit::Off)
        }
    };
    let mut warnings = feature_warnings(contract, split, &source.annotations);

    if !module.overrides.is_empty() || !overrides.is_empty() {
        let (baked, baked_info, notes) = super::overrides::bake(
            &module,
            &info,
            overrides,
            "SPIR-V",
            "naga's SPIR-V writer emits no specialization constants; pass --override NAME=VALUE to choose the value",
        )?;
        module = baked;
        info = baked_info;
        warnings.extend(notes);
    }

    let mut naga_options = writer_options(options);
    if let (Some(file_name), false) = (&options.debug_file, options.strip_names) {
        // naga counts lines in the text given: the user's, with the
        // statements' spans mapped back to it.
        crate::back::lines::statements_to_source(&mut module, &source.map, source.source.len());
        naga_options.debug_info = Some(spv::DebugInfo {
            source_code: &source.source,
            file_name,
            // `WGSL` (10) is newer than the spirv-val of SPIRV-Tools
            // releases still in use, which reject it; `Unknown` passes.
            language: spv::SourceLanguage::Unknown,
        });
    }
    let mut words = match guarded(|| spv::write_vec(&module, &info, &naga_options, None)) {
        Ok(Ok(words)) => words,
        Ok(Err(e)) => {
            return Err(Diagnostic::error(format!("naga's SPIR-V writer failed: {e}")).into())
        }
        Err(panic) => return Err(super::naga_panic("SPIR-V writer", &panic).into()),
    };
    words::query_size_without_level(&mut words, &module);
    // Only a function taking a texture, a sampler or a pointer has
    // parameters of pointer type in naga's SPIR-V.
    let handle_or_pointer = |t: &naga::TypeInner| {
        crate::back::text::is_pointer(t)
            || matches!(
                t,
                naga::TypeInner::Image { .. } | naga::TypeInner::Sampler { .. }
            )
    };
    if hazard::takes_parameter(&module, handle_or_pointer) {
        words::pointer_arguments(&mut words);
    }
    Ok(SpirvOutput { words, warnings })
}

/// `f`'s result, or a panic inside it (naga's or stride's) as an internal
/// error of this backend.
fn guarded_here<T>(f: impl FnOnce() -> T) -> Result<T, Diagnostics> {
    guarded(f).map_err(|panic| {
        Diagnostic::internal(format!(
            "internal error in stride's SPIR-V backend: {panic}; please report"
        ))
        .into()
    })
}

/// `module` validated, with pointer arguments into variables spilled
/// where that validates (see [`hazard::spill_pointer_arguments`]); the
/// errors reported are those of `module` itself.
fn validated_spilled(
    module: naga::Module,
) -> Result<(naga::Module, naga::valid::ModuleInfo), Diagnostics> {
    match hazard::spill_pointer_arguments(&module) {
        None => validated(&module).map(|info| (module, info)),
        Some(spilled) => match validated(&spilled) {
            Ok(info) => Ok((spilled, info)),
            Err(e) => Err(validated(&module).err().unwrap_or(e)),
        },
    }
}

/// One warning per buffer whose contract layout breaks Vulkan's standard
/// block layout: the feature it needs, as [`crate::layout::vulkan`] says.
fn feature_warnings(
    contract: &LayoutModule,
    split: ColumnSplit,
    annotations: &Annotations,
) -> Vec<Diagnostic> {
    let mut warnings = Vec::new();
    for global in &contract.globals {
        let Some((features, reason)) =
            crate::layout::vulkan::required_features_of(contract, global, split)
        else {
            continue;
        };
        let names: Vec<&str> = features.iter().map(|&f| feature_text(f).0).collect();
        let mut d = Diagnostic::warning(format!(
            "the layout of `{}` needs the Vulkan feature {}",
            global.name,
            names.join(" and ")
        ));
        if let Some(ann) = annotations.globals.get(global.name.as_str()) {
            d = d.at(ann.name_span.clone(), "declared here");
        }
        let flags: Vec<&str> = features.iter().map(|&f| feature_text(f).1).collect();
        d = d
            .note(format!("Vulkan's standard layout is broken here: {reason}"))
            .note(format!(
                "enable the feature on the device; `spirv-val {}` accepts this module",
                flags.join(" ")
            ));
        warnings.push(d);
    }
    warnings
}

/// How the feature is named to a Vulkan user, and the `spirv-val` option
/// that accepts layouts needing it.
fn feature_text(feature: Feature) -> (&'static str, &'static str) {
    match feature {
        Feature::RelaxedBlockLayout => (
            "relaxed block layout (VK_KHR_relaxed_block_layout, core in Vulkan 1.1)",
            "--relax-block-layout",
        ),
        Feature::UniformBufferStandardLayout => (
            "`uniformBufferStandardLayout` (VK_KHR_uniform_buffer_standard_layout, core in Vulkan 1.2)",
            "--uniform-buffer-standard-layout",
        ),
        Feature::ScalarBlockLayout => (
            "`scalarBlockLayout` (VK_EXT_scalar_block_layout, core in Vulkan 1.2)",
            "--scalar-block-layout",
        ),
    }
}

/// The module handed to naga's writer: the contract layout written into
/// its types, and whole-array stores between strides rebuilt.
fn prepare(
    source: Cow<'_, naga::Module>,
    contract: &LayoutModule,
) -> Result<naga::Module, Diagnostics> {
    let (mut module, _) = apply::apply_contract(source, contract)?;
    coerce::coerce_array_stores(&mut module);
    Ok(module)
}

/// naga validation of the module handed to the writer.
fn validated(module: &naga::Module) -> Result<naga::valid::ModuleInfo, Diagnostics> {
    match guarded(|| crate::front::validate(module)) {
        Ok(Ok(info)) => Ok(info),
        Ok(Err(mut e)) => {
            for d in e.0.iter_mut() {
                d.notes.push(
                    "naga rejected the module after the contract layout was written into its types"
                        .to_string(),
                );
            }
            Err(e)
        }
        Err(panic) => Err(super::naga_panic("validator", &panic).into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn internal_error_names_the_stage() {
        let d = crate::back::naga_panic("SPIR-V writer", "Expression [1] is not cached!");
        assert!(d
            .message
            .starts_with("internal error in naga's SPIR-V writer: Expression [1]"));
        assert!(d.message.ends_with("please report"));
    }

    #[test]
    fn writer_options_do_not_depend_on_the_build() {
        let named = writer_options(&SpirvOptions::default());
        assert!(named.flags.contains(spv::WriterFlags::DEBUG));
        assert!(named.debug_info.is_none());
        let stripped = writer_options(&SpirvOptions {
            strip_names: true,
            ..Default::default()
        });
        assert!(!stripped.flags.contains(spv::WriterFlags::DEBUG));
        assert_eq!(named.lang_version, (1, 3));
    }
}
