//! Function bodies: naga expressions and statements printed as GLSL.
//!
//! INTERFACE (owned by the function part; `decl` calls it).

use super::{Ctx, Needs};
use naga::Handle;

/// The complete definition of function `handle` (signature and body).
/// Entry points are written by [`write_entry_main`].
pub fn write_function(ctx: &Ctx<'_>, needs: &mut Needs, handle: Handle<naga::Function>) -> String {
    let _ = (ctx, needs, handle);
    todo!("function part")
}

/// `void main() { ... }` for entry point `index`: the prologue from
/// `decl::entry_prologue`, the body, and every `return` replaced by
/// `decl::entry_return` followed by `return;`.
pub fn write_entry_main(ctx: &Ctx<'_>, needs: &mut Needs, index: usize) -> String {
    let _ = (ctx, needs, index);
    todo!("function part")
}

/// A module-scope constant expression (`module.global_expressions`) as a
/// GLSL constant expression: for constants, override defaults and global
/// initializers.
pub fn const_expression(
    ctx: &Ctx<'_>,
    needs: &mut Needs,
    expr: Handle<naga::Expression>,
) -> String {
    let _ = (ctx, needs, expr);
    todo!("function part")
}
