//! GLSL blocks: the contract realized under std140 (uniform blocks) and
//! std430 (storage blocks), with offset qualifiers where the dialect has them.
//!
//! - Uniform globals are std140 blocks, storage globals std430 blocks, push
//!   constants blocks under [`Capabilities::push_constant_rules`].
//! - The top-level members of a struct-typed global are the block's
//!   members. Where the target has offset qualifiers
//!   ([`Capabilities::member_offsets`]) each one is at its contract offset;
//!   otherwise padding fields place them. A global of any other type is a
//!   block with a single member.
//! - Everything is laid out with the std140/std430 rule table and compared
//!   with the contract: a nested struct whose natural layout differs becomes
//!   a [`Variant`] with padding fields; uniform matrices whose column stride
//!   differs are split into column vectors (or, as array elements, stored
//!   in a [`Columns`] struct); an array element struct whose stride is
//!   larger than its size gets a variant with trailing padding, and any other
//!   array element (scalar, vector, matrix, array) whose contract stride is
//!   larger than its natural stride is wrapped in an [`Element`] struct
//!   holding the value plus padding. Whatever the rules cannot express (a
//!   stride below the natural one, or one that is not a multiple of the
//!   element struct's alignment) is an error at the WGSL member, with the fix.
//! - Every variant, element struct and block is then laid out once more from
//!   its finished field list alone and compared with the contract offsets
//!   (element structs: size, alignment and array stride), so that a mistake
//!   in the realization shows as an error, never as wrong output.
//!
//! Errors are kept as [`Problem`]s and become diagnostics once the backend
//! has named what they mention ([`BlockRealization::diagnostics`]).

#[cfg(test)]
mod tests;

use super::Spelling;
use super::{
    capitalize, column_stride, naga_scalar, Capabilities, ColumnStyle, Field, Repr, Role, Storage,
    Stored, StructRef,
};
use crate::diag::{Diagnostic, Diagnostics, Span};
use crate::front::Parsed;
use crate::layout::rules::{round_up_saturating as round_up, RuleTable};
use crate::layout::{GlobalLayout, Layout, LayoutKind, LayoutModule, RuleSet};
use naga::{FastIndexMap, Handle};
use std::cell::OnceCell;

/// How one buffer global is realized as a block.
#[derive(Clone, Debug)]
pub struct Block {
    pub global: Handle<naga::GlobalVariable>,
    pub space: naga::AddressSpace,
    /// `Std140` or `Std430`.
    pub rules: RuleSet,
    /// The repr of the global's pointer: `Block(global)` when the WGSL type
    /// is a struct; otherwise the repr of the block's single member.
    pub repr: Repr,
    /// Per WGSL member of a struct-typed global: its repr (empty
    /// otherwise), then the members of every inlined struct member
    /// ([`Inlined`]), each run at its `first`.
    pub members: Vec<Repr>,
    /// The struct members whose own members are placed in the block, in
    /// the order inlined (an inlined member of an inlined struct after it).
    pub inlined: Vec<Inlined>,
    /// The fields, padding included, in offset order.
    pub fields: Vec<Field>,
    /// Every field carries its explicit offset (the target has offset
    /// qualifiers on top-level block members).
    pub offsets: bool,
}

/// A struct member of a block whose members are block members
/// ([`Repr::Inline`]): the form of a nested struct whose size under the
/// block's rules reaches past the member after it (std430 rounds a
/// struct's size up to its alignment; the contract need not), where the
/// struct is not in an array.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Inlined {
    /// The block member it is: a WGSL member of the global's struct, or a
    /// member of another inlined struct.
    pub parent: usize,
    /// The WGSL struct.
    pub ty: Handle<naga::Type>,
    /// Block member index of its WGSL member 0; member `k` is `first + k`.
    pub first: usize,
}

/// A struct that stores a WGSL struct in a buffer where the rules lay the
/// WGSL struct out differently from the contract.
#[derive(Clone, Debug)]
pub struct Variant {
    /// The WGSL struct.
    pub ty: Handle<naga::Type>,
    /// `Std140` or `Std430`.
    pub rules: RuleSet,
    /// `Some`: padded at the end up to this array stride (an array element).
    pub stride: Option<u64>,
    /// Per WGSL member: its repr.
    pub members: Vec<Repr>,
    /// The fields, padding included, in offset order.
    pub fields: Vec<Field>,
    /// Size under `rules` (`None`: ends in a runtime-sized array).
    pub size: Option<u64>,
    pub align: u64,
}

/// A struct of column vectors storing one matrix as an array element.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Columns {
    pub columns: u8,
    pub rows: u8,
    pub scalar: naga::Scalar,
}

/// A struct storing one array element followed by padding, for an array
/// whose contract stride is larger than its natural stride.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Element {
    /// The value field (`Role::Member(0)`) at offset 0, then padding only.
    pub fields: Vec<Field>,
    /// How the value is stored.
    pub inner: Repr,
    /// `Std140` or `Std430`.
    pub rules: RuleSet,
    /// Size under `rules`: the contract array stride.
    pub size: u64,
    pub align: u64,
}

pub use super::Declared;

/// Something the realization made, in the order it was made (a backend
/// that names them in this order names them the same way every time).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Made {
    Block(usize),
    Variant(usize),
    Columns(usize),
    Element(usize),
}

/// An error of a GLSL realization.
pub type Problem = super::Problem<Made>;

/// Every buffer global of a module realized as a block.
#[derive(Clone, Debug, Default)]
pub struct BlockRealization {
    pub blocks: Vec<Block>,
    pub variants: Vec<Variant>,
    pub columns: Vec<Columns>,
    pub elements: Vec<Element>,
    /// The variants and element structs that some block stores (directly
    /// or through another one), each after the structs it stores.
    pub order: Vec<Declared>,
    /// Everything made, in the order it was made.
    pub made: Vec<Made>,
    /// WGSL structs stored as they are (their value declaration is
    /// their storage declaration), in the order first stored.
    pub value_structs: Vec<Handle<naga::Type>>,
    /// What the rules cannot express (and internal mismatches).
    pub problems: Vec<Problem>,
}

