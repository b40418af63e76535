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
//! `Load4` and `asfloat`/`asint` (`Load<T>` for 64-bit types), and never
//! touch padding. 16-bit values are read from their containing 32-bit
//! words and shifted out; a lone 16-bit value is written with
//! `InterlockedAnd`/`InterlockedOr` on its word, which leaves the other
//! half alone even when another invocation writes it at the same time.
//! (`Load<half>`/`Store<half>` are right in DXIL, but DXC before 1.8 turns
//! them into whole-word accesses on its SPIR-V route, and later versions
//! into a non-atomic read-modify-write.)

//!
//! How a contract layout becomes a cbuffer (D3D packing rules, applied by
//! [`HType::place`]): a scalar or vector may not cross a 16-byte register
//! (one of more than 16 bytes starts a register); structs, arrays and
//! matrices start a register; every array element starts a register (stride
//! `roundUp(size, 16)`); a `row_major TCxR` matrix is C rows of R
//! components, each starting a register; a struct's or array's size ends
//! at its last component, so a following member may pack into its tail;
//! with `-enable-16bit-types`, 16-bit scalars are 2 bytes and pack tightly.
//! Top-level members carry `packoffset` (a cbuffer with a 16-bit member at
//! an offset that is not a multiple of 4, which `packoffset` cannot name,
//! is placed with padding members instead); members of nested structs are
//! placed by packing, with `uint`/`uintN`/`uint16_t` padding members
//! (never crossing a register) where the contract puts them later.

#[cfg(test)]
mod tests;

use super::{Ctx, Needs, INEXPRESSIBLE_NOTE};
use crate::diag::{Diagnostic, Diagnostics, Edit, Fix, Span};
use crate::front::Parsed;
use crate::layout::rules::round_up_saturating as round_up;
use crate::layout::{GlobalLayout, Layout, LayoutKind, LayoutModule, MemberSlot, ScalarKind};
use naga::proc::NameKey;
use naga::Handle;
use std::borrow::Cow;
use std::fmt::Write as _;

/// Bytes in one cbuffer register (`c0`, `c1`, ...).
const REGISTER: u64 = 16;

/// How the HLSL storage behind a cbuffer lvalue is shaped.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Repr {
    /// Same HLSL type and layout as the value: plain indexing and loads.
    Plain,
    /// A struct-typed uniform global: its members are cbuffer members,
    /// reached by their own names through [`Plan::member`].
    Cbuffer(Handle<naga::GlobalVariable>),
    /// A buffer variant of a WGSL struct (or the plain value struct, when
    /// its HLSL packing is the contract's): `Plan`-internal index.
    Variant(usize),
    /// An array whose element is not `Plain`.
    Array(Box<Repr>),
    /// An array element wrapped in an element struct with padding: the
    /// value lives in member `v` (a split matrix: `v_c0`, `v_c1`, ...),
    /// stored as `inner` says. Only ever the element repr of a
    /// [`Repr::Array`]; [`Plan::element`] steps through it to `<a>[i].v`.
    Wrapped { element: usize, inner: Box<Repr> },
    /// A matrix stored as column vectors: column `j` of the lvalue `m` is
    /// `m_c<j>`.
    Columns {
        columns: u8,
        rows: u8,
        scalar: naga::Scalar,
    },
}

/// Where a pointer into a buffer points. It borrows what it can from the
/// [`Plan`] and the contract (names, reprs, layouts): a chain of accesses
/// only allocates the texts it builds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Place<'a> {
    /// An HLSL lvalue in a cbuffer and how its storage is shaped.
    Text { text: Cow<'a, str>, repr: &'a Repr },
    /// Bytes of a byte-address buffer: the value at byte `offset` (an HLSL
    /// `uint` expression) of `global`, laid out as `layout` (the contract
    /// layout of the pointee; owned for a matrix column or vector
    /// component, which the contract does not spell out).
    Bytes {
        global: Handle<naga::GlobalVariable>,
        offset: Offset<'a>,
        layout: Cow<'a, Layout>,
    },
}

/// The byte offset of a [`Place::Bytes`]: a number while every step of the
/// access chain is constant (no text is built for it), else its `uint`
/// text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Offset<'a> {
    Const(u64),
    Text(Cow<'a, str>),
}

impl<'a> From<&'a str> for Offset<'a> {
    fn from(text: &'a str) -> Self {
        Offset::Text(Cow::Borrowed(text))
    }
}

impl Offset<'_> {
    /// The offset's text.
    #[cfg(test)]
    pub fn into_owned(self) -> String {
        match self {
            Offset::Const(c) => {
                let mut text = String::with_capacity(24);
                super::push_decimal(&mut text, c);
                text.push('u');
                text
            }
            Offset::Text(t) => t.into_owned(),
        }
    }

    /// Call `f` with the offset's text (a constant is written into a
    /// buffer on the stack: `16u`).
    fn with_text<R>(&self, f: impl FnOnce(&str) -> R) -> R {
        match self {
            Offset::Const(c) => {
                let mut digits = [0u8; 21];
                let mut start = digits.len() - 1;
                digits[start] = b'u';
                let mut rest = *c;
                loop {
                    start -= 1;
                    digits[start] = b'0' + (rest % 10) as u8;
                    rest /= 10;
                    if rest == 0 || start == 0 {
                        break;
                    }
                }
                f(std::str::from_utf8(&digits[start..]).unwrap_or("0u"))
            }
            Offset::Text(t) => f(t),
        }
    }

    /// This offset plus `constant` (plus `stride * index`): see
    /// [`offset_add`].
    fn add(&self, constant: u64, dynamic: Option<(u64, &str)>) -> Offset<'static> {
        match (self, dynamic) {
            (Offset::Const(c), None) => Offset::Const(c.saturating_add(constant)),
            (Offset::Const(c), Some((stride, index))) => {
                // What `offset_add` writes for a constant base, without
                // parsing it: `(32u + 16u * i)`, or `16u * i` alone.
                let c = c.saturating_add(constant);
                let mut out = String::with_capacity(index.len() + 32);
                if c != 0 {
                    out.push('(');
                    super::push_decimal(&mut out, c);
                    out.push_str("u + ");
                }
                if stride != 1 {
                    super::push_decimal(&mut out, stride);
                    out.push_str("u * ");
                }
                push_operand(&mut out, index);
                if c != 0 {
                    out.push(')');
                }
                Offset::Text(Cow::Owned(out))
            }
            _ => Offset::Text(Cow::Owned(
                self.with_text(|base| offset_add(base, constant, dynamic)),
            )),
        }
    }
}

/// The repr of every value that is not stored any differently, for places
/// to borrow.
const PLAIN: &Repr = &Repr::Plain;

/// An index into an array or matrix, as `func` has already written it
/// (clamped as the bounds-check policy requires).
pub enum Index<'a> {
    Constant(u32),
    Dynamic(&'a str),
}

/// An HLSL type as stored in a cbuffer (members of cbuffers, variants and
/// element structs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HType {
    /// Scalars (a `bool` takes 4 bytes).
    Scalar(naga::Scalar),
    Vector(u8, naga::Scalar),
    /// `row_major TCxR`: `columns` rows of `rows` components.
    Matrix {
        columns: u8,
        rows: u8,
        scalar: naga::Scalar,
    },
    Array(Box<HType>, u64),
    /// A value struct, variant or element struct by name, with its packed
    /// size (the end of its last member).
    Struct {
        name: String,
        size: u64,
    },
}

/// Bytes of one scalar in a cbuffer.
fn cb_width(s: naga::Scalar) -> u64 {
    if s.kind == naga::ScalarKind::Bool {
        4
    } else {
        u64::from(s.width)
    }
}

impl HType {
    /// Bytes from the member's start to the end of its last component (D3D
    /// does not round sizes up).
    pub fn size(&self) -> u64 {
        match self {
            HType::Scalar(s) => cb_width(*s),
            HType::Vector(n, s) => u64::from(*n) * cb_width(*s),
            HType::Matrix {
                columns,
                rows,
                scalar,
            } => {
                let row = u64::from(*rows) * cb_width(*scalar);
                u64::from(columns.saturating_sub(1)) * round_up(REGISTER, row) + row
            }
            HType::Array(e, n) => {
                let e = e.size();
                n.saturating_sub(1).saturating_mul(round_up(REGISTER, e)) + e
            }
            HType::Struct { size, .. } => *size,
        }
    }

    /// The distance between two elements of an array of this type.
    pub fn stride(&self) -> u64 {
        round_up(REGISTER, self.size())
    }

    /// The offset D3D packs this type at when the previous member ends at
    /// byte `cur`.
    pub fn place(&self, cur: u64) -> u64 {
        match self {
            HType::Scalar(s) | HType::Vector(_, s) => {
                let size = self.size();
                if size > REGISTER {
                    return round_up(REGISTER, cur);
                }
                let at = round_up(cb_width(*s), cur);
                if at / REGISTER != (at + size - 1) / REGISTER {
                    round_up(REGISTER, at)
                } else {
                    at
                }
            }
            _ => round_up(REGISTER, cur),
        }
    }

    /// Whether a member of this type may start at `offset` at all.
    fn legal_at(&self, offset: u64) -> bool {
        self.place(offset) == offset
    }

    /// The HLSL spelling: (type with `row_major` where a matrix, array
    /// dimensions).
    /// (Borrowed where the spelling is a fixed word or the struct's name.)
    pub fn spell(&self) -> (Cow<'_, str>, Cow<'static, str>) {
        let none = Cow::Borrowed("");
        match self {
            HType::Scalar(s) => (Cow::Borrowed(super::types::scalar(*s)), none),
            HType::Vector(n, s) => (super::types::vector(*n, *s), none),
            HType::Matrix {
                columns,
                rows,
                scalar,
            } => (
                Cow::Owned(text!(
                    "row_major {}",
                    super::types::matrix(*columns, *rows, *scalar)
                )),
                none,
            ),
            HType::Array(e, n) => {
                let (b, d) = e.spell();
                (b, Cow::Owned(text!("[{n}]{d}")))
            }
            HType::Struct { name, .. } => (Cow::Borrowed(name), none),
        }
    }

    /// `{base} {name}{dims}` of [`Self::spell`], appended to `out`: a
    /// member declaration.
    fn push_declarator(&self, out: &mut String, name: &str) {
        self.push_base(out);
        out.push(' ');
        out.push_str(name);
        self.push_dims(out);
    }

    /// The type part of [`Self::spell`], appended to `out`.
    fn push_base(&self, out: &mut String) {
        match self {
            HType::Scalar(s) => out.push_str(super::types::scalar(*s)),
            HType::Vector(n, s) => out.push_str(&super::types::vector(*n, *s)),
            HType::Matrix {
                columns,
                rows,
                scalar,
            } => {
                out.push_str("row_major ");
                out.push_str(&super::types::matrix(*columns, *rows, *scalar));
            }
            HType::Array(e, _) => e.push_base(out),
            HType::Struct { name, .. } => out.push_str(name),
        }
    }

    /// The array dimensions of [`Self::spell`], appended to `out`.
    fn push_dims(&self, out: &mut String) {
        if let HType::Array(e, n) = self {
            out.push('[');
            super::push_decimal(out, *n);
            out.push(']');
            e.push_dims(out);
        }
    }

    fn describe(&self) -> String {
        let (b, d) = self.spell();
        text!("{}{d}", b.trim_start_matches("row_major "))
    }

    /// What kind of thing this is, for messages.
    fn kind_name(&self) -> &'static str {
        match self {
            HType::Scalar(_) => "a scalar",
            HType::Vector(..) => "a vector",
            HType::Matrix { .. } => "a matrix",
            HType::Array(..) => "an array",
            HType::Struct { .. } => "a struct",
        }
    }
}

/// One member of a cbuffer, variant or element struct.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field {
    pub name: String,
    pub ty: HType,
    /// Its byte offset in the contract (from the start of the enclosing
    /// struct, or of the cbuffer).
    pub offset: u64,
    /// A padding member: never read.
    pub padding: bool,
}

/// A struct that stores a WGSL struct in a cbuffer (`<Struct>_cb`).
#[derive(Clone, Debug)]
pub struct Variant {
    /// The WGSL struct.
    pub ty: Handle<naga::Type>,
    pub name: String,
    /// Per WGSL member: its HLSL member name (a split matrix: the prefix
    /// of its columns) and repr.
    pub members: Vec<(String, Repr)>,
    /// The HLSL members, padding included, in offset order.
    pub fields: Vec<Field>,
    /// Packed size (end of the last member).
    pub size: u64,
    /// The value struct itself (same members and packing): not declared
    /// here, listed so that members of plain nested structs are reached
    /// by name like those of variants.
    pub value: bool,
}

/// A struct storing one array element (`v`, or the columns `v_c<j>` of a
/// matrix) followed by padding up to the contract array stride.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Element {
    pub name: String,
    pub fields: Vec<Field>,
    /// How the value is stored.
    pub inner: Repr,
    /// Packed size: the contract array stride.
    pub size: u64,
}

/// One struct declaration made by the plan, in dependency order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Declared {
    Variant(usize),
    Element(usize),
}

/// How one uniform (or push-constant) global is declared.
#[derive(Clone, Debug)]
pub struct Cbuffer {
    pub global: Handle<naga::GlobalVariable>,
    /// The cbuffer's name (`<global>_cb`).
    pub name: String,
    /// The WGSL type of the global.
    #[cfg_attr(not(test), expect(dead_code, reason = "only the tests read it"))]
    pub ty: Handle<naga::Type>,
    /// The repr of the global's pointer: `Cbuffer(global)` for a struct;
    /// otherwise the repr of the single member.
    pub repr: Repr,
    /// Per WGSL member (for a struct-typed global; otherwise the single
    /// member): its global HLSL name (split matrix: column prefix) and repr.
    pub members: Vec<(String, Repr)>,
    /// The HLSL members, in offset order.
    pub fields: Vec<Field>,
    /// Members carry `packoffset`; otherwise they are placed by packing
    /// with padding members.
    pub packoffset: bool,
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
}

/// How every buffer global of a module is declared and accessed.
#[derive(Clone, Debug, Default)]
pub struct Plan {
    pub variants: Vec<Variant>,
    pub elements: Vec<Element>,
    order: Vec<Declared>,
    pub cbuffers: Vec<Cbuffer>,
    pub storages: Vec<Storage>,
}

