//! The entry points' interface: the input and output structs with their
//! semantics and interpolation modifiers, the entry signature, the prologue
//! that declares the WGSL arguments and the function a returned value goes
//! through.

use super::{entry_span, model::builtin_model, NUM_WORKGROUPS};
use crate::back::hlsl;
use crate::back::hlsl::types;
use crate::back::hlsl::{Ctx, Needs};
use crate::back::text::{input_parts, io_parts, output_parts, zeroed_workgroup_variables, IoPart};
use crate::diag::Diagnostic;
use naga::proc::NameKey;
use naga::{Binding, BuiltIn, ShaderStage};
use std::borrow::Cow;
use std::fmt::Write as _;

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
                hlsl::push_decimal(out, u64::from(n));
            }
            Word::Prefixed(prefix, word) => {
                out.push_str(prefix);
                out.push_str(word);
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

/// A builtin as WGSL spells it: in messages, and in stride's own names
/// (`_s_<name>`).
fn builtin_name(builtin: BuiltIn) -> &'static str {
    crate::back::common::builtin_wgsl_name(builtin).unwrap_or("unsupported")
}

fn unsupported_builtin(
    ctx: &Ctx<'_>,
    index: usize,
    builtin: BuiltIn,
    why: &str,
    fix: &str,
) -> Diagnostic {
    let name = crate::back::common::builtin_wgsl_name(builtin)
        .map_or_else(|| text!("{builtin:?}"), str::to_string);
    let mut d = hlsl::error_at(
        text!("@builtin({name}) cannot be written as HLSL: {why}"),
        entry_span(ctx, index),
        "this entry point uses it",
    );
    if !fix.is_empty() {
        d = d.note(fix);
    }
    d
}

