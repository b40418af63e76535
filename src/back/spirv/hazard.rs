//! Work around naga 30's handling of two-row matrices in uniform buffers.
//!
//! naga's SPIR-V writer declares "std140 compatible" copies of uniform types
//! that contain a `matCx2` (the columns become separate `vec2` members), but
//! it only looks through array members: a struct that reaches such a matrix
//! through a plain struct-typed member keeps its ordinary declaration, while
//! the access-chain code still assumes the split one. The result is an
//! invalid `OpAccessChain` (the column index is dropped) or a panic.
//!
//! [`nested_two_row_matrix`] finds such modules; for them every two-row
//! matrix of the uniform buffers is declared as its columns by stride
//! (`super::columns`, [`crate::layout::realize::spirv::ColumnSplit::All`]),
//! so naga's own split never runs. The struct members keep their declared
//! types (no array around them), and the bytes their offsets.
//!
//! The second hazard is a pointer into a variable passed as a call argument
//! ([`spill_pointer_arguments`]).

use indexmap::IndexMap;
use naga::{Expression, Handle, Module, Type, TypeInner};

/// Whether `ty` contains a two-row matrix that naga would split, and
/// whether it reaches one through a struct-typed member.
fn two_row_matrix(
    module: &Module,
    ty: Handle<Type>,
    memo: &mut IndexMap<Handle<Type>, (bool, bool)>,
) -> (bool, bool) {
    if let Some(&known) = memo.get(&ty) {
        return known;
    }
    // Types only refer to smaller handles, so this recursion ends.
    memo.insert(ty, (false, false));
    let result = match &module.types[ty].inner {
        TypeInner::Matrix {
            rows: naga::VectorSize::Bi,
            ..
        } => (true, false),
        TypeInner::Array { base, .. } => two_row_matrix(module, *base, memo),
        TypeInner::Struct { members, .. } => members.iter().fold((false, false), |acc, m| {
            let (split, nested) = two_row_matrix(module, m.ty, memo);
            let is_struct = matches!(module.types[m.ty].inner, TypeInner::Struct { .. });
            (acc.0 || split, acc.1 || nested || (is_struct && split))
        }),
        _ => (false, false),
    };
    memo.insert(ty, result);
    result
}

/// Whether a uniform buffer of `module` reaches a two-row matrix through a
/// struct-typed member, which naga 30's writer mishandles (see the module
/// documentation): then every two-row matrix of the module's uniform
/// buffers is declared as its columns by stride (`columns`), and naga sees
/// none.
pub fn nested_two_row_matrix(module: &Module) -> bool {
    // Nothing to find without a two-row matrix type and a uniform buffer.
    let has_two_row_matrix = module.types.iter().any(|(_, t)| {
        matches!(
            t.inner,
            TypeInner::Matrix {
                rows: naga::VectorSize::Bi,
                ..
            }
        )
    });
    let mut memo = IndexMap::new();
    has_two_row_matrix
        && module.global_variables.iter().any(|(_, v)| {
            v.space == naga::AddressSpace::Uniform && two_row_matrix(module, v.ty, &mut memo).1
        })
}

/// naga 30's writer panics ("Expression \[N\] is not cached!") when a call
/// argument is a pointer into a variable (`f(&a[1])`, `g(&(*p).field)`):
/// it only writes access chains when they are loaded or stored through.
/// Pass such arguments by copy instead: a temporary of the pointee type
/// (a local for function pointers, a private global for private ones) is
/// loaded from the pointer before the call and stored back after it. WGSL's
/// aliasing rules forbid the callee from reaching the same memory another
/// way while it writes through the pointer, so the copy is not observable.
///
/// Expression types come from naga's type resolver, as the validator
/// gives them, so that the module is validated once, after the rewrite.
/// Returns the rewritten module, or `None` when no call needs it (or when
/// a function's types do not resolve: the module is invalid, and naga's
/// validation says why).
pub fn spill_pointer_arguments(module: &Module) -> Option<Module> {
    // Only a function with a pointer parameter can be called with a
    // pointer: without one, no expression type needs resolving.
    if !takes_parameter(module, crate::back::text::is_pointer) {
        return None;
    }
    let mut spills = Vec::new();
    for (site, f) in Site::all(module) {
        let types = resolved_types(module, f)?;
        if super::columns::calls_with(&f.body, &|arg| may_spill(module, f, &types, arg)) {
            spills.push((site, types));
        }
    }
    if spills.is_empty() {
        return None;
    }
    let mut module = module.clone();
    let mut privates = 0usize;
    let mut changed = false;
    for (site, types) in spills {
        changed |= site.edit(&mut module, |module, f, body| {
            spill_in_block(module, f, &types, body, &mut privates)
        });
    }
    changed.then_some(module)
}

/// Does a function of `module` (entry points are never called) take a
/// parameter whose type `pick` chooses?
pub fn takes_parameter(module: &Module, pick: impl Fn(&TypeInner) -> bool) -> bool {
    module.functions.iter().any(|(_, f)| {
        f.arguments
            .iter()
            .any(|a| module.types.get_handle(a.ty).is_ok_and(|t| pick(&t.inner)))
    })
}

/// A function of a module, or the function of one of its entry points.
#[derive(Clone, Copy)]
pub(super) enum Site {
    Function(Handle<naga::Function>),
    EntryPoint(usize),
}

