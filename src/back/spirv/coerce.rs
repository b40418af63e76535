//! Whole-array stores between sites with different strides.
//!
//! In the layout dialect the stride is a property of the site, so WGSL's
//! `array<f32, 4>` in a `@stride(16)` member and in a plain member is one
//! type; in SPIR-V (and in naga's IR once the contract is written) they are
//! two. A store of one into the other is rewritten to rebuild the value
//! element by element (`Compose` of `AccessIndex`), which SPIR-V accepts.
//! Other moves of such a value (call arguments, return values) are left to
//! naga's validation, which reports them.

use super::hazard::Site;
use naga::front::Typifier;
use naga::{Expression, Handle, Module, Type, TypeInner};

/// Elements rebuilt at most per store; larger copies are left as they are.
const MAX_ELEMENTS: u32 = 1024;

/// Rewrite stores whose value type differs from the pointer's only by
/// array strides. Returns whether anything changed.
///
/// Expression types come from naga's type resolver, since the module does
/// not validate before this rewrite.
pub fn coerce_array_stores(module: &mut Module) -> bool {
    if !has_convertible_pair(module) {
        return false;
    }
    let sites: Vec<Site> = Site::all(module).map(|(site, _)| site).collect();
    let mut changed = false;
    for site in sites {
        changed |= site.edit(module, |module, f, body| {
            let Some(types) = super::hazard::resolved_types(module, f) else {
                return false;
            };
            in_block(module, f, &types, body)
        });
    }
    changed
}

fn in_block(
    module: &Module,
    f: &mut naga::Function,
    types: &Typifier,
    block: &mut naga::Block,
) -> bool {
    use naga::Statement as S;
    let mut changed = false;
    let old = std::mem::take(block);
    let mut out = naga::Block::with_capacity(old.len());
    for (mut statement, span) in old.span_into_iter() {
        for b in crate::back::nested_blocks_mut(&mut statement) {
            changed |= in_block(module, f, types, b);
        }
        if let S::Store { pointer, value } = &mut statement {
            let target = match *types[*pointer].inner_with(&module.types) {
                TypeInner::Pointer { base, .. } => Some(base),
                _ => None,
            };
            let source = types[*value].handle();
            if let (Some(to), Some(from)) = (target, source) {
                if to != from && convertible(module, from, to, &mut 0) {
                    let start = f.expressions.len();
                    let converted = convert(module, f, *value, from, to, span);
                    if let Some((first, last)) = f.expressions.range_from(start).first_and_last() {
                        out.push(S::Emit(naga::Range::new_from_bounds(first, last)), span);
                    }
                    *value = converted;
                    changed = true;
                }
            }
        }
        out.push(statement, span);
    }
    *block = out;
    changed
}

/// Array types compared pairwise at most; beyond this the full pass runs.
const MAX_PAIRWISE: usize = 64;

/// Can any store need a rewrite? Only when two distinct fixed-size array
/// types of the module are [`convertible`], so the function walk (and its
/// type resolution) is skipped when there is no such pair.
fn has_convertible_pair(module: &Module) -> bool {
    let arrays: Vec<Handle<Type>> = module
        .types
        .iter()
        .filter(|(_, t)| {
            matches!(
                t.inner,
                TypeInner::Array {
                    size: naga::ArraySize::Constant(_),
                    ..
                }
            )
        })
        .map(|(h, _)| h)
        .collect();
    if arrays.len() > MAX_PAIRWISE {
        return true;
    }
    arrays.iter().enumerate().any(|(i, &a)| {
        arrays[i + 1..]
            .iter()
            .any(|&b| convertible(module, a, b, &mut 0))
    })
}

/// Are `from` and `to` fixed-size arrays that differ only in strides?
fn convertible(module: &Module, from: Handle<Type>, to: Handle<Type>, budget: &mut u32) -> bool {
    if from == to {
        return true;
    }
    let (
        TypeInner::Array {
            base: fb,
            size: naga::ArraySize::Constant(fnum),
            ..
        },
        TypeInner::Array {
            base: tb,
            size: naga::ArraySize::Constant(tnum),
            ..
        },
    ) = (&module.types[from].inner, &module.types[to].inner)
    else {
        return false;
    };
    if fnum != tnum {
        return false;
    }
    *budget = budget.saturating_add(fnum.get());
    *budget <= MAX_ELEMENTS && convertible(module, *fb, *tb, budget)
}

/// Append the expressions that rebuild `value` (of type `from`) as `to`.
fn convert(
    module: &Module,
    f: &mut naga::Function,
    value: Handle<Expression>,
    from: Handle<Type>,
    to: Handle<Type>,
    span: naga::Span,
) -> Handle<Expression> {
    if from == to {
        return value;
    }
    let (
        TypeInner::Array {
            base: fb,
            size: naga::ArraySize::Constant(n),
            ..
        },
        TypeInner::Array { base: tb, .. },
    ) = (&module.types[from].inner, &module.types[to].inner)
    else {
        return value;
    };
    let (fb, tb, n) = (*fb, *tb, n.get());
    let mut components = Vec::with_capacity(n as usize);
    for index in 0..n {
        let element = f
            .expressions
            .append(Expression::AccessIndex { base: value, index }, span);
        components.push(convert(module, f, element, fb, tb, span));
    }
    f.expressions
        .append(Expression::Compose { ty: to, components }, span)
}
