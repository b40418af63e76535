//! Write the contract layout into a copy of the naga module: struct member
//! offsets, struct spans and array strides all come from the layout IR, never
//! from naga's own layouter (gfx-rs/wgpu#4377).
//!
//! Every struct has one contract layout, so a struct keeps one handle. An
//! array type can be used at several sites with different strides
//! (`@stride`); each array type gets the stride of the first site that uses it
//! and the other sites get extra array types of their own. The new arena is
//! built in the old order, so dependencies keep smaller handles, and the rest
//! of the module follows through [`crate::back::remap`].

use crate::back::remap::{self, TypeMap};
use crate::diag::Diagnostic;
use crate::layout::{Layout, LayoutKind, LayoutModule};
use indexmap::IndexMap;
use naga::{Handle, Module, Type, TypeInner, UniqueArena};

/// `value` as a `u32`, or an error naming what is too large.
fn to_u32(value: u64, what: impl std::fmt::Display) -> Result<u32, Diagnostic> {
    u32::try_from(value).map_err(|_| {
        Diagnostic::error(format!(
            "{what} is {value} bytes, more than SPIR-V can express (at most {} bytes)",
            u32::MAX
        ))
    })
}

/// Where a layout is used, for messages (formatted only on error).
#[derive(Clone, Copy)]
enum Site<'a> {
    Member(&'a str, &'a str),
    Global(&'a str),
}

impl std::fmt::Display for Site<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Site::Member(s, m) => write!(f, "{s}.{m}"),
            Site::Global(g) => f.write_str(g),
        }
    }
}

fn internal(message: impl std::fmt::Display) -> Diagnostic {
    Diagnostic::error(format!(
        "internal error in the SPIR-V backend: {message}; please report"
    ))
}

/// The matrix column stride naga's SPIR-V writer emits as `MatrixStride`:
/// the alignment of the column vector (2 rows: 2 scalars, 3 or 4 rows: 4).
pub fn naga_matrix_stride(rows: u8, width: u8) -> u64 {
    let aligned_rows: u64 = if rows == 2 { 2 } else { 4 };
    aligned_rows * u64::from(width)
}

fn round_up(align: u64, value: u64) -> u64 {
    if align <= 1 {
        value
    } else {
        value.div_ceil(align).saturating_mul(align)
    }
}

struct Builder<'a> {
    module: &'a Module,
    contract: &'a LayoutModule,
    wraps: &'a super::hazard::Wraps,
    /// The stride of the first contract site of each array type.
    preferred_stride: IndexMap<Handle<Type>, u32>,
    types: UniqueArena<Type>,
    map: Vec<Handle<Type>>,
}

