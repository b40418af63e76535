//! Binding assignment for resources, after ../shared/spec/001 ("Parameter
//! Layout Rules"), for what a WGSL module declares.
//!
//! - The global order is declaration order in the source (WGSL entry points
//!   take no resource parameters).
//! - Explicit bindings (`@group(g) @binding(b)`) are reserved first. Two
//!   resources that reserve the same binding are an error naming both, at
//!   both spans, when some entry point statically uses both; WGSL allows
//!   the same binding for resources that no single entry point shares.
//! - A resource whose `@binding` the dialect lets the source omit (with or
//!   without `@group`) is then given, in declaration order, the first free
//!   binding of its group (`@group` if written, else 0). In Vulkan terms a
//!   resource takes one descriptor binding, binding arrays included, so the
//!   first free range is one binding. Every allocation is reported
//!   ([`Allocation`]), and `--target reflect` marks it.
//!
//! The assignment depends on declarations only, never on function bodies:
//! changing a body cannot move a binding, and a resource declared the same
//! way takes the same resources in every module.
//!
//! From these bindings, the other APIs' assignments are derived after
//! layout as data (`crate::bind`), which the writers print and `--target
//! reflect` reports.

use crate::diag::{Diagnostic, Diagnostics, Span};
use crate::front::dialect::Annotations;
use naga::{AddressSpace, GlobalVariable, Handle, ResourceBinding};

/// One binding stride chose for a resource whose source omits `@binding`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Allocation {
    pub global: Handle<GlobalVariable>,
    /// The WGSL name.
    pub name: String,
    pub group: u32,
    pub binding: u32,
}

/// Whether a global is a resource that needs a binding.
pub fn is_resource(var: &GlobalVariable) -> bool {
    matches!(
        var.space,
        AddressSpace::Uniform | AddressSpace::Storage { .. } | AddressSpace::Handle
    )
}

/// For every global, whether entry point `index` statically uses it (in
/// its own body or in any function it calls).
pub fn used_by_entry_point(module: &naga::Module, index: usize) -> Vec<bool> {
    let mut used = vec![false; module.global_variables.len()];
    let mut mark = |exprs: &naga::Arena<naga::Expression>| {
        for (_, e) in exprs.iter() {
            if let naga::Expression::GlobalVariable(g) = *e {
                if let Some(slot) = used.get_mut(g.index()) {
                    *slot = true;
                }
            }
        }
    };
    if let Some(ep) = module.entry_points.get(index) {
        mark(&ep.function.expressions);
    }
    for f in super::module::reachable_functions(module, index) {
        if let Ok(func) = module.functions.try_get(f) {
            mark(&func.expressions);
        }
    }
    used
}

/// The span that names global `h`: its name in the source, else naga's
/// span for it.
fn global_span(module: &naga::Module, ann: &Annotations, h: Handle<GlobalVariable>) -> Span {
    let var = &module.global_variables[h];
    var.name
        .as_deref()
        .and_then(|n| ann.globals.get(n))
        .map(|g| g.name_span.clone())
        .unwrap_or_else(|| {
            module
                .global_variables
                .get_span(h)
                .to_range()
                .unwrap_or(0..0)
        })
}

/// The binding of global `h` when it is a resource written with one.
fn explicit(module: &naga::Module, h: Handle<GlobalVariable>) -> Option<ResourceBinding> {
    let var = &module.global_variables[h];
    var.binding.filter(|_| is_resource(var))
}

/// Whether the globals' spans start strictly increasing in arena order, so
/// that the arena order is the declaration order
/// ([`module::declaration_order`] sorts by span start first).
fn in_span_order(module: &naga::Module) -> bool {
    let mut last = None;
    for (h, _) in module.global_variables.iter() {
        let Some(r) = module.global_variables.get_span(h).to_range() else {
            return false;
        };
        if last.is_some_and(|l| l >= r.start) {
            return false;
        }
        last = Some(r.start);
    }
    true
}