/// Compute the plan for every buffer global of the module. `parsed` gives
/// the spans of WGSL members for diagnostics; `module` is the module written
/// (`parsed.module` or its copy with overrides baked: same types).
pub fn plan(
    parsed: &Parsed,
    module: &naga::Module,
    contract: &LayoutModule,
    names: &naga::FastHashMap<NameKey, String>,
    slang: bool,
) -> Result<Plan, Diagnostics> {
    let taken = Taken {
        names,
        namer: None,
        given: Given::default(),
    };
    let mut b = Builder {
        parsed,
        module,
        contract,
        names,
        taken,
        plan: Plan::default(),
        structs: naga::FastIndexMap::default(),
        errors: Vec::new(),
        pad16: uses_16bit(contract),
        in_array: false,
        slang,
    };
    let (mut cbuffers, mut storages) = (0, 0);
    for g in &contract.globals {
        match g.space {
            naga::AddressSpace::Uniform | naga::AddressSpace::Immediate => cbuffers += 1,
            naga::AddressSpace::Storage { .. } => storages += 1,
            _ => {}
        }
    }
    b.plan.cbuffers.reserve_exact(cbuffers);
    b.plan.storages.reserve_exact(storages);
    for g in &contract.globals {
        match g.space {
            naga::AddressSpace::Uniform | naga::AddressSpace::Immediate => b.cbuffer(g),
            naga::AddressSpace::Storage { access } => b.storage(g, access),
            _ => {}
        }
    }
    b.verify();
    if b.errors.is_empty() {
        Ok(b.plan)
    } else {
        Err(Diagnostics(b.errors))
    }
}

/// Whether any buffer layout holds a 16-bit scalar (the output then needs
/// `-enable-16bit-types`, and `uint16_t` padding is available).
fn uses_16bit(contract: &LayoutModule) -> bool {
    fn walk(l: &Layout) -> bool {
        match &l.kind {
            LayoutKind::Scalar(s) | LayoutKind::Atomic(s) => s.width == 2,
            LayoutKind::Vector { scalar, .. } | LayoutKind::Matrix { scalar, .. } => {
                scalar.width == 2
            }
            LayoutKind::Array { element, .. } => walk(element),
            LayoutKind::Struct(_) => false,
        }
    }
    contract.globals.iter().any(|g| walk(&g.layout))
        || contract
            .structs
            .values()
            .any(|s| s.members().any(|m| walk(&m.layout)))
}

/// The members of `sl` in offset order (as `StructLayout::members`, but
/// cloneable, so that a member's successor can be looked at).
fn member_slots(sl: &crate::layout::StructLayout) -> impl Iterator<Item = &MemberSlot> + Clone {
    sl.slots.iter().filter_map(|s| match s {
        crate::layout::Slot::Member(m) => Some(m),
        crate::layout::Slot::Padding(_) => None,
    })
}

fn naga_scalar(s: crate::layout::Scalar) -> naga::Scalar {
    let kind = match s.kind {
        ScalarKind::Sint => naga::ScalarKind::Sint,
        ScalarKind::Uint => naga::ScalarKind::Uint,
        ScalarKind::Float => naga::ScalarKind::Float,
        ScalarKind::Bool => naga::ScalarKind::Bool,
    };
    naga::Scalar {
        kind,
        width: s.width,
    }
}

/// Column `j` of the split matrix at lvalue `base`.
/// A matrix stored as `columns` column vectors of `rows` components.
fn split_matrix(columns: u8, rows: u8, scalar: naga::Scalar, column_stride: u64) -> Stored {
    Stored::Split {
        column: HType::Vector(rows, scalar),
        columns,
        column_stride,
        repr: Repr::Columns {
            columns,
            rows,
            scalar,
        },
    }
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

/// The global names taken: the namer's (and `main`, which stays free for
/// what the other parts invent), and those [`Builder`] gives out.
struct Taken<'a> {
    names: &'a naga::FastHashMap<NameKey, String>,
    /// The namer's names and `main`, collected on first use (a module
    /// without uniforms never asks).
    namer: Option<naga::FastHashSet<&'a str>>,
    given: Given,
}

impl Taken<'_> {
    fn contains(&mut self, name: &str) -> bool {
        let names = self.names;
        let namer = self.namer.get_or_insert_with(|| {
            let mut set =
                naga::FastHashSet::with_capacity_and_hasher(names.len() + 1, Default::default());
            set.extend(names.values().map(String::as_str));
            set.insert("main");
            set
        });
        namer.contains(name) || self.given.contains(name)
    }

    fn insert(&mut self, name: &str) {
        self.given.insert(name);
    }
}

/// Names given out while planning, each copied once into one text
/// rather than into a string of its own.
#[derive(Default)]
struct Given {
    text: String,
    /// Per hash, the start and end in `text` of the first name with it.
    first: naga::FastHashMap<u64, (u32, u32)>,
    /// Names whose hash an earlier name already has (almost never any).
    more: Vec<(u32, u32)>,
}

impl Given {
    fn hash(&self, name: &str) -> u64 {
        use std::hash::BuildHasher as _;
        self.first.hasher().hash_one(name)
    }

    fn name(&self, (start, end): (u32, u32)) -> Option<&str> {
        self.text.get(start as usize..end as usize)
    }

    fn contains(&self, name: &str) -> bool {
        if self.first.is_empty() {
            return false;
        }
        match self.first.get(&self.hash(name)) {
            None => false,
            Some(&span) => {
                self.name(span) == Some(name)
                    || self.more.iter().any(|&span| self.name(span) == Some(name))
            }
        }
    }

    fn insert(&mut self, name: &str) {
        if self.first.is_empty() {
            // Room for the names of a typical module's uniforms.
            self.text.reserve(512);
            self.first.reserve(32);
        }
        let hash = self.hash(name);
        let start = self.text.len() as u32;
        self.text.push_str(name);
        let span = (start, self.text.len() as u32);
        if self.first.contains_key(&hash) {
            self.more.push(span);
        } else {
            self.first.insert(hash, span);
        }
    }
}

/// Padding member `n`: `_s_pad3`, or for the cbuffer of global `g`
/// (`global`), `_s_g_pad3`.
fn pad_name(global: Option<&str>, n: usize) -> String {
    let mut name = String::with_capacity(global.map_or(0, str::len) + 12);
    match global {
        Some(g) => super::push_parts(&mut name, &["_s_", g, "_pad"]),
        None => name.push_str("_s_pad"),
    }
    super::push_decimal(&mut name, n as u64);
    name
}

// ---------------------------------------------------------------------------
// Planning.

/// Where a member is, for diagnostics. Everything is borrowed: a site is
/// made for every member planned, and only the rare error reads it.
struct Site<'s> {
    /// Where the diagnostic points: a span, or struct member `member` of
    /// the struct type and WGSL struct name given here (its span and
    /// annotation are looked up only for an error).
    at: SiteAt<'s>,
    what: What<'s>,
    /// The member name as written in WGSL, for fixes.
    member: &'s str,
    /// The global whose cbuffer holds this member (its span and WGSL
    /// name), for a secondary label there.
    global: Option<(Span, &'s str)>,
}

/// See [`Site::at`].
enum SiteAt<'s> {
    Span(Span),
    Member(Handle<naga::Type>, &'s str),
}

/// What a [`Site`] is, displayed as `member `x` of `S`` or `global `g``.
#[derive(Clone, Copy)]
enum What<'s> {
    Member { member: &'s str, of: &'s str },
    Global(&'s str),
}

impl std::fmt::Display for What<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            What::Member { member, of } => write!(f, "member `{member}` of `{of}`"),
            What::Global(name) => write!(f, "global `{name}`"),
        }
    }
}

/// The storage of one WGSL member or array element.
enum Stored {
    One(HType, Repr),
    /// A matrix split into `columns` members of type `column`.
    Split {
        column: HType,
        columns: u8,
        column_stride: u64,
        repr: Repr,
    },
}

/// Lays out members one after another by D3D packing (or, with
/// `packoffset`, at their contract offsets), with padding members.
struct Placer<'s> {
    packoffset: bool,
    fields: Vec<Field>,
    /// End of the last member.
    cur: u64,
    /// The last real member: its WGSL name and its position in `fields`.
    last: Option<(&'s str, usize)>,
    /// Names of the real members (padding names avoid them).
    /// (The members of this struct, looked up only when a padding member
    /// is named.)
    member_names: Option<(Handle<naga::Type>, &'s crate::layout::StructLayout)>,
    /// Padding members are global names (`cbuffer` members of this
    /// global, named after it).
    global_pads: Option<&'s str>,
    pads: usize,
}

impl Placer<'_> {
    fn new<'s>(
        packoffset: bool,
        member_names: Option<(Handle<naga::Type>, &'s crate::layout::StructLayout)>,
    ) -> Placer<'s> {
        Placer {
            packoffset,
            fields: Vec::new(),
            cur: 0,
            last: None,
            member_names,
            global_pads: None,
            pads: 0,
        }
    }
}

struct Builder<'a> {
    parsed: &'a Parsed,
    module: &'a naga::Module,
    contract: &'a LayoutModule,
    names: &'a naga::FastHashMap<NameKey, String>,
    /// Every global name given out (by the namer and here).
    taken: Taken<'a>,
    plan: Plan,
    /// Memoized struct storage; `None` while in progress or once failed.
    structs: naga::FastIndexMap<Handle<naga::Type>, Option<(HType, Repr)>>,
    errors: Vec<Diagnostic>,
    /// `uint16_t` padding is available.
    pad16: bool,
    /// [`Builder::stored`] is working on an array element.
    in_array: bool,
    /// Planning for Slang (see [`Builder::stored`]).
    slang: bool,
}

impl<'a> Builder<'a> {
    /// A global name derived from `base`, free of clashes (`base` itself,
    /// without a copy, when it is free).
    fn fresh(&mut self, base: String) -> String {
        if !self.taken.contains(&base) {
            self.taken.insert(&base);
            return base;
        }
        let base = base.as_str();
        let mut name = if base.starts_with("_s_") {
            text!("{base}_1")
        } else {
            text!("_s_{base}")
        };
        let mut n = 1;
        while self.taken.contains(&name) {
            n += 1;
            name = text!("_s_{}_{n}", base.trim_start_matches("_s_"));
        }
        self.taken.insert(&name);
        name
    }

