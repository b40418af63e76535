//! Loop bodies whose `let`s the continuing block reads.
//!
//! GLSL runs the continuing block at the top of the next iteration (see
//! `FunctionWriter::loop`), where declarations of the body are out of
//! scope. Values of the body's top level that the continuing block reads
//! are therefore declared before the loop and assigned where the body
//! computes them.

use super::FunctionWriter;
use naga::{Expression as E, Handle, Statement as S};

/// Calls `f` on every expression `expr` reads.
fn expression_operands(expr: &E, mut f: impl FnMut(Handle<E>)) {
    match *expr {
        E::Access { base, index } => {
            f(base);
            f(index);
        }
        E::AccessIndex { base, .. } => f(base),
        E::Splat { value, .. } => f(value),
        E::Swizzle { vector, .. } => f(vector),
        E::Compose { ref components, .. } => components.iter().copied().for_each(f),
        E::Load { pointer } => f(pointer),
        E::ImageSample {
            image,
            sampler,
            coordinate,
            array_index,
            offset,
            level,
            depth_ref,
            ..
        } => {
            f(image);
            f(sampler);
            f(coordinate);
            array_index.into_iter().for_each(&mut f);
            offset.into_iter().for_each(&mut f);
            depth_ref.into_iter().for_each(&mut f);
            match level {
                naga::SampleLevel::Exact(l) | naga::SampleLevel::Bias(l) => f(l),
                naga::SampleLevel::Gradient { x, y } => {
                    f(x);
                    f(y);
                }
                naga::SampleLevel::Auto | naga::SampleLevel::Zero => {}
            }
        }
        E::ImageLoad {
            image,
            coordinate,
            array_index,
            sample,
            level,
        } => {
            f(image);
            f(coordinate);
            [array_index, sample, level]
                .into_iter()
                .flatten()
                .for_each(f);
        }
        E::ImageQuery { image, query } => {
            f(image);
            if let naga::ImageQuery::Size { level: Some(l) } = query {
                f(l);
            }
        }
        E::Unary { expr, .. }
        | E::Derivative { expr, .. }
        | E::As { expr, .. }
        | E::Relational { argument: expr, .. }
        | E::ArrayLength(expr) => f(expr),
        E::Binary { left, right, .. } => {
            f(left);
            f(right);
        }
        E::Select {
            condition,
            accept,
            reject,
        } => {
            f(condition);
            f(accept);
            f(reject);
        }
        E::Math {
            arg,
            arg1,
            arg2,
            arg3,
            ..
        } => {
            f(arg);
            [arg1, arg2, arg3].into_iter().flatten().for_each(f);
        }
        E::RayQueryGetIntersection { query, .. } | E::RayQueryVertexPositions { query, .. } => {
            f(query)
        }
        E::CooperativeMultiplyAdd { a, b, c } => {
            f(a);
            f(b);
            f(c);
        }
        E::CooperativeLoad { ref data, .. } => {
            f(data.pointer);
            f(data.stride);
        }
        E::Literal(_)
        | E::Constant(_)
        | E::Override(_)
        | E::ZeroValue(_)
        | E::FunctionArgument(_)
        | E::GlobalVariable(_)
        | E::LocalVariable(_)
        | E::CallResult(_)
        | E::AtomicResult { .. }
        | E::WorkGroupUniformLoadResult { .. }
        | E::RayQueryProceedResult
        | E::SubgroupBallotResult
        | E::SubgroupOperationResult { .. } => {}
    }
}

/// Calls `f` on every expression the statements of `block` (nested blocks
/// included) read, and on the operands of the expressions they emit.
fn block_operands(exprs: &naga::Arena<E>, block: &naga::Block, f: &mut impl FnMut(Handle<E>)) {
    for stmt in block.iter() {
        match *stmt {
            S::Emit(ref range) => {
                for h in range.clone() {
                    expression_operands(&exprs[h], &mut *f);
                }
            }
            S::Block(ref b) => block_operands(exprs, b, f),
            S::If {
                condition,
                ref accept,
                ref reject,
            } => {
                f(condition);
                block_operands(exprs, accept, f);
                block_operands(exprs, reject, f);
            }
            S::Switch {
                selector,
                ref cases,
            } => {
                f(selector);
                for c in cases {
                    block_operands(exprs, &c.body, f);
                }
            }
            S::Loop {
                ref body,
                ref continuing,
                break_if,
            } => {
                block_operands(exprs, body, f);
                block_operands(exprs, continuing, f);
                break_if.into_iter().for_each(&mut *f);
            }
            S::Return { value } => value.into_iter().for_each(&mut *f),
            S::Store { pointer, value } => {
                f(pointer);
                f(value);
            }
            S::ImageStore {
                image,
                coordinate,
                array_index,
                value,
            } => {
                f(image);
                f(coordinate);
                array_index.into_iter().for_each(&mut *f);
                f(value);
            }
            S::Atomic {
                pointer,
                ref fun,
                value,
                ..
            } => {
                f(pointer);
                f(value);
                if let naga::AtomicFunction::Exchange { compare: Some(c) } = *fun {
                    f(c);
                }
            }
            S::ImageAtomic {
                image,
                coordinate,
                array_index,
                ref fun,
                value,
            } => {
                f(image);
                f(coordinate);
                array_index.into_iter().for_each(&mut *f);
                f(value);
                if let naga::AtomicFunction::Exchange { compare: Some(c) } = *fun {
                    f(c);
                }
            }
            S::WorkGroupUniformLoad { pointer, .. } => f(pointer),
            S::Call { ref arguments, .. } => arguments.iter().copied().for_each(&mut *f),
            S::SubgroupBallot { predicate, .. } => predicate.into_iter().for_each(&mut *f),
            S::SubgroupGather { argument, .. }
            | S::SubgroupCollectiveOperation { argument, .. } => f(argument),
            _ => {}
        }
    }
}

impl FunctionWriter<'_, '_> {
    /// The values computed at the top level of loop `body` that
    /// `continuing` or `break_if` read, in handle order: each must be
    /// declared before the loop. Pointers are never declared: the values
    /// their lvalue text reads are.
    pub(super) fn loop_carried(
        &self,
        body: &naga::Block,
        continuing: &naga::Block,
        break_if: Option<Handle<E>>,
    ) -> Vec<Handle<E>> {
        let exprs = self.exprs;
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
        let mut work = Vec::new();
        block_operands(exprs, continuing, &mut |h| work.push(h));
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
            if super::expr::is_value_type(self.ty(h)) {
                carried.push(h);
            } else {
                expression_operands(&exprs[h], |o| work.push(o));
            }
        }
        carried.sort_by_key(|h| h.index());
        carried
    }
}
