//! Registers and module-scope declarations: the register text, Slang's
//! Vulkan bindings, the resources the written entry points use, and the
//! private and workgroup globals.

use super::{used_by, GlobalHandle, NUM_WORKGROUPS};
use crate::back::common::{binding_array_suffix, element_inner};
use crate::back::hlsl;
use crate::back::hlsl::types;
use crate::back::hlsl::{Ctx, Needs};
use crate::bind::d3d::{reads_num_workgroups, Register, Registers, VkBinding};
use naga::proc::NameKey;
use naga::{AddressSpace, TypeInner};

/// Append the text inside `register(...)` of `r`: `t0, space1`.
pub(super) fn push_register(out: &mut String, r: &Register) {
    out.push(r.class);
    hlsl::push_decimal(out, u64::from(r.register));
    out.push_str(", space");
    hlsl::push_decimal(out, u64::from(r.space));
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
            hlsl::push_decimal(out, u64::from(binding));
            out.push_str(", ");
            hlsl::push_decimal(out, u64::from(set));
            out.push_str(")]]\n");
        }
    }
}

/// The resources the written entry points use, with their registers:
/// buffers through the buffer plan, textures and samplers here, and the
/// workgroup-count cbuffer; appended to `resources`.
pub(super) fn push_resource_declarations(
    ctx: &Ctx<'_>,
    registers: &Registers,
    order: &[GlobalHandle],
    selected: &[usize],
    resources: &mut String,
) {
    let module = ctx.module;
    for &h in order {
        if !used_by(ctx.info, selected, h) {
            continue;
        }
        let var = &module.global_variables[h];
        let Some(reg) = registers.global(h) else {
            continue;
        };
        if crate::back::text::is_buffer_space(var.space) {
            push_vk_binding(resources, ctx, reg);
            ctx.plan
                .write_buffer_declaration(resources, h, |out| push_register(out, reg));
            if !resources.ends_with('\n') {
                resources.push('\n');
            }
            continue;
        }
        let (suffix, _) = binding_array_suffix(module, var.ty);
        let ty = match *element_inner(module, var.ty) {
            ref image @ TypeInner::Image { .. } => types::inner_name(ctx, image),
            TypeInner::Sampler { comparison } => types::sampler_type(comparison).into(),
            _ => continue,
        };
        push_vk_binding(resources, ctx, reg);
        hlsl::push_parts(
            resources,
            &[
                &ty,
                " ",
                ctx.name(NameKey::GlobalVariable(h)),
                &suffix,
                " : register(",
            ],
        );
        push_register(resources, reg);
        resources.push_str(");\n");
    }
    if let Some(reg) = registers.num_workgroups() {
        if selected
            .iter()
            .any(|&i| reads_num_workgroups(module, &module.entry_points[i]))
        {
            push_vk_binding(resources, ctx, reg);
            hlsl::push_parts(resources, &["cbuffer ", NUM_WORKGROUPS, "_cb : register("]);
            push_register(resources, reg);
            hlsl::push_parts(resources, &[") {\n    uint3 ", NUM_WORKGROUPS, ";\n};\n"]);
        }
    }
}

/// Private (`static`) and workgroup (`groupshared`) globals the written
/// entry points use, appended to `globals`.
pub(super) fn push_global_declarations(
    ctx: &Ctx<'_>,
    needs: &mut Needs,
    order: &[GlobalHandle],
    selected: &[usize],
    globals: &mut String,
) {
    for &h in order {
        let var = &ctx.module.global_variables[h];
        let space = matches!(var.space, AddressSpace::Private | AddressSpace::WorkGroup);
        if !space || !used_by(ctx.info, selected, h) {
            continue;
        }
        let ty = types::type_name(ctx, var.ty);
        let name = ctx.name(NameKey::GlobalVariable(h));
        if var.space == AddressSpace::WorkGroup {
            hlsl::push_parts(globals, &["groupshared ", ty, " ", name, ";\n"]);
            continue;
        }
        let init = match var.init {
            Some(init) => hlsl::func::const_expression(ctx, needs, init),
            None => types::zero_value(ctx, var.ty),
        };
        hlsl::push_parts(globals, &["static ", ty, " ", name, " = ", &init, ";\n"]);
    }
}