    /// A global prefix whose split columns `<prefix>_c<j>` are all free.
    fn fresh_columns(&mut self, base: &str, columns: u8) -> String {
        // Column names are written into one scratch text.
        let mut column = String::with_capacity(base.len() + 16);
        let mut free = |taken: &mut Taken<'_>, p: &str| {
            !taken.contains(p)
                && (0..columns).all(|j| {
                    column.clear();
                    push_column_name(&mut column, p, j);
                    !taken.contains(&column)
                })
        };
        let mut prefix = base.to_string();
        let mut n = 1;
        while !free(&mut self.taken, &prefix) {
            prefix = text!("_s_{}_{n}", base.trim_start_matches("_s_"));
            n += 1;
        }
        self.taken.insert(&prefix);
        for j in 0..columns {
            column.clear();
            push_column_name(&mut column, &prefix, j);
            self.taken.insert(&column);
        }
        prefix
    }

    fn type_name(&self, h: Handle<naga::Type>) -> Cow<'a, str> {
        let names: &'a naga::FastHashMap<NameKey, String> = self.names;
        let module: &'a naga::Module = self.module;
        names
            .get(&NameKey::Type(h))
            .or_else(|| {
                module
                    .types
                    .get_handle(h)
                    .ok()
                    .and_then(|t| t.name.as_ref())
            })
            .map_or_else(
                || Cow::Owned(text!("_s_type{}", h.index())),
                |n| Cow::Borrowed(n.as_str()),
            )
    }

    fn member_name<'s>(&self, h: Handle<naga::Type>, index: usize, fallback: &'s str) -> &'s str
    where
        'a: 's,
    {
        self.names
            .get(&NameKey::StructMember(h, index as u32))
            .map_or(fallback, String::as_str)
    }

    /// Whether `name` is the HLSL name of a member of the struct
    /// `members` (if any).
    fn is_member_name(
        &self,
        members: Option<(Handle<naga::Type>, &crate::layout::StructLayout)>,
        name: &str,
    ) -> bool {
        members.is_some_and(|(h, sl)| {
            member_slots(sl).any(|m| self.member_name(h, m.index, &m.name) == name)
        })
    }

    fn member_ann(
        &self,
        sname: &str,
        member: &str,
    ) -> Option<&'a crate::front::dialect::MemberAnn> {
        let ann = self.parsed.annotations.structs.get(sname)?;
        ann.members.iter().find(|m| m.name == member)
    }

    /// The span of WGSL member `member` of struct `sname` (`h`).
    fn member_span(&self, h: Handle<naga::Type>, sname: &str, member: &str) -> Span {
        let ann = self.parsed.annotations.structs.get(sname);
        ann.and_then(|a| a.members.iter().find(|m| m.name == member))
            .map(|m| m.span.clone())
            .or_else(|| ann.map(|a| a.name_span.clone()))
            .or_else(|| self.module.types.get_span(h).to_range())
            .unwrap_or(0..0)
    }

    fn global_span(&self, g: &GlobalLayout) -> Span {
        self.parsed
            .annotations
            .globals
            .get(g.name.as_str())
            .map(|a| a.name_span.clone())
            .or_else(|| self.module.global_variables.get_span(g.handle).to_range())
            .unwrap_or(0..0)
    }

    /// The span of `site`.
    fn site_span(&self, site: &Site) -> Span {
        match &site.at {
            SiteAt::Span(span) => span.clone(),
            SiteAt::Member(h, sname) => self.member_span(*h, sname, site.member),
        }
    }

    /// The annotation of the struct member at `site` (for fixes).
    fn site_ann(&self, site: &Site) -> Option<&'a crate::front::dialect::MemberAnn> {
        match &site.at {
            SiteAt::Span(_) => None,
            SiteAt::Member(_, sname) => self.member_ann(sname, site.member),
        }
    }

    /// An error at `site` with the inexpressible note.
    fn error(
        &mut self,
        site: &Site,
        message: String,
        label: String,
        help: Vec<String>,
        fix: Option<Fix>,
    ) {
        let site_span = self.site_span(site);
        let mut d = Diagnostic::inexpressible(message).at(site_span.clone(), label);
        if let Some((span, global)) = &site.global {
            if *span != site_span {
                d = d.also(span.clone(), text!("`{global}` is a cbuffer in HLSL"));
            }
        }
        for n in help {
            d = d.note(n);
        }
        d = d.note(text!("note: {INEXPRESSIBLE_NOTE}"));
        if let Some(f) = fix {
            d = d.fix(f);
        }
        self.errors.push(d);
    }

    /// A fix giving the member at `site` `@align(align)`.
    fn align_fix(&self, site: &Site, align: u64, outcome: String) -> Option<Fix> {
        let ann = self.site_ann(site)?;
        let edit = match &ann.align {
            Some(a) => replace_value(&self.parsed.source, &a.span, align),
            None => Edit {
                span: ann.span.start..ann.span.start,
                replacement: text!("@align({align}) "),
            },
        };
        Some(Fix {
            title: text!("add `@align({align})` to member `{}`", site.member),
            edits: vec![edit],
            outcome,
        })
    }

    /// A fix setting the `@stride` of the member's array type to `stride`.
    fn stride_fix(&self, site: &Site, stride: u64) -> Option<Fix> {
        let ann = self.site_ann(site)?;
        let s = ann.ty.stride.as_ref()?;
        Some(Fix {
            title: text!("give the array `@stride({stride})`"),
            edits: vec![replace_value(&self.parsed.source, &s.span, stride)],
            outcome: text!(
                "the elements of `{}` become {stride} bytes apart",
                site.member
            ),
        })
    }

    // -- cbuffers -----------------------------------------------------------

    fn cbuffer(&mut self, g: &'a GlobalLayout) {
        let gname: &'a str = self
            .names
            .get(&NameKey::GlobalVariable(g.handle))
            .map_or(g.name.as_str(), String::as_str);
        let Some(var) = self.module.global_variables.try_get(g.handle).ok() else {
            return;
        };
        let ty = var.ty;
        let name = self.fresh([gname, "_cb"].concat());
        let gspan = self.global_span(g);
        let global_label = Some((gspan.clone(), g.name.as_str()));
        let mut members = Vec::new();
        let (fields, packoffset, repr) = match &g.layout.kind {
            LayoutKind::Struct(h) => {
                let h = *h;
                let Some(sl) = self.contract.structs.get(&h) else {
                    return;
                };
                let sname = &sl.name;
                let slots = member_slots(sl);
                // `packoffset` names 4-byte components, and DXC counts a
                // vector's components from there whatever their width.
                let packoffset = slots
                    .clone()
                    .all(|m| self.packoffset_ok(&m.layout, m.offset));
                let mut p = Placer::new(packoffset, None);
                p.global_pads = Some(gname);
                let count = slots.clone().count();
                p.fields.reserve(count);
                members.reserve_exact(count);
                let mut rest = slots.peekable();
                while let Some(m) = rest.next() {
                    let wname = self.member_name(h, m.index, &m.name);
                    let base = [gname, "_", wname].concat();
                    // With `packoffset` nothing is padded.
                    let tail_split = !packoffset
                        && self.tail_split(
                            &m.layout,
                            m.offset,
                            match rest.peek() {
                                Some(n) => (Some(&n.layout), n.offset),
                                None => (None, 0),
                            },
                        );
                    let split = tail_split || self.splits(&m.layout, m.offset);
                    let hname = match (&m.layout.kind, split) {
                        (LayoutKind::Matrix { columns, .. }, true) => {
                            self.fresh_columns(&base, *columns)
                        }
                        _ => self.fresh(base),
                    };
                    let site = Site {
                        at: SiteAt::Member(h, sname),
                        what: What::Member {
                            member: &m.name,
                            of: sname,
                        },
                        member: &m.name,
                        global: global_label.clone(),
                    };
                    let r = self
                        .place_member(&mut p, &hname, &m.layout, m.offset, &site, tail_split)
                        .unwrap_or(Repr::Plain);
                    members.push((hname, r));
                }
                (p.fields, packoffset, Repr::Cbuffer(g.handle))
            }
            _ => {
                let site = Site {
                    at: SiteAt::Span(
                        self.parsed
                            .annotations
                            .globals
                            .get(g.name.as_str())
                            .and_then(|a| a.ty.as_ref().map(|t| t.span.clone()))
                            .unwrap_or(gspan.clone()),
                    ),
                    what: What::Global(&g.name),
                    member: &g.name,
                    global: global_label.clone(),
                };
                // The global's own name is free: nothing else declares it.
                let hname = gname.to_string();
                if let LayoutKind::Matrix { columns, .. } = g.layout.kind {
                    for j in 0..columns {
                        self.taken.insert(&column_name(&hname, j));
                    }
                }
                let mut p = Placer::new(true, None);
                let r = self
                    .place_member(&mut p, &hname, &g.layout, 0, &site, false)
                    .unwrap_or(Repr::Plain);
                members.reserve_exact(1);
                members.push((hname, r.clone()));
                (p.fields, true, r)
            }
        };
        self.plan.cbuffers.push(Cbuffer {
            global: g.handle,
            name,
            ty,
            repr,
            members,
            fields,
            packoffset,
        });
    }

    fn storage(&mut self, g: &GlobalLayout, access: naga::StorageAccess) {
        let name = self
            .names
            .get(&NameKey::GlobalVariable(g.handle))
            .cloned()
            .unwrap_or_else(|| g.name.to_string());
        let span = self.global_span(g);
        self.plan.storages.push(Storage {
            global: g.handle,
            name,
            read_only: !access.contains(naga::StorageAccess::STORE),
            layout: g.layout.clone(),
            span,
        });
    }

    /// Whether `packoffset` can name the place of a top-level member of
    /// contract `layout` at `offset` (columns of a split matrix included).
    fn packoffset_ok(&self, layout: &Layout, offset: u64) -> bool {
        match &layout.kind {
            LayoutKind::Scalar(s) | LayoutKind::Atomic(s) => {
                packoffset_expressible(&HType::Scalar(naga_scalar(*s)), offset)
            }
            LayoutKind::Vector { size, scalar } => {
                packoffset_expressible(&HType::Vector(*size, naga_scalar(*scalar)), offset)
            }
            LayoutKind::Matrix {
                columns,
                rows,
                scalar,
                column_stride,
            } if self.splits(layout, offset) => (0..u64::from(*columns)).all(|j| {
                packoffset_expressible(
                    &HType::Vector(*rows, naga_scalar(*scalar)),
                    offset + j * column_stride,
                )
            }),
            _ => true,
        }
    }

    /// Whether a matrix of contract `layout` at `offset` is stored as
    /// column vectors: its column stride is not HLSL's row stride, or it
    /// does not start a register.
    fn splits(&self, layout: &Layout, offset: u64) -> bool {
        match layout.kind {
            LayoutKind::Matrix {
                rows,
                scalar,
                column_stride,
                ..
            } => {
                let row = u64::from(rows) * cb_width(naga_scalar(scalar));
                column_stride != round_up(REGISTER, row) || !offset.is_multiple_of(REGISTER)
            }
            _ => false,
        }
    }

    /// Whether a matrix member of contract `layout` at `offset`, which
    /// [`Self::splits`] keeps whole, must still be split because padding
    /// would follow it in the unused tail of its last HLSL row (a
    /// `row_major floatCx3` leaves 4 bytes there). `next` is what comes
    /// after it in the same struct: the next member's layout and offset,
    /// or `None` and the padded end of the struct. D3D packs such padding
    /// without complaint, but DXC's SPIR-V route (`-spirv
    /// -fvk-use-dx-layout`) counts the matrix as whole rows and rejects a
    /// member in its tail as an overlap, so a split keeps the output
    /// usable there too.
    fn tail_split(&self, layout: &Layout, offset: u64, next: (Option<&Layout>, u64)) -> bool {
        let LayoutKind::Matrix {
            columns,
            rows,
            scalar,
            ..
        } = layout.kind
        else {
            return false;
        };
        if self.splits(layout, offset) {
            return false;
        }
        let scalar = naga_scalar(scalar);
        let ty = HType::Matrix {
            columns,
            rows,
            scalar,
        };
        let end = offset + ty.size();
        if end.is_multiple_of(REGISTER) {
            return false;
        }
        let (next_layout, target) = next;
        let next_ty = next_layout.and_then(|l| match l.kind {
            LayoutKind::Scalar(s) | LayoutKind::Atomic(s) => Some(HType::Scalar(naga_scalar(s))),
            LayoutKind::Vector { size, scalar } => Some(HType::Vector(size, naga_scalar(scalar))),
            _ => None,
        });
        // Where D3D would put the next thing without padding: scalars and
        // small vectors fit in the tail, everything else starts a register.
        let natural = next_ty.map_or(round_up(REGISTER, end), |t| t.place(end));
        natural < target
    }

    // -- members ------------------------------------------------------------

    /// Place one WGSL member (or a non-struct global's member) at contract
    /// offset `offset`; its repr, or `None` after an error.
    fn place_member<'s>(
        &mut self,
        p: &mut Placer<'s>,
        name: &str,
        layout: &Layout,
        offset: u64,
        site: &Site<'s>,
        tail_split: bool,
    ) -> Option<Repr> {
        let stored = match layout.kind {
            LayoutKind::Matrix {
                columns,
                rows,
                scalar,
                column_stride,
            } if tail_split => split_matrix(columns, rows, naga_scalar(scalar), column_stride),
            _ => self.stored(layout, offset, site)?,
        };
        match stored {
            Stored::One(ty, repr) => {
                self.place_field(p, name.to_string(), ty, offset, site)?;
                Some(repr)
            }
            Stored::Split {
                column,
                columns,
                column_stride,
                repr,
            } => {
                for j in 0..columns {
                    let at = offset + u64::from(j) * column_stride;
                    self.place_field(p, column_name(name, j), column.clone(), at, site)?;
                }
                Some(repr)
            }
        }
    }

    /// Put one HLSL member at contract offset `target` (padding before it
    /// where members are packed); report what a cbuffer cannot express.
    fn place_field<'s>(
        &mut self,
        p: &mut Placer<'s>,
        name: String,
        ty: HType,
        target: u64,
        site: &Site<'s>,
    ) -> Option<()> {
        if !p.packoffset && ty.place(p.cur) < target {
            self.pad(p, target, Some(&ty));
        }
        let ok = if p.packoffset {
            target.is_multiple_of(4) && ty.legal_at(target) && target >= p.cur
        } else {
            ty.place(p.cur) == target
        };
        if !ok {
            self.placement_error(p, &ty, target, site);
            return None;
        }
        p.cur = target + ty.size();
        p.last = Some((site.member, p.fields.len()));
        p.fields.push(Field {
            name,
            ty,
            offset: target,
            padding: false,
        });
        Some(())
    }

    /// Padding members from `p.cur` until `next` (or, without one, the end
    /// of the padding itself) lands at `target`. Each is a `uint`,
    /// `uintN` that stays inside its register, or a `uint16_t`.
    fn pad(&mut self, p: &mut Placer<'_>, target: u64, next: Option<&HType>) {
        let at_next = |cur: u64| next.map_or(cur, |t| t.place(cur));
        while at_next(p.cur) < target {
            let cur = p.cur;
            let at4 = round_up(4, cur);
            let (ty, at, size) = if at4 + 4 <= target {
                let room = (REGISTER - at4 % REGISTER) / 4;
                let n = room.min((target - at4) / 4).clamp(1, 4);
                let ty = if n == 1 {
                    HType::Scalar(naga::Scalar::U32)
                } else {
                    HType::Vector(n as u8, naga::Scalar::U32)
                };
                (ty, at4, n * 4)
            } else if self.pad16 && cur.is_multiple_of(2) && cur + 2 <= target {
                let u16s = naga::Scalar {
                    kind: naga::ScalarKind::Uint,
                    width: 2,
                };
                (HType::Scalar(u16s), cur, 2)
            } else {
                break;
            };
            let name = if let Some(g) = p.global_pads {
                let n = pad_name(Some(g), p.pads);
                p.pads += 1;
                self.fresh(n)
            } else {
                loop {
                    let n = pad_name(None, p.pads);
                    p.pads += 1;
                    if !self.is_member_name(p.member_names, &n) {
                        break n;
                    }
                }
            };
            p.fields.push(Field {
                name,
                ty,
                offset: at,
                padding: true,
            });
            p.cur = at + size;
        }
    }

    fn placement_error(&mut self, p: &Placer<'_>, ty: &HType, target: u64, site: &Site) {
        let what = capitalize(&site.what.to_string());
        let hlsl = ty.describe();
        let aggregate = matches!(
            ty,
            HType::Struct { .. } | HType::Array(..) | HType::Matrix { .. }
        );
        if aggregate && !target.is_multiple_of(REGISTER) {
            let fixed = round_up(REGISTER, target);
            let fix = self.align_fix(
                site,
                16,
                text!(
                    "`{}` starts on a 16-byte register (offset {fixed} or later)",
                    site.member
                ),
            );
            self.error(
                site,
                text!(
                    "{what} has byte offset {target}, but HLSL starts {} (`{hlsl}`) in a cbuffer on a 16-byte register.",
                    ty.kind_name()
                ),
                text!("offset {target} is not a multiple of 16"),
                vec![text!(
                    "help: add `@align(16)` to member `{}` so that it starts a register",
                    site.member
                )],
                fix,
            );
            return;
        }
        if !ty.legal_at(target) || (p.packoffset && !target.is_multiple_of(4)) {
            let size = ty.size();
            let fix = self.align_fix(
                site,
                16,
                text!("`{}` starts on a 16-byte register", site.member),
            );
            self.error(
                site,
                text!(
                    "{what} (`{hlsl}`, {size} bytes) has byte offset {target}, where it would cross a 16-byte register boundary or is misaligned; HLSL cbuffers do not let a vector or scalar straddle registers."
                ),
                text!("`{hlsl}` at offset {target} crosses a register"),
                vec![text!(
                    "help: add `@align(16)` to member `{}`, or move it so that it lies within one 16-byte register",
                    site.member
                )],
                fix,
            );
            return;
        }
        let natural = ty.place(p.cur);
        if natural > target {
            let (prev, prev_ty, prev_offset) =
                match p.last.and_then(|(n, i)| Some((n, p.fields.get(i)?))) {
                    Some((n, f)) => (n, &f.ty, f.offset),
                    None => ("the member before it", ty, 0),
                };
            let end = prev_offset + prev_ty.size();
            let fix = self.align_fix(
                site,
                16,
                text!("`{}` starts on a later 16-byte register", site.member),
            );
            self.error(
                site,
                text!(
                    "{what} has byte offset {target}, but HLSL packs `{hlsl}` no earlier than byte {natural} after `{prev}` (`{}` ends at byte {end} in the cbuffer).",
                    prev_ty.describe()
                ),
                text!("HLSL packs it at {natural}"),
                vec![text!(
                    "help: add `@align(16)` to member `{}`, or an `@size` to member `{prev}`, so that `{}` starts at or after byte {natural}",
                    site.member, site.member
                )],
                fix,
            );
            return;
        }
        let gap = target.saturating_sub(p.cur);
        self.error(
            site,
            text!(
                "{what} has byte offset {target}; the {gap} bytes before it cannot be filled with cbuffer padding members (2-byte padding needs 16-bit types)."
            ),
            text!("offset {target} cannot be expressed"),
            vec![text!("help: add `@align(4)` to member `{}`", site.member)],
            None,
        );
    }

    /// The storage of a member or array element of contract `layout` at
    /// contract offset `offset`.
    fn stored(&mut self, layout: &Layout, offset: u64, site: &Site) -> Option<Stored> {
        match &layout.kind {
            LayoutKind::Scalar(s) | LayoutKind::Atomic(s) => {
                Some(Stored::One(HType::Scalar(naga_scalar(*s)), Repr::Plain))
            }
            LayoutKind::Vector { size, scalar } => Some(Stored::One(
                HType::Vector(*size, naga_scalar(*scalar)),
                Repr::Plain,
            )),
            LayoutKind::Matrix {
                columns,
                rows,
                scalar,
                column_stride,
            } => {
                let scalar = naga_scalar(*scalar);
                let (columns, rows) = (*columns, *rows);
                if !self.splits(layout, offset) {
                    return Some(Stored::One(
                        HType::Matrix {
                            columns,
                            rows,
                            scalar,
                        },
                        Repr::Plain,
                    ));
                }
                Some(split_matrix(columns, rows, scalar, *column_stride))
            }
            LayoutKind::Array {
                element,
                stride,
                count,
            } => {
                let stride = *stride;
                let Some(count) = *count else {
                    self.error(
                        site,
                        text!(
                            "{} is a runtime-sized array, which a cbuffer cannot hold.",
                            capitalize(&site.what.to_string())
                        ),
                        "runtime-sized array".to_string(),
                        vec!["help: move the array into a `var<storage>` buffer".to_string()],
                        None,
                    );
                    return None;
                };
                if stride % REGISTER != 0 {
                    let fixed = round_up(REGISTER, stride);
                    let fix = self.stride_fix(site, fixed);
                    self.error(
                        site,
                        text!(
                            "Array stride of {} is {stride} bytes, but HLSL starts every array element in a cbuffer on a 16-byte register, so a cbuffer array stride is a multiple of 16.",
                            site.what
                        ),
                        text!("stride {stride} is not a multiple of 16"),
                        vec![text!(
                            "help: give the array `@stride({fixed})`, or use 16-byte elements (e.g. `vec4`), or wrap the element in a struct with `@size(16)`"
                        )],
                        fix,
                    );
                    return None;
                }
                let outer = std::mem::replace(&mut self.in_array, true);
                let stored = self.stored(element, offset, site);
                self.in_array = outer;
                let (ety, erepr) = match stored? {
                    Stored::One(ety, erepr) => {
                        let hstride = ety.stride();
                        // DXC's SPIR-V for an array of arrays of matrices
                        // in a cbuffer loses the matrices' `MatrixStride`
                        // and row-major decorations, so the inner arrays
                        // hold wrapped matrices. Slang (2026.12) drops
                        // `row_major` from every array of matrices declared
                        // as `row_major T m[N]`, so for Slang all of them
                        // hold wrapped matrices.
                        let wrap = (outer || self.slang) && matches!(ety, HType::Matrix { .. });
                        if stride == hstride && !wrap {
                            (ety, erepr)
                        } else if stride < hstride {
                            let fix = self.stride_fix(site, hstride);
                            self.error(
                                site,
                                text!(
                                    "Array stride of {} is {stride} bytes, but HLSL lays out arrays of `{}` in a cbuffer with a stride of {hstride} bytes.",
                                    site.what,
                                    ety.describe()
                                ),
                                text!("stride {stride}, HLSL stride {hstride}"),
                                vec![text!("help: give the array `@stride({hstride})`")],
                                fix,
                            );
                            return None;
                        } else if let LayoutKind::Struct(h) = element.kind {
                            self.stride_variant(h, stride, site)?
                        } else if let (
                            HType::Matrix {
                                columns,
                                rows,
                                scalar,
                            },
                            LayoutKind::Matrix { column_stride, .. },
                            false,
                        ) = (&ety, &element.kind, ety.size().is_multiple_of(REGISTER))
                        {
                            // The element padding would start in the tail
                            // of the matrix's last row: split it, as
                            // `tail_split` explains.
                            let (columns, rows, scalar) = (*columns, *rows, *scalar);
                            let repr = Repr::Columns {
                                columns,
                                rows,
                                scalar,
                            };
                            let column = HType::Vector(rows, scalar);
                            self.columns_wrapper(
                                column,
                                columns,
                                *column_stride,
                                repr,
                                stride,
                                site,
                            )?
                        } else {
                            let fields = vec![("v".to_string(), ety, 0)];
                            self.element_wrapper(fields, erepr, stride, site)?
                        }
                    }
                    Stored::Split {
                        column,
                        columns,
                        column_stride,
                        repr,
                    } => {
                        self.columns_wrapper(column, columns, column_stride, repr, stride, site)?
                    }
                };
                let repr = if erepr == Repr::Plain {
                    Repr::Plain
                } else {
                    Repr::Array(Box::new(erepr))
                };
                Some(Stored::One(HType::Array(Box::new(ety), count), repr))
                // (An array of plain structs keeps its element repr, so
                // that `member` reaches their members by name.)
            }
            LayoutKind::Struct(h) => {
                let (ty, repr) = self.struct_info(*h)?;
                Some(Stored::One(ty, repr))
            }
        }
    }

    /// An element struct holding a matrix as its columns `v_c<j>`.
    fn columns_wrapper(
        &mut self,
        column: HType,
        columns: u8,
        column_stride: u64,
        repr: Repr,
        stride: u64,
        site: &Site,
    ) -> Option<(HType, Repr)> {
        let fields = (0..columns)
            .map(|j| {
                (
                    column_name("v", j),
                    column.clone(),
                    u64::from(j) * column_stride,
                )
            })
            .collect();
        self.element_wrapper(fields, repr, stride, site)
    }

    /// An element struct holding `fields` (the value: `v`, or columns
    /// `v_c<j>`, at offsets within the element) and padding up to `stride`.
    fn element_wrapper(
        &mut self,
        fields: Vec<(String, HType, u64)>,
        inner: Repr,
        stride: u64,
        site: &Site,
    ) -> Option<(HType, Repr)> {
        // The value's names (`v`, `v_c<j>`) never look like padding names.
        let mut p = Placer::new(false, None);
        for (name, ty, at) in &fields {
            self.place_field(&mut p, name.clone(), ty.clone(), *at, site)?;
        }
        if p.cur > stride {
            return None;
        }
        self.pad(&mut p, stride, None);
        if p.cur != stride {
            return None;
        }
        if let Some(i) = self.plan.elements.iter().position(|e| e.fields == p.fields) {
            let e = &self.plan.elements[i];
            return Some((
                HType::Struct {
                    name: e.name.clone(),
                    size: e.size,
                },
                Repr::Wrapped {
                    element: i,
                    inner: Box::new(inner),
                },
            ));
        }
        let what = match fields.first() {
            Some((_, ty, _)) if fields.len() == 1 => mangle_htype(ty),
            // The columns of a matrix: `float3x2_cols`.
            Some((_, HType::Vector(rows, s), _)) => text!(
                "{}_cols",
                super::types::matrix(fields.len() as u8, *rows, *s)
            ),
            _ => "element".to_string(),
        };
        let name = self.fresh(text!("_s_{what}_s{stride}"));
        let index = self.plan.elements.len();
        self.plan.order.push(Declared::Element(index));
        self.plan.elements.push(Element {
            name: name.clone(),
            fields: p.fields,
            inner: inner.clone(),
            size: stride,
        });
        Some((
            HType::Struct { name, size: stride },
            Repr::Wrapped {
                element: index,
                inner: Box::new(inner),
            },
        ))
    }

    /// The storage of struct `h` (memoized).
    fn struct_info(&mut self, h: Handle<naga::Type>) -> Option<(HType, Repr)> {
        if let Some(done) = self.structs.get(&h) {
            return done.clone();
        }
        self.structs.insert(h, None);
        let outer = std::mem::replace(&mut self.in_array, false);
        let info = self.compute_struct(h, None);
        self.in_array = outer;
        self.structs.insert(h, info.clone());
        info
    }

    /// A variant of struct `h` padded to `stride` bytes, for an array whose
    /// contract stride is larger than HLSL's.
    fn stride_variant(
        &mut self,
        h: Handle<naga::Type>,
        stride: u64,
        site: &Site,
    ) -> Option<(HType, Repr)> {
        if let Some(i) = self
            .plan
            .variants
            .iter()
            .position(|v| v.ty == h && v.size == stride && !v.value)
        {
            let v = &self.plan.variants[i];
            return Some((
                HType::Struct {
                    name: v.name.clone(),
                    size: v.size,
                },
                Repr::Variant(i),
            ));
        }
        let outer = std::mem::replace(&mut self.in_array, false);
        let info = self.compute_struct(h, Some(stride));
        self.in_array = outer;
        match &info {
            Some((HType::Struct { size, .. }, _)) if *size == stride => info,
            _ => {
                self.error(
                    site,
                    text!(
                        "Array stride of {} is {stride} bytes, which HLSL cannot reach by padding its element struct.",
                        site.what
                    ),
                    text!("stride {stride}"),
                    vec!["help: remove the array's `@stride`".to_string()],
                    None,
                );
                None
            }
        }
    }

    /// Lay out struct `h`; `size_to`: pad its end to this size (a stride
    /// variant).
    fn compute_struct(
        &mut self,
        h: Handle<naga::Type>,
        size_to: Option<u64>,
    ) -> Option<(HType, Repr)> {
        let sl: &'a crate::layout::StructLayout = self.contract.structs.get(&h)?;
        let slots = member_slots(sl);
        let count = slots.clone().count();
        let mut p = Placer::new(false, Some((h, sl)));
        p.fields.reserve(count);
        let mut members = Vec::with_capacity(count);
        let mut changed = size_to.is_some();
        let mut failed = false;
        let mut rest = slots.peekable();
        while let Some(m) = rest.next() {
            let name = self.member_name(h, m.index, &m.name);
            let next = match rest.peek() {
                Some(n) => (Some(&n.layout), n.offset),
                None => (None, size_to.unwrap_or(0)),
            };
            let tail_split = self.tail_split(&m.layout, m.offset, next);
            let site = Site {
                at: SiteAt::Member(h, &sl.name),
                what: What::Member {
                    member: &m.name,
                    of: &sl.name,
                },
                member: &m.name,
                global: None,
            };
            let mut prefix = name.to_string();
            if let LayoutKind::Matrix { columns, .. } = m.layout.kind {
                if tail_split || self.splits(&m.layout, m.offset) {
                    while (0..columns)
                        .any(|j| self.is_member_name(p.member_names, &column_name(&prefix, j)))
                    {
                        prefix = text!("_s_{prefix}");
                    }
                }
            }
            let before = p.fields.len();
            match self.place_member(&mut p, &prefix, &m.layout, m.offset, &site, tail_split) {
                Some(r) => {
                    if !self.plan.plain(&r)
                        || p.fields.len() != before + 1
                        || p.fields[before].padding
                    {
                        changed = true;
                    }
                    members.push((prefix, r));
                }
                None => {
                    failed = true;
                    members.push((prefix, Repr::Plain));
                }
            }
        }
        if failed {
            return None;
        }
        if let Some(to) = size_to {
            if p.cur > to {
                return None;
            }
            self.pad(&mut p, to, None);
        }
        let size = p.cur;
        if !changed {
            let name = self.type_name(h).into_owned();
            let index = self.plan.variants.len();
            self.plan.variants.push(Variant {
                ty: h,
                name: name.clone(),
                members,
                fields: p.fields,
                size,
                value: true,
            });
            return Some((HType::Struct { name, size }, Repr::Variant(index)));
        }
        let base = match size_to {
            Some(s) => text!("{}_cb_s{s}", self.type_name(h)),
            None => text!("{}_cb", self.type_name(h)),
        };
        let name = self.fresh(base);
        let index = self.plan.variants.len();
        self.plan.order.push(Declared::Variant(index));
        self.plan.variants.push(Variant {
            ty: h,
            name: name.clone(),
            members,
            fields: p.fields,
            size,
            value: false,
        });
        Some((HType::Struct { name, size }, Repr::Variant(index)))
    }

    /// Pack every variant, element struct and cbuffer again from its
    /// finished member list alone and compare with the contract offsets
    /// recorded in it; check `packoffset`s for overlaps and straddling.
    fn verify(&mut self) {
        for p in verify_plan(&self.plan) {
            self.errors.push(
                Diagnostic::internal(text!(
                    "internal error: the HLSL cbuffer packing of {p} differs from the contract"
                ))
                .note("this is a bug in stride's HLSL writer; please report it"),
            );
        }
    }
}

