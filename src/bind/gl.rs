//! GLSL bindings: Vulkan GLSL keeps the WGSL `@group`/`@binding` as
//! `set`/`binding` (push constants are `layout(push_constant)`, with no
//! binding). OpenGL and ES have no sets: bindings are allocated per kind
//! (uniform blocks (push constants included), storage blocks, texture
//! units, image units), each from 0, over the whole module (not per entry
//! point, so the files of one module agree), in declaration order (source
//! position) of the WGSL globals; a binding array takes a contiguous range.
//! Texture units go to the combined samplers: every (texture, sampler)
//! pair some entry point samples with, plus (texture, none) for a texture
//! read without a sampler (`textureLoad`, `textureDimensions`, ...),
//! ordered by texture then sampler (none last) in declaration order. Each
//! file (entry point) declares the pairs its entry point uses.

use crate::diag::{Diagnostic, Diagnostics};
use crate::front::module::{
    binding_count, element_inner, global_range, reachable_functions, visit_calls,
};
use indexmap::IndexMap;
use naga::{AddressSpace, Handle, ImageClass, TypeInner};
use naga::{FastIndexMap, FastIndexSet};

type GlobalHandle = Handle<naga::GlobalVariable>;

/// A texture and the sampler it is used with (`None`: read without one).
pub type Pair = (GlobalHandle, Option<GlobalHandle>);

/// Where one resource global is bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot {
    /// Descriptor set (Vulkan); `None` in OpenGL dialects.
    pub set: Option<u32>,
    pub binding: u32,
    /// `uniform-block`, `push-constant` (Vulkan only; OpenGL binds push
    /// constants as uniform blocks), `storage-block`, `image`, `texture`,
    /// `sampler`.
    pub kind: &'static str,
}

/// The GLSL bindings of a module for one dialect family.
#[derive(Clone, Debug, Default)]
pub struct GlBindings {
    /// Per global (by handle index).
    pub globals: Vec<Option<Slot>>,
    /// OpenGL: the texture unit of every combined sampler; empty for
    /// Vulkan.
    pub units: IndexMap<Pair, u32>,
    /// OpenGL: per entry point, the combined samplers its file declares
    /// (the pairs it uses, in unit order); empty for Vulkan.
    pub entry_pairs: Vec<Vec<Pair>>,
}

impl GlBindings {
    /// The binding of global `h`, when it is a resource with one.
    pub fn global(&self, h: GlobalHandle) -> Option<Slot> {
        self.globals.get(h.index()).copied().flatten()
    }
}

/// The binding kind of a global (see [`Slot::kind`], Vulkan's), `None`
/// for non-resources.
pub fn resource_kind(module: &naga::Module, var: &naga::GlobalVariable) -> Option<&'static str> {
    match var.space {
        AddressSpace::Uniform => Some("uniform-block"),
        AddressSpace::Immediate => Some("push-constant"),
        AddressSpace::Storage { .. } => Some("storage-block"),
        AddressSpace::Handle => match element_inner(module, var.ty) {
            TypeInner::Image {
                class: ImageClass::Storage { .. },
                ..
            } => Some("image"),
            TypeInner::Image { .. } => Some("texture"),
            TypeInner::Sampler { .. } => Some("sampler"),
            _ => None,
        },
        _ => None,
    }
}

/// A module's GLSL assignment for one dialect family: the pairs its
/// combined samplers are made of and the bindings, or the resources that
/// have none.
#[derive(Clone, Debug)]
pub struct GlAssignment {
    /// Vulkan: every (texture, sampler) pair an entry point samples with
    /// (Vulkan combines them at each use, but names them); OpenGL: those
    /// and every texture read without a sampler, each a combined sampler.
    pub pairs: Vec<Pair>,
    /// The bindings, or the runtime-sized binding arrays OpenGL cannot
    /// bind (in the order they are reported).
    bindings: Result<GlBindings, Vec<GlobalHandle>>,
}

impl GlAssignment {
    /// The bindings; an error per runtime-sized binding array, which
    /// `dialect` (its name, in the message) cannot bind.
    pub fn bindings(
        &self,
        module: &naga::Module,
        dialect: &str,
    ) -> Result<&GlBindings, Diagnostics> {
        self.bindings.as_ref().map_err(|unbound| {
            Diagnostics(
                unbound
                    .iter()
                    .map(|&h| runtime_binding_array(module, h, dialect))
                    .collect(),
            )
        })
    }
}

/// The bindings of `module` (see the module doc): Vulkan's when `vulkan`,
/// else OpenGL's, with texture units for every pair of the module
/// ([`combined_pairs`] with the unsampled textures). `order` is the
/// module's declaration order.
pub fn assign(
    module: &naga::Module,
    info: &naga::valid::ModuleInfo,
    order: &[GlobalHandle],
    vulkan: bool,
) -> GlAssignment {
    let pairs = combined_pairs(module, info, order, !vulkan);
    let bindings = assign_pairs(module, info, order, &pairs, vulkan);
    GlAssignment { pairs, bindings }
}

