//! The module driver and everything at module scope: validation, override
//! handling, naming, the `#version` header and extensions, constants,
//! overrides, resources with their bindings, private and workgroup
//! globals, and the entry point's inputs and outputs.
//!
//! INTERFACE (owned by the module part; `func` calls the entry-point
//! functions below).

use super::{Ctx, GlslOptions, GlslOutput, Needs};
use crate::diag::Diagnostics;
use crate::front::Parsed;
use crate::layout::LayoutModule;
use naga::Handle;

/// The whole backend for one module: see `super::write`.
pub fn write_module(
    parsed: &Parsed,
    contract: &LayoutModule,
    options: &GlslOptions,
) -> Result<GlslOutput, Diagnostics> {
    let _ = (parsed, contract, options);
    todo!("module part")
}

/// Statements at the start of `main` (indented one level) that declare a
/// local for every entry-point argument, named
/// `ctx.name(NameKey::EntryPointArgument(index, i))`, built from the input
/// variables and builtins (with the conversions WGSL types need, e.g.
/// `uint(gl_VertexIndex)`).
pub fn entry_prologue(ctx: &Ctx<'_>, needs: &mut Needs, index: usize) -> String {
    let _ = (ctx, needs, index);
    todo!("module part")
}

/// Statements (each starting with `indent`) that write the entry point's
/// result `value` (a side-effect-free expression, possibly used several
/// times) to its outputs. `func` follows them with `return;`.
pub fn entry_return(
    ctx: &Ctx<'_>,
    needs: &mut Needs,
    index: usize,
    value: &str,
    indent: &str,
) -> String {
    let _ = (ctx, needs, index, value, indent);
    todo!("module part")
}

/// OpenGL dialects: the name of the combined sampler for `image` used with
/// `sampler` (`None`: read without a sampler).
pub fn combined_sampler_name(
    ctx: &Ctx<'_>,
    image: Handle<naga::GlobalVariable>,
    sampler: Option<Handle<naga::GlobalVariable>>,
) -> String {
    let _ = (ctx, image, sampler);
    todo!("module part")
}