impl Builder<'_> {
    /// Record the first stride of every array type reachable from `layout`,
    /// and check that matrix strides are the ones naga writes.
    fn survey(
        &mut self,
        layout: &Layout,
        ty: Handle<Type>,
        site: Site<'_>,
    ) -> Result<(), Diagnostic> {
        let inner = &self
            .module
            .types
            .get_handle(ty)
            .map_err(|_| internal(format!("{site}: unknown type handle")))?
            .inner;
        match (&layout.kind, inner) {
            (
                LayoutKind::Array {
                    element, stride, ..
                },
                TypeInner::Array { base, .. },
            ) => {
                let stride = to_u32(*stride, format_args!("the array stride of {site}"))?;
                self.preferred_stride.entry(ty).or_insert(stride);
                self.survey(element, *base, site)
            }
            (LayoutKind::Array { .. }, _) => Err(internal(format!(
                "{site}: the layout is an array but the type is not"
            ))),
            (
                LayoutKind::Matrix {
                    rows,
                    scalar,
                    column_stride,
                    ..
                },
                _,
            ) => {
                let naga_stride = naga_matrix_stride(*rows, scalar.width);
                if *column_stride != naga_stride {
                    return Err(Diagnostic::error(format!(
                        "{site}: matrix column stride {column_stride} cannot be written to SPIR-V \
                         (naga's writer always uses {naga_stride})"
                    )));
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }

    fn new_handle(&self, old: Handle<Type>) -> Result<Handle<Type>, Diagnostic> {
        self.map
            .get(old.index())
            .copied()
            .ok_or_else(|| internal("a type refers to a later type"))
    }

    /// The type to use at a site whose contract layout is `layout` and whose
    /// naga type is `old`: the mapped type, or an extra array type with the
    /// site's strides.
    fn site_type(
        &mut self,
        layout: &Layout,
        old: Handle<Type>,
    ) -> Result<Handle<Type>, Diagnostic> {
        let mapped = self.new_handle(old)?;
        let old_ty = &self.module.types[old];
        let (
            LayoutKind::Array {
                element, stride, ..
            },
            TypeInner::Array { base, size, .. },
        ) = (&layout.kind, &old_ty.inner)
        else {
            return Ok(mapped);
        };
        let (base, size) = (*base, *size);
        let new_base = self.site_type(element, base)?;
        let candidate = Type {
            name: old_ty.name.clone(),
            inner: TypeInner::Array {
                base: new_base,
                size,
                stride: to_u32(*stride, "an array stride")?,
            },
        };
        if self.types[mapped] == candidate {
            return Ok(mapped);
        }
        let span = self.module.types.get_span(old);
        Ok(self.types.insert(candidate, span))
    }

    fn struct_type(&mut self, old: Handle<Type>) -> Result<TypeInner, Diagnostic> {
        let contract = self.contract;
        let TypeInner::Struct { members, .. } = &self.module.types[old].inner else {
            return Err(internal(
                "a struct layout names a type that is not a struct",
            ));
        };
        let Some(layout) = contract.structs.get(&old) else {
            let map = &self.map;
            return Ok(remap::map_inner(&self.module.types[old].inner, |h| {
                map.get(h.index()).copied().unwrap_or(h)
            }));
        };
        let mut new_members = Vec::with_capacity(members.len());
        let mut end = 0u64;
        for (index, member) in members.iter().enumerate() {
            let slot = layout.members().find(|s| s.index == index).ok_or_else(|| {
                internal(format!(
                    "struct {} has no slot for member {index}",
                    layout.name
                ))
            })?;
            let mut ty = self.site_type(&slot.layout, member.ty)?;
            if let Some(&stride) = self.wraps.get(&(old, index)) {
                // One-element array around a struct member (see `hazard`).
                let array = Type {
                    name: None,
                    inner: TypeInner::Array {
                        base: ty,
                        size: naga::ArraySize::Constant(std::num::NonZeroU32::MIN),
                        stride,
                    },
                };
                ty = self
                    .types
                    .insert(array, self.module.types.get_span(member.ty));
            }
            let offset = to_u32(
                slot.offset,
                format_args!("the offset of {}.{}", layout.name, slot.name),
            )?;
            // naga checks `offset + size(type) <= span`; a runtime-sized array
            // counts as one element there.
            let type_size = match &slot.layout.kind {
                LayoutKind::Array {
                    stride,
                    count: None,
                    ..
                } => Some(*stride),
                _ => slot.layout.size,
            };
            end = end.max(slot.offset.saturating_add(type_size.unwrap_or(0)));
            new_members.push(naga::StructMember {
                name: member.name.clone(),
                ty,
                binding: member.binding.clone(),
                offset,
            });
        }
        let span = match layout.size {
            Some(size) => size,
            None => round_up(layout.align, end),
        };
        let span = to_u32(span, format_args!("struct {}", layout.name))?;
        Ok(TypeInner::Struct {
            members: new_members,
            span,
        })
    }
}

/// A copy of `module` whose types carry the contract layout, and the map
/// from `module`'s type handles to the copy's. Members named in `wraps`
/// become one-element arrays of their type.
pub fn apply_contract(
    module: &Module,
    contract: &LayoutModule,
    wraps: &super::hazard::Wraps,
) -> Result<(Module, TypeMap), Diagnostic> {
    let (types, map, global_types) = new_types(module, contract, wraps)?;
    let mut out = module.clone();
    install(&mut out, types, &map, global_types);
    Ok((out, map))
}

/// [`apply_contract`] on a module the caller gives away: the same result,
/// without copying the module.
pub fn apply_contract_owned(
    mut module: Module,
    contract: &LayoutModule,
    wraps: &super::hazard::Wraps,
) -> Result<(Module, TypeMap), Diagnostic> {
    let (types, map, global_types) = new_types(&module, contract, wraps)?;
    install(&mut module, types, &map, global_types);
    Ok((module, map))
}

/// A new global type per contract global: (global, type).
type GlobalTypes = Vec<(Handle<naga::GlobalVariable>, Handle<Type>)>;

/// Install the new arena: handles elsewhere in the module are rewritten
/// unless every old type keeps its handle (extra types only appended), then
/// the globals get their site types.
fn install(out: &mut Module, types: UniqueArena<Type>, map: &TypeMap, global_types: GlobalTypes) {
    if map.is_identity() {
        out.types = types;
    } else {
        remap::remap_types(out, types, map);
    }
    for (handle, ty) in global_types {
        out.global_variables[handle].ty = ty;
    }
}

/// The type arena carrying the contract layout, the map from `module`'s
/// type handles into it, and the type of each contract global.
fn new_types(
    module: &Module,
    contract: &LayoutModule,
    wraps: &super::hazard::Wraps,
) -> Result<(UniqueArena<Type>, TypeMap, GlobalTypes), Diagnostic> {
    let mut b = Builder {
        module,
        contract,
        wraps,
        preferred_stride: IndexMap::new(),
        types: UniqueArena::new(),
        map: Vec::with_capacity(module.types.len()),
    };

    for (&ty, layout) in &contract.structs {
        let Some(TypeInner::Struct { members, .. }) =
            module.types.get_handle(ty).ok().map(|t| &t.inner)
        else {
            return Err(internal(format!(
                "struct layout {} names no struct type",
                layout.name
            )));
        };
        for slot in layout.members() {
            let member = members.get(slot.index).ok_or_else(|| {
                internal(format!("{}.{} is not a member", layout.name, slot.name))
            })?;
            b.survey(
                &slot.layout,
                member.ty,
                Site::Member(&layout.name, &slot.name),
            )?;
        }
    }
    for global in &contract.globals {
        let var = module
            .global_variables
            .try_get(global.handle)
            .map_err(|_| internal(format!("global {} is unknown", global.name)))?;
        b.survey(&global.layout, var.ty, Site::Global(&global.name))?;
    }

    for (handle, ty) in module.types.iter() {
        let inner = match &ty.inner {
            TypeInner::Struct { .. } => b.struct_type(handle)?,
            TypeInner::Array { base, size, stride } => TypeInner::Array {
                base: b.new_handle(*base)?,
                size: *size,
                stride: b.preferred_stride.get(&handle).copied().unwrap_or(*stride),
            },
            other => {
                let map = &b.map;
                remap::map_inner(other, |h| map.get(h.index()).copied().unwrap_or(h))
            }
        };
        let span = module.types.get_span(handle);
        let new = b.types.insert(
            Type {
                name: ty.name.clone(),
                inner,
            },
            span,
        );
        b.map.push(new);
    }

    let mut global_types = Vec::new();
    for global in &contract.globals {
        let old = module.global_variables[global.handle].ty;
        global_types.push((global.handle, b.site_type(&global.layout, old)?));
    }

    Ok((b.types, TypeMap::new(b.map), global_types))
}
