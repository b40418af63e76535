//! How buffer globals (uniform, storage, push constant) are declared in
//! GLSL and how code reaches their bytes.
//!
//! INTERFACE (owned by the buffers part; `func` and `decl` only call it):
//!
//! - [`plan`] computes a [`Plan`] once per module from the contract layout,
//!   or returns error diagnostics (at the WGSL member, with a fix) for
//!   layouts the dialect cannot express.
//! - `decl` prints [`Plan::declarations`] (buffer variant structs) after the
//!   value structs, and [`Plan::block`] for every buffer global the entry
//!   point uses.
//! - `func` starts every access chain into a buffer at
//!   [`Plan::global`], walks down with [`Plan::member`] and
//!   [`Plan::element`], and ends with [`Plan::load`] or [`Plan::store`].
//!
//! Everything that is `Repr::Plain` is ordinary GLSL: the lvalue text has
//! the value type's spelling and layout, so `func` indexes, loads and stores
//! it as it would a local.

use super::{Ctx, Dialect, Needs};
use crate::diag::Diagnostics;
use crate::layout::LayoutModule;
use naga::Handle;

/// How the GLSL storage behind a pointer into a buffer is shaped.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Repr {
    /// Same GLSL type and layout as the value: plain indexing, load, store.
    Plain,
    /// The block of a buffer global whose WGSL type is a struct: its
    /// top-level members are the block's members (`<instance>.<member>`).
    Block(Handle<naga::GlobalVariable>),
    /// A buffer variant of a WGSL struct (padding members, split matrices):
    /// `Plan::variants[index]`.
    Variant(usize),
    /// An array (fixed or runtime-sized) whose element is not `Plain`.
    Array(Box<Repr>),
    /// A matrix stored as column vectors: column `j` of the lvalue `base` is
    /// `{base}_c{j}` ([`ColumnStyle::Suffix`], a block or variant member
    /// split in place) or `{base}.c{j}` ([`ColumnStyle::Wrapper`], an array
    /// element wrapped in a struct of columns).
    Columns {
        columns: u8,
        rows: u8,
        scalar: naga::Scalar,
        style: ColumnStyle,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ColumnStyle {
    Suffix,
    Wrapper,
}

/// An index into an array or matrix, as `func` has already written it
/// (clamped as the bounds-check policy requires).
pub enum Index<'a> {
    Constant(u32),
    Dynamic(&'a str),
}

/// One GLSL struct that stores a WGSL struct in a buffer.
#[derive(Clone, Debug)]
pub struct Variant {
    /// The WGSL struct.
    pub ty: Handle<naga::Type>,
    /// The GLSL struct name.
    pub name: String,
    /// Per WGSL member: its GLSL member name (for a split matrix, the
    /// prefix of its column members) and its repr.
    pub members: Vec<(String, Repr)>,
}

/// How one buffer global is declared.
#[derive(Clone, Debug)]
pub struct Block {
    pub global: Handle<naga::GlobalVariable>,
    /// The instance name: code refers to `<instance>.<member>`.
    pub instance: String,
    /// The repr of the global's pointer: `Block(global)` when the WGSL type
    /// is a struct; otherwise the repr of the single member `value`, whose
    /// lvalue is `<instance>.value`.
    pub repr: Repr,
    /// Per WGSL member of a struct-typed global: GLSL member name (split
    /// matrix: prefix) and repr.
    pub members: Vec<(String, Repr)>,
}

#[derive(Clone, Debug, Default)]
pub struct Plan {
    pub variants: Vec<Variant>,
    pub blocks: Vec<Block>,
}

/// Compute the plan for every buffer global of the module.
pub fn plan(
    module: &naga::Module,
    contract: &LayoutModule,
    dialect: Dialect,
    names: &naga::FastHashMap<naga::proc::NameKey, String>,
) -> Result<Plan, Diagnostics> {
    let _ = (module, contract, dialect, names);
    todo!("buffers part")
}

impl Plan {
    /// The block of buffer global `g`, if it is one.
    pub fn block(&self, g: Handle<naga::GlobalVariable>) -> Option<&Block> {
        self.blocks.iter().find(|b| b.global == g)
    }

    /// The lvalue text and repr of the pointer `GlobalVariable(g)`, for a
    /// buffer global; `None` for any other global.
    pub fn global(&self, g: Handle<naga::GlobalVariable>) -> Option<(String, Repr)> {
        let _ = g;
        todo!("buffers part")
    }

    /// Member `index` of a struct behind `base` (repr `Block` or
    /// `Variant`): its lvalue text and repr.
    pub fn member(&self, base: &str, repr: &Repr, index: u32) -> (String, Repr) {
        let _ = (base, repr, index);
        todo!("buffers part")
    }

    /// Element `index` of an array or column of a matrix behind `base`
    /// (repr `Plain`, `Array` or `Columns`). A dynamic column of `Columns`
    /// is a value, not an lvalue: the result's text is then an rvalue and
    /// its repr `Plain` (only uniform matrices are split, and uniforms are
    /// never stored to).
    pub fn element(&self, base: &str, repr: &Repr, index: Index<'_>) -> (String, Repr) {
        let _ = (base, repr, index);
        todo!("buffers part")
    }

    /// An rvalue of value type `ty` read from the lvalue `base` of `repr`.
    /// May add conversion helpers to `needs`.
    pub fn load(
        &self,
        ctx: &Ctx<'_>,
        needs: &mut Needs,
        base: &str,
        repr: &Repr,
        ty: Handle<naga::Type>,
    ) -> String {
        let _ = (ctx, needs, base, repr, ty);
        todo!("buffers part")
    }

    /// Statements (each line starting with `indent`, ending in a newline)
    /// storing the value `value` (a name or other side-effect-free
    /// expression, evaluated possibly several times) of type `ty` into the
    /// lvalue `base` of `repr`, member by member wherever the storage has
    /// padding members, so that padding bytes are never written.
    pub fn store(
        &self,
        ctx: &Ctx<'_>,
        needs: &mut Needs,
        base: &str,
        repr: &Repr,
        ty: Handle<naga::Type>,
        value: &str,
        indent: &str,
    ) -> String {
        let _ = (ctx, needs, base, repr, ty, value, indent);
        todo!("buffers part")
    }

    /// GLSL declarations of every buffer variant (and column-wrapper
    /// struct), in dependency order. Printed after the value structs.
    pub fn declarations(&self, ctx: &Ctx<'_>) -> String {
        let _ = ctx;
        todo!("buffers part")
    }

    /// The full block declaration of buffer global `block`, with
    /// `layout_prefix` (e.g. `set = 0, binding = 1`) inside its
    /// `layout(...)`, std140/std430 and offsets or padding by dialect.
    pub fn block_declaration(&self, ctx: &Ctx<'_>, block: &Block, layout_prefix: &str) -> String {
        let _ = (ctx, block, layout_prefix);
        todo!("buffers part")
    }
}
