//! The module driver and everything at module scope: override handling,
//! naming, the `#version` header and extensions, constants,
//! overrides, resources with their bindings, private and workgroup
//! globals, and the entry point's inputs and outputs.
//!
//! INTERFACE (owned by the module part; `func` calls the entry-point
//! functions below).
//!
//! Rules this part follows (and `func` relies on):
//!
//! - Overrides. Vulkan without `--override` values: every override becomes
//!   a specialization constant `layout(constant_id = N) const T name = v;`
//!   (N: its `@id`, else the lowest id no other override uses, in
//!   declaration order), and `func` prints `Expression::Override(h)` as
//!   `ctx.name(NameKey::Override(h))`. Otherwise (values given, an OpenGL or
//!   ES dialect, an override whose default is not a literal, an
//!   override-sized workgroup or array) every override is baked into a
//!   constant by naga's `process_overrides`, with a warning each. Baking
//!   compacts the module, so the contract is remapped onto the new handles
//!   (structs and globals by name).
//! - Bindings: assigned by [`crate::bind::gl`] (Vulkan: `set = @group,
//!   binding = @binding`, push constants `layout(push_constant)`; OpenGL
//!   and ES: units per kind, combined samplers per (texture, sampler)
//!   pair); printed here.
//! - Combined sampler names: `<texture>_<sampler>` for a pair, the
//!   texture's own name for (texture, none); made unique against every other
//!   name. They are stored in `ctx.names` under
//!   `NameKey::ExternalTextureGlobalVariable(texture, Plane(sampler + 1))`
//!   (`Plane(0)`: none), keys naga's namer never uses for GLSL.
//! - Entry-point interface variables: vertex inputs `_s_attr{L}`, vertex
//!   outputs and fragment inputs `_s_vary{L}` (same names in both stages,
//!   so OpenGL links by name or location), fragment outputs `_s_frag{L}`
//!   (`_s_frag{L}_{I}` for `@blend_src(I)`).
//! - Clip space. WGSL's normalized device coordinates have y up and z in
//!   [0, 1]. Vulkan: y is negated (`gl_Position.y = -gl_Position.y`), as
//!   stride's SPIR-V target does (naga's ADJUST_COORDINATE_SPACE), so both
//!   targets draw the same. OpenGL and ES: z is mapped to [-1, 1]
//!   (`gl_Position.z = 2z - w`), so the default depth range stores the same
//!   depth; y is kept (both y up). In desktop OpenGL the fragment position
//!   is redeclared `layout(origin_upper_left)` so that `@builtin(position)`
//!   reads WGSL's top-left framebuffer coordinates; ES has no such
//!   qualifier, so there the fragment position's y counts from the bottom.
//! - Workgroup memory is zeroed as WGSL requires: at the start of `main`,
//!   invocation 0 (`gl_LocalInvocationIndex == 0u`) stores zero into every
//!   workgroup variable the entry point uses (arrays longer than 16 in a
//!   loop), then all invocations meet at `barrier()`.
//!
//! This file holds the module assembly (resolving bindings and overrides,
//! [`write_modules`], one file per entry point, the stage layout line);
//! `names` names the module's items and combined samplers, `resources`
//! declares constants, overrides, textures, samplers and images with their
//! bindings, and `interface` the entry point's inputs and outputs, its
//! prologue and return, and the zeroing of workgroup memory.

use super::buffers;
use super::types;
use super::{CombinedSampler, Ctx, Dialect, GlslBinding, GlslFile, GlslOptions, GlslOutput, Needs};
use crate::back::common::{push_parts, push_section, reachable_functions, Modules, Written};
use crate::bind::gl::{resource_kind, GlBindings, Pair};
use crate::diag::{Diagnostic, Diagnostics};
use interface::interface_declarations;
use naga::proc::NameKey;
use naga::{AddressSpace, Handle, ShaderStage, TypeInner};
use names::{module_names, name_combined_samplers};
use resources::{combined_declaration, constants, handle_declaration, overrides, push_slot_layout};
use std::fmt::Write as _;

pub(crate) use interface::{push_entry_prologue, push_entry_return};
pub(crate) use names::combined_sampler_name;

mod interface;
mod names;
mod resources;

#[cfg(test)]
mod module_tests;
#[cfg(test)]
mod tests;

type GlobalHandle = Handle<naga::GlobalVariable>;

