//! D3D registers (`--target hlsl`) and the Vulkan bindings Slang declares
//! beside them (`--target slang`).
//!
//! - Class: `b` for uniform buffers and push constants (cbuffers), `t` for
//!   read-only storage buffers (`ByteAddressBuffer`), sampled and depth
//!   textures and read-only storage textures, `u` for read-write storage
//!   buffers and writable storage textures, `s` for samplers.
//! - [`RegisterMode::Wgsl`]: space = `@group`, register = `@binding`;
//!   where a binding array (N registers) at a lower binding of the space
//!   and class reaches past a binding, the resource there moves to the
//!   first register after it instead of overlapping it, so a split
//!   parameter's binding arrays lie one after the other as spec/001 lays
//!   them out ([`binding_registers`]).
//!   [`RegisterMode::Compact`] (spec/001): space = `@group`; per space and
//!   class, each resource in declaration order takes the first free
//!   contiguous range (a binding array of N takes N registers).
//!   Runtime-sized binding arrays are an error in both modes.
//! - stride's own space: push constants (`var<immediate>`) and the
//!   workgroup-count cbuffer have no `@group`; they live in space
//!   `max(@group) + 1` (0 when the module binds nothing), registers
//!   `b0, b1, ...`: push constants in declaration order first, then
//!   [`NUM_WORKGROUPS`] (in both modes), which is listed when any entry
//!   point of the module reads `@builtin(num_workgroups)`.
//! - Slang: `[[vk::binding(b, set)]]` is the WGSL binding (stride's own
//!   cbuffers: their register and space), `[[vk::push_constant]]` for push
//!   constants.

use crate::diag::{Diagnostic, Diagnostics};
use crate::front::module::{binding_count, element_inner, global_range};
use indexmap::IndexMap;
use naga::{AddressSpace, Binding, BuiltIn, Handle, ImageClass, TypeInner};

type GlobalHandle = Handle<naga::GlobalVariable>;

/// The name stride gives the workgroup-count value (see the module doc).
pub const NUM_WORKGROUPS: &str = "_s_num_workgroups";

/// How resource registers are chosen (`--registers`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum RegisterMode {
    /// `space` = `@group`, register number = `@binding`, or past the
    /// registers of a binding array at a lower binding that reaches it.
    #[default]
    Wgsl,
    /// ../shared/spec/001: per space and class, the first free contiguous
    /// range, in declaration order.
    Compact,
}

impl RegisterMode {
    pub const ALL: [RegisterMode; 2] = [RegisterMode::Wgsl, RegisterMode::Compact];

    pub fn name(self) -> &'static str {
        match self {
            RegisterMode::Wgsl => "wgsl",
            RegisterMode::Compact => "compact",
        }
    }

    pub fn from_name(name: &str) -> Option<RegisterMode> {
        RegisterMode::ALL.into_iter().find(|m| m.name() == name)
    }
}

/// The Vulkan binding Slang declares for a resource.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VkBinding {
    /// `[[vk::push_constant]]`.
    PushConstant,
    /// `[[vk::binding(binding, set)]]`.
    Binding { binding: u32, set: u32 },
}

/// Where one resource is bound.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Register {
    /// The global; `None` for stride's own workgroup-count cbuffer.
    pub handle: Option<GlobalHandle>,
    /// The WGSL global's name ([`NUM_WORKGROUPS`] for stride's own).
    pub global: String,
    /// `cbuffer`, `byte-address-buffer`, `rw-byte-address-buffer`,
    /// `texture`, `rw-texture`, `sampler`, `comparison-sampler`.
    pub kind: &'static str,
    /// `b`, `t`, `u` or `s`.
    pub class: char,
    pub register: u32,
    pub space: u32,
    /// Registers taken: 1, or the length of a binding array.
    pub count: u32,
    /// Slang's Vulkan binding.
    pub vulkan: VkBinding,
}

/// The registers of every resource of a module.
#[derive(Clone, Debug, Default)]
pub struct Registers {
    /// Per global (by handle index): its register's position in `list`.
    pub globals: Vec<Option<usize>>,
    /// The workgroup-count cbuffer's position in `list`, when some entry
    /// point reads it.
    pub num_workgroups: Option<usize>,
    /// Every register: globals in declaration order, then stride's own.
    pub list: Vec<Register>,
}

impl Registers {
    /// The register of global `h`, when it is a resource.
    pub fn global(&self, h: GlobalHandle) -> Option<&Register> {
        let i = (*self.globals.get(h.index())?)?;
        self.list.get(i)
    }

    /// The workgroup-count cbuffer's register.
    pub fn num_workgroups(&self) -> Option<&Register> {
        self.list.get(self.num_workgroups?)
    }
}

