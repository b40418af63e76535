//! The module driver and everything at module scope: override baking,
//! naming, registers, the file header, constants, resources,
//! private and workgroup globals, and the entry points' input and output
//! structs.
//!
//! INTERFACE (owned by the module part; `func` calls the entry-point
//! functions below).
//!
//! - [`write_module`] drives everything and assembles the file in this
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
//!   [`entry_prologue`], from the HLSL input struct parameter; every
//!   `return` is [`entry_return`].
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

use super::keywords;
use super::types;
use super::{Ctx, HlslEntryPoint, HlslOptions, HlslOutput, HlslRegister, Needs};
use super::{HlslNames, ShaderModel};
use crate::back::common::{binding_array_suffix, element_inner, is_abstract};
use crate::back::common::{declaration_order, reachable_functions, use_span, Written};
use crate::back::text;
use crate::back::text::{
    input_parts, io_parts, output_parts, zeroed_workgroup_variables, zeroes_workgroup_memory,
    IoPart,
};
use crate::bind::d3d::{reads_num_workgroups, Register, Registers, VkBinding};
use crate::diag::{Diagnostic, Diagnostics};
use crate::front::Parsed;
use crate::layout::LayoutModule;
use naga::proc::NameKey;
use naga::{AddressSpace, Binding, BuiltIn, Handle, ImageClass, ShaderStage, TypeInner};
use std::borrow::Cow;
use std::fmt::Write as _;

type GlobalHandle = Handle<naga::GlobalVariable>;

pub(crate) use crate::bind::d3d::NUM_WORKGROUPS;

/// What the module is written from (see [`crate::back::common::Resolved`]).
pub(crate) type Resolved = crate::back::common::Resolved<super::buffers::Plan, Registers>;

/// Bake the overrides, name, plan the buffers and assign the registers:
/// everything but the text (see [`Resolved`]). `info` is `parsed.module`'s,
/// validated once per translation.
pub(crate) fn resolve(
    parsed: &Parsed,
    info: &naga::valid::ModuleInfo,
    contract: &LayoutModule,
    options: &HlslOptions,
) -> Result<Resolved, Diagnostics> {
    // A module without entry points (a shared include) is written as a
    // library: every function and every global, for DXC's `lib_6_x`
    // profiles (`selected` is then empty).
    let selected = select_entry_points(&parsed.module, options)?;

    let mut warnings = Vec::new();
    let baked = if !parsed.module.overrides.is_empty() || !options.overrides.is_empty() {
        let (module, info, notes) = crate::back::overrides::bake(
            &parsed.module,
            info,
            &options.overrides,
            "HLSL",
            "baked because HLSL has no specialization constants",
        )?;
        warnings.extend(notes);
        Some((module, info))
    } else {
        None
    };
    let written = Written::new(contract, &parsed.module, baked)?;
    let (module, _, contract) = written.get(&parsed.module, info, contract);

    let names = module_names(module);
    let unwritable = shader_model_type_errors(module, options.shader_model);
    if !unwritable.is_empty() {
        return Err(Diagnostics(unwritable));
    }
    let plan = super::buffers::plan(parsed, module, contract, &names, options.slang)?;
    let order = declaration_order(module);
    let registers = crate::bind::d3d::assign(module, &order, options.registers)?;
    Ok(Resolved::new(
        written, warnings, selected, names, plan, order, registers,
    ))
}

/// The whole backend for one module: see `super::write`.
pub fn write_module(
    parsed: &Parsed,
    info: &naga::valid::ModuleInfo,
    contract: &LayoutModule,
    options: &HlslOptions,
) -> Result<HlslOutput, Diagnostics> {
    let r = resolve(parsed, info, contract, options)?;
    let (module, info, contract) = r.written.get(&parsed.module, info, contract);
    let (selected, registers, mut warnings) = (r.selected, r.bindings, r.warnings);
    let ctx = Ctx {
        parsed,
        module,
        info,
        contract,
        options,
        names: r.names,
        plan: r.plan,
        type_names: Default::default(),
    };
    warnings.extend(builtin_warnings(&ctx, &selected));

    let mut needs = Needs::default();
    let text = write_file(&ctx, &mut needs, &registers, &r.order, &selected);
    if !needs.errors.is_empty() {
        return Err(Diagnostics(needs.errors));
    }
    let entry_points = entry_points(module, &ctx.names, &selected);
    let registers = register_records(&registers, &ctx.names, &ctx.plan);
    let names = output_names(ctx);
    Ok(HlslOutput {
        text,
        entry_points,
        registers,
        names,
        warnings,
    })
}

/// The entry points of the file and the registers of every resource, as
/// [`HlslOutput`] reports them, without writing the file: for `--target
/// reflect`. Also an error where a storage buffer holds 16- or 64-bit
/// values that the shader model cannot load or store
/// ([`storage_model_errors`]), as writing the file would report.
pub(crate) fn module_registers(
    parsed: &Parsed,
    info: &naga::valid::ModuleInfo,
    contract: &LayoutModule,
    options: &HlslOptions,
) -> Result<(Vec<HlslEntryPoint>, Vec<HlslRegister>), Diagnostics> {
    let r = resolve(parsed, info, contract, options)?;
    let (module, info, contract) = r.written.get(&parsed.module, info, contract);
    let errors = storage_model_errors(info, contract, &r.plan, &r.selected, options);
    if !errors.is_empty() {
        return Err(Diagnostics(errors));
    }
    Ok((
        entry_points(module, &r.names, &r.selected),
        register_records(&r.bindings, &r.names, &r.plan),
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
                function: names
                    .get(&NameKey::EntryPoint(i as u16))
                    .map_or("_unnamed", String::as_str)
                    .to_string(),
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
                    .cbuffers
                    .iter()
                    .find(|c| c.global == h)
                    .map(|c| c.name.clone())
                    .unwrap_or_else(|| {
                        names
                            .get(&NameKey::GlobalVariable(h))
                            .map_or("_unnamed", String::as_str)
                            .to_string()
                    }),
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
            }
        })
        .collect()
}

/// Before shader model 6.2, a byte-address buffer cannot load or store 16-
/// or 64-bit values: an error per storage buffer a written entry point
/// uses, at the first such scalar of its contract layout (what the file's
/// first load or store of one reports).
fn storage_model_errors(
    info: &naga::valid::ModuleInfo,
    contract: &LayoutModule,
    plan: &super::buffers::Plan,
    selected: &[usize],
    options: &HlslOptions,
) -> Vec<Diagnostic> {
    let model = options.shader_model;
    if model >= ShaderModel::Sm6_2 {
        return Vec::new();
    }
    let mut errors = Vec::new();
    for st in &plan.storages {
        let used = selected.is_empty()
            || selected
                .iter()
                .any(|&i| !info.get_entry_point(i)[st.global].is_empty());
        let Some(s) = wide_scalar(contract, &st.layout).filter(|_| used) else {
            continue;
        };
        let how = if s.width == 2 {
            "which need HLSL's 16-bit types (`-enable-16bit-types`)"
        } else {
            "which HLSL reads and writes in a byte-address buffer with the templated `Load<T>`/`Store<T>`"
        };
        let scalar = naga::Scalar {
            kind: match s.kind {
                crate::layout::ScalarKind::Sint => naga::ScalarKind::Sint,
                crate::layout::ScalarKind::Uint => naga::ScalarKind::Uint,
                crate::layout::ScalarKind::Bool => naga::ScalarKind::Bool,
                _ => naga::ScalarKind::Float,
            },
            width: s.width,
        };
        errors.push(
            Diagnostic::error(text!(
                "`{}` holds `{}` values, {how}, available from shader model 6.2; the chosen shader model is {}.",
                st.name,
                types::scalar(scalar),
                model
            ))
            .at(st.span.clone(), "16- or 64-bit values in a byte-address buffer")
            .note("help: use --shader-model 6_2 (or later)"),
        );
    }
    errors
}