/// What the module is written from (see [`crate::back::common::Resolved`]).
pub(crate) type Resolved<'a> = crate::back::common::Resolved<'a, buffers::Plan>;

/// Bake the overrides where needed, name and plan the buffers: everything
/// but the text and the bindings, which the binding stage assigned (see
/// [`Resolved`]). `modules` holds the translation's module, validated once.
pub(crate) fn resolve<'a>(
    modules: &'a Modules<'_>,
    options: &GlslOptions,
) -> Result<Resolved<'a>, Diagnostics> {
    let parsed = modules.parsed;
    let dialect = options.dialect;
    if parsed.module.entry_points.is_empty() {
        return Err(Diagnostic::error(
            "this module has no entry point; a GLSL file is written per @compute, @vertex or @fragment function",
        )
        .into());
    }
    // Which entry points to write, checked before any work.
    let selected = modules.selected_entry_points()?;

    let mut warnings = Vec::new();
    let given = !modules.pipeline.overrides.is_empty();
    let why = bake_reason(&parsed.module, given, dialect);
    let written = modules.written(why.as_deref().map(|why| ("GLSL", why)), &mut warnings)?;
    let module = written.module;

    let mut names = module_names(module);
    // Vulkan declares no combined samplers: only the names of the pairs
    // sampled with a sampler are made (they keep other names apart);
    // textures read without one add no name (their pair is named after
    // the texture itself).
    let assignment = written
        .bindings
        .gl(module, written.info, dialect.is_vulkan());
    name_combined_samplers(&assignment.pairs, &mut names);
    let unwritable = super::dialect_type_errors(module, dialect);
    if !unwritable.is_empty() {
        return Err(Diagnostics(unwritable));
    }
    let plan = buffers::plan(
        parsed,
        module,
        written.contract,
        dialect,
        options.f16_words,
        &names,
    )
    .map_err(|mut e| {
        for d in e.0.iter_mut().filter(|d| d.is_error() && !d.is_internal()) {
            d.kind = crate::diag::DiagnosticKind::Inexpressible;
            d.notes.push(super::INEXPRESSIBLE_NOTE.to_string());
        }
        e
    })?;
    warnings.extend(plan.notes.iter().cloned());
    Ok(Resolved::new(written, warnings, selected, names, plan))
}

/// The bindings the binding stage assigned to `written` for `dialect`.
fn bindings<'a>(
    written: Written<'a>,
    dialect: super::Dialect,
) -> Result<&'a GlBindings, Diagnostics> {
    written
        .bindings
        .gl(written.module, written.info, dialect.is_vulkan())
        .bindings(written.module, dialect.name())
}

