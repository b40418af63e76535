//! Write the contract layout into a copy of the naga module: struct member
//! offsets, struct spans and array strides all come from the layout IR, never
//! from naga's own layouter (gfx-rs/wgpu#4377).
//!
//! Every struct has one contract layout, so a struct keeps one handle. An
//! array type can be used at several sites with different strides
//! (`@stride`); each array type gets the stride of the first site that uses it
//! and the other sites get extra array types of their own. The new arena is
//! built in the old order, so dependencies keep smaller handles, and the rest
//! of the module follows through [`crate::remap`].

use crate::diag::Diagnostic;
use crate::layout::{Layout, LayoutKind, LayoutModule, StructLayout};
use crate::remap::{self, TypeMap};
use naga::{Handle, Module, Type, TypeInner, UniqueArena};
use std::borrow::Cow;

/// `value` as a `u32`, or an error naming what is too large.
fn to_u32(value: u64, what: impl std::fmt::Display) -> Result<u32, Diagnostic> {
    u32::try_from(value).map_err(|_| {
        Diagnostic::error(format!(
            "{what} is {value} bytes, more than SPIR-V can express (at most {} bytes)",
            u32::MAX
        ))
    })
}

fn internal(message: impl std::fmt::Display) -> Diagnostic {
    Diagnostic::internal(format!(
        "internal error in the SPIR-V backend: {message}; please report"
    ))
}

/// The matrix column stride naga's SPIR-V writer emits as `MatrixStride`:
/// the alignment of the column vector (2 rows: 2 scalars, 3 or 4 rows: 4).
pub fn naga_matrix_stride(rows: u8, width: u8) -> u64 {
    let aligned_rows: u64 = if rows == 2 { 2 } else { 4 };
    aligned_rows * u64::from(width)
}

struct Builder<'a> {
    module: &'a Module,
    contract: &'a LayoutModule,
    /// The stride of the first contract site of each array type, by handle
    /// index.
    preferred_stride: Vec<Option<u32>>,
    types: UniqueArena<Type>,
    map: Vec<Handle<Type>>,
    /// In-place mode: every type keeps its handle, `changes[i]` is the new
    /// value of type `i` when it differs, and `types` stays empty. A type
    /// that would need a handle of its own ends the mode (see
    /// [`apply_contract`]).
    in_place: bool,
    changes: Vec<Option<Type>>,
}

impl Builder<'_> {
    /// Record the first stride of every array type reachable from `layout`,
    /// and check that matrix strides are the ones naga writes. `site` says
    /// where the layout is used, for messages (formatted only on error).
    fn survey(
        &mut self,
        layout: &Layout,
        ty: Handle<Type>,
        site: &dyn std::fmt::Display,
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
                if let Some(slot @ None) = self.preferred_stride.get_mut(ty.index()) {
                    *slot = Some(stride);
                }
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

    /// The new value of the (already mapped) type `new`.
    fn new_type(&self, new: Handle<Type>) -> &Type {
        if self.in_place {
            match self.changes.get(new.index()) {
                Some(Some(t)) => t,
                _ => &self.module.types[new],
            }
        } else {
            &self.types[new]
        }
    }

    fn new_handle(&self, old: Handle<Type>) -> Result<Handle<Type>, Diagnostic> {
        self.map
            .get(old.index())
            .copied()
            .ok_or_else(|| internal("a type refers to a later type"))
    }

    /// The type to use at a site whose contract layout is `layout` and whose
    /// (already mapped) type is `ty`: `ty`, or an extra array type with the
    /// site's strides. `None` in in-place mode when the site needs a type of
    /// its own.
    fn site_type(
        &mut self,
        layout: &Layout,
        ty: Handle<Type>,
    ) -> Result<Option<Handle<Type>>, Diagnostic> {
        let current = self.new_type(ty);
        let (
            LayoutKind::Array {
                element, stride, ..
            },
            TypeInner::Array { base, size, .. },
        ) = (&layout.kind, &current.inner)
        else {
            return Ok(Some(ty));
        };
        let (name, base, size) = (current.name.clone(), *base, *size);
        let Some(new_base) = self.site_type(element, base)? else {
            return Ok(None);
        };
        let candidate = Type {
            name,
            inner: TypeInner::Array {
                base: new_base,
                size,
                stride: to_u32(*stride, "an array stride")?,
            },
        };
        if *self.new_type(ty) == candidate {
            return Ok(Some(ty));
        }
        if self.in_place {
            return Ok(None);
        }
        let span = self.types.get_span(ty);
        Ok(Some(self.types.insert(candidate, span)))
    }

    /// The new inner of a struct type with `members` and contract layout
    /// `layout`; `None` as for [`Self::site_type`].
    fn struct_type(
        &mut self,
        members: &[naga::StructMember],
        layout: &StructLayout,
    ) -> Result<Option<TypeInner>, Diagnostic> {
        let mut new_members = Vec::with_capacity(members.len());
        for (index, member) in members.iter().enumerate() {
            let slot = layout.members().find(|s| s.index == index).ok_or_else(|| {
                internal(format!(
                    "struct {} has no slot for member {index}",
                    layout.name
                ))
            })?;
            let Some(ty) = self.site_type(&slot.layout, self.new_handle(member.ty)?)? else {
                return Ok(None);
            };
            let offset = to_u32(
                slot.offset,
                format_args!("the offset of {}.{}", layout.name, slot.name),
            )?;
            new_members.push(naga::StructMember {
                name: member.name.clone(),
                ty,
                binding: member.binding.clone(),
                offset,
            });
        }
        let span = to_u32(
            crate::layout::realize::spirv::struct_span(layout),
            format_args!("struct {}", layout.name),
        )?;
        Ok(Some(TypeInner::Struct {
            members: new_members,
            span,
        }))
    }
}