/// What [`Builder::verify`] checks, as problem descriptions.
fn verify_plan(plan: &Plan) -> Vec<String> {
    let mut problems = Vec::new();
    let mut sizes: naga::FastHashMap<&str, u64> = naga::FastHashMap::default();
    for v in &plan.variants {
        sizes.insert(&v.name, v.size);
    }
    for e in &plan.elements {
        sizes.insert(&e.name, e.size);
    }
    for v in &plan.variants {
        if let Some(bad) = packing_mismatch(&v.fields, Some(v.size), &sizes) {
            problems.push(text!("variant `{}`: {bad}", v.name));
        }
    }
    for e in &plan.elements {
        let bad = packing_mismatch(&e.fields, Some(e.size), &sizes).or_else(|| {
            (round_up(REGISTER, e.size) != e.size)
                .then(|| text!("size {} is not an array stride", e.size))
        });
        if let Some(bad) = bad {
            problems.push(text!("element struct `{}`: {bad}", e.name));
        }
    }
    for c in &plan.cbuffers {
        let bad = if c.packoffset {
            packoffset_mismatch(&c.fields, &sizes)
        } else {
            packing_mismatch(&c.fields, None, &sizes)
        };
        if let Some(bad) = bad {
            problems.push(text!("cbuffer `{}`: {bad}", c.name));
        }
    }
    problems
}

