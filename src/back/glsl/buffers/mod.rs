//! How buffer globals (uniform, storage, push constant) are declared in
//! GLSL and how code reaches their bytes.
//!
//! INTERFACE (owned by the buffers part; `func` and `decl` only call it):
//!
//! - [`plan`] computes a [`Plan`] once per module from the contract layout,
//!   or returns error diagnostics (at the WGSL member, with a fix) for
//!   layouts the dialect cannot express.
//! - `decl` prints [`Plan::declarations`] (buffer variant structs) after the
//!   value structs, and [`Plan::block_declaration`] for every buffer global
//!   the entry point uses ([`Plan::block`] finds it).
//! - `func` starts every access chain into a buffer at
//!   [`Plan::global`], walks down with [`Plan::member`] and
//!   [`Plan::element`], and ends with [`Plan::load`] or [`Plan::store`].
//!
//! Everything that is `Repr::Plain` is ordinary GLSL: the lvalue text has
//! the value type's spelling and layout, so `func` indexes, loads and stores
//! it as it would a local.
//!
//! How a layout becomes GLSL:
//!
//! - Uniform globals are `std140` `uniform` blocks, storage globals `std430`
//!   `buffer` blocks (`readonly` without write access), push constants a
//!   Vulkan `layout(push_constant, std430) uniform` block, or in OpenGL and
//!   ES an ordinary `std140` uniform block with a uniform-block binding.
//! - The top-level members of a struct-typed global are the block's members.
//!   Dialects with offset qualifiers give each one `layout(offset = N)` with
//!   N from the contract; ES places them with padding members. A global of
//!   any other type is a block with the single member `value`.
//! - Everything is laid out here with the std140/std430 rule table and
//!   compared with the contract: a nested struct whose natural GLSL layout
//!   differs becomes a buffer variant (`<Name>_std140`) with `_pad<N>`
//!   members; uniform matrices whose column stride differs are split into
//!   column vectors (or, as array elements, wrapped in a struct of columns);
//!   an array element struct whose stride is larger than its GLSL size gets
//!   a variant with trailing padding, and any other array element (scalar,
//!   vector, matrix, array) whose contract stride is larger than its GLSL
//!   stride is wrapped in an element struct `_s_<elem>_s<stride>` holding
//!   the value in `v` plus padding ([`Repr::Wrapped`]; `func` sees
//!   `<array>[i].v`). Whatever GLSL cannot express (a stride below the GLSL
//!   one, or one that is not a multiple of the element struct's alignment:
//!   16 in std140) is an error at the WGSL member, with the fix.
//! - Every variant, element struct and block is then laid out once more
//!   from its finished member list alone and compared with the contract
//!   offsets (element structs: size, alignment and array stride), so
//!   a mistake in the planning shows as an error, never as wrong output.

#[cfg(test)]
mod tests;

use super::{Ctx, Dialect, Needs};
use crate::diag::{Diagnostic, Diagnostics, Span};
use crate::front::Parsed;
use crate::layout::rules::{round_up_saturating as round_up, RuleTable};
use crate::layout::{Layout, LayoutKind, LayoutModule, RuleSet, ScalarKind};
use naga::proc::NameKey;
use naga::Handle;
use naga::{FastHashSet, FastIndexMap};
use std::borrow::Cow;
use std::fmt::Write as _;
use std::rc::Rc;

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
    /// An array element wrapped in the element struct
    /// `Plan::elements[element]` (`struct _s_vec2_s24 { vec2 v; ... }`), so
    /// that the array reaches its contract stride: the value lives in the
    /// member `v`, stored as `inner` says; the other members are padding.
    /// Only ever the element repr of a [`Repr::Array`]: [`Plan::element`]
    /// steps through the wrapper to `<base>[i].v`.
    Wrapped { element: usize, inner: Box<Repr> },
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

/// Where the columns of a split matrix live: see [`Repr::Columns`].
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

/// A GLSL type as it is stored in a buffer (block members, variant and
/// wrapper members).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StorageType {
    /// Scalars and atomics (GLSL atomics are plain `int`/`uint` members).
    Scalar(naga::Scalar),
    Vector(u8, naga::Scalar),
    Matrix {
        columns: u8,
        rows: u8,
        scalar: naga::Scalar,
    },
    /// `None`: runtime-sized.
    Array(Box<StorageType>, Option<u64>),
    /// A value struct, buffer variant or column wrapper, by GLSL name, with
    /// its GLSL size (`None`: ends in a runtime-sized array) and alignment
    /// under the rules of the block it is in.
    Struct {
        name: String,
        size: Option<u64>,
        align: u64,
    },
}

/// One member of a variant, wrapper or block, in GLSL.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field {
    /// Shared with the member list of its variant or block
    /// (`Variant::members`, `Block::members`): one allocation per name.
    pub name: Rc<str>,
    pub ty: StorageType,
    /// Its byte offset in the contract (equal to its natural std140/std430
    /// offset where no offset qualifier is written).
    pub offset: u64,
    /// A padding member: never read or written.
    pub padding: bool,
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
    pub members: Vec<(Rc<str>, Repr)>,
    /// The GLSL members, padding included, in offset order.
    pub fields: Vec<Field>,
    /// `Std140` or `Std430`.
    pub rules: RuleSet,
    /// GLSL size under `rules` (`None`: ends in a runtime-sized array).
    pub size: Option<u64>,
    pub align: u64,
}

/// A struct of column vectors that stores one matrix as an array element
/// (`struct _s_mat2_cols { vec2 c0; vec2 c1; }`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Wrapper {
    pub name: String,
    pub columns: u8,
    pub rows: u8,
    pub scalar: naga::Scalar,
}

/// A struct that stores one array element followed by padding, for an
/// array whose contract stride is larger than its GLSL stride
/// (`struct _s_vec2_s24 { vec2 v; uvec2 _s_pad0; uvec2 _s_pad1; }`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Element {
    /// The GLSL struct name.
    pub name: String,
    /// The GLSL members in offset order: the value member `v` at offset 0,
    /// then padding members only.
    pub fields: Vec<Field>,
    /// How the value in `v` is stored.
    pub inner: Repr,
    /// `Std140` or `Std430`.
    pub rules: RuleSet,
    /// GLSL size under `rules`: the contract array stride.
    pub size: u64,
    pub align: u64,
}

/// One struct declaration made by the plan, in dependency order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Declared {
    /// `Plan::variants[i]`.
    Variant(usize),
    /// `Plan::elements[i]`.
    Element(usize),
}

/// What kind of GLSL block a buffer global is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BlockKind {
    /// `uniform` (std140): uniform globals, and push constants outside Vulkan.
    Uniform,
    /// `buffer` (std430).
    Storage { read_only: bool },
    /// Vulkan `layout(push_constant, std430) uniform`.
    PushConstant,
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
    pub members: Vec<(Rc<str>, Repr)>,
    /// The block (interface) name.
    pub type_name: String,
    pub kind: BlockKind,
    /// `Std140` or `Std430`.
    pub rules: RuleSet,
    /// The GLSL members, padding included, in offset order.
    pub fields: Vec<Field>,
    /// Members carry `layout(offset = N)` (dialects with offset qualifiers).
    pub offsets: bool,
}

/// How every buffer global of a module is declared and accessed.
#[derive(Clone, Debug, Default)]
pub struct Plan {
    pub variants: Vec<Variant>,
    pub wrappers: Vec<Wrapper>,
    /// Element structs of arrays whose stride GLSL reaches only with
    /// trailing padding ([`Repr::Wrapped`]).
    pub elements: Vec<Element>,
    /// Variants and element structs in the order they must be declared
    /// (each after the structs it contains).
    pub order: Vec<Declared>,
    pub blocks: Vec<Block>,
    /// Value structs that buffer storage refers to by name (plain nested
    /// structs): their declarations must be printed before
    /// [`Plan::declarations`] even when no code uses them as values.
    pub value_structs: Vec<Handle<naga::Type>>,
}

/// Compute the plan for every buffer global of the module. `parsed` gives
/// the spans of WGSL members for diagnostics; `module` is the module written
/// (`parsed.module` or its copy with overrides baked: same types).
pub fn plan(
    parsed: &Parsed,
    module: &naga::Module,
    contract: &LayoutModule,
    dialect: Dialect,
    names: &naga::FastHashMap<NameKey, String>,
) -> Result<Plan, Diagnostics> {
    let mut b = Builder {
        parsed,
        module,
        contract,
        dialect,
        names,
        taken: None,
        queries: 0,
        own: String::with_capacity(64),
        plan: Plan::default(),
        structs: FastIndexMap::default(),
        errors: Vec::new(),
    };
    for g in &contract.globals {
        b.block(g);
    }
    b.verify();
    if b.errors.is_empty() {
        Ok(b.plan)
    } else {
        Err(Diagnostics(b.errors))
    }
}