/// The whole backend for one module (see `super::write`), from the
/// translation's modules (made with the pipeline's overrides).
pub(crate) fn write_modules(
    modules: &Modules<'_>,
    options: &GlslOptions,
) -> Result<GlslOutput, Diagnostics> {
    let r = resolve(modules, options)?;
    let bindings = bindings(r.written, options.dialect)?;
    let dialect = options.dialect;
    // naga's `process_overrides` leaves the (now unused) overrides in the
    // arena: only an unbaked module declares them.
    let spec_constants = !r.written.baked;
    let mut output = GlslOutput {
        warnings: r.warnings,
        ..Default::default()
    };
    let order = r.written.order();
    let ctx = Ctx::new(modules.writing(r.written), options, (), r.names, r.plan);
    let mut errors = Diagnostics::new();
    for index in r.selected {
        let mut needs = Needs::default();
        let mut warnings = Vec::new();
        let file = write_entry_point(
            &ctx,
            bindings,
            spec_constants,
            order,
            &mut needs,
            &mut warnings,
            index,
        );
        if !needs.errors.is_empty() {
            // One error per construct, even when several files hit it.
            for e in needs.errors {
                if !errors.iter().any(|d| d == &e) {
                    errors.push(e);
                }
            }
            continue;
        }
        output.warnings.extend(warnings);
        let (records, combined) = file_bindings(&ctx, bindings, order, index);
        output.bindings.push((file.entry_point.clone(), records));
        if !dialect.is_vulkan() {
            output
                .combined_samplers
                .push((file.entry_point.clone(), combined));
        }
        output.files.push(file);
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(output)
}

/// The bindings of the files of a module, without writing them: per
/// entry point (in module order, or the one `-e` picks) its name, its
/// stage, what [`GlslOutput::bindings`] reports for its file, and OpenGL's
/// combined samplers (empty for Vulkan). For `--target reflect`, from the
/// binding stage's assignment.
pub(crate) fn module_bindings(
    modules: &Modules<'_>,
    options: &GlslOptions,
) -> Result<Vec<FileBindings>, Diagnostics> {
    let r = resolve(modules, options)?;
    let bindings = bindings(r.written, options.dialect)?;
    let order = r.written.order();
    let ctx = Ctx::new(modules.writing(r.written), options, (), r.names, r.plan);
    Ok(r.selected
        .into_iter()
        .map(|index| {
            let (bindings, combined) = file_bindings(&ctx, bindings, order, index);
            let ep = &ctx.module.entry_points[index];
            FileBindings {
                entry_point: ep.name.clone(),
                stage: ep.stage,
                bindings,
                combined,
            }
        })
        .collect())
}

/// One file's bindings (see [`module_bindings`]).
pub(crate) struct FileBindings {
    pub entry_point: String,
    pub stage: ShaderStage,
    pub bindings: Vec<GlslBinding>,
    pub combined: Vec<CombinedSampler>,
}

/// What the file of entry point `index` binds: the resources it uses, in
/// declaration order (Vulkan push constants have no binding; a buffer the
/// plan declares no block for is not declared), then OpenGL's combined
/// samplers, which are also listed on their own.
fn file_bindings(
    ctx: &Ctx<'_>,
    bindings: &GlBindings,
    order: &[GlobalHandle],
    index: usize,
) -> (Vec<GlslBinding>, Vec<CombinedSampler>) {
    let module = ctx.module;
    let vulkan = ctx.dialect().is_vulkan();
    let global_name = |g: GlobalHandle| module.global_variables[g].name.clone().unwrap_or_default();
    let mut records = Vec::new();
    for (h, kind) in declared_resources(ctx, order, index) {
        let unbound = kind == "push-constant" && vulkan;
        let Some(slot) = bindings.global(h).filter(|_| !unbound) else {
            continue;
        };
        records.push(GlslBinding {
            global: global_name(h),
            glsl_name: ctx.name(NameKey::GlobalVariable(h)).to_string(),
            kind: slot.kind,
            set: slot.set,
            binding: slot.binding,
            words: ctx.plan.words_block(h).is_some(),
        });
    }
    let mut combined = Vec::new();
    for (pair, unit) in entry_units(bindings, index) {
        let name = combined_sampler_name(ctx, pair.0, pair.1);
        combined.push(CombinedSampler {
            texture: global_name(pair.0),
            sampler: pair.1.map(global_name),
            name: name.clone(),
            binding: unit,
        });
        records.push(GlslBinding {
            global: global_name(pair.0),
            glsl_name: name,
            kind: "combined-sampler",
            set: None,
            binding: unit,
            words: false,
        });
    }
    (records, combined)
}

/// The resources the file of entry point `index` declares, each with its
/// [`resource_kind`], in declaration order: those it uses, but not a
/// buffer the plan declares no block for, nor (OpenGL, where only
/// combined samplers are declared) a texture or sampler.
fn declared_resources<'c>(
    ctx: &'c Ctx<'_>,
    order: &'c [GlobalHandle],
    index: usize,
) -> impl Iterator<Item = (GlobalHandle, &'static str)> + 'c {
    let module = ctx.module;
    let ep_info = ctx.info.get_entry_point(index);
    order.iter().filter_map(move |&h| {
        if ep_info[h].is_empty() {
            return None;
        }
        let kind = resource_kind(module, &module.global_variables[h])?;
        let declared = match kind {
            "uniform-block" | "storage-block" | "push-constant" => {
                ctx.plan.block(h).is_some() || ctx.plan.words_block(h).is_some()
            }
            "image" => true,
            _ => ctx.dialect().is_vulkan(),
        };
        declared.then_some((h, kind))
    })
}

/// OpenGL: the combined samplers the file of entry point `index` declares,
/// with their texture units.
fn entry_units(bindings: &GlBindings, index: usize) -> impl Iterator<Item = (Pair, u32)> + '_ {
    bindings
        .entry_pairs
        .get(index)
        .into_iter()
        .flatten()
        .filter_map(|pair| Some((*pair, *bindings.units.get(pair)?)))
}

// ---------------------------------------------------------------------------
// Overrides

