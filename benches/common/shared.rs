//! What the bench (`benches/pipeline.rs`) and the profiling harness
//! (`examples/profile.rs`) share: the walk over the corpus, and both sides
//! of the writer comparisons, so that both measure the same work on the
//! same files.

use std::path::{Path, PathBuf};

/// Every `.wgsl` file under `dir`, recursively, appended to `out`.
pub fn corpus_inputs(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            corpus_inputs(&path, out);
        } else if path.extension().is_some_and(|e| e == "wgsl") {
            out.push(path);
        }
    }
}

/// stride's layout IR for a parsed module, built and checked as
/// `stride::translate` does; `None` where either reports an error.
pub fn stride_layout(parsed: &stride::front::Parsed) -> Option<stride::layout::LayoutModule> {
    let contract = stride::layout::build(parsed, stride::RuleSet::Wgsl).ok()?;
    let checked = stride::layout::check::check(parsed, &contract);
    (!checked.has_errors()).then_some(contract)
}

/// stride's GLSL writer (`glsl`) or HLSL writer on a parsed module and its
/// layout IR, after validating the module, as naga's side does. Whether it
/// succeeded.
pub fn stride_write(
    parsed: &stride::front::Parsed,
    contract: &stride::layout::LayoutModule,
    options: &stride::Options,
    glsl: bool,
) -> bool {
    let Ok(info) = stride::front::validate_parsed(parsed) else {
        return false;
    };
    if glsl {
        stride::back::write_text(parsed, &info, contract, &options.pipeline, &options.glsl).is_ok()
    } else {
        stride::back::write_text(parsed, &info, contract, &options.pipeline, &options.hlsl).is_ok()
    }
}

/// A writer comparison's stride side from the parsed module: the layout
/// IR, then the writer.
pub fn stride_backend(
    parsed: &stride::front::Parsed,
    options: &stride::Options,
    glsl: bool,
) -> bool {
    stride_layout(parsed).is_some_and(|contract| stride_write(parsed, &contract, options, glsl))
}

/// Validation as stride does it (every check but struct layouts, which are
/// stride's own), for the naga side of the writer sections.
pub fn naga_validate(module: &naga::Module) -> Result<naga::valid::ModuleInfo, String> {
    let flags = naga::valid::ValidationFlags::all() - naga::valid::ValidationFlags::STRUCT_LAYOUTS;
    naga::valid::Validator::new(flags, naga::valid::Capabilities::all())
        .validate(module)
        .map_err(|e| e.to_string())
}

/// naga's GLSL writer alone, every entry point, on a parsed module.
pub fn naga_glsl_writer(module: &naga::Module) -> Result<Vec<String>, String> {
    use naga::back::glsl;
    let info = naga_validate(module)?;
    let options = glsl::Options {
        version: glsl::Version::Desktop(450),
        writer_flags: glsl::WriterFlags::empty(),
        binding_map: Default::default(),
        zero_initialize_workgroup_memory: true,
    };
    let policy = naga::proc::BoundsCheckPolicy::Restrict;
    let policies = naga::proc::BoundsCheckPolicies {
        index: policy,
        buffer: policy,
        image_load: policy,
        binding_array: policy,
    };
    let mut files = Vec::new();
    for ep in &module.entry_points {
        let pipeline = glsl::PipelineOptions {
            shader_stage: ep.stage,
            entry_point: ep.name.clone(),
            multiview: None,
        };
        let mut text = String::new();
        glsl::Writer::new(&mut text, module, &info, &options, &pipeline, policies)
            .and_then(|mut w| w.write())
            .map_err(|e| e.to_string())?;
        files.push(text);
    }
    Ok(files)
}

/// naga's HLSL writer alone (shader model 6.0, every entry point).
pub fn naga_hlsl_writer(module: &naga::Module) -> Result<String, String> {
    use naga::back::hlsl;
    let info = naga_validate(module)?;
    let options = hlsl::Options {
        shader_model: hlsl::ShaderModel::V6_0,
        ..Default::default()
    };
    let pipeline = hlsl::PipelineOptions { entry_point: None };
    let mut text = String::new();
    hlsl::Writer::new(&mut text, &options, &pipeline)
        .write(module, &info, None)
        .map_err(|e| e.to_string())?;
    Ok(text)
}

pub fn naga_spirv_writer(module: &naga::Module) -> Result<Vec<u32>, String> {
    let info = naga_validate(module)?;
    // The same writer options stride uses (debug names, bounds-check
    // policies, SPIR-V 1.3), so the ratio measures stride's own work.
    let options =
        stride::back::spirv::writer_options(&stride::back::spirv::SpirvOptions::default());
    naga::back::spv::write_vec(module, &info, &options, None).map_err(|e| e.to_string())
}