/// The kind (as reported) and register class of a resource global;
/// `None` for other globals.
pub fn resource_kind(
    module: &naga::Module,
    var: &naga::GlobalVariable,
) -> Option<(&'static str, char)> {
    match var.space {
        AddressSpace::Uniform | AddressSpace::Immediate => Some(("cbuffer", 'b')),
        AddressSpace::Storage { access } => Some(if access.contains(naga::StorageAccess::STORE) {
            ("rw-byte-address-buffer", 'u')
        } else {
            ("byte-address-buffer", 't')
        }),
        AddressSpace::Handle => match *element_inner(module, var.ty) {
            TypeInner::Image {
                class: ImageClass::Storage { access, .. },
                ..
            } => Some(if access.contains(naga::StorageAccess::STORE) {
                ("rw-texture", 'u')
            } else {
                ("texture", 't')
            }),
            TypeInner::Image { .. } => Some(("texture", 't')),
            TypeInner::Sampler { comparison: true } => Some(("comparison-sampler", 's')),
            TypeInner::Sampler { comparison: false } => Some(("sampler", 's')),
            _ => None,
        },
        _ => None,
    }
}

/// Whether entry point `ep` reads `@builtin(num_workgroups)`: an argument
/// bound to it, or a member of an unbound struct argument.
pub fn reads_num_workgroups(module: &naga::Module, ep: &naga::EntryPoint) -> bool {
    input_builtins(module, ep).any(|b| b == BuiltIn::NumWorkGroups)
}

/// The builtins entry point `ep` reads: its arguments bound to one, and the
/// members of its unbound struct arguments.
pub fn input_builtins<'a>(
    module: &'a naga::Module,
    ep: &'a naga::EntryPoint,
) -> impl Iterator<Item = BuiltIn> + 'a {
    ep.function.arguments.iter().flat_map(move |a| {
        let members: &[naga::StructMember] = match (&a.binding, module.types.get_handle(a.ty)) {
            (
                None,
                Ok(naga::Type {
                    inner: TypeInner::Struct { members, .. },
                    ..
                }),
            ) => members,
            _ => &[],
        };
        a.binding
            .iter()
            .chain(members.iter().filter_map(|m| m.binding.as_ref()))
            .filter_map(|b| match *b {
                Binding::BuiltIn(b) => Some(b),
                Binding::Location { .. } => None,
            })
    })
}

