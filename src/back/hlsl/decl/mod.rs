//! The module driver and everything at module scope: override baking,
//! naming, registers, the file header, constants, resources,
//! private and workgroup globals, and the entry points' input and output
//! structs.
//!
//! INTERFACE (owned by the module part; `func` calls the entry-point
//! functions below).
//!
//! - [`write_modules`] drives everything and assembles the file in this
//!   order: header comment and `#pragma pack_matrix(row_major)`, value
//!   structs and array typedefs (`types::struct_declarations`; with entry
//!   points, without the buffer structs the file never names), buffer
//!   variants (`Plan::declarations`), resources with registers, constants
//!   (`static const`), private (`static`) and workgroup (`groupshared`)
//!   globals, helper functions (`Needs::helpers`, collected while writing
//!   the functions below, so printed after them are written), functions
//!   in arena order, then per entry point its input/output structs and the
//!   entry function.
//! - Overrides: HLSL has no specialization constants, so every override is
//!   baked into a constant (`back::overrides::bake`) with a warning, and
//!   `func` never sees `Expression::Override`.
//! - Entry points: the WGSL arguments are declared as locals named
//!   `ctx.name(NameKey::EntryPointArgument(index, i))` by
//!   [`push_entry_prologue`], from the HLSL input struct parameter; every
//!   `return` is [`push_entry_return`].
//!
//! Rules this part follows:
//!
//! - Registers (reported in `HlslOutput::registers` for every resource of
//!   the module, in declaration order) and Slang's Vulkan bindings are
//!   assigned by [`crate::bind::d3d`] and printed here.
//! - `@builtin(num_workgroups)` has no HLSL semantic: it is read from
//!   `cbuffer _s_num_workgroups_cb { uint3 _s_num_workgroups; }`, which the
//!   application fills with the dispatch size (reported in the registers
//!   with global `_s_num_workgroups`). It is declared only when some
//!   written entry point reads it, but always reported when any entry point
//!   of the module does.
//! - Entry-point IO structs `_s_in_<fn>` / `_s_out_<fn>`: members
//!   `_s_loc<N>` with semantic `LOC<N>` for `@location(N)` (vertex inputs,
//!   vertex outputs and fragment inputs, so the stages link by semantic),
//!   `_s_target<N>` with `SV_Target<N>` for fragment outputs
//!   (`@blend_src(I)`: `SV_Target<I>`, D3D's dual-source convention), and
//!   `_s_<builtin>` with the system-value semantic. Locations come first in
//!   ascending order, then builtins, so a vertex output and a fragment
//!   input list their varyings in the same order.
//! - A fragment input `@builtin(position)` is `SV_Position` with `w`
//!   replaced by `1.0 / w` (D3D gives the interpolated clip w, WGSL and
//!   Vulkan its reciprocal). Clip space needs no change: D3D and WGSL both
//!   have y up, z in [0, 1] and a top-left framebuffer origin.
//! - The entry function's result goes through `_s_output_<fn>(value)`, a
//!   function printed after the output struct, so every `return` is one
//!   statement that evaluates the WGSL value once.
//! - Workgroup memory is zeroed as WGSL requires: invocation
//!   `SV_GroupIndex == 0` stores `(T)0` into every workgroup variable the
//!   entry point uses, then `GroupMemoryBarrierWithGroupSync()`.
//!
//! This file holds the module assembly (resolving registers and overrides,
//! [`write_modules`], module-level checks, the file with its sections);
//! `names` names the module's items and checks types and builtins against
//! the shader model, `resources` prints registers and declares resources
//! and globals, and `interface` the entry points' input and output structs,
//! signatures, prologues and returns.

