//! Declarations at module scope: constants, overrides (specialization
//! constants), and the texture, sampler and image resources with their
//! printed bindings.

use super::names::combined_sampler_name;
use super::GlobalHandle;
use crate::back::common::{binding_array_suffix, element_inner, is_abstract, push_parts};
use crate::back::glsl;
use crate::back::glsl::{types, Ctx, Needs};
use crate::bind::gl::{Pair, Slot};
use naga::proc::NameKey;
use naga::FastIndexSet;
use naga::{ImageClass, TypeInner};
use std::fmt::Write as _;

/// `const T name = value;` for every constant of the module.
pub(super) fn constants(ctx: &Ctx<'_>, needs: &mut Needs, out: &mut String) {
    for (h, c) in ctx.module.constants.iter() {
        if is_abstract(ctx.module, c.ty) {
            continue;
        }
        let ty = types::type_name(ctx, needs, c.ty);
        let value = glsl::func::const_expression(ctx, needs, c.init);
        let name = ctx.name(NameKey::Constant(h));
        push_parts(out, &["const ", ty, " ", name, " = ", &value, ";\n"]);
    }
}

/// Specialization constants (Vulkan, overrides not baked).
pub(super) fn overrides(ctx: &Ctx<'_>, needs: &mut Needs, out: &mut String) {
    let module = ctx.module;
    let used: FastIndexSet<u16> = module.overrides.iter().filter_map(|(_, o)| o.id).collect();
    let mut next = 0u16;
    for (h, o) in module.overrides.iter() {
        let id = match o.id {
            Some(id) => id,
            None => {
                while used.contains(&next) {
                    next = next.saturating_add(1);
                }
                let id = next;
                next = next.saturating_add(1);
                id
            }
        };
        let ty = types::type_name(ctx, needs, o.ty);
        let name = ctx.name(NameKey::Override(h));
        let _ = write!(out, "layout(constant_id = {id}) const {ty} {name} = ");
        match o.init.map(|i| &module.global_expressions[i]) {
            Some(naga::Expression::Literal(lit)) => push_literal(out, needs, lit),
            _ => types::zero_value_into(ctx, needs, o.ty, out),
        }
        out.push_str(";\n");
    }
}

/// A literal as GLSL, appended to `out`.
pub(super) fn push_literal(out: &mut String, needs: &mut Needs, lit: &naga::Literal) {
    use naga::Literal as L;
    // Rust's `Debug` of a float always has a `.` or an exponent (`1.0`,
    // `1e20`), which GLSL reads as a float; naga's literals are finite.
    let _ = match *lit {
        L::F64(v) => write!(out, "{v:?}lf"),
        L::F32(v) => write!(out, "{:?}", f64::from(v)),
        L::F16(v) => {
            needs.extension(types::F16_EXTENSION);
            write!(out, "{:?}hf", f64::from(f32::from(v)))
        }
        L::U32(v) => write!(out, "{v}u"),
        L::I32(v) => write!(out, "{v}"),
        L::U64(v) => {
            needs.extension(types::INT64_EXTENSION);
            write!(out, "{v}ul")
        }
        L::I64(v) => {
            needs.extension(types::INT64_EXTENSION);
            write!(out, "{v}l")
        }
        L::U16(v) => write!(out, "uint16_t({v}u)"),
        L::I16(v) => write!(out, "int16_t({v})"),
        L::Bool(v) => write!(out, "{v}"),
        L::AbstractInt(v) => write!(out, "{v}"),
        L::AbstractFloat(v) => write!(out, "{v:?}"),
    };
}

/// Append `set = S, binding = B` (or `binding = B`) for `slot`.
pub(super) fn push_slot_layout(out: &mut String, slot: Option<Slot>) {
    if let Some(Slot { set: Some(set), .. }) = slot {
        out.push_str("set = ");
        glsl::push_decimal(out, u64::from(set));
        out.push_str(", ");
    }
    out.push_str("binding = ");
    glsl::push_decimal(out, u64::from(slot.map_or(0, |s| s.binding)));
}

