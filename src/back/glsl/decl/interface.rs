//! The entry point's interface: input and output variables with their
//! locations and interpolation, built-ins, the prologue that reads the
//! inputs into the WGSL arguments, the code that writes a returned value,
//! and the zeroing of workgroup memory.

use crate::back::common::push_parts;
use crate::back::glsl;
use crate::back::glsl::{types, Ctx, Dialect, Needs};
use crate::back::text;
use crate::back::text::{input_parts, io_parts, output_parts, zeroed_workgroup_variables};
use crate::diag::Diagnostic;
use naga::proc::NameKey;
use naga::{Binding, BuiltIn, Handle, ShaderStage, TypeInner};
use std::fmt::Write as _;

/// Append the name of the interface variable at `location` to `out` (see
/// the module doc).
pub(super) fn push_location_name(
    out: &mut String,
    stage: ShaderStage,
    output: bool,
    location: u32,
    blend_src: Option<u32>,
) {
    out.push_str(match (stage, output) {
        (ShaderStage::Vertex, false) => "_s_attr",
        (ShaderStage::Fragment, true) => "_s_frag",
        _ => "_s_vary",
    });
    glsl::push_decimal(out, u64::from(location));
    if let (ShaderStage::Fragment, true, Some(i)) = (stage, output, blend_src) {
        if i > 0 {
            out.push('_');
            glsl::push_decimal(out, u64::from(i));
        }
    }
}

/// The interpolation qualifiers of a varying (`flat `, `noperspective
/// centroid `, ...), for vertex outputs and fragment inputs, appended to
/// `out`.
fn interpolation_qualifiers(
    ctx: &Ctx<'_>,
    needs: &mut Needs,
    interpolation: Option<naga::Interpolation>,
    sampling: Option<naga::Sampling>,
    span: naga::Span,
    out: &mut String,
) {
    match interpolation {
        Some(naga::Interpolation::Flat) => out.push_str("flat "),
        Some(naga::Interpolation::Linear) => {
            if ctx.dialect().is_es() {
                needs.extension("GL_NV_shader_noperspective_interpolation");
            }
            out.push_str("noperspective ");
        }
        Some(naga::Interpolation::PerVertex) => needs.errors.push(
            glsl::error_at(
                "GLSL has no per-vertex inputs here",
                span,
                "@interpolate(per_vertex)",
            )
            .note("use flat or perspective interpolation"),
        ),
        Some(naga::Interpolation::Perspective) | None => {}
    }
    match sampling {
        Some(naga::Sampling::Centroid) => out.push_str("centroid "),
        Some(naga::Sampling::Sample) => {
            if ctx.dialect() == Dialect::Es310 {
                needs.extension("GL_OES_shader_multisample_interpolation");
            }
            out.push_str("sample ");
        }
        _ => {}
    }
}

/// `layout(location = N) in T name;` and builtin redeclarations of entry
/// point `index`.
pub(super) fn interface_declarations(
    ctx: &Ctx<'_>,
    needs: &mut Needs,
    index: usize,
    warnings: &mut Vec<Diagnostic>,
    out: &mut String,
) {
    let module = ctx.module;
    let ep = &module.entry_points[index];
    let span = text::entry_span(ctx.parsed, ctx.module, index);
    let inputs = input_parts(module, ep).map(|io| (false, io));
    for (output, io) in inputs.chain(output_parts(module, ep).map(|io| (true, io))) {
        match io.binding {
            Binding::Location {
                location,
                interpolation,
                sampling,
                blend_src,
                ..
            } => {
                let ty = types::type_name(ctx, needs, io.ty);
                out.push_str("layout(location = ");
                glsl::push_decimal(out, u64::from(location));
                let blend_src = blend_src.filter(|_| output);
                if let Some(i) = blend_src {
                    if ctx.dialect().is_es() {
                        needs.extension("GL_EXT_blend_func_extended");
                    }
                    out.push_str(", index = ");
                    glsl::push_decimal(out, u64::from(i));
                }
                out.push_str(") ");
                // Varyings: vertex outputs and fragment inputs.
                let stage = (ep.stage, output);
                if matches!(
                    stage,
                    (ShaderStage::Vertex, true) | (ShaderStage::Fragment, false)
                ) {
                    interpolation_qualifiers(ctx, needs, interpolation, sampling, span, out);
                }
                push_parts(out, &[if output { "out " } else { "in " }, ty, " "]);
                push_location_name(out, ep.stage, output, location, blend_src);
                out.push_str(";\n");
            }
            Binding::BuiltIn(BuiltIn::Position { .. })
                if !output
                    && ep.stage == ShaderStage::Fragment
                    && !ctx.dialect().is_es()
                    && !ctx.dialect().is_vulkan() =>
            {
                out.push_str("layout(origin_upper_left) in vec4 gl_FragCoord;\n");
            }
            Binding::BuiltIn(b) if !output => {
                let _ = input_builtin(ctx, needs, b, span, warnings);
            }
            Binding::BuiltIn(BuiltIn::Position { invariant: true }) => {
                out.push_str("invariant gl_Position;\n");
            }
            Binding::BuiltIn(b) => {
                let var = output_builtin(ctx, needs, b, span);
                if let (Some(var), BuiltIn::ClipDistances | BuiltIn::CullDistance) = (var, b) {
                    if ctx.dialect().is_es() {
                        // GL_EXT_clip_cull_distance exists on some ES
                        // drivers, but glslang does not know it.
                        needs.errors.push(unsupported_builtin(ctx, b, span).note(format!(
                            "GLSL ES 3.x has no {var}; clip in the fragment shader with `discard` instead"
                        )));
                    }
                    let n = array_len(module, io.ty);
                    let _ = writeln!(out, "out float {var}[{n}];");
                }
            }
        }
    }
}

