//! How buffer globals (uniform, storage, push constant) are declared in
//! HLSL and how code reaches their bytes.
//!
//! INTERFACE (owned by the buffers part; `func` and `decl` only call it):
//!
//! - [`plan`] computes a [`Plan`] once per module from the contract layout,
//!   or returns error diagnostics (at the WGSL member, with a fix, carrying
//!   [`super::INEXPRESSIBLE_NOTE`]) for layouts a cbuffer cannot express.
//! - `decl` prints [`Plan::declarations`] (buffer variant structs) after the
//!   value structs, and [`Plan::write_buffer_declaration`] for every buffer
//!   global (with the register text `decl` chose).
//! - `func` starts every access chain into a buffer at [`Plan::global`],
//!   walks down with [`Plan::member`] and [`Plan::element`], and ends with
//!   [`Plan::load`], [`Plan::store`], [`Plan::atomic`] or
//!   [`Plan::push_array_length`].
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
//! `Load4` and `asfloat`/`asint` (`Load<T>` for 64-bit types), and never
//! touch padding. 16-bit values are read from their containing 32-bit
//! words and shifted out; a lone 16-bit value is written with
//! `InterlockedAnd`/`InterlockedOr` on its word, which leaves the other
//! half alone even when another invocation writes it at the same time.
//! (`Load<half>`/`Store<half>` are right in DXIL, but DXC before 1.8 turns
//! them into whole-word accesses on its SPIR-V route, and later versions
//! into a non-atomic read-modify-write.)
//!
//! How a contract layout becomes a cbuffer is the D3D packing of
//! [`crate::layout::realize::cbuffer`] (the `hlsl-cbuffer` rule set): this
//! module only names and prints what it decides. Top-level members carry
//! `packoffset` (a cbuffer with a 16-bit member at an offset that is not a
//! multiple of 4, which `packoffset` cannot name, is placed with padding
//! members instead); members of nested structs are placed by packing, with
//! `uint`/`uintN`/`uint16_t` padding members (never crossing a register)
//! where the contract puts them later.
//!
//! - `plan`: the [`Plan`] (names, reprs, errors with fixes);
//! - `cbuffer`: cbuffer declarations and the loads that rebuild values;
//! - `bytes`: byte-address loads, stores, atomics and array lengths;
//! - `word16`: 16-bit values in 32-bit words.

mod bytes;
mod cbuffer;
mod plan;
#[cfg(test)]
mod tests;
mod word16;

pub use crate::back::offset::{ByteOffset, BytePlace, Index};
pub use plan::plan;

use bytes::*;
use cbuffer::*;
use plan::*;
use word16::*;

use super::{Ctx, Needs, INEXPRESSIBLE_NOTE};
use crate::back::text::Prec;
use crate::diag::{Diagnostic, DiagnosticKind, Diagnostics, Span};
use crate::front::Parsed;
use crate::layout::realize::bytes::matrix_columns;
use crate::layout::realize::d3d::{self, CbufferRealization, Made};
use crate::layout::realize::naga_scalar;
use crate::layout::realize::{Declared, Field, Role, Storage as LStorage, StructRef};
use crate::layout::{GlobalLayout, Layout, LayoutKind, LayoutModule, StructLayout};
use naga::proc::NameKey;
use naga::Handle;
use std::borrow::Cow;
use std::fmt::Write as _;

pub use crate::layout::realize::Repr;

/// Where a pointer into a buffer points. It borrows what it can from the
/// [`Plan`] and the contract (names, reprs, layouts): a chain of accesses
/// only allocates the texts it builds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Place<'a> {
    /// An HLSL lvalue in a cbuffer and how its storage is shaped. The
    /// text is a name (`word`) or a chain of member accesses and indexes
    /// on one, so `.member` and `[index]` extend it as it is.
    Text {
        text: Cow<'a, str>,
        repr: &'a Repr,
        word: bool,
    },
    /// Bytes of a byte-address buffer (or of a cbuffer declared as words),
    /// its global the place's buffer.
    Bytes(BytePlace<'a, Handle<naga::GlobalVariable>>),
}

/// The precedence class of a place text ([`Place::Text`]): a name, or an
/// access chain on one. (Every text the plan writes comes with its class,
/// decided where it is written; nothing is read back from a text.)
pub fn place_prec(word: bool) -> Prec {
    if word {
        Prec::Word
    } else {
        Prec::Postfix
    }
}

/// The repr of every value that is not stored any differently, for places
/// to borrow.
const PLAIN: &Repr = &Repr::Plain;