// ---------------------------------------------------------------------------
// Spelling of storage types.

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

/// GLSL reserves identifiers containing `__`; naga's namer ends names that
/// end in a digit with `_`, so joined names collapse doubled underscores.
fn single_underscores(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.chars() {
        if !(c == '_' && out.ends_with('_')) {
            out.push(c);
        }
    }
    out
}

/// [`single_underscores`] of an owned name: the name itself (no copy) when
/// it has no doubled underscore.
fn collapse_underscores(name: String) -> String {
    if name.contains("__") {
        single_underscores(&name)
    } else {
        name
    }
}

/// Column `j` of a matrix member split in place: `<member>_c<j>`.
fn column_name(member: &str, j: impl std::fmt::Display) -> String {
    if member.ends_with('_') {
        format!("{member}c{j}")
    } else {
        format!("{member}_c{j}")
    }
}

use super::types::vector_spelling as vector_name;
use super::types::{matrix_spelling as matrix_name, scalar_spelling as scalar_name};

/// Record the extensions a scalar in a buffer needs: its arithmetic type's,
/// and 16-bit storage for f16.
fn scalar_needs(needs: &mut Needs, s: naga::Scalar) {
    super::types::scalar_extension(needs, s);
    if s.width == 2 {
        needs.extension("GL_EXT_shader_16bit_storage");
    }
}

impl StorageType {
    /// The element type's spelling and the array dimensions (`[4][2]`).
    fn spell(&self, needs: &mut Needs) -> (String, String) {
        match self {
            StorageType::Scalar(s) => {
                scalar_needs(needs, *s);
                (scalar_name(*s).to_string(), String::new())
            }
            StorageType::Vector(n, s) => {
                scalar_needs(needs, *s);
                (vector_name(*n, *s).to_string(), String::new())
            }
            StorageType::Matrix {
                columns,
                rows,
                scalar,
            } => {
                scalar_needs(needs, *scalar);
                (
                    matrix_name(*columns, *rows, *scalar).into_owned(),
                    String::new(),
                )
            }
            StorageType::Array(e, count) => {
                let (base, dims) = e.spell(needs);
                let n = count.map(|n| n.to_string()).unwrap_or_default();
                (base, format!("[{n}]{dims}"))
            }
            StorageType::Struct { name, .. } => (name.clone(), String::new()),
        }
    }

    /// Append the declaration of a member `name` of this type to `out`:
    /// `T name`, `T name[4][2]` (what [`Self::spell`] spells, without the
    /// two intermediate strings).
    fn write_member(&self, needs: &mut Needs, name: &str, out: &mut String) {
        let mut element = self;
        while let StorageType::Array(e, _) = element {
            element = e;
        }
        match element {
            StorageType::Scalar(s) => {
                scalar_needs(needs, *s);
                out.push_str(scalar_name(*s));
            }
            StorageType::Vector(n, s) => {
                scalar_needs(needs, *s);
                out.push_str(&vector_name(*n, *s));
            }
            StorageType::Matrix {
                columns,
                rows,
                scalar,
            } => {
                scalar_needs(needs, *scalar);
                out.push_str(&matrix_name(*columns, *rows, *scalar));
            }
            StorageType::Struct { name, .. } => out.push_str(name),
            StorageType::Array(..) => {}
        }
        out.push(' ');
        out.push_str(name);
        let mut level = self;
        while let StorageType::Array(e, count) = level {
            out.push('[');
            if let Some(n) = count {
                crate::back::glsl::push_decimal(out, *n);
            }
            out.push(']');
            level = e;
        }
    }

    /// Natural (size, alignment) under `table` (std140 or std430).
    fn layout(&self, table: &RuleTable) -> (Option<u64>, u64) {
        match self {
            StorageType::Scalar(s) => {
                let (size, align) = table.scalar(s.width);
                (Some(size), align)
            }
            StorageType::Vector(n, s) => {
                let (size, align) = table.vector(*n, s.width);
                (Some(size), align)
            }
            StorageType::Matrix {
                columns,
                rows,
                scalar,
            } => {
                let (stride, align) = matrix_stride(table, *rows, scalar.width);
                (Some(stride.saturating_mul(u64::from(*columns))), align)
            }
            StorageType::Array(e, count) => {
                let (stride, align) = self.stride(table).unwrap_or((0, e.layout(table).1));
                (count.map(|n| stride.saturating_mul(n)), align)
            }
            StorageType::Struct { size, align, .. } => (*size, *align),
        }
    }

    /// Array stride and alignment of an array type under `table`.
    fn stride(&self, table: &RuleTable) -> Option<(u64, u64)> {
        let StorageType::Array(e, _) = self else {
            return None;
        };
        let (size, align) = e.layout(table);
        table.array_stride(size?, align)
    }

    /// A short readable GLSL spelling for messages (`vec2`, `S_std140[4]`).
    fn describe(&self) -> String {
        let mut needs = Needs::default();
        let (base, dims) = self.spell(&mut needs);
        format!("{base}{dims}")
    }
}

/// Column stride and alignment of a matrix with `rows`-component columns.
fn matrix_stride(table: &RuleTable, rows: u8, width: u8) -> (u64, u64) {
    let (size, align) = table.vector(rows, width);
    table.array_stride(size, align).unwrap_or((size, align))
}

fn rules_name(rules: RuleSet) -> &'static str {
    rules.name()
}

// ---------------------------------------------------------------------------
// Planning.

/// Where a member is, for diagnostics. Built for every member placed, but
/// read only when placing it fails, so it borrows everything and the
/// message texts are made by [`Site::what`] and [`GlobalSite::label`] on
/// demand.
#[derive(Clone)]
struct Site<'s> {
    span: Span,
    /// The WGSL struct whose member this is; `None`: the member is a
    /// non-struct global's `value`, and `member` is the global's name.
    of: Option<&'s str>,
    /// The member name as written in WGSL (`x`), for fixes.
    member: &'s str,
    /// A secondary label at the global whose block holds this member.
    global: Option<&'s GlobalSite<'s>>,
}

impl Site<'_> {
    /// `member `x` of `S``, `global `g``.
    fn what(&self) -> String {
        match self.of {
            Some(of) => format!("member `{}` of `{of}`", self.member),
            None => format!("global `{}`", self.member),
        }
    }
}

/// The global whose block is being planned, for the secondary label of
/// errors about its members.
struct GlobalSite<'s> {
    span: Span,
    name: &'s str,
    /// `a uniform`, `a storage`, `a push-constant`.
    space: &'static str,
    rules: RuleSet,
    dialect: Dialect,
}

impl GlobalSite<'_> {
    fn label(&self) -> String {
        format!(
            "`{}` is {} block ({}) in {}",
            self.name,
            self.space,
            rules_name(self.rules),
            self.dialect
        )
    }
}

/// The storage of one WGSL member or array element.
enum Stored {
    One(StorageType, Repr),
    /// A matrix split into `columns` members of type `column`.
    Split {
        column: StorageType,
        columns: u8,
        column_stride: u64,
        repr: Repr,
    },
}

/// A struct's plan under one rule set: its storage type and repr.
#[derive(Clone)]
struct StructInfo {
    storage: StorageType,
    repr: Repr,
}

/// Lays out members one after another, as GLSL does (with or without
/// offset qualifiers), inserting padding members where needed.
struct Placer<'s> {
    table: &'static RuleTable,
    rules: RuleSet,
    /// Offset qualifiers are written: members go to their contract offset.
    offsets: bool,
    fields: Vec<Field>,
    /// End of the last member; `None` after a runtime-sized array.
    cur: Option<u64>,
    /// The last real member: its WGSL name and its index in `fields`
    /// (which has its GLSL type and offset).
    last: Option<(&'s str, usize)>,
    max_align: u64,
    /// Padding members may not align to more than this (raising a struct's
    /// alignment would move it in its parent).
    pad_align: u64,
    /// 2-byte padding members (`uint16_t`) are available.
    pad16: bool,
    /// Names of the real members (padding names avoid them).
    member_names: MemberNames<'s>,
    pads: usize,
}