/// Replace the value of an attribute: the text inside its parentheses when
/// the span covers the whole attribute, else the whole span.
fn replace_value(source: &str, span: &Span, value: u64) -> Edit {
    let text = source.get(span.clone()).unwrap_or("");
    match (text.find('('), text.rfind(')')) {
        (Some(open), Some(close)) if open < close => Edit {
            span: span.start + open + 1..span.start + close,
            replacement: value.to_string(),
        },
        _ => Edit {
            span: span.clone(),
            replacement: value.to_string(),
        },
    }
}

/// A referenced struct's size must be its declaration's.
fn struct_size_mismatch(ty: &HType, sizes: &naga::FastHashMap<&str, u64>) -> Option<String> {
    match ty {
        HType::Struct { name, size } => match sizes.get(name.as_str()) {
            Some(s) if s != size => Some(text!("`{name}` is {s} bytes, used as {size}")),
            _ => None,
        },
        HType::Array(e, _) => struct_size_mismatch(e, sizes),
        _ => None,
    }
}

/// Pack `fields` by D3D's rules alone; the first field whose packed offset
/// differs from its recorded offset, or a size that differs from `size`.
fn packing_mismatch(
    fields: &[Field],
    size: Option<u64>,
    sizes: &naga::FastHashMap<&str, u64>,
) -> Option<String> {
    let mut cur = 0u64;
    for f in fields {
        if let Some(bad) = struct_size_mismatch(&f.ty, sizes) {
            return Some(bad);
        }
        let at = f.ty.place(cur);
        if at != f.offset {
            return Some(text!(
                "`{}` packs at offset {at}, the contract says {}",
                f.name,
                f.offset
            ));
        }
        cur = at + f.ty.size();
    }
    match size {
        Some(s) if s != cur => Some(text!("it packs to {cur} bytes, the plan says {s}")),
        _ => None,
    }
}

/// Whether `packoffset(cR.c)` can place `ty` at `offset`: a 4-byte
/// component, and (as DXC counts) the component index plus the number of
/// components of the vector (a 16-bit component counts as one, a
/// 64-bit one as two) at most 4. Aggregates start a register anyway.
fn packoffset_expressible(ty: &HType, offset: u64) -> bool {
    let (n, s) = match ty {
        HType::Scalar(s) => (1, *s),
        HType::Vector(n, s) => (u64::from(*n), *s),
        _ => return true,
    };
    let slots = if s.width == 8 { 2 * n } else { n };
    offset.is_multiple_of(4) && (offset % REGISTER) / 4 + slots <= 4
}

/// `packoffset(cR.x)` text for a byte offset (aggregates: `cR`).
fn packoffset_text(ty: &HType, offset: u64) -> PackOffset {
    let component = match ty {
        HType::Scalar(_) | HType::Vector(..) => {
            Some(["x", "y", "z", "w"][((offset % REGISTER) / 4) as usize])
        }
        _ => None,
    };
    PackOffset {
        register: offset / REGISTER,
        component,
    }
}

/// A [`packoffset_text`], displayed as `c1.y` or `c2` (formatted straight
/// into the declaration).
struct PackOffset {
    register: u64,
    component: Option<&'static str>,
}

impl PackOffset {
    /// The text, appended to `out`.
    fn push_to(&self, out: &mut String) {
        out.push('c');
        super::push_decimal(out, self.register);
        if let Some(c) = self.component {
            out.push('.');
            out.push_str(c);
        }
    }
}

impl PackOffset {
    /// The text, written to `out` (a stack buffer: no formatting
    /// machinery).
    fn write_to(&self, out: &mut SmallText) {
        let _ = out.write_str("c");
        let mut digits = [0u8; 20];
        let mut at = digits.len();
        let mut rest = self.register;
        loop {
            at -= 1;
            digits[at] = b'0' + (rest % 10) as u8;
            rest /= 10;
            if rest == 0 || at == 0 {
                break;
            }
        }
        let _ = out.write_str(std::str::from_utf8(&digits[at..]).unwrap_or("0"));
        if let Some(c) = self.component {
            let _ = out.write_str(".");
            let _ = out.write_str(c);
        }
    }
}

impl std::fmt::Display for PackOffset {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "c{}", self.register)?;
        match self.component {
            Some(c) => write!(f, ".{c}"),
            None => Ok(()),
        }
    }
}

/// The byte offset a `packoffset` text names.
fn packoffset_bytes(text: &str) -> Option<u64> {
    let rest = text.strip_prefix('c')?;
    let (reg, comp) = match rest.split_once('.') {
        Some((r, c)) => (r, c),
        None => (rest, "x"),
    };
    let comp = match comp {
        "x" => 0,
        "y" => 1,
        "z" => 2,
        "w" => 3,
        _ => return None,
    };
    Some(reg.parse::<u64>().ok()? * REGISTER + comp * 4)
}

/// Check `packoffset` members: each printed offset names its contract
/// offset, is legal for the type (no straddling, aggregates on a register)
/// and does not overlap the members before it.
fn packoffset_mismatch(fields: &[Field], sizes: &naga::FastHashMap<&str, u64>) -> Option<String> {
    for (k, f) in fields.iter().enumerate() {
        if let Some(bad) = struct_size_mismatch(&f.ty, sizes) {
            return Some(bad);
        }
        // The printed text of the member's offset, parsed back.
        let mut text = SmallText::default();
        packoffset_text(&f.ty, f.offset).write_to(&mut text);
        let text = text.as_str();
        if packoffset_bytes(text) != Some(f.offset) {
            return Some(text!(
                "`{}`: packoffset({text}) does not name offset {}",
                f.name,
                f.offset
            ));
        }
        if !f.ty.legal_at(f.offset) || !packoffset_expressible(&f.ty, f.offset) {
            return Some(text!(
                "`{}` (`{}`) cannot start at offset {}",
                f.name,
                f.ty.describe(),
                f.offset
            ));
        }
        let end = f.offset + f.ty.size();
        let before = fields.get(..k).unwrap_or(&[]);
        if let Some(other) = before
            .iter()
            .find(|o| f.offset < o.offset + o.ty.size() && o.offset < end)
        {
            return Some(text!("`{}` overlaps `{}`", f.name, other.name));
        }
    }
    None
}

/// A short text written on the stack (an offset, a `packoffset`): up to
/// 48 bytes; writing more fails.
struct SmallText {
    buf: [u8; 48],
    len: usize,
}

impl Default for SmallText {
    fn default() -> Self {
        SmallText {
            buf: [0; 48],
            len: 0,
        }
    }
}

impl SmallText {
    fn as_str(&self) -> &str {
        std::str::from_utf8(self.buf.get(..self.len).unwrap_or(&[])).unwrap_or("")
    }
}

impl std::fmt::Write for SmallText {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        let end = self.len + s.len();
        let dst = self.buf.get_mut(self.len..end).ok_or(std::fmt::Error)?;
        dst.copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

/// A helper-name fragment for a cbuffer type.
fn mangle_htype(ty: &HType) -> String {
    match ty {
        HType::Array(e, n) => text!("a{n}_{}", mangle_htype(e)),
        other => other.describe(),
    }
}

/// `value` as the base of `.member` or `[index]`, appended to `out`:
/// parenthesized unless it is a name, member access or index chain.
fn push_operand(out: &mut String, value: &str) {
    if operand_is_simple(value) {
        out.push_str(value);
    } else {
        out.push('(');
        out.push_str(value);
        out.push(')');
    }
}

/// Whether `value` is a name, member access or index chain.
fn operand_is_simple(value: &str) -> bool {
    // (Bytes: a non-ASCII character fails at its first byte, as it would
    // as a char.)
    value
        .bytes()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b'[' | b']'))
}

/// [`push_operand`] as a Display value, formatted into the text that uses
/// it.
struct Operand<'t>(&'t str);

impl std::fmt::Display for Operand<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if operand_is_simple(self.0) {
            f.write_str(self.0)
        } else {
            write!(f, "({})", self.0)
        }
    }
}

// ---------------------------------------------------------------------------
// Byte offsets: a constant plus `uint` terms, printed `16u` or
// `(32u + 16u * i)`.