/// The HLSL names of a cbuffer, variant or element struct of the
/// realization.
#[derive(Clone, Debug, Default)]
pub struct Named {
    pub name: String,
    /// Per WGSL member (the single member of a cbuffer of a non-struct
    /// global; `v` in an element struct): its HLSL member name (a split
    /// matrix: the prefix of its columns). A cbuffer's members are global
    /// names.
    pub members: Vec<String>,
    /// Per field of the realization, padding included: its name.
    pub fields: Vec<String>,
}

/// How one storage global is declared.
#[derive(Clone, Debug)]
pub struct Storage {
    pub global: Handle<naga::GlobalVariable>,
    pub name: String,
    /// `ByteAddressBuffer` (no STORE access) rather than
    /// `RWByteAddressBuffer`.
    pub read_only: bool,
    pub layout: Layout,
    /// The global's name in the WGSL source, for diagnostics.
    pub span: Span,
    /// A uniform (or push constant) whose layout D3D's cbuffer packing
    /// cannot hold: declared as a cbuffer of `uint4` words, read at the
    /// contract's offsets like a byte-address buffer.
    pub words: Option<Words>,
}

/// The HLSL names of a cbuffer declared as words: `cbuffer <cbuffer> {
/// uint4 <words>[N]; }`.
#[derive(Clone, Debug)]
pub struct Words {
    pub cbuffer: String,
    pub words: String,
}

/// How every buffer global of a module is declared and accessed.
#[derive(Clone, Debug, Default)]
pub struct Plan {
    /// The cbuffers as [`crate::layout::realize::d3d`] realized them.
    pub real: CbufferRealization,
    /// Their names, one per cbuffer, variant and element struct of `real`.
    pub names: Names,
    pub storages: Vec<Storage>,
    /// A note per cbuffer declared as words.
    pub notes: Vec<Diagnostic>,
    /// Copy a cbuffer array of structs or of arrays read whole element by
    /// element (Slang: lavapipe refuses the pipeline when Slang's SPIR-V
    /// copies a cbuffer array of more than 32 structs or arrays whole with
    /// `OpCopyLogical`; arrays of scalars, vectors and matrices run).
    pub aggregate_arrays_by_element: bool,
}

fn column_name(base: &str, j: impl Into<u64>) -> String {
    let mut name = String::with_capacity(base.len() + 4);
    push_column_name(&mut name, base, j);
    name
}

/// [`column_name`], appended to `out`.
fn push_column_name(out: &mut String, base: &str, j: impl Into<u64>) {
    out.push_str(base);
    out.push_str("_c");
    super::push_decimal(out, j.into());
}

impl Plan {
    /// The realization of the cbuffer of global `g` and its names.
    fn cbuffer(&self, g: Handle<naga::GlobalVariable>) -> Option<(&d3d::Cbuffer, &Named)> {
        let i = self.real.cbuffer(g)?;
        Some((self.real.cbuffers.get(i)?, self.names.cbuffers.get(i)?))
    }

    /// The names and member reprs of the struct in cbuffer storage as
    /// `repr`: a cbuffer (`Block`, whose members are names of their own)
    /// or a variant struct.
    fn struct_at(&self, repr: &Repr) -> Option<(&Named, &[Repr])> {
        match repr {
            Repr::Block(g) => self.cbuffer(*g).map(|(c, n)| (n, c.members.as_slice())),
            Repr::Variant(i) => (self.names.variants.get(*i))
                .zip(self.real.variants.get(*i))
                .map(|(n, v)| (n, v.members.as_slice())),
            _ => None,
        }
    }

    /// Whether buffer global `g` is a cbuffer declared as words.
    pub fn is_words(&self, g: Handle<naga::GlobalVariable>) -> bool {
        self.storage(g).is_some_and(|s| s.words.is_some())
    }

    /// The name of the cbuffer of global `g`, if it is one.
    pub fn cbuffer_name(&self, g: Handle<naga::GlobalVariable>) -> Option<&str> {
        self.cbuffer(g).map(|(_, n)| n.name.as_str()).or_else(|| {
            self.storage(g)
                .and_then(|s| s.words.as_ref())
                .map(|w| w.cbuffer.as_str())
        })
    }

    fn storage(&self, g: Handle<naga::GlobalVariable>) -> Option<&Storage> {
        self.storages.iter().find(|s| s.global == g)
    }

