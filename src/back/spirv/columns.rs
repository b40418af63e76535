//! Matrices of a uniform buffer declared as their column vectors.
//!
//! Vulkan's standard layout for uniform buffers (extended alignment) wants a
//! matrix's column stride to be a multiple of 16; WGSL's is the column
//! vector's alignment. naga's writer splits two-row matrices itself (its
//! "std140 compatible" types); the other matrices whose contract column
//! stride is not a multiple of 16 (f16 matrices with three or four rows)
//! would need the `uniformBufferStandardLayout` device feature. Where
//! naga's two-row handling itself fails (a two-row matrix behind a nested
//! struct, `hazard`), every two-row matrix is split here too
//! ([`ColumnSplit::All`]), and naga sees none.
//! [`crate::layout::realize::spirv::uniform_column_split`] names the
//! matrices; this pass declares each one, in the module handed to naga's
//! writer, as its column vectors:
//!
//! - a struct member becomes one vector member per column, at the member's
//!   offset plus the column's (named `<member>_col<k>`, as naga names its
//!   own);
//! - a matrix that is the buffer's whole type or an array element becomes a
//!   struct of its columns (`col<k>`).
//!
//! Structs and arrays above a split matrix get uniform-only copies; the
//! same types elsewhere (storage, values) are untouched. Every access
//! follows: member indices move, a column of a split matrix is the member
//! holding it, and a load rebuilds the value (`Compose` of its columns,
//! members and elements). A dynamically indexed column (`m[i]`, `m[i][j]`)
//! is taken from the rebuilt matrix. Uniform buffers are read-only, so
//! there are no stores. The bytes read do not change: every column keeps
//! the contract offset.

use crate::layout::realize::spirv::{uniform_column_split, ColumnSplit};
use crate::layout::{Layout, LayoutKind, LayoutModule};
use crate::remap;
use indexmap::IndexMap;
use naga::{Expression, Handle, Module, Span, StructMember, Type, TypeInner};

/// How a type of a uniform buffer's tree is declared after the split.
#[derive(Clone, Debug, PartialEq)]
enum Shadow {
    /// As it is.
    Same,
    /// A matrix declared as the struct `ty` of its `count` columns.
    Columns { ty: Handle<Type>, count: u32 },
    /// A struct with a split matrix below it: its copy `ty`, and where
    /// each of its members went.
    Struct {
        ty: Handle<Type>,
        members: Vec<Place>,
    },
    /// An array with a split matrix below it: its copy `ty`.
    Array { ty: Handle<Type> },
}

impl Shadow {
    fn ty(&self) -> Option<Handle<Type>> {
        match *self {
            Shadow::Same => None,
            Shadow::Columns { ty, .. } | Shadow::Struct { ty, .. } | Shadow::Array { ty } => {
                Some(ty)
            }
        }
    }
}

/// Where a member of a struct went in its copy.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Place {
    /// The member with this index.
    At(u32),
    /// A split matrix: `count` column members from index `first`.
    Columns { first: u32, count: u32 },
}

/// The uniform-only types, made once per type of the module.
struct Shadows<'a> {
    contract: &'a LayoutModule,
    split: ColumnSplit,
    memo: IndexMap<Handle<Type>, Shadow>,
}