fn assign_pairs(
    module: &naga::Module,
    info: &naga::valid::ModuleInfo,
    order: &[GlobalHandle],
    pairs: &[Pair],
    vulkan: bool,
) -> Result<GlBindings, Vec<GlobalHandle>> {
    let mut globals = vec![None; module.global_variables.len()];
    if vulkan {
        for (h, var) in module.global_variables.iter() {
            let (Some(kind), Some(rb)) = (resource_kind(module, var), var.binding.as_ref()) else {
                continue;
            };
            globals[h.index()] = Some(Slot {
                set: Some(rb.group),
                binding: rb.binding,
                kind,
            });
        }
        return Ok(GlBindings {
            globals,
            ..Default::default()
        });
    }
    let mut unbound = Vec::new();
    let (mut uniform, mut storage, mut image) = (0u32, 0u32, 0u32);
    for &h in order {
        let var = &module.global_variables[h];
        let Some(kind) = resource_kind(module, var) else {
            continue;
        };
        let counter = match kind {
            "uniform-block" | "push-constant" => &mut uniform,
            "storage-block" => &mut storage,
            "image" => &mut image,
            _ => continue,
        };
        let Some(count) = binding_count(module, var.ty) else {
            unbound.push(h);
            continue;
        };
        globals[h.index()] = Some(Slot {
            set: None,
            binding: *counter,
            kind: if kind == "push-constant" {
                "uniform-block"
            } else {
                kind
            },
        });
        *counter = counter.saturating_add(count);
    }
    let mut units = IndexMap::new();
    let mut unit = 0u32;
    for &pair in pairs {
        let Some(count) = binding_count(module, module.global_variables[pair.0].ty) else {
            unbound.push(pair.0);
            continue;
        };
        units.insert(pair, unit);
        unit = unit.saturating_add(count);
    }
    if !unbound.is_empty() {
        return Err(unbound);
    }
    let entry_pairs = (0..module.entry_points.len())
        .map(|i| {
            entry_pairs(module, info, order, i, true)
                .into_iter()
                .filter(|p| units.contains_key(p))
                .collect()
        })
        .collect();
    Ok(GlBindings {
        globals,
        units,
        entry_pairs,
    })
}

fn runtime_binding_array(module: &naga::Module, h: GlobalHandle, dialect: &str) -> Diagnostic {
    Diagnostic::error(format!(
        "{dialect} cannot bind a runtime-sized binding array"
    ))
    .at(global_range(module, h), "runtime-sized binding array")
    .note("give the binding array a fixed size, or write Vulkan GLSL (--glsl vulkan450)")
}

// ---------------------------------------------------------------------------
// Which textures are used with which samplers

/// The global behind an image operand: the global itself or an element of
/// a binding array.
fn image_global(func: &naga::Function, expr: Handle<naga::Expression>) -> ImageOperand {
    match func.expressions.try_get(expr) {
        Ok(&naga::Expression::GlobalVariable(g)) => ImageOperand::Global(g),
        Ok(&naga::Expression::FunctionArgument(i)) => ImageOperand::Argument(i),
        Ok(
            &naga::Expression::Access { base, .. } | &naga::Expression::AccessIndex { base, .. },
        ) => image_global(func, base),
        _ => ImageOperand::Other,
    }
}

enum ImageOperand {
    Global(GlobalHandle),
    Argument(u32),
    Other,
}