/// The first 16- or 64-bit scalar of `layout`, members in offset order.
fn wide_scalar(
    contract: &LayoutModule,
    layout: &crate::layout::Layout,
) -> Option<crate::layout::Scalar> {
    use crate::layout::{LayoutKind, Slot};
    match &layout.kind {
        LayoutKind::Scalar(s)
        | LayoutKind::Atomic(s)
        | LayoutKind::Vector { scalar: s, .. }
        | LayoutKind::Matrix { scalar: s, .. } => {
            (s.width != 4 && s.kind != crate::layout::ScalarKind::Bool).then_some(*s)
        }
        LayoutKind::Array { element, .. } => wide_scalar(contract, element),
        LayoutKind::Struct(h) => {
            contract
                .structs
                .get(h)?
                .slots
                .iter()
                .find_map(|slot| match slot {
                    Slot::Member(m) => wide_scalar(contract, &m.layout),
                    Slot::Padding(_) => None,
                })
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
    for cb in plan.cbuffers {
        let wgsl = module.global_variables[cb.global]
            .name
            .clone()
            .unwrap_or_default();
        let members = cb.members.into_iter().map(|(n, _)| n).collect();
        out.cbuffers.push((wgsl, cb.name, members));
    }
    out
}

/// The entry points to write: all, or the one `-e` names.
fn select_entry_points(
    module: &naga::Module,
    options: &HlslOptions,
) -> Result<Vec<usize>, Diagnostics> {
    let Some(name) = &options.entry_point else {
        return Ok((0..module.entry_points.len()).collect());
    };
    if let Some(i) = module.entry_points.iter().position(|e| e.name == *name) {
        return Ok(vec![i]);
    }
    let available: Vec<String> = module
        .entry_points
        .iter()
        .map(|e| text!("`{}`", e.name))
        .collect();
    Err(Diagnostic::error(text!(
        "no entry point named `{name}` in this module (-e {name})"
    ))
    .note(text!("the entry points are {}", available.join(", ")))
    .into())
}

// ---------------------------------------------------------------------------
// Names and shader-model checks

/// Every module item's HLSL name: naga's namer with our reserved words.
fn module_names(module: &naga::Module) -> naga::FastHashMap<NameKey, String> {
    let mut names = naga::FastHashMap::default();
    let mut namer = naga::proc::Namer::default();
    namer.reset(
        module,
        &keywords::RESERVED,
        &keywords::BUILTINS,
        &keywords::RESERVED_CASE_INSENSITIVE,
        keywords::RESERVED_PREFIXES,
        &mut names,
    );
    names
}

/// Types the chosen shader model cannot express: f16 before 6.2, 64-bit
/// integers before 6.0. One error per scalar type, at its first use.
fn shader_model_type_errors(module: &naga::Module, model: ShaderModel) -> Vec<Diagnostic> {
    let mut errors = Vec::new();
    let mut reported: Vec<naga::Scalar> = Vec::new();
    for (handle, ty) in module.types.iter() {
        let scalar = match ty.inner {
            TypeInner::Scalar(s)
            | TypeInner::Vector { scalar: s, .. }
            | TypeInner::Matrix { scalar: s, .. }
            | TypeInner::Atomic(s) => s,
            _ => continue,
        };
        let (why, fix) = match (scalar.kind, scalar.width) {
            (naga::ScalarKind::Float, 2) if model < ShaderModel::Sm6_2 => (
                "16-bit floats need shader model 6.2",
                "pass `--shader-model 6_2` (and compile with DXC's `-enable-16bit-types`)",
            ),
            (naga::ScalarKind::Sint | naga::ScalarKind::Uint, 8) if model < ShaderModel::Sm6_0 => (
                "64-bit integers need shader model 6.0",
                "pass `--shader-model 6_0` or later",
            ),
            _ => continue,
        };
        if reported.contains(&scalar) {
            continue;
        }
        reported.push(scalar);
        let name = match (scalar.kind, scalar.width) {
            (naga::ScalarKind::Float, 2) => "f16",
            (naga::ScalarKind::Sint, _) => "i64",
            _ => "u64",
        };
        errors.push(
            super::error_at(
                text!("`{name}` cannot be written for shader model {model}: {why}"),
                use_span(module, handle),
                text!("uses `{name}`"),
            )
            .note(fix),
        );
    }
    errors
}

/// Warnings about builtins whose D3D meaning differs from WGSL's.
fn builtin_warnings(ctx: &Ctx<'_>, selected: &[usize]) -> Vec<Diagnostic> {
    let mut warnings: Vec<Diagnostic> = Vec::new();
    for &index in selected {
        let ep = &ctx.module.entry_points[index];
        let span = entry_span(ctx, index).to_range().unwrap_or(0..0);
        for part in input_parts(ctx.module, ep) {
            let (what, semantic, start) = match part.binding {
                Binding::BuiltIn(BuiltIn::VertexIndex) => {
                    ("vertex_index", "SV_VertexID", "base vertex")
                }
                Binding::BuiltIn(BuiltIn::InstanceIndex) => {
                    ("instance_index", "SV_InstanceID", "first instance")
                }
                _ => continue,
            };
            let w = Diagnostic::warning(text!(
                "D3D's {semantic} does not include the draw's {start}: @builtin({what}) counts from 0 in every draw"
            ))
            .at(span.clone(), text!("reads {what}"))
            .note(text!(
                "draw with {start} 0, or add it from a uniform; --target spirv and GLSL for Vulkan include it"
            ));
            if !warnings.contains(&w) {
                warnings.push(w);
            }
        }
    }
    warnings
}

// ---------------------------------------------------------------------------
// Registers

/// The text inside `register(...)`: `t0, space1`.
#[cfg(test)]
fn register_text(r: &Register) -> String {
    RegisterText(r).to_string()
}

/// The text inside `register(...)`: `t0, space1`, written where it is
/// formatted.
struct RegisterText<'a>(&'a Register);

impl RegisterText<'_> {
    /// The text, appended to `out`.
    fn push_to(&self, out: &mut String) {
        let r = self.0;
        out.push(r.class);
        super::push_decimal(out, u64::from(r.register));
        out.push_str(", space");
        super::push_decimal(out, u64::from(r.space));
    }
}

impl std::fmt::Display for RegisterText<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut text = String::with_capacity(16);
        self.push_to(&mut text);
        f.write_str(&text)
    }
}

/// Slang output: the Vulkan binding attribute line of a resource (see
/// [`crate::bind::d3d`]), appended to `out`; HLSL output: nothing.
fn push_vk_binding(out: &mut String, ctx: &Ctx<'_>, reg: &Register) {
    if !ctx.options.slang {
        return;
    }
    match reg.vulkan {
        VkBinding::PushConstant => out.push_str("[[vk::push_constant]]\n"),
        VkBinding::Binding { binding, set } => {
            out.push_str("[[vk::binding(");
            super::push_decimal(out, u64::from(binding));
            out.push_str(", ");
            super::push_decimal(out, u64::from(set));
            out.push_str(")]]\n");
        }
    }
}

// ---------------------------------------------------------------------------
// The file

/// Append a non-empty part followed by a blank line.
fn section(out: &mut String, part: &str) {
    if part.is_empty() {
        return;
    }
    out.push_str(part);
    if !part.ends_with('\n') {
        out.push('\n');
    }
    out.push('\n');
}

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
    let resources = resource_declarations(ctx, needs, registers, order, selected);

    let mut constants = String::new();
    for (h, c) in module.constants.iter() {
        if is_abstract(module, c.ty) {
            continue;
        }
        let ty = types::type_name(ctx, c.ty);
        let value = super::func::const_expression(ctx, needs, c.init);
        super::push_parts(
            &mut constants,
            &[
                "static const ",
                ty,
                " ",
                ctx.name(NameKey::Constant(h)),
                " = ",
                &value,
                ";\n",
            ],
        );
    }

    let globals = global_declarations(ctx, needs, order, selected);

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
    let expressions = module
        .functions
        .iter()
        .filter(|(f, _)| reached.get(f.index()).copied().unwrap_or(false))
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
    for (f, _) in module.functions.iter() {
        if reached.get(f.index()).copied().unwrap_or(false) {
            super::func::write_function_into(ctx, needs, f, &mut code, &mut reuse);
            if !code.ends_with('\n') {
                code.push('\n');
            }
            code.push('\n');
        }
    }
    for &i in selected {
        // The input and output structs, as a section of their own.
        let start = code.len();
        let has_input = push_entry_io_declarations(ctx, needs, i, &mut code);
        if code.len() > start {
            if !code.ends_with('\n') {
                code.push('\n');
            }
            code.push('\n');
        }
        super::func::write_entry_point_into(ctx, needs, i, has_input, &mut code, &mut reuse);
        if !code.ends_with('\n') {
            code.push('\n');
        }
        code.push('\n');
    }

    let (all_structs, struct_parts) = types::struct_declaration_parts_unnamed(ctx);
    let buffers = ctx.plan.declarations(ctx);
    // A library declares every struct; with entry points, the buffer
    // structs nothing names are left out. Named: what the output spelled,
    // and the structs cbuffers hold as they are (the plan names those once,
    // before writing).
    let named = if selected.is_empty() {
        u64::MAX
    } else {
        let uses = ctx.type_names.named.uses(ctx.module);
        ctx.plan
            .variants
            .iter()
            .filter(|v| v.value)
            .fold(ctx.type_names.named.take(), |n, v| n | uses.of(v.ty))
    };
    // Every part, with room for the header and the newlines of `section`.
    let size = [&buffers, &resources, &constants, &globals]
        .into_iter()
        .chain(needs.helpers.values())
        .chain([&code])
        .map(|part| part.len() + 2)
        .sum::<usize>()
        + all_structs.len()
        + 2;
    let mut text = String::with_capacity(size + 128);
    if ctx.options.slang {
        text.push_str("// Generated by stride from WGSL for Slang\n");
    } else {
        let (major, minor) = ctx.shader_model().version();
        text.push_str("// Generated by stride from WGSL; shader model ");
        super::push_decimal(&mut text, u64::from(major));
        text.push('.');
        super::push_decimal(&mut text, u64::from(minor));
        text.push('\n');
    }
    if ctx.options.slang {
        // Slang has no `#pragma pack_matrix`; every matrix in a buffer
        // says `row_major` itself.
        text.push('\n');
    } else {
        text.push_str("#pragma pack_matrix(row_major)\n\n");
    }
    let start = text.len();
    crate::back::common::push_live_declarations(&mut text, &all_structs, &struct_parts, named);
    if text.len() > start {
        if !text.ends_with('\n') {
            text.push('\n');
        }
        text.push('\n');
    }
    section(&mut text, &buffers);
    section(&mut text, &resources);
    section(&mut text, &constants);
    section(&mut text, &globals);
    for helper in needs.helpers.values() {
        section(&mut text, helper);
    }
    text.push_str(&code);
    while text.ends_with("\n\n") {
        text.pop();
    }
    text
}

/// Whether any written entry point uses global `h`.
fn used_by(ctx: &Ctx<'_>, selected: &[usize], h: GlobalHandle) -> bool {
    // A library (no entry points) declares everything.
    selected.is_empty()
        || selected
            .iter()
            .any(|&i| !ctx.info.get_entry_point(i)[h].is_empty())
}