/// The names of the real members of a [`Placer`]: looked up one by one
/// (only split matrices and padding ask, and structs are short), so that
/// no set is built for every struct.
#[derive(Clone, Copy)]
enum MemberNames<'s> {
    /// The members of struct `h` under contract layout `sl`.
    Struct(Handle<naga::Type>, &'s crate::layout::StructLayout),
    /// One member of this name (a non-struct block's `value`, an element
    /// struct's `v`).
    One(&'static str),
}

struct Builder<'a> {
    parsed: &'a Parsed,
    module: &'a naga::Module,
    contract: &'a LayoutModule,
    dialect: Dialect,
    names: &'a naga::FastHashMap<NameKey, String>,
    /// Every name the namer gave out, as a set once [`Self::is_taken`]
    /// has been asked often (see there).
    taken: Option<FastHashSet<&'a str>>,
    /// How often [`Self::is_taken`] was asked.
    queries: usize,
    /// Names of declarations made here, each followed by a NUL (no
    /// name contains one).
    own: String,
    plan: Plan,
    /// Memoized struct plans per rule set; `None` once failed (reported).
    structs: FastIndexMap<(Handle<naga::Type>, RuleSet), Option<StructInfo>>,
    errors: Vec<Diagnostic>,
}

impl<'a> Builder<'a> {
    /// Whether a declaration name is already given out. Most modules ask
    /// only a few times (once per block and variant), so the namer's names
    /// are searched one by one at first; a set of them is made for the
    /// modules that ask more.
    fn is_taken(&mut self, name: &str) -> bool {
        if self.own.split_terminator('\0').any(|n| n == name) {
            return true;
        }
        self.queries += 1;
        if self.queries <= 8 {
            return self.names.values().any(|n| n == name);
        }
        let names = self.names;
        self.taken
            .get_or_insert_with(|| names.values().map(String::as_str).collect())
            .contains(name)
    }

    /// Whether `name` is the GLSL name of one of `members`.
    fn is_member(&self, members: MemberNames<'_>, name: &str) -> bool {
        match members {
            MemberNames::Struct(h, sl) => sl
                .members()
                .any(|m| self.member_name(h, m.index, &m.name) == name),
            MemberNames::One(only) => only == name,
        }
    }

    /// A global declaration name derived from `base`, free of clashes.
    fn fresh(&mut self, base: String) -> String {
        let base = collapse_underscores(base);
        let name = if !self.is_taken(&base) {
            base
        } else {
            let mut name = format!("_s_{base}");
            let mut n = 1;
            while self.is_taken(&name) {
                name = format!("_s_{base}_{n}");
                n += 1;
            }
            name
        };
        self.own.push_str(&name);
        self.own.push('\0');
        name
    }

    fn type_name(&self, h: Handle<naga::Type>) -> String {
        self.names
            .get(&NameKey::Type(h))
            .cloned()
            .or_else(|| self.module.types[h].name.clone())
            .unwrap_or_else(|| format!("_s_type{}", h.index()))
    }

    fn member_name(&self, h: Handle<naga::Type>, index: usize, fallback: &'a str) -> &'a str {
        let names: &'a naga::FastHashMap<NameKey, String> = self.names;
        names
            .get(&NameKey::StructMember(h, index as u32))
            .map_or(fallback, String::as_str)
    }

    /// The span of WGSL member `member` of struct `name`.
    fn member_span(&self, h: Handle<naga::Type>, name: &str, member: &str) -> Span {
        let ann = self.parsed.annotations.structs.get(name);
        ann.and_then(|a| a.members.iter().find(|m| m.name == member))
            .map(|m| m.span.clone())
            .or_else(|| ann.map(|a| a.name_span.clone()))
            .or_else(|| self.module.types.get_span(h).to_range())
            .unwrap_or(0..0)
    }

    fn table(rules: RuleSet) -> &'static RuleTable {
        rules.table()
    }

    fn error(&mut self, site: &Site, message: String, label: String, notes: Vec<String>) {
        let mut d = Diagnostic::error(message).at(site.span.clone(), label);
        if let Some(g) = site.global {
            if g.span != site.span {
                d = d.also(g.span.clone(), g.label());
            }
        }
        for n in notes {
            d = d.note(n);
        }
        self.errors.push(d);
    }

    // -- blocks -------------------------------------------------------------

    fn block(&mut self, g: &'a crate::layout::GlobalLayout) {
        let dialect = self.dialect;
        let (kind, rules) = match g.space {
            naga::AddressSpace::Uniform => (BlockKind::Uniform, RuleSet::Std140),
            naga::AddressSpace::Storage { access } => (
                BlockKind::Storage {
                    read_only: !access.contains(naga::StorageAccess::STORE),
                },
                RuleSet::Std430,
            ),
            naga::AddressSpace::Immediate if dialect.is_vulkan() => {
                (BlockKind::PushConstant, RuleSet::Std430)
            }
            naga::AddressSpace::Immediate => (BlockKind::Uniform, RuleSet::Std140),
            _ => return,
        };
        let instance = self
            .names
            .get(&NameKey::GlobalVariable(g.handle))
            .cloned()
            .unwrap_or_else(|| g.name.to_string());
        let mut base = String::with_capacity(instance.len() + 6);
        base.push_str(&instance);
        base.push_str("_block");
        let type_name = self.fresh(base);
        let gann = self.parsed.annotations.globals.get(g.name.as_str());
        let gspan = gann
            .map(|a| a.name_span.clone())
            .or_else(|| self.module.global_variables.get_span(g.handle).to_range())
            .unwrap_or(0..0);
        let space = match kind {
            BlockKind::Uniform if g.space == naga::AddressSpace::Immediate => "a push-constant",
            BlockKind::Uniform => "a uniform",
            BlockKind::Storage { .. } => "a storage",
            BlockKind::PushConstant => "a push-constant",
        };
        let global_site = GlobalSite {
            span: gspan.clone(),
            name: &g.name,
            space,
            rules,
            dialect,
        };
        let mut placer = Placer {
            table: Self::table(rules),
            rules,
            offsets: dialect.has_offset_qualifier(),
            fields: Vec::new(),
            cur: Some(0),
            last: None,
            max_align: 1,
            pad_align: 16,
            pad16: dialect.is_vulkan(),
            member_names: MemberNames::One("value"),
            pads: 0,
        };
        let mut members = Vec::new();
        if let LayoutKind::Struct(h) = &g.layout.kind {
            let count = self.contract.structs.get(h).map_or(0, |sl| sl.slots.len());
            placer.fields.reserve(count);
            members.reserve(count);
        }
        let repr = match &g.layout.kind {
            LayoutKind::Struct(h) => {
                let h = *h;
                let contract: &'a LayoutModule = self.contract;
                let Some(sl) = contract.structs.get(&h) else {
                    return;
                };
                placer.member_names = MemberNames::Struct(h, sl);
                for m in sl.members() {
                    let name = self.member_name(h, m.index, &m.name);
                    let site = Site {
                        span: self.member_span(h, &sl.name, &m.name),
                        of: Some(&sl.name),
                        member: &m.name,
                        global: Some(&global_site),
                    };
                    let prefix = self.column_prefix(name, placer.member_names, &m.layout, rules);
                    match self.place_member(&mut placer, &prefix, &m.layout, m.offset, &site) {
                        Some(r) => members.push((prefix, r)),
                        None => members.push((prefix, Repr::Plain)),
                    }
                }
                Repr::Block(g.handle)
            }
            _ => {
                let site = Site {
                    span: gann
                        .and_then(|a| a.ty.as_ref().map(|t| t.span.clone()))
                        .unwrap_or(gspan.clone()),
                    of: None,
                    member: &g.name,
                    global: Some(&global_site),
                };
                self.place_member(&mut placer, &Rc::from("value"), &g.layout, 0, &site)
                    .unwrap_or(Repr::Plain)
            }
        };
        let offsets = placer.offsets;
        self.plan.blocks.push(Block {
            global: g.handle,
            instance,
            repr,
            members,
            type_name,
            kind,
            rules,
            fields: placer.fields,
            offsets,
        });
    }

    /// The GLSL member name (or split-matrix column prefix) of a member.
    fn column_prefix(
        &self,
        name: &str,
        members: MemberNames<'_>,
        layout: &Layout,
        rules: RuleSet,
    ) -> Rc<str> {
        if let LayoutKind::Matrix { columns, .. } = layout.kind {
            if needs_split(layout, rules) {
                let clash = (0..columns).any(|j| self.is_member(members, &column_name(name, j)));
                if clash {
                    return format!("_s_{name}").into();
                }
            }
        }
        name.into()
    }

    // -- members ------------------------------------------------------------

