//! How buffer globals (uniform, storage, push constant) are declared in
//! GLSL and how code reaches their bytes.
//!
//! INTERFACE (owned by the buffers part; `func` and `decl` only call it):
//!
//! - [`plan`] realizes the contract layout as GLSL blocks once per module
//!   ([`crate::layout::realize::block`]), names what the realization made,
//!   and returns a [`Plan`], or the realization's error diagnostics (at the
//!   WGSL member, with a fix) for layouts the dialect cannot express.
//! - `decl` prints [`Plan::write_declarations`] (buffer variant structs)
//!   after the value structs, and [`Plan::write_block_declaration`] for
//!   every buffer global the entry point uses ([`Plan::block`] finds it).
//! - `func` starts every access chain into a buffer at
//!   [`Plan::global_into`], walks down with [`Plan::member`] and
//!   [`Plan::element`], and ends with [`Plan::load`] or [`Plan::copy`]
//!   (a store, or a value rebuilt in place).
//!
//! The texts `func` passes in are operands: places are names, member
//! accesses, index chains and calls, and values are names (`func` names a
//! value before a store that reads it several times). The plan appends
//! `.member` and `[index]` to them as they are; it never looks into a text
//! to decide whether it needs parentheses.
//!
//! Everything that is `Repr::Plain` is ordinary GLSL: the lvalue text has
//! the value type's spelling and layout, so `func` indexes, loads and stores
//! it as it would a local.
//!
//! This module computes no layout: offsets, padding fields, split matrices
//! and element structs all come from the realization. What it adds is
//! GLSL: the block kinds (`uniform` std140, `buffer` std430, Vulkan
//! `push_constant`), `layout(offset = N)` where the realization says the
//! offsets are explicit, and names: `<instance>_block` for blocks,
//! `<Name>_std140` (`_s<stride>` for a stride variant) for variants,
//! `_s_pad<N>` for padding members, `<member>_c<j>` for split columns,
//! `_s_mat2_cols` for column structs (`<array>[i].c<j>`) and
//! `_s_<elem>_s<stride>` for element structs, whose value member is `v`
//! (`<array>[i].v`).

#[cfg(test)]
mod tests;
pub mod words;

use super::{collapse_underscores, first_free, numbered, prefixed, Ctx, Dialect, Needs};
use crate::back::common::push_parts;
use crate::diag::Diagnostics;
use crate::front::Parsed;
use crate::layout::realize::block::{self, BlockRealization, Declared, Made};
use crate::layout::realize::{Capabilities, Field, Role, Storage, StructRef};
pub use crate::layout::realize::{ColumnStyle, Repr};
use crate::layout::{LayoutKind, LayoutModule, RuleSet};
use naga::proc::NameKey;
use naga::Handle;
use std::fmt::Write as _;
use std::rc::Rc;

pub use crate::back::offset::Index;

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

impl BlockKind {
    /// The storage qualifier of the block declaration.
    pub fn storage(self) -> &'static str {
        match self {
            BlockKind::Uniform | BlockKind::PushConstant => "uniform",
            BlockKind::Storage { read_only: true } => "readonly buffer",
            BlockKind::Storage { read_only: false } => "buffer",
        }
    }
}

/// How one buffer global is declared: the names of its realized block.
#[derive(Clone, Debug)]
pub struct Block {
    pub global: Handle<naga::GlobalVariable>,
    /// Its index in the realization's blocks.
    pub index: usize,
    /// The instance name: code refers to `<instance>.<member>`.
    pub instance: String,
    pub kind: BlockKind,
    /// The block (interface) name and its member and field names.
    pub named: Named,
}

/// The names of a realized block, variant, column or element struct.
#[derive(Clone, Debug, Default)]
pub struct Named {
    /// The GLSL block or struct name.
    pub name: String,
    /// Per WGSL member (a block of a global that is no struct: the single
    /// member `value`; an element struct: its value `v`; a column struct:
    /// none): GLSL member name (split matrix: column prefix).
    pub members: Vec<Rc<str>>,
    /// Per realized field: its GLSL member name.
    pub fields: Vec<Rc<str>>,
}

/// The GLSL names of everything a realization made.
#[derive(Clone, Debug, Default)]
pub struct Names {
    pub variants: Vec<Named>,
    /// Per column struct of the realization (its name alone).
    pub columns: Vec<Named>,
    pub elements: Vec<Named>,
    /// The realization's `value_structs`, each with its GLSL name.
    pub values: Vec<(Handle<naga::Type>, String)>,
}

