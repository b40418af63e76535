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

use super::buffers;
use super::keywords;
use super::types;
use super::{CombinedSampler, Ctx, Dialect, GlslBinding, GlslFile, GlslOptions, GlslOutput, Needs};
use crate::back::common::{
    binding_array_suffix, declaration_order, element_inner, is_abstract, reachable_functions,
    Written,
};
use crate::back::text;
use crate::back::text::{io_parts, zeroed_workgroup_variables};
use crate::bind::gl::{combined_pairs, resource_kind, GlBindings, Pair, Slot};
use crate::diag::{Diagnostic, Diagnostics};
use crate::front::Parsed;
use crate::layout::LayoutModule;
use naga::proc::{ExternalTextureNameKey, NameKey};
use naga::{AddressSpace, Binding, BuiltIn, Handle, ImageClass, ShaderStage, TypeInner};
use naga::{FastIndexMap, FastIndexSet};
use std::fmt::Write as _;

type GlobalHandle = Handle<naga::GlobalVariable>;

/// What the module is written from (see [`crate::back::common::Resolved`]).
pub(crate) type Resolved = crate::back::common::Resolved<buffers::Plan, GlBindings>;

/// The writer's context for the module `r` writes, owning its names and
/// plan.
fn context<'a>(
    parsed: &'a Parsed,
    info: &'a naga::valid::ModuleInfo,
    contract: &'a LayoutModule,
    options: &'a GlslOptions,
    written: &'a Written,
    names: naga::FastHashMap<NameKey, String>,
    plan: buffers::Plan,
) -> Ctx<'a> {
    let (module, info, contract) = written.get(&parsed.module, info, contract);
    Ctx {
        parsed,
        module,
        info,
        contract,
        options,
        names,
        plan,
        type_names: Default::default(),
    }
}

/// Bake the overrides where needed, name, plan the buffers and assign the
/// bindings: everything but the text (see [`Resolved`]). `info` is
/// `parsed.module`'s, validated once per translation.
pub(crate) fn resolve(
    parsed: &Parsed,
    info: &naga::valid::ModuleInfo,
    contract: &LayoutModule,
    options: &GlslOptions,
) -> Result<Resolved, Diagnostics> {
    let dialect = options.dialect;
    if parsed.module.entry_points.is_empty() {
        return Err(Diagnostic::error(
            "this module has no entry point; a GLSL file is written per @compute, @vertex or @fragment function",
        )
        .into());
    }
    // Which entry points to write, checked before any work.
    let selected: Vec<usize> = match &options.entry_point {
        Some(name) => match parsed
            .module
            .entry_points
            .iter()
            .position(|e| e.name == *name)
        {
            Some(i) => vec![i],
            None => {
                let available: Vec<String> = parsed
                    .module
                    .entry_points
                    .iter()
                    .map(|e| format!("`{}`", e.name))
                    .collect();
                return Err(Diagnostic::error(format!(
                    "no entry point named `{name}` in this module (-e {name})"
                ))
                .note(format!("the entry points are {}", available.join(", ")))
                .into());
            }
        },
        None => (0..parsed.module.entry_points.len()).collect(),
    };

    let mut warnings = Vec::new();
    let baked = if must_bake(&parsed.module, options) {
        let (module, info, notes) = bake_overrides(&parsed.module, info, options)?;
        warnings.extend(notes);
        Some((module, info))
    } else {
        None
    };
    let written = Written::new(contract, &parsed.module, baked)?;
    let (module, module_info, contract) = written.get(&parsed.module, info, contract);

    let mut names = module_names(module);
    let order = declaration_order(module);
    // Vulkan declares no combined samplers: only the names of the pairs
    // sampled with a sampler are made (they keep other names apart);
    // textures read without one add no name (their pair is named after
    // the texture itself).
    let pairs = combined_pairs(module, module_info, &order, !dialect.is_vulkan());
    name_combined_samplers(&pairs, &mut names);
    let unwritable = super::dialect_type_errors(module, dialect);
    if !unwritable.is_empty() {
        return Err(Diagnostics(unwritable));
    }
    let plan = buffers::plan(parsed, module, contract, dialect, &names).map_err(|mut e| {
        for d in e.0.iter_mut().filter(|d| d.is_error() && !d.is_internal()) {
            d.kind = crate::diag::DiagnosticKind::Inexpressible;
            d.notes.push(super::INEXPRESSIBLE_NOTE.to_string());
        }
        e
    })?;
    let bindings = crate::bind::gl::assign(
        module,
        module_info,
        &order,
        &pairs,
        dialect.is_vulkan(),
        dialect.name(),
    )?;
    Ok(Resolved::new(
        written, warnings, selected, names, plan, order, bindings,
    ))
}