impl BlockRealization {
    /// The block of buffer global `g`, if it is one.
    pub fn block(&self, g: Handle<naga::GlobalVariable>) -> Option<&Block> {
        self.blocks.iter().find(|b| b.global == g)
    }

    /// The fields of a declared variant or element struct.
    pub fn declared_fields(&self, d: Declared) -> Option<&[Field]> {
        match d {
            Declared::Variant(i) => self.variants.get(i).map(|v| &*v.fields),
            Declared::Element(i) => self.elements.get(i).map(|e| &*e.fields),
        }
    }

    /// The problems as diagnostics, with the types they mention spelled by
    /// `spelling`.
    pub fn diagnostics(&self, spelling: &dyn Spelling<Made>) -> Diagnostics {
        Diagnostics(self.problems.iter().map(|p| (p.0)(spelling)).collect())
    }
}

/// Realize every buffer global of `contract` as a block. `parsed` gives the
/// spans of WGSL members for diagnostics; `module` is the module written
/// (`parsed.module` or its copy with overrides baked: same types).
pub fn realize(
    parsed: &Parsed,
    module: &naga::Module,
    contract: &LayoutModule,
    caps: &Capabilities,
) -> BlockRealization {
    realize_counting(parsed, module, contract, caps).0
}

/// Realize the buffer globals of `contract` as blocks where the rules can
/// express their layout, and name the others, which a GLSL writer declares
/// as their 32-bit words (read and written at the contract's byte
/// offsets): the uniform and storage globals `words` picks, and those whose
/// layout no block can hold (a member inside the rounded-up size of a
/// nested struct, say). Push-constant blocks have no such form, so their
/// problems stay problems, as do the realization's own mismatches.
///
/// Returns the realization of the block globals, the indices (into
/// `contract.globals`) of the words globals, in order, and a note for each
/// global that is words because of its layout (the ones `words` picked are
/// the caller's to explain).
pub fn realize_or_words(
    parsed: &Parsed,
    module: &naga::Module,
    contract: &LayoutModule,
    caps: &Capabilities,
    words: &dyn Fn(&GlobalLayout) -> bool,
) -> (BlockRealization, Vec<usize>, Vec<Diagnostic>) {
    let can_be_words = |g: &GlobalLayout| {
        matches!(
            g.space,
            naga::AddressSpace::Uniform
                | naga::AddressSpace::Storage { .. }
                | naga::AddressSpace::Immediate
        )
    };
    let mut in_words: Vec<bool> = contract.globals.iter().map(words).collect();
    let mut notes = Vec::new();
    // Each round realizes the globals still held as blocks; one whose own
    // realization made a problem moves to words. A nested struct's variant
    // is made once and shared, so a problem can show up only in a later
    // round, under another global: hence the loop (it ends, since every
    // round that goes on moves at least one global).
    loop {
        // The common case, every global a block, realizes `contract` as it
        // is; only a module with words globals pays for a filtered copy.
        let filtered;
        let kept = if in_words.iter().any(|&w| w) {
            filtered = LayoutModule {
                globals: contract
                    .globals
                    .iter()
                    .zip(&in_words)
                    .filter(|(_, w)| !**w)
                    .map(|(g, _)| g.clone())
                    .collect(),
                ..contract.clone()
            };
            &filtered
        } else {
            contract
        };
        let (out, failed) = realize_counting(parsed, module, kept, caps);
        let mut moved = false;
        let mut kept_index = 0;
        for (i, g) in contract.globals.iter().enumerate() {
            if in_words[i] {
                continue;
            }
            if failed.get(kept_index).copied().unwrap_or(false) && can_be_words(g) {
                in_words[i] = true;
                moved = true;
                notes.push(words_note(parsed, module, g, caps.name));
            }
            kept_index += 1;
        }
        if !moved || out.problems.is_empty() {
            let words = (0..in_words.len()).filter(|&i| in_words[i]).collect();
            return (out, words, notes);
        }
    }
}

/// The note for buffer global `g`, declared as its words because no block
/// holds its layout.
fn words_note(
    parsed: &Parsed,
    module: &naga::Module,
    g: &GlobalLayout,
    target: &str,
) -> Diagnostic {
    let rules = match g.space {
        naga::AddressSpace::Uniform => "std140",
        _ => "std430",
    };
    let mut note = Diagnostic::warning(format!(
        "`{}` is declared as its 32-bit words in GLSL ({target}): no {rules} block holds its layout",
        g.name
    ))
    .at(
        super::d3d::global_span(parsed, module, g),
        "read and written at the contract's byte offsets",
    )
    .note(if g.space == naga::AddressSpace::Uniform && parsed.uniform_standard {
        "with `uniform_buffer_standard_layout` a uniform takes the storage layout rules, which std140 cannot declare (arrays and structs not rounded to 16 bytes); the words form keeps every byte where the contract puts it"
    } else {
        "a member's contract offset lies where GLSL's rules place the member before it (a nested struct's size rounded up to its alignment, in an array element, where the struct cannot be inlined into the block), or in a gap no padding member fills; the words form keeps every byte where the contract puts it"
    })
    .note(if g.space == naga::AddressSpace::Immediate {
        "--target reflect marks the block \"words\": true; declare the push-constant range with the block's size rounded up to 16 bytes (the block is an array of uvec4); the other targets are not affected"
    } else if g.space == naga::AddressSpace::Uniform {
        "--target reflect marks the buffer \"words\": true; bind the uniform buffer with its size rounded up to 16 bytes (the block is an array of uvec4); the other targets are not affected"
    } else {
        "--target reflect marks the buffer \"words\": true; bind a storage buffer with its size rounded up to 4 bytes; the other targets are not affected"
    });
    note.severity = crate::diag::Severity::Note;
    note
}