use super::types;
use super::{Ctx, HlslEntryPoint, HlslOptions, HlslOutput, HlslRegister, Needs};
use super::{HlslNames, ShaderModel};
use crate::back::common::is_abstract;
use crate::back::common::{name_of, push_section, reachable_functions, Modules};
use crate::back::text;
use crate::bind::d3d::{RegisterMode, Registers};
use crate::diag::Diagnostics;
use crate::layout::LayoutModule;
use interface::push_entry_io_declarations;
use naga::proc::NameKey;
use naga::{Handle, TypeInner};
use names::{builtin_warnings, module_names, shader_model_type_errors};
use resources::{push_global_declarations, push_resource_declarations};

pub(crate) use interface::{push_entry_prologue, push_entry_return, push_entry_signature};

mod interface;
mod model;
mod names;
mod resources;

#[cfg(test)]
mod tests;

type GlobalHandle = Handle<naga::GlobalVariable>;

pub(crate) use crate::bind::d3d::NUM_WORKGROUPS;

/// What the module is written from (see [`crate::back::common::Resolved`]).
pub(crate) type Resolved<'a> = crate::back::common::Resolved<'a, super::buffers::Plan>;

/// Bake the overrides, name and plan the buffers, and choose the shader
/// model ([`model::choose`]; its note, if any, is among the warnings):
/// everything but the text and the registers, which the binding stage
/// assigned (see [`Resolved`]). `modules` holds the translation's module,
/// validated once.
pub(crate) fn resolve<'a>(
    modules: &'a Modules<'_>,
    options: &HlslOptions,
) -> Result<(Resolved<'a>, ShaderModel), Diagnostics> {
    let parsed = modules.parsed;
    // A module without entry points (a shared include) is written as a
    // library: every function and every global, for DXC's `lib_6_x`
    // profiles (`selected` is then empty).
    let selected = modules.selected_entry_points()?;

    let mut warnings = Vec::new();
    let bake = !parsed.module.overrides.is_empty() || !modules.pipeline.overrides.is_empty();
    let written = modules.written(
        bake.then_some(("HLSL", "baked because HLSL has no specialization constants")),
        &mut warnings,
    )?;
    let module = written.module;

    let names = module_names(module);
    if let Some(model) = options.shader_model {
        let unwritable = shader_model_type_errors(module, model);
        if !unwritable.is_empty() {
            return Err(Diagnostics(unwritable));
        }
    }
    let plan = super::buffers::plan(parsed, module, written.contract, &names, options.slang)?;
    warnings.extend(plan.notes.iter().cloned());
    let (model, note) = model::choose(options.shader_model, || {
        model::needs(
            parsed,
            module,
            written.info,
            written.contract,
            &plan,
            &selected,
        )
    });
    warnings.extend(note);
    Ok((
        Resolved::new(written, warnings, selected, names, plan),
        model,
    ))
}

/// The whole backend for one module (see `super::write`), from the
/// translation's modules (made with the pipeline's overrides).
pub(crate) fn write_modules(
    modules: &Modules<'_>,
    options: &HlslOptions,
) -> Result<HlslOutput, Diagnostics> {
    let (r, model) = resolve(modules, options)?;
    let written = r.written;
    let registers = written.bindings.d3d(written.module, options.registers)?;
    let (selected, mut warnings) = (r.selected, r.warnings);
    let ctx = Ctx::new(modules.writing(written), options, model, r.names, r.plan);
    warnings.extend(builtin_warnings(&ctx, &selected));

    let mut needs = Needs::default();
    let text = write_file(&ctx, &mut needs, registers, written.order(), &selected);
    if !needs.errors.is_empty() {
        return Err(Diagnostics(needs.errors));
    }
    let entry_points = entry_points(written.module, &ctx.names, &selected);
    let registers = register_records(registers, &ctx.names, &ctx.plan);
    let names = output_names(ctx);
    Ok(HlslOutput {
        text,
        shader_model: model,
        entry_points,
        registers,
        names,
        warnings,
    })
}