/// `module` with the contract layout in its types (a copy when borrowed),
/// and the map from `module`'s type handles to the result's. A module the
/// caller gives away is not copied, and when every type keeps its handle
/// (the usual case) its changed types are replaced in place instead of
/// rebuilding the arena.
pub fn apply_contract(
    mut module: Cow<'_, Module>,
    contract: &LayoutModule,
) -> Result<(Module, TypeMap), Diagnostic> {
    if let Cow::Owned(owned) = &mut module {
        if let Some(map) = apply_in_place(owned, contract)? {
            return Ok((module.into_owned(), map));
        }
    }
    let mut b = builder(&module, contract, false);
    rewrite_types(&mut b)?;
    let (types, map, global_types) = site_types(b)?;
    let mut out = module.into_owned();
    install(&mut out, types, &map, global_types);
    Ok((out, map))
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

fn builder<'a>(module: &'a Module, contract: &'a LayoutModule, in_place: bool) -> Builder<'a> {
    Builder {
        module,
        contract,
        preferred_stride: vec![None; module.types.len()],
        types: UniqueArena::new(),
        map: Vec::with_capacity(module.types.len()),
        in_place,
        changes: Vec::with_capacity(if in_place { module.types.len() } else { 0 }),
    }
}

/// Survey the contract sites, then compute every type's new value in
/// order (inserted into `b.types`, or recorded in `b.changes` in in-place
/// mode). `false` when in-place mode does not apply.
fn rewrite_types(b: &mut Builder<'_>) -> Result<bool, Diagnostic> {
    let (module, contract) = (b.module, b.contract);
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
                &format_args!("{}.{}", layout.name, slot.name),
            )?;
        }
    }
    for global in &contract.globals {
        let var = module
            .global_variables
            .try_get(global.handle)
            .map_err(|_| internal(format!("global {} is unknown", global.name)))?;
        b.survey(&global.layout, var.ty, &global.name)?;
    }

    for (handle, ty) in module.types.iter() {
        let inner = match (&ty.inner, contract.structs.get(&handle)) {
            (TypeInner::Struct { members, .. }, Some(layout)) => {
                match b.struct_type(members, layout)? {
                    Some(inner) => inner,
                    None => return Ok(false),
                }
            }
            (TypeInner::Array { base, size, stride }, _) => TypeInner::Array {
                base: b.new_handle(*base)?,
                size: *size,
                stride: b
                    .preferred_stride
                    .get(handle.index())
                    .copied()
                    .flatten()
                    .unwrap_or(*stride),
            },
            _ if b.in_place => {
                // Refers to earlier types only, which keep their handles.
                b.changes.push(None);
                b.map.push(handle);
                continue;
            }
            (other, _) => {
                let map = &b.map;
                remap::map_inner(other, |h| map.get(h.index()).copied().unwrap_or(h))
            }
        };
        if b.in_place {
            let change = (inner != ty.inner).then(|| Type {
                name: ty.name.clone(),
                inner,
            });
            b.changes.push(change);
            b.map.push(handle);
            continue;
        }
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
    Ok(true)
}