/// [`realize`], also saying per global of `contract` whether realizing it
/// made a problem.
fn realize_counting(
    parsed: &Parsed,
    module: &naga::Module,
    contract: &LayoutModule,
    caps: &Capabilities,
) -> (BlockRealization, Vec<bool>) {
    let pads = [RuleSet::Std140, RuleSet::Std430].map(|rules| (rules, OnceCell::new()));
    let mut r = Realizer {
        parsed,
        module,
        contract,
        caps,
        pads,
        out: BlockRealization::default(),
        structs: FastIndexMap::default(),
    };
    let mut failed = Vec::with_capacity(contract.globals.len());
    for g in &contract.globals {
        let before = r.out.problems.len();
        r.block(g);
        failed.push(r.out.problems.len() > before);
    }
    r.verify();
    r.out.order = r.stored_order();
    (r.out, failed)
}

/// One type padding fields may have, with its size and alignment.
struct Pad {
    ty: Storage,
    size: u64,
    align: u64,
}

/// The padding types, largest first: 4- and 2-component vectors and
/// scalars of each padding scalar, each (size, alignment) once.
fn padding_choices(table: &RuleTable, scalars: &[naga::Scalar]) -> Vec<Pad> {
    let mut out: Vec<Pad> = Vec::new();
    for &s in scalars {
        for ty in [
            Storage::Vector(4, s),
            Storage::Vector(2, s),
            Storage::Scalar(s),
        ] {
            let (size, align) = ty.layout(table);
            let size = size.unwrap_or(0);
            if !out.iter().any(|p| p.size == size && p.align == align) {
                out.push(Pad { ty, size, align });
            }
        }
    }
    out
}

/// Where a member is, for diagnostics. Built for every member placed, but
/// read only when placing it fails, so it borrows everything, and its
/// spans and message texts are looked up by [`Realizer::origin`] on demand.
#[derive(Clone)]
struct Site<'s> {
    /// The WGSL struct whose member this is; `None`: the member is a
    /// non-struct global's value, and `member` is the global's name.
    of: Option<(Handle<naga::Type>, &'s str)>,
    /// The member name as written in WGSL (`x`), for fixes.
    member: &'s str,
    /// A secondary label at the global whose block holds this member.
    global: Option<&'s GlobalSite<'s>>,
}

/// The global whose block is being realized, for the secondary label of
/// errors about its members.
struct GlobalSite<'s> {
    handle: Handle<naga::GlobalVariable>,
    name: &'s str,
    /// `a uniform`, `a storage`, `a push-constant`.
    space: &'static str,
    rules: RuleSet,
    target: &'static str,
}

/// A [`Site`] owned, for a [`Problem`].
struct Origin {
    span: Span,
    /// `member `x` of `S``, `global `g``.
    what: String,
    member: String,
    global: Option<(Span, String)>,
}

impl Origin {
    fn diagnostic(&self, message: String, label: String, notes: Vec<String>) -> Diagnostic {
        let mut d = Diagnostic::inexpressible(message).at(self.span.clone(), label);
        if let Some((span, label)) = &self.global {
            if *span != self.span {
                d = d.also(span.clone(), label.clone());
            }
        }
        for n in notes {
            d = d.note(n);
        }
        d
    }

    /// [`Self::what`], capitalized.
    fn what_capitalized(&self) -> String {
        capitalize(&self.what)
    }
}

/// Where [`Realizer::place_members`] puts member reprs and inlined structs.
struct Members<'m> {
    reprs: &'m mut Vec<Repr>,
    inlined: &'m mut Vec<Inlined>,
}

/// The state before one try at placing a block member, to take the try
/// back: the placer's, the errors', and the memoized structs'.
struct Attempt<'s> {
    fields: usize,
    cur: Option<u64>,
    last: Option<(&'s str, usize)>,
    max_align: u64,
    problems: usize,
    structs: usize,
}

impl<'s> Attempt<'s> {
    fn start(r: &Realizer<'_>, p: &Placer<'s>) -> Self {
        Attempt {
            fields: p.fields.len(),
            cur: p.cur,
            last: p.last,
            max_align: p.max_align,
            problems: r.out.problems.len(),
            structs: r.structs.len(),
        }
    }

    /// Restore the placer, and return the errors made since: the structs
    /// that failed since are forgotten, so that a later use reports them
    /// again (those that worked stay: what they made is still right).
    fn undo(self, r: &mut Realizer<'_>, p: &mut Placer<'s>) -> Vec<Problem> {
        p.fields.truncate(self.fields);
        p.cur = self.cur;
        p.last = self.last;
        p.max_align = self.max_align;
        let mut i = 0;
        r.structs.retain(|_, info| {
            let keep = i < self.structs || info.is_some();
            i += 1;
            keep
        });
        r.out.problems.drain(self.problems..).collect()
    }
}

/// A struct's realization under one rule set: its storage type and repr.
#[derive(Clone)]
struct StructInfo {
    storage: Storage,
    repr: Repr,
}

/// Lays out fields one after another, as the target does (with or without
/// explicit offsets), inserting padding fields where needed.
struct Placer<'s> {
    table: &'static RuleTable,
    rules: RuleSet,
    /// Explicit offsets are written: fields go to their contract offset.
    offsets: bool,
    fields: Vec<Field>,
    /// End of the last field; `None` after a runtime-sized array.
    cur: Option<u64>,
    /// The last real member: its WGSL name and its index in `fields`.
    last: Option<(&'s str, usize)>,
    max_align: u64,
    /// Padding fields may not align to more than this (raising a struct's
    /// alignment would move it in its parent).
    pad_align: u64,
}

impl Placer<'_> {
    fn new(rules: RuleSet, offsets: bool, pad_align: u64) -> Self {
        Placer {
            table: rules.table(),
            rules,
            offsets,
            fields: Vec::new(),
            cur: Some(0),
            last: None,
            max_align: 1,
            pad_align,
        }
    }

    /// Padding fields from `cur` so that a field of alignment `align` lands
    /// at `target` (as close as the padding types `pads` allow).
    fn pad(&mut self, pads: &[Pad], mut cur: u64, target: u64, align: u64) {
        while round_up(align, cur) < target {
            let pick = pads
                .iter()
                .find(|p| p.align <= self.pad_align && round_up(p.align, cur) + p.size <= target);
            let Some(pad) = pick else {
                break;
            };
            let at = round_up(pad.align, cur);
            self.fields.push(Field {
                offset: at,
                ty: pad.ty.clone(),
                role: Role::Padding,
            });
            self.max_align = self.max_align.max(pad.align);
            cur = at + pad.size;
        }
        self.cur = Some(cur);
    }
}