    /// Place one WGSL member (or a non-struct global's `value`) at contract
    /// offset `offset`; returns its repr, or `None` after an error.
    fn place_member<'s>(
        &mut self,
        p: &mut Placer<'s>,
        name: &Rc<str>,
        layout: &Layout,
        offset: u64,
        site: &Site<'s>,
    ) -> Option<Repr> {
        let stored = self.stored(layout, p.rules, false, site)?;
        match stored {
            Stored::One(ty, repr) => {
                self.place_field(p, Rc::clone(name), ty, offset, site)?;
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
                    self.place_field(p, column_name(name, j).into(), column.clone(), at, site)?;
                }
                Some(repr)
            }
        }
    }

    /// Put one GLSL member at contract offset `target`, with padding before
    /// it where offsets are not written; report what GLSL cannot express.
    fn place_field<'s>(
        &mut self,
        p: &mut Placer<'s>,
        name: Rc<str>,
        ty: StorageType,
        target: u64,
        site: &Site<'s>,
    ) -> Option<()> {
        let (size, align) = ty.layout(p.table);
        let Some(cur) = p.cur else {
            // Only naga-rejected modules put members after a runtime array.
            return None;
        };
        if !p.offsets && round_up(align, cur) < target {
            self.pad(p, cur, target, align);
        }
        let cur = p.cur.unwrap_or(cur);
        let natural = round_up(align, cur);
        let ok = if p.offsets {
            target.is_multiple_of(align) && target >= cur
        } else {
            natural == target
        };
        if !ok {
            self.placement_error(p, &ty, align, cur, target, site);
            return None;
        }
        p.max_align = p.max_align.max(align);
        p.cur = size.map(|s| target + s);
        p.last = Some((site.member, p.fields.len()));
        p.fields.push(Field {
            name,
            ty,
            offset: target,
            padding: false,
        });
        Some(())
    }

    /// Padding members from `cur` so that a member of alignment `align`
    /// lands at `target` (as close as the padding types allow).
    fn pad(&mut self, p: &mut Placer, mut cur: u64, target: u64, align: u64) {
        let u32s = naga::Scalar::U32;
        let u16s = naga::Scalar {
            kind: naga::ScalarKind::Uint,
            width: 2,
        };
        let choices = [
            (StorageType::Vector(4, u32s), 16u64, 16u64),
            (StorageType::Vector(2, u32s), 8, 8),
            (StorageType::Scalar(u32s), 4, 4),
            (StorageType::Scalar(u16s), 2, 2),
        ];
        // Candidate padding names are written here, and copied once chosen.
        let mut text = String::new();
        while round_up(align, cur) < target {
            let pick = choices.iter().find(|(_, size, a)| {
                *a <= p.pad_align && (*a != 2 || p.pad16) && round_up(*a, cur) + size <= target
            });
            let Some((ty, size, a)) = pick else {
                break;
            };
            let at = round_up(*a, cur);
            let name = loop {
                text.clear();
                let _ = write!(text, "_s_pad{}", p.pads);
                p.pads += 1;
                if !self.is_member(p.member_names, &text) {
                    break Rc::from(text.as_str());
                }
            };
            p.fields.push(Field {
                name,
                ty: ty.clone(),
                offset: at,
                padding: true,
            });
            p.max_align = p.max_align.max(*a);
            cur = at + size;
        }
        p.cur = Some(cur);
    }

    fn placement_error(
        &mut self,
        p: &Placer,
        ty: &StorageType,
        align: u64,
        cur: u64,
        target: u64,
        site: &Site,
    ) {
        let rules = rules_name(p.rules);
        let glsl = ty.describe();
        let how = if p.offsets {
            "so `layout(offset)` cannot express it".to_string()
        } else if self.dialect.has_offset_qualifier() {
            "so GLSL cannot express it (members of nested structs cannot carry `layout(offset)`, and padding only moves members later)".to_string()
        } else {
            format!(
                "so GLSL cannot express it ({} has no offset qualifiers, and padding only moves members later)",
                self.dialect
            )
        };
        if !target.is_multiple_of(align) {
            let fixed = round_up(align, target);
            self.error(
                site,
                format!(
                    "{} has byte offset {target}. GLSL {rules} aligns `{glsl}` to {align} bytes, {how}.",
                    capitalize(&site.what())
                ),
                format!("offset {target} is not a multiple of {align}"),
                vec![format!(
                    "help: add `@align({align})` to member `{}` so that its offset becomes a multiple of {align} (offset {fixed} or later)",
                    site.member
                )],
            );
            return;
        }
        if cur > target {
            let last = p.last.and_then(|(name, i)| Some((name, p.fields.get(i)?)));
            let (prev, prev_ty, prev_offset) = match last {
                Some((name, f)) => (name, &f.ty, f.offset),
                None => ("the member before it", ty, 0),
            };
            let why = match prev_ty {
                StorageType::Struct { name, size, .. } => format!(
                    "GLSL {rules} rounds the size of struct `{name}` up to {} bytes",
                    size.unwrap_or(0)
                ),
                StorageType::Array(..) => format!(
                    "GLSL {rules} gives `{}` a stride of {} bytes",
                    prev_ty.describe(),
                    prev_ty.stride(p.table).map_or(0, |s| s.0)
                ),
                _ => format!("`{}` ends there in GLSL {rules}", prev_ty.describe()),
            };
            // The smallest power-of-two @align that moves the member past
            // the GLSL end of the previous one wherever that one ends.
            let fix_align = (0..16)
                .map(|k| 1u64 << k)
                .find(|a| *a >= align && round_up(*a, prev_offset + 1) >= cur)
                .unwrap_or(align);
            self.error(
                site,
                format!(
                    "{} has byte offset {target}, inside the previous member `{prev}`, which ends at byte {cur} in GLSL ({why}), {how}.",
                    capitalize(&site.what())
                ),
                format!("offset {target} overlaps `{prev}` (GLSL end {cur})"),
                vec![format!(
                    "help: add `@align({fix_align})` to member `{}`, or `@size({})` to member `{prev}`, so that `{}` starts at or after byte {cur}",
                    site.member,
                    cur - prev_offset,
                    site.member
                )],
            );
            return;
        }
        let gap = target.saturating_sub(cur);
        let note = if !gap.is_multiple_of(4) && !p.pad16 {
            format!(
                "help: GLSL {dialect} has no 2-byte padding type (`uint16_t` storage needs GL_EXT_shader_16bit_storage, Vulkan only); add `@align(4)` to member `{}`, or an `@size` to the member before it, so that the gap before it is a multiple of 4 bytes",
                site.member,
                dialect = self.dialect
            )
        } else {
            format!(
                "help: add `@align({})` to member `{}`",
                align.max(4),
                site.member
            )
        };
        self.error(
            site,
            format!(
                "{} has byte offset {target}; GLSL {rules} would place `{glsl}` at offset {} and the {gap} bytes before it cannot be filled with padding members, {how}.",
                capitalize(&site.what()),
                round_up(align, cur)
            ),
            format!("offset {target} cannot be expressed"),
            vec![note],
        );
    }

    /// The storage of a member or array element of contract `layout`.
    fn stored(
        &mut self,
        layout: &Layout,
        rules: RuleSet,
        in_array: bool,
        site: &Site,
    ) -> Option<Stored> {
        let table = Self::table(rules);
        match &layout.kind {
            LayoutKind::Scalar(s) | LayoutKind::Atomic(s) => Some(Stored::One(
                StorageType::Scalar(naga_scalar(*s)),
                Repr::Plain,
            )),
            LayoutKind::Vector { size, scalar } => Some(Stored::One(
                StorageType::Vector(*size, naga_scalar(*scalar)),
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
                if !needs_split(layout, rules) {
                    return Some(Stored::One(
                        StorageType::Matrix {
                            columns,
                            rows,
                            scalar,
                        },
                        Repr::Plain,
                    ));
                }
                // Consecutive column vectors must land on the contract stride.
                let (vsize, valign) = table.vector(rows, scalar.width);
                if round_up(valign, vsize) != *column_stride {
                    self.error(
                        site,
                        format!(
                            "{} is a matrix with a column stride of {column_stride} bytes, which GLSL {} cannot express.",
                            capitalize(&site.what()),
                            rules_name(rules)
                        ),
                        format!("column stride {column_stride}"),
                        vec!["help: store the columns as separate `vec4` members".to_string()],
                    );
                    return None;
                }
                if !in_array {
                    return Some(Stored::Split {
                        column: StorageType::Vector(rows, scalar),
                        columns,
                        column_stride: *column_stride,
                        repr: Repr::Columns {
                            columns,
                            rows,
                            scalar,
                            style: ColumnStyle::Suffix,
                        },
                    });
                }
                let name = self.wrapper(columns, rows, scalar);
                let end = u64::from(columns - 1) * column_stride + vsize;
                let align = table.struct_align(valign);
                let size = table.struct_size(end, align);
                Some(Stored::One(
                    StorageType::Struct { name, size, align },
                    Repr::Columns {
                        columns,
                        rows,
                        scalar,
                        style: ColumnStyle::Wrapper,
                    },
                ))
            }
            LayoutKind::Array {
                element,
                stride,
                count,
            } => {
                let Stored::One(mut ety, mut erepr) = self.stored(element, rules, true, site)?
                else {
                    return None;
                };
                let (esize, ealign) = ety.layout(table);
                let gstride = table
                    .array_stride(esize.unwrap_or(0), ealign)
                    .map_or(0, |s| s.0);
                if gstride != *stride {
                    let mut fixed = false;
                    if let (LayoutKind::Struct(h), true) = (&element.kind, gstride < *stride) {
                        if let Some((t, r)) = self.stride_variant(*h, rules, *stride, site) {
                            ety = t;
                            erepr = r;
                            fixed = true;
                        }
                    }
                    let wrappable = !matches!(element.kind, LayoutKind::Struct(_));
                    if !fixed && wrappable && gstride < *stride {
                        if let Some((t, r)) = self.element_wrapper(&ety, &erepr, rules, *stride) {
                            ety = t;
                            erepr = r;
                            fixed = true;
                        }
                    }
                    if !fixed {
                        self.stride_error(&ety, element, *stride, gstride, rules, site);
                        return None;
                    }
                }
                let repr = if erepr == Repr::Plain {
                    Repr::Plain
                } else {
                    Repr::Array(Box::new(erepr))
                };
                Some(Stored::One(StorageType::Array(Box::new(ety), *count), repr))
            }
            LayoutKind::Struct(h) => {
                let info = self.struct_info(*h, rules)?;
                Some(Stored::One(info.storage, info.repr))
            }
        }
    }

    fn stride_error(
        &mut self,
        ety: &StorageType,
        element: &Layout,
        stride: u64,
        gstride: u64,
        rules: RuleSet,
        site: &Site,
    ) {
        let r = rules_name(rules);
        let elem = ety.describe();
        let mut notes = Vec::new();
        if stride < gstride {
            notes.push(format!(
                "help: give the array `@stride({gstride})` (or remove its `@stride`), so that its elements are {gstride} bytes apart as GLSL {r} requires"
            ));
            if rules == RuleSet::Std140
                && matches!(
                    element.kind,
                    LayoutKind::Scalar(_) | LayoutKind::Vector { .. }
                )
            {
                notes.push(
                    "help: or use 16-byte elements, e.g. `vec4<f32>`, or wrap the element in a struct with `@size(16)`".to_string(),
                );
            }
        } else {
            notes.push(format!(
                "help: wrap the element in a struct with `@size({stride})`, or remove the `@stride`, so that GLSL {r} gives it the same stride"
            ));
            let walign = rules.table().struct_align(ety.layout(rules.table()).1);
            if !stride.is_multiple_of(walign) {
                notes.push(format!(
                    "note: GLSL {r} can pad elements of `{elem}` only to a multiple of {walign} bytes (a stride of {} or {})",
                    round_up(walign, stride) - walign,
                    round_up(walign, stride)
                ));
            }
        }
        self.error(
            site,
            format!(
                "Array stride of {} is {stride} bytes, but GLSL {r} lays out arrays of `{elem}` with a stride of {gstride} bytes; GLSL cannot declare another stride.",
                site.what()
            ),
            format!("stride {stride}, GLSL {r} stride {gstride}"),
            notes,
        );
    }

    /// A wrapper struct of columns for a matrix shape (std140 only).
    fn wrapper(&mut self, columns: u8, rows: u8, scalar: naga::Scalar) -> String {
        if let Some(w) = self
            .plan
            .wrappers
            .iter()
            .find(|w| w.columns == columns && w.rows == rows && w.scalar == scalar)
        {
            return w.name.clone();
        }
        let name = self.fresh(format!("_s_{}_cols", matrix_name(columns, rows, scalar)));
        self.plan.wrappers.push(Wrapper {
            name: name.clone(),
            columns,
            rows,
            scalar,
        });
        name
    }

    /// A name for a declaration starting with the reserved prefix `_s_`,
    /// free of clashes (`base`, `base_1`, ...).
    fn fresh_reserved(&mut self, base: String) -> String {
        let base = collapse_underscores(base);
        let name = if !self.is_taken(&base) {
            base
        } else {
            let mut name = format!("{base}_1");
            let mut n = 2;
            while self.is_taken(&name) {
                name = format!("{base}_{n}");
                n += 1;
            }
            name
        };
        self.own.push_str(&name);
        self.own.push('\0');
        name
    }

    /// An element struct storing `ety` (repr `erepr`) followed by padding up
    /// to `stride` bytes, for an array of non-struct elements whose contract
    /// stride is larger than the GLSL stride. `None` where GLSL cannot pad
    /// to `stride`: below the element size, or not a multiple of the
    /// struct's alignment (16 in std140; the element's in std430), or a gap
    /// no padding type fills.
    fn element_wrapper(
        &mut self,
        ety: &StorageType,
        erepr: &Repr,
        rules: RuleSet,
        stride: u64,
    ) -> Option<(StorageType, Repr)> {
        let table = Self::table(rules);
        let (esize, ealign) = ety.layout(table);
        let esize = esize?;
        let walign = table.struct_align(ealign);
        if stride < esize || !stride.is_multiple_of(walign) {
            return None;
        }
        let existing = self.plan.elements.iter().position(|e| {
            e.rules == rules && e.size == stride && e.fields.first().is_some_and(|f| f.ty == *ety)
        });
        if let Some(i) = existing {
            let e = &self.plan.elements[i];
            return Some((
                StorageType::Struct {
                    name: e.name.clone(),
                    size: Some(e.size),
                    align: e.align,
                },
                Repr::Wrapped {
                    element: i,
                    inner: Box::new(e.inner.clone()),
                },
            ));
        }
        let mut p = Placer {
            table,
            rules,
            offsets: false,
            fields: vec![Field {
                name: "v".into(),
                ty: ety.clone(),
                offset: 0,
                padding: false,
            }],
            cur: Some(esize),
            last: None,
            max_align: ealign,
            // Padding must not raise the element's alignment: that would
            // move the array in its parent.
            pad_align: walign,
            pad16: self.dialect.is_vulkan(),
            member_names: MemberNames::One("v"),
            pads: 0,
        };
        self.pad(&mut p, esize, stride, 1);
        let align = table.struct_align(p.max_align);
        let size = p.cur.and_then(|end| table.struct_size(end, align));
        let array_stride = size.and_then(|s| table.array_stride(s, align)).map(|s| s.0);
        if size != Some(stride) || array_stride != Some(stride) || align != walign {
            return None;
        }
        let (base, dims) = ety.spell(&mut Needs::default());
        let name = self.fresh_reserved(format!(
            "_s_{}_s{stride}",
            mangle(&base, &dims).trim_start_matches("_s_")
        ));
        let index = self.plan.elements.len();
        self.plan.order.push(Declared::Element(index));
        self.plan.elements.push(Element {
            name: name.clone(),
            fields: p.fields,
            inner: erepr.clone(),
            rules,
            size: stride,
            align,
        });
        Some((
            StorageType::Struct {
                name,
                size: Some(stride),
                align,
            },
            Repr::Wrapped {
                element: index,
                inner: Box::new(erepr.clone()),
            },
        ))
    }

    /// The plan of struct `h` under `rules` (memoized).
    fn struct_info(&mut self, h: Handle<naga::Type>, rules: RuleSet) -> Option<StructInfo> {
        if let Some(done) = self.structs.get(&(h, rules)) {
            return done.clone();
        }
        // Mark as in progress (WGSL structs cannot recurse).
        self.structs.insert((h, rules), None);
        let info = self.compute_struct(h, rules, None);
        self.structs.insert((h, rules), info.clone());
        info
    }

    /// A variant of struct `h` with trailing padding up to `stride` bytes, for
    /// an array whose contract stride is larger than the GLSL struct size.
    fn stride_variant(
        &mut self,
        h: Handle<naga::Type>,
        rules: RuleSet,
        stride: u64,
        site: &Site,
    ) -> Option<(StorageType, Repr)> {
        let _ = site;
        let existing = self
            .plan
            .variants
            .iter()
            .position(|v| v.ty == h && v.rules == rules && v.size == Some(stride));
        if let Some(i) = existing {
            let v = &self.plan.variants[i];
            return Some((
                StorageType::Struct {
                    name: v.name.clone(),
                    size: v.size,
                    align: v.align,
                },
                Repr::Variant(i),
            ));
        }
        let info = self.compute_struct(h, rules, Some(stride))?;
        match &info.storage {
            StorageType::Struct { size, .. } if *size == Some(stride) => {
                Some((info.storage, info.repr))
            }
            _ => None,
        }
    }

    /// Lay out struct `h` under `rules`; `size_to`: pad its end up to this
    /// size (a stride variant) instead of the contract size.
    fn compute_struct(
        &mut self,
        h: Handle<naga::Type>,
        rules: RuleSet,
        size_to: Option<u64>,
    ) -> Option<StructInfo> {
        let contract: &'a LayoutModule = self.contract;
        let sl = contract.structs.get(&h)?;
        let table = Self::table(rules);
        let mut p = Placer {
            table,
            rules,
            offsets: false,
            fields: Vec::new(),
            cur: Some(0),
            last: None,
            max_align: 1,
            pad_align: if rules == RuleSet::Std140 {
                16
            } else {
                sl.align.min(16)
            },
            pad16: self.dialect.is_vulkan(),
            member_names: MemberNames::Struct(h, sl),
            pads: 0,
        };
        p.fields.reserve(sl.slots.len());
        let mut members = Vec::with_capacity(sl.slots.len());
        let mut changed = size_to.is_some();
        let mut failed = false;
        for m in sl.members() {
            let name = self.member_name(h, m.index, &m.name);
            let site = Site {
                span: self.member_span(h, &sl.name, &m.name),
                of: Some(&sl.name),
                member: &m.name,
                global: None,
            };
            let prefix = self.column_prefix(name, p.member_names, &m.layout, rules);
            let before = p.fields.len();
            match self.place_member(&mut p, &prefix, &m.layout, m.offset, &site) {
                Some(r) => {
                    if r != Repr::Plain {
                        changed = true;
                    }
                    // Padding before the member, or a split matrix.
                    if p.fields.len() != before + 1 || p.fields[before].padding {
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
        let mut align = table.struct_align(p.max_align);
        let want = size_to.or(sl.size);
        let mut size = p.cur.and_then(|end| table.struct_size(end, align));
        if let (Some(end), Some(want), Some(natural)) = (p.cur, want, size) {
            if natural < want {
                self.pad(&mut p, end, want, 1);
                align = table.struct_align(p.max_align);
                size = p.cur.and_then(|end| table.struct_size(end, align));
                changed = true;
            }
        }
        if size_to.is_some() && size != size_to {
            return None;
        }
        if !changed {
            let name = self.type_name(h);
            if !self.plan.value_structs.contains(&h) {
                self.plan.value_structs.push(h);
            }
            return Some(StructInfo {
                storage: StorageType::Struct { name, size, align },
                repr: Repr::Plain,
            });
        }
        let base = match size_to {
            Some(s) => format!("{}_{}_s{s}", self.type_name(h), rules_name(rules)),
            None => format!("{}_{}", self.type_name(h), rules_name(rules)),
        };
        let name = self.fresh(base);
        let index = self.plan.variants.len();
        self.plan.order.push(Declared::Variant(index));
        // Value structs named by plain members of the variant.
        self.plan.variants.push(Variant {
            ty: h,
            name: name.clone(),
            members,
            fields: p.fields,
            rules,
            size,
            align,
        });
        Some(StructInfo {
            storage: StorageType::Struct { name, size, align },
            repr: Repr::Variant(index),
        })
    }

    /// Lay out every variant and block again from its finished members
    /// alone, and compare with the offsets recorded from the contract.
    fn verify(&mut self) {
        let mut problems = Vec::new();
        for v in &self.plan.variants {
            let table = v.rules.table();
            if let Some(bad) = first_mismatch(&v.fields, table, false) {
                problems.push(format!("variant `{}`: {bad}", v.name));
            }
        }
        for e in &self.plan.elements {
            if let Some(bad) = element_mismatch(e) {
                problems.push(format!("element struct `{}`: {bad}", e.name));
            }
        }
        for b in &self.plan.blocks {
            let table = b.rules.table();
            if let Some(bad) = first_mismatch(&b.fields, table, b.offsets) {
                problems.push(format!("block `{}`: {bad}", b.type_name));
            }
        }
        for p in problems {
            self.errors.push(
                Diagnostic::internal(format!(
                    "internal error: the GLSL layout of {p} differs from the contract"
                ))
                .note("this is a bug in stride's GLSL writer; please report it"),
            );
        }
    }
}

/// Whether a matrix of contract `layout` must be split under `rules`: its
/// contract column stride differs from the GLSL column stride.
fn needs_split(layout: &Layout, rules: RuleSet) -> bool {
    match layout.kind {
        LayoutKind::Matrix {
            rows,
            scalar,
            column_stride,
            ..
        } => matrix_stride(rules.table(), rows, scalar.width).0 != column_stride,
        _ => false,
    }
}

/// Lay out an element struct from its members alone: its value member `v`
/// must be at offset 0 and the only real member, and its size, alignment
/// and array stride must be the recorded stride.
fn element_mismatch(e: &Element) -> Option<String> {
    let table = e.rules.table();
    if let Some(bad) = first_mismatch(&e.fields, table, false) {
        return Some(bad);
    }
    let real: Vec<&Field> = e.fields.iter().filter(|f| !f.padding).collect();
    if real.len() != 1 || &*real[0].name != "v" || real[0].offset != 0 {
        return Some("its value member is not `v` at offset 0".to_string());
    }
    let mut end = 0u64;
    let mut max_align = 1u64;
    for f in &e.fields {
        let (size, align) = f.ty.layout(table);
        end = round_up(align, end) + size?;
        max_align = max_align.max(align);
    }
    let align = table.struct_align(max_align);
    let size = table.struct_size(end, align)?;
    let stride = table.array_stride(size, align)?.0;
    if size != e.size || align != e.align || stride != e.size {
        return Some(format!(
            "size {size}, alignment {align}, array stride {stride}; the plan says size and stride {}, alignment {}",
            e.size, e.align
        ));
    }
    None
}

/// The first field whose natural (or, with offset qualifiers, checked
/// explicit) offset differs from its recorded offset.
fn first_mismatch(fields: &[Field], table: &RuleTable, offsets: bool) -> Option<String> {
    let mut cur = 0u64;
    for f in fields {
        let (size, align) = f.ty.layout(table);
        let at = if offsets {
            if !f.offset.is_multiple_of(align) || f.offset < cur {
                return Some(format!("`{}` at offset {}", f.name, f.offset));
            }
            f.offset
        } else {
            round_up(align, cur)
        };
        if at != f.offset {
            return Some(format!(
                "`{}` is at offset {at}, the contract says {}",
                f.name, f.offset
            ));
        }
        cur = at + size.unwrap_or(0);
    }
    None
}

fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

/// `value` as the base of `.member` or `[index]`: parenthesized unless it
/// is a name, member access or index chain.
fn operand(value: &str) -> Cow<'_, str> {
    let simple = value
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '[' | ']'));
    if simple {
        Cow::Borrowed(value)
    } else {
        Cow::Owned(format!("({value})"))
    }
}

/// [`operand`] in place: parenthesize `text` unless it is a name, member
/// access or index chain.
fn parenthesize_operand(text: &mut String) {
    if let Cow::Owned(wrapped) = operand(text) {
        *text = wrapped;
    }
}

impl Plan {
    /// The block of buffer global `g`, if it is one.
    pub fn block(&self, g: Handle<naga::GlobalVariable>) -> Option<&Block> {
        self.blocks.iter().find(|b| b.global == g)
    }

    /// The lvalue text and repr of the pointer `GlobalVariable(g)`, for a
    /// buffer global; `None` for any other global.
    #[cfg(test)]
    pub fn global(&self, g: Handle<naga::GlobalVariable>) -> Option<(String, Repr)> {
        let mut text = String::new();
        let repr = self.global_into(g, &mut text)?;
        Some((text, repr))
    }

    /// [`Self::global`], with the lvalue text appended to `out` (nothing is
    /// appended for a global that is not a buffer).
    pub fn global_into(&self, g: Handle<naga::GlobalVariable>, out: &mut String) -> Option<Repr> {
        let b = self.block(g)?;
        out.push_str(&b.instance);
        if !matches!(b.repr, Repr::Block(_)) {
            out.push_str(".value");
        }
        Some(b.repr.clone())
    }

    /// Member `index` of a struct behind `base` (repr `Block` or
    /// `Variant`): its lvalue text and repr. Any other repr is not a struct
    /// in storage: the result is `base` itself, `Plain`.
    pub fn member(&self, base: impl Into<String>, repr: &Repr, index: u32) -> (String, Repr) {
        let mut base = base.into();
        let members = match repr {
            Repr::Block(g) => self.block(*g).map(|b| &b.members),
            Repr::Variant(i) => self.variants.get(*i).map(|v| &v.members),
            _ => None,
        };
        match members.and_then(|m| m.get(index as usize)) {
            Some((name, r)) => {
                parenthesize_operand(&mut base);
                base.push('.');
                base.push_str(name);
                (base, r.clone())
            }
            None => (base, Repr::Plain),
        }
    }

    /// Element `index` of an array or column of a matrix behind `base`
    /// (repr `Plain`, `Array` or `Columns`). The element of an array of
    /// wrapped elements ([`Repr::Wrapped`]) is the value member
    /// `<base>[i].v`, with the wrapper's inner repr. A dynamic column of `Columns`
    /// is a value, not an lvalue: the result's text is then an rvalue and
    /// its repr `Plain` (only uniform matrices are split, and uniforms are
    /// never stored to).
    pub fn element(
        &self,
        base: impl Into<String>,
        repr: &Repr,
        index: Index<'_>,
    ) -> (String, Repr) {
        let mut base = base.into();
        // `base[index]`, the base parenthesized where needed.
        let indexed = |mut base: String| {
            parenthesize_operand(&mut base);
            base.push('[');
            match &index {
                Index::Constant(n) => {
                    let _ = write!(base, "{n}");
                }
                Index::Dynamic(s) => base.push_str(s),
            }
            base.push(']');
            base
        };
        match repr {
            Repr::Array(elem) => match &**elem {
                // Step through the element struct to the value member.
                Repr::Wrapped { inner, .. } => {
                    let mut text = indexed(base);
                    text.push_str(".v");
                    (text, (**inner).clone())
                }
                other => (indexed(base), other.clone()),
            },
            Repr::Columns {
                columns,
                rows,
                scalar,
                style,
            } => match index {
                Index::Constant(j) => (column(&base, *style, j), Repr::Plain),
                Index::Dynamic(i) => (
                    format!(
                        "{}[{i}]",
                        columns_matrix(&base, *style, *columns, *rows, *scalar)
                    ),
                    Repr::Plain,
                ),
            },
            _ => {
                base = indexed(base);
                (base, Repr::Plain)
            }
        }
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
        match repr {
            Repr::Plain => base.to_string(),
            Repr::Wrapped { inner, .. } => {
                let v = format!("{}.v", operand(base));
                self.load(ctx, needs, &v, inner, ty)
            }
            Repr::Columns {
                columns,
                rows,
                scalar,
                style,
            } => columns_matrix(base, *style, *columns, *rows, *scalar),
            Repr::Block(g) => {
                let Some(b) = self.block(*g) else {
                    return base.to_string();
                };
                self.construct(ctx, needs, base, &b.members, ty)
            }
            Repr::Variant(i) => {
                let Some(v) = self.variants.get(*i) else {
                    return base.to_string();
                };
                let helper = single_underscores(&format!("_s_load_{}", v.name));
                if !needs.helpers.contains_key(&helper) {
                    let value = value_name(ctx, ty);
                    let body = self.construct(ctx, needs, "x", &v.members, ty);
                    let text = format!(
                        "{}{} {helper}({} x) {{\n    return {body};\n}}\n",
                        value.0, value.1, v.name
                    );
                    needs.helper(&helper, || text);
                }
                format!("{helper}({base})")
            }
            Repr::Array(elem) => {
                let naga::TypeInner::Array {
                    base: elem_ty,
                    size: naga::ArraySize::Constant(n),
                    ..
                } = ctx.module.types[ty].inner
                else {
                    // Runtime-sized arrays cannot be loaded whole.
                    return base.to_string();
                };
                let (sbase, sdims) = self.storage_name(ctx, repr, ty);
                let helper = single_underscores(&format!("_s_load_{}", mangle(&sbase, &sdims)));
                if !needs.helpers.contains_key(&helper) {
                    let (vbase, vdims) = value_name(ctx, ty);
                    let item = self.load(ctx, needs, "x[i]", elem, elem_ty);
                    let text = format!(
                        "{vbase}{vdims} {helper}({sbase} x{sdims}) {{\n    {vbase} r{vdims};\n    for (int i = 0; i < {n}; ++i) {{\n        r[i] = {item};\n    }}\n    return r;\n}}\n"
                    );
                    needs.helper(&helper, || text);
                }
                format!("{helper}({base})")
            }
        }
    }

    /// `T(load(base.m0), ...)` for a struct value of type `ty` whose storage
    /// members are `members`.
    fn construct(
        &self,
        ctx: &Ctx<'_>,
        needs: &mut Needs,
        base: &str,
        members: &[(Rc<str>, Repr)],
        ty: Handle<naga::Type>,
    ) -> String {
        let naga::TypeInner::Struct {
            members: ref value_members,
            ..
        } = ctx.module.types[ty].inner
        else {
            return base.to_string();
        };
        let args: Vec<String> = members
            .iter()
            .zip(value_members)
            .map(|((name, repr), vm)| {
                let lvalue = format!("{}.{name}", operand(base));
                self.load(ctx, needs, &lvalue, repr, vm.ty)
            })
            .collect();
        ctx.type_names.named.mark(ctx.module, ty);
        format!("{}({})", ctx.name(NameKey::Type(ty)), args.join(", "))
    }

    /// The GLSL spelling (element, dims) of the storage of `repr` holding a
    /// value of type `ty`.
    fn storage_name(&self, ctx: &Ctx<'_>, repr: &Repr, ty: Handle<naga::Type>) -> (String, String) {
        match repr {
            Repr::Plain | Repr::Block(_) => value_name(ctx, ty),
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
            Repr::Columns {
                columns,
                rows,
                scalar,
                ..
            } => (
                self.wrappers
                    .iter()
                    .find(|w| w.columns == *columns && w.rows == *rows && w.scalar == *scalar)
                    .map_or_else(String::new, |w| w.name.clone()),
                String::new(),
            ),
            Repr::Array(elem) => match ctx.module.types[ty].inner {
                naga::TypeInner::Array { base, size, .. } => {
                    let (b, d) = self.storage_name(ctx, elem, base);
                    (b, format!("[{}]{d}", array_count(size)))
                }
                _ => value_name(ctx, ty),
            },
        }
    }

    /// Statements (each line starting with `indent`, ending in a newline)
    /// storing the value `value` (a name or other side-effect-free
    /// expression, evaluated possibly several times) of type `ty` into the
    /// lvalue `base` of `repr`, member by member wherever the storage has
    /// padding members, so that padding bytes are never written.
    #[allow(clippy::too_many_arguments)]
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
        // Stores need no helpers today; `needs` stays in the interface for
        // storage kinds that will (e.g. 16-bit conversions).
        let _ = needs;
        let mut out = String::new();
        self.store_into(ctx, base, repr, ty, value, indent, 0, &mut out);
        out
    }

    #[allow(clippy::too_many_arguments)]
    fn store_into(
        &self,
        ctx: &Ctx<'_>,
        base: &str,
        repr: &Repr,
        ty: Handle<naga::Type>,
        value: &str,
        indent: &str,
        depth: usize,
        out: &mut String,
    ) {
        match repr {
            Repr::Plain => {
                let _ = writeln!(out, "{indent}{base} = {value};");
            }
            Repr::Wrapped { inner, .. } => {
                // Only the value member: the padding is never written.
                let v = format!("{}.v", operand(base));
                self.store_into(ctx, &v, inner, ty, value, indent, depth, out);
            }
            Repr::Columns { columns, style, .. } => {
                let value = operand(value);
                for j in 0..u32::from(*columns) {
                    out.push_str(indent);
                    column_into(base, *style, j, out);
                    out.push_str(" = ");
                    out.push_str(&value);
                    out.push('[');
                    crate::back::glsl::push_decimal(out, u64::from(j));
                    out.push_str("];\n");
                }
            }
            Repr::Block(_) | Repr::Variant(_) => {
                let members = match repr {
                    Repr::Block(g) => self.block(*g).map(|b| b.members.as_slice()),
                    Repr::Variant(i) => self.variants.get(*i).map(|v| v.members.as_slice()),
                    _ => None,
                };
                let naga::TypeInner::Struct {
                    members: ref value_members,
                    ..
                } = ctx.module.types[ty].inner
                else {
                    return;
                };
                for (i, ((name, r), vm)) in
                    members.unwrap_or(&[]).iter().zip(value_members).enumerate()
                {
                    let lvalue = format!("{}.{name}", operand(base));
                    let field = format!(
                        "{}.{}",
                        operand(value),
                        ctx.name(NameKey::StructMember(ty, i as u32))
                    );
                    self.store_into(ctx, &lvalue, r, vm.ty, &field, indent, depth, out);
                }
            }
            Repr::Array(elem) => {
                let naga::TypeInner::Array {
                    base: elem_ty,
                    size: naga::ArraySize::Constant(n),
                    ..
                } = ctx.module.types[ty].inner
                else {
                    // Runtime-sized arrays cannot be stored whole.
                    return;
                };
                let i = format!("_s_i{depth}");
                let _ = writeln!(out, "{indent}for (int {i} = 0; {i} < {n}; ++{i}) {{");
                let inner = format!("{indent}    ");
                let lvalue = format!("{}[{i}]", operand(base));
                let item = format!("{}[{i}]", operand(value));
                self.store_into(ctx, &lvalue, elem, elem_ty, &item, &inner, depth + 1, out);
                let _ = writeln!(out, "{indent}}}");
            }
        }
    }

    /// GLSL declarations of every column wrapper, buffer variant and element
    /// struct, in dependency order. Printed after the value structs.
    #[cfg(test)]
    pub fn declarations(&self, ctx: &Ctx<'_>, needs: &mut Needs) -> String {
        let _ = ctx;
        let mut out = String::new();
        self.write_declarations(needs, &mut out);
        out
    }

    /// [`Self::declarations`], appended to `out`.
    pub fn write_declarations(&self, needs: &mut Needs, out: &mut String) {
        for w in &self.wrappers {
            scalar_needs(needs, w.scalar);
            let _ = writeln!(out, "struct {} {{", w.name);
            for j in 0..w.columns {
                let _ = writeln!(out, "    {} c{j};", vector_name(w.rows, w.scalar));
            }
            out.push_str("};\n\n");
        }
        let stored = self.stored_declarations();
        for (d, stored) in self.order.iter().zip(stored) {
            if !stored {
                continue;
            }
            let Some((name, fields)) = self.declared(*d) else {
                continue;
            };
            let _ = writeln!(out, "struct {name} {{");
            for f in fields {
                out.push_str("    ");
                f.ty.write_member(needs, &f.name, out);
                out.push_str(";\n");
            }
            out.push_str("};\n\n");
        }
    }

    /// The name and fields of a declared variant or element struct.
    fn declared(&self, d: Declared) -> Option<(&str, &[Field])> {
        match d {
            Declared::Variant(i) => self.variants.get(i).map(|v| (&*v.name, &*v.fields)),
            Declared::Element(i) => self.elements.get(i).map(|e| (&*e.name, &*e.fields)),
        }
    }

    /// Per entry of [`Plan::order`]: whether a block stores it, directly or
    /// through another stored entry. Code reaches a variant only through
    /// the block members that store it, so one no block stores is never
    /// named: for example the variant planned for an array element before
    /// the array's stride asked for a larger stride variant.
    fn stored_declarations(&self) -> Vec<bool> {
        fn struct_names<'p>(ty: &'p StorageType, names: &mut Vec<&'p str>) {
            match ty {
                StorageType::Array(inner, _) => struct_names(inner, names),
                StorageType::Struct { name, .. } => names.push(name),
                _ => {}
            }
        }
        if self.order.is_empty() {
            return Vec::new();
        }
        let mut names = Vec::new();
        for f in self.blocks.iter().flat_map(|b| &b.fields) {
            struct_names(&f.ty, &mut names);
        }
        // Each entry comes after the entries it stores, so walking
        // backwards sees every user of an entry before the entry.
        let mut stored = vec![false; self.order.len()];
        for (k, d) in self.order.iter().enumerate().rev() {
            let Some((name, fields)) = self.declared(*d) else {
                continue;
            };
            if names.contains(&name) {
                stored[k] = true;
                for f in fields {
                    struct_names(&f.ty, &mut names);
                }
            }
        }
        stored
    }

    /// The full block declaration of buffer global `block`, with
    /// `layout_prefix` (e.g. `set = 0, binding = 1`) inside its
    /// `layout(...)`, std140/std430 and offsets or padding by dialect.
    /// Adds the extensions it needs (`GL_ARB_enhanced_layouts` for offsets
    /// in gl430, 16-bit and 64-bit storage types).
    #[cfg(test)]
    pub fn block_declaration(
        &self,
        ctx: &Ctx<'_>,
        needs: &mut Needs,
        block: &Block,
        layout_prefix: &str,
    ) -> String {
        let mut out = String::new();
        self.write_block_declaration(ctx, needs, block, layout_prefix, &mut out);
        out
    }

    /// [`Self::block_declaration`], appended to `out`.
    pub fn write_block_declaration(
        &self,
        ctx: &Ctx<'_>,
        needs: &mut Needs,
        block: &Block,
        layout_prefix: &str,
        out: &mut String,
    ) {
        out.push_str("layout(");
        if block.kind == BlockKind::PushConstant {
            out.push_str("push_constant, ");
        }
        if !layout_prefix.is_empty() {
            out.push_str(layout_prefix);
            out.push_str(", ");
        }
        out.push_str(rules_name(block.rules));
        let storage = match block.kind {
            BlockKind::Uniform | BlockKind::PushConstant => "uniform",
            BlockKind::Storage { read_only: true } => "readonly buffer",
            BlockKind::Storage { read_only: false } => "buffer",
        };
        if block.offsets && ctx.dialect() == Dialect::Gl430 {
            needs.extension("GL_ARB_enhanced_layouts");
        }
        for part in [") ", storage, " ", &block.type_name, " {\n"] {
            out.push_str(part);
        }
        for f in &block.fields {
            if block.offsets {
                out.push_str("    layout(offset = ");
                crate::back::glsl::push_decimal(out, f.offset);
                out.push_str(") ");
            } else {
                out.push_str("    ");
            }
            f.ty.write_member(needs, &f.name, out);
            out.push_str(";\n");
        }
        for part in ["} ", &block.instance, ";\n"] {
            out.push_str(part);
        }
    }
}