/// Why the overrides of `module` cannot all be specialization constants:
/// the first obstacle, if any.
fn spec_constant_obstacle(module: &naga::Module) -> Option<String> {
    let expression = module.overrides.iter().find(|(_, o)| {
        o.init.is_some_and(|init| {
            !matches!(
                module.global_expressions[init],
                naga::Expression::Literal(_)
            )
        })
    });
    if let Some((_, o)) = expression {
        let name = o.name.as_deref().unwrap_or("(unnamed)");
        return Some(format!(
            "the default of override `{name}` is an expression, not a literal"
        ));
    }
    let mut entry_points = module.entry_points.iter();
    if let Some(ep) = entry_points.find(|ep| ep.workgroup_size_overrides.is_some()) {
        return Some(format!(
            "the workgroup size of `{}` depends on an override",
            ep.name
        ));
    }
    let pending = module.types.iter().any(|(_, t)| {
        matches!(
            t.inner,
            TypeInner::Array {
                size: naga::ArraySize::Pending(_),
                ..
            }
        )
    });
    pending.then(|| "an array is sized by an override".to_string())
}

/// Why every override is baked into a constant (see the module doc), the
/// note of each baking warning; `None` when they are not baked. `given`:
/// whether override values were given.
fn bake_reason(module: &naga::Module, given: bool, dialect: Dialect) -> Option<String> {
    let why = if given {
        "values were given with --override".to_string()
    } else if module.overrides.is_empty() {
        return None;
    } else if !dialect.is_vulkan() {
        format!("{} has no specialization constants", dialect.name())
    } else {
        let obstacle = spec_constant_obstacle(module)?;
        format!("not every override can be a specialization constant: {obstacle}")
    };
    Some(format!("baked because {why}"))
}

// ---------------------------------------------------------------------------
// One entry point