struct Realizer<'a> {
    parsed: &'a Parsed,
    module: &'a naga::Module,
    contract: &'a LayoutModule,
    caps: &'a Capabilities,
    /// The padding types under each rule set, made when first needed
    /// (most modules need none).
    pads: [(RuleSet, OnceCell<Vec<Pad>>); 2],
    out: BlockRealization,
    /// Memoized struct realizations per rule set; `None` once failed (reported).
    structs: FastIndexMap<(Handle<naga::Type>, RuleSet), Option<StructInfo>>,
}

impl<'a> Realizer<'a> {
    fn pads(&self, rules: RuleSet) -> &[Pad] {
        let scalars = self.caps.padding_scalars;
        self.pads
            .iter()
            .find(|(r, _)| *r == rules)
            .map_or(&[], |(r, p)| {
                p.get_or_init(|| padding_choices(r.table(), scalars))
                    .as_slice()
            })
    }

    /// Padding fields in `p` (see [`Placer::pad`]).
    fn pad(&self, p: &mut Placer, cur: u64, target: u64, align: u64) {
        let pads = self.pads(p.rules);
        p.pad(pads, cur, target, align);
    }

    /// Whether 2-byte padding fields are available.
    fn pad16(&self) -> bool {
        self.caps.padding_scalars.iter().any(|s| s.width == 2)
    }

    /// The span of global `name`.
    fn global_span(&self, handle: Handle<naga::GlobalVariable>, name: &str) -> Span {
        self.parsed
            .annotations
            .globals
            .get(name)
            .map(|a| a.name_span.clone())
            .or_else(|| self.module.global_variables.get_span(handle).to_range())
            .unwrap_or(0..0)
    }

    /// The span a site's errors point at: the WGSL member, or the type of
    /// a non-struct global (its name where the type is not written).
    fn site_span(&self, site: &Site) -> Span {
        match (site.of, site.global) {
            (Some((h, of)), _) => self.member_span(h, of, site.member),
            (None, Some(g)) => self
                .parsed
                .annotations
                .globals
                .get(g.name)
                .and_then(|a| a.ty.as_ref().map(|t| t.span.clone()))
                .unwrap_or_else(|| self.global_span(g.handle, g.name)),
            (None, None) => 0..0,
        }
    }

    /// A [`Site`]'s spans and texts, owned for a [`Problem`].
    fn origin(&self, site: &Site) -> Origin {
        let what = match site.of {
            Some((_, of)) => format!("member `{}` of `{of}`", site.member),
            None => format!("global `{}`", site.member),
        };
        let global = site.global.map(|g| {
            (
                self.global_span(g.handle, g.name),
                format!(
                    "`{}` is {} block ({}) in {}",
                    g.name,
                    g.space,
                    g.rules.name(),
                    g.target
                ),
            )
        });
        Origin {
            span: self.site_span(site),
            what,
            member: site.member.to_string(),
            global,
        }
    }

    /// The span of WGSL member `member` of struct `name`.
    fn member_span(&self, h: Handle<naga::Type>, name: &str, member: &str) -> Span {
        super::member_span(self.parsed, self.module, h, name, member)
    }

    /// Record an error at `site`; `text` makes its message, label and notes
    /// once the backend names the types they mention.
    fn error(
        &mut self,
        site: &Site,
        text: impl Fn(&dyn Spelling<Made>, &Origin) -> (String, String, Vec<String>) + 'static,
    ) {
        let origin = self.origin(site);
        self.out.problems.push(Problem::new(move |s| {
            let (message, label, notes) = text(s, &origin);
            origin.diagnostic(message, label, notes)
        }));
    }

    // -- blocks -------------------------------------------------------------

    fn block(&mut self, g: &'a GlobalLayout) {
        let (rules, space) = match g.space {
            naga::AddressSpace::Uniform => (RuleSet::Std140, "a uniform"),
            naga::AddressSpace::Storage { .. } => (RuleSet::Std430, "a storage"),
            naga::AddressSpace::Immediate => (self.caps.push_constant_rules, "a push-constant"),
            _ => return,
        };
        let contract: &'a LayoutModule = self.contract;
        let sl = match &g.layout.kind {
            LayoutKind::Struct(h) => match contract.structs.get(h) {
                Some(sl) => Some((*h, sl)),
                None => return,
            },
            _ => None,
        };
        self.out.made.push(Made::Block(self.out.blocks.len()));
        let global_site = GlobalSite {
            handle: g.handle,
            name: &g.name,
            space,
            rules,
            target: self.caps.name,
        };
        // Padding never raises a block's alignment past what it needs.
        let mut placer = Placer::new(rules, self.caps.member_offsets, u64::MAX);
        let mut members = Vec::new();
        let mut inlined = Vec::new();
        let repr = match sl {
            Some((h, sl)) => {
                placer.fields.reserve(sl.slots.len());
                members.resize(sl.members().count(), Repr::Plain);
                let mut into = Members {
                    reprs: &mut members,
                    inlined: &mut inlined,
                };
                self.place_members(
                    &mut placer,
                    &global_site,
                    (h, sl),
                    0,
                    g.layout.size,
                    0,
                    &mut into,
                );
                Repr::Block(g.handle)
            }
            None => {
                let site = Site {
                    of: None,
                    member: &g.name,
                    global: Some(&global_site),
                };
                self.place_member(&mut placer, 0, &g.layout, 0, &site)
                    .unwrap_or(Repr::Plain)
            }
        };
        self.out.blocks.push(Block {
            global: g.handle,
            space: g.space,
            rules,
            repr,
            members,
            inlined,
            fields: placer.fields,
            offsets: placer.offsets,
        });
    }