/// The registers of every resource in one register mode, as
/// [`HlslOutput`] reports them, or why the module cannot be written.
pub(crate) type ModeRegisters = Result<Vec<HlslRegister>, Diagnostics>;

/// The entry points of the file, the shader model it is written for and,
/// per register mode of `modes`, the registers of every resource, as
/// [`HlslOutput`] reports them, without writing the file: for `--target
/// reflect`, from one resolution and the binding stage's registers. Also
/// an error where a storage buffer holds 16- or 64-bit values that the
/// shader model cannot load or store, as writing the file would report.
pub(crate) fn module_registers(
    modules: &Modules<'_>,
    options: &HlslOptions,
    modes: &[RegisterMode],
) -> Result<(Vec<HlslEntryPoint>, ShaderModel, Vec<ModeRegisters>), Diagnostics> {
    let (r, model) = resolve(modules, options)?;
    let written = r.written;
    // Before shader model 6.2, a byte-address buffer cannot load or store
    // 16- or 64-bit values: an error per storage buffer a written entry
    // point uses, at the first such scalar of its contract layout (what
    // the file's first load or store of one reports).
    let wide = if model < ShaderModel::Sm6_2 {
        wide_storages(written.info, written.contract, &r.plan, &r.selected)
    } else {
        Vec::new()
    };
    let errors: Vec<_> = wide
        .into_iter()
        .map(|(st, s)| st.sm62_error(s, model))
        .collect();
    let registers = modes
        .iter()
        .map(|&mode| {
            let registers = written.bindings.d3d(written.module, mode)?;
            if !errors.is_empty() {
                return Err(Diagnostics(errors.clone()));
            }
            Ok(register_records(registers, &r.names, &r.plan))
        })
        .collect();
    Ok((
        entry_points(written.module, &r.names, &r.selected),
        model,
        registers,
    ))
}

/// The written entry points with their HLSL function names.
fn entry_points(
    module: &naga::Module,
    names: &naga::FastHashMap<NameKey, String>,
    selected: &[usize],
) -> Vec<HlslEntryPoint> {
    selected
        .iter()
        .map(|&i| {
            let ep = &module.entry_points[i];
            HlslEntryPoint {
                name: ep.name.clone(),
                function: name_of(names, NameKey::EntryPoint(i as u16)).to_string(),
                stage: ep.stage,
            }
        })
        .collect()
}

/// The registers as reported: with the HLSL names of the declarations (a
/// cbuffer is named by the plan, `<global>_cb`; everything else by the
/// namer).
fn register_records(
    registers: &Registers,
    names: &naga::FastHashMap<NameKey, String>,
    plan: &super::buffers::Plan,
) -> Vec<HlslRegister> {
    registers
        .list
        .iter()
        .map(|r| {
            let hlsl_name = match r.handle {
                Some(h) => plan
                    .cbuffer_name(h)
                    .unwrap_or_else(|| name_of(names, NameKey::GlobalVariable(h)))
                    .to_string(),
                None => text!("{NUM_WORKGROUPS}_cb"),
            };
            HlslRegister {
                global: r.global.clone(),
                hlsl_name,
                kind: r.kind,
                class: r.class,
                register: r.register,
                space: r.space,
                count: r.count,
                words: r.handle.is_some_and(|h| plan.is_words(h)),
            }
        })
        .collect()
}

/// The storage buffers a written entry point uses (every one, in a
/// library) that hold 16- or 64-bit values, each with the first such
/// scalar of its contract layout.
fn wide_storages<'p>(
    info: &naga::valid::ModuleInfo,
    contract: &LayoutModule,
    plan: &'p super::buffers::Plan,
    selected: &[usize],
) -> Vec<(&'p super::buffers::Storage, naga::Scalar)> {
    let used = plan
        .storages
        .iter()
        .filter(|st| used_by(info, selected, st.global));
    used.filter_map(|st| {
        let scalar = wide_scalar(contract, &st.layout)?;
        Some((st, crate::layout::realize::naga_scalar(scalar)))
    })
    .collect()
}

