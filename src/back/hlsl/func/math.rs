//! The builtin functions (`MathFunction`) and their polyfills, as free
//! functions on printed operands.
//!
//! INTERFACE (owned by the math/image part; `func::expr` calls it).

use super::super::{Ctx, Needs};
use naga::TypeInner;

/// A printed operand with its resolved type.
pub(crate) struct Arg<'a> {
    pub text: &'a str,
    pub ty: &'a TypeInner,
}

/// An HLSL expression computing WGSL builtin `fun` on `args` (1 to 4
/// operands), whose WGSL result type is `result`. Polyfills go into
/// `needs.helpers`; a function HLSL cannot compute at the chosen shader
/// model is an error pushed to `needs` at `span`.
pub(crate) fn call(
    ctx: &Ctx<'_>,
    needs: &mut Needs,
    fun: naga::MathFunction,
    args: &[Arg<'_>],
    result: &TypeInner,
    span: naga::Span,
) -> String {
    let _ = (ctx, needs, fun, args, result, span);
    todo!()
}