/// The whole backend for one module: see `super::write`.
pub fn write_module(
    parsed: &Parsed,
    info: &naga::valid::ModuleInfo,
    contract: &LayoutModule,
    options: &GlslOptions,
) -> Result<GlslOutput, Diagnostics> {
    let r = resolve(parsed, info, contract, options)?;
    let dialect = options.dialect;
    // naga's `process_overrides` leaves the (now unused) overrides in the
    // arena: only an unbaked module declares them.
    let spec_constants = !r.written.is_baked();
    let mut output = GlslOutput {
        warnings: r.warnings,
        ..Default::default()
    };
    let (bindings, order) = (r.bindings, r.order);
    let ctx = context(parsed, info, contract, options, &r.written, r.names, r.plan);
    let mut errors = Diagnostics::new();
    for index in r.selected {
        let mut needs = Needs::default();
        let file = write_entry_point(&ctx, &bindings, spec_constants, &order, &mut needs, index);
        if !needs.errors.is_empty() {
            // One error per construct, even when several files hit it.
            for e in needs.errors {
                if !errors.iter().any(|d| d == &e) {
                    errors.push(e);
                }
            }
            continue;
        }
        output.warnings.extend(file.warnings);
        let (records, combined) = file_bindings(&ctx, &bindings, &order, index);
        output
            .bindings
            .push((file.file.entry_point.clone(), records));
        if !dialect.is_vulkan() {
            output
                .combined_samplers
                .push((file.file.entry_point.clone(), combined));
        }
        output.files.push(file.file);
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(output)
}

/// The bindings of the files of a module, without writing them: per
/// entry point (in module order, or the one `-e` picks) its name, its
/// stage, what [`GlslOutput::bindings`] reports for its file, and OpenGL's
/// combined samplers (empty for Vulkan). For `--target reflect`.
pub(crate) fn module_bindings(
    parsed: &Parsed,
    info: &naga::valid::ModuleInfo,
    contract: &LayoutModule,
    options: &GlslOptions,
) -> Result<Vec<FileBindings>, Diagnostics> {
    let r = resolve(parsed, info, contract, options)?;
    let ctx = context(parsed, info, contract, options, &r.written, r.names, r.plan);
    Ok(r.selected
        .into_iter()
        .map(|index| {
            let (bindings, combined) = file_bindings(&ctx, &r.bindings, &r.order, index);
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
    let ep_info = ctx.info.get_entry_point(index);
    let global_name = |g: GlobalHandle| module.global_variables[g].name.clone().unwrap_or_default();
    let mut records = Vec::new();
    for &h in order {
        if ep_info[h].is_empty() {
            continue;
        }
        let Some(kind) = resource_kind(module, &module.global_variables[h]) else {
            continue;
        };
        let declared = match kind {
            "uniform-block" | "storage-block" => ctx.plan.block(h).is_some(),
            "push-constant" => ctx.plan.block(h).is_some() && !vulkan,
            "image" => true,
            _ => vulkan,
        };
        let Some(slot) = bindings.global(h).filter(|_| declared) else {
            continue;
        };
        records.push(GlslBinding {
            global: global_name(h),
            glsl_name: ctx.name(NameKey::GlobalVariable(h)).to_string(),
            kind: slot.kind,
            set: slot.set,
            binding: slot.binding,
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
        });
    }
    (records, combined)
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

/// Whether the overrides are baked into constants (see the module doc).
fn must_bake(module: &naga::Module, options: &GlslOptions) -> bool {
    if !options.overrides.is_empty() {
        return true;
    }
    if module.overrides.is_empty() {
        return false;
    }
    if !options.dialect.is_vulkan() {
        return true;
    }
    !spec_constant_reasons(module).is_empty()
}

/// Why the overrides of `module` cannot all be specialization constants:
/// one (span, reason) per obstacle.
fn spec_constant_reasons(module: &naga::Module) -> Vec<(naga::Span, String)> {
    let mut reasons = Vec::new();
    for (h, o) in module.overrides.iter() {
        if let Some(init) = o.init {
            if !matches!(
                module.global_expressions[init],
                naga::Expression::Literal(_)
            ) {
                let name = o.name.as_deref().unwrap_or("(unnamed)");
                reasons.push((
                    module.overrides.get_span(h),
                    format!("the default of override `{name}` is an expression, not a literal"),
                ));
            }
        }
    }
    for ep in &module.entry_points {
        if ep.workgroup_size_overrides.is_some() {
            reasons.push((
                naga::Span::default(),
                format!("the workgroup size of `{}` depends on an override", ep.name),
            ));
        }
    }
    for (h, t) in module.types.iter() {
        if let TypeInner::Array {
            size: naga::ArraySize::Pending(_),
            ..
        } = t.inner
        {
            reasons.push((
                module.types.get_span(h),
                "an array is sized by an override".to_string(),
            ));
        }
    }
    reasons
}

/// Bake every override (see `must_bake` for when), with the reason in each
/// warning.
fn bake_overrides(
    module: &naga::Module,
    info: &naga::valid::ModuleInfo,
    options: &GlslOptions,
) -> Result<crate::back::overrides::Baked, Diagnostics> {
    let why = if !options.overrides.is_empty() {
        "values were given with --override".to_string()
    } else if !options.dialect.is_vulkan() {
        format!("{} has no specialization constants", options.dialect.name())
    } else {
        spec_constant_reasons(module)
            .first()
            .map(|(_, r)| format!("not every override can be a specialization constant: {r}"))
            .unwrap_or_default()
    };
    crate::back::overrides::bake(
        module,
        info,
        &options.overrides,
        "GLSL",
        &format!("baked because {why}"),
    )
}

// ---------------------------------------------------------------------------
// Names

/// Every module item's GLSL name: naga's namer with our reserved words and
/// prefixes, then the one repair it needs for GLSL (no `__`).
fn module_names(module: &naga::Module) -> naga::FastHashMap<NameKey, String> {
    // Room for every name the namer writes (external textures aside), so
    // that the map never rehashes while it fills.
    let members: usize = module
        .types
        .iter()
        .map(|(_, ty)| match ty.inner {
            TypeInner::Struct { ref members, .. } => members.len(),
            _ => 0,
        })
        .sum();
    let entry_points: usize = module
        .entry_points
        .iter()
        .map(|ep| 1 + ep.function.arguments.len() + ep.function.local_variables.len())
        .sum();
    let functions: usize = module
        .functions
        .iter()
        .map(|(_, f)| 1 + f.arguments.len() + f.local_variables.len())
        .sum();
    let mut names = naga::FastHashMap::with_capacity_and_hasher(
        module.types.len()
            + members
            + entry_points
            + functions
            + module.global_variables.len()
            + module.constants.len()
            + module.overrides.len(),
        Default::default(),
    );
    let mut namer = naga::proc::Namer::default();
    namer.reset(
        module,
        &keywords::RESERVED,
        &keywords::BUILTINS,
        naga::proc::CaseInsensitiveKeywordSet::empty(),
        keywords::RESERVED_PREFIXES,
        &mut names,
    );
    repair_double_underscores(&mut names);
    names
}

/// GLSL reserves every identifier containing `__`. naga's namer collapses
/// runs of `_` in source names but writes `gen_` before a name that starts
/// with a reserved prefix (`_s_x` becomes `gen__s_x`); such names get the
/// run collapsed and, if that clashes, a numeric suffix. Deterministic: the
/// names are repaired in sorted order.
fn repair_double_underscores(names: &mut naga::FastHashMap<NameKey, String>) {
    let mut broken: Vec<(String, String)> = names
        .iter()
        .filter(|(_, n)| n.contains("__"))
        .map(|(k, n)| (n.clone(), format!("{k:?}")))
        .collect();
    if broken.is_empty() {
        return;
    }
    broken.sort();
    let mut taken: FastIndexSet<String> = names.values().cloned().collect();
    let mut repaired: FastIndexMap<(String, String), String> = FastIndexMap::default();
    for (old, key_text) in broken {
        let mut base = String::with_capacity(old.len());
        for c in old.chars() {
            if !(c == '_' && base.ends_with('_')) {
                base.push(c);
            }
        }
        let mut candidate = base.clone();
        let mut n = 1;
        while taken.contains(&candidate) {
            candidate = format!("{base}_{n}");
            n += 1;
        }
        taken.insert(candidate.clone());
        repaired.insert((old, key_text), candidate);
    }
    for (key, name) in names.iter_mut() {
        if !name.contains("__") {
            continue;
        }
        if let Some(new) = repaired.get(&(name.clone(), format!("{key:?}"))) {
            *name = new.clone();
        }
    }
}

/// The key under which the combined sampler of `image` with `sampler` is
/// named (see the module doc).
fn combined_key(image: GlobalHandle, sampler: Option<GlobalHandle>) -> NameKey {
    let plane = sampler.map_or(0, |s| s.index() + 1);
    NameKey::ExternalTextureGlobalVariable(image, ExternalTextureNameKey::Plane(plane))
}

/// Name every combined sampler of `pairs`, unique against all names.
fn name_combined_samplers(pairs: &[Pair], names: &mut naga::FastHashMap<NameKey, String>) {
    for &(image, sampler) in pairs {
        let image_name = names
            .get(&NameKey::GlobalVariable(image))
            .cloned()
            .unwrap_or_default();
        let name = match sampler {
            // The texture itself is not declared in OpenGL: its name is free.
            None => image_name,
            Some(s) => {
                let sampler_name = names
                    .get(&NameKey::GlobalVariable(s))
                    .cloned()
                    .unwrap_or_default();
                let base = format!("{image_name}_{sampler_name}");
                let mut candidate = base.clone();
                let mut n = 1;
                // Every name given so far is a value of `names`.
                while names.values().any(|taken| *taken == candidate) {
                    candidate = format!("{base}_{n}");
                    n += 1;
                }
                candidate
            }
        };
        names.insert(combined_key(image, sampler), name);
    }
}

/// OpenGL dialects: the name of the combined sampler for `image` used with
/// `sampler` (`None`: read without a sampler).
pub fn combined_sampler_name(
    ctx: &Ctx<'_>,
    image: Handle<naga::GlobalVariable>,
    sampler: Option<Handle<naga::GlobalVariable>>,
) -> String {
    match ctx.names.get(&combined_key(image, sampler)) {
        Some(name) => name.clone(),
        // Not collected (should not happen): a stable fallback.
        None => match sampler {
            Some(s) => format!(
                "{}_{}",
                ctx.name(NameKey::GlobalVariable(image)),
                ctx.name(NameKey::GlobalVariable(s))
            ),
            None => ctx.name(NameKey::GlobalVariable(image)).to_string(),
        },
    }
}

// ---------------------------------------------------------------------------
// One entry point

struct EntryFile {
    file: GlslFile,
    warnings: Vec<Diagnostic>,
}

/// `order`: the module's `declaration_order`; `spec_constants`: whether
/// the overrides are declared as specialization constants.
fn write_entry_point(
    ctx: &Ctx<'_>,
    bindings: &GlBindings,
    spec_constants: bool,
    order: &[GlobalHandle],
    needs: &mut Needs,
    index: usize,
) -> EntryFile {
    let module = ctx.module;
    let dialect = ctx.dialect();
    let ep = &module.entry_points[index];
    let ep_info = ctx.info.get_entry_point(index);
    let mut warnings = Vec::new();

    // Everything below `#version` and the extensions, in order; written
    // first so that the extensions they need are known.
    // Each part is written straight into `body`; `end_section` then ends
    // a part that wrote anything with a blank line.
    let mut body = String::with_capacity(4096);
    // What earlier files (and the plan) named is not this file's.
    ctx.type_names.named.take();
    stage_layout(ctx, needs, index, &mut body);
    // The value structs go here once the rest of the file shows which of
    // them it names.
    let structs_at = body.len();
    let (structs, struct_parts) = types::struct_declarations(ctx, needs);
    let start = body.len();
    ctx.plan.write_declarations(needs, &mut body);
    end_section(&mut body, start);
    let start = body.len();
    constants(ctx, needs, &mut body);
    end_section(&mut body, start);
    if spec_constants {
        let start = body.len();
        overrides(ctx, needs, &mut body);
        end_section(&mut body, start);
    }

    // Resources the entry point uses, in declaration order.
    let used = |h: GlobalHandle| !ep_info[h].is_empty();
    let start = body.len();
    let resources = &mut body;
    // The layout qualifiers of one block, rewritten for each block (room
    // for `set = N, binding = M`, so that it never regrows).
    let mut prefix = String::with_capacity(32);
    for &h in order {
        let var = &module.global_variables[h];
        if !used(h) {
            continue;
        }
        let Some(kind) = resource_kind(module, var) else {
            continue;
        };
        let slot = bindings.global(h);
        match kind {
            "uniform-block" | "storage-block" | "push-constant" => {
                let Some(block) = ctx.plan.block(h) else {
                    continue;
                };
                prefix.clear();
                match (kind, slot) {
                    ("push-constant", _) if dialect.is_vulkan() => prefix.push_str("push_constant"),
                    (
                        _,
                        Some(Slot {
                            set: Some(set),
                            binding,
                            ..
                        }),
                    ) => {
                        prefix.push_str("set = ");
                        super::push_decimal(&mut prefix, u64::from(set));
                        prefix.push_str(", binding = ");
                        super::push_decimal(&mut prefix, u64::from(binding));
                    }
                    (_, Some(slot)) => {
                        prefix.push_str("binding = ");
                        super::push_decimal(&mut prefix, u64::from(slot.binding));
                    }
                    (_, None) => {}
                }
                ctx.plan
                    .write_block_declaration(ctx, needs, block, &prefix, resources);
                if !resources.ends_with('\n') {
                    resources.push('\n');
                }
            }
            "image" => {
                resources.push_str(&image_declaration(ctx, needs, h, slot));
            }
            "texture" | "sampler" if dialect.is_vulkan() => {
                resources.push_str(&separate_declaration(ctx, needs, h, slot));
            }
            _ => {}
        }
    }
    for (pair, unit) in entry_units(bindings, index) {
        resources.push_str(&combined_declaration(ctx, needs, pair, unit));
    }
    end_section(&mut body, start);

    let start = body.len();
    interface_declarations(ctx, needs, index, &mut warnings, &mut body);
    end_section(&mut body, start);

    // Private and workgroup globals.
    let start = body.len();
    let globals = &mut body;
    for &h in order {
        let var = &module.global_variables[h];
        if !used(h) {
            continue;
        }
        match var.space {
            AddressSpace::Private => {
                let ty = types::type_name(ctx, needs, var.ty);
                let init = match var.init {
                    Some(init) => super::func::const_expression(ctx, needs, init),
                    None => types::zero_value(ctx, needs, var.ty),
                };
                let name = ctx.name(NameKey::GlobalVariable(h));
                for part in [ty, " ", name, " = ", &init, ";\n"] {
                    globals.push_str(part);
                }
            }
            AddressSpace::WorkGroup => {
                let ty = types::type_name(ctx, needs, var.ty);
                let name = ctx.name(NameKey::GlobalVariable(h));
                for part in ["shared ", ty, " ", name, ";\n"] {
                    globals.push_str(part);
                }
            }
            _ => {}
        }
    }
    end_section(&mut body, start);

    let mut functions = String::new();
    for f in reachable_functions(module, index) {
        functions.push_str(&super::func::write_function(ctx, needs, f));
        functions.push('\n');
    }
    let main = super::func::write_entry_main(ctx, needs, index);

    // ES: the features the dialect lacks.

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
    for ext in &needs.extensions {
        for part in ["#extension ", ext, " : require\n"] {
            text.push_str(part);
        }
    }
    if dialect.is_es() {
        text.push_str("precision highp float;\nprecision highp int;\n");
    }
    text.push('\n');
    text.push_str(&body[..structs_at]);
    let start = text.len();
    crate::back::common::push_live_declarations(&mut text, structs, struct_parts, named);
    end_section(&mut text, start);
    text.push_str(&body[structs_at..]);
    for helper in needs.helpers.values() {
        text.push_str(helper);
        if !helper.ends_with('\n') {
            text.push('\n');
        }
        text.push('\n');
    }
    text.push_str(&functions);
    text.push_str(&main);
    if !text.ends_with('\n') {
        text.push('\n');
    }
    EntryFile {
        file: GlslFile {
            entry_point: ep.name.clone(),
            stage: ep.stage,
            text,
        },
        warnings,
    }
}

/// End the part written to `out` from byte `start` on: nothing if it is
/// empty, else a newline if it lacks one and a blank line.
fn end_section(out: &mut String, start: usize) {
    if out.len() == start {
        return;
    }
    if !out.ends_with('\n') {
        out.push('\n');
    }
    out.push('\n');
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

/// `const T name = value;` for every constant of the module.
fn constants(ctx: &Ctx<'_>, needs: &mut Needs, out: &mut String) {
    for (h, c) in ctx.module.constants.iter() {
        if is_abstract(ctx.module, c.ty) {
            continue;
        }
        let ty = types::type_name(ctx, needs, c.ty);
        let value = super::func::const_expression(ctx, needs, c.init);
        let name = ctx.name(NameKey::Constant(h));
        for part in ["const ", ty, " ", name, " = ", &value, ";\n"] {
            out.push_str(part);
        }
    }
}

/// Specialization constants (Vulkan, overrides not baked).
fn overrides(ctx: &Ctx<'_>, needs: &mut Needs, out: &mut String) {
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
        let value = match o.init.map(|i| &module.global_expressions[i]) {
            Some(naga::Expression::Literal(lit)) => literal(needs, lit),
            _ => types::zero_value(ctx, needs, o.ty),
        };
        let _ = writeln!(
            out,
            "layout(constant_id = {id}) const {ty} {} = {value};",
            ctx.name(NameKey::Override(h))
        );
    }
}

/// A literal as GLSL.
fn literal(needs: &mut Needs, lit: &naga::Literal) -> String {
    use naga::Literal as L;
    let float = |v: f64| {
        let s = format!("{v:?}");
        if s.contains('.') || s.contains('e') || s.contains("inf") || s.contains("NaN") {
            s
        } else {
            format!("{s}.0")
        }
    };
    match *lit {
        L::F64(v) => format!("{}lf", float(v)),
        L::F32(v) => float(f64::from(v)),
        L::F16(v) => {
            needs.extension(types::F16_EXTENSION);
            format!("{}hf", float(f64::from(f32::from(v))))
        }
        L::U32(v) => format!("{v}u"),
        L::I32(v) => v.to_string(),
        L::U64(v) => {
            needs.extension(types::INT64_EXTENSION);
            format!("{v}ul")
        }
        L::I64(v) => {
            needs.extension(types::INT64_EXTENSION);
            format!("{v}l")
        }
        L::U16(v) => format!("uint16_t({v}u)"),
        L::I16(v) => format!("int16_t({v})"),
        L::Bool(v) => v.to_string(),
        L::AbstractInt(v) => v.to_string(),
        L::AbstractFloat(v) => float(v),
    }
}

/// Vulkan: a separate texture or sampler.
fn separate_declaration(
    ctx: &Ctx<'_>,
    needs: &mut Needs,
    h: GlobalHandle,
    slot: Option<Slot>,
) -> String {
    let var = &ctx.module.global_variables[h];
    let (suffix, count) = binding_array_suffix(ctx.module, var.ty);
    if count.is_none() {
        needs.extension("GL_EXT_nonuniform_qualifier");
    }
    let ty = match *element_inner(ctx.module, var.ty) {
        TypeInner::Image {
            dim,
            arrayed,
            class,
        } => types::texture_type(dim, arrayed, class),
        TypeInner::Sampler { comparison: true } => "samplerShadow".to_string(),
        _ => "sampler".to_string(),
    };
    let mut text = String::with_capacity(64);
    text.push_str("layout(");
    push_slot_layout(&mut text, slot);
    let name = ctx.name(NameKey::GlobalVariable(h));
    for part in [") uniform ", &ty, " ", name, &suffix, ";\n"] {
        text.push_str(part);
    }
    text
}

/// Append `set = S, binding = B` (or `binding = B`) for `slot`.
fn push_slot_layout(out: &mut String, slot: Option<Slot>) {
    if let Some(Slot { set: Some(set), .. }) = slot {
        out.push_str("set = ");
        super::push_decimal(out, u64::from(set));
        out.push_str(", ");
    }
    out.push_str("binding = ");
    super::push_decimal(out, u64::from(slot.map_or(0, |s| s.binding)));
}

/// OpenGL: a combined sampler's declaration.
fn combined_declaration(
    ctx: &Ctx<'_>,
    needs: &mut Needs,
    (image, sampler): Pair,
    unit: u32,
) -> String {
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
            check_image_support(ctx, needs, image, dim, arrayed, multi);
            types::sampler_type(dim, arrayed, class, comparison)
        }
        _ => "sampler2D".to_string(),
    };
    let name = combined_sampler_name(ctx, image, sampler);
    let precision = if ctx.dialect().is_es() { "highp " } else { "" };
    format!("layout(binding = {unit}) uniform {precision}{ty} {name}{suffix};\n")
}

/// ES: push an error, or add the extension, for images ES lacks.
fn check_image_support(
    ctx: &Ctx<'_>,
    needs: &mut Needs,
    h: GlobalHandle,
    dim: naga::ImageDimension,
    arrayed: bool,
    multi: bool,
) {
    match types::image_support(ctx.dialect(), dim, arrayed, multi) {
        Ok(Some(ext)) => needs.extension(ext),
        Ok(None) => {}
        Err(why) => needs.errors.push(
            super::error_at(
                format!(
                    "{why}; this texture cannot be written for {}",
                    ctx.dialect()
                ),
                ctx.module.global_variables.get_span(h),
                "not expressible in GLSL ES",
            )
            .note("use a 2D texture, or a desktop dialect (--glsl gl430 or later)"),
        ),
    }
}

/// A storage texture: `layout(..., rgba8) uniform readonly image2D name;`.
fn image_declaration(
    ctx: &Ctx<'_>,
    needs: &mut Needs,
    h: GlobalHandle,
    slot: Option<Slot>,
) -> String {
    let module = ctx.module;
    let dialect = ctx.dialect();
    let var = &module.global_variables[h];
    let (suffix, count) = binding_array_suffix(module, var.ty);
    if count.is_none() {
        needs.extension("GL_EXT_nonuniform_qualifier");
    }
    let TypeInner::Image {
        dim,
        arrayed,
        class: ImageClass::Storage { format, access },
    } = *element_inner(module, var.ty)
    else {
        return String::new();
    };
    check_image_support(ctx, needs, h, dim, arrayed, false);
    let span = module.global_variables.get_span(h);
    let (ty, qualifier) = types::image_type(dim, arrayed, format);
    if format == naga::StorageFormat::R64Uint {
        needs.extension("GL_EXT_shader_image_int64");
        needs.extension(types::INT64_EXTENSION);
    }
    let load = access.contains(naga::StorageAccess::LOAD);
    let store = access.contains(naga::StorageAccess::STORE);
    let atomic = access.contains(naga::StorageAccess::ATOMIC);
    let memory = match (load || atomic, store) {
        (true, false) => "readonly ",
        (false, true) => "writeonly ",
        _ => "",
    };
    if qualifier.is_empty() && (load || atomic || dialect.is_es()) {
        needs.errors.push(
            super::error_at(
                format!(
                    "GLSL has no format qualifier for `{format:?}`; {} can only declare such a storage texture write-only{}",
                    dialect,
                    if dialect.is_es() { ", and GLSL ES not at all" } else { "" }
                ),
                span,
                "storage texture format",
            )
            .note("use rgba8unorm and swizzle, or make the texture `write` only"),
        );
    }
    if dialect.is_es() {
        if !qualifier.is_empty() && !types::es_storage_format(qualifier) {
            needs.errors.push(
                super::error_at(
                    format!("GLSL ES has no `{qualifier}` storage images"),
                    span,
                    "storage texture format",
                )
                .note("GLSL ES storage images are rgba32f, rgba16f, r32f, rgba8, rgba8_snorm and the rgba32/rgba16/rgba8/r32 integer formats"),
            );
        }
        if memory.is_empty() && !matches!(qualifier, "r32f" | "r32i" | "r32ui") {
            needs.errors.push(
                super::error_at(
                    format!("GLSL ES can read and write only r32f, r32i and r32ui storage images, not `{qualifier}`"),
                    span,
                    "read_write storage texture",
                )
                .note("split it into a read-only and a write-only texture, or write a desktop dialect"),
            );
        }
    }
    let mut text = String::with_capacity(96);
    text.push_str("layout(");
    push_slot_layout(&mut text, slot);
    if !qualifier.is_empty() {
        text.push_str(", ");
        text.push_str(qualifier);
    }
    let precision = if dialect.is_es() { "highp " } else { "" };
    let name = ctx.name(NameKey::GlobalVariable(h));
    for part in [
        ") uniform ",
        memory,
        precision,
        &ty,
        " ",
        name,
        &suffix,
        ";\n",
    ] {
        text.push_str(part);
    }
    text
}

// ---------------------------------------------------------------------------
// Entry-point inputs and outputs

/// The name of the interface variable at `location` (see the module doc).
#[cfg(test)]
fn location_name(
    stage: ShaderStage,
    output: bool,
    location: u32,
    blend_src: Option<u32>,
) -> String {
    let mut name = String::new();
    push_location_name(&mut name, stage, output, location, blend_src);
    name
}

/// Append the name of the interface variable at `location` to `out`.
fn push_location_name(
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
    super::push_decimal(out, u64::from(location));
    if let (ShaderStage::Fragment, true, Some(i)) = (stage, output, blend_src) {
        if i > 0 {
            out.push('_');
            super::push_decimal(out, u64::from(i));
        }
    }
}

/// The interpolation qualifiers of a varying (`flat `, `noperspective
/// centroid `, ...), for vertex outputs and fragment inputs.
fn interpolation_qualifiers(
    ctx: &Ctx<'_>,
    needs: &mut Needs,
    interpolation: Option<naga::Interpolation>,
    sampling: Option<naga::Sampling>,
    span: naga::Span,
) -> String {
    let mut q = String::new();
    match interpolation {
        Some(naga::Interpolation::Flat) => q.push_str("flat "),
        Some(naga::Interpolation::Linear) => {
            if ctx.dialect().is_es() {
                needs.extension("GL_NV_shader_noperspective_interpolation");
            }
            q.push_str("noperspective ");
        }
        Some(naga::Interpolation::PerVertex) => needs.errors.push(
            super::error_at(
                "GLSL has no per-vertex inputs here",
                span,
                "@interpolate(per_vertex)",
            )
            .note("use flat or perspective interpolation"),
        ),
        Some(naga::Interpolation::Perspective) | None => {}
    }
    match sampling {
        Some(naga::Sampling::Centroid) => q.push_str("centroid "),
        Some(naga::Sampling::Sample) => {
            if ctx.dialect() == Dialect::Es310 {
                needs.extension("GL_OES_shader_multisample_interpolation");
            }
            q.push_str("sample ");
        }
        _ => {}
    }
    q
}

/// `layout(location = N) in T name;` and builtin redeclarations of entry
/// point `index`.
fn interface_declarations(
    ctx: &Ctx<'_>,
    needs: &mut Needs,
    index: usize,
    warnings: &mut Vec<Diagnostic>,
    out: &mut String,
) {
    let module = ctx.module;
    let ep = &module.entry_points[index];
    let span = entry_span(ctx, index);
    for arg in &ep.function.arguments {
        for io in io_parts(module, arg.ty, arg.binding.as_ref()) {
            match io.binding {
                Binding::Location {
                    location,
                    interpolation,
                    sampling,
                    ..
                } => {
                    let ty = types::type_name(ctx, needs, io.ty);
                    let q = if ep.stage == ShaderStage::Fragment {
                        interpolation_qualifiers(ctx, needs, interpolation, sampling, span)
                    } else {
                        String::new()
                    };
                    out.push_str("layout(location = ");
                    super::push_decimal(out, u64::from(location));
                    for part in [") ", &q, "in ", ty, " "] {
                        out.push_str(part);
                    }
                    push_location_name(out, ep.stage, false, location, None);
                    out.push_str(";\n");
                }
                Binding::BuiltIn(BuiltIn::Position { .. })
                    if ep.stage == ShaderStage::Fragment
                        && !ctx.dialect().is_es()
                        && !ctx.dialect().is_vulkan() =>
                {
                    out.push_str("layout(origin_upper_left) in vec4 gl_FragCoord;\n");
                }
                Binding::BuiltIn(b) => {
                    let _ = input_builtin(ctx, needs, b, span, warnings);
                }
            }
        }
    }
    if let Some(result) = &ep.function.result {
        for io in io_parts(module, result.ty, result.binding.as_ref()) {
            match io.binding {
                Binding::Location {
                    location,
                    interpolation,
                    sampling,
                    blend_src,
                    ..
                } => {
                    let ty = types::type_name(ctx, needs, io.ty);
                    let q = if ep.stage == ShaderStage::Vertex {
                        interpolation_qualifiers(ctx, needs, interpolation, sampling, span)
                    } else {
                        String::new()
                    };
                    out.push_str("layout(location = ");
                    super::push_decimal(out, u64::from(location));
                    if let Some(i) = blend_src {
                        if ctx.dialect().is_es() {
                            needs.extension("GL_EXT_blend_func_extended");
                        }
                        out.push_str(", index = ");
                        super::push_decimal(out, u64::from(i));
                    }
                    for part in [") ", &q, "out ", ty, " "] {
                        out.push_str(part);
                    }
                    push_location_name(out, ep.stage, true, location, blend_src);
                    out.push_str(";\n");
                }
                Binding::BuiltIn(BuiltIn::Position { invariant: true }) => {
                    out.push_str("invariant gl_Position;\n");
                }
                Binding::BuiltIn(b @ BuiltIn::ClipDistances) => {
                    if ctx.dialect().is_es() {
                        // GL_EXT_clip_cull_distance exists on some ES
                        // drivers, but glslang does not know it.
                        needs.errors.push(unsupported_builtin(ctx, b, span).note(
                            "GLSL ES 3.x has no gl_ClipDistance; clip in the fragment shader with `discard` instead",
                        ));
                    }
                    let n = array_len(module, io.ty);
                    let _ = writeln!(out, "out float gl_ClipDistance[{n}];");
                }
                Binding::BuiltIn(b @ BuiltIn::CullDistance) => {
                    if ctx.dialect().is_es() {
                        // GL_EXT_clip_cull_distance exists on some ES
                        // drivers, but glslang does not know it.
                        needs.errors.push(unsupported_builtin(ctx, b, span).note(
                            "GLSL ES 3.x has no gl_CullDistance; clip in the fragment shader with `discard` instead",
                        ));
                    }
                    let n = array_len(module, io.ty);
                    let _ = writeln!(out, "out float gl_CullDistance[{n}];");
                }
                Binding::BuiltIn(b) => {
                    let _ = output_builtin(ctx, needs, b, span);
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

/// A span for errors about entry point `index` (see [`text::entry_span`]).
fn entry_span(ctx: &Ctx<'_>, index: usize) -> naga::Span {
    text::entry_span(ctx.parsed, ctx.module, index)
}

/// The GLSL expression for an input builtin, with WGSL's type.
fn input_builtin(
    ctx: &Ctx<'_>,
    needs: &mut Needs,
    builtin: BuiltIn,
    span: naga::Span,
    warnings: &mut Vec<Diagnostic>,
) -> String {
    let dialect = ctx.dialect();
    let es310 = dialect == Dialect::Es310;
    match builtin {
        BuiltIn::Position { .. } => "gl_FragCoord".to_string(),
        BuiltIn::VertexIndex => {
            if dialect.is_vulkan() {
                "uint(gl_VertexIndex)".to_string()
            } else {
                "uint(gl_VertexID)".to_string()
            }
        }
        BuiltIn::InstanceIndex => match dialect {
            Dialect::Vulkan450 => "uint(gl_InstanceIndex)".to_string(),
            Dialect::Gl460 => "uint(gl_InstanceID + gl_BaseInstance)".to_string(),
            Dialect::Gl430 | Dialect::Gl440 | Dialect::Gl450 | Dialect::Es310 | Dialect::Es320 => {
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
                "uint(gl_InstanceID)".to_string()
            }
        },
        BuiltIn::BaseInstance | BuiltIn::BaseVertex | BuiltIn::DrawIndex => {
            let var = match builtin {
                BuiltIn::BaseInstance => "gl_BaseInstance",
                BuiltIn::BaseVertex => "gl_BaseVertex",
                _ => "gl_DrawID",
            };
            if !matches!(dialect, Dialect::Gl460 | Dialect::Vulkan450) {
                if dialect.is_es() {
                    needs.errors.push(unsupported_builtin(ctx, builtin, span));
                    return "0u".to_string();
                }
                needs.extension("GL_ARB_shader_draw_parameters");
                return format!("uint({var}ARB)");
            }
            if dialect.is_vulkan() {
                needs.extension("GL_ARB_shader_draw_parameters");
                return format!("uint({var}ARB)");
            }
            format!("uint({var})")
        }
        BuiltIn::FrontFacing => "gl_FrontFacing".to_string(),
        BuiltIn::SampleIndex => {
            if es310 {
                needs.extension("GL_OES_sample_variables");
            }
            "uint(gl_SampleID)".to_string()
        }
        BuiltIn::SampleMask => {
            if es310 {
                needs.extension("GL_OES_sample_variables");
            }
            "uint(gl_SampleMaskIn[0])".to_string()
        }
        BuiltIn::PointCoord => "gl_PointCoord".to_string(),
        BuiltIn::PrimitiveIndex => {
            if es310 {
                needs.extension("GL_EXT_geometry_shader");
            }
            "uint(gl_PrimitiveID)".to_string()
        }
        BuiltIn::ViewIndex => {
            if dialect.is_vulkan() {
                needs.extension("GL_EXT_multiview");
                "int(gl_ViewIndex)".to_string()
            } else {
                needs.extension("GL_OVR_multiview2");
                "int(gl_ViewID_OVR)".to_string()
            }
        }
        BuiltIn::Barycentric { perspective } => {
            needs.extension("GL_EXT_fragment_shader_barycentric");
            if perspective {
                "gl_BaryCoordEXT".to_string()
            } else {
                "gl_BaryCoordNoPerspEXT".to_string()
            }
        }
        BuiltIn::GlobalInvocationId => "gl_GlobalInvocationID".to_string(),
        BuiltIn::LocalInvocationId => "gl_LocalInvocationID".to_string(),
        BuiltIn::LocalInvocationIndex => "gl_LocalInvocationIndex".to_string(),
        BuiltIn::WorkGroupId => "gl_WorkGroupID".to_string(),
        BuiltIn::WorkGroupSize => "gl_WorkGroupSize".to_string(),
        BuiltIn::NumWorkGroups => "gl_NumWorkGroups".to_string(),
        BuiltIn::NumSubgroups => {
            needs.extension("GL_KHR_shader_subgroup_basic");
            "gl_NumSubgroups".to_string()
        }
        BuiltIn::SubgroupId => {
            needs.extension("GL_KHR_shader_subgroup_basic");
            "gl_SubgroupID".to_string()
        }
        BuiltIn::SubgroupSize => {
            needs.extension("GL_KHR_shader_subgroup_basic");
            "gl_SubgroupSize".to_string()
        }
        BuiltIn::SubgroupInvocationId => {
            needs.extension("GL_KHR_shader_subgroup_basic");
            "gl_SubgroupInvocationID".to_string()
        }
        _ => {
            needs.errors.push(unsupported_builtin(ctx, builtin, span));
            "0".to_string()
        }
    }
}

fn unsupported_builtin(ctx: &Ctx<'_>, builtin: BuiltIn, span: naga::Span) -> Diagnostic {
    super::error_at(
        format!(
            "@builtin({}) cannot be written in {}",
            builtin_wgsl_name(builtin),
            ctx.dialect()
        ),
        span,
        "this entry point uses it",
    )
}

/// A builtin as WGSL spells it, for messages.
fn builtin_wgsl_name(builtin: BuiltIn) -> String {
    let name = match builtin {
        BuiltIn::Position { .. } => "position",
        BuiltIn::ClipDistances => "clip_distances",
        BuiltIn::CullDistance => "cull_distance",
        BuiltIn::PrimitiveIndex => "primitive_index",
        BuiltIn::ViewIndex => "view_index",
        BuiltIn::BaseInstance => "base_instance",
        BuiltIn::BaseVertex => "base_vertex",
        BuiltIn::DrawIndex => "draw_index",
        BuiltIn::InstanceIndex => "instance_index",
        BuiltIn::VertexIndex => "vertex_index",
        BuiltIn::PointSize => "point_size",
        BuiltIn::FragDepth => "frag_depth",
        BuiltIn::PointCoord => "point_coord",
        BuiltIn::FrontFacing => "front_facing",
        BuiltIn::Barycentric { .. } => "barycentric",
        BuiltIn::SampleIndex => "sample_index",
        BuiltIn::SampleMask => "sample_mask",
        BuiltIn::SubgroupSize => "subgroup_size",
        BuiltIn::SubgroupInvocationId => "subgroup_invocation_id",
        other => return format!("{other:?}"),
    };
    name.to_string()
}

/// The GLSL variable an output builtin is written to; `None` for the
/// builtins written element by element (clip and cull distances).
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
        BuiltIn::ClipDistances | BuiltIn::CullDistance => None,
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
/// memory they use (see the module doc).
pub fn entry_prologue(ctx: &Ctx<'_>, needs: &mut Needs, index: usize) -> String {
    let module = ctx.module;
    let Some(ep) = module.entry_points.get(index) else {
        return String::new();
    };
    let span = entry_span(ctx, index);
    let mut out = String::with_capacity(256);
    out.push_str(&zero_workgroup_memory(ctx, needs, index));
    let mut ignored = Vec::new();
    for (i, arg) in ep.function.arguments.iter().enumerate() {
        let ty = types::type_name(ctx, needs, arg.ty);
        let name = ctx.name(NameKey::EntryPointArgument(index as u16, i as u32));
        let mut exprs = Vec::new();
        for io in io_parts(module, arg.ty, arg.binding.as_ref()) {
            let e = match io.binding {
                Binding::Location { location, .. } => {
                    let mut name = String::with_capacity(12);
                    push_location_name(&mut name, ep.stage, false, location, None);
                    name
                }
                Binding::BuiltIn(b) => input_builtin(ctx, needs, b, span, &mut ignored),
            };
            exprs.push(e);
        }
        let value = if arg.binding.is_some() {
            exprs.pop().unwrap_or_default()
        } else {
            format!("{ty}({})", exprs.join(", "))
        };
        for part in ["    ", ty, " ", name, " = ", &value, ";\n"] {
            out.push_str(part);
        }
    }
    out
}

/// Statements (each starting with `indent`) that write the entry point's
/// result `value` (a side-effect-free expression, possibly used several
/// times) to its outputs. `func` follows them with `return;`.
pub fn entry_return(
    ctx: &Ctx<'_>,
    needs: &mut Needs,
    index: usize,
    value: &str,
    indent: &str,
) -> String {
    let module = ctx.module;
    let Some(ep) = module.entry_points.get(index) else {
        return String::new();
    };
    let Some(result) = &ep.function.result else {
        return String::new();
    };
    let span = entry_span(ctx, index);
    let mut out = String::with_capacity(256);
    for io in io_parts(module, result.ty, result.binding.as_ref()) {
        let access: std::borrow::Cow<'_, str> = match io.member {
            Some(m) => {
                let member = ctx.name(NameKey::StructMember(result.ty, m));
                [value, ".", member].concat().into()
            }
            None => value.into(),
        };
        match io.binding {
            Binding::Location {
                location,
                blend_src,
                ..
            } => {
                out.push_str(indent);
                push_location_name(&mut out, ep.stage, true, location, blend_src);
                for part in [" = ", &access, ";\n"] {
                    out.push_str(part);
                }
            }
            Binding::BuiltIn(BuiltIn::ClipDistances) => {
                for k in 0..array_len(module, io.ty) {
                    let _ = writeln!(out, "{indent}gl_ClipDistance[{k}] = {access}[{k}];");
                }
            }
            Binding::BuiltIn(BuiltIn::CullDistance) => {
                for k in 0..array_len(module, io.ty) {
                    let _ = writeln!(out, "{indent}gl_CullDistance[{k}] = {access}[{k}];");
                }
            }
            Binding::BuiltIn(BuiltIn::SampleMask) => {
                if let Some(var) = output_builtin(ctx, needs, BuiltIn::SampleMask, span) {
                    let _ = writeln!(out, "{indent}{var} = int({access});");
                }
            }
            Binding::BuiltIn(b @ BuiltIn::Position { .. }) => {
                if let Some(var) = output_builtin(ctx, needs, b, span) {
                    for part in [indent, var, " = ", &access, ";\n"] {
                        out.push_str(part);
                    }
                }
                if ep.stage == ShaderStage::Vertex {
                    out.push_str(indent);
                    out.push_str(if ctx.dialect().is_vulkan() {
                        "gl_Position.y = -gl_Position.y;\n"
                    } else {
                        "gl_Position.z = 2.0 * gl_Position.z - gl_Position.w;\n"
                    });
                }
            }
            Binding::BuiltIn(b) => {
                if let Some(var) = output_builtin(ctx, needs, b, span) {
                    for part in [indent, var, " = ", &access, ";\n"] {
                        out.push_str(part);
                    }
                }
            }
        }
    }
    out
}

/// Invocation 0 zeroes every workgroup variable the entry point uses; then
/// all invocations wait at a barrier.
fn zero_workgroup_memory(ctx: &Ctx<'_>, needs: &mut Needs, index: usize) -> String {
    let mut stores = String::new();
    for h in zeroed_workgroup_variables(ctx.module, ctx.info, index) {
        let var = &ctx.module.global_variables[h];
        let name = ctx.name(NameKey::GlobalVariable(h)).to_string();
        zero_store(ctx, needs, &name, var.ty, "        ", 0, &mut stores);
    }
    if stores.is_empty() {
        return String::new();
    }
    format!("    if (gl_LocalInvocationIndex == 0u) {{\n{stores}    }}\n    barrier();\n")
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
    if !holds_long_array(module, ty) {
        let zero = types::zero_value(ctx, needs, ty);
        let _ = writeln!(out, "{indent}{lvalue} = {zero};");
        return;
    }
    match module.types.get_handle(ty).map(|t| &t.inner) {
        Ok(TypeInner::Array {
            base,
            size: naga::ArraySize::Constant(n),
            ..
        }) => {
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
        Ok(TypeInner::Struct { members, .. }) => {
            for (m, member) in members.iter().enumerate() {
                let field = format!("{lvalue}.{}", ctx.name(NameKey::StructMember(ty, m as u32)));
                zero_store(ctx, needs, &field, member.ty, indent, depth, out);
            }
        }
        _ => {
            let zero = types::zero_value(ctx, needs, ty);
            let _ = writeln!(out, "{indent}{lvalue} = {zero};");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names_of(source: &str) -> (naga::Module, naga::FastHashMap<NameKey, String>) {
        let module = naga::front::wgsl::parse_str(source).expect("parses");
        let names = module_names(&module);
        (module, names)
    }

    #[test]
    fn reserved_prefix_names_have_no_double_underscore() {
        let (module, names) = names_of(
            "var<private> _s_x: f32;
             var<private> gen_s_x: f32;
             @compute @workgroup_size(1) fn main() { _s_x = gen_s_x; }",
        );
        let mut globals: Vec<&str> = module
            .global_variables
            .iter()
            .map(|(h, _)| names[&NameKey::GlobalVariable(h)].as_str())
            .collect();
        globals.sort_unstable();
        assert!(globals.iter().all(|n| !n.contains("__")), "{globals:?}");
        assert_eq!(globals.len(), 2);
        assert_ne!(globals[0], globals[1]);
    }

    #[test]
    fn entry_point_named_main_is_renamed_but_functions_keep_names() {
        let (module, names) = names_of(
            "fn helper() -> f32 { return 1.0; }
             @compute @workgroup_size(1) fn main() { _ = helper(); }",
        );
        assert_eq!(names[&NameKey::EntryPoint(0)], "main_");
        let (h, _) = module.functions.iter().next().expect("a function");
        assert_eq!(names[&NameKey::Function(h)], "helper");
    }

    #[test]
    fn reachable_functions_follow_calls_in_arena_order() {
        let module = naga::front::wgsl::parse_str(
            "fn a() -> f32 { return 1.0; }
             fn b() -> f32 { return a(); }
             fn unused() {}
             @compute @workgroup_size(1) fn main() { if true { _ = b(); } }",
        )
        .expect("parses");
        let names: Vec<_> = reachable_functions(&module, 0)
            .into_iter()
            .map(|f| module.functions[f].name.clone().unwrap_or_default())
            .collect();
        assert_eq!(names, ["a", "b"]);
    }

    #[test]
    fn float_literals_keep_a_point() {
        let mut needs = Needs::default();
        assert_eq!(literal(&mut needs, &naga::Literal::F32(1.0)), "1.0");
        assert_eq!(literal(&mut needs, &naga::Literal::F32(0.5)), "0.5");
        assert_eq!(literal(&mut needs, &naga::Literal::U32(7)), "7u");
        assert_eq!(literal(&mut needs, &naga::Literal::I32(-3)), "-3");
        assert_eq!(literal(&mut needs, &naga::Literal::Bool(true)), "true");
    }

    #[test]
    fn interface_names_match_across_stages() {
        assert_eq!(
            location_name(ShaderStage::Vertex, true, 2, None),
            location_name(ShaderStage::Fragment, false, 2, None)
        );
        assert_eq!(
            location_name(ShaderStage::Vertex, false, 0, None),
            "_s_attr0"
        );
        assert_eq!(
            location_name(ShaderStage::Fragment, true, 0, Some(1)),
            "_s_frag0_1"
        );
    }
}

#[cfg(test)]
mod module_tests {
    use super::*;
    use crate::back::common::remap_contract;

    const OVERRIDES: &str = "
        struct Unused { x: f32 }
        struct Inner { a: vec2<f32>, b: f32 }
        struct Params { inner: Inner, scale: f32 }
        override gain: f32 = 2.0;
        @group(0) @binding(0) var<uniform> params: Params;
        @group(0) @binding(1) var<storage, read_write> out_data: array<f32>;
        @compute @workgroup_size(1) fn main() { out_data[0] = params.scale * params.inner.b * gain; }
    ";

    #[test]
    fn baking_remaps_the_contract_onto_the_compacted_module() {
        let crate::Analysis {
            parsed,
            info,
            contract,
            ..
        } = crate::analyze(OVERRIDES).expect("valid");
        let options = GlslOptions {
            dialect: Dialect::Gl450,
            ..Default::default()
        };
        let (baked, _, warnings) = bake_overrides(&parsed.module, &info, &options).expect("bakes");
        assert_eq!(warnings.len(), 1);
        assert!(
            warnings[0].message.contains("`gain`"),
            "{}",
            warnings[0].message
        );
        let remapped = remap_contract(&contract, &parsed.module, &baked);
        assert_eq!(remapped.globals.len(), contract.globals.len());
        for g in &remapped.globals {
            let var = &baked.global_variables[g.handle];
            assert_eq!(var.name.as_deref(), Some(g.name.as_str()));
        }
        assert_eq!(remapped.structs.len(), contract.structs.len());
        for (h, s) in &remapped.structs {
            assert_eq!(baked.types[*h].name.as_deref(), Some(s.name.as_str()));
            assert_eq!(s.ty, *h);
        }
    }

    #[test]
    fn unknown_override_and_entry_point_are_errors() {
        let crate::Analysis {
            parsed,
            info,
            contract,
            ..
        } = crate::analyze(OVERRIDES).expect("valid");
        let options = GlslOptions {
            overrides: vec![("nope".to_string(), 1.0)],
            ..Default::default()
        };
        let e = write_module(&parsed, &info, &contract, &options).expect_err("unknown override");
        assert!(e.0[0].message.contains("no override named `nope`"));
        let options = GlslOptions {
            entry_point: Some("other".to_string()),
            ..Default::default()
        };
        let e = write_module(&parsed, &info, &contract, &options).expect_err("unknown entry");
        assert!(e.0[0].message.contains("no entry point named `other`"));
        assert!(e.0[0].notes.iter().any(|n| n.contains("`main`")));
    }

    #[test]
    fn vulkan_keeps_literal_overrides_as_specialization_constants() {
        let module = naga::front::wgsl::parse_str(
            "override a: f32 = 1.0; @id(0) override b: u32 = 3u;
             @compute @workgroup_size(1) fn main() { _ = a * f32(b); }",
        )
        .expect("parses");
        let vulkan = GlslOptions::default();
        assert!(!must_bake(&module, &vulkan));
        let gl = GlslOptions {
            dialect: Dialect::Es310,
            ..Default::default()
        };
        assert!(must_bake(&module, &gl));
        let sized = naga::front::wgsl::parse_str(
            "override n: u32 = 4u;
             @compute @workgroup_size(n) fn main() {}",
        )
        .expect("parses");
        assert!(must_bake(&sized, &vulkan));
        let derived = naga::front::wgsl::parse_str(
            "override a: f32 = 1.0; override b: f32 = a * 2.0;
             @compute @workgroup_size(1) fn main() { _ = b; }",
        )
        .expect("parses");
        assert!(must_bake(&derived, &vulkan));
    }
}