/// OpenGL: a combined sampler's declaration, appended to `out`.
pub(super) fn combined_declaration(
    ctx: &Ctx<'_>,
    needs: &mut Needs,
    (image, sampler): Pair,
    unit: u32,
    out: &mut String,
) {
    let module = ctx.module;
    let var = &module.global_variables[image];
    let (suffix, _) = binding_array_suffix(module, var.ty);
    let comparison = sampler.is_some_and(|s| {
        matches!(
            element_inner(module, module.global_variables[s].ty),
            TypeInner::Sampler { comparison: true }
        )
    });
    let ty = match *element_inner(module, var.ty) {
        TypeInner::Image {
            dim,
            arrayed,
            class,
        } => {
            let multi = matches!(
                class,
                ImageClass::Sampled { multi: true, .. } | ImageClass::Depth { multi: true }
            );
            let dim = types::declared_dim(ctx.dialect(), dim);
            types::image_extension(needs, ctx.dialect(), dim, arrayed, multi);
            types::sampler_type(dim, arrayed, class, comparison)
        }
        _ => "sampler2D".to_string(),
    };
    let name = combined_sampler_name(ctx, image, sampler);
    let precision = if ctx.dialect().is_es() { "highp " } else { "" };
    let _ = writeln!(
        out,
        "layout(binding = {unit}) uniform {precision}{ty} {name}{suffix};"
    );
}

/// A storage texture (`layout(..., rgba8) uniform readonly image2D
/// name;`) or, in Vulkan, a separate texture or sampler, appended to `out`.
pub(super) fn handle_declaration(
    ctx: &Ctx<'_>,
    needs: &mut Needs,
    h: GlobalHandle,
    slot: Option<Slot>,
    out: &mut String,
) {
    let module = ctx.module;
    let dialect = ctx.dialect();
    let var = &module.global_variables[h];
    let (suffix, runtime) = binding_array_suffix(module, var.ty);
    if runtime {
        needs.extension("GL_EXT_nonuniform_qualifier");
    }
    let name = ctx.name(NameKey::GlobalVariable(h));
    out.push_str("layout(");
    push_slot_layout(out, slot);
    let inner = element_inner(module, var.ty);
    let TypeInner::Image {
        dim,
        arrayed,
        class: ImageClass::Storage { format, access },
    } = *inner
    else {
        // `texture2D`, `sampler`, ...: Vulkan GLSL's separate types.
        let ty = types::inner_name(ctx, needs, inner);
        push_parts(out, &[") uniform ", &ty, " ", name, &suffix, ";\n"]);
        return;
    };
    let dim = types::declared_dim(dialect, dim);
    types::image_extension(needs, dialect, dim, arrayed, false);
    let span = module.global_variables.get_span(h);
    let (ty, qualifier) = types::image_type(dim, arrayed, format);
    if format == naga::StorageFormat::R64Uint {
        needs.extension("GL_EXT_shader_image_int64");
        needs.extension(types::INT64_EXTENSION);
    }
    let memory = types::memory_qualifier(access);
    if dialect.is_es() {
        if !types::storage_format(format).2 {
            needs.errors.push(
                glsl::error_at(
                    format!("GLSL ES has no `{qualifier}` storage images"),
                    span,
                    "storage texture format",
                )
                .note("GLSL ES storage images are rgba32f, rgba16f, r32f, rgba8, rgba8_snorm and the rgba32/rgba16/rgba8/r32 integer formats"),
            );
        }
        let r32 = [
            naga::StorageFormat::R32Float,
            naga::StorageFormat::R32Sint,
            naga::StorageFormat::R32Uint,
        ];
        if memory.is_empty() && !r32.contains(&format) {
            needs.errors.push(
                glsl::error_at(
                    format!("GLSL ES can read and write only r32f, r32i and r32ui storage images, not `{qualifier}`"),
                    span,
                    "read_write storage texture",
                )
                .note("split it into a read-only and a write-only texture, or write a desktop dialect"),
            );
        }
    }
    let precision = if dialect.is_es() { "highp " } else { "" };
    push_parts(out, &[", ", qualifier, ") uniform ", memory, precision]);
    push_parts(out, &[&ty, " ", name, &suffix, ";\n"]);
}