/// How every buffer global of a module is declared and accessed.
#[derive(Clone, Debug, Default)]
pub struct Plan {
    /// The contract realized as GLSL blocks.
    pub layout: BlockRealization,
    /// Per realized block, in the same order.
    pub blocks: Vec<Block>,
    pub names: Names,
    /// The buffer globals declared as their 32-bit words (f16 in the
    /// OpenGL dialects, or a layout no block holds; see [`words`]); the
    /// realization leaves them out.
    pub words: Vec<words::WordsBlock>,
    /// A note per buffer declared as words because of its layout.
    pub notes: Vec<crate::diag::Diagnostic>,
}

/// What GLSL in `dialect` can write down on top of std140/std430.
fn capabilities(dialect: Dialect) -> Capabilities {
    const U16: naga::Scalar = naga::Scalar {
        kind: naga::ScalarKind::Uint,
        width: 2,
    };
    Capabilities {
        name: dialect.name(),
        member_offsets: dialect.has_offset_qualifier(),
        // `uint16_t` needs GL_EXT_shader_16bit_storage: Vulkan only.
        padding_scalars: if dialect.is_vulkan() {
            &[naga::Scalar::U32, U16]
        } else {
            &[naga::Scalar::U32]
        },
        push_constant_rules: if dialect.is_vulkan() {
            RuleSet::Std430
        } else {
            RuleSet::Std140
        },
    }
}

/// Compute the plan for every buffer global of the module. `parsed` gives
/// the spans of WGSL members for diagnostics; `module` is the module written
/// (`parsed.module` or its copy with overrides baked: same types).
pub fn plan(
    parsed: &Parsed,
    module: &naga::Module,
    contract: &LayoutModule,
    dialect: Dialect,
    f16_words: bool,
    names: &naga::FastHashMap<NameKey, String>,
) -> Result<Plan, Diagnostics> {
    // Without 16-bit storage, a buffer that holds f16 is declared as its
    // words, as is one whose layout no block can hold; the others are
    // realized as blocks.
    let f16_words = |g: &crate::layout::GlobalLayout| {
        (f16_words || !dialect.is_vulkan()) && words::holds_f16(&g.layout, contract, 0)
    };
    let (layout, in_words, notes) =
        block::realize_or_words(parsed, module, contract, &capabilities(dialect), &f16_words);
    let mut namer = Namer {
        module,
        contract,
        dialect,
        names,
        taken: crate::back::common::Taken::new(names, &[]),
    };
    let mut plan = namer.name(layout);
    for g in in_words.iter().filter_map(|&i| contract.globals.get(i)) {
        let block = namer.words_block(g);
        plan.words.push(block);
    }
    plan.notes = notes;
    if plan.layout.problems.is_empty() {
        Ok(plan)
    } else {
        Err(plan.layout.diagnostics(&plan))
    }
}

// ---------------------------------------------------------------------------
// Names.

/// Column `j` of a matrix member split in place: `<member>_c<j>`.
fn column_name(member: &str, j: impl std::fmt::Display) -> String {
    joined_name(member, format_args!("c{j}"))
}

/// A name joined to a prefix with one underscore: `<prefix>_<part>`.
fn joined_name(prefix: &str, part: impl std::fmt::Display) -> String {
    format!("{prefix}{}{part}", separator(prefix))
}

/// What goes between a name prefix and the part joined to it: one `_`,
/// none where the prefix ends in one already.
fn separator(prefix: &str) -> &'static str {
    if prefix.ends_with('_') {
        ""
    } else {
        "_"
    }
}

/// Names the blocks and structs of a realization.
struct Namer<'a> {
    module: &'a naga::Module,
    contract: &'a LayoutModule,
    dialect: Dialect,
    names: &'a naga::FastHashMap<NameKey, String>,
    /// The namer's names and those given out here.
    taken: crate::back::common::Taken<'a>,
}