fn array_len(module: &naga::Module, ty: Handle<naga::Type>) -> u32 {
    match module.types.get_handle(ty).map(|t| &t.inner) {
        Ok(TypeInner::Array {
            size: naga::ArraySize::Constant(n),
            ..
        }) => n.get(),
        _ => 1,
    }
}

/// The GLSL expression for an input builtin, with WGSL's type, adding the
/// extension it needs.
fn input_builtin(
    ctx: &Ctx<'_>,
    needs: &mut Needs,
    builtin: BuiltIn,
    span: naga::Span,
    warnings: &mut Vec<Diagnostic>,
) -> &'static str {
    let dialect = ctx.dialect();
    let (vulkan, gl460) = (dialect.is_vulkan(), dialect == Dialect::Gl460);
    let es310 = |extension| (dialect == Dialect::Es310).then_some(extension);
    let sample = es310("GL_OES_sample_variables");
    let draw = Some("GL_ARB_shader_draw_parameters");
    let barycentric = Some("GL_EXT_fragment_shader_barycentric");
    let subgroup = Some("GL_KHR_shader_subgroup_basic");
    let (text, extension) = match builtin {
        BuiltIn::Position { .. } => ("gl_FragCoord", None),
        BuiltIn::VertexIndex if vulkan => ("uint(gl_VertexIndex)", None),
        BuiltIn::VertexIndex => ("uint(gl_VertexID)", None),
        BuiltIn::InstanceIndex if vulkan => ("uint(gl_InstanceIndex)", None),
        BuiltIn::InstanceIndex if gl460 => ("uint(gl_InstanceID + gl_BaseInstance)", None),
        BuiltIn::InstanceIndex => {
            // GL 4.30-4.50 would need GL_ARB_shader_draw_parameters
            // (`gl_BaseInstanceARB`), which glslang's OpenGL SPIR-V
            // mode does not declare; ES has no base instance at all.
            let w = Diagnostic::warning(format!(
                "{dialect} has no base instance: @builtin(instance_index) counts from 0 in every draw"
            ))
            .at(span.to_range().unwrap_or(0..0), "reads instance_index")
            .note("draw with first instance 0, add the base instance from a uniform, or write gl460 (gl_BaseInstance)");
            if !warnings.iter().any(|d| d == &w) {
                warnings.push(w);
            }
            ("uint(gl_InstanceID)", None)
        }
        BuiltIn::BaseInstance | BuiltIn::BaseVertex | BuiltIn::DrawIndex if dialect.is_es() => {
            needs.errors.push(unsupported_builtin(ctx, builtin, span));
            ("0u", None)
        }
        BuiltIn::BaseInstance if gl460 => ("uint(gl_BaseInstance)", None),
        BuiltIn::BaseInstance => ("uint(gl_BaseInstanceARB)", draw),
        BuiltIn::BaseVertex if gl460 => ("uint(gl_BaseVertex)", None),
        BuiltIn::BaseVertex => ("uint(gl_BaseVertexARB)", draw),
        BuiltIn::DrawIndex if gl460 => ("uint(gl_DrawID)", None),
        BuiltIn::DrawIndex => ("uint(gl_DrawIDARB)", draw),
        BuiltIn::FrontFacing => ("gl_FrontFacing", None),
        BuiltIn::SampleIndex => ("uint(gl_SampleID)", sample),
        BuiltIn::SampleMask => ("uint(gl_SampleMaskIn[0])", sample),
        BuiltIn::PointCoord => ("gl_PointCoord", None),
        BuiltIn::PrimitiveIndex => ("uint(gl_PrimitiveID)", es310("GL_EXT_geometry_shader")),
        BuiltIn::ViewIndex if vulkan => ("uint(gl_ViewIndex)", Some("GL_EXT_multiview")),
        BuiltIn::ViewIndex => ("gl_ViewID_OVR", Some("GL_OVR_multiview2")),
        BuiltIn::Barycentric { perspective: true } => ("gl_BaryCoordEXT", barycentric),
        BuiltIn::Barycentric { .. } => ("gl_BaryCoordNoPerspEXT", barycentric),
        BuiltIn::GlobalInvocationId => ("gl_GlobalInvocationID", None),
        BuiltIn::LocalInvocationId => ("gl_LocalInvocationID", None),
        BuiltIn::LocalInvocationIndex => ("gl_LocalInvocationIndex", None),
        BuiltIn::WorkGroupId => ("gl_WorkGroupID", None),
        BuiltIn::WorkGroupSize => ("gl_WorkGroupSize", None),
        BuiltIn::NumWorkGroups => ("gl_NumWorkGroups", None),
        BuiltIn::NumSubgroups => ("gl_NumSubgroups", subgroup),
        BuiltIn::SubgroupId => ("gl_SubgroupID", subgroup),
        BuiltIn::SubgroupSize => ("gl_SubgroupSize", subgroup),
        BuiltIn::SubgroupInvocationId => ("gl_SubgroupInvocationID", subgroup),
        _ => {
            needs.errors.push(unsupported_builtin(ctx, builtin, span));
            ("0", None)
        }
    };
    if let Some(e) = extension {
        needs.extension(e);
    }
    text
}

