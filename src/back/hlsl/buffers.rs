//! How buffer globals (uniform, storage, push constant) are declared in
//! HLSL and how code reaches their bytes.
//!
//! INTERFACE (owned by the buffers part; `func` and `decl` only call it):
//!
//! - [`plan`] computes a [`Plan`] once per module from the contract layout,
//!   or returns error diagnostics (at the WGSL member, with a fix, carrying
//!   [`super::INEXPRESSIBLE_NOTE`]) for layouts a cbuffer cannot express.
//! - `decl` prints [`Plan::declarations`] (buffer variant structs) after the
//!   value structs, and [`Plan::buffer_declaration`] for every buffer global
//!   (with the register text `decl` chose).
//! - `func` starts every access chain into a buffer at [`Plan::global`],
//!   walks down with [`Plan::member`] and [`Plan::element`], and ends with
//!   [`Plan::load`], [`Plan::store`], [`Plan::atomic`] or
//!   [`Plan::array_length`].
//!
//! Uniform globals (and push constants) are `cbuffer`s. The top-level
//! members of a struct-typed global are the cbuffer's members, named
//! `<global>_<member>` (cbuffer members are global names in HLSL), each
//! with `packoffset(cR.c)` from the contract; a global of another type is
//! the single member `<global>`. Nested structs whose HLSL packing differs
//! from the contract become buffer variants (`<Struct>_cb`) with padding
//! members; matrices whose row stride is not 16 (matCx2) are split into
//! column vectors; arrays whose contract stride exceeds the HLSL one get a
//! wrapper element struct. All of it is packed again by HLSL's rules and
//! compared with the contract before anything is printed.
//!
//! Storage globals are `ByteAddressBuffer` (read-only) or
//! `RWByteAddressBuffer`. A pointer into one is a byte offset; loads and
//! stores go through helper functions (added to `Needs::helpers`) that read
//! or write every leaf at its contract offset with `Load`/`Load2`/`Load3`/
//! `Load4` and `asfloat`/`asint` (`Load<T>` for 16- and 64-bit types), and
//! never touch padding.

use super::{Ctx, Needs};
use crate::diag::Diagnostics;
use crate::front::Parsed;
use crate::layout::{Layout, LayoutModule};
use naga::proc::NameKey;
use naga::Handle;

/// How the HLSL storage behind a cbuffer lvalue is shaped.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Repr {
    /// Same HLSL type and layout as the value: plain indexing and loads.
    Plain,
    /// A struct-typed uniform global: its members are cbuffer members,
    /// reached by their own names through [`Plan::member`].
    Cbuffer(Handle<naga::GlobalVariable>),
    /// A buffer variant of a WGSL struct: `Plan`-internal index.
    Variant(usize),
    /// An array whose element is not `Plain`.
    Array(Box<Repr>),
    /// An array element wrapped in an element struct with padding.
    Wrapped { element: usize, inner: Box<Repr> },
    /// A matrix stored as column vectors.
    Columns {
        columns: u8,
        rows: u8,
        scalar: naga::Scalar,
    },
}

/// Where a pointer into a buffer points.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Place {
    /// An HLSL lvalue in a cbuffer and how its storage is shaped.
    Text { text: String, repr: Repr },
    /// Bytes of a byte-address buffer: the value at byte `offset` (an HLSL
    /// `uint` expression) of `global`, laid out as `layout` (the contract
    /// layout of the pointee).
    Bytes {
        global: Handle<naga::GlobalVariable>,
        offset: String,
        layout: Layout,
    },
}

/// An index into an array or matrix, as `func` has already written it
/// (clamped as the bounds-check policy requires).
pub enum Index<'a> {
    Constant(u32),
    Dynamic(&'a str),
}

/// How every buffer global of a module is declared and accessed.
#[derive(Clone, Debug, Default)]
pub struct Plan {}

/// Compute the plan for every buffer global of the module. `parsed` gives
/// the spans of WGSL members for diagnostics; `module` is the module written
/// (`parsed.module` or its copy with overrides baked: same types).
pub fn plan(
    parsed: &Parsed,
    module: &naga::Module,
    contract: &LayoutModule,
    names: &naga::FastHashMap<NameKey, String>,
) -> Result<Plan, Diagnostics> {
    let _ = (parsed, module, contract, names);
    todo!("buffers::plan")
}

impl Plan {
    /// Whether `g` is a buffer global this plan declares.
    pub fn is_buffer(&self, g: Handle<naga::GlobalVariable>) -> bool {
        let _ = g;
        todo!()
    }

    /// The place of buffer global `g` itself (`None`: not a buffer).
    pub fn global(&self, g: Handle<naga::GlobalVariable>) -> Option<Place> {
        let _ = g;
        todo!()
    }

    /// Member `index` of the struct at `place`.
    pub fn member(&self, ctx: &Ctx<'_>, place: &Place, index: u32) -> Place {
        let _ = (ctx, place, index);
        todo!()
    }

    /// Element `index` of the array, matrix (a column) or vector (a
    /// component) at `place`.
    pub fn element(&self, ctx: &Ctx<'_>, place: &Place, index: Index<'_>) -> Place {
        let _ = (ctx, place, index);
        todo!()
    }

    /// An HLSL expression with the value at `place`, of WGSL value type `ty`.
    pub fn load(
        &self,
        ctx: &Ctx<'_>,
        needs: &mut Needs,
        place: &Place,
        ty: Handle<naga::Type>,
    ) -> String {
        let _ = (ctx, needs, place, ty);
        todo!()
    }

    /// Statements (each line ending in `;` and a newline, not indented)
    /// storing `value` (of WGSL type `ty`) at `place`.
    pub fn store(
        &self,
        ctx: &Ctx<'_>,
        needs: &mut Needs,
        place: &Place,
        ty: Handle<naga::Type>,
        value: &str,
    ) -> String {
        let _ = (ctx, needs, place, ty, value);
        todo!()
    }

    /// Statements performing atomic `fun` at `place` (a `Bytes` place of an
    /// atomic) with `value` (and `compare`, printed, for compare-exchange),
    /// storing the old value into the already declared variable `result`
    /// when given (for compare-exchange, a `__atomic_compare_exchange_result`
    /// struct: `result.old_value` and `result.exchanged`, by the member
    /// names in `ctx.names`).
    #[allow(clippy::too_many_arguments)]
    pub fn atomic(
        &self,
        ctx: &Ctx<'_>,
        needs: &mut Needs,
        place: &Place,
        fun: &naga::AtomicFunction,
        value: &str,
        compare: Option<&str>,
        result: Option<&str>,
    ) -> String {
        let _ = (ctx, needs, place, fun, value, compare, result);
        todo!()
    }

    /// A `uint` expression: the element count of the runtime-sized array at
    /// `place`.
    pub fn array_length(&self, ctx: &Ctx<'_>, needs: &mut Needs, place: &Place) -> String {
        let _ = (ctx, needs, place);
        todo!()
    }

    /// The buffer variant and wrapper structs, in dependency order.
    pub fn declarations(&self, ctx: &Ctx<'_>) -> String {
        let _ = ctx;
        todo!()
    }

    /// The declaration of buffer global `g`, with `register` as the text
    /// after `register(` (e.g. `b0, space1`).
    pub fn buffer_declaration(
        &self,
        ctx: &Ctx<'_>,
        g: Handle<naga::GlobalVariable>,
        register: &str,
    ) -> String {
        let _ = (ctx, g, register);
        todo!()
    }
}