/// The resources the written entry points use, with their registers:
/// buffers through the buffer plan, textures and samplers here, and the
/// workgroup-count cbuffer.
fn resource_declarations(
    ctx: &Ctx<'_>,
    needs: &mut Needs,
    registers: &Registers,
    order: &[GlobalHandle],
    selected: &[usize],
) -> String {
    let module = ctx.module;
    // Room for a declaration line per global.
    let mut resources = String::with_capacity(80 * order.len());
    for &h in order {
        if !used_by(ctx, selected, h) {
            continue;
        }
        let var = &module.global_variables[h];
        let Some(reg) = registers.global(h) else {
            continue;
        };
        if matches!(
            var.space,
            AddressSpace::Uniform | AddressSpace::Storage { .. } | AddressSpace::Immediate
        ) {
            push_vk_binding(&mut resources, ctx, reg);
            ctx.plan
                .write_buffer_declaration(ctx, &mut resources, h, |out| {
                    RegisterText(reg).push_to(out)
                });
            if !resources.ends_with('\n') {
                resources.push('\n');
            }
            continue;
        }
        let (suffix, _) = binding_array_suffix(module, var.ty);
        let ty = match *element_inner(module, var.ty) {
            TypeInner::Image {
                class: ImageClass::External,
                ..
            } => {
                needs.error(
                    super::error_at(
                        "texture_external cannot be written as HLSL",
                        module.global_variables.get_span(h),
                        "external texture",
                    )
                    .note("use texture_2d<f32> and convert the video frame before binding it"),
                );
                continue;
            }
            // The texture type's spelling, kept with the module's types.
            TypeInner::Image { .. } => types::type_name(ctx, element_type(module, var.ty)),
            TypeInner::Sampler { comparison } => types::sampler_type(comparison),
            _ => continue,
        };
        push_vk_binding(&mut resources, ctx, reg);
        super::push_parts(
            &mut resources,
            &[
                ty,
                " ",
                ctx.name(NameKey::GlobalVariable(h)),
                &suffix,
                " : register(",
            ],
        );
        RegisterText(reg).push_to(&mut resources);
        resources.push_str(");\n");
    }
    if let Some(reg) = registers.num_workgroups() {
        if selected
            .iter()
            .any(|&i| reads_num_workgroups(module, &module.entry_points[i]))
        {
            push_vk_binding(&mut resources, ctx, reg);
            super::push_parts(
                &mut resources,
                &["cbuffer ", NUM_WORKGROUPS, "_cb : register("],
            );
            RegisterText(reg).push_to(&mut resources);
            super::push_parts(
                &mut resources,
                &[") {\n    uint3 ", NUM_WORKGROUPS, ";\n};\n"],
            );
        }
    }
    resources
}

/// The element type of binding array `ty` (nested ones included); `ty`
/// itself for any other type.
fn element_type(module: &naga::Module, ty: Handle<naga::Type>) -> Handle<naga::Type> {
    match module.types.get_handle(ty).map(|t| &t.inner) {
        Ok(&TypeInner::BindingArray { base, .. }) => element_type(module, base),
        _ => ty,
    }
}

/// Private (`static`) and workgroup (`groupshared`) globals the written
/// entry points use.
fn global_declarations(
    ctx: &Ctx<'_>,
    needs: &mut Needs,
    order: &[GlobalHandle],
    selected: &[usize],
) -> String {
    let mut globals = String::new();
    for &h in order {
        if !used_by(ctx, selected, h) {
            continue;
        }
        let var = &ctx.module.global_variables[h];
        let name = ctx.name(NameKey::GlobalVariable(h));
        match var.space {
            AddressSpace::Private => {
                let ty = types::type_name(ctx, var.ty);
                let init = match var.init {
                    Some(init) => super::func::const_expression(ctx, needs, init),
                    None => types::zero_value(ctx, var.ty),
                };
                super::push_parts(
                    &mut globals,
                    &["static ", ty, " ", name, " = ", &init, ";\n"],
                );
            }
            AddressSpace::WorkGroup => {
                let ty = types::type_name(ctx, var.ty);
                super::push_parts(&mut globals, &["groupshared ", ty, " ", name, ";\n"]);
            }
            _ => {}
        }
    }
    globals
}

/// A span for errors about entry point `index` (see [`text::entry_span`]).
fn entry_span(ctx: &Ctx<'_>, index: usize) -> naga::Span {
    text::entry_span(ctx.parsed, ctx.module, index)
}

// ---------------------------------------------------------------------------
// Entry-point inputs and outputs

/// One member of an input or output struct.
/// (Texts borrow the type names of `Ctx` and fixed spellings: the members
/// are computed again by each part that needs them.)
#[derive(Clone, Debug, PartialEq, Eq)]
struct Member<'a> {
    /// Interpolation and other modifiers, each followed by a space.
    modifiers: Cow<'a, str>,
    ty: &'a str,
    name: Word,
    semantic: Word,
}

/// The name or semantic of an IO struct member, formatted where it is
/// printed: `_s_position`, `_s_loc3`, `_s_` + a builtin's name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Word {
    Fixed(&'static str),
    /// A prefix and a number: `LOC3`.
    Numbered(&'static str, u32),
    /// A prefix and a word: `_s_vertex_index`.
    Prefixed(&'static str, &'static str),
}

impl Word {
    /// The word, appended to `out`.
    fn push_to(self, out: &mut String) {
        match self {
            Word::Fixed(word) => out.push_str(word),
            Word::Numbered(prefix, n) => {
                out.push_str(prefix);
                super::push_decimal(out, u64::from(n));
            }
            Word::Prefixed(prefix, word) => {
                out.push_str(prefix);
                out.push_str(word);
            }
        }
    }
}

impl std::fmt::Display for Word {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Word::Fixed(word) => f.write_str(word),
            Word::Numbered(prefix, n) => write!(f, "{prefix}{n}"),
            Word::Prefixed(prefix, word) => {
                f.write_str(prefix)?;
                f.write_str(word)
            }
        }
    }
}

/// How an input part is read in the prologue.
enum Source<'a> {
    /// A member of the input struct.
    Member(Member<'a>),
    /// An HLSL expression without a struct member (wave intrinsics, the
    /// workgroup-count cbuffer).
    Expression(Cow<'a, str>),
}

/// A builtin as WGSL spells it: member names and messages.
fn builtin_name(builtin: BuiltIn) -> &'static str {
    match builtin {
        BuiltIn::Position { .. } => "position",
        BuiltIn::ViewIndex => "view_index",
        BuiltIn::BaseInstance => "base_instance",
        BuiltIn::BaseVertex => "base_vertex",
        BuiltIn::ClipDistances => "clip_distances",
        BuiltIn::CullDistance => "cull_distance",
        BuiltIn::InstanceIndex => "instance_index",
        BuiltIn::PointSize => "point_size",
        BuiltIn::VertexIndex => "vertex_index",
        BuiltIn::DrawIndex => "draw_index",
        BuiltIn::FragDepth => "frag_depth",
        BuiltIn::PointCoord => "point_coord",
        BuiltIn::FrontFacing => "front_facing",
        BuiltIn::PrimitiveIndex => "primitive_index",
        BuiltIn::Barycentric { .. } => "barycentric",
        BuiltIn::SampleIndex => "sample_index",
        BuiltIn::SampleMask => "sample_mask",
        BuiltIn::GlobalInvocationId => "global_invocation_id",
        BuiltIn::LocalInvocationId => "local_invocation_id",
        BuiltIn::LocalInvocationIndex => "local_invocation_index",
        BuiltIn::WorkGroupId => "workgroup_id",
        BuiltIn::WorkGroupSize => "workgroup_size",
        BuiltIn::NumWorkGroups => "num_workgroups",
        BuiltIn::NumSubgroups => "num_subgroups",
        BuiltIn::SubgroupId => "subgroup_id",
        BuiltIn::SubgroupSize => "subgroup_size",
        BuiltIn::SubgroupInvocationId => "subgroup_invocation_id",
        _ => "unsupported",
    }
}

fn unsupported_builtin(
    ctx: &Ctx<'_>,
    index: usize,
    builtin: BuiltIn,
    why: &str,
    fix: &str,
) -> Diagnostic {
    let name = builtin_name(builtin);
    let name = if name == "unsupported" {
        text!("{builtin:?}")
    } else {
        name.to_string()
    };
    let mut d = super::error_at(
        text!("@builtin({name}) cannot be written as HLSL: {why}"),
        entry_span(ctx, index),
        "this entry point uses it",
    );
    if !fix.is_empty() {
        d = d.note(fix);
    }
    d
}

/// A builtin that needs shader model `min`: an error below it.
fn require_model(
    ctx: &Ctx<'_>,
    needs: &mut Needs,
    index: usize,
    builtin: BuiltIn,
    min: ShaderModel,
) {
    if ctx.shader_model() < min {
        needs.error(unsupported_builtin(
            ctx,
            index,
            builtin,
            &text!("it needs shader model {min}"),
            &text!("pass `--shader-model {}` or later", min.name()),
        ));
    }
}

/// `nointerpolation `, `noperspective centroid `, ... for a varying.
fn interpolation_modifiers(
    ctx: &Ctx<'_>,
    needs: &mut Needs,
    index: usize,
    binding: &Binding,
) -> String {
    let Binding::Location {
        interpolation,
        sampling,
        per_primitive,
        ..
    } = *binding
    else {
        return String::new();
    };
    let mut m = String::new();
    if per_primitive {
        needs.error(
            super::error_at(
                "per-primitive inputs cannot be written as HLSL: stride writes no mesh shaders",
                entry_span(ctx, index),
                "this entry point uses one",
            )
            .note("pass the value per vertex with @interpolate(flat)"),
        );
    }
    match interpolation {
        Some(naga::Interpolation::Flat) => m.push_str("nointerpolation "),
        Some(naga::Interpolation::Linear) => m.push_str("noperspective "),
        Some(naga::Interpolation::PerVertex) => needs.error(
            super::error_at(
                "@interpolate(per_vertex) cannot be written as HLSL",
                entry_span(ctx, index),
                "this entry point uses it",
            )
            .note("use flat or perspective interpolation"),
        ),
        Some(naga::Interpolation::Perspective) | None => {}
    }
    match sampling {
        Some(naga::Sampling::Centroid) => m.push_str("centroid "),
        Some(naga::Sampling::Sample) => m.push_str("sample "),
        _ => {}
    }
    if ctx.options.slang
        && interpolation == Some(naga::Interpolation::Linear)
        && matches!(
            sampling,
            Some(naga::Sampling::Centroid | naga::Sampling::Sample)
        )
    {
        needs.error(
            super::error_at(
                "@interpolate(linear, centroid|sample) cannot be written as Slang: Slang (2026.12) rejects `noperspective` together with `centroid` or `sample` as a duplicate modifier",
                entry_span(ctx, index),
                "this entry point uses it",
            )
            .note("use @interpolate(perspective, ...) or @interpolate(linear), or --target hlsl"),
        );
    }
    m
}