fn unsupported_builtin(ctx: &Ctx<'_>, builtin: BuiltIn, span: naga::Span) -> Diagnostic {
    glsl::error_at(
        format!(
            "@builtin({}) cannot be written in {}",
            crate::back::common::builtin_wgsl_name(builtin)
                .map_or_else(|| format!("{builtin:?}"), str::to_string),
            ctx.dialect()
        ),
        span,
        "this entry point uses it",
    )
}

/// The GLSL variable an output builtin is written to (clip and cull
/// distances: the array written element by element); `None` for one GLSL
/// cannot write.
fn output_builtin(
    ctx: &Ctx<'_>,
    needs: &mut Needs,
    builtin: BuiltIn,
    span: naga::Span,
) -> Option<&'static str> {
    match builtin {
        BuiltIn::Position { .. } => Some("gl_Position"),
        BuiltIn::FragDepth => Some("gl_FragDepth"),
        BuiltIn::PointSize => Some("gl_PointSize"),
        BuiltIn::SampleMask => {
            if ctx.dialect() == Dialect::Es310 {
                needs.extension("GL_OES_sample_variables");
            }
            Some("gl_SampleMask[0]")
        }
        BuiltIn::ClipDistances => Some("gl_ClipDistance"),
        BuiltIn::CullDistance => Some("gl_CullDistance"),
        _ => {
            needs.errors.push(unsupported_builtin(ctx, builtin, span));
            None
        }
    }
}

/// Statements at the start of `main` (indented one level) that declare a
/// local for every entry-point argument, named
/// `ctx.name(NameKey::EntryPointArgument(index, i))`, built from the input
/// variables and builtins (with the conversions WGSL types need, e.g.
/// `uint(gl_VertexIndex)`). Compute entry points first zero the workgroup
/// memory they use (see the module doc). Appended to `out`.
pub fn push_entry_prologue(ctx: &Ctx<'_>, needs: &mut Needs, index: usize, out: &mut String) {
    let module = ctx.module;
    let Some(ep) = module.entry_points.get(index) else {
        return;
    };
    let span = text::entry_span(ctx.parsed, ctx.module, index);
    // Invocation 0 zeroes every workgroup variable the entry point uses;
    // then all invocations wait at a barrier.
    let zeroed = zeroed_workgroup_variables(module, ctx.info, index);
    if !zeroed.is_empty() {
        out.push_str("    if (gl_LocalInvocationIndex == 0u) {\n");
        for h in zeroed {
            let var = &module.global_variables[h];
            let name = ctx.name(NameKey::GlobalVariable(h));
            zero_store(ctx, needs, name, var.ty, "        ", 0, out);
        }
        out.push_str("    }\n    barrier();\n");
    }
    let mut ignored = Vec::new();
    for (i, arg) in ep.function.arguments.iter().enumerate() {
        let ty = types::type_name(ctx, needs, arg.ty);
        let name = ctx.name(NameKey::EntryPointArgument(index as u16, i as u32));
        // A bound argument is its single part; a struct is built from its
        // members' parts.
        let (ctor, open, close) = if arg.binding.is_some() {
            ("", "", ";\n")
        } else {
            (ty, "(", ");\n")
        };
        push_parts(out, &["    ", ty, " ", name, " = ", ctor, open]);
        for (k, io) in io_parts(module, arg.ty, arg.binding.as_ref()).enumerate() {
            if k > 0 {
                out.push_str(", ");
            }
            match io.binding {
                Binding::Location { location, .. } => {
                    push_location_name(out, ep.stage, false, location, None);
                }
                Binding::BuiltIn(b) => {
                    out.push_str(input_builtin(ctx, needs, b, span, &mut ignored))
                }
            }
        }
        out.push_str(close);
    }
}