/// Column `j` of a split matrix at `base`.
fn column(base: &str, style: ColumnStyle, j: u32) -> String {
    let mut text = String::with_capacity(base.len() + 8);
    column_into(base, style, j, &mut text);
    text
}

/// [`column`], appended to `out`.
fn column_into(base: &str, style: ColumnStyle, j: u32, out: &mut String) {
    match style {
        ColumnStyle::Suffix => {
            out.push_str(base);
            out.push_str(if base.ends_with('_') { "c" } else { "_c" });
        }
        ColumnStyle::Wrapper => {
            out.push_str(&operand(base));
            out.push_str(".c");
        }
    }
    crate::back::glsl::push_decimal(out, u64::from(j));
}

/// The matrix rebuilt from its columns: `mat2x2(b_c0, b_c1)`.
fn columns_matrix(
    base: &str,
    style: ColumnStyle,
    columns: u8,
    rows: u8,
    s: naga::Scalar,
) -> String {
    let mut text = String::with_capacity(16 + usize::from(columns) * (base.len() + 8));
    text.push_str(&matrix_name(columns, rows, s));
    text.push('(');
    for j in 0..u32::from(columns) {
        if j > 0 {
            text.push_str(", ");
        }
        column_into(base, style, j, &mut text);
    }
    text.push(')');
    text
}