/// `16u` -> 16.
fn constant_literal(s: &str) -> Option<u64> {
    let digits = s.strip_suffix('u')?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

/// The position of the `)` matching the `(` at byte 0.
fn matching_paren(s: &str) -> Option<usize> {
    let mut depth = 0usize;
    for (i, c) in s.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// The top-level terms of an offset text, borrowed from it: the parts of
/// `(a + b + ...)` split at each ` + ` outside brackets, or the whole
/// (trimmed) text when it is a constant or not one parenthesized sum.
fn offset_terms(s: &str) -> impl Iterator<Item = &str> + Clone {
    let s = s.trim();
    let sum = constant_literal(s).is_none()
        && s.starts_with('(')
        && matching_paren(s) == Some(s.len() - 1);
    let mut rest = if sum { s.get(1..s.len() - 1) } else { Some(s) };
    std::iter::from_fn(move || {
        let text = rest?;
        if !sum {
            rest = None;
            return Some(text);
        }
        let bytes = text.as_bytes();
        let mut depth = 0i32;
        for i in 0..bytes.len() {
            match bytes[i] {
                b'(' | b'[' => depth += 1,
                b')' | b']' => depth -= 1,
                b'+' if depth == 0
                    && i > 0
                    && bytes[i - 1] == b' '
                    && bytes.get(i + 1) == Some(&b' ') =>
                {
                    rest = text.get(i + 2..);
                    return Some(text.get(..i - 1).unwrap_or(""));
                }
                _ => {}
            }
        }
        rest = None;
        Some(text)
    })
}

/// The byte step and the layout of one element of `l`: an array's
/// element (borrowed from `l`), a matrix's column or a vector's component;
/// `None` for anything else.
fn element_layout(l: &Layout) -> Option<(u64, Cow<'_, Layout>)> {
    match &l.kind {
        LayoutKind::Array {
            element, stride, ..
        } => Some((*stride, Cow::Borrowed(&**element))),
        LayoutKind::Matrix {
            rows,
            scalar,
            column_stride,
            ..
        } => Some((
            *column_stride,
            Cow::Owned(Layout {
                size: Some(u64::from(*rows) * u64::from(scalar.width)),
                align: u64::from(scalar.width),
                kind: LayoutKind::Vector {
                    size: *rows,
                    scalar: *scalar,
                },
            }),
        )),
        LayoutKind::Vector { scalar, .. } => Some((
            u64::from(scalar.width),
            Cow::Owned(Layout {
                size: Some(u64::from(scalar.width)),
                align: u64::from(scalar.width),
                kind: LayoutKind::Scalar(*scalar),
            }),
        )),
        _ => None,
    }
}

/// `base` + `constant` (+ `stride * index`), constants folded: `16u`, a
/// lone term, or `(32u + a + 16u * i)` (the constant first, then `base`'s
/// other terms, then the new one). Written straight into one string: the
/// offsets of a chain of member and element accesses are built step by
/// step from each other.
fn offset_add(base: &str, constant: u64, dynamic: Option<(u64, &str)>) -> String {
    let mut out = String::with_capacity(base.len() + 24);
    push_offset_add(&mut out, base, constant, dynamic);
    out
}

/// [`offset_add`], appended to `out`.
fn push_offset_add(out: &mut String, base: &str, constant: u64, dynamic: Option<(u64, &str)>) {
    if !base.is_empty() && operand_is_simple(base) && constant_literal(base).is_none() {
        // A lone name (a helper's `o`) is its own single term: written
        // as the general case below would, without splitting it.
        let sum = dynamic.is_some() || constant != 0;
        if sum {
            out.push('(');
        }
        if constant != 0 {
            super::push_decimal(out, constant);
            out.push_str("u + ");
        }
        out.push_str(base);
        if let Some((stride, index)) = dynamic {
            out.push_str(" + ");
            if stride != 1 {
                super::push_decimal(out, stride);
                out.push_str("u * ");
            }
            push_operand(out, index);
        }
        if sum {
            out.push(')');
        }
        return;
    }
    let terms = offset_terms(base);
    let mut c = constant;
    let mut count = usize::from(dynamic.is_some());
    for t in terms.clone() {
        match constant_literal(t) {
            Some(k) => c = c.saturating_add(k),
            None => count += 1,
        }
    }
    if count == 0 {
        super::push_decimal(out, c);
        out.push('u');
        return;
    }
    let sum = count + usize::from(c != 0) > 1;
    let mut first = true;
    let mut sep = |out: &mut String| {
        if !std::mem::take(&mut first) {
            out.push_str(" + ");
        }
    };
    if sum {
        out.push('(');
    }
    if c != 0 {
        sep(out);
        super::push_decimal(out, c);
        out.push('u');
    }
    for t in terms.filter(|t| constant_literal(t).is_none()) {
        sep(out);
        out.push_str(t);
    }
    if let Some((stride, index)) = dynamic {
        sep(out);
        if stride != 1 {
            super::push_decimal(out, stride);
            out.push_str("u * ");
        }
        push_operand(out, index);
    }
    if sum {
        out.push(')');
    }
}

/// The 16-bit value in the low bits of the `uint` expression `bits`, as
/// scalar type `s`. (Through `f16tof32`, which is exact for every `half`:
/// DXC 1.7 has no SPIR-V for `asfloat16`/`asuint16`.)
fn from16(s: naga::Scalar, bits: &str) -> String {
    match s.kind {
        naga::ScalarKind::Float => text!("({})f16tof32({bits})", super::types::scalar(s)),
        naga::ScalarKind::Sint => text!("(int16_t)({bits})"),
        _ => text!("(uint16_t)({bits})"),
    }
}

/// The bits of the 16-bit expression `v` (of scalar type `s`) as a `uint`.
fn to16(s: naga::Scalar, v: &str) -> String {
    match s.kind {
        naga::ScalarKind::Float => text!("f32tof16((float)({v}))"),
        _ => text!("((uint)({v}) & 0xFFFFu)"),
    }
}

/// A 16-bit scalar (`n` = 0) or vector read at `off` of `buf`, from the
/// containing words (see the module documentation). Vectors of 16-bit
/// components are 4-byte aligned in every WGSL layout; a scalar may sit in
/// either half of its word.
/// Appended to `out`.
fn push_load16(
    out: &mut String,
    needs: &mut Needs,
    (buf, rw, off): (&str, bool, &str),
    n: u8,
    s: naga::Scalar,
) {
    let ld = if rw { "rwload" } else { "load" };
    let b = buffer_type(rw);
    let t = if n <= 1 {
        super::types::scalar(s).into()
    } else {
        super::types::vector(n, s)
    };
    // The call starts with the helper's name.
    let start = out.len();
    super::push_parts(out, &["_s_", ld, "_", &t]);
    let helper = out.get(start..).unwrap_or("");
    needs.helper(helper, |_| {
        let body = match n {
            0 | 1 => text!(
                "    return {};\n",
                from16(s, "b.Load(o & ~3u) >> ((o & 2u) * 8u)")
            ),
            2 => text!(
                "    uint w = b.Load(o);\n    return {t}({}, {});\n",
                from16(s, "w"),
                from16(s, "w >> 16u")
            ),
            _ => {
                let parts: Vec<String> = (0..n)
                    .map(|k| {
                        let word = if k < 2 { "w.x" } else { "w.y" };
                        if k % 2 == 0 {
                            from16(s, word)
                        } else {
                            from16(s, &text!("{word} >> 16u"))
                        }
                    })
                    .collect();
                text!(
                    "    uint2 w = b.Load2(o);\n    return {t}({});\n",
                    parts.join(", ")
                )
            }
        };
        text!("{t} {helper}({b} b, uint o) {{\n{body}}}\n")
    });
    super::push_parts(out, &["(", buf, ", ", off, ")"]);
}

/// Statements writing the 16-bit scalar (`n` = 0) or vector `value` at
/// `off` of the `RWByteAddressBuffer` `buf`: whole words where the value
/// fills them, atomic AND/OR on the word where it fills half of one.
/// Appended to `out`, each line starting with `pad`.
fn push_store16(
    out: &mut String,
    pad: &str,
    needs: &mut Needs,
    (buf, off, value): (&str, &str, &str),
    n: u8,
    s: naga::Scalar,
) {
    let t = if n <= 1 {
        super::types::scalar(s).into()
    } else {
        super::types::vector(n, s)
    };
    out.push_str(pad);
    // The call starts with the helper's name.
    let start = out.len();
    super::push_parts(out, &["_s_store_", &t]);
    let helper = out.get(start..).unwrap_or("");
    needs.helper(helper, |needs| {
        let pair = |a: &str, b: &str| text!("{} | ({} << 16u)", to16(s, a), to16(s, b));
        let body = match n {
            0 | 1 => text!(
                "    uint s = (o & 2u) * 8u;\n    b.InterlockedAnd(o & ~3u, ~(0xFFFFu << s));\n    b.InterlockedOr(o & ~3u, {} << s);\n",
                to16(s, "v")
            ),
            2 => text!("    b.Store(o, {});\n", pair("v.x", "v.y")),
            3 => {
                let mut body = text!("    b.Store(o, {});\n", pair("v.x", "v.y"));
                push_store16(&mut body, "    ", needs, ("b", "o + 4u", "v.z"), 0, s);
                body
            }
            _ => text!(
                "    b.Store2(o, uint2({}, {}));\n",
                pair("v.x", "v.y"),
                pair("v.z", "v.w")
            ),
        };
        text!("void {helper}(RWByteAddressBuffer b, uint o, {t} v) {{\n{body}}}\n")
    });
    super::push_parts(out, &["(", buf, ", ", off, ", ", value, ");\n"]);
}

/// Indent every line of `text` by four spaces.
#[cfg(test)]
fn indent(text: &str) -> String {
    text.lines().map(|l| text!("    {l}\n")).collect()
}

/// A helper-name fragment for a contract layout of value type `ty`,
/// appended to `out`.
fn push_mangle_layout(out: &mut String, ctx: &Ctx<'_>, layout: &Layout, ty: Handle<naga::Type>) {
    match &layout.kind {
        LayoutKind::Array {
            element,
            stride,
            count,
        } => {
            out.push('a');
            match count {
                Some(n) => super::push_decimal(out, *n),
                None => out.push_str("rt"),
            }
            out.push('s');
            super::push_decimal(out, *stride);
            out.push('_');
            let base = match ctx.module.types.get_handle(ty).map(|t| &t.inner) {
                Ok(naga::TypeInner::Array { base, .. }) => *base,
                _ => ty,
            };
            push_mangle_layout(out, ctx, element, base);
        }
        _ => out.push_str(super::types::type_name(ctx, ty)),
    }
}

/// The element type of array type `ty` (itself when not an array).
fn element_type(ctx: &Ctx<'_>, ty: Handle<naga::Type>) -> Handle<naga::Type> {
    match ctx.module.types.get_handle(ty).map(|t| &t.inner) {
        Ok(naga::TypeInner::Array { base, .. }) => *base,
        _ => ty,
    }
}

fn buffer_type(rw: bool) -> &'static str {
    if rw {
        "RWByteAddressBuffer"
    } else {
        "ByteAddressBuffer"
    }
}

// ---------------------------------------------------------------------------
// Access.

impl Plan {
    /// Whether storage of `repr` has the value type's spelling and
    /// packing, so that its lvalue text is its value.
    fn plain(&self, repr: &Repr) -> bool {
        match repr {
            Repr::Plain => true,
            Repr::Variant(i) => self.variants.get(*i).is_some_and(|v| v.value),
            Repr::Array(e) => self.plain(e),
            _ => false,
        }
    }

    fn cbuffer(&self, g: Handle<naga::GlobalVariable>) -> Option<&Cbuffer> {
        self.cbuffers.iter().find(|c| c.global == g)
    }

    fn storage(&self, g: Handle<naga::GlobalVariable>) -> Option<&Storage> {
        self.storages.iter().find(|s| s.global == g)
    }

    /// The place of buffer global `g` itself (`None`: not a buffer).
    pub fn global(&self, g: Handle<naga::GlobalVariable>) -> Option<Place<'_>> {
        if let Some(c) = self.cbuffer(g) {
            let text = match &c.repr {
                Repr::Cbuffer(_) => c.name.as_str(),
                _ => c.members.first().map_or("", |m| m.0.as_str()),
            };
            return Some(Place::Text {
                text: Cow::Borrowed(text),
                repr: &c.repr,
            });
        }
        let s = self.storage(g)?;
        Some(Place::Bytes {
            global: g,
            offset: Offset::Const(0),
            layout: Cow::Borrowed(&s.layout),
        })
    }

    /// Member `index` of the struct at `place`.
    pub fn member<'p>(&'p self, ctx: &'p Ctx<'_>, place: &Place<'p>, index: u32) -> Place<'p> {
        match place {
            Place::Text { text, repr } => {
                let (members, global) = match repr {
                    Repr::Cbuffer(g) => (self.cbuffer(*g).map(|c| &c.members), true),
                    Repr::Variant(i) => (self.variants.get(*i).map(|v| &v.members), false),
                    _ => (None, false),
                };
                match members.and_then(|m| m.get(index as usize)) {
                    Some((name, r)) => Place::Text {
                        text: if global {
                            Cow::Borrowed(name)
                        } else {
                            Cow::Owned(text!("{}.{name}", Operand(text)))
                        },
                        repr: r,
                    },
                    None => place.clone(),
                }
            }
            Place::Bytes {
                global,
                offset,
                layout,
            } => {
                let LayoutKind::Struct(h) = layout.kind else {
                    return place.clone();
                };
                let Some(slot) = ctx
                    .contract
                    .structs
                    .get(&h)
                    .and_then(|s| s.members().find(|m| m.index == index as usize))
                else {
                    return place.clone();
                };
                Place::Bytes {
                    global: *global,
                    offset: offset.add(slot.offset, None),
                    layout: Cow::Borrowed(&slot.layout),
                }
            }
        }
    }

    /// Element `index` of the array, matrix (a column) or vector (a
    /// component) at `place`. A dynamic column of a split matrix is an
    /// rvalue (uniforms are never stored to).
    pub fn element<'p>(
        &'p self,
        ctx: &'p Ctx<'_>,
        place: &Place<'p>,
        index: Index<'_>,
    ) -> Place<'p> {
        let _ = ctx;
        match place {
            Place::Text { text, repr } => {
                // `<text>[<index>]`, written in one go.
                let indexed = |suffix: &str| {
                    let mut out = String::with_capacity(text.len() + 16);
                    push_operand(&mut out, text);
                    out.push('[');
                    match &index {
                        Index::Constant(n) => super::push_decimal(&mut out, u64::from(*n)),
                        Index::Dynamic(s) => out.push_str(s),
                    }
                    out.push(']');
                    out.push_str(suffix);
                    out
                };
                let repr: &'p Repr = repr;
                let (text, repr) = match repr {
                    Repr::Array(elem) => match &**elem {
                        Repr::Wrapped { inner, .. } => (indexed(".v"), &**inner),
                        other => (indexed(""), other),
                    },
                    Repr::Columns {
                        columns,
                        rows,
                        scalar,
                    } => match index {
                        Index::Constant(j) => (column_name(text, j), PLAIN),
                        Index::Dynamic(i) => (
                            text!("({})[{i}]", columns_matrix(text, *columns, *rows, *scalar)),
                            PLAIN,
                        ),
                    },
                    _ => (indexed(""), PLAIN),
                };
                Place::Text {
                    text: Cow::Owned(text),
                    repr,
                }
            }
            Place::Bytes {
                global,
                offset,
                layout,
            } => {
                let sub = match layout {
                    Cow::Borrowed(l) => element_layout(l),
                    Cow::Owned(l) => {
                        element_layout(l).map(|(step, e)| (step, Cow::Owned(e.into_owned())))
                    }
                };
                let Some((step, layout)) = sub else {
                    return place.clone();
                };
                let offset = match index {
                    Index::Constant(n) => offset.add(step * u64::from(n), None),
                    Index::Dynamic(i) => offset.add(0, Some((step, i))),
                };
                Place::Bytes {
                    global: *global,
                    offset,
                    layout,
                }
            }
        }
    }

    /// An HLSL expression with the value at `place`, of WGSL value type `ty`.
    pub fn load(
        &self,
        ctx: &Ctx<'_>,
        needs: &mut Needs,
        place: &Place,
        ty: Handle<naga::Type>,
    ) -> String {
        match place {
            Place::Text { text, repr } => self.load_text(ctx, needs, text, repr, ty),
            Place::Bytes {
                global,
                offset,
                layout,
            } => match self.storage(*global) {
                Some(st) => {
                    let rw = !st.read_only;
                    offset.with_text(|off| {
                        let mut out = String::with_capacity(st.name.len() + off.len() + 24);
                        self.push_load_bytes(
                            &mut out,
                            ctx,
                            needs,
                            st,
                            (&st.name, rw, off),
                            layout,
                            ty,
                        );
                        out
                    })
                }
                None => super::types::zero_value(ctx, ty),
            },
        }
    }

    fn load_text(
        &self,
        ctx: &Ctx<'_>,
        needs: &mut Needs,
        text: &str,
        repr: &Repr,
        ty: Handle<naga::Type>,
    ) -> String {
        if self.plain(repr) {
            return text.to_string();
        }
        match repr {
            Repr::Plain => text.to_string(),
            Repr::Columns {
                columns,
                rows,
                scalar,
            } => columns_matrix(text, *columns, *rows, *scalar),
            Repr::Wrapped { inner, .. } => {
                self.load_text(ctx, needs, &text!("{}.v", Operand(text)), inner, ty)
            }
            Repr::Cbuffer(g) => {
                let Some(c) = self.cbuffer(*g) else {
                    return text.to_string();
                };
                // The call starts with the helper's name.
                let mut call = String::with_capacity(c.name.len() + 16);
                super::push_parts(&mut call, &["_s_cbload_", c.name.trim_start_matches("_s_")]);
                let helper = call.as_str();
                needs.helper(helper, |needs| {
                    let body = self.construct(ctx, needs, "", &c.members, ty, true);
                    let t = super::types::type_name(ctx, ty);
                    text!("{t} {helper}() {{\n{body}}}\n")
                });
                call.push_str("()");
                call
            }
            Repr::Variant(i) => {
                let Some(v) = self.variants.get(*i) else {
                    return text.to_string();
                };
                // The call starts with the helper's name.
                let mut call = String::with_capacity(v.name.len() + text.len() + 16);
                super::push_parts(&mut call, &["_s_cbload_", v.name.trim_start_matches("_s_")]);
                let helper = call.as_str();
                needs.helper(helper, |needs| {
                    let body = self.construct(ctx, needs, "x", &v.members, ty, false);
                    let t = super::types::type_name(ctx, ty);
                    text!("{t} {helper}({} x) {{\n{body}}}\n", v.name)
                });
                super::push_parts(&mut call, &["(", text, ")"]);
                call
            }
            Repr::Array(_) => {
                let Ok(naga::TypeInner::Array { base, size, .. }) =
                    ctx.module.types.get_handle(ty).map(|t| &t.inner)
                else {
                    return text.to_string();
                };
                let Some(n) = super::types::array_count(ctx, *size) else {
                    return text.to_string();
                };
                let (sb, sd) = self.storage_name(ctx, repr, ty);
                let helper = text!(
                    "_s_cbload_{}",
                    mangle_dims(&sb, &sd).trim_start_matches("_s_")
                );
                needs.helper(&helper, |needs| {
                    let x = Place::Text {
                        text: Cow::Borrowed("x"),
                        repr,
                    };
                    let item = match self.element(ctx, &x, Index::Dynamic("i")) {
                        Place::Text { text, repr } => {
                            self.load_text(ctx, needs, &text, repr, *base)
                        }
                        Place::Bytes { .. } => "x[i]".to_string(),
                    };
                    let t = super::types::type_name(ctx, ty);
                    text!(
                        "{t} {helper}({sb} x{sd}) {{\n    {t} r;\n    for (uint i = 0u; i < {n}u; ++i) {{\n        r[i] = {item};\n    }}\n    return r;\n}}\n"
                    )
                });
                text!("{helper}({text})")
            }
        }
    }

    /// The body of a helper that builds the value struct `ty` from the
    /// storage members `members` of `base` (`global`: the members are
    /// cbuffer members, named on their own).
    fn construct(
        &self,
        ctx: &Ctx<'_>,
        needs: &mut Needs,
        base: &str,
        members: &[(String, Repr)],
        ty: Handle<naga::Type>,
        global: bool,
    ) -> String {
        let t = super::types::type_name(ctx, ty);
        let mut out = text!("    {t} r;\n");
        let value_members: &[naga::StructMember] =
            match ctx.module.types.get_handle(ty).map(|t| &t.inner) {
                Ok(naga::TypeInner::Struct { members, .. }) => members,
                _ => &[],
            };
        for (i, ((name, repr), vm)) in members.iter().zip(value_members).enumerate() {
            let lvalue = if global {
                Cow::Borrowed(name.as_str())
            } else {
                Cow::Owned(text!("{}.{name}", Operand(base)))
            };
            let value = self.load_text(ctx, needs, &lvalue, repr, vm.ty);
            let member = ctx.name(NameKey::StructMember(ty, i as u32));
            let _ = writeln!(out, "    r.{member} = {value};");
        }
        out.push_str("    return r;\n");
        out
    }

    /// The HLSL spelling (element, dims) of the cbuffer storage of `repr`
    /// holding a value of type `ty`.
    fn storage_name(&self, ctx: &Ctx<'_>, repr: &Repr, ty: Handle<naga::Type>) -> (String, String) {
        match repr {
            Repr::Variant(i) => (
                self.variants
                    .get(*i)
                    .map_or_else(String::new, |v| v.name.clone()),
                String::new(),
            ),
            Repr::Wrapped { element, .. } => (
                self.elements
                    .get(*element)
                    .map_or_else(String::new, |e| e.name.clone()),
                String::new(),
            ),
            Repr::Array(elem) => match ctx.module.types.get_handle(ty).map(|t| &t.inner) {
                Ok(naga::TypeInner::Array { base, size, .. }) => {
                    let (b, d) = self.storage_name(ctx, elem, *base);
                    let n = super::types::array_count(ctx, *size).unwrap_or(0);
                    (b, text!("[{n}]{d}"))
                }
                _ => (super::types::type_name(ctx, ty).to_string(), String::new()),
            },
            _ => (super::types::type_name(ctx, ty).to_string(), String::new()),
        }
    }

    /// Record that a 16- or 64-bit load or store needs shader model 6.2.
    fn require_sm62(&self, ctx: &Ctx<'_>, needs: &mut Needs, st: &Storage, s: naga::Scalar) {
        if ctx.shader_model() < super::ShaderModel::Sm6_2 {
            let how = if s.width == 2 {
                "which need HLSL's 16-bit types (`-enable-16bit-types`)"
            } else {
                "which HLSL reads and writes in a byte-address buffer with the templated `Load<T>`/`Store<T>`"
            };
            needs.error(
                Diagnostic::error(text!(
                    "`{}` holds `{}` values, {how}, available from shader model 6.2; the chosen shader model is {}.",
                    st.name,
                    super::types::scalar(s),
                    ctx.shader_model()
                ))
                .at(st.span.clone(), "16- or 64-bit values in a byte-address buffer")
                .note("help: use --shader-model 6_2 (or later)"),
            );
        }
    }

    /// A scalar (`n` = 0) or vector read at `off` of `buf`, appended to
    /// `out`.
    #[allow(clippy::too_many_arguments)]
    fn push_leaf_load(
        &self,
        out: &mut String,
        ctx: &Ctx<'_>,
        needs: &mut Needs,
        st: &Storage,
        (buf, rw, off): (&str, bool, &str),
        n: u8,
        s: naga::Scalar,
    ) {
        if s.width == 2 {
            self.require_sm62(ctx, needs, st, s);
            return push_load16(out, needs, (buf, rw, off), n, s);
        }
        if s.width == 4 || s.kind == naga::ScalarKind::Bool {
            // `buf.LoadN(off)`, converted from `uint`.
            out.push_str(match s.kind {
                naga::ScalarKind::Sint => "asint(",
                naga::ScalarKind::Float => "asfloat(",
                naga::ScalarKind::Bool => "(",
                _ => "",
            });
            out.push_str(buf);
            out.push_str(".Load");
            if n > 1 {
                super::push_decimal(out, u64::from(n));
            }
            out.push('(');
            out.push_str(off);
            out.push(')');
            out.push_str(match s.kind {
                naga::ScalarKind::Sint | naga::ScalarKind::Float => ")",
                naga::ScalarKind::Bool => " != 0u)",
                _ => "",
            });
        } else {
            self.require_sm62(ctx, needs, st, s);
            let t = if n == 0 {
                super::types::scalar(s).into()
            } else {
                super::types::vector(n, s)
            };
            super::push_parts(out, &[buf, ".Load<", &t, ">(", off, ")"]);
        }
    }

    /// The value of type `ty` laid out as `layout` at `off` of the
    /// byte-address buffer `buf` (`rw`: a `RWByteAddressBuffer`), appended
    /// to `out`.
    #[allow(clippy::too_many_arguments)]
    fn push_load_bytes(
        &self,
        out: &mut String,
        ctx: &Ctx<'_>,
        needs: &mut Needs,
        st: &Storage,
        (buf, rw, off): (&str, bool, &str),
        layout: &Layout,
        ty: Handle<naga::Type>,
    ) {
        let ld = if rw { "rwload" } else { "load" };
        let b = buffer_type(rw);
        let start = out.len();
        match &layout.kind {
            LayoutKind::Scalar(s) | LayoutKind::Atomic(s) => {
                return self.push_leaf_load(
                    out,
                    ctx,
                    needs,
                    st,
                    (buf, rw, off),
                    0,
                    naga_scalar(*s),
                );
            }
            LayoutKind::Vector { size, scalar } => {
                return self.push_leaf_load(
                    out,
                    ctx,
                    needs,
                    st,
                    (buf, rw, off),
                    *size,
                    naga_scalar(*scalar),
                );
            }
            LayoutKind::Matrix {
                columns,
                rows,
                scalar,
                column_stride,
            } => {
                let s = naga_scalar(*scalar);
                let t = super::types::matrix(*columns, *rows, s);
                super::push_parts(out, &["_s_", ld, "_", &t]);
                let helper = out.get(start..).unwrap_or("");
                needs.helper(helper, |needs| {
                    let mut def = String::with_capacity(128 + 48 * usize::from(*columns));
                    super::push_parts(
                        &mut def,
                        &[
                            &t,
                            " ",
                            helper,
                            "(",
                            b,
                            " b, uint o) {\n    return ",
                            &t,
                            "(",
                        ],
                    );
                    let mut o = String::new();
                    for j in 0..u64::from(*columns) {
                        if j > 0 {
                            def.push_str(", ");
                        }
                        o.clear();
                        push_offset_add(&mut o, "o", j * column_stride, None);
                        self.push_leaf_load(&mut def, ctx, needs, st, ("b", rw, &o), *rows, s);
                    }
                    def.push_str(");\n}\n");
                    def
                });
            }
            LayoutKind::Array {
                element,
                stride,
                count,
            } => {
                let Some(n) = count else {
                    // Runtime-sized arrays are never loaded whole.
                    out.push_str(&super::types::zero_value(ctx, ty));
                    return;
                };
                let t = super::types::type_name(ctx, ty);
                let base = element_type(ctx, ty);
                super::push_parts(out, &["_s_", ld, "_"]);
                push_mangle_layout(out, ctx, layout, ty);
                let helper = out.get(start..).unwrap_or("");
                needs.helper(helper, |needs| {
                    let mut def = String::with_capacity(256);
                    super::push_parts(
                        &mut def,
                        &[
                            t,
                            " ",
                            helper,
                            "(",
                            b,
                            " b, uint o) {\n    ",
                            t,
                            " r;\n    for (uint i = 0u; i < ",
                        ],
                    );
                    super::push_decimal(&mut def, *n);
                    def.push_str("u; ++i) {\n        r[i] = ");
                    let o = offset_add("o", 0, Some((*stride, "i")));
                    self.push_load_bytes(&mut def, ctx, needs, st, ("b", rw, &o), element, base);
                    def.push_str(";\n    }\n    return r;\n}\n");
                    def
                });
            }
            LayoutKind::Struct(h) => {
                let t = super::types::type_name(ctx, *h);
                super::push_parts(out, &["_s_", ld, "_", t]);
                let helper = out.get(start..).unwrap_or("");
                needs.helper(helper, |needs| {
                    let mut def = String::with_capacity(256);
                    super::push_parts(
                        &mut def,
                        &[t, " ", helper, "(", b, " b, uint o) {\n    ", t, " r;\n"],
                    );
                    let mut o = String::new();
                    if let Some(sl) = ctx.contract.structs.get(h) {
                        for m in sl.members() {
                            if m.layout.size.is_none() {
                                continue;
                            }
                            let mty = match ctx.module.types.get_handle(*h).map(|t| &t.inner) {
                                Ok(naga::TypeInner::Struct { members, .. }) => {
                                    match members.get(m.index) {
                                        Some(vm) => vm.ty,
                                        None => continue,
                                    }
                                }
                                _ => continue,
                            };
                            o.clear();
                            push_offset_add(&mut o, "o", m.offset, None);
                            let name = ctx.name(NameKey::StructMember(*h, m.index as u32));
                            super::push_parts(&mut def, &["    r.", name, " = "]);
                            self.push_load_bytes(
                                &mut def,
                                ctx,
                                needs,
                                st,
                                ("b", rw, &o),
                                &m.layout,
                                mty,
                            );
                            def.push_str(";\n");
                        }
                    }
                    def.push_str("    return r;\n}\n");
                    def
                });
            }
        }
        super::push_parts(out, &["(", buf, ", ", off, ")"]);
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
        match place {
            // Uniforms are never stored to.
            Place::Text { .. } => String::new(),
            Place::Bytes {
                global,
                offset,
                layout,
            } => match self.storage(*global) {
                Some(st) => offset.with_text(|off| {
                    let mut out =
                        String::with_capacity(st.name.len() + off.len() + value.len() + 32);
                    self.push_store_bytes(
                        &mut out,
                        "",
                        ctx,
                        needs,
                        st,
                        (&st.name, off, value),
                        layout,
                        ty,
                    );
                    out
                }),
                None => String::new(),
            },
        }
    }

    /// Statements storing the value `value` (evaluated once) of type `ty`,
    /// laid out as `layout`, at `off` of the `RWByteAddressBuffer` `buf`;
    /// leaf by leaf, so padding bytes are never written. Appended to `out`:
    /// one line, starting with `pad` (nothing where it cannot be written).
    #[allow(clippy::too_many_arguments)]
    fn push_store_bytes(
        &self,
        out: &mut String,
        pad: &str,
        ctx: &Ctx<'_>,
        needs: &mut Needs,
        st: &Storage,
        (buf, off, value): (&str, &str, &str),
        layout: &Layout,
        ty: Handle<naga::Type>,
    ) {
        let leaf = |out: &mut String, needs: &mut Needs, n: u8, s: naga::Scalar| {
            if s.width == 2 {
                self.require_sm62(ctx, needs, st, s);
                return push_store16(out, pad, needs, (buf, off, value), n, s);
            }
            out.push_str(pad);
            if s.width == 4 || s.kind == naga::ScalarKind::Bool {
                // `buf.StoreN(off, v);`
                out.push_str(buf);
                out.push_str(".Store");
                if n > 1 {
                    super::push_decimal(out, u64::from(n));
                }
                out.push('(');
                out.push_str(off);
                out.push_str(", ");
                match s.kind {
                    naga::ScalarKind::Uint => out.push_str(value),
                    naga::ScalarKind::Bool if n <= 1 => {
                        super::push_parts(out, &["uint(", value, ")"]);
                    }
                    naga::ScalarKind::Bool => {
                        out.push_str("uint");
                        super::push_decimal(out, u64::from(n));
                        super::push_parts(out, &["(", value, ")"]);
                    }
                    _ => {
                        super::push_parts(out, &["asuint(", value, ")"]);
                    }
                }
                out.push_str(");\n");
            } else {
                self.require_sm62(ctx, needs, st, s);
                let t = if n == 0 {
                    super::types::scalar(s).into()
                } else {
                    super::types::vector(n, s)
                };
                super::push_parts(out, &[buf, ".Store<", &t, ">(", off, ", ", value, ");\n"]);
            }
        };
        let start = out.len();
        match &layout.kind {
            LayoutKind::Scalar(s) => return leaf(out, needs, 0, naga_scalar(*s)),
            LayoutKind::Vector { size, scalar } => {
                return leaf(out, needs, *size, naga_scalar(*scalar))
            }
            LayoutKind::Atomic(s) => {
                let s = naga_scalar(*s);
                out.push_str(pad);
                if !self.push_atomic_helper(out, ctx, needs, st, "store", s) {
                    out.truncate(start);
                    return;
                }
            }
            LayoutKind::Matrix {
                columns,
                rows,
                scalar,
                column_stride,
            } => {
                let s = naga_scalar(*scalar);
                let t = super::types::matrix(*columns, *rows, s);
                out.push_str(pad);
                let name_start = out.len();
                super::push_parts(out, &["_s_store_", &t]);
                let helper = out.get(name_start..).unwrap_or("");
                needs.helper(helper, |needs| {
                    let column = Layout {
                        size: Some(u64::from(*rows) * u64::from(scalar.width)),
                        align: u64::from(scalar.width),
                        kind: LayoutKind::Vector {
                            size: *rows,
                            scalar: *scalar,
                        },
                    };
                    let mut def = String::with_capacity(128 + 48 * usize::from(*columns));
                    super::push_parts(
                        &mut def,
                        &[
                            "void ",
                            helper,
                            "(RWByteAddressBuffer b, uint o, ",
                            &t,
                            " v) {\n",
                        ],
                    );
                    let (mut o, mut v) = (String::new(), String::new());
                    for j in 0..u64::from(*columns) {
                        o.clear();
                        push_offset_add(&mut o, "o", j * column_stride, None);
                        v.clear();
                        v.push_str("v[");
                        super::push_decimal(&mut v, j);
                        v.push(']');
                        self.push_store_bytes(
                            &mut def,
                            "    ",
                            ctx,
                            needs,
                            st,
                            ("b", &o, &v),
                            &column,
                            ty,
                        );
                    }
                    def.push_str("}\n");
                    def
                });
            }
            LayoutKind::Array {
                element,
                stride,
                count,
            } => {
                let Some(n) = count else {
                    return;
                };
                let t = super::types::type_name(ctx, ty);
                let base = element_type(ctx, ty);
                out.push_str(pad);
                let name_start = out.len();
                out.push_str("_s_store_");
                push_mangle_layout(out, ctx, layout, ty);
                let helper = out.get(name_start..).unwrap_or("");
                needs.helper(helper, |needs| {
                    let mut def = String::with_capacity(256);
                    super::push_parts(
                        &mut def,
                        &[
                            "void ",
                            helper,
                            "(RWByteAddressBuffer b, uint o, ",
                            t,
                            " v) {\n    for (uint i = 0u; i < ",
                        ],
                    );
                    super::push_decimal(&mut def, *n);
                    def.push_str("u; ++i) {\n");
                    let o = offset_add("o", 0, Some((*stride, "i")));
                    self.push_store_bytes(
                        &mut def,
                        "        ",
                        ctx,
                        needs,
                        st,
                        ("b", &o, "v[i]"),
                        element,
                        base,
                    );
                    def.push_str("    }\n}\n");
                    def
                });
            }
            LayoutKind::Struct(h) => {
                let t = super::types::type_name(ctx, *h);
                out.push_str(pad);
                let name_start = out.len();
                super::push_parts(out, &["_s_store_", t]);
                let helper = out.get(name_start..).unwrap_or("");
                needs.helper(helper, |needs| {
                    let mut def = String::with_capacity(256);
                    super::push_parts(
                        &mut def,
                        &[
                            "void ",
                            helper,
                            "(RWByteAddressBuffer b, uint o, ",
                            t,
                            " v) {\n",
                        ],
                    );
                    let (mut o, mut v) = (String::new(), String::new());
                    if let Some(sl) = ctx.contract.structs.get(h) {
                        for m in sl.members() {
                            let mty = match ctx.module.types.get_handle(*h).map(|t| &t.inner) {
                                Ok(naga::TypeInner::Struct { members, .. }) => {
                                    match members.get(m.index) {
                                        Some(vm) => vm.ty,
                                        None => continue,
                                    }
                                }
                                _ => continue,
                            };
                            if m.layout.size.is_none() {
                                continue;
                            }
                            o.clear();
                            push_offset_add(&mut o, "o", m.offset, None);
                            let name = ctx.name(NameKey::StructMember(*h, m.index as u32));
                            v.clear();
                            super::push_parts(&mut v, &["v.", name]);
                            self.push_store_bytes(
                                &mut def,
                                "    ",
                                ctx,
                                needs,
                                st,
                                ("b", &o, &v),
                                &m.layout,
                                mty,
                            );
                        }
                    }
                    def.push_str("}\n");
                    def
                });
            }
        }
        super::push_parts(out, &["(", buf, ", ", off, ", ", value, ");\n"]);
    }

    /// The helper performing atomic operation `op` (`add`, `sub`, `and`,
    /// `or`, `xor`, `min`, `max`, `exchange`, `cmpxchg`, `store`) on a
    /// 32-bit `s`, returning the old value (`store`: nothing): its name,
    /// appended to `out`. `false` (with an error, nothing appended) for
    /// other widths.
    fn push_atomic_helper(
        &self,
        out: &mut String,
        ctx: &Ctx<'_>,
        needs: &mut Needs,
        st: &Storage,
        op: &str,
        s: naga::Scalar,
    ) -> bool {
        let _ = ctx;
        if s.width != 4 {
            needs.error(
                Diagnostic::error(text!(
                    "`{}` holds 64-bit atomics, which the HLSL target does not write yet.",
                    st.name
                ))
                .at(st.span.clone(), "64-bit atomics")
                .note("help: use `atomic<u32>` or `atomic<i32>`, or --target spirv"),
            );
            return false;
        }
        let t = super::types::scalar(s);
        let start = out.len();
        super::push_parts(out, &["_s_atomic_", op, "_", t]);
        let name = out.get(start..).unwrap_or("");
        needs.helper(name, |_| atomic_helper_text(name, op, s));
        true
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
        let Place::Bytes {
            global,
            offset,
            layout,
        } = place
        else {
            return String::new();
        };
        let (LayoutKind::Atomic(s) | LayoutKind::Scalar(s)) = layout.kind else {
            return String::new();
        };
        let s = naga_scalar(s);
        let Some(st) = self.storage(*global) else {
            return String::new();
        };
        let buf = &st.name;
        use naga::AtomicFunction as F;
        let op = match fun {
            F::Add => "add",
            F::Subtract => "sub",
            F::And => "and",
            F::InclusiveOr => "or",
            F::ExclusiveOr => "xor",
            F::Min => "min",
            F::Max => "max",
            F::Exchange { compare: None } => "exchange",
            F::Exchange { compare: Some(_) } => "cmpxchg",
        };
        // The statement is written around the helper's name: the result
        // (if any), the name, then the call's arguments.
        let (old, exchanged) = if op == "cmpxchg" && result.is_some() {
            let ty = ctx
                .module
                .special_types
                .predeclared_types
                .get(&naga::PredeclaredType::AtomicCompareExchangeWeakResult(s))
                .copied();
            match ty {
                Some(h) => (
                    ctx.name(NameKey::StructMember(h, 0)),
                    ctx.name(NameKey::StructMember(h, 1)),
                ),
                None => ("old_value", "exchanged"),
            }
        } else {
            ("", "")
        };
        let mut out = String::with_capacity(96 + buf.len() + value.len());
        match (result, op == "cmpxchg") {
            (Some(r), true) => super::push_parts(&mut out, &[r, ".", old, " = "]),
            (Some(r), false) => super::push_parts(&mut out, &[r, " = "]),
            (None, _) => {}
        }
        if !self.push_atomic_helper(&mut out, ctx, needs, st, op, s) {
            return String::new();
        }
        offset.with_text(|offset| {
            super::push_parts(&mut out, &["(", buf, ", ", offset, ", "]);
            if op == "cmpxchg" {
                let cmp = compare.unwrap_or("0");
                super::push_parts(&mut out, &[cmp, ", ", value, ");\n"]);
                if let Some(r) = result {
                    super::push_parts(
                        &mut out,
                        &[r, ".", exchanged, " = (", r, ".", old, " == ", cmp, ");\n"],
                    );
                }
            } else {
                super::push_parts(&mut out, &[value, ");\n"]);
            }
        });
        out
    }

    /// A `uint` expression: the element count of the runtime-sized array at
    /// `place`.
    pub fn array_length(&self, ctx: &Ctx<'_>, needs: &mut Needs, place: &Place) -> String {
        let _ = ctx;
        let Place::Bytes {
            global,
            offset,
            layout,
        } = place
        else {
            return "0u".to_string();
        };
        let LayoutKind::Array { stride, .. } = layout.kind else {
            return "0u".to_string();
        };
        let Some(st) = self.storage(*global) else {
            return "0u".to_string();
        };
        let rw = !st.read_only;
        let helper = if rw {
            "_s_rw_byte_size"
        } else {
            "_s_byte_size"
        };
        needs.helper(helper, |_| {
            text!(
                "uint {helper}({} b) {{\n    uint n;\n    b.GetDimensions(n);\n    return n;\n}}\n",
                buffer_type(rw)
            )
        });
        // `(size / stride)` or `((size - offset) / stride)`.
        let mut out = String::with_capacity(helper.len() + st.name.len() + 48);
        let whole = matches!(offset, Offset::Const(0))
            || matches!(offset, Offset::Text(t) if constant_literal(t) == Some(0));
        out.push_str(if whole { "(" } else { "((" });
        super::push_parts(&mut out, &[helper, "(", &st.name, ")"]);
        if !whole {
            offset.with_text(|offset| super::push_parts(&mut out, &[" - ", offset, ")"]));
        }
        out.push_str(" / ");
        super::push_decimal(&mut out, stride);
        out.push_str("u)");
        out
    }

    /// The buffer variant and wrapper structs, in dependency order.
    pub fn declarations(&self, ctx: &Ctx<'_>) -> String {
        let _ = ctx;
        let mut out = String::new();
        for d in &self.order {
            let (name, fields) = match *d {
                Declared::Variant(i) => match self.variants.get(i) {
                    Some(v) if !v.value => (&v.name, &v.fields),
                    _ => continue,
                },
                Declared::Element(i) => match self.elements.get(i) {
                    Some(e) => (&e.name, &e.fields),
                    None => continue,
                },
            };
            super::push_parts(&mut out, &["struct ", name, " {\n"]);
            for f in fields {
                out.push_str("    ");
                f.ty.push_declarator(&mut out, &f.name);
                out.push_str(";\n");
            }
            out.push_str("};\n\n");
        }
        out
    }

    /// The declaration of buffer global `g`, with `register` as the text
    /// after `register(` (e.g. `b0, space1`).
    #[cfg(test)]
    pub fn buffer_declaration(
        &self,
        ctx: &Ctx<'_>,
        g: Handle<naga::GlobalVariable>,
        register: &str,
    ) -> String {
        let mut out = String::new();
        self.write_buffer_declaration(ctx, &mut out, g, |out| out.push_str(register));
        out
    }

    /// [`Self::buffer_declaration`], appended to `out`; `register` appends
    /// the text inside `register(...)`.
    pub fn write_buffer_declaration(
        &self,
        ctx: &Ctx<'_>,
        out: &mut String,
        g: Handle<naga::GlobalVariable>,
        register: impl Fn(&mut String),
    ) {
        let _ = ctx;
        if let Some(c) = self.cbuffer(g) {
            // Room for the header and a typical member line each.
            out.reserve(64 + 64 * c.fields.len());
            super::push_parts(out, &["cbuffer ", &c.name, " : register("]);
            register(out);
            out.push_str(") {\n");
            for f in &c.fields {
                out.push_str("    ");
                f.ty.push_declarator(out, &f.name);
                if c.packoffset {
                    out.push_str(" : packoffset(");
                    packoffset_text(&f.ty, f.offset).push_to(out);
                    out.push(')');
                }
                out.push_str(";\n");
            }
            out.push_str("};\n");
            return;
        }
        if let Some(s) = self.storage(g) {
            super::push_parts(
                out,
                &[buffer_type(!s.read_only), " ", &s.name, " : register("],
            );
            register(out);
            out.push_str(");\n");
        }
    }
}