    /// Place the members of struct `sl` (`h`) at contract offset `at` as
    /// block members `first`, `first + 1`, ...: their reprs go to `into`.
    /// `end` is where the next member of the block starts (the block's
    /// size after its last member; `None`: nothing follows).
    ///
    /// A struct member placed whole may reach past the member after it
    /// (GLSL rounds a struct's size up to its alignment; the contract need
    /// not), or may not be placeable whole at all. Where it is not in an
    /// array, it is then placed once more inlined: its own members become
    /// block members, each at its contract offset. Where that fails too,
    /// the first try stands, with its errors.
    #[allow(clippy::too_many_arguments)]
    fn place_members<'s>(
        &mut self,
        p: &mut Placer<'s>,
        global: &'s GlobalSite<'s>,
        (h, sl): (Handle<naga::Type>, &'s crate::layout::StructLayout),
        at: u64,
        end: Option<u64>,
        first: usize,
        into: &mut Members<'_>,
    ) where
        'a: 's,
    {
        let contract: &'a LayoutModule = self.contract;
        let mut members = sl.members().enumerate().peekable();
        while let Some((k, m)) = members.next() {
            let site = Site {
                of: Some((h, &sl.name)),
                member: &m.name,
                global: Some(global),
            };
            let index = first + k;
            let offset = at + m.offset;
            let next = members.peek().map_or(end, |(_, n)| Some(at + n.offset));
            let before = Attempt::start(self, p);
            let placed = self.place_member(p, index, &m.layout, offset, &site);
            let overruns = placed.is_some() && matches!((p.cur, next), (Some(c), Some(n)) if c > n);
            let inner = match m.layout.kind {
                LayoutKind::Struct(sh) => contract.structs.get(&sh).map(|ssl| (sh, ssl)),
                _ => None,
            };
            let Some((sh, ssl)) = inner.filter(|_| placed.is_none() || overruns) else {
                if let (Some(slot), Some(r)) = (into.reprs.get_mut(index), placed) {
                    *slot = r;
                }
                continue;
            };
            // Inline: take back the first try, keeping its errors aside.
            let failed = before.undo(self, p);
            let (sub_first, inlined) = (into.reprs.len(), into.inlined.len());
            let count = ssl.members().count();
            into.reprs.resize(sub_first + count, Repr::Plain);
            into.inlined.push(Inlined {
                parent: index,
                ty: sh,
                first: sub_first,
            });
            let retry = Attempt::start(self, p);
            self.place_members(p, global, (sh, ssl), offset, next, sub_first, into);
            let repr = if self.out.problems.len() == retry.problems {
                Some(Repr::Inline {
                    global: global.handle,
                    first: sub_first,
                    count,
                })
            } else {
                drop(retry.undo(self, p));
                into.reprs.truncate(sub_first);
                into.inlined.truncate(inlined);
                self.out.problems.extend(failed);
                // Placed whole once more (its structs are made already):
                // the member after it reports the overlap.
                if placed.is_some() {
                    self.place_member(p, index, &m.layout, offset, &site)
                } else {
                    None
                }
            };
            if let (Some(slot), Some(r)) = (into.reprs.get_mut(index), repr) {
                *slot = r;
            }
        }
    }

    // -- members ------------------------------------------------------------