    /// The place of buffer global `g` itself (`None`: not a buffer).
    pub fn global(&self, g: Handle<naga::GlobalVariable>) -> Option<Place<'_>> {
        if let Some((c, named)) = self.cbuffer(g) {
            let text = match &c.repr {
                Repr::Block(_) => named.name.as_str(),
                _ => named.members.first().map_or("", String::as_str),
            };
            return Some(Place::Text {
                text: Cow::Borrowed(text),
                repr: &c.repr,
                word: true,
            });
        }
        let s = self.storage(g)?;
        Some(Place::Bytes(BytePlace {
            buffer: g,
            offset: ByteOffset::constant(0),
            layout: Cow::Borrowed(&s.layout),
        }))
    }

    /// Member `index` of the struct at `place`.
    pub fn member<'p>(&'p self, ctx: &'p Ctx<'_>, place: Place<'p>, index: u32) -> Place<'p> {
        match place {
            Place::Text { text, repr, word } => {
                let global = matches!(repr, Repr::Block(_));
                let member = self.struct_at(repr).and_then(|(names, reprs)| {
                    let k = index as usize;
                    Some((names.members.get(k)?, reprs.get(k)?))
                });
                match member {
                    // A cbuffer's members are names of their own.
                    Some((name, r)) if global => Place::Text {
                        text: Cow::Borrowed(name),
                        repr: r,
                        word: true,
                    },
                    Some((name, r)) => Place::Text {
                        text: Cow::Owned(text!("{text}.{name}")),
                        repr: r,
                        word: false,
                    },
                    None => Place::Text { text, repr, word },
                }
            }
            Place::Bytes(p) => Place::Bytes(p.member(ctx.contract, index)),
        }
    }

    /// Element `index` of the array, matrix (a column) or vector (a
    /// component) at `place`. A dynamic column of a split matrix is an
    /// rvalue (uniforms are never stored to).
    pub fn element<'p>(&'p self, place: Place<'p>, index: Index<'_>) -> Place<'p> {
        match place {
            Place::Text { text, repr, word } => {
                let text: &str = &text;
                // `<text>[<index>]`, written in one go.
                let indexed = |suffix: &str| {
                    let mut out = String::with_capacity(text.len() + 16);
                    out.push_str(text);
                    index.push_bracketed(&mut out);
                    out.push_str(suffix);
                    out
                };
                let repr: &'p Repr = repr;
                let (text, repr, word) = match repr {
                    Repr::Array(elem) => match &**elem {
                        Repr::Wrapped { inner, .. } => (indexed(".v"), &**inner, false),
                        other => (indexed(""), other, false),
                    },
                    Repr::Columns {
                        columns,
                        rows,
                        scalar,
                        ..
                    } => match index {
                        // A column member: a name where the matrix was one.
                        Index::Constant(j) => (column_name(text, j), PLAIN, word),
                        Index::Dynamic(i) => (
                            text!("({})[{i}]", columns_matrix(text, *columns, *rows, *scalar)),
                            PLAIN,
                            false,
                        ),
                    },
                    _ => (indexed(""), PLAIN, false),
                };
                Place::Text {
                    text: Cow::Owned(text),
                    repr,
                    word,
                }
            }
            Place::Bytes(p) => Place::Bytes(p.element(index)),
        }
    }

    /// An HLSL expression with the value at `place`, of WGSL value type
    /// `ty`, and its class.
    pub fn load(
        &self,
        ctx: &Ctx<'_>,
        needs: &mut Needs,
        place: &Place,
        ty: Handle<naga::Type>,
    ) -> (String, Prec) {
        match place {
            Place::Text { text, repr, word } => self.load_text(ctx, needs, text, *word, repr, ty),
            Place::Bytes(_) => match self.bytes(place) {
                Some((st, offset, layout)) => offset.with_text(|off| {
                    let mut out = String::with_capacity(st.name.len() + off.len() + 24);
                    let src = (Src::of(st), off);
                    let class = self.push_load_bytes(&mut out, ctx, needs, st, src, layout, ty);
                    (out, class)
                }),
                // A cast, `(T)0`.
                None => (super::types::zero_value(ctx, ty), Prec::Operator),
            },
        }
    }

    /// The storage global, byte offset and contract layout of a `Bytes`
    /// place (`None` for a cbuffer place, or a global that is no storage).
    fn bytes<'p>(
        &'p self,
        place: &'p Place,
    ) -> Option<(&'p Storage, &'p ByteOffset<'p>, &'p Layout)> {
        let Place::Bytes(p) = place else {
            return None;
        };
        Some((self.storage(p.buffer)?, &p.offset, &p.layout))
    }
}
