//! The module driver and everything at module scope: validation, override
//! baking, naming, registers, the file header, constants, resources,
//! private and workgroup globals, and the entry points' input and output
//! structs.
//!
//! INTERFACE (owned by the module part; `func` calls the entry-point
//! functions below).
//!
//! - [`write_module`] drives everything and assembles the file in this
//!   order: header comment and `#pragma pack_matrix(row_major)`, value
//!   structs and array typedefs (`types::struct_declarations`), buffer
//!   variants (`Plan::declarations`), resources with registers, constants
//!   (`static const`), private (`static`) and workgroup (`groupshared`)
//!   globals, helper functions (`Needs::helpers`, collected while writing
//!   the functions below, so printed after them are written), functions
//!   in arena order, then per entry point its input/output structs and the
//!   entry function.
//! - Overrides: HLSL has no specialization constants, so every override is
//!   baked into a constant (`back::overrides::bake`) with a warning, and
//!   `func` never sees `Expression::Override`.
//! - Entry points: the WGSL arguments are declared as locals named
//!   `ctx.name(NameKey::EntryPointArgument(index, i))` by
//!   [`entry_prologue`], from the HLSL input struct parameter; every
//!   `return` is [`entry_return`].

use super::{Ctx, HlslOptions, HlslOutput, Needs};
use crate::diag::Diagnostics;
use crate::front::Parsed;
use crate::layout::LayoutModule;

/// The whole backend for one module: see `super::write`.
pub fn write_module(
    parsed: &Parsed,
    contract: &LayoutModule,
    options: &HlslOptions,
) -> Result<HlslOutput, Diagnostics> {
    let _ = (parsed, contract, options);
    todo!("decl::write_module")
}

/// The entry function's attributes and signature, without the body:
/// `[numthreads(8, 8, 1)]\nvoid main(_s_main_in _s_in)`.
pub fn entry_signature(ctx: &Ctx<'_>, needs: &mut Needs, index: usize) -> String {
    let _ = (ctx, needs, index);
    todo!()
}

/// Statements (indented one level, each ending in a newline) at the start
/// of the entry function: the WGSL arguments declared from the input
/// struct, and workgroup memory zeroed.
pub fn entry_prologue(ctx: &Ctx<'_>, needs: &mut Needs, index: usize) -> String {
    let _ = (ctx, needs, index);
    todo!()
}

/// Statements (not indented, each ending in a newline; the last one a
/// `return`) that return `value` (the WGSL result, printed) from the entry
/// function.
pub fn entry_return(ctx: &Ctx<'_>, needs: &mut Needs, index: usize, value: Option<&str>) -> String {
    let _ = (ctx, needs, index, value);
    todo!()
}