/// The new arena of `b` (not in in-place mode) with the extra site types
/// of the contract globals added, the type map, and the type of each
/// contract global.
fn site_types(mut b: Builder<'_>) -> Result<(UniqueArena<Type>, TypeMap, GlobalTypes), Diagnostic> {
    let mut global_types = Vec::new();
    for global in &b.contract.globals {
        let old = b.module.global_variables[global.handle].ty;
        let Some(ty) = b.site_type(&global.layout, b.new_handle(old)?)? else {
            return Err(internal("a global has no site type"));
        };
        global_types.push((global.handle, ty));
    }
    Ok((b.types, TypeMap::new(b.map), global_types))
}

/// Most modules need no new type handle: every type only gets new offsets,
/// spans or strides. Then the changed types are replaced in `module`'s
/// arena and the extra site types of the globals appended, which gives the
/// same arena as the rebuild in [`apply_contract`], and the identity map. `None` (the
/// module untouched) when some type would need a handle of its own, or when
/// a new value would equal another type's (the arena deduplicates).
fn apply_in_place(
    module: &mut Module,
    contract: &LayoutModule,
) -> Result<Option<TypeMap>, Diagnostic> {
    let mut b = builder(module, contract, true);
    if !rewrite_types(&mut b)? {
        return Ok(None);
    }
    let (changes, map) = (b.changes, b.map);
    // Each new value must be new to the arena and unlike the other new
    // values, so that no replacement meets an equal type.
    let changed: Vec<&Type> = changes.iter().flatten().collect();
    const MAX_PAIRWISE: usize = 64;
    if changed.len() > MAX_PAIRWISE {
        return Ok(None);
    }
    for (k, &t) in changed.iter().enumerate() {
        if module.types.get(t).is_some() || changed[k + 1..].contains(&t) {
            return Ok(None);
        }
    }
    drop(changed);
    // In-place mode maps every handle to itself.
    let mut types = std::mem::take(&mut module.types);
    for (&handle, change) in map.iter().zip(changes) {
        if let Some(t) = change {
            types.replace(handle, t);
        }
    }
    let mut b = builder(module, contract, false);
    (b.types, b.map) = (types, map);
    let (types, map, global_types) = site_types(b)?;
    install(module, types, &map, global_types);
    Ok(Some(map))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The types of `m` with their spans, and every global's type.
    fn type_view(m: &Module) -> (Vec<(Type, naga::Span)>, Vec<Handle<Type>>) {
        (
            m.types
                .iter()
                .map(|(h, t)| (t.clone(), m.types.get_span(h)))
                .collect(),
            m.global_variables.iter().map(|(_, g)| g.ty).collect(),
        )
    }

    #[test]
    fn in_place_matches_the_rebuild_on_the_corpus() {
        let mut files = Vec::new();
        for dir in ["corpus/dialect", "corpus/layout", "corpus/shaders"] {
            let Ok(entries) = std::fs::read_dir(dir) else {
                continue;
            };
            for e in entries.flatten() {
                let p = e.path();
                if p.extension().is_some_and(|x| x == "wgsl") {
                    files.push(p);
                }
            }
        }
        files.sort();
        let mut in_place = 0;
        for path in &files {
            let Ok(source) = std::fs::read_to_string(path) else {
                continue;
            };
            let Ok(crate::Analysis {
                parsed, contract, ..
            }) = crate::analyze(&source)
            else {
                continue;
            };
            let rebuilt = apply_contract(Cow::Borrowed(&parsed.module), &contract);
            let mut copy = parsed.module.clone();
            let fast = apply_in_place(&mut copy, &contract);
            match (rebuilt, fast) {
                (Ok((m, map)), Ok(Some(fast_map))) => {
                    in_place += 1;
                    assert!(map.is_identity(), "{}", path.display());
                    assert!(fast_map.is_identity());
                    assert_eq!(type_view(&m), type_view(&copy), "{}", path.display());
                }
                (Ok((m, _)), Ok(None)) => {
                    // Fallback: the owned entry point rebuilds.
                    let owned = apply_contract(Cow::Owned(parsed.module.clone()), &contract);
                    let Ok((o, _)) = owned else {
                        panic!("{}: owned failed", path.display())
                    };
                    assert_eq!(type_view(&m), type_view(&o), "{}", path.display());
                }
                (Err(a), Err(b)) => assert_eq!(a.message, b.message),
                (Err(a), Ok(_)) => panic!("{}: rebuild failed: {}", path.display(), a.message),
                (Ok(_), Err(b)) => panic!("{}: in place failed: {}", path.display(), b.message),
            }
        }
        assert!(
            in_place > 10,
            "only {in_place} modules took the in-place path"
        );
    }
}