/// Slang output: the Vulkan location of a user-defined semantic, which
/// Slang otherwise assigns in declaration order, ignoring the number in
/// `LOC<n>`.
fn vk_location(ctx: &Ctx<'_>, location: u32) -> String {
    if ctx.options.slang {
        text!("[[vk::location({location})]] ")
    } else {
        String::new()
    }
}

/// How an input part reaches the entry function.
fn input_source<'c>(
    ctx: &'c Ctx<'_>,
    needs: &mut Needs,
    index: usize,
    part: &IoPart,
) -> Option<Source<'c>> {
    let ep = &ctx.module.entry_points[index];
    let ty = types::type_name(ctx, part.ty);
    let member = |name: Word, semantic: Word, modifiers: Cow<'c, str>| {
        Some(Source::Member(Member {
            modifiers,
            ty,
            name,
            semantic,
        }))
    };
    let b = match part.binding {
        Binding::Location { location, .. } => {
            let mut modifiers = vk_location(ctx, location);
            if ep.stage == ShaderStage::Fragment {
                modifiers.push_str(&interpolation_modifiers(ctx, needs, index, &part.binding));
            }
            return member(
                Word::Numbered("_s_loc", location),
                Word::Numbered("LOC", location),
                Cow::Owned(modifiers),
            );
        }
        Binding::BuiltIn(b) => b,
    };
    let own = Word::Prefixed("_s_", builtin_name(b));
    let semantic = match b {
        BuiltIn::Position { .. } => "SV_Position",
        BuiltIn::VertexIndex => "SV_VertexID",
        BuiltIn::InstanceIndex => "SV_InstanceID",
        BuiltIn::FrontFacing => "SV_IsFrontFace",
        BuiltIn::SampleIndex => "SV_SampleIndex",
        BuiltIn::SampleMask => "SV_Coverage",
        BuiltIn::PrimitiveIndex => "SV_PrimitiveID",
        BuiltIn::GlobalInvocationId => "SV_DispatchThreadID",
        BuiltIn::LocalInvocationId => "SV_GroupThreadID",
        BuiltIn::LocalInvocationIndex => "SV_GroupIndex",
        BuiltIn::WorkGroupId => "SV_GroupID",
        BuiltIn::ViewIndex => {
            require_model(ctx, needs, index, b, ShaderModel::Sm6_1);
            "SV_ViewID"
        }
        BuiltIn::Barycentric { perspective } => {
            require_model(ctx, needs, index, b, ShaderModel::Sm6_1);
            let modifiers = if perspective { "" } else { "noperspective " };
            return member(
                own,
                Word::Fixed("SV_Barycentrics"),
                Cow::Borrowed(modifiers),
            );
        }
        BuiltIn::NumWorkGroups => {
            return Some(Source::Expression(Cow::Borrowed(NUM_WORKGROUPS)));
        }
        BuiltIn::SubgroupSize => {
            require_model(ctx, needs, index, b, ShaderModel::Sm6_0);
            return Some(Source::Expression(Cow::Borrowed("WaveGetLaneCount()")));
        }
        BuiltIn::SubgroupInvocationId => {
            require_model(ctx, needs, index, b, ShaderModel::Sm6_0);
            return Some(Source::Expression(Cow::Borrowed("WaveGetLaneIndex()")));
        }
        BuiltIn::SubgroupId => {
            require_model(ctx, needs, index, b, ShaderModel::Sm6_0);
            return Some(Source::Expression(Cow::Borrowed(
                "(_s_in._s_local_invocation_index / WaveGetLaneCount())",
            )));
        }
        BuiltIn::NumSubgroups => {
            require_model(ctx, needs, index, b, ShaderModel::Sm6_0);
            let [x, y, z] = ep.workgroup_size;
            let total = x.saturating_mul(y).saturating_mul(z);
            return Some(Source::Expression(Cow::Owned(text!(
                "(({total}u + WaveGetLaneCount() - 1u) / WaveGetLaneCount())"
            ))));
        }
        BuiltIn::BaseInstance | BuiltIn::BaseVertex | BuiltIn::DrawIndex => {
            needs.error(unsupported_builtin(
                ctx,
                index,
                b,
                "D3D has no such system value before shader model 6.8",
                "pass the value in a uniform",
            ));
            return None;
        }
        _ => {
            needs.error(unsupported_builtin(
                ctx,
                index,
                b,
                "no HLSL system value for this input",
                "",
            ));
            return None;
        }
    };
    member(own, Word::Fixed(semantic), Cow::Borrowed(""))
}

/// The output struct member of an output part.
fn output_member<'c>(
    ctx: &'c Ctx<'_>,
    needs: &mut Needs,
    index: usize,
    part: &IoPart,
) -> Option<Member<'c>> {
    let ep = &ctx.module.entry_points[index];
    let ty = types::type_name(ctx, part.ty);
    let (modifiers, name, semantic) = match part.binding {
        Binding::Location {
            location,
            blend_src,
            ..
        } => {
            if ep.stage == ShaderStage::Fragment {
                let target = blend_src.map_or(location, |i| location.saturating_add(i));
                (
                    Cow::Borrowed(""),
                    Word::Numbered("_s_target", target),
                    Word::Numbered("SV_Target", target),
                )
            } else {
                (
                    Cow::Owned(
                        vk_location(ctx, location)
                            + &interpolation_modifiers(ctx, needs, index, &part.binding),
                    ),
                    Word::Numbered("_s_loc", location),
                    Word::Numbered("LOC", location),
                )
            }
        }
        Binding::BuiltIn(b) => {
            let semantic = match b {
                BuiltIn::Position { invariant } => {
                    let m = if invariant { "precise " } else { "" };
                    return Some(Member {
                        modifiers: Cow::Borrowed(m),
                        ty,
                        name: Word::Fixed("_s_position"),
                        semantic: Word::Fixed("SV_Position"),
                    });
                }
                BuiltIn::FragDepth => match ep.early_depth_test {
                    Some(naga::EarlyDepthTest::Allow {
                        conservative: naga::ConservativeDepth::GreaterEqual,
                    }) => "SV_DepthGreaterEqual",
                    Some(naga::EarlyDepthTest::Allow {
                        conservative: naga::ConservativeDepth::LessEqual,
                    }) => "SV_DepthLessEqual",
                    _ => "SV_Depth",
                },
                BuiltIn::SampleMask => "SV_Coverage",
                BuiltIn::ClipDistances => "SV_ClipDistance",
                BuiltIn::CullDistance => "SV_CullDistance",
                _ => {
                    needs.error(unsupported_builtin(
                        ctx,
                        index,
                        b,
                        "no HLSL system value for this output",
                        "",
                    ));
                    return None;
                }
            };
            (
                Cow::Borrowed(""),
                Word::Prefixed("_s_", builtin_name(b)),
                Word::Fixed(semantic),
            )
        }
    };
    Some(Member {
        modifiers,
        ty,
        name,
        semantic,
    })
}

/// Locations first, ascending, then builtins in their order.
fn sort_members(members: &mut [(Option<u32>, Member)]) {
    members.sort_by_key(|(location, _)| location.map_or((1, 0), |l| (0, l)));
}

fn location_of(binding: &Binding) -> Option<u32> {
    match *binding {
        Binding::Location { location, .. } => Some(location),
        Binding::BuiltIn(_) => None,
    }
}

/// The HLSL names of entry point `index`'s input and output structs.
fn io_names<'c>(ctx: &'c Ctx<'_>, index: usize) -> (IoName<'c>, IoName<'c>, IoName<'c>) {
    let f = ctx.name(NameKey::EntryPoint(index as u16));
    (
        IoName("_s_in_", f),
        IoName("_s_out_", f),
        IoName("_s_output_", f),
    )
}

/// One of [`io_names`]: a prefix and the entry function's name, displayed
/// together (formatted straight into the text that uses it).
#[derive(Clone, Copy)]
struct IoName<'c>(&'static str, &'c str);

impl IoName<'_> {
    /// The name, appended to `out`.
    fn push_to(self, out: &mut String) {
        out.push_str(self.0);
        out.push_str(self.1);
    }
}

impl std::fmt::Display for IoName<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0)?;
        f.write_str(self.1)
    }
}

/// The members of the input struct, in order.
fn input_members<'c>(ctx: &'c Ctx<'_>, needs: &mut Needs, index: usize) -> Vec<Member<'c>> {
    let ep = &ctx.module.entry_points[index];
    let mut members = Vec::with_capacity(ep.function.arguments.len());
    let mut wants_index = zeroes_workgroup_memory(ctx.module, ctx.info, index);
    for part in input_parts(ctx.module, ep) {
        if matches!(part.binding, Binding::BuiltIn(BuiltIn::SubgroupId)) {
            wants_index = true;
        }
        if let Some(Source::Member(m)) = input_source(ctx, needs, index, &part) {
            members.push((location_of(&part.binding), m));
        }
    }
    if wants_index
        && !members
            .iter()
            .any(|(_, m)| m.semantic == Word::Fixed("SV_GroupIndex"))
    {
        members.push((
            None,
            Member {
                modifiers: Cow::Borrowed(""),
                ty: "uint",
                name: Word::Fixed("_s_local_invocation_index"),
                semantic: Word::Fixed("SV_GroupIndex"),
            },
        ));
    }
    sort_members(&mut members);
    members.into_iter().map(|(_, m)| m).collect()
}