impl Site {
    /// Every function of `module`, then every entry point's, with its site.
    pub(super) fn all(module: &Module) -> impl Iterator<Item = (Site, &naga::Function)> {
        let functions = module.functions.iter().map(|(h, f)| (Site::Function(h), f));
        let entry_points = module.entry_points.iter().enumerate();
        functions.chain(entry_points.map(|(i, ep)| (Site::EntryPoint(i), &ep.function)))
    }

    fn function_mut(self, module: &mut Module) -> &mut naga::Function {
        match self {
            Site::Function(h) => &mut module.functions[h],
            Site::EntryPoint(i) => &mut module.entry_points[i].function,
        }
    }

    /// `edit` on the function at this site and on its body, both taken out
    /// of `module` while it runs: a function only calls functions declared
    /// before it, so that hides nothing its expressions refer to. Returns
    /// what `edit` does (whether it changed anything).
    pub(super) fn edit(
        self,
        module: &mut Module,
        edit: impl FnOnce(&mut Module, &mut naga::Function, &mut naga::Block) -> bool,
    ) -> bool {
        let mut f = std::mem::take(self.function_mut(module));
        let mut body = std::mem::take(&mut f.body);
        let changed = edit(module, &mut f, &mut body);
        f.body = body;
        *self.function_mut(module) = f;
        changed
    }
}

/// The type of every expression of `f`, as the validator resolves them;
/// `None` when one does not resolve.
pub(super) fn resolved_types(module: &Module, f: &naga::Function) -> Option<naga::front::Typifier> {
    let mut typifier = naga::front::Typifier::new();
    if let Some((last, _)) = f.expressions.iter().next_back() {
        let ctx = naga::proc::ResolveContext::with_locals(module, &f.local_variables, &f.arguments);
        typifier.grow(last, &f.expressions, &ctx).ok()?;
    }
    Some(typifier)
}

/// Would [`spill_in_block`] touch call argument `arg` of `f`: an access
/// chain whose type is a pointer into function or private memory, or a
/// value pointer (which `spill_in_block` resolves whatever its space)?
fn may_spill(
    module: &Module,
    f: &naga::Function,
    types: &naga::front::Typifier,
    arg: Handle<Expression>,
) -> bool {
    let is_chain = matches!(
        f.expressions.try_get(arg),
        Ok(Expression::Access { .. } | Expression::AccessIndex { .. })
    );
    is_chain
        && match *types[arg].inner_with(&module.types) {
            TypeInner::Pointer { space, .. } => matches!(
                space,
                naga::AddressSpace::Function | naga::AddressSpace::Private
            ),
            TypeInner::ValuePointer { .. } => true,
            _ => false,
        }
}

fn spill_in_block(
    module: &mut Module,
    f: &mut naga::Function,
    types: &naga::front::Typifier,
    block: &mut naga::Block,
    privates: &mut usize,
) -> bool {
    use naga::Statement as S;
    let mut changed = false;
    let old = std::mem::take(block);
    let mut out = naga::Block::with_capacity(old.len());
    for (mut statement, span) in old.span_into_iter() {
        for b in crate::back::nested_blocks_mut(&mut statement) {
            changed |= spill_in_block(module, f, types, b, privates);
        }
        let S::Call { arguments, .. } = &mut statement else {
            out.push(statement, span);
            continue;
        };
        let mut after = Vec::new();
        for arg in arguments.iter_mut() {
            if !may_spill(module, f, types, *arg) {
                continue;
            }
            let (pointee, space) = match *types[*arg].inner_with(&module.types) {
                TypeInner::Pointer { base, space } => (base, space),
                TypeInner::ValuePointer {
                    size,
                    scalar,
                    space,
                } => {
                    let inner = match size {
                        Some(size) => TypeInner::Vector { size, scalar },
                        None => TypeInner::Scalar(scalar),
                    };
                    let ty = module
                        .types
                        .insert(Type { name: None, inner }, naga::Span::UNDEFINED);
                    (ty, space)
                }
                _ => continue,
            };
            let temporary = match space {
                naga::AddressSpace::Function => {
                    let local = f.local_variables.append(
                        naga::LocalVariable {
                            name: Some("stride_argument".to_string()),
                            ty: pointee,
                            init: None,
                        },
                        span,
                    );
                    f.expressions.append(Expression::LocalVariable(local), span)
                }
                naga::AddressSpace::Private => {
                    *privates += 1;
                    let global = module.global_variables.append(
                        naga::GlobalVariable {
                            name: Some(format!("stride_argument{privates}")),
                            space: naga::AddressSpace::Private,
                            binding: None,
                            ty: pointee,
                            init: None,
                            memory_decorations: Default::default(),
                        },
                        span,
                    );
                    f.expressions
                        .append(Expression::GlobalVariable(global), span)
                }
                _ => continue,
            };
            let copy_in = f
                .expressions
                .append(Expression::Load { pointer: *arg }, span);
            out.push(
                S::Emit(naga::Range::new_from_bounds(copy_in, copy_in)),
                span,
            );
            out.push(
                S::Store {
                    pointer: temporary,
                    value: copy_in,
                },
                span,
            );
            let copy_out = f
                .expressions
                .append(Expression::Load { pointer: temporary }, span);
            after.push(S::Emit(naga::Range::new_from_bounds(copy_out, copy_out)));
            after.push(S::Store {
                pointer: *arg,
                value: copy_out,
            });
            *arg = temporary;
            changed = true;
        }
        out.push(statement, span);
        for s in after {
            out.push(s, span);
        }
    }
    *block = out;
    changed
}