/// The first 16- or 64-bit scalar of `layout`, members in offset order.
fn wide_scalar(
    contract: &LayoutModule,
    layout: &crate::layout::Layout,
) -> Option<crate::layout::Scalar> {
    use crate::layout::LayoutKind;
    match &layout.kind {
        LayoutKind::Scalar(s)
        | LayoutKind::Atomic(s)
        | LayoutKind::Vector { scalar: s, .. }
        | LayoutKind::Matrix { scalar: s, .. } => {
            (s.width != 4 && s.kind != crate::layout::ScalarKind::Bool).then_some(*s)
        }
        LayoutKind::Array { element, .. } => wide_scalar(contract, element),
        LayoutKind::Struct(h) => {
            let mut members = contract.structs.get(h)?.members();
            members.find_map(|m| wide_scalar(contract, &m.layout))
        }
    }
}

/// The HLSL names of the WGSL structs and cbuffer members (see
/// [`HlslNames`]). Consumes `ctx`: the names are moved out of the namer's
/// map and the buffer plan instead of copied (this runs after the file is
/// written, and nothing reads `ctx` afterwards).
fn output_names(ctx: Ctx<'_>) -> HlslNames {
    let Ctx {
        module,
        mut names,
        plan,
        ..
    } = ctx;
    let mut take = |key: NameKey| names.remove(&key).unwrap_or_else(|| "_unnamed".into());
    let mut out = HlslNames::default();
    for (h, t) in module.types.iter() {
        let TypeInner::Struct { ref members, .. } = t.inner else {
            continue;
        };
        let Some(wgsl) = t.name.clone() else {
            continue;
        };
        let fields = (0..members.len())
            .map(|i| take(NameKey::StructMember(h, i as u32)))
            .collect();
        out.structs.push((wgsl, take(NameKey::Type(h)), fields));
    }
    for (real, cb) in plan.real.cbuffers.iter().zip(plan.names.cbuffers) {
        let wgsl = module.global_variables[real.global]
            .name
            .clone()
            .unwrap_or_default();
        out.cbuffers.push((wgsl, cb.name, cb.members));
    }
    out
}

// ---------------------------------------------------------------------------
// The file

/// About how many bytes of HLSL a function's expression takes, for sizing
/// the text of the functions up front.
const CODE_BYTES_PER_EXPRESSION: usize = 24;