/// The members of the output struct, in order, each with the part it
/// comes from.
fn output_members<'c>(
    ctx: &'c Ctx<'_>,
    needs: &mut Needs,
    index: usize,
) -> Vec<(IoPart, Member<'c>)> {
    let ep = &ctx.module.entry_points[index];
    let mut members: Vec<(Option<u32>, (IoPart, Member<'c>))> = output_parts(ctx.module, ep)
        .filter_map(|p| {
            let m = output_member(ctx, needs, index, &p)?;
            Some((location_of(&p.binding), (p, m)))
        })
        .collect();
    members.sort_by_key(|(location, _)| location.map_or((1, 0), |l| (0, l)));
    members.into_iter().map(|(_, pm)| pm).collect()
}

fn write_struct_text<'m, 'c: 'm>(
    out: &mut String,
    name: IoName<'_>,
    members: impl IntoIterator<Item = &'m Member<'c>>,
) {
    out.push_str("struct ");
    name.push_to(out);
    out.push_str(" {\n");
    for m in members {
        super::push_parts(out, &["    ", &m.modifiers, m.ty, " "]);
        m.name.push_to(out);
        out.push_str(" : ");
        m.semantic.push_to(out);
        out.push_str(";\n");
    }
    out.push_str("};\n");
}

/// The input and output structs of entry point `index` and the function
/// converting the WGSL result into the output struct.
#[cfg(test)]
fn entry_io_declarations(ctx: &Ctx<'_>, needs: &mut Needs, index: usize) -> String {
    let mut out = String::new();
    push_entry_io_declarations(ctx, needs, index, &mut out);
    out
}

/// [`entry_io_declarations`], appended to `out`; whether the entry point
/// has an input struct (`None` for a stage the target does not write).
fn push_entry_io_declarations(
    ctx: &Ctx<'_>,
    needs: &mut Needs,
    index: usize,
    out: &mut String,
) -> Option<bool> {
    let module = ctx.module;
    let ep = &module.entry_points[index];
    if !matches!(
        ep.stage,
        ShaderStage::Vertex | ShaderStage::Fragment | ShaderStage::Compute
    ) {
        needs.error(
            super::error_at(
                text!(
                    "the HLSL target writes vertex, fragment and compute entry points, not {:?}",
                    ep.stage
                ),
                entry_span(ctx, index),
                "this entry point",
            )
            .note("write this entry point with --target spirv"),
        );
        return None;
    }
    let (input, output, convert) = io_names(ctx, index);
    let inputs = input_members(ctx, needs, index);
    let outputs = ep
        .function
        .result
        .as_ref()
        .map(|_| output_members(ctx, needs, index));
    // Room for a line per member: a struct line, and for the outputs the
    // line that copies it.
    let lines = inputs.len() + 2 * outputs.as_ref().map_or(0, Vec::len);
    out.reserve(64 * (lines + 6));
    let has_input = !inputs.is_empty();
    if has_input {
        write_struct_text(out, input, &inputs);
        out.push('\n');
    }
    let (Some(result), Some(outputs)) = (&ep.function.result, outputs) else {
        return Some(has_input);
    };
    write_struct_text(out, output, outputs.iter().map(|(_, m)| m));
    out.push('\n');
    let ty = types::type_name(ctx, result.ty);
    output.push_to(out);
    out.push(' ');
    convert.push_to(out);
    super::push_parts(out, &["(", ty, " _s_r) {\n    "]);
    output.push_to(out);
    out.push_str(" _s_o;\n");
    for (part, m) in &outputs {
        out.push_str("    _s_o.");
        m.name.push_to(out);
        match part.member {
            Some(i) => {
                let member = ctx.name(NameKey::StructMember(result.ty, i));
                super::push_parts(out, &[" = _s_r.", member, ";\n"]);
            }
            None => out.push_str(" = _s_r;\n"),
        }
    }
    out.push_str("    return _s_o;\n}\n");
    Some(has_input)
}

/// The entry function's attributes and signature, without the body:
/// `[numthreads(8, 8, 1)]\nvoid main(_s_main_in _s_in)`.
#[cfg(test)]
pub fn entry_signature(ctx: &Ctx<'_>, needs: &mut Needs, index: usize) -> String {
    let mut out = String::new();
    push_entry_signature(ctx, needs, index, None, &mut out);
    out
}

/// [`entry_signature`], appended to `out`. `has_input`: whether the entry
/// point has an input struct, as [`push_entry_io_declarations`] found
/// (`None`: work it out here).
pub fn push_entry_signature(
    ctx: &Ctx<'_>,
    needs: &mut Needs,
    index: usize,
    has_input: Option<bool>,
    out: &mut String,
) {
    let Some(ep) = ctx.module.entry_points.get(index) else {
        return;
    };
    let (input, output, _) = io_names(ctx, index);
    if ctx.options.slang {
        let stage = match ep.stage {
            ShaderStage::Vertex => "vertex",
            ShaderStage::Fragment => "fragment",
            _ => "compute",
        };
        let _ = writeln!(out, "[shader(\"{stage}\")]");
    }
    match ep.stage {
        ShaderStage::Compute => {
            let [x, y, z] = ep.workgroup_size;
            out.push_str("[numthreads(");
            super::push_decimal(out, u64::from(x));
            out.push_str(", ");
            super::push_decimal(out, u64::from(y));
            out.push_str(", ");
            super::push_decimal(out, u64::from(z));
            out.push_str(")]\n");
        }
        ShaderStage::Fragment if ep.early_depth_test == Some(naga::EarlyDepthTest::Force) => {
            out.push_str("[earlydepthstencil]\n");
        }
        _ => {}
    }
    if ep.function.result.is_some() {
        output.push_to(out);
    } else {
        out.push_str("void");
    }
    super::push_parts(
        out,
        &[" ", ctx.name(NameKey::EntryPoint(index as u16)), "("],
    );
    let has_input = match has_input {
        Some(has) => has,
        None => !input_members(ctx, needs, index).is_empty(),
    };
    if has_input {
        input.push_to(out);
        out.push_str(" _s_in");
    }
    out.push(')');
}

/// Statements (indented one level, each ending in a newline) at the start
/// of the entry function: workgroup memory zeroed, then the WGSL arguments
/// declared from the input struct.
#[cfg(test)]
pub fn entry_prologue(ctx: &Ctx<'_>, needs: &mut Needs, index: usize) -> String {
    let mut out = String::new();
    push_entry_prologue(ctx, needs, index, &mut out);
    out
}

/// [`entry_prologue`], appended to `out`.
pub fn push_entry_prologue(ctx: &Ctx<'_>, needs: &mut Needs, index: usize, out: &mut String) {
    let module = ctx.module;
    let Some(ep) = module.entry_points.get(index) else {
        return;
    };
    let zeroed = zeroed_workgroup_variables(module, ctx.info, index);
    if !zeroed.is_empty() {
        out.push_str("    if (_s_in._s_local_invocation_index == 0u) {\n");
        for h in zeroed {
            let var = &module.global_variables[h];
            super::push_parts(
                out,
                &[
                    "        ",
                    ctx.name(NameKey::GlobalVariable(h)),
                    " = (",
                    types::type_name(ctx, var.ty),
                    ")0;\n",
                ],
            );
        }
        out.push_str("    }\n    GroupMemoryBarrierWithGroupSync();\n");
    }
    for (i, arg) in ep.function.arguments.iter().enumerate() {
        let ty = types::type_name(ctx, arg.ty);
        let name = ctx.name(NameKey::EntryPointArgument(index as u16, i as u32));
        if arg.binding.is_some() {
            // A bound argument is a single part.
            super::push_parts(out, &["    ", ty, " ", name, " = "]);
            for part in io_parts(module, arg.ty, arg.binding.as_ref()) {
                push_input_value(ctx, needs, index, &part, out);
            }
            out.push_str(";\n");
        } else {
            super::push_parts(out, &["    ", ty, " ", name, ";\n"]);
            for part in io_parts(module, arg.ty, arg.binding.as_ref()) {
                match part.member {
                    Some(m) => {
                        super::push_parts(
                            out,
                            &[
                                "    ",
                                name,
                                ".",
                                ctx.name(NameKey::StructMember(arg.ty, m)),
                                " = ",
                            ],
                        );
                        push_input_value(ctx, needs, index, &part, out);
                        out.push_str(";\n");
                    }
                    None => {
                        // Nothing written, but the diagnostics still count.
                        push_input_value(ctx, needs, index, &part, &mut String::new());
                    }
                }
            }
        }
    }
}

/// Append the value of input `part` of entry point `index`: the input
/// struct member it is read from, the expression standing for it, or a zero.
fn push_input_value(
    ctx: &Ctx<'_>,
    needs: &mut Needs,
    index: usize,
    part: &IoPart,
    out: &mut String,
) {
    match input_source(ctx, needs, index, part) {
        Some(Source::Member(m)) => {
            let fragment_position = ctx.module.entry_points[index].stage == ShaderStage::Fragment
                && matches!(part.binding, Binding::BuiltIn(BuiltIn::Position { .. }));
            if fragment_position {
                out.push_str("float4(_s_in.");
                m.name.push_to(out);
                out.push_str(".xyz, 1.0 / _s_in.");
                m.name.push_to(out);
                out.push_str(".w)");
            } else {
                out.push_str("_s_in.");
                m.name.push_to(out);
            }
        }
        Some(Source::Expression(e)) => out.push_str(&e),
        None => out.push_str(&types::zero_value(ctx, part.ty)),
    }
}

/// Statements (not indented, each ending in a newline; the last one a
/// `return`) that return `value` (the WGSL result, printed) from the entry
/// function.
#[cfg(test)]
pub fn entry_return(ctx: &Ctx<'_>, needs: &mut Needs, index: usize, value: Option<&str>) -> String {
    let mut out = String::new();
    push_entry_return(ctx, needs, index, value, &mut out);
    out
}

/// [`entry_return`], appended to `out`.
pub fn push_entry_return(
    ctx: &Ctx<'_>,
    needs: &mut Needs,
    index: usize,
    value: Option<&str>,
    out: &mut String,
) {
    let _ = needs;
    let Some(ep) = ctx.module.entry_points.get(index) else {
        out.push_str("return;\n");
        return;
    };
    if ep.function.result.is_none() {
        out.push_str("return;\n");
        return;
    }
    let (_, output, convert) = io_names(ctx, index);
    match value {
        Some(v) => {
            out.push_str("return ");
            convert.push_to(out);
            super::push_parts(out, &["(", v, ");\n"]);
        }
        None => {
            out.push_str("return (");
            output.push_to(out);
            out.push_str(")0;\n");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::back::hlsl::RegisterMode;
    use std::path::PathBuf;

    /// Run `f` on a context for `source` (no buffer plan: the buffers part
    /// is not needed by what these tests print).
    fn with_ctx<R>(source: &str, options: HlslOptions, f: impl FnOnce(&Ctx<'_>) -> R) -> R {
        let crate::Analysis {
            parsed,
            info,
            contract,
            ..
        } = crate::analyze(source).expect("valid WGSL");
        let names = module_names(&parsed.module);
        let ctx = Ctx {
            parsed: &parsed,
            module: &parsed.module,
            info: &info,
            contract: &contract,
            options: &options,
            names,
            plan: super::super::buffers::Plan::default(),
            type_names: Default::default(),
        };
        f(&ctx)
    }

    fn global(ctx: &Ctx<'_>, name: &str) -> GlobalHandle {
        ctx.module
            .global_variables
            .iter()
            .find(|(_, v)| v.name.as_deref() == Some(name))
            .map(|(h, _)| h)
            .expect("global")
    }

    /// The DXC wrapper, or `None` (with a message) when it is not installed.
    fn dxc_path() -> Option<PathBuf> {
        let path =
            PathBuf::from(std::env::var("HOME").ok()?).join(".cache/stride-tools/dxc/stride-dxc");
        if path.exists() {
            Some(path)
        } else {
            eprintln!(
                "skipping the DXC check: {} is missing (scripts/install-oracles.sh)",
                path.display()
            );
            None
        }
    }

    /// Compile `text` with DXC for `profile`/`entry` (default HLSL version
    /// and HLSL 2021); panics with DXC's output on failure.
    fn compile(dxc: &PathBuf, text: &str, tag: &str, profile: &str, entry: &str) {
        let file =
            std::env::temp_dir().join(text!("stride-hlsl-decl-{}-{tag}.hlsl", std::process::id()));
        std::fs::write(&file, text).expect("writes the temporary file");
        for version in [None, Some("2021")] {
            let mut cmd = std::process::Command::new(dxc);
            cmd.args(["-T", profile, "-E", entry]);
            if let Some(v) = version {
                cmd.args(["-HV", v]);
            }
            let out = cmd.arg(&file).output().expect("runs DXC");
            assert!(
                out.status.success(),
                "DXC ({profile}, -HV {version:?}) rejects:\n{text}\n{}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
        }
        if std::env::var_os("STRIDE_KEEP_HLSL").is_none() {
            let _ = std::fs::remove_file(&file);
        }
    }

    /// An entry function assembled from our signature, prologue and return
    /// around a hand-written body.
    fn entry_function(ctx: &Ctx<'_>, needs: &mut Needs, index: usize, body: &str) -> String {
        let mut out = entry_signature(ctx, needs, index);
        out.push_str(" {\n");
        out.push_str(&entry_prologue(ctx, needs, index));
        out.push_str(body);
        let value = ctx.module.entry_points[index]
            .function
            .result
            .as_ref()
            .map(|_| "_s_value");
        for line in entry_return(ctx, needs, index, value).lines() {
            let _ = writeln!(out, "    {line}");
        }
        out.push_str("}\n");
        out
    }

    #[test]
    fn names_avoid_keywords_intrinsics_and_the_prefix() {
        let source = "
            struct SamplerState { line: f32, float4: f32, color: f32 }
            var<private> cbuffer: f32;
            var<private> mul: f32;
            var<private> Technique: f32;
            var<private> _s_x: f32;
            fn lerp(a: f32) -> f32 { return a; }
            @compute @workgroup_size(1) fn row_major() {
                var p: SamplerState;
                p.line = lerp(cbuffer + mul + Technique + _s_x);
            }";
        with_ctx(source, HlslOptions::default(), |ctx| {
            let mut all: Vec<&str> = ctx.names.values().map(String::as_str).collect();
            all.sort_unstable();
            for n in &all {
                assert!(!keywords::RESERVED.contains(n), "{n} is reserved: {all:?}");
                assert!(
                    !keywords::RESERVED_CASE_INSENSITIVE.contains(n),
                    "{n} is reserved: {all:?}"
                );
                assert!(!n.starts_with("_s_"), "{n} uses the prefix");
            }
            for g in ["cbuffer", "mul", "Technique", "_s_x"] {
                let name = ctx.name(NameKey::GlobalVariable(global(ctx, g)));
                assert_ne!(name, g);
                assert!(!keywords::BUILTINS.contains(name));
            }
            let (f, _) = ctx.module.functions.iter().next().expect("a function");
            assert_ne!(ctx.name(NameKey::Function(f)), "lerp");
            assert_ne!(ctx.name(NameKey::EntryPoint(0)), "row_major");
            let (s, _) = ctx
                .module
                .types
                .iter()
                .find(|(_, t)| t.name.as_deref() == Some("SamplerState"))
                .expect("struct");
            assert_ne!(ctx.name(NameKey::Type(s)), "SamplerState");
            assert_ne!(ctx.name(NameKey::StructMember(s, 0)), "line");
            assert_ne!(ctx.name(NameKey::StructMember(s, 1)), "float4");
            // Member names only avoid keywords: `color` stays.
            assert_eq!(ctx.name(NameKey::StructMember(s, 2)), "color");
        });
    }

    const RESOURCES: &str = "
        enable wgpu_binding_array;
        @group(1) @binding(4) var<storage, read_write> rw: array<u32>;
        @group(0) @binding(3) var<uniform> u0: vec4<f32>;
        @group(0) @binding(0) var t0: texture_2d<f32>;
        @group(0) @binding(1) var s0: sampler;
        @group(1) @binding(0) var<storage, read> ro: array<u32>;
        @group(1) @binding(5) var arr: binding_array<texture_2d<f32>, 4>;
        @group(1) @binding(1) var t1: texture_depth_2d;
        @group(1) @binding(8) var st: texture_storage_2d<rgba8unorm, write>;
        @group(1) @binding(9) var sr: texture_storage_2d<r32float, read>;
        @group(0) @binding(2) var sc: sampler_comparison;
        @group(3) @binding(0) var samplers: binding_array<sampler, 3>;
        @group(3) @binding(1) var t3: texture_2d_array<u32>;
        var<immediate> pc: vec4<f32>;
        @compute @workgroup_size(1) fn main(@builtin(num_workgroups) n: vec3<u32>) {
            rw[0] = ro[0] + u32(u0.x + pc.x) + n.x;
        }";

    fn register_table(mode: RegisterMode) -> Vec<(String, &'static str, String)> {
        let options = HlslOptions {
            registers: mode,
            ..Default::default()
        };
        with_ctx(RESOURCES, options, |ctx| {
            let order = declaration_order(ctx.module);
            let r = crate::bind::d3d::assign(ctx.module, &order, ctx.options.registers)
                .expect("allocates");
            r.list
                .iter()
                .map(|r| {
                    assert!(r.count >= 1);
                    (r.global.clone(), r.kind, register_text(r))
                })
                .collect()
        })
    }

    #[test]
    fn wgsl_registers_follow_group_and_binding() {
        let table = register_table(RegisterMode::Wgsl);
        let expected = [
            ("rw", "rw-byte-address-buffer", "u4, space1"),
            ("u0", "cbuffer", "b3, space0"),
            ("t0", "texture", "t0, space0"),
            ("s0", "sampler", "s1, space0"),
            ("ro", "byte-address-buffer", "t0, space1"),
            ("arr", "texture", "t5, space1"),
            ("t1", "texture", "t1, space1"),
            ("st", "rw-texture", "u8, space1"),
            ("sr", "texture", "t9, space1"),
            ("sc", "comparison-sampler", "s2, space0"),
            ("samplers", "sampler", "s0, space3"),
            ("t3", "texture", "t1, space3"),
            // stride's own space: after the highest group.
            ("pc", "cbuffer", "b0, space4"),
            (NUM_WORKGROUPS, "cbuffer", "b1, space4"),
        ];
        let expected: Vec<(String, &str, String)> = expected
            .iter()
            .map(|&(g, k, r)| (g.to_string(), k, r.to_string()))
            .collect();
        assert_eq!(table, expected);
    }

    #[test]
    fn compact_registers_take_the_first_free_range_per_space_and_class() {
        // spec/001: per space and resource class, parameters in declaration
        // order take the first free contiguous range; an array of N opaque
        // resources takes N registers; texture and sampler registers are
        // separate ranges.
        let table = register_table(RegisterMode::Compact);
        let expected = [
            ("rw", "rw-byte-address-buffer", "u0, space1"),
            ("u0", "cbuffer", "b0, space0"),
            ("t0", "texture", "t0, space0"),
            ("s0", "sampler", "s0, space0"),
            ("ro", "byte-address-buffer", "t0, space1"),
            ("arr", "texture", "t1, space1"),
            // After the four registers of `arr`.
            ("t1", "texture", "t5, space1"),
            ("st", "rw-texture", "u1, space1"),
            ("sr", "texture", "t6, space1"),
            ("sc", "comparison-sampler", "s1, space0"),
            ("samplers", "sampler", "s0, space3"),
            ("t3", "texture", "t0, space3"),
            ("pc", "cbuffer", "b0, space4"),
            (NUM_WORKGROUPS, "cbuffer", "b1, space4"),
        ];
        let expected: Vec<(String, &str, String)> = expected
            .iter()
            .map(|&(g, k, r)| (g.to_string(), k, r.to_string()))
            .collect();
        assert_eq!(table, expected);
        // Ranges never overlap within a space and class.
        let options = HlslOptions {
            registers: RegisterMode::Compact,
            ..Default::default()
        };
        with_ctx(RESOURCES, options, |ctx| {
            let order = declaration_order(ctx.module);
            let r = crate::bind::d3d::assign(ctx.module, &order, ctx.options.registers)
                .expect("allocates");
            for (i, a) in r.list.iter().enumerate() {
                for b in &r.list[i + 1..] {
                    if a.space == b.space && a.class == b.class {
                        assert!(
                            a.register + a.count <= b.register
                                || b.register + b.count <= a.register,
                            "{a:?} overlaps {b:?}"
                        );
                    }
                }
            }
        });
    }

    #[test]
    fn runtime_sized_binding_arrays_are_errors() {
        let source = "
            enable wgpu_binding_array;
            @group(0) @binding(0) var ts: binding_array<texture_2d<f32>>;
            @fragment fn main() -> @location(0) vec4<f32> {
                return textureLoad(ts[0], vec2<i32>(0), 0);
            }";
        with_ctx(source, HlslOptions::default(), |ctx| {
            let order = declaration_order(ctx.module);
            let e = crate::bind::d3d::assign(ctx.module, &order, ctx.options.registers)
                .expect_err("runtime-sized");
            assert!(e.0[0].message.contains("runtime-sized binding array"));
            assert!(e.0[0].primary_span().is_some());
        });
    }

    #[test]
    fn overlapping_register_ranges_of_one_entry_point_are_errors() {
        let source = "
            enable wgpu_binding_array;
            @group(0) @binding(0) var ts: binding_array<texture_2d<f32>, 4>;
            @group(0) @binding(2) var t2: texture_2d<f32>;
            @group(0) @binding(5) var a: texture_2d<f32>;
            @group(0) @binding(5) var b: texture_2d<f32>;
            @fragment fn main() -> @location(0) vec4<f32> {
                return textureLoad(ts[1], vec2<i32>(0), 0) + textureLoad(t2, vec2<i32>(0), 0);
            }
            @fragment fn fa() -> @location(0) vec4<f32> { return textureLoad(a, vec2<i32>(0), 0); }
            @fragment fn fb() -> @location(0) vec4<f32> { return textureLoad(b, vec2<i32>(0), 0); }";
        with_ctx(source, HlslOptions::default(), |ctx| {
            let order = declaration_order(ctx.module);
            let e = crate::bind::d3d::assign(ctx.module, &order, ctx.options.registers)
                .expect_err("t0..t3 and t2");
            // Only the binding array's overlap: `a` and `b` share t5 but no
            // entry point uses both.
            assert_eq!(e.0.len(), 1, "{:?}", e.0);
            assert!(
                e.0[0]
                    .message
                    .contains("`ts` (t0..t3) and `t2` (t2) overlap"),
                "{}",
                e.0[0].message
            );
            assert_eq!(e.0[0].labels.len(), 2);
        });
        let compact = HlslOptions {
            registers: RegisterMode::Compact,
            ..HlslOptions::default()
        };
        with_ctx(source, compact, |ctx| {
            let order = declaration_order(ctx.module);
            let r = crate::bind::d3d::assign(ctx.module, &order, ctx.options.registers)
                .expect("compact ranges");
            let regs: Vec<(u32, u32)> = r.list.iter().map(|r| (r.register, r.count)).collect();
            assert_eq!(regs, vec![(0, 4), (4, 1), (5, 1), (6, 1)]);
        });
    }

    #[test]
    fn module_level_errors() {
        let source = "
            override gain: f32;
            @compute @workgroup_size(1) fn main() { _ = gain; }";
        let crate::Analysis {
            parsed,
            info,
            contract,
            ..
        } = crate::analyze(source).expect("valid");
        let e = write_module(&parsed, &info, &contract, &HlslOptions::default())
            .expect_err("no value for the override");
        assert!(e.0[0].message.contains("no default value"), "{:?}", e.0[0]);
        let options = HlslOptions {
            entry_point: Some("other".to_string()),
            ..Default::default()
        };
        let e = write_module(&parsed, &info, &contract, &options).expect_err("unknown entry point");
        assert!(e.0[0].message.contains("no entry point named `other`"));
        assert!(e.0[0].notes.iter().any(|n| n.contains("`main`")));
        let options = HlslOptions {
            overrides: vec![("nope".to_string(), 1.0)],
            ..Default::default()
        };
        let e = write_module(&parsed, &info, &contract, &options).expect_err("unknown override");
        assert!(e.0[0].message.contains("no override named `nope`"));

        // No entry point: a library with every function.
        let crate::Analysis {
            parsed,
            info,
            contract,
            ..
        } = crate::analyze("fn f() {}").expect("valid");
        let lib =
            write_module(&parsed, &info, &contract, &HlslOptions::default()).expect("library");
        assert!(lib.entry_points.is_empty());
        assert!(lib.text.contains("void f()"), "{}", lib.text);
    }

    #[test]
    fn shader_model_type_checks() {
        let f16 = "enable f16;
            var<private> h: vec2<f16>;
            @compute @workgroup_size(1) fn main() { h = vec2<f16>(1.0h); }";
        let crate::Analysis {
            parsed,
            info,
            contract,
            ..
        } = crate::analyze(f16).expect("valid");
        let e = write_module(&parsed, &info, &contract, &HlslOptions::default())
            .expect_err("f16 at 6.0");
        assert!(e.0[0].message.contains("`f16`"), "{:?}", e.0[0]);
        assert!(e.0[0]
            .notes
            .iter()
            .any(|n| n.contains("--shader-model 6_2")));
        assert!(e.0[0].primary_span().is_some());
        assert!(shader_model_type_errors(&parsed.module, ShaderModel::Sm6_2).is_empty());

        let module = naga::front::wgsl::parse_str(
            "var<private> a: u64; var<private> b: f64;
             @compute @workgroup_size(1) fn main() { a = 1lu; b = 1.0lf; }",
        )
        .expect("parses");
        let e = shader_model_type_errors(&module, ShaderModel::Sm5_1);
        assert_eq!(e.len(), 1, "{e:?}");
        assert!(e[0].message.contains("`u64`"));
        assert!(shader_model_type_errors(&module, ShaderModel::Sm6_0).is_empty());
    }

    const STAGES: &str = "
        struct VOut {
            @builtin(position) @invariant pos: vec4<f32>,
            @location(1) @interpolate(flat) id: u32,
            @location(0) uv: vec2<f32>,
            @location(2) @interpolate(linear, centroid) w: f32,
        }
        struct FIn {
            @location(0) uv: vec2<f32>,
            @builtin(position) pos: vec4<f32>,
            @location(1) @interpolate(flat) id: u32,
            @builtin(front_facing) ff: bool,
        }
        struct FOut {
            @location(0) color: vec4<f32>,
            @builtin(frag_depth) depth: f32,
            @builtin(sample_mask) mask: u32,
        }
        @vertex fn vs(@builtin(vertex_index) vi: u32, @location(0) p: vec3<f32>,
                      @builtin(instance_index) ii: u32) -> VOut {
            return VOut(vec4<f32>(p, f32(vi + ii)), vi, p.xy, 1.0);
        }
        @fragment fn fs(in: FIn, @location(2) @interpolate(linear, centroid) w: f32,
                        @builtin(sample_index) si: u32) -> FOut {
            return FOut(vec4<f32>(in.uv, w, in.pos.w), in.pos.z, u32(in.ff) + in.id + si);
        }";

    #[test]
    fn vertex_and_fragment_io_structs_link_and_compile() {
        with_ctx(STAGES, HlslOptions::default(), |ctx| {
            let mut needs = Needs::default();
            let vs_io = entry_io_declarations(ctx, &mut needs, 0);
            let fs_io = entry_io_declarations(ctx, &mut needs, 1);
            assert!(needs.errors.is_empty(), "{:?}", needs.errors);
            // Varyings: same lines, same order, in both stages.
            let varyings = |io: &str, marker: &str| -> Vec<String> {
                let start = io.find(marker).expect("struct");
                io[start..]
                    .lines()
                    .skip(1)
                    .take_while(|l| !l.starts_with('}'))
                    .filter(|l| l.contains(": LOC"))
                    .map(str::to_string)
                    .collect()
            };
            let out = varyings(&vs_io, "struct _s_out_vs");
            let input = varyings(&fs_io, "struct _s_in_fs");
            assert_eq!(out, input);
            assert_eq!(
                out,
                [
                    "    float2 _s_loc0 : LOC0;",
                    "    nointerpolation uint _s_loc1 : LOC1;",
                    "    noperspective centroid float _s_loc2 : LOC2;",
                ]
            );
            assert!(vs_io.contains("precise float4 _s_position : SV_Position;"));
            assert!(vs_io.contains("uint _s_vertex_index : SV_VertexID;"));
            assert!(vs_io.contains("float3 _s_loc0 : LOC0;"));
            assert!(fs_io.contains("bool _s_front_facing : SV_IsFrontFace;"));
            assert!(fs_io.contains("uint _s_sample_index : SV_SampleIndex;"));
            assert!(fs_io.contains("float4 _s_target0 : SV_Target0;"));
            assert!(fs_io.contains("float _s_frag_depth : SV_Depth;"));
            assert!(fs_io.contains("uint _s_sample_mask : SV_Coverage;"));

            let vs_sig = entry_signature(ctx, &mut needs, 0);
            assert_eq!(vs_sig, "_s_out_vs vs(_s_in_vs _s_in)");
            let prologue = entry_prologue(ctx, &mut needs, 1);
            assert!(
                prologue.contains("float4(_s_in._s_position.xyz, 1.0 / _s_in._s_position.w)"),
                "{prologue}"
            );
            assert_eq!(
                entry_return(ctx, &mut needs, 0, Some("x")),
                "return _s_output_vs(x);\n"
            );

            let arg = |e: usize, i: u32| ctx.name(NameKey::EntryPointArgument(e as u16, i));
            let member = |ty: &str, i: u32| {
                let (h, _) = ctx
                    .module
                    .types
                    .iter()
                    .find(|(_, t)| t.name.as_deref() == Some(ty))
                    .expect("struct");
                ctx.name(NameKey::StructMember(h, i)).to_string()
            };
            let vs_body = text!(
                "    VOut _s_value = (VOut)0;\n    _s_value.{} = float4({}, float({} + {}));\n    _s_value.{} = {};\n",
                member("VOut", 0),
                arg(0, 1),
                arg(0, 0),
                arg(0, 2),
                member("VOut", 1),
                arg(0, 0),
            );
            let fs_body = text!(
                "    FOut _s_value = (FOut)0;\n    _s_value.{} = float4({in}.{uv}, {w}, {in}.{pos}.w);\n    _s_value.{} = {in}.{pos}.z;\n    _s_value.{} = uint({in}.{ff}) + {in}.{id} + {si};\n",
                member("FOut", 0),
                member("FOut", 1),
                member("FOut", 2),
                in = arg(1, 0),
                uv = member("FIn", 0),
                pos = member("FIn", 1),
                id = member("FIn", 2),
                ff = member("FIn", 3),
                w = arg(1, 1),
                si = arg(1, 2),
            );
            let mut text = String::from("#pragma pack_matrix(row_major)\n\n");
            text.push_str(&types::struct_declarations(ctx));
            text.push_str(&vs_io);
            text.push_str(&entry_function(ctx, &mut needs, 0, &vs_body));
            text.push_str(&fs_io);
            text.push_str(&entry_function(ctx, &mut needs, 1, &fs_body));
            assert!(needs.errors.is_empty(), "{:?}", needs.errors);
            if let Some(dxc) = dxc_path() {
                compile(&dxc, &text, "vs", "vs_6_0", "vs");
                compile(&dxc, &text, "fs", "ps_6_0", "fs");
            }
        });
    }

    #[test]
    fn compute_entry_zeroes_workgroup_memory_and_compiles() {
        let source = "
            enable wgpu_binding_array;
            struct Cell { a: atomic<u32>, v: array<f32, 4> }
            var<workgroup> cells: array<Cell, 8>;
            var<workgroup> total: f32;
            var<workgroup> unused: f32;
            @group(0) @binding(0) var tex: binding_array<texture_2d<f32>, 2>;
            @group(0) @binding(1) var smp: sampler;
            @group(1) @binding(0) var img: texture_storage_2d<rgba8unorm, write>;
            @compute @workgroup_size(8, 2, 1)
            fn main(@builtin(local_invocation_id) lid: vec3<u32>,
                    @builtin(num_workgroups) groups: vec3<u32>) {
                atomicAdd(&cells[lid.x].a, groups.x);
                total = textureSampleLevel(tex[1], smp, vec2<f32>(0.5), 0.0).x;
                textureStore(img, vec2<i32>(lid.xy), vec4<f32>(total));
            }
            @compute @workgroup_size(1) fn other() { unused = 1.0; }";
        with_ctx(source, HlslOptions::default(), |ctx| {
            let mut needs = Needs::default();
            let order = declaration_order(ctx.module);
            let registers = crate::bind::d3d::assign(ctx.module, &order, ctx.options.registers)
                .expect("allocates");
            let resources = resource_declarations(ctx, &mut needs, &registers, &order, &[0]);
            assert!(
                resources.contains("Texture2D<float4> tex[2] : register(t0, space0);"),
                "{resources}"
            );
            assert!(resources.contains("SamplerState smp : register(s1, space0);"));
            assert!(resources.contains("cbuffer _s_num_workgroups_cb : register(b0, space2)"));
            let globals = global_declarations(ctx, &mut needs, &order, &[0]);
            assert!(
                globals.contains("groupshared _s_array8_Cell cells;"),
                "{globals}"
            );
            assert!(!globals.contains("unused"));
            let io = entry_io_declarations(ctx, &mut needs, 0);
            assert!(
                io.contains("uint _s_local_invocation_index : SV_GroupIndex;"),
                "{io}"
            );
            let prologue = entry_prologue(ctx, &mut needs, 0);
            assert!(prologue.contains("if (_s_in._s_local_invocation_index == 0u) {"));
            assert!(
                prologue.contains("cells = (_s_array8_Cell)0;"),
                "{prologue}"
            );
            assert!(!prologue.contains("unused"));
            assert!(prologue.contains("GroupMemoryBarrierWithGroupSync();"));
            assert!(prologue.contains(&text!(
                "uint3 {} = _s_num_workgroups;",
                ctx.name(NameKey::EntryPointArgument(0, 1))
            )));
            assert!(entry_signature(ctx, &mut needs, 0).starts_with("[numthreads(8, 2, 1)]\n"));
            let g = |n: &str| {
                ctx.name(NameKey::GlobalVariable(global(ctx, n)))
                    .to_string()
            };
            let lid = ctx.name(NameKey::EntryPointArgument(0, 0));
            let body = text!(
                "    uint _s_old;\n    InterlockedAdd({cells}[{lid}.x].a, {groups}.x, _s_old);\n    {total} = {tex}[1].SampleLevel({smp}, float2(0.5, 0.5), 0.0).x;\n    {img}[int2({lid}.xy)] = float4({total}, {total}, {total}, {total});\n",
                cells = g("cells"),
                total = g("total"),
                tex = g("tex"),
                smp = g("smp"),
                img = g("img"),
                groups = ctx.name(NameKey::EntryPointArgument(0, 1)),
            );
            let mut text = String::from("#pragma pack_matrix(row_major)\n\n");
            text.push_str(&types::struct_declarations(ctx));
            text.push_str(&resources);
            text.push_str(&globals);
            text.push_str(&io);
            text.push_str(&entry_function(ctx, &mut needs, 0, &body));
            assert!(needs.errors.is_empty(), "{:?}", needs.errors);
            if let Some(dxc) = dxc_path() {
                compile(&dxc, &text, "cs", "cs_6_0", "main");
            }
        });
    }

    #[test]
    fn unsupported_builtins_are_errors() {
        let source = "
            @vertex fn main(@builtin(vertex_index) v: u32) -> @builtin(position) vec4<f32> {
                return vec4<f32>(f32(v));
            }
            @fragment fn fs(@builtin(subgroup_size) s: u32) -> @location(0) vec4<f32> {
                return vec4<f32>(f32(s));
            }";
        let options = HlslOptions {
            shader_model: ShaderModel::Sm5_1,
            ..Default::default()
        };
        with_ctx(source, options, |ctx| {
            let mut needs = Needs::default();
            let _ = entry_io_declarations(ctx, &mut needs, 0);
            assert!(needs.errors.is_empty());
            let _ = entry_prologue(ctx, &mut needs, 1);
            assert_eq!(needs.errors.len(), 1);
            assert!(needs.errors[0].message.contains("subgroup_size"));
            assert!(needs.errors[0].notes.iter().any(|n| n.contains("6_0")));
            // Void result and no input: a bare signature.
            let w = builtin_warnings(ctx, &[0, 1]);
            assert_eq!(w.len(), 1);
            assert!(w[0].message.contains("SV_VertexID"));
        });
    }

    #[test]
    fn fragment_attributes_and_dual_source_targets() {
        let source = "
            enable dual_source_blending;
            struct Out {
                @location(0) @blend_src(0) a: vec4<f32>,
                @location(0) @blend_src(1) b: vec4<f32>,
            }
            @fragment @early_depth_test(force) fn main() -> Out {
                return Out(vec4<f32>(1.0), vec4<f32>(0.5));
            }
            @fragment @early_depth_test(greater_equal)
            fn depth() -> @builtin(frag_depth) f32 { return 1.0; }";
        with_ctx(source, HlslOptions::default(), |ctx| {
            let mut needs = Needs::default();
            assert_eq!(
                entry_signature(ctx, &mut needs, 0),
                "[earlydepthstencil]\n_s_out_main main()"
            );
            let io = entry_io_declarations(ctx, &mut needs, 0);
            assert!(io.contains("float4 _s_target0 : SV_Target0;"), "{io}");
            assert!(io.contains("float4 _s_target1 : SV_Target1;"), "{io}");
            let io = entry_io_declarations(ctx, &mut needs, 1);
            assert!(
                io.contains("float _s_frag_depth : SV_DepthGreaterEqual;"),
                "{io}"
            );
            assert!(needs.errors.is_empty(), "{:?}", needs.errors);
        });
    }
}