/// The definition of the atomic helper `name` (see
/// [`Plan::atomic_helper`]).
fn atomic_helper_text(name: &str, op: &str, s: naga::Scalar) -> String {
    let t = super::types::scalar(s);
    let signed = s.kind == naga::ScalarKind::Sint;
    let back = if signed { "asint(r)" } else { "r" };
    let head = "(RWByteAddressBuffer b, uint o, ";
    let mut out = String::with_capacity(320);
    let parts: &[&str] = match op {
        "store" => &[
            "void ",
            name,
            head,
            t,
            " v) {\n    uint r;\n    b.InterlockedExchange(o, asuint(v), r);\n}\n",
        ],
        "cmpxchg" => &[
            t,
            " ",
            name,
            head,
            t,
            " c, ",
            t,
            " v) {\n    uint r;\n    b.InterlockedCompareExchange(o, asuint(c), asuint(v), r);\n    return ",
            back,
            ";\n}\n",
        ],
        // DXC's int overloads of InterlockedMin/Max on byte-address
        // buffers produce invalid SPIR-V (-spirv): a compare-exchange
        // loop works on both targets.
        "min" | "max" if signed => &[
            t,
            " ",
            name,
            head,
            t,
            " v) {\n    uint old = b.Load(o);\n    [allow_uav_condition] for (;;) {\n        uint prev;\n        b.InterlockedCompareExchange(o, old, asuint(",
            op,
            "(asint(old), v)), prev);\n        if (prev == old) {\n            break;\n        }\n        old = prev;\n    }\n    return asint(old);\n}\n",
        ],
        _ => {
            let (method, arg) = match op {
                "add" => ("InterlockedAdd", "asuint(v)"),
                "sub" => ("InterlockedAdd", "0u - asuint(v)"),
                "and" => ("InterlockedAnd", "asuint(v)"),
                "or" => ("InterlockedOr", "asuint(v)"),
                "xor" => ("InterlockedXor", "asuint(v)"),
                "min" => ("InterlockedMin", "asuint(v)"),
                "max" => ("InterlockedMax", "asuint(v)"),
                _ => ("InterlockedExchange", "asuint(v)"),
            };
            super::push_parts(
                &mut out,
                &[
                    t,
                    " ",
                    name,
                    head,
                    t,
                    " v) {\n    uint r;\n    b.",
                    method,
                    "(o, ",
                    arg,
                    ", r);\n    return ",
                    back,
                    ";\n}\n",
                ],
            );
            return out;
        }
    };
    super::push_parts(&mut out, parts);
    out
}

/// The matrix rebuilt from the columns of `base`: `float2x2(m_c0, m_c1)`.
fn columns_matrix(base: &str, columns: u8, rows: u8, s: naga::Scalar) -> String {
    let t = super::types::matrix(columns, rows, s);
    let mut out = String::with_capacity(t.len() + 2 + usize::from(columns) * (base.len() + 6));
    out.push_str(&t);
    out.push('(');
    for j in 0..columns {
        if j > 0 {
            out.push_str(", ");
        }
        push_column_name(&mut out, base, j);
    }
    out.push(')');
    out
}

/// A helper-name fragment for a storage spelling (`S_cb` + `[4][2]` ->
/// `S_cb_a4_a2`).
fn mangle_dims(base: &str, dims: &str) -> String {
    let mut out = base.to_string();
    for d in dims.split(']').filter(|d| !d.is_empty()) {
        out.push_str("_a");
        out.push_str(d.trim_start_matches('['));
    }
    out
}