/// The file of entry point `index`; its warnings are added to `warnings`.
/// `order`: the module's `declaration_order`; `spec_constants`: whether
/// the overrides are declared as specialization constants.
fn write_entry_point(
    ctx: &Ctx<'_>,
    bindings: &GlBindings,
    spec_constants: bool,
    order: &[GlobalHandle],
    needs: &mut Needs,
    warnings: &mut Vec<Diagnostic>,
    index: usize,
) -> GlslFile {
    let module = ctx.module;
    let dialect = ctx.dialect();
    let ep = &module.entry_points[index];
    let ep_info = ctx.info.get_entry_point(index);

    // Everything below `#version` and the extensions, in order; written
    // first so that the extensions they need are known.
    // Each part is written straight into `body` by `push_section`, which
    // ends a part that wrote anything with a blank line.
    let mut body = String::with_capacity(4096);
    // What earlier files (and the plan) named is not this file's.
    ctx.type_names.named.take();
    stage_layout(ctx, needs, index, &mut body);
    // The value structs go here once the rest of the file shows which of
    // them it names.
    let structs_at = body.len();
    let (structs, struct_parts) = types::struct_declarations(ctx, needs);
    push_section(&mut body, |out| ctx.plan.write_declarations(needs, out));
    push_section(&mut body, |out| constants(ctx, needs, out));
    if spec_constants {
        push_section(&mut body, |out| overrides(ctx, needs, out));
    }

    // Resources the entry point uses, in declaration order.
    push_section(&mut body, |resources| {
        for (h, kind) in declared_resources(ctx, order, index) {
            let slot = bindings.global(h);
            match kind {
                "image" | "texture" | "sampler" => {
                    handle_declaration(ctx, needs, h, slot, resources)
                }
                _ => {
                    // The block's own layout qualifiers follow the binding.
                    resources.push_str("layout(");
                    match (kind, slot) {
                        ("push-constant", _) if dialect.is_vulkan() => {
                            resources.push_str("push_constant, ")
                        }
                        (_, Some(_)) => {
                            push_slot_layout(resources, slot);
                            resources.push_str(", ");
                        }
                        (_, None) => {}
                    }
                    if let Some((_, words)) = ctx.plan.words_block(h) {
                        if words.f16 {
                            needs.extension(super::types::F16_EXTENSION);
                        }
                        words.write_declaration(resources);
                    } else if let Some(block) = ctx.plan.block(h) {
                        ctx.plan
                            .write_block_declaration(ctx, needs, block, resources);
                    }
                    if !resources.ends_with('\n') {
                        resources.push('\n');
                    }
                }
            }
        }
        for (pair, unit) in entry_units(bindings, index) {
            combined_declaration(ctx, needs, pair, unit, resources);
        }
    });
    push_section(&mut body, |out| {
        interface_declarations(ctx, needs, index, warnings, out)
    });

    // Private and workgroup globals.
    push_section(&mut body, |globals| {
        for &h in order {
            let var = &module.global_variables[h];
            if ep_info[h].is_empty()
                || !matches!(var.space, AddressSpace::Private | AddressSpace::WorkGroup)
            {
                continue;
            }
            let ty = types::type_name(ctx, needs, var.ty);
            let name = ctx.name(NameKey::GlobalVariable(h));
            if var.space == AddressSpace::WorkGroup {
                push_parts(globals, &["shared ", ty, " ", name, ";\n"]);
                continue;
            }
            push_parts(globals, &[ty, " ", name, " = "]);
            match var.init {
                Some(init) => globals.push_str(&super::func::const_expression(ctx, needs, init)),
                None => types::zero_value_into(ctx, needs, var.ty, globals),
            }
            globals.push_str(";\n");
        }
    });

    let mut functions = String::new();
    for f in reachable_functions(module, index) {
        functions.push_str(&super::func::write_function(ctx, needs, f));
        functions.push('\n');
    }
    let main = super::func::write_entry_main(ctx, needs, index);

    // The buffer structs this file named, and those buffer storage names
    // (the plan names them once for every file).
    let uses = ctx.type_names.named.uses(module);
    let named = ctx
        .plan
        .layout
        .value_structs
        .iter()
        .fold(ctx.type_names.named.take(), |n, &h| n | uses.of(h));

    let helpers: usize = needs.helpers.values().map(|h| h.len() + 2).sum();
    let mut text = String::with_capacity(
        256 + structs.len() + body.len() + helpers + functions.len() + main.len(),
    );
    text.push_str("#version ");
    super::push_decimal(&mut text, u64::from(dialect.version()));
    text.push_str(if dialect.is_es() { " es\n" } else { "\n" });
    for &ext in &needs.extensions {
        let ext = super::extension_spelling(dialect, ext);
        push_parts(&mut text, &["#extension ", ext, " : require\n"]);
    }
    if ctx.lines.is_some_and(|l| l.names_file()) {
        text.push_str("#extension GL_GOOGLE_cpp_style_line_directive : require\n");
    }
    if dialect.is_es() {
        text.push_str("precision highp float;\nprecision highp int;\n");
    }
    text.push('\n');
    text.push_str(&body[..structs_at]);
    push_section(&mut text, |out| {
        crate::back::common::push_live_declarations(out, structs, struct_parts, named)
    });
    text.push_str(&body[structs_at..]);
    for helper in needs.helpers.values() {
        push_section(&mut text, |out| out.push_str(helper));
    }
    text.push_str(&functions);
    text.push_str(&main);
    if !text.ends_with('\n') {
        text.push('\n');
    }
    GlslFile {
        entry_point: ep.name.clone(),
        stage: ep.stage,
        text,
    }
}

/// `layout(local_size_x = ...) in;` and fragment-stage layouts.
fn stage_layout(ctx: &Ctx<'_>, needs: &mut Needs, index: usize, out: &mut String) {
    let ep = &ctx.module.entry_points[index];
    match ep.stage {
        ShaderStage::Compute => {
            let [x, y, z] = ep.workgroup_size;
            let _ = writeln!(
                out,
                "layout(local_size_x = {x}, local_size_y = {y}, local_size_z = {z}) in;\n"
            );
        }
        ShaderStage::Fragment => match ep.early_depth_test {
            Some(naga::EarlyDepthTest::Force) => {
                out.push_str("layout(early_fragment_tests) in;\n\n");
            }
            Some(naga::EarlyDepthTest::Allow { conservative }) => {
                if ctx.dialect().is_es() {
                    needs.extension("GL_EXT_conservative_depth");
                }
                let q = match conservative {
                    naga::ConservativeDepth::GreaterEqual => "depth_greater",
                    naga::ConservativeDepth::LessEqual => "depth_less",
                    naga::ConservativeDepth::Unchanged => "depth_unchanged",
                };
                let _ = writeln!(out, "layout({q}) out float gl_FragDepth;\n");
            }
            None => {}
        },
        _ => {}
    }
}