/// Statements (each starting with `indent`) that write the entry point's
/// result `value` (a side-effect-free expression, possibly used several
/// times) to its outputs, appended to `out`. `func` follows them with
/// `return;`.
pub fn push_entry_return(
    ctx: &Ctx<'_>,
    needs: &mut Needs,
    index: usize,
    value: &str,
    indent: &str,
    out: &mut String,
) {
    let module = ctx.module;
    let Some(ep) = module.entry_points.get(index) else {
        return;
    };
    let Some(result) = &ep.function.result else {
        return;
    };
    let span = text::entry_span(ctx.parsed, ctx.module, index);
    for io in io_parts(module, result.ty, result.binding.as_ref()) {
        let access: std::borrow::Cow<'_, str> = match io.member {
            Some(m) => {
                let member = ctx.name(NameKey::StructMember(result.ty, m));
                [value, ".", member].concat().into()
            }
            None => value.into(),
        };
        let b = match io.binding {
            Binding::Location {
                location,
                blend_src,
                ..
            } => {
                out.push_str(indent);
                push_location_name(out, ep.stage, true, location, blend_src);
                push_parts(out, &[" = ", &access, ";\n"]);
                continue;
            }
            Binding::BuiltIn(b) => b,
        };
        let Some(var) = output_builtin(ctx, needs, b, span) else {
            continue;
        };
        match b {
            BuiltIn::ClipDistances | BuiltIn::CullDistance => {
                for k in 0..array_len(module, io.ty) {
                    let _ = writeln!(out, "{indent}{var}[{k}] = {access}[{k}];");
                }
            }
            BuiltIn::SampleMask => {
                let _ = writeln!(out, "{indent}{var} = int({access});");
            }
            _ => {
                push_parts(out, &[indent, var, " = ", &access, ";\n"]);
            }
        }
        if matches!(b, BuiltIn::Position { .. }) && ep.stage == ShaderStage::Vertex {
            out.push_str(indent);
            out.push_str(if ctx.dialect().is_vulkan() {
                "gl_Position.y = -gl_Position.y;\n"
            } else {
                "gl_Position.z = 2.0 * gl_Position.z - gl_Position.w;\n"
            });
        }
    }
}

/// Arrays longer than this are zeroed in a loop rather than by one
/// constructor with every element spelled out.
const ZERO_LOOP_THRESHOLD: u32 = 16;

fn holds_long_array(module: &naga::Module, ty: Handle<naga::Type>) -> bool {
    match module.types.get_handle(ty).map(|t| &t.inner) {
        Ok(TypeInner::Array { base, size, .. }) => {
            matches!(size, naga::ArraySize::Constant(n) if n.get() > ZERO_LOOP_THRESHOLD)
                || holds_long_array(module, *base)
        }
        Ok(TypeInner::Struct { members, .. }) => {
            members.iter().any(|m| holds_long_array(module, m.ty))
        }
        _ => false,
    }
}

fn zero_store(
    ctx: &Ctx<'_>,
    needs: &mut Needs,
    lvalue: &str,
    ty: Handle<naga::Type>,
    indent: &str,
    depth: usize,
    out: &mut String,
) {
    let module = ctx.module;
    let long = holds_long_array(module, ty);
    match module.types.get_handle(ty).map(|t| &t.inner) {
        Ok(TypeInner::Array {
            base,
            size: naga::ArraySize::Constant(n),
            ..
        }) if long => {
            let i = format!("_s_z{depth}");
            let _ = writeln!(out, "{indent}for (uint {i} = 0u; {i} < {n}u; {i}++) {{");
            let inner = format!("{indent}    ");
            zero_store(
                ctx,
                needs,
                &format!("{lvalue}[{i}]"),
                *base,
                &inner,
                depth + 1,
                out,
            );
            let _ = writeln!(out, "{indent}}}");
        }
        Ok(TypeInner::Struct { members, .. }) if long => {
            for (m, member) in members.iter().enumerate() {
                let field = format!("{lvalue}.{}", ctx.name(NameKey::StructMember(ty, m as u32)));
                zero_store(ctx, needs, &field, member.ty, indent, depth, out);
            }
        }
        _ => {
            push_parts(out, &[indent, lvalue, " = "]);
            types::zero_value_into(ctx, needs, ty, out);
            out.push_str(";\n");
        }
    }
}