impl<'a> Namer<'a> {
    /// Name everything `layout` made, in the order it made it.
    fn name(&mut self, layout: BlockRealization) -> Plan {
        let mut plan = Plan {
            names: Names {
                values: layout
                    .value_structs
                    .iter()
                    .map(|&h| (h, self.type_name(h).into_owned()))
                    .collect(),
                ..Names::default()
            },
            ..Plan::default()
        };
        for &made in &layout.made {
            match made {
                Made::Block(i) => {
                    if let Some(b) = layout.blocks.get(i) {
                        let block = self.block(i, b);
                        plan.blocks.push(block);
                    }
                }
                Made::Variant(i) => {
                    if let Some(v) = layout.variants.get(i) {
                        let base = match v.stride {
                            Some(s) => format!("{}_{}_s{s}", self.type_name(v.ty), v.rules.name()),
                            None => format!("{}_{}", self.type_name(v.ty), v.rules.name()),
                        };
                        let name = self.fresh(base, prefixed);
                        let (members, raw) = self.struct_members(v.ty, &v.members);
                        plan.names
                            .variants
                            .push(named(name, members, &v.fields, &raw));
                    }
                }
                Made::Columns(i) => {
                    if let Some(c) = layout.columns.get(i) {
                        let base = format!("_s_{}_cols", matrix_name(c.columns, c.rows, c.scalar));
                        let name = self.fresh(base, prefixed);
                        plan.names.columns.push(Named {
                            name,
                            ..Named::default()
                        });
                    }
                }
                Made::Element(i) => {
                    if let Some(e) = layout.elements.get(i) {
                        let mut what = String::new();
                        if let Some(f) = e.fields.first() {
                            let needs = &mut Needs::default();
                            plan.names.push_base(&mut what, &f.ty, needs);
                            push_dims(&mut what, &f.ty, true);
                        }
                        let what = what.trim_start_matches("_s_");
                        let name = self.fresh(format!("_s_{what}_s{}", e.size), numbered);
                        let members = vec!["v".into()];
                        plan.names
                            .elements
                            .push(named(name, members, &e.fields, &["v"]));
                    }
                }
            }
        }
        plan.layout = layout;
        plan
    }

    /// The names of buffer global `g`, declared as its words.
    fn words_block(&mut self, g: &crate::layout::GlobalLayout) -> words::WordsBlock {
        let (instance, type_name) = self.block_names(g.handle, g.name.as_str());
        words::WordsBlock {
            global: g.handle,
            instance,
            type_name,
            kind: self.kind(g.space),
            size: g.layout.size,
            f16: words::holds_f16(&g.layout, self.contract, 0),
        }
    }

    /// The names of realized block `index`.
    fn block(&mut self, index: usize, b: &block::Block) -> Block {
        let g = self.contract.globals.iter().find(|g| g.handle == b.global);
        let (instance, type_name) = self.block_names(b.global, g.map_or("", |g| g.name.as_str()));
        let named = match (g.map(|g| &g.layout.kind), &b.repr) {
            (Some(LayoutKind::Struct(h)), Repr::Block(_)) => {
                let (mut members, mut raw) = self.struct_members(*h, &b.members);
                let inlined = self.inlined_members(b, &mut members);
                raw.extend(inlined.iter().map(|m| &**m));
                named(type_name, members, &b.fields, &raw)
            }
            _ => named(type_name, vec!["value".into()], &b.fields, &["value"]),
        };
        Block {
            global: b.global,
            index,
            instance,
            kind: self.kind(b.space),
            named,
        }
    }

    /// The instance name of buffer global `g` (its WGSL name `wgsl_name`
    /// where the namer gave none) and its fresh block name
    /// `<instance>_block`.
    fn block_names(
        &mut self,
        g: Handle<naga::GlobalVariable>,
        wgsl_name: &str,
    ) -> (String, String) {
        let instance = self
            .names
            .get(&NameKey::GlobalVariable(g))
            .cloned()
            .unwrap_or_else(|| wgsl_name.to_string());
        let type_name = self.fresh(format!("{instance}_block"), prefixed);
        (instance, type_name)
    }

    /// The kind of block a buffer global in `space` is.
    fn kind(&self, space: naga::AddressSpace) -> BlockKind {
        match space {
            naga::AddressSpace::Storage { access } => BlockKind::Storage {
                read_only: !access.contains(naga::StorageAccess::STORE),
            },
            naga::AddressSpace::Immediate if self.dialect.is_vulkan() => BlockKind::PushConstant,
            _ => BlockKind::Uniform,
        }
    }