/// The modifiers of a `@location` member: for Slang output its Vulkan
/// location (which Slang otherwise assigns in declaration order, ignoring
/// the number in `LOC<n>`), then for a varying (`interpolated`: a vertex
/// output or fragment input) `nointerpolation `, `noperspective centroid
/// `, ...
fn location_modifiers(
    ctx: &Ctx<'_>,
    needs: &mut Needs,
    index: usize,
    binding: &Binding,
    interpolated: bool,
) -> String {
    let Binding::Location {
        location,
        interpolation,
        sampling,
        per_primitive,
        ..
    } = *binding
    else {
        return String::new();
    };
    let mut m = String::new();
    if ctx.options.slang {
        let _ = write!(m, "[[vk::location({location})]] ");
    }
    if !interpolated {
        return m;
    }
    if per_primitive {
        needs.error(
            hlsl::error_at(
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
            hlsl::error_at(
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
            hlsl::error_at(
                "@interpolate(linear, centroid|sample) cannot be written as Slang: Slang (2026.12) rejects `noperspective` together with `centroid` or `sample` as a duplicate modifier",
                entry_span(ctx, index),
                "this entry point uses it",
            )
            .note("use @interpolate(perspective, ...) or @interpolate(linear), or --target hlsl"),
        );
    }
    m
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
            let fragment = ep.stage == ShaderStage::Fragment;
            let modifiers = location_modifiers(ctx, needs, index, &part.binding, fragment);
            return member(
                Word::Numbered("_s_loc", location),
                Word::Numbered("LOC", location),
                Cow::Owned(modifiers),
            );
        }
        Binding::BuiltIn(b) => b,
    };
    let own = Word::Prefixed("_s_", builtin_name(b));
    if let Some(min) = builtin_model(b).filter(|&min| ctx.shader_model() < min) {
        needs.error(unsupported_builtin(
            ctx,
            index,
            b,
            &text!("it needs shader model {min}"),
            &text!("pass `--shader-model {}` or later", min.name()),
        ));
    }
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
        BuiltIn::ViewIndex => "SV_ViewID",
        BuiltIn::Barycentric { perspective } => {
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
            return Some(Source::Expression(Cow::Borrowed("WaveGetLaneCount()")));
        }
        BuiltIn::SubgroupInvocationId => {
            return Some(Source::Expression(Cow::Borrowed("WaveGetLaneIndex()")));
        }
        BuiltIn::SubgroupId => {
            return Some(Source::Expression(Cow::Borrowed(
                "(_s_in._s_local_invocation_index / WaveGetLaneCount())",
            )));
        }
        BuiltIn::NumSubgroups => {
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
                    Cow::Owned(location_modifiers(ctx, needs, index, &part.binding, true)),
                    Word::Numbered("_s_loc", location),
                    Word::Numbered("LOC", location),
                )
            }
        }
        Binding::BuiltIn(b) => {
            let semantic = match b {
                BuiltIn::Position { .. } => "SV_Position",
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
            let precise = matches!(b, BuiltIn::Position { invariant: true });
            (
                Cow::Borrowed(if precise { "precise " } else { "" }),
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

/// `members`, each with the location it is bound to, in struct order:
/// locations first, ascending, then builtins in their order.
fn in_struct_order<T>(mut members: Vec<(Option<u32>, T)>) -> Vec<T> {
    members.sort_by_key(|(location, _)| location.map_or((1, 0), |l| (0, l)));
    members.into_iter().map(|(_, m)| m).collect()
}

fn location_of(binding: &Binding) -> Option<u32> {
    match *binding {
        Binding::Location { location, .. } => Some(location),
        Binding::BuiltIn(_) => None,
    }
}

/// The HLSL names of an entry point's input and output structs and of the
/// function converting its result into the output struct are these
/// prefixes and the entry function's name (written straight into the text
/// that uses them).
const IN: &str = "_s_in_";
const OUT: &str = "_s_out_";
const CONVERT: &str = "_s_output_";

/// The members of the input struct, in order.
fn input_members<'c>(ctx: &'c Ctx<'_>, needs: &mut Needs, index: usize) -> Vec<Member<'c>> {
    let ep = &ctx.module.entry_points[index];
    let mut members = Vec::with_capacity(ep.function.arguments.len());
    let mut wants_index = !zeroed_workgroup_variables(ctx.module, ctx.info, index).is_empty();
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
    in_struct_order(members)
}

fn write_struct_text<'m, 'c: 'm>(
    out: &mut String,
    (prefix, f): (&str, &str),
    members: impl IntoIterator<Item = &'m Member<'c>>,
) {
    hlsl::push_parts(out, &["struct ", prefix, f, " {\n"]);
    for m in members {
        hlsl::push_parts(out, &["    ", &m.modifiers, m.ty, " "]);
        m.name.push_to(out);
        out.push_str(" : ");
        m.semantic.push_to(out);
        out.push_str(";\n");
    }
    out.push_str("};\n");
}

/// The input and output structs of entry point `index` and the function
/// converting the WGSL result into the output struct, appended to `out`;
/// whether the entry point has an input struct (`None` for a stage the
/// target does not write).
pub(super) fn push_entry_io_declarations(
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
            hlsl::error_at(
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
    let f = ctx.name(NameKey::EntryPoint(index as u16));
    let inputs = input_members(ctx, needs, index);
    // The members of the output struct, in order, each with the part it
    // comes from.
    let outputs = ep.function.result.as_ref().map(|_| {
        let members = output_parts(module, ep).filter_map(|p| {
            let m = output_member(ctx, needs, index, &p)?;
            Some((location_of(&p.binding), (p, m)))
        });
        in_struct_order(members.collect())
    });
    // Room for a line per member: a struct line, and for the outputs the
    // line that copies it.
    let lines = inputs.len() + 2 * outputs.as_ref().map_or(0, Vec::len);
    out.reserve(64 * (lines + 6));
    let has_input = !inputs.is_empty();
    if has_input {
        write_struct_text(out, (IN, f), &inputs);
        out.push('\n');
    }
    let (Some(result), Some(outputs)) = (&ep.function.result, outputs) else {
        return Some(has_input);
    };
    write_struct_text(out, (OUT, f), outputs.iter().map(|(_, m)| m));
    out.push('\n');
    let ty = types::type_name(ctx, result.ty);
    hlsl::push_parts(out, &[OUT, f, " ", CONVERT, f, "(", ty, " _s_r) {\n    "]);
    hlsl::push_parts(out, &[OUT, f, " _s_o;\n"]);
    for (part, m) in &outputs {
        out.push_str("    _s_o.");
        m.name.push_to(out);
        match part.member {
            Some(i) => {
                let member = ctx.name(NameKey::StructMember(result.ty, i));
                hlsl::push_parts(out, &[" = _s_r.", member, ";\n"]);
            }
            None => out.push_str(" = _s_r;\n"),
        }
    }
    out.push_str("    return _s_o;\n}\n");
    Some(has_input)
}

/// The entry function's attributes and signature, without the body
/// (`[numthreads(8, 8, 1)]\nvoid main(_s_main_in _s_in)`), appended to
/// `out`. `has_input`: whether the entry point has an input struct, as
/// [`push_entry_io_declarations`] found (`None`: work it out here).
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
    let f = ctx.name(NameKey::EntryPoint(index as u16));
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
            let _ = writeln!(out, "[numthreads({x}, {y}, {z})]");
        }
        ShaderStage::Fragment if ep.early_depth_test == Some(naga::EarlyDepthTest::Force) => {
            out.push_str("[earlydepthstencil]\n");
        }
        _ => {}
    }
    match ep.function.result {
        Some(_) => hlsl::push_parts(out, &[OUT, f, " ", f, "("]),
        None => hlsl::push_parts(out, &["void ", f, "("]),
    }
    let has_input = match has_input {
        Some(has) => has,
        None => !input_members(ctx, needs, index).is_empty(),
    };
    if has_input {
        hlsl::push_parts(out, &[IN, f, " _s_in"]);
    }
    out.push(')');
}

/// Statements (indented one level, each ending in a newline) at the start
/// of the entry function, appended to `out`: workgroup memory zeroed, then
/// the WGSL arguments declared from the input struct.
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
            hlsl::push_parts(
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
        // A bound argument is its single part, a struct is declared and
        // then assigned its members' parts.
        let end = if arg.binding.is_some() { " = " } else { ";\n" };
        hlsl::push_parts(out, &["    ", ty, " ", name, end]);
        for part in io_parts(module, arg.ty, arg.binding.as_ref()) {
            if let Some(m) = part.member {
                let member = ctx.name(NameKey::StructMember(arg.ty, m));
                hlsl::push_parts(out, &["    ", name, ".", member, " = "]);
            }
            push_input_value(ctx, needs, index, &part, out);
            out.push_str(";\n");
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
/// function, appended to `out`.
pub fn push_entry_return(ctx: &Ctx<'_>, index: usize, value: Option<&str>, out: &mut String) {
    let ep = ctx.module.entry_points.get(index);
    if ep.is_none_or(|ep| ep.function.result.is_none()) {
        out.push_str("return;\n");
        return;
    }
    let f = ctx.name(NameKey::EntryPoint(index as u16));
    match value {
        Some(v) => hlsl::push_parts(out, &["return ", CONVERT, f, "(", v, ");\n"]),
        None => hlsl::push_parts(out, &["return (", OUT, f, ")0;\n"]),
    }
}