/// Registers for every resource of `module` in `order` (its declaration
/// order), in register mode `mode` (see the module doc).
pub fn assign(
    module: &naga::Module,
    order: &[GlobalHandle],
    mode: RegisterMode,
) -> Result<Registers, Diagnostics> {
    let laid_out = match mode {
        RegisterMode::Wgsl => binding_registers(module, order),
        RegisterMode::Compact => Vec::new(),
    };
    let mut registers = Registers {
        globals: vec![None; module.global_variables.len()],
        num_workgroups: None,
        // Room for every global in `order` and the workgroup-count cbuffer.
        list: Vec::with_capacity(order.len() + 1),
    };
    let own_space = module
        .global_variables
        .iter()
        .filter_map(|(_, v)| v.binding.as_ref().map(|b| b.group.saturating_add(1)))
        .max()
        .unwrap_or(0);
    let mut next: IndexMap<(u32, char), u32> = IndexMap::new();
    let mut own_next = 0u32;
    let mut errors = Diagnostics::new();
    for &h in order {
        let var = &module.global_variables[h];
        let Some((kind, class)) = resource_kind(module, var) else {
            continue;
        };
        let Some(count) = binding_count(module, var.ty) else {
            errors.push(
                Diagnostic::error("HLSL output cannot bind a runtime-sized binding array")
                    .at(global_range(module, h), "runtime-sized binding array")
                    .note("give the binding array a fixed size: `binding_array<T, N>`"),
            );
            continue;
        };
        let (space, register, vulkan) = match (var.space, var.binding.as_ref()) {
            (AddressSpace::Immediate, _) => {
                let r = own_next;
                own_next = own_next.saturating_add(count);
                (own_space, r, VkBinding::PushConstant)
            }
            (_, Some(rb)) => {
                let vulkan = VkBinding::Binding {
                    binding: rb.binding,
                    set: rb.group,
                };
                match mode {
                    RegisterMode::Wgsl => {
                        let laid = laid_out.get(h.index()).copied().flatten();
                        (rb.group, laid.unwrap_or(rb.binding), vulkan)
                    }
                    RegisterMode::Compact => {
                        let counter = next.entry((rb.group, class)).or_insert(0);
                        let r = *counter;
                        *counter = counter.saturating_add(count);
                        (rb.group, r, vulkan)
                    }
                }
            }
            // Valid WGSL binds every resource.
            (_, None) => continue,
        };
        registers.globals[h.index()] = Some(registers.list.len());
        registers.list.push(Register {
            handle: Some(h),
            global: var.name.clone().unwrap_or_default(),
            kind,
            class,
            register,
            space,
            count,
            vulkan,
        });
    }
    errors.extend(Diagnostics(overlaps(module, &registers)));
    if module
        .entry_points
        .iter()
        .any(|ep| reads_num_workgroups(module, ep))
    {
        registers.num_workgroups = Some(registers.list.len());
        registers.list.push(Register {
            handle: None,
            global: NUM_WORKGROUPS.to_string(),
            kind: "cbuffer",
            class: 'b',
            register: own_next,
            space: own_space,
            count: 1,
            vulkan: VkBinding::Binding {
                binding: own_next,
                set: own_space,
            },
        });
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(registers)
}

/// In `wgsl` mode, the register of every resource with a binding: per
/// space and class, in binding order, the first register at or after its
/// `@binding` that no resource at a lower binding takes. Without binding
/// arrays that is the binding itself; a binding array of N takes N
/// registers, and the resources at the bindings after it move past them
/// rather than overlap them: a split parameter `var gPairs: array<Pair,
/// 8>` at binding 0 gives `gPairs_a` t0..t7 and `gPairs_b` (binding 1)
/// t8..t15, spec/001's layout of the parameter. Resources sharing a
/// binding (different entry points) share the register.
fn binding_registers(module: &naga::Module, order: &[GlobalHandle]) -> Vec<Option<u32>> {
    // (space, class, binding, count, global)
    let mut bound: Vec<(u32, char, u32, u32, GlobalHandle)> = order
        .iter()
        .filter_map(|&h| {
            let var = &module.global_variables[h];
            if var.space == AddressSpace::Immediate {
                return None;
            }
            let (_, class) = resource_kind(module, var)?;
            let rb = var.binding.as_ref()?;
            let count = binding_count(module, var.ty)?;
            Some((rb.group, class, rb.binding, count, h))
        })
        .collect();
    bound.sort_by_key(|&(space, class, binding, _, _)| (space, class, binding));
    let mut placed = vec![None; module.global_variables.len()];
    // The space and class being placed, the binding last placed, its
    // register, and the first register after every range so far.
    let mut last: Option<(u32, char, u32, u32)> = None;
    let mut free = 0u32;
    for (space, class, binding, count, h) in bound {
        let register = match last {
            Some((s, c, b, r)) if (s, c) == (space, class) && b == binding => r,
            Some((s, c, ..)) if (s, c) == (space, class) => binding.max(free),
            _ => {
                free = 0;
                binding
            }
        };
        free = free.max(register.saturating_add(count));
        last = Some((space, class, binding, register));
        if let Some(p) = placed.get_mut(h.index()) {
            *p = Some(register);
        }
    }
    placed
}

/// A binding array and another resource at one register range, both used
/// by one entry point: DXC rejects such overlapping ranges; report them at
/// both globals. With `--registers wgsl` only resources that share a
/// `@binding` can overlap ([`binding_registers`]), which the front end
/// already reports for one entry point; this stays as the check of the
/// assignment.
/// (One register for resources of different entry points, which WGSL
/// allows for one binding, is fine in DXC too.)
fn overlaps(module: &naga::Module, registers: &Registers) -> Vec<Diagnostic> {
    // Only binding arrays take more than one register.
    if registers.list.iter().all(|r| r.count == 1) {
        return Vec::new();
    }
    let uses: Vec<Vec<bool>> = (0..module.entry_points.len())
        .map(|i| crate::front::bindings::used_by_entry_point(module, i))
        .collect();
    let placed: Vec<(GlobalHandle, &Register)> = module
        .global_variables
        .iter()
        .filter_map(|(h, _)| Some((h, registers.global(h)?)))
        .collect();
    let mut errors = Vec::new();
    for (k, &(h, r)) in placed.iter().enumerate() {
        for &(other, o) in &placed[..k] {
            let same_range = r.class == o.class && r.space == o.space;
            let overlap = r.register < o.register.saturating_add(o.count)
                && o.register < r.register.saturating_add(r.count);
            if !same_range || !overlap || (r.count == 1 && o.count == 1) {
                continue;
            }
            let Some(ep) = uses.iter().position(|u| u[h.index()] && u[other.index()]) else {
                continue;
            };
            let range = |r: &Register| {
                if r.count == 1 {
                    format!("{}{}", r.class, r.register)
                } else {
                    format!(
                        "{c}{}..{c}{}",
                        r.register,
                        r.register.saturating_add(r.count - 1),
                        c = r.class
                    )
                }
            };
            errors.push(
                Diagnostic::error(format!(
                    "`{}` ({}) and `{}` ({}) overlap in HLSL register space {}, and entry point `{}` uses both",
                    o.global,
                    range(o),
                    r.global,
                    range(r),
                    r.space,
                    module.entry_points[ep].name
                ))
                .at(global_range(module, h), format!("registers {}", range(r)))
                .also(global_range(module, other), format!("registers {}", range(o)))
                .note("with `--registers wgsl` a register is the WGSL binding, and a binding array takes one register per element")
                .note("help: pass `--registers compact`, or move the other resource's `@binding` past the binding array's last element"),
            );
        }
    }
    errors
}