    /// Name the members of the struct members `b` inlines, appended to
    /// `members` (which names the WGSL members): `<parent>_<member>`,
    /// prefixed with `_s_` (and numbered) where that name is taken.
    /// Returns the names added.
    fn inlined_members(&self, b: &block::Block, members: &mut Vec<Rc<str>>) -> Vec<Rc<str>> {
        let mut added = Vec::new();
        for inl in &b.inlined {
            let Some(sl) = self.contract.structs.get(&inl.ty) else {
                continue;
            };
            let parent = members
                .get(inl.parent)
                .cloned()
                .unwrap_or_else(|| "".into());
            // Member `k` of the struct is block member `first + k`.
            let end = inl.first + sl.members().count();
            if members.len() < end {
                members.resize(end, "".into());
            }
            for (k, m) in sl.members().enumerate() {
                let own = self.member_name(inl.ty, m.index, &m.name);
                let mut joined = collapse_underscores(joined_name(&parent, own));
                if joined.starts_with("gl_") {
                    // Reserved in GLSL (a member `gl` with a member `x`).
                    joined.insert_str(0, "_s_");
                }
                let taken = |name: &str| members.iter().any(|m| **m == *name);
                let name: Rc<str> = first_free(joined, taken, prefixed).into();
                added.push(name.clone());
                if let Some(slot) = members.get_mut(inl.first + k) {
                    *slot = name;
                }
            }
        }
        added
    }

    /// The GLSL member names of WGSL struct `h` stored as `reprs` (a split
    /// matrix: its column prefix), and the members' own GLSL names, which
    /// padding and column names avoid.
    fn struct_members(
        &self,
        h: Handle<naga::Type>,
        reprs: &[Repr],
    ) -> (Vec<Rc<str>>, Vec<&'a str>) {
        let Some(sl) = self.contract.structs.get(&h) else {
            return Default::default();
        };
        let raw: Vec<&'a str> = sl
            .members()
            .map(|m| self.member_name(h, m.index, &m.name))
            .collect();
        let members = raw
            .iter()
            .zip(reprs)
            .map(|(&name, repr)| match repr {
                Repr::Columns {
                    columns,
                    style: ColumnStyle::Members,
                    ..
                } if (0..*columns).any(|j| raw.contains(&column_name(name, j).as_str())) => {
                    format!("_s_{name}").into()
                }
                _ => name.into(),
            })
            .collect();
        (members, raw)
    }

    /// `base` (doubled underscores collapsed) if it is free, else the
    /// first free `retry(base, n)` for n = 0, 1, ... ([`prefixed`] for a
    /// global declaration, [`numbered`] for a name that starts with the
    /// reserved prefix `_s_` already); recorded as taken.
    fn fresh(&mut self, base: String, retry: fn(&str, usize) -> String) -> String {
        let taken = |name: &str| self.taken.contains(name);
        let name = first_free(collapse_underscores(base), taken, retry);
        self.taken.insert(&name);
        name
    }

    fn type_name(&self, h: Handle<naga::Type>) -> std::borrow::Cow<'a, str> {
        crate::back::common::plan_type_name(self.names, self.module, h)
    }

    fn member_name(&self, h: Handle<naga::Type>, index: usize, fallback: &'a str) -> &'a str {
        self.names
            .get(&NameKey::StructMember(h, index as u32))
            .map_or(fallback, String::as_str)
    }
}

/// The names of a declaration `name` whose WGSL members are named
/// `members`, with the GLSL member name of every realized field: members
/// by `members`, split columns `<prefix>_c<j>`, padding `_s_pad<N>`
/// (numbered in order, skipping the members' own names `raw`).
fn named(name: String, members: Vec<Rc<str>>, fields: &[Field], raw: &[&str]) -> Named {
    let mut pads = 0usize;
    // Candidate padding names are written here, and copied once chosen.
    let mut text = String::new();
    let fields = fields
        .iter()
        .map(|f| match f.role {
            Role::Member(i) => members.get(i).cloned().unwrap_or_else(|| "".into()),
            Role::Column { member, column } => {
                let prefix = members.get(member).map_or("", |m| &**m);
                column_name(prefix, column).into()
            }
            Role::Padding => loop {
                text.clear();
                let _ = write!(text, "_s_pad{pads}");
                pads += 1;
                if !raw.contains(&text.as_str()) {
                    break Rc::from(text.as_str());
                }
            },
        })
        .collect();
    Named {
        name,
        members,
        fields,
    }
}

// ---------------------------------------------------------------------------
// Spelling of storage types.

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

impl Names {
    /// The GLSL name of a struct the realization refers to.
    fn struct_name(&self, of: &StructRef) -> &str {
        let name = match *of {
            StructRef::Value(h) => self.values.iter().find(|(v, _)| *v == h).map(|(_, n)| n),
            StructRef::Variant(i) => self.variants.get(i).map(|v| &v.name),
            StructRef::Columns(i) => self.columns.get(i).map(|c| &c.name),
            StructRef::Element(i) => self.elements.get(i).map(|e| &e.name),
        };
        name.map_or("", String::as_str)
    }