/// The globals in declaration order: `sorted`, or the arena's order where
/// that is the declaration order (`sorted` is `None`).
fn in_order<'a>(
    module: &'a naga::Module,
    sorted: Option<&'a [Handle<GlobalVariable>]>,
) -> impl Iterator<Item = Handle<GlobalVariable>> + 'a {
    let arena = sorted
        .is_none()
        .then(|| module.global_variables.iter().map(|(h, _)| h));
    sorted
        .into_iter()
        .flatten()
        .copied()
        .chain(arena.into_iter().flatten())
}

/// Check the explicit bindings and allocate the omitted ones, writing them
/// into `module`; the allocations in declaration order.
pub fn assign(
    module: &mut naga::Module,
    ann: &Annotations,
) -> Result<Vec<Allocation>, Diagnostics> {
    // Declaration order is usually the arena's own: then no sorted copy.
    let sorted = (!in_span_order(module)).then(|| super::module::declaration_order(module));
    let order = || in_order(module, sorted.as_deref());
    let mut errors = Diagnostics::new();

    // Check the explicit bindings; report pairs some entry point shares.
    // (Which globals each entry point uses is only worked out once two
    // resources share a binding.)
    let mut uses: Option<Vec<Vec<bool>>> = None;
    for (i, h) in order().enumerate() {
        let Some(rb) = explicit(module, h) else {
            continue;
        };
        for other in order().take(i) {
            if explicit(module, other) != Some(rb) {
                continue;
            }
            let uses = uses.get_or_insert_with(|| {
                (0..module.entry_points.len())
                    .map(|i| used_by_entry_point(module, i))
                    .collect()
            });
            let Some(ep) = uses.iter().position(|u| u[h.index()] && u[other.index()]) else {
                continue;
            };
            let name = |g: Handle<GlobalVariable>| {
                module.global_variables[g]
                    .name
                    .clone()
                    .unwrap_or_else(|| "?".to_string())
            };
            errors.push(
                Diagnostic::error(format!(
                    "`{}` and `{}` both use @group({}) @binding({}), and entry point `{}` uses both",
                    name(other),
                    name(h),
                    rb.group,
                    rb.binding,
                    module.entry_points[ep].name
                ))
                .at(
                    global_span(module, ann, h),
                    format!("@group({}) @binding({}) again", rb.group, rb.binding),
                )
                .also(global_span(module, ann, other), "first bound here")
                .note("WGSL lets resources share a binding only when no entry point uses two of them")
                .note("help: give one of them another `@binding`, or omit its `@binding` and stride allocates a free one"),
            );
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }

    // `@group` without `@binding` was taken from naga; on anything but a
    // resource it would be lost silently.
    for h in order() {
        let var = &module.global_variables[h];
        if is_resource(var) {
            continue;
        }
        let Some(g) = var
            .name
            .as_deref()
            .and_then(|n| ann.globals.get(n))
            .and_then(|g| g.group.as_ref())
        else {
            continue;
        };
        errors.push(
            Diagnostic::error(format!(
                "`@group` on `{}`, which is not a resource",
                var.name.as_deref().unwrap_or("?")
            ))
            .at(
                g.span.clone(),
                "only buffers, textures and samplers have bindings",
            )
            .note("help: remove `@group`"),
        );
    }
    if !errors.is_empty() {
        return Err(errors);
    }

    // Allocate the omitted ones: the first free range of the group, one
    // binding for a resource, one per split global for a parameter.
    // Without split parameters (the usual case) every range is one global:
    // no name table is needed.
    let mut ranges: Vec<Vec<Handle<GlobalVariable>>> = Vec::new();
    let mut in_param = Vec::new();
    let ranged = !ann.params.is_empty() || !ann.externals.is_empty();
    if ranged {
        in_param = vec![false; module.global_variables.len()];
    }
    let by_name: std::collections::HashMap<&str, Handle<GlobalVariable>> = if !ranged {
        std::collections::HashMap::new()
    } else {
        order()
            .filter_map(|h| Some((module.global_variables[h].name.as_deref()?, h)))
            .collect()
    };
    // A texture_external takes a range too: plane 1 and its parameters,
    // and plane 0 where its `@binding` is omitted (`front::external`).
    // A parameter's range holds a texture_external member's plane 1 and
    // parameter buffer right after plane 0 (`external::param_globals`).
    let params = ann.params.iter().map(|p| {
        let globals = super::external::param_globals(p, &ann.externals);
        globals.into_iter().map(|(_, g)| g).collect::<Vec<_>>()
    });
    let in_params: std::collections::HashSet<&str> = ann
        .params
        .iter()
        .flat_map(|p| p.fields.iter().map(|f| f.global.as_str()))
        .collect();
    let externals = ann
        .externals
        .iter()
        .filter(|e| !in_params.contains(e.name.as_str()))
        .map(|e| e.allocated().collect());
    for globals in params.chain(externals) {
        let handles: Vec<_> = globals
            .into_iter()
            .filter_map(|g| by_name.get(g).copied())
            .collect();
        for h in &handles {
            in_param[h.index()] = true;
        }
        ranges.push(handles);
    }
    let mut todo: Vec<Vec<Handle<GlobalVariable>>> = Vec::new();
    for h in order() {
        let var = &module.global_variables[h];
        if var.binding.is_some() || !is_resource(var) {
            continue;
        }
        if !in_param.get(h.index()).copied().unwrap_or(false) {
            todo.push(vec![h]);
        } else if let Some(r) = ranges.iter_mut().find(|r| r.contains(&h)) {
            todo.push(std::mem::take(r));
        }
    }
    if todo.is_empty() {
        return Ok(Vec::new());
    }
    // The bindings taken so far: the explicit ones, then each allocated.
    let mut reserved: Vec<(ResourceBinding, Handle<GlobalVariable>)> = order()
        .filter_map(|h| Some((explicit(module, h)?, h)))
        .collect();
    let mut allocations = Vec::new();
    for range in todo {
        let Some(&first) = range.first() else {
            continue;
        };
        let group = module.global_variables[first]
            .name
            .as_deref()
            .and_then(|n| ann.globals.get(n))
            .and_then(|g| g.group.as_ref())
            .map_or(0, |g| g.value);
        let len = range.len() as u32;
        let taken = |b: u32| {
            reserved
                .iter()
                .any(|(rb, _)| rb.group == group && rb.binding == b)
        };
        let mut binding = 0u32;
        while (binding..binding.saturating_add(len)).any(taken) {
            binding += 1;
        }
        for (k, &h) in range.iter().enumerate() {
            let rb = ResourceBinding {
                group,
                binding: binding + k as u32,
            };
            reserved.push((rb, h));
            module.global_variables[h].binding = Some(rb);
            allocations.push(Allocation {
                global: h,
                name: module.global_variables[h].name.clone().unwrap_or_default(),
                group,
                binding: rb.binding,
            });
        }
    }
    Ok(allocations)
}

#[cfg(test)]
mod tests {
    use crate::front;

    fn allocations(source: &str) -> Vec<(String, u32, u32)> {
        let parsed = front::parse(source)
            .unwrap_or_else(|d| panic!("{}", d.render("t.wgsl", source, false)));
        parsed
            .allocations
            .iter()
            .map(|a| (a.name.clone(), a.group, a.binding))
            .collect()
    }

    fn errors(source: &str) -> Vec<crate::diag::Diagnostic> {
        match front::parse(source) {
            Ok(_) => panic!("no error for:\n{source}"),
            Err(d) => d.iter().cloned().collect(),
        }
    }

    #[test]
    fn omitted_bindings_take_the_first_free_binding_of_their_group() {
        let got = allocations(
            "var a: texture_2d<f32>;
@group(0) @binding(0) var s: sampler;
var b: texture_2d<f32>;
@group(1) var c: texture_2d<f32>;
@group(0) @binding(2) var d: texture_2d<f32>;
@group(1) @binding(0) var<uniform> u: vec4<f32>;
var<storage> e: array<u32>;
var<private> p: f32;
@fragment fn main() -> @location(0) vec4<f32> { return vec4(p); }",
        );
        // Explicit 0 and 2 in group 0, 0 in group 1 are reserved first;
        // then in declaration order: a -> 1, b -> 3, c -> group 1 binding 1,
        // e -> 4. The private `p` is not a resource.
        assert_eq!(
            got,
            vec![
                ("a".to_string(), 0, 1),
                ("b".to_string(), 0, 3),
                ("c".to_string(), 1, 1),
                ("e".to_string(), 0, 4),
            ]
        );
    }

    #[test]
    fn the_assignment_ignores_function_bodies() {
        let decls = "enable wgpu_binding_array;
var a: texture_2d<f32>;
var s: sampler;
@group(0) @binding(1) var<uniform> u: vec4<f32>;
var b: binding_array<texture_2d<f32>, 4>;
";
        let quiet =
            format!("{decls}@fragment fn main() -> @location(0) vec4<f32> {{ return vec4(0.0); }}");
        let busy = format!(
            "{decls}@fragment fn main() -> @location(0) vec4<f32> {{ return textureSample(a, s, vec2(0.5)) + textureSample(b[1], s, vec2(0.5)) + u; }}"
        );
        let first = allocations(&quiet);
        assert_eq!(first, allocations(&busy));
        // Contiguous from the first free binding; the binding array takes
        // one Vulkan binding.
        let bindings: Vec<u32> = first.iter().map(|a| a.2).collect();
        assert_eq!(bindings, vec![0, 2, 3]);
    }

    #[test]
    fn one_binding_for_two_resources_of_one_entry_point_names_both() {
        let source = "@group(0) @binding(3) var a: texture_2d<f32>;
@group(0) @binding(3) var b: texture_2d<f32>;
@fragment fn main() -> @location(0) vec4<f32> { return textureLoad(a, vec2(0), 0) + textureLoad(b, vec2(0), 0); }";
        let errs = errors(source);
        assert_eq!(errs.len(), 1, "{errs:?}");
        let e = &errs[0];
        assert!(
            e.message
                .contains("`a` and `b` both use @group(0) @binding(3)"),
            "{}",
            e.message
        );
        assert!(e.message.contains("entry point `main`"), "{}", e.message);
        let spans: Vec<&str> = e.labels.iter().map(|l| &source[l.span.clone()]).collect();
        assert_eq!(spans, vec!["b", "a"]);
    }

    #[test]
    fn one_binding_for_resources_of_different_entry_points_is_allowed() {
        let source = "@group(0) @binding(3) var a: texture_2d<f32>;
@group(0) @binding(3) var b: texture_2d<f32>;
@fragment fn fa() -> @location(0) vec4<f32> { return textureLoad(a, vec2(0), 0); }
@fragment fn fb() -> @location(0) vec4<f32> { return textureLoad(b, vec2(0), 0); }";
        assert!(allocations(source).is_empty());
    }

    #[test]
    fn group_without_binding_must_be_a_literal() {
        let source = "const G = 1u;
@group(G) var a: texture_2d<f32>;
@fragment fn main() -> @location(0) vec4<f32> { return vec4(0.0); }";
        let errs = errors(source);
        assert!(
            errs.iter().any(|e| e
                .message
                .contains("without `@binding` needs an integer literal")),
            "{errs:?}"
        );
    }

    #[test]
    fn group_on_a_non_resource_is_an_error() {
        let source = "@group(1) var<private> p: f32;
@fragment fn main() -> @location(0) vec4<f32> { return vec4(p); }";
        let errs = errors(source);
        assert!(
            errs.iter().any(|e| e.message.contains("not a resource")),
            "{errs:?}"
        );
    }
}