    /// Place WGSL member `member` (or a non-struct global's value, 0) at
    /// contract offset `offset`; returns its repr, or `None` after an error.
    fn place_member<'s>(
        &mut self,
        p: &mut Placer<'s>,
        member: usize,
        layout: &Layout,
        offset: u64,
        site: &Site<'s>,
    ) -> Option<Repr> {
        let stored = self.stored(layout, p.rules, false, site)?;
        let (fields, repr) = stored.into_fields(member, offset);
        for f in fields {
            self.place_field(p, f.role, f.ty, f.offset, site)?;
        }
        Some(repr)
    }

    /// Put one field at contract offset `target`, with padding before it
    /// where offsets are not written; report what the rules cannot express.
    fn place_field<'s>(
        &mut self,
        p: &mut Placer<'s>,
        role: Role,
        ty: Storage,
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
            offset: target,
            ty,
            role,
        });
        Some(())
    }

    fn placement_error(
        &mut self,
        p: &Placer,
        ty: &Storage,
        align: u64,
        cur: u64,
        target: u64,
        site: &Site,
    ) {
        let rules = p.rules.name();
        let how = if p.offsets {
            "so `layout(offset)` cannot express it".to_string()
        } else if self.caps.member_offsets {
            "so GLSL cannot express it (members of nested structs cannot carry `layout(offset)`, and padding only moves members later)".to_string()
        } else {
            format!(
                "so GLSL cannot express it ({} has no offset qualifiers, and padding only moves members later)",
                self.caps.name
            )
        };
        let ty = ty.clone();
        if !target.is_multiple_of(align) {
            let fixed = round_up(align, target);
            self.error(site, move |s, o| {
                (
                    format!(
                        "{} has byte offset {target}. GLSL {rules} aligns `{}` to {align} bytes, {how}.",
                        o.what_capitalized(),
                        s.storage(&ty)
                    ),
                    format!("offset {target} is not a multiple of {align}"),
                    vec![format!(
                        "help: add `@align({align})` to member `{}` so that its offset becomes a multiple of {align} (offset {fixed} or later)",
                        o.member
                    )],
                )
            });
            return;
        }
        if cur > target {
            let last = p.last.and_then(|(name, i)| Some((name, p.fields.get(i)?)));
            let (prev, prev_ty, prev_offset) = match last {
                Some((name, f)) => (name.to_string(), f.ty.clone(), f.offset),
                None => ("the member before it".to_string(), ty.clone(), 0),
            };
            let prev_stride = prev_ty.stride(p.table).map_or(0, |s| s.0);
            // The smallest power-of-two @align that moves the member past
            // the end of the previous one wherever that one ends.
            let fix_align = (0..16)
                .map(|k| 1u64 << k)
                .find(|a| *a >= align && round_up(*a, prev_offset + 1) >= cur)
                .unwrap_or(align);
            self.error(site, move |s, o| {
                let why = match &prev_ty {
                    Storage::Struct { size, .. } => format!(
                        "GLSL {rules} rounds the size of struct `{}` up to {} bytes",
                        s.storage(&prev_ty),
                        size.unwrap_or(0)
                    ),
                    Storage::Array(..) => format!(
                        "GLSL {rules} gives `{}` a stride of {prev_stride} bytes",
                        s.storage(&prev_ty),
                    ),
                    _ => format!("`{}` ends there in GLSL {rules}", s.storage(&prev_ty)),
                };
                (
                    format!(
                        "{} has byte offset {target}, inside the previous member `{prev}`, which ends at byte {cur} in GLSL ({why}), {how}.",
                        o.what_capitalized()
                    ),
                    format!("offset {target} overlaps `{prev}` (GLSL end {cur})"),
                    vec![format!(
                        "help: add `@align({fix_align})` to member `{}`, or `@size({})` to member `{prev}`, so that `{}` starts at or after byte {cur}",
                        o.member,
                        cur - prev_offset,
                        o.member
                    )],
                )
            });
            return;
        }
        let gap = target.saturating_sub(cur);
        let no_pad16 = !gap.is_multiple_of(4) && !self.pad16();
        let target_name = self.caps.name;
        let natural = round_up(align, cur);
        self.error(site, move |s, o| {
            let note = if no_pad16 {
                format!(
                    "help: GLSL {target_name} has no 2-byte padding type (`uint16_t` storage needs GL_EXT_shader_16bit_storage, Vulkan only); add `@align(4)` to member `{}`, or an `@size` to the member before it, so that the gap before it is a multiple of 4 bytes",
                    o.member,
                )
            } else {
                format!("help: add `@align({})` to member `{}`", align.max(4), o.member)
            };
            (
                format!(
                    "{} has byte offset {target}; GLSL {rules} would place `{}` at offset {natural} and the {gap} bytes before it cannot be filled with padding members, {how}.",
                    o.what_capitalized(),
                    s.storage(&ty),
                ),
                format!("offset {target} cannot be expressed"),
                vec![note],
            )
        });
    }

    /// The storage of a member or array element of contract `layout`.
    fn stored(
        &mut self,
        layout: &Layout,
        rules: RuleSet,
        in_array: bool,
        site: &Site,
    ) -> Option<Stored> {
        let table = rules.table();
        match &layout.kind {
            LayoutKind::Scalar(s) | LayoutKind::Atomic(s) => {
                Some(Stored::One(Storage::Scalar(naga_scalar(*s)), Repr::Plain))
            }
            LayoutKind::Vector { size, scalar } => Some(Stored::One(
                Storage::Vector(*size, naga_scalar(*scalar)),
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
                        Storage::Matrix {
                            columns,
                            rows,
                            scalar,
                        },
                        Repr::Plain,
                    ));
                }
                // Consecutive column vectors must land on the contract stride.
                let (vsize, valign) = table.vector(rows, scalar.width);
                let column_stride = *column_stride;
                if round_up(valign, vsize) != column_stride {
                    let r = rules.name();
                    self.error(site, move |_, o| {
                        (
                            format!(
                                "{} is a matrix with a column stride of {column_stride} bytes, which GLSL {r} cannot express.",
                                o.what_capitalized(),
                            ),
                            format!("column stride {column_stride}"),
                            vec!["help: store the columns as separate `vec4` members".to_string()],
                        )
                    });
                    return None;
                }
                let repr = |style| Repr::Columns {
                    columns,
                    rows,
                    scalar,
                    style,
                };
                if !in_array {
                    return Some(Stored::Split {
                        column: Storage::Vector(rows, scalar),
                        columns,
                        column_stride,
                        repr: repr(ColumnStyle::Members),
                    });
                }
                let of = self.columns(columns, rows, scalar);
                let end = u64::from(columns - 1) * column_stride + vsize;
                let align = table.struct_align(valign);
                let size = table.struct_size(end, align);
                Some(Stored::One(
                    Storage::Struct { of, size, align },
                    repr(ColumnStyle::Wrapper),
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
                let natural = table
                    .array_stride(esize.unwrap_or(0), ealign)
                    .map_or(0, |s| s.0);
                if natural != *stride {
                    let mut fixed = false;
                    if let (LayoutKind::Struct(h), true) = (&element.kind, natural < *stride) {
                        if let Some((t, r)) = self.stride_variant(*h, rules, *stride) {
                            ety = t;
                            erepr = r;
                            fixed = true;
                        }
                    }
                    let wrappable = !matches!(element.kind, LayoutKind::Struct(_));
                    if !fixed && wrappable && natural < *stride {
                        if let Some((t, r)) = self.element_wrapper(&ety, &erepr, rules, *stride) {
                            ety = t;
                            erepr = r;
                            fixed = true;
                        }
                    }
                    if !fixed {
                        self.stride_error(&ety, element, *stride, natural, rules, site);
                        return None;
                    }
                }
                let repr = if erepr == Repr::Plain {
                    Repr::Plain
                } else {
                    Repr::Array(Box::new(erepr))
                };
                Some(Stored::One(Storage::Array(Box::new(ety), *count), repr))
            }
            LayoutKind::Struct(h) => {
                let info = self.struct_info(*h, rules)?;
                Some(Stored::One(info.storage, info.repr))
            }
        }
    }

    fn stride_error(
        &mut self,
        ety: &Storage,
        element: &Layout,
        stride: u64,
        natural: u64,
        rules: RuleSet,
        site: &Site,
    ) {
        let r = rules.name();
        let small_element = rules == RuleSet::Std140
            && matches!(
                element.kind,
                LayoutKind::Scalar(_) | LayoutKind::Vector { .. }
            );
        let walign = rules.table().struct_align(ety.layout(rules.table()).1);
        let ety = ety.clone();
        self.error(site, move |s, o| {
            let elem = s.storage(&ety);
            let mut notes = Vec::new();
            if stride < natural {
                notes.push(format!(
                    "help: give the array `@stride({natural})` (or remove its `@stride`), so that its elements are {natural} bytes apart as GLSL {r} requires"
                ));
                if small_element {
                    notes.push(
                        "help: or use 16-byte elements, e.g. `vec4<f32>`, or wrap the element in a struct with `@size(16)`".to_string(),
                    );
                }
            } else {
                notes.push(format!(
                    "help: wrap the element in a struct with `@size({stride})`, or remove the `@stride`, so that GLSL {r} gives it the same stride"
                ));
                if !stride.is_multiple_of(walign) {
                    notes.push(format!(
                        "note: GLSL {r} can pad elements of `{elem}` only to a multiple of {walign} bytes (a stride of {} or {})",
                        round_up(walign, stride) - walign,
                        round_up(walign, stride)
                    ));
                }
            }
            (
                format!(
                    "Array stride of {} is {stride} bytes, but GLSL {r} lays out arrays of `{elem}` with a stride of {natural} bytes; GLSL cannot declare another stride.",
                    o.what
                ),
                format!("stride {stride}, GLSL {r} stride {natural}"),
                notes,
            )
        });
    }

    /// The column struct of a matrix shape (made once per shape).
    fn columns(&mut self, columns: u8, rows: u8, scalar: naga::Scalar) -> StructRef {
        let shape = Columns {
            columns,
            rows,
            scalar,
        };
        if let Some(i) = self.out.columns.iter().position(|c| *c == shape) {
            return StructRef::Columns(i);
        }
        let i = self.out.columns.len();
        self.out.columns.push(shape);
        self.out.made.push(Made::Columns(i));
        StructRef::Columns(i)
    }

    /// An element struct storing `ety` (repr `erepr`) followed by padding up
    /// to `stride` bytes, for an array of non-struct elements whose contract
    /// stride is larger than the natural stride. `None` where the rules
    /// cannot pad to `stride`: below the element size, or not a multiple of
    /// the struct's alignment (std140 rounds structs up), or a gap no
    /// padding type fills.
    fn element_wrapper(
        &mut self,
        ety: &Storage,
        erepr: &Repr,
        rules: RuleSet,
        stride: u64,
    ) -> Option<(Storage, Repr)> {
        let table = rules.table();
        let (esize, ealign) = ety.layout(table);
        let esize = esize?;
        let walign = table.struct_align(ealign);
        if stride < esize || !stride.is_multiple_of(walign) {
            return None;
        }
        let existing = self.out.elements.iter().position(|e| {
            e.rules == rules && e.size == stride && e.fields.first().is_some_and(|f| f.ty == *ety)
        });
        if let Some(i) = existing {
            let e = &self.out.elements[i];
            return Some((
                Storage::Struct {
                    of: StructRef::Element(i),
                    size: Some(e.size),
                    align: e.align,
                },
                Repr::Wrapped {
                    element: i,
                    inner: Box::new(e.inner.clone()),
                },
            ));
        }
        // Padding must not raise the element's alignment: that would move
        // the array in its parent.
        let mut p = Placer::new(rules, false, walign);
        p.fields.push(Field {
            offset: 0,
            ty: ety.clone(),
            role: Role::Member(0),
        });
        p.max_align = ealign;
        self.pad(&mut p, esize, stride, 1);
        let align = table.struct_align(p.max_align);
        let size = p.cur.and_then(|end| table.struct_size(end, align));
        let array_stride = size.and_then(|s| table.array_stride(s, align)).map(|s| s.0);
        if size != Some(stride) || array_stride != Some(stride) || align != walign {
            return None;
        }
        let index = self.out.elements.len();
        self.out.made.push(Made::Element(index));
        self.out.order.push(Declared::Element(index));
        self.out.elements.push(Element {
            fields: p.fields,
            inner: erepr.clone(),
            rules,
            size: stride,
            align,
        });
        Some((
            Storage::Struct {
                of: StructRef::Element(index),
                size: Some(stride),
                align,
            },
            Repr::Wrapped {
                element: index,
                inner: Box::new(erepr.clone()),
            },
        ))
    }

    /// The realization of struct `h` under `rules` (memoized).
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

    /// A variant of struct `h` with trailing padding up to `stride` bytes,
    /// for an array whose contract stride is larger than the struct's size.
    fn stride_variant(
        &mut self,
        h: Handle<naga::Type>,
        rules: RuleSet,
        stride: u64,
    ) -> Option<(Storage, Repr)> {
        let existing = self
            .out
            .variants
            .iter()
            .position(|v| v.ty == h && v.rules == rules && v.size == Some(stride));
        if let Some(i) = existing {
            let v = &self.out.variants[i];
            return Some((
                Storage::Struct {
                    of: StructRef::Variant(i),
                    size: v.size,
                    align: v.align,
                },
                Repr::Variant(i),
            ));
        }
        let info = self.compute_struct(h, rules, Some(stride))?;
        match &info.storage {
            Storage::Struct { size, .. } if *size == Some(stride) => {
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
        let table = rules.table();
        // Padding never raises the struct's alignment past its own.
        let mut p = Placer::new(rules, false, table.struct_align(sl.align));
        p.fields.reserve(sl.slots.len());
        let mut members = Vec::with_capacity(sl.slots.len());
        let mut changed = size_to.is_some();
        let mut failed = false;
        for (i, m) in sl.members().enumerate() {
            let site = Site {
                of: Some((h, &sl.name)),
                member: &m.name,
                global: None,
            };
            let before = p.fields.len();
            match self.place_member(&mut p, i, &m.layout, m.offset, &site) {
                Some(r) => {
                    if r != Repr::Plain {
                        changed = true;
                    }
                    // Padding before the member, or a split matrix.
                    if p.fields.len() != before + 1 || p.fields[before].is_padding() {
                        changed = true;
                    }
                    members.push(r);
                }
                None => {
                    failed = true;
                    members.push(Repr::Plain);
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
            if !self.out.value_structs.contains(&h) {
                self.out.value_structs.push(h);
            }
            return Some(StructInfo {
                storage: Storage::Struct {
                    of: StructRef::Value(h),
                    size,
                    align,
                },
                repr: Repr::Plain,
            });
        }
        let index = self.out.variants.len();
        self.out.made.push(Made::Variant(index));
        self.out.order.push(Declared::Variant(index));
        self.out.variants.push(Variant {
            ty: h,
            rules,
            stride: size_to,
            members,
            fields: p.fields,
            size,
            align,
        });
        Some(StructInfo {
            storage: Storage::Struct {
                of: StructRef::Variant(index),
                size,
                align,
            },
            repr: Repr::Variant(index),
        })
    }

    /// Lay out every variant, element struct and block again from its
    /// finished fields alone, and compare with the offsets recorded from
    /// the contract.
    fn verify(&mut self) {
        let mut problems: Vec<(Made, Mismatch)> = Vec::new();
        for (i, v) in self.out.variants.iter().enumerate() {
            if let Some(bad) = first_mismatch(&v.fields, v.rules.table(), false) {
                problems.push((Made::Variant(i), bad));
            }
        }
        for (i, e) in self.out.elements.iter().enumerate() {
            if let Some(bad) = element_mismatch(e) {
                problems.push((Made::Element(i), bad));
            }
        }
        for (i, b) in self.out.blocks.iter().enumerate() {
            if let Some(bad) = first_mismatch(&b.fields, b.rules.table(), b.offsets) {
                problems.push((Made::Block(i), bad));
            }
        }
        for (what, bad) in problems {
            self.out.problems.push(Problem::new(move |s| {
                let kind = match what {
                    Made::Variant(_) => "variant",
                    Made::Element(_) => "element struct",
                    Made::Block(_) | Made::Columns(_) => "block",
                };
                let detail = match &bad {
                    Mismatch::Misplaced { field, offset } => {
                        format!("`{}` at offset {offset}", s.field(what, *field))
                    }
                    Mismatch::Moved { field, at, offset } => format!(
                        "`{}` is at offset {at}, the contract says {offset}",
                        s.field(what, *field)
                    ),
                    Mismatch::Value => "its value member is not `v` at offset 0".to_string(),
                    Mismatch::Size {
                        size,
                        align,
                        stride,
                        want_size,
                        want_align,
                    } => format!(
                        "size {size}, alignment {align}, array stride {stride}; the plan says size and stride {want_size}, alignment {want_align}"
                    ),
                };
                Diagnostic::internal(format!(
                    "internal error: the GLSL layout of {kind} `{}`: {detail} differs from the contract",
                    s.name(what)
                ))
                .note("this is a bug in stride's GLSL writer; please report it")
            }));
        }
    }

    /// [`BlockRealization::order`] without the entries no block stores.
    /// Code reaches a variant only through the block members that store
    /// it, so one no block stores is never named: for example the variant
    /// made for an array element before the array's stride asked for a
    /// larger stride variant.
    fn stored_order(&self) -> Vec<Declared> {
        fn refs(ty: &Storage, out: &mut Vec<StructRef>) {
            match ty {
                Storage::Array(inner, _) => refs(inner, out),
                Storage::Struct { of, .. } => out.push(*of),
                _ => {}
            }
        }
        let order = &self.out.order;
        if order.is_empty() {
            return Vec::new();
        }
        let mut stored_refs = Vec::new();
        for f in self.out.blocks.iter().flat_map(|b| &b.fields) {
            refs(&f.ty, &mut stored_refs);
        }
        // Each entry comes after the entries it stores, so walking
        // backwards sees every user of an entry before the entry.
        let mut stored = vec![false; order.len()];
        for (k, d) in order.iter().enumerate().rev() {
            let (of, fields) = match *d {
                Declared::Variant(i) => (StructRef::Variant(i), self.out.declared_fields(*d)),
                Declared::Element(i) => (StructRef::Element(i), self.out.declared_fields(*d)),
            };
            if stored_refs.contains(&of) {
                stored[k] = true;
                for f in fields.unwrap_or(&[]) {
                    refs(&f.ty, &mut stored_refs);
                }
            }
        }
        order
            .iter()
            .zip(stored)
            .filter_map(|(d, s)| s.then_some(*d))
            .collect()
    }
}

/// Whether a matrix of contract `layout` must be split under `rules`: its
/// contract column stride differs from the natural column stride.
pub fn needs_split(layout: &Layout, rules: RuleSet) -> bool {
    match layout.kind {
        LayoutKind::Matrix {
            rows,
            scalar,
            column_stride,
            ..
        } => column_stride_of(rules, rows, scalar.width) != column_stride,
        _ => false,
    }
}

fn column_stride_of(rules: RuleSet, rows: u8, width: u8) -> u64 {
    column_stride(rules.table(), rows, width).0
}

/// A field whose layout from the finished field list differs from the
/// recorded one.
enum Mismatch {
    /// An explicit offset the rules reject.
    Misplaced { field: usize, offset: u64 },
    /// The natural offset `at` is not the recorded `offset`.
    Moved { field: usize, at: u64, offset: u64 },
    /// An element struct's value is not its only real field at offset 0.
    Value,
    /// An element struct's size, alignment or stride is not its recorded one.
    Size {
        size: u64,
        align: u64,
        stride: u64,
        want_size: u64,
        want_align: u64,
    },
}

/// Lay out an element struct from its fields alone: its value must be at
/// offset 0 and the only real field, and its size, alignment and array
/// stride must be the recorded stride.
fn element_mismatch(e: &Element) -> Option<Mismatch> {
    let table = e.rules.table();
    if let Some(bad) = first_mismatch(&e.fields, table, false) {
        return Some(bad);
    }
    let mut real = e.fields.iter().filter(|f| !f.is_padding());
    let value = real.next();
    if real.next().is_some() || value.is_none_or(|v| v.role != Role::Member(0) || v.offset != 0) {
        return Some(Mismatch::Value);
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
        return Some(Mismatch::Size {
            size,
            align,
            stride,
            want_size: e.size,
            want_align: e.align,
        });
    }
    None
}

/// The first field whose natural (or, with explicit offsets, checked)
/// offset differs from its recorded offset.
fn first_mismatch(fields: &[Field], table: &RuleTable, offsets: bool) -> Option<Mismatch> {
    let mut cur = 0u64;
    for (i, f) in fields.iter().enumerate() {
        let (size, align) = f.ty.layout(table);
        let at = if offsets {
            if !f.offset.is_multiple_of(align) || f.offset < cur {
                return Some(Mismatch::Misplaced {
                    field: i,
                    offset: f.offset,
                });
            }
            f.offset
        } else {
            round_up(align, cur)
        };
        if at != f.offset {
            return Some(Mismatch::Moved {
                field: i,
                at,
                offset: f.offset,
            });
        }
        cur = at + size.unwrap_or(0);
    }
    None
}