    /// The spelling of stored type `ty` (of its innermost element where
    /// an array), appended to `out`.
    fn push_base(&self, out: &mut String, ty: &Storage, needs: &mut Needs) {
        match ty {
            Storage::Scalar(s) => {
                scalar_needs(needs, *s);
                out.push_str(scalar_name(*s));
            }
            Storage::Vector(n, s) => {
                scalar_needs(needs, *s);
                out.push_str(&vector_name(*n, *s));
            }
            Storage::Matrix {
                columns,
                rows,
                scalar,
            } => {
                scalar_needs(needs, *scalar);
                out.push_str(&matrix_name(*columns, *rows, *scalar));
            }
            Storage::Array(e, _) => self.push_base(out, e, needs),
            Storage::Struct { of, .. } => out.push_str(self.struct_name(of)),
        }
    }
}

/// The array dimensions of stored type `ty`, outermost first, appended to
/// `out`: `[4][2]` (`[]` runtime-sized), or where `mangled`, the
/// helper-name fragment `_a4_a2` (`_a`).
fn push_dims(out: &mut String, ty: &Storage, mangled: bool) {
    if let Storage::Array(e, count) = ty {
        out.push_str(if mangled { "_a" } else { "[" });
        if let Some(n) = count {
            crate::back::glsl::push_decimal(out, *n);
        }
        if !mangled {
            out.push(']');
        }
        push_dims(out, e, mangled);
    }
}

impl Plan {
    /// Append the declaration of a member `name` of type `ty` to `out`:
    /// `T name`, `T name[4][2]`.
    fn write_member(&self, ty: &Storage, needs: &mut Needs, name: &str, out: &mut String) {
        self.names.push_base(out, ty, needs);
        out.push(' ');
        out.push_str(name);
        push_dims(out, ty, false);
    }

    /// The GLSL names of a block, variant, column or element struct.
    fn made_names(&self, what: Made) -> Option<&Named> {
        match what {
            Made::Block(i) => self.blocks.get(i).map(|b| &b.named),
            Made::Variant(i) => self.names.variants.get(i),
            Made::Element(i) => self.names.elements.get(i),
            Made::Columns(i) => self.names.columns.get(i),
        }
    }
}

impl crate::layout::realize::Spelling<Made> for Plan {
    fn storage(&self, ty: &Storage) -> String {
        let mut out = String::new();
        self.names.push_base(&mut out, ty, &mut Needs::default());
        push_dims(&mut out, ty, false);
        out
    }

    fn name(&self, what: Made) -> String {
        self.made_names(what)
            .map_or_else(String::new, |n| n.name.clone())
    }

    fn field(&self, what: Made, index: usize) -> String {
        self.made_names(what)
            .and_then(|n| n.fields.get(index))
            .map_or_else(String::new, |f| f.to_string())
    }
}

// ---------------------------------------------------------------------------
// Printing.

impl Plan {
    /// The words block of buffer global `g` and its index, if it is one.
    pub fn words_block(
        &self,
        g: Handle<naga::GlobalVariable>,
    ) -> Option<(usize, &words::WordsBlock)> {
        self.words.iter().enumerate().find(|(_, w)| w.global == g)
    }

    /// The block of buffer global `g`, if it is one.
    pub fn block(&self, g: Handle<naga::GlobalVariable>) -> Option<&Block> {
        self.blocks.iter().find(|b| b.global == g)
    }

    /// The realized block of a block.
    fn realized(&self, b: &Block) -> Option<&block::Block> {
        self.layout.blocks.get(b.index)
    }

    /// The GLSL member names and reprs of the struct in storage behind
    /// `repr` (`Block` or `Variant`).
    fn members_of(&self, repr: &Repr) -> Option<(&[Rc<str>], &[Repr])> {
        match repr {
            Repr::Block(g) => {
                let b = self.block(*g)?;
                let realized = self.realized(b)?;
                // The WGSL members: those of inlined structs follow them.
                let n = realized
                    .inlined
                    .first()
                    .map_or(realized.members.len(), |i| i.first);
                Some((b.named.members.get(..n)?, realized.members.get(..n)?))
            }
            Repr::Variant(i) => Some((
                &self.names.variants.get(*i)?.members,
                &self.layout.variants.get(*i)?.members,
            )),
            Repr::Inline {
                global,
                first,
                count,
            } => {
                let b = self.block(*global)?;
                let range = *first..first + count;
                Some((
                    b.named.members.get(range.clone())?,
                    self.realized(b)?.members.get(range)?,
                ))
            }
            _ => None,
        }
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
        let repr = &self.realized(b)?.repr;
        out.push_str(&b.instance);
        if !matches!(repr, Repr::Block(_)) {
            out.push_str(".value");
        }
        Some(repr.clone())
    }