impl Shadows<'_> {
    /// The declaration of `ty`, whose contract layout is `layout`, inside
    /// a uniform buffer; new types are added to `module`.
    fn shadow(&mut self, module: &mut Module, ty: Handle<Type>, layout: &Layout) -> Shadow {
        if let Some(known) = self.memo.get(&ty) {
            return known.clone();
        }
        let inner = module.types[ty].inner.clone();
        let made = match (inner, &layout.kind, self.split_matrix(module, ty, layout)) {
            (_, _, Some((column, count, stride))) => {
                let members = (0..count)
                    .map(|k| StructMember {
                        name: Some(format!("col{k}")),
                        ty: column,
                        binding: None,
                        offset: column_offset(k, stride),
                    })
                    .collect();
                let span = column_offset(count, stride);
                let ty = add(module, None, TypeInner::Struct { members, span });
                Shadow::Columns { ty, count }
            }
            (TypeInner::Array { base, size, stride }, LayoutKind::Array { element, .. }, _) => {
                match self.shadow(module, base, element).ty() {
                    None => Shadow::Same,
                    Some(base) => {
                        let name = module.types[ty].name.clone();
                        let inner = TypeInner::Array { base, size, stride };
                        Shadow::Array {
                            ty: add(module, name, inner),
                        }
                    }
                }
            }
            (TypeInner::Struct { members, span }, LayoutKind::Struct(handle), _) => {
                self.struct_shadow(module, ty, &members, span, *handle)
            }
            _ => Shadow::Same,
        };
        self.memo.insert(ty, made.clone());
        made
    }

    /// A matrix `ty` of contract layout `layout` that is declared as its
    /// columns: the column vector type (added to `module`), the column count
    /// and the column stride.
    fn split_matrix(
        &self,
        module: &mut Module,
        ty: Handle<Type>,
        layout: &Layout,
    ) -> Option<(Handle<Type>, u32, u64)> {
        let TypeInner::Matrix {
            columns,
            rows,
            scalar,
        } = module.types[ty].inner
        else {
            return None;
        };
        let stride = uniform_column_split(layout, self.split)?;
        let column = add(module, None, TypeInner::Vector { size: rows, scalar });
        Some((column, columns as u32, stride))
    }

    fn struct_shadow(
        &mut self,
        module: &mut Module,
        ty: Handle<Type>,
        members: &[StructMember],
        span: u32,
        handle: Handle<Type>,
    ) -> Shadow {
        let contract = self.contract;
        let Some(layout) = contract.structs.get(&handle) else {
            return Shadow::Same;
        };
        let mut new_members = Vec::with_capacity(members.len());
        let mut places = Vec::with_capacity(members.len());
        let mut changed = false;
        for (index, member) in members.iter().enumerate() {
            let Some(slot) = layout.members().find(|s| s.index == index) else {
                return Shadow::Same;
            };
            let first = new_members.len() as u32;
            match self.split_matrix(module, member.ty, &slot.layout) {
                Some((column, count, stride)) => {
                    let name = member.name.as_deref().unwrap_or("");
                    for k in 0..count {
                        new_members.push(StructMember {
                            name: Some(format!("{name}_col{k}")),
                            ty: column,
                            binding: None,
                            offset: member.offset.saturating_add(column_offset(k, stride)),
                        });
                    }
                    places.push(Place::Columns { first, count });
                    changed = true;
                }
                None => {
                    let mut m = member.clone();
                    if let Some(ty) = self.shadow(module, member.ty, &slot.layout).ty() {
                        m.ty = ty;
                        changed = true;
                    }
                    new_members.push(m);
                    places.push(Place::At(first));
                }
            }
        }
        if !changed {
            return Shadow::Same;
        }
        let name = module.types[ty].name.clone();
        let inner = TypeInner::Struct {
            members: new_members,
            span,
        };
        Shadow::Struct {
            ty: add(module, name, inner),
            members: places,
        }
    }
}

/// The offset of column `k` in a matrix of column stride `stride` (the
/// contract's, which fits: the SPIR-V backend has checked every offset).
fn column_offset(k: u32, stride: u64) -> u32 {
    u32::try_from(u64::from(k).saturating_mul(stride)).unwrap_or(u32::MAX)
}

fn add(module: &mut Module, name: Option<String>, inner: TypeInner) -> Handle<Type> {
    module.types.insert(Type { name, inner }, Span::UNDEFINED)
}

