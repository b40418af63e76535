//! Function bodies: naga expressions and statements printed as HLSL.
//!
//! INTERFACE (owned by the function part; `decl` calls it).
//!
//! - this file: the writer, signatures, local variables and statements;
//! - `expr`: expressions, pointers ([`super::buffers::Place`] for buffers,
//!   lvalue text otherwise), literals, casts and operators with WGSL's
//!   defined behaviours;
//! - `image`: sampling, loads, stores and queries of textures (free
//!   functions on printed operands);
//! - `math`: the builtin functions (`MathFunction`) and their polyfills
//!   (free functions on printed operands).

mod expr;
mod image;
mod math;

use super::{Ctx, Needs};
use naga::Handle;

/// The complete definition of function `handle` (signature and body).
pub fn write_function(ctx: &Ctx<'_>, needs: &mut Needs, handle: Handle<naga::Function>) -> String {
    let _ = (ctx, needs, handle);
    todo!()
}

/// The entry function of entry point `index`: `decl::entry_signature`,
/// then `decl::entry_prologue`, the body, and every `return` replaced by
/// `decl::entry_return`.
pub fn write_entry_point(ctx: &Ctx<'_>, needs: &mut Needs, index: usize) -> String {
    let _ = (ctx, needs, index);
    todo!()
}

/// A module-scope constant expression (`module.global_expressions`) as an
/// HLSL expression: for constants and global initializers.
pub fn const_expression(
    ctx: &Ctx<'_>,
    needs: &mut Needs,
    expr: Handle<naga::Expression>,
) -> String {
    let _ = (ctx, needs, expr);
    todo!()
}