    /// Member `index` of a struct behind the lvalue `out` ends with (repr
    /// `Block`, `Variant` or `Inline`): the member's lvalue text in its
    /// place, and its repr. An inlined struct member is no lvalue of its
    /// own: its text is the block's (unchanged), and its members are the
    /// block's members. Any other repr is not a struct in storage: the text
    /// stays, `Plain`.
    pub fn member(&self, out: &mut String, repr: &Repr, index: u32) -> Repr {
        let member = self.members_of(repr).and_then(|(names, reprs)| {
            Some((names.get(index as usize)?, reprs.get(index as usize)?))
        });
        match member {
            Some((_, r @ Repr::Inline { .. })) => r.clone(),
            Some((name, r)) => {
                out.push('.');
                out.push_str(name);
                r.clone()
            }
            None => Repr::Plain,
        }
    }

    /// Element `index` of an array or column of a matrix behind the lvalue
    /// `out[start..]` (repr `Plain`, `Array` or `Columns`): the element's
    /// text in its place, and its repr. The element of an array of wrapped
    /// elements ([`Repr::Wrapped`]) is the value member `<base>[i].v`, with
    /// the wrapper's inner repr. A dynamic column of `Columns` is a value,
    /// not an lvalue: the text is then an rvalue and its repr `Plain`
    /// (only uniform matrices are split, and uniforms are never stored to).
    pub fn element(&self, out: &mut String, start: usize, repr: &Repr, index: Index<'_>) -> Repr {
        match (repr, &index) {
            (Repr::Array(elem), _) => {
                index.push_bracketed(out);
                match &**elem {
                    // Step through the element struct to the value member.
                    Repr::Wrapped { inner, .. } => {
                        out.push_str(".v");
                        (**inner).clone()
                    }
                    other => other.clone(),
                }
            }
            (Repr::Columns { style, .. }, Index::Constant(j)) => {
                push_column(out, *style, *j);
                Repr::Plain
            }
            (
                Repr::Columns {
                    columns,
                    rows,
                    scalar,
                    style,
                },
                Index::Dynamic(_),
            ) => {
                let base = out.split_off(start);
                out.push_str(&columns_matrix(&base, *style, *columns, *rows, *scalar));
                index.push_bracketed(out);
                Repr::Plain
            }
            _ => {
                index.push_bracketed(out);
                Repr::Plain
            }
        }
    }

    /// An rvalue of value type `ty` read from the lvalue `base` of `repr`;
    /// `None` for storage that [`Self::rebuilt`] says is rebuilt in place
    /// by [`Self::copy`] instead (a variant struct or an array of
    /// wrapped elements, at any depth).
    pub fn load(
        &self,
        ctx: &Ctx<'_>,
        base: &str,
        repr: &Repr,
        ty: Handle<naga::Type>,
    ) -> Option<String> {
        match repr {
            Repr::Plain => Some(base.to_string()),
            Repr::Wrapped { inner, .. } => {
                let v = format!("{base}.v");
                self.load(ctx, &v, inner, ty)
            }
            Repr::Columns {
                columns,
                rows,
                scalar,
                style,
            } => Some(columns_matrix(base, *style, *columns, *rows, *scalar)),
            // `T(load(base.m0), ...)`: the struct value from its members.
            Repr::Block(_) | Repr::Inline { .. } => {
                let (names, reprs) = self.members_of(repr)?;
                let naga::TypeInner::Struct {
                    members: ref value_members,
                    ..
                } = ctx.module.types[ty].inner
                else {
                    return Some(base.to_string());
                };
                let mut args = Vec::with_capacity(names.len());
                for ((name, repr), vm) in names.iter().zip(reprs).zip(value_members) {
                    let lvalue = self.member_text(base, name, repr);
                    args.push(self.load(ctx, &lvalue, repr, vm.ty)?);
                }
                ctx.type_names.named.mark(ctx.module, ty);
                let name = ctx.name(NameKey::Type(ty));
                Some(format!("{name}({})", args.join(", ")))
            }
            Repr::Variant(_) | Repr::Array(_) => None,
        }
    }