fn array_count(size: naga::ArraySize) -> String {
    match size {
        naga::ArraySize::Constant(n) => n.to_string(),
        _ => String::new(),
    }
}

/// The value type's GLSL spelling (element, dims) for the types that can
/// live in a buffer. Value structs by their value-struct name.
fn value_name(ctx: &Ctx<'_>, ty: Handle<naga::Type>) -> (String, String) {
    match ctx.module.types[ty].inner {
        naga::TypeInner::Scalar(s) | naga::TypeInner::Atomic(s) => {
            (scalar_name(s).to_string(), String::new())
        }
        naga::TypeInner::Vector { size, scalar } => {
            (vector_name(size as u8, scalar).to_string(), String::new())
        }
        naga::TypeInner::Matrix {
            columns,
            rows,
            scalar,
        } => (
            matrix_name(columns as u8, rows as u8, scalar).into_owned(),
            String::new(),
        ),
        naga::TypeInner::Array { base, size, .. } => {
            let (b, d) = value_name(ctx, base);
            (b, format!("[{}]{d}", array_count(size)))
        }
        _ => {
            ctx.type_names.named.mark(ctx.module, ty);
            (ctx.name(NameKey::Type(ty)).to_string(), String::new())
        }
    }
}

/// A helper-name fragment for a storage type (`S_std140` + `[4][2]` ->
/// `S_std140_a4_a2`).
fn mangle(base: &str, dims: &str) -> String {
    let mut out = base.to_string();
    for d in dims.split(']').filter(|d| !d.is_empty()) {
        out.push_str("_a");
        out.push_str(d.trim_start_matches('['));
    }
    out
}