fn write_file(
    ctx: &Ctx<'_>,
    needs: &mut Needs,
    registers: &Registers,
    order: &[GlobalHandle],
    selected: &[usize],
) -> String {
    let module = ctx.module;
    // Resources, constants, and private and workgroup globals, a section
    // each (room for a declaration line per global).
    let mut decls = String::with_capacity(80 * order.len());
    push_section(&mut decls, |out| {
        push_resource_declarations(ctx, registers, order, selected, out)
    });
    push_section(&mut decls, |out| {
        for (h, c) in module.constants.iter() {
            if is_abstract(module, c.ty) {
                continue;
            }
            let ty = types::type_name(ctx, c.ty);
            let value = super::func::const_expression(ctx, needs, c.init);
            let name = ctx.name(NameKey::Constant(h));
            super::push_parts(out, &["static const ", ty, " ", name, " = ", &value, ";\n"]);
        }
    });
    push_section(&mut decls, |out| {
        push_global_declarations(ctx, needs, order, selected, out)
    });

    // Functions reached by any written entry point, in arena order; every
    // function in a library.
    let mut reached = vec![selected.is_empty(); module.functions.len()];
    for &i in selected {
        for f in reachable_functions(module, i) {
            if let Some(r) = reached.get_mut(f.index()) {
                *r = true;
            }
        }
    }
    // The functions, then the entry points (with their input and output
    // structs): the end of the file, after the helpers they need. One
    // string for both, with room for about [`CODE_BYTES_PER_EXPRESSION`]
    // per expression written, so that it rarely has to grow.
    let functions = || module.functions.iter().filter(|(f, _)| reached[f.index()]);
    let expressions = functions()
        .map(|(_, f)| f.expressions.len())
        .chain(
            selected
                .iter()
                .filter_map(|&i| module.entry_points.get(i))
                .map(|ep| ep.function.expressions.len()),
        )
        .sum::<usize>();
    let mut code = String::with_capacity(expressions * CODE_BYTES_PER_EXPRESSION);
    // The function writers' buffers, passed from one function to the next.
    let mut reuse = super::func::Reuse::default();
    for (f, _) in functions() {
        push_section(&mut code, |out| {
            super::func::write_function_into(ctx, needs, f, out, &mut reuse)
        });
    }
    for &i in selected {
        // The input and output structs, as a section of their own.
        let mut has_input = None;
        push_section(&mut code, |out| {
            has_input = push_entry_io_declarations(ctx, needs, i, out)
        });
        push_section(&mut code, |out| {
            super::func::write_entry_point_into(ctx, needs, i, has_input, out, &mut reuse)
        });
    }

    // The member types the declarations spell are not counted as named by
    // the output ([`crate::back::common::DeclPart::names`] has them).
    let (all_structs, struct_parts) = ctx
        .type_names
        .named
        .unrecorded(|| types::struct_declaration_parts(ctx));
    let buffers = ctx.plan.declarations();
    // A library declares every struct; with entry points, the buffer
    // structs nothing names are left out. Named: what the output spelled,
    // and the structs cbuffers hold as they are (the plan names those once,
    // before writing).
    let named = if selected.is_empty() {
        u64::MAX
    } else {
        let uses = ctx.type_names.named.uses(ctx.module);
        ctx.plan
            .real
            .variants
            .iter()
            .filter(|v| v.value)
            .fold(ctx.type_names.named.take(), |n, v| n | uses.of(v.ty))
    };
    // Every part, with room for the header and the newlines of
    // `push_section`.
    let size = [&buffers, &decls]
        .into_iter()
        .chain(needs.helpers.values())
        .chain([&code])
        .map(|part| part.len() + 2)
        .sum::<usize>()
        + all_structs.len()
        + 2;
    let mut text = String::with_capacity(size + 128);
    if ctx.options.slang {
        // Slang has no `#pragma pack_matrix`; every matrix in a buffer
        // says `row_major` itself.
        text.push_str("// Generated by stride from WGSL for Slang\n\n");
    } else {
        let (major, minor) = ctx.shader_model().version();
        text.push_str("// Generated by stride from WGSL; shader model ");
        super::push_decimal(&mut text, u64::from(major));
        text.push('.');
        super::push_decimal(&mut text, u64::from(minor));
        text.push_str("\n#pragma pack_matrix(row_major)\n\n");
    }
    push_section(&mut text, |out| {
        crate::back::common::push_live_declarations(out, &all_structs, &struct_parts, named)
    });
    push_section(&mut text, |out| out.push_str(&buffers));
    text.push_str(&decls);
    for helper in needs.helpers.values() {
        push_section(&mut text, |out| out.push_str(helper));
    }
    text.push_str(&code);
    while text.ends_with("\n\n") {
        text.pop();
    }
    text
}

/// Whether any written entry point uses global `h`.
fn used_by(info: &naga::valid::ModuleInfo, selected: &[usize], h: GlobalHandle) -> bool {
    // A library (no entry points) declares everything.
    selected.is_empty()
        || selected
            .iter()
            .any(|&i| !info.get_entry_point(i)[h].is_empty())
}

/// A span for errors about entry point `index` (see [`text::entry_span`]).
fn entry_span(ctx: &Ctx<'_>, index: usize) -> naga::Span {
    text::entry_span(ctx.parsed, ctx.module, index)
}