    /// The lvalue text of member `name` (stored as `repr`) of the struct
    /// at `base`: `base.name`, or `base` itself for an inlined struct
    /// member, whose members are the block's.
    fn member_text(&self, base: &str, name: &str, repr: &Repr) -> String {
        match repr {
            Repr::Inline { .. } => base.to_string(),
            _ => format!("{base}.{name}"),
        }
    }

    /// Whether a value stored as `repr` is rebuilt through a helper by
    /// [`Self::load`] (a variant struct or an array of wrapped elements,
    /// at any depth): such a value is better rebuilt in place by
    /// [`Self::copy`] ([`Way::Load`]).
    pub fn rebuilt(&self, repr: &Repr) -> bool {
        match repr {
            Repr::Variant(_) | Repr::Array(_) => true,
            Repr::Wrapped { inner, .. } => self.rebuilt(inner),
            Repr::Block(_) | Repr::Inline { .. } => self
                .members_of(repr)
                .is_some_and(|(_, reprs)| reprs.iter().any(|r| self.rebuilt(r))),
            Repr::Plain | Repr::Columns { .. } => false,
        }
    }

    /// Statements (each line starting with `indent`, ending in a newline)
    /// copying between the lvalue `base` of `repr` and `value`, of type
    /// `ty`, appended to `out`: one walk of the storage, both ways.
    ///
    /// - [`Way::Store`] stores the value `value` (a name or other
    ///   side-effect-free expression, evaluated possibly several times)
    ///   member by member wherever the storage has padding members, so
    ///   that padding bytes are never written.
    /// - [`Way::Load`] reads the storage into the local `value`, member by
    ///   member and element by element: no helper copies the storage
    ///   (padding included) by value, which a driver's compiler can take
    ///   minutes over for a struct of a few kilobytes.
    ///
    /// `depth` is the loop depth (the loop variable `_s_i<depth>`), 0 at
    /// the top.
    #[allow(clippy::too_many_arguments)]
    pub fn copy(
        &self,
        ctx: &Ctx<'_>,
        way: Way,
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
                // The assigned and the read side.
                let (to, from) = match way {
                    Way::Store => (base, value),
                    Way::Load => (value, base),
                };
                let _ = writeln!(out, "{indent}{to} = {from};");
            }
            Repr::Wrapped { inner, .. } => {
                // Only the value member: the padding is never touched.
                let v = format!("{base}.v");
                self.copy(ctx, way, &v, inner, ty, value, indent, depth, out);
            }
            Repr::Columns {
                columns,
                rows,
                scalar,
                style,
            } => match way {
                Way::Store => {
                    for j in 0..u32::from(*columns) {
                        push_parts(out, &[indent, base]);
                        push_column(out, *style, j);
                        push_parts(out, &[" = ", value, "["]);
                        crate::back::glsl::push_decimal(out, u64::from(j));
                        out.push_str("];\n");
                    }
                }
                Way::Load => {
                    let matrix = columns_matrix(base, *style, *columns, *rows, *scalar);
                    let _ = writeln!(out, "{indent}{value} = {matrix};");
                }
            },
            Repr::Block(_) | Repr::Variant(_) | Repr::Inline { .. } => {
                let (names, reprs) = self.members_of(repr).unwrap_or((&[], &[]));
                let naga::TypeInner::Struct {
                    members: ref value_members,
                    ..
                } = ctx.module.types[ty].inner
                else {
                    return;
                };
                for (i, ((name, r), vm)) in names.iter().zip(reprs).zip(value_members).enumerate() {
                    let lvalue = self.member_text(base, name, r);
                    let field =
                        format!("{value}.{}", ctx.name(NameKey::StructMember(ty, i as u32)));
                    self.copy(ctx, way, &lvalue, r, vm.ty, &field, indent, depth, out);
                }
            }
            Repr::Array(elem) => {
                let naga::TypeInner::Array {
                    base: elem_ty,
                    size: naga::ArraySize::Constant(n),
                    ..
                } = ctx.module.types[ty].inner
                else {
                    // Runtime-sized arrays cannot be copied whole.
                    return;
                };
                let i = format!("_s_i{depth}");
                let _ = writeln!(out, "{indent}for (int {i} = 0; {i} < {n}; ++{i}) {{");
                let inner = format!("{indent}    ");
                let lvalue = format!("{base}[{i}]");
                let item = format!("{value}[{i}]");
                self.copy(
                    ctx,
                    way,
                    &lvalue,
                    elem,
                    elem_ty,
                    &item,
                    &inner,
                    depth + 1,
                    out,
                );
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
        for (c, named) in self.layout.columns.iter().zip(&self.names.columns) {
            scalar_needs(needs, c.scalar);
            let _ = writeln!(out, "struct {} {{", named.name);
            for j in 0..c.columns {
                let _ = writeln!(out, "    {} c{j};", vector_name(c.rows, c.scalar));
            }
            out.push_str("};\n\n");
        }
        for d in &self.layout.order {
            let (named, fields) = match *d {
                Declared::Variant(i) => (
                    self.names.variants.get(i),
                    self.layout.variants.get(i).map(|v| &v.fields),
                ),
                Declared::Element(i) => (
                    self.names.elements.get(i),
                    self.layout.elements.get(i).map(|e| &e.fields),
                ),
            };
            let (Some(named), Some(fields)) = (named, fields) else {
                continue;
            };
            let _ = writeln!(out, "struct {} {{", named.name);
            for (f, name) in fields.iter().zip(&named.fields) {
                out.push_str("    ");
                self.write_member(&f.ty, needs, name, out);
                out.push_str(";\n");
            }
            out.push_str("};\n\n");
        }
    }