/// Textures entry point `index` reads without a sampler (`textureLoad`,
/// `textureDimensions`, ...): directly, or through a function argument a
/// caller passes a global to.
fn unsampled_textures(module: &naga::Module, index: usize) -> FastIndexSet<GlobalHandle> {
    let Some(ep) = module.entry_points.get(index) else {
        return FastIndexSet::default();
    };
    let reachable = reachable_functions(module, index);
    // Per function: which of its arguments are read without a sampler.
    let mut arg_reads: FastIndexMap<Handle<naga::Function>, FastIndexSet<u32>> =
        FastIndexMap::default();
    let mut found = FastIndexSet::default();
    let mut scan = |func: &naga::Function, own: Option<Handle<naga::Function>>| {
        for (_, e) in func.expressions.iter() {
            let image = match *e {
                naga::Expression::ImageLoad { image, .. }
                | naga::Expression::ImageQuery { image, .. } => image,
                _ => continue,
            };
            match image_global(func, image) {
                ImageOperand::Global(g) => {
                    found.insert(g);
                }
                ImageOperand::Argument(i) => {
                    if let Some(f) = own {
                        arg_reads.entry(f).or_default().insert(i);
                    }
                }
                ImageOperand::Other => {}
            }
        }
    };
    for &f in &reachable {
        scan(&module.functions[f], Some(f));
    }
    scan(&ep.function, None);
    // Resolve arguments at the call sites (callers come after callees in
    // the arena; iterate until nothing changes for chains of calls).
    let mut changed = true;
    while changed {
        changed = false;
        let callers = reachable
            .iter()
            .map(|&f| (Some(f), &module.functions[f]))
            .chain(std::iter::once((None, &ep.function)));
        for (own, func) in callers {
            let mut new_args = Vec::new();
            visit_calls(&func.body, &mut |callee, arguments| {
                let Some(reads) = arg_reads.get(&callee) else {
                    return;
                };
                for &i in reads {
                    let Some(&arg) = arguments.get(i as usize) else {
                        continue;
                    };
                    match image_global(func, arg) {
                        ImageOperand::Global(g) => {
                            if found.insert(g) {
                                changed = true;
                            }
                        }
                        ImageOperand::Argument(j) => new_args.push(j),
                        ImageOperand::Other => {}
                    }
                }
            });
            if let Some(f) = own {
                for j in new_args {
                    if arg_reads.entry(f).or_default().insert(j) {
                        changed = true;
                    }
                }
            }
        }
    }
    // Storage textures are images, not texture units.
    found.retain(|g| {
        module.global_variables.try_get(*g).is_ok_and(|v| {
            !matches!(
                element_inner(module, v.ty),
                TypeInner::Image {
                    class: ImageClass::Storage { .. },
                    ..
                }
            )
        })
    });
    found
}

/// The (texture, sampler) pairs entry point `index` uses, in the order of
/// `order` (texture, then sampler, none last).
/// `unsampled`: with the textures read without a sampler (`(texture,
/// None)`).
pub fn entry_pairs(
    module: &naga::Module,
    info: &naga::valid::ModuleInfo,
    order: &[GlobalHandle],
    index: usize,
    unsampled: bool,
) -> Vec<Pair> {
    let rank = |g: GlobalHandle| order.iter().position(|&o| o == g).unwrap_or(usize::MAX);
    let mut pairs: Vec<Pair> = info
        .get_entry_point(index)
        .sampling_set
        .iter()
        .map(|k| (k.image, Some(k.sampler)))
        .collect();
    if unsampled {
        pairs.extend(
            unsampled_textures(module, index)
                .into_iter()
                .map(|g| (g, None)),
        );
    }
    pairs.sort_by_key(|&(t, s)| (rank(t), s.map_or(usize::MAX, rank)));
    pairs.dedup();
    pairs
}

/// Every pair any entry point of the module uses, in the same order
/// (`unsampled` as for [`entry_pairs`]).
pub fn combined_pairs(
    module: &naga::Module,
    info: &naga::valid::ModuleInfo,
    order: &[GlobalHandle],
    unsampled: bool,
) -> Vec<Pair> {
    let rank = |g: GlobalHandle| order.iter().position(|&o| o == g).unwrap_or(usize::MAX);
    let mut all = Vec::new();
    for i in 0..module.entry_points.len() {
        all.extend(entry_pairs(module, info, order, i, unsampled));
    }
    all.sort_by_key(|&(t, s)| (rank(t), s.map_or(usize::MAX, rank)));
    all.dedup();
    all
}

#[cfg(test)]
mod tests {
    #[test]
    fn gl_bindings_are_allocated_per_kind_in_declaration_order() {
        let source = "
            @group(1) @binding(0) var<storage, read_write> s1: array<u32>;
            @group(0) @binding(5) var<uniform> u1: vec4<f32>;
            @group(0) @binding(0) var<storage> s0: array<u32>;
            @group(0) @binding(1) var<uniform> u0: vec4<f32>;
            @group(2) @binding(0) var img: texture_storage_2d<rgba8unorm, write>;
            @compute @workgroup_size(1) fn main() {
                s1[0] = s0[0] + u32(u0.x + u1.x);
                textureStore(img, vec2<i32>(0), vec4<f32>(0.0));
            }";
        let crate::Analysis { parsed, .. } = crate::analyze(source).expect("valid");
        let info = crate::front::validate_parsed(&parsed).expect("valid");
        let module = &parsed.module;
        let order = crate::front::module::declaration_order(module);
        let assignment = super::assign(module, &info, &order, false);
        let b = assignment.bindings(module, "gl450").expect("allocates");
        let slot = |name: &str| {
            let (h, _) = module
                .global_variables
                .iter()
                .find(|(_, v)| v.name.as_deref() == Some(name))
                .expect("global");
            let s = b.global(h).expect("bound");
            (s.kind, s.binding)
        };
        assert_eq!(slot("s1"), ("storage-block", 0));
        assert_eq!(slot("s0"), ("storage-block", 1));
        assert_eq!(slot("u1"), ("uniform-block", 0));
        assert_eq!(slot("u0"), ("uniform-block", 1));
        assert_eq!(slot("img"), ("image", 0));
    }
}