/// Which uniform globals have a split matrix: `module` (the contract
/// already written into its types) with them declared split and every
/// function following. `None` when no uniform buffer has one, or when a
/// pointer into a split tree is used in a way this pass does not rewrite
/// (passed to a function); the caller then keeps the module as it was.
pub fn split_uniform_columns(
    module: &Module,
    contract: &LayoutModule,
    split: ColumnSplit,
) -> Option<Module> {
    let uniform_split = contract.globals.iter().any(|g| {
        g.space == naga::AddressSpace::Uniform && has_split(contract, &g.layout, split, 0)
    });
    if !uniform_split {
        return None;
    }
    let mut out = module.clone();
    let mut shadows = Shadows {
        contract,
        split,
        memo: IndexMap::new(),
    };
    // The split uniform globals, with their original types.
    let mut globals = IndexMap::new();
    for global in &contract.globals {
        if global.space != naga::AddressSpace::Uniform {
            continue;
        }
        let ty = out.global_variables.try_get(global.handle).ok()?.ty;
        if let Some(new) = shadows.shadow(&mut out, ty, &global.layout).ty() {
            out.global_variables[global.handle].ty = new;
            globals.insert(global.handle, ty);
        }
    }
    if globals.is_empty() {
        return None;
    }
    let memo = shadows.memo;
    let rewrite = Rewrite {
        types: &out.types,
        memo: &memo,
        split: &globals,
    };
    let functions = out.functions.iter_mut().map(|(_, f)| f);
    let entry_points = out.entry_points.iter_mut().map(|ep| &mut ep.function);
    for f in functions.chain(entry_points) {
        if !rewrite.function(f) {
            return None;
        }
    }
    Some(out)
}

/// Does `layout` hold a matrix [`uniform_column_split`] names?
fn has_split(contract: &LayoutModule, layout: &Layout, split: ColumnSplit, depth: u32) -> bool {
    // Guard against a malformed (cyclic) layout.
    if depth > 64 {
        return false;
    }
    match &layout.kind {
        LayoutKind::Matrix { .. } => uniform_column_split(layout, split).is_some(),
        LayoutKind::Array { element, .. } => has_split(contract, element, split, depth + 1),
        LayoutKind::Struct(ty) => contract.structs.get(ty).is_some_and(|s| {
            s.members()
                .any(|m| has_split(contract, &m.layout, split, depth + 1))
        }),
        _ => false,
    }
}

/// What an expression of a function is, in a split tree.
#[derive(Clone, Copy, Debug)]
enum Track {
    /// A pointer to a value of (original) type `ty`, declared split.
    Pointer(Handle<Type>),
    /// A split matrix, or a part of it chosen at run time.
    Columns(Columns),
}

/// A split matrix of type `matrix`: `count` column members from index
/// `first` of the struct `base` points to; with `column`, one column chosen
/// at run time, and with `row`, one of its components.
#[derive(Clone, Copy, Debug)]
struct Columns {
    base: Handle<Expression>,
    first: u32,
    count: u32,
    matrix: Handle<Type>,
    column: Option<Handle<Expression>>,
    row: Option<Index>,
}

#[derive(Clone, Copy, Debug)]
enum Index {
    Constant(u32),
    Dynamic(Handle<Expression>),
}

struct Rewrite<'a> {
    types: &'a naga::UniqueArena<Type>,
    memo: &'a IndexMap<Handle<Type>, Shadow>,
    /// The split uniform globals, with their original types.
    split: &'a IndexMap<Handle<naga::GlobalVariable>, Handle<Type>>,
}