    /// The full block declaration of buffer global `block`, with
    /// `layout_prefix` (e.g. `set = 0, binding = 1`, or `push_constant`
    /// for a Vulkan push-constant block) inside its
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
        let sep = if layout_prefix.is_empty() { "" } else { ", " };
        let mut out = format!("layout({layout_prefix}{sep}");
        self.write_block_declaration(ctx, needs, block, &mut out);
        out
    }

    /// [`Self::block_declaration`] after `layout(` and the binding (the
    /// caller's), appended to `out`.
    pub fn write_block_declaration(
        &self,
        ctx: &Ctx<'_>,
        needs: &mut Needs,
        block: &Block,
        out: &mut String,
    ) {
        let Some(realized) = self.realized(block) else {
            return;
        };
        out.push_str(realized.rules.name());
        let storage = block.kind.storage();
        if realized.offsets && ctx.dialect() == Dialect::Gl430 {
            needs.extension("GL_ARB_enhanced_layouts");
        }
        push_parts(out, &[") ", storage, " ", &block.named.name, " {\n"]);
        for (f, name) in realized.fields.iter().zip(&block.named.fields) {
            if realized.offsets {
                out.push_str("    layout(offset = ");
                crate::back::glsl::push_decimal(out, f.offset);
                out.push_str(") ");
            } else {
                out.push_str("    ");
            }
            self.write_member(&f.ty, needs, name, out);
            out.push_str(";\n");
        }
        push_parts(out, &["} ", &block.instance, ";\n"]);
    }
}

/// Column `j` of the split matrix whose lvalue (a member-name prefix or
/// a column struct) `out` ends with, in its place: `<base>_c<j>` or
/// `<base>.c<j>`.
fn push_column(out: &mut String, style: ColumnStyle, j: u32) {
    out.push_str(match style {
        ColumnStyle::Members => separator(out),
        ColumnStyle::Wrapper => ".",
    });
    out.push('c');
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
        text.push_str(base);
        push_column(&mut text, style, j);
    }
    text.push(')');
    text
}

/// The value type's GLSL spelling (element, dims) for the types that can
/// live in a buffer. Value structs by their value-struct name.
fn value_name(ctx: &Ctx<'_>, ty: Handle<naga::Type>) -> (String, String) {
    let inner = &ctx.module.types[ty].inner;
    if let naga::TypeInner::Array { base, size, .. } = *inner {
        let (b, d) = value_name(ctx, base);
        let n = match size {
            naga::ArraySize::Constant(n) => n.to_string(),
            _ => String::new(),
        };
        return (b, format!("[{n}]{d}"));
    }
    // The spelling alone: a buffer records the extensions of its scalars.
    match super::types::numeric_name(&mut Needs::default(), inner) {
        Some(name) => (name.into_owned(), String::new()),
        None => {
            ctx.type_names.named.mark(ctx.module, ty);
            (ctx.name(NameKey::Type(ty)).to_string(), String::new())
        }
    }
}

/// Which way [`Plan::copy`] copies.
#[derive(Clone, Copy)]
pub enum Way {
    /// A value into buffer storage.
    Store,
    /// Buffer storage into a local.
    Load,
}
