//! Loop bodies whose `let`s the continuing block reads.
//!
//! The GLSL and HLSL writers run a loop's continuing block at the top of
//! the next iteration, where declarations of the body are out of scope.
//! Values of the body's top level that the continuing block reads are
//! therefore declared before the loop and assigned where the body computes
//! them; [`loop_carried`] finds them.

use crate::remap::expression_operands as operands;
use naga::{Expression as E, Handle, Statement as S};

/// The values computed at the top level of loop `body` that `continuing`
/// or `break_if` read, in handle order: each must be declared before the
/// loop. `is_value(h)` says whether expression `h` is a value a local can
/// hold; other expressions (pointers, which the writers re-print at every
/// use) are never declared: the values their text reads are.
pub(crate) fn loop_carried(
    exprs: &naga::Arena<E>,
    body: &naga::Block,
    continuing: &naga::Block,
    break_if: Option<Handle<E>>,
    is_value: impl Fn(Handle<E>) -> bool,
) -> Vec<Handle<E>> {
    let mut in_body = naga::FastHashSet::default();
    for stmt in body.iter() {
        match *stmt {
            S::Emit(ref range) => in_body.extend(range.clone()),
            S::Call {
                result: Some(r), ..
            }
            | S::Atomic {
                result: Some(r), ..
            }
            | S::WorkGroupUniformLoad { result: r, .. } => {
                in_body.insert(r);
            }
            _ => {}
        }
    }
    if in_body.is_empty() {
        return Vec::new();
    }
    let mut work = crate::remap::block_operands(exprs, continuing);
    work.extend(break_if);
    let mut seen = naga::FastHashSet::default();
    let mut carried = Vec::new();
    while let Some(h) = work.pop() {
        if !seen.insert(h) {
            continue;
        }
        if !in_body.contains(&h) {
            continue;
        }
        if is_value(h) {
            carried.push(h);
        } else {
            work.extend(operands(&exprs[h]));
        }
    }
    carried.sort_by_key(|h| h.index());
    carried
}