impl Rewrite<'_> {
    fn shadow(&self, ty: Handle<Type>) -> &Shadow {
        self.memo.get(&ty).unwrap_or(&Shadow::Same)
    }

    /// What a pointer to a value of type `ty` is, at new handle `pointer`.
    fn pointer_track(&self, ty: Handle<Type>, pointer: Handle<Expression>) -> Option<Track> {
        match *self.shadow(ty) {
            Shadow::Same => None,
            Shadow::Columns { count, .. } => Some(Track::Columns(Columns {
                base: pointer,
                first: 0,
                count,
                matrix: ty,
                column: None,
                row: None,
            })),
            _ => Some(Track::Pointer(ty)),
        }
    }

    /// Rewrite `f`; `false` when a pointer into a split tree is used in a
    /// way this pass does not follow.
    fn function(&self, f: &mut naga::Function) -> bool {
        // The track of each new expression that has one, by index.
        let mut tracks: Vec<Option<Track>> = Vec::new();
        let mut ok = true;
        remap::rebuild_expressions(f, |_, e, b| {
            let track_of = |x: Handle<Expression>| tracks.get(x.index()).copied().flatten();
            let (result, track) = match e {
                Expression::GlobalVariable(g) => {
                    let new = b.push(e);
                    let track = self
                        .split
                        .get(&g)
                        .and_then(|&ty| self.pointer_track(ty, new));
                    (new, track)
                }
                Expression::AccessIndex { base, index } => match track_of(base) {
                    None => (b.push(e), None),
                    Some(t) => self.access(b, t, e, base, Index::Constant(index)),
                },
                Expression::Access { base, index } => match track_of(base) {
                    None => (b.push(e), None),
                    Some(t) => self.access(b, t, e, base, Index::Dynamic(index)),
                },
                Expression::Load { pointer } => match track_of(pointer) {
                    None => (b.push(e), None),
                    Some(t) => match self.load(b, t, pointer) {
                        Some(v) => (v, None),
                        None => {
                            ok = false;
                            (b.push(e), None)
                        }
                    },
                },
                e => {
                    // Any other use of a tracked pointer is not rewritten.
                    if remap::expression_operands(&e)
                        .into_iter()
                        .any(|x| track_of(x).is_some())
                    {
                        ok = false;
                    }
                    (b.push(e), None)
                }
            };
            if track.is_some() {
                if tracks.len() <= result.index() {
                    tracks.resize(result.index() + 1, None);
                }
                tracks[result.index()] = track;
            }
            result
        });
        ok && !calls_with(&f.body, &|x| {
            tracks.get(x.index()).is_some_and(Option::is_some)
        })
    }

    /// An `Access`/`AccessIndex` (`e`, operands already new) with index
    /// `index` on `new_base`, whose track is `base`.
    fn access(
        &self,
        b: &mut remap::ExpressionBuilder,
        base: Track,
        e: Expression,
        new_base: Handle<Expression>,
        index: Index,
    ) -> (Handle<Expression>, Option<Track>) {
        match base {
            Track::Pointer(ty) => match (&self.types[ty].inner, self.shadow(ty), index) {
                (
                    TypeInner::Struct { members, .. },
                    Shadow::Struct {
                        members: places, ..
                    },
                    Index::Constant(i),
                ) => {
                    let Some(member) = members.get(i as usize) else {
                        return (b.push(e), None);
                    };
                    match places.get(i as usize) {
                        Some(&Place::At(n)) => {
                            let new = b.push(Expression::AccessIndex {
                                base: new_base,
                                index: n,
                            });
                            (new, self.pointer_track(member.ty, new))
                        }
                        Some(&Place::Columns { first, count }) => {
                            // A stand-in for uses to refer to; loads go
                            // through the track.
                            let new = b.push(Expression::AccessIndex {
                                base: new_base,
                                index: first,
                            });
                            let track = Track::Columns(Columns {
                                base: new_base,
                                first,
                                count,
                                matrix: member.ty,
                                column: None,
                                row: None,
                            });
                            (new, Some(track))
                        }
                        None => (b.push(e), None),
                    }
                }
                (&TypeInner::Array { base: element, .. }, _, _) => {
                    let new = b.push(e);
                    (new, self.pointer_track(element, new))
                }
                _ => (b.push(e), None),
            },
            Track::Columns(c) => match (c.column, c.row, index) {
                // A column chosen by a constant is the member holding it.
                (None, _, Index::Constant(k)) => (
                    b.push(Expression::AccessIndex {
                        base: c.base,
                        index: c.first + k,
                    }),
                    None,
                ),
                // A stand-in for uses to refer to; loads go through the
                // track.
                (None, _, Index::Dynamic(i)) => {
                    let stand_in = b.push(Expression::AccessIndex {
                        base: c.base,
                        index: c.first,
                    });
                    let column = Some(i);
                    (stand_in, Some(Track::Columns(Columns { column, ..c })))
                }
                (Some(_), None, index) => {
                    let stand_in = b.push(Expression::AccessIndex {
                        base: new_base,
                        index: 0,
                    });
                    let row = Some(index);
                    (stand_in, Some(Track::Columns(Columns { row, ..c })))
                }
                (Some(_), Some(_), _) => (b.push(e), None),
            },
        }
    }

    /// The value a tracked `pointer` (new handle) points to, in its
    /// original type; `None` when it cannot be rebuilt.
    fn load(
        &self,
        b: &mut remap::ExpressionBuilder,
        track: Track,
        pointer: Handle<Expression>,
    ) -> Option<Handle<Expression>> {
        match track {
            Track::Pointer(ty) => self.value(b, pointer, ty),
            Track::Columns(c) => {
                let mut v = columns(b, c.base, c.first, c.count, c.matrix);
                if let Some(i) = c.column {
                    v = b.push(Expression::Access { base: v, index: i });
                }
                match c.row {
                    Some(Index::Constant(r)) => {
                        v = b.push(Expression::AccessIndex { base: v, index: r });
                    }
                    Some(Index::Dynamic(r)) => {
                        v = b.push(Expression::Access { base: v, index: r });
                    }
                    None => {}
                }
                Some(v)
            }
        }
    }

    /// The value of type `ty` (original) that `pointer` (to its split
    /// declaration) points to, rebuilt.
    fn value(
        &self,
        b: &mut remap::ExpressionBuilder,
        pointer: Handle<Expression>,
        ty: Handle<Type>,
    ) -> Option<Handle<Expression>> {
        match (self.shadow(ty), &self.types[ty].inner) {
            (Shadow::Same, _) => Some(b.push(Expression::Load { pointer })),
            (&Shadow::Columns { count, .. }, _) => Some(columns(b, pointer, 0, count, ty)),
            (
                Shadow::Struct {
                    members: places, ..
                },
                TypeInner::Struct { members, .. },
            ) => {
                let mut components = Vec::with_capacity(members.len());
                for (member, place) in members.iter().zip(places) {
                    let c = match *place {
                        Place::At(n) => {
                            let p = b.push(Expression::AccessIndex {
                                base: pointer,
                                index: n,
                            });
                            self.value(b, p, member.ty)?
                        }
                        Place::Columns { first, count } => {
                            columns(b, pointer, first, count, member.ty)
                        }
                    };
                    components.push(c);
                }
                Some(b.push(Expression::Compose { ty, components }))
            }
            (
                Shadow::Array { .. },
                &TypeInner::Array {
                    base,
                    size: naga::ArraySize::Constant(n),
                    ..
                },
            ) => {
                let mut components = Vec::with_capacity(n.get() as usize);
                for i in 0..n.get() {
                    let p = b.push(Expression::AccessIndex {
                        base: pointer,
                        index: i,
                    });
                    components.push(self.value(b, p, base)?);
                }
                Some(b.push(Expression::Compose { ty, components }))
            }
            _ => None,
        }
    }
}

/// The matrix of type `matrix` whose `count` columns are the members from
/// `first` of the struct `base` points to.
fn columns(
    b: &mut remap::ExpressionBuilder,
    base: Handle<Expression>,
    first: u32,
    count: u32,
    matrix: Handle<Type>,
) -> Handle<Expression> {
    let components = (first..first + count)
        .map(|index| {
            let p = b.push(Expression::AccessIndex { base, index });
            b.push(Expression::Load { pointer: p })
        })
        .collect();
    b.push(Expression::Compose {
        ty: matrix,
        components,
    })
}

/// Does a call in `block` (or a block nested in it) pass an argument
/// `tracked` says yes to?
pub(super) fn calls_with(
    block: &naga::Block,
    tracked: &dyn Fn(Handle<Expression>) -> bool,
) -> bool {
    let mut found = false;
    crate::front::module::visit_calls(block, &mut |_, arguments| {
        found = found || arguments.iter().any(|&a| tracked(a));
    });
    found
}
