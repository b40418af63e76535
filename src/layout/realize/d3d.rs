//! D3D constant buffers (HLSL and Slang): the contract realized under
//! cbuffer packing, as data.
//!
//! - Uniform globals (and push constants) are cbuffers. The top-level
//!   members of a struct-typed global are the cbuffer's members, each at its
//!   contract offset with a `packoffset` ([`Cbuffer::packoffsets`]), unless
//!   one of them is at an offset `packoffset` cannot name (a 16-bit member
//!   at an offset that is not a multiple of 4): then padding fields place
//!   them all. A global of any other type is a cbuffer with a single member.
//! - Everything is packed by D3D's rules ([`super::cbuffer`]) and compared
//!   with the contract: a nested struct whose packing differs becomes a
//!   [`Variant`] with padding fields (a struct that packs as the contract
//!   says is a variant too, marked [`Variant::value`], so that its members
//!   are reached like a variant's); matrices whose column stride is not
//!   D3D's row stride, or that do not start a register, are split into
//!   column vectors, and so is a matrix that padding would follow in the
//!   unused tail of its last row ([`super::cbuffer::tail_split`]); an array
//!   whose contract stride is larger than D3D's gets a stride variant of
//!   its element struct or an [`Element`] struct holding the value and
//!   padding. Padding fields are `uint`s and `uintN`s that never cross a
//!   register, and `uint16_t`s where the module uses 16-bit types.
//! - Whatever a cbuffer cannot express is an error at the WGSL member with
//!   its fix.
//! - Every variant, element struct and cbuffer is then packed once more
//!   from its finished field list alone and compared with the contract
//!   offsets, so that a mistake shows as an internal error, never as wrong
//!   output.
//!
//! Names are the backend's: [`CbufferRealization::made`] lists what needs a
//! name in the order a backend names it, and errors become diagnostics once
//! the backend spells the types they mention ([`Spelling`]).

use super::cbuffer::{self as packing, ArrayStride, Mismatch, Misplaced, PackOffset, Placed};
use super::cbuffer::{Pad, Shape};
use super::Spelling;
use super::{
    capitalize, naga_scalar, ColumnStyle, Declared, Field, Repr, Role, Storage, Stored, StructRef,
};
use crate::diag::{Diagnostic, Diagnostics, Edit, Fix, Span};
use crate::front::Parsed;
use crate::layout::check::replace_value;
use crate::layout::{GlobalLayout, Layout, LayoutKind, LayoutModule, MemberSlot, StructLayout};
use naga::{FastIndexMap, Handle};

/// What the target can write down on top of D3D's packing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Capabilities {
    /// An array of matrices keeps `row_major` on its element. DXC does
    /// (except for arrays of arrays of matrices on its SPIR-V route, whose
    /// inner arrays always hold wrapped matrices); Slang (2026.12) drops
    /// `row_major` from every array of matrices declared as
    /// `row_major T m[N]`, so there every array of matrices holds wrapped
    /// matrices.
    pub matrix_arrays: bool,
}

/// How one uniform (or push-constant) global is realized as a cbuffer.
#[derive(Clone, Debug)]
pub struct Cbuffer {
    pub global: Handle<naga::GlobalVariable>,
    /// The WGSL type of the global.
    pub ty: Handle<naga::Type>,
    /// The repr of the global's pointer: `Block(global)` for a struct;
    /// otherwise the repr of the single member.
    pub repr: Repr,
    /// Per WGSL member (for a struct-typed global; otherwise the single
    /// member): its repr.
    pub members: Vec<Repr>,
    /// The fields, padding included, in offset order.
    pub fields: Vec<Field>,
    /// Per field, its `packoffset`; `None`: the fields are placed by
    /// packing, with padding fields.
    pub packoffsets: Option<Vec<PackOffset>>,
}

/// A struct that stores a WGSL struct in a cbuffer.
#[derive(Clone, Debug)]
pub struct Variant {
    /// The WGSL struct.
    pub ty: Handle<naga::Type>,
    /// `Some`: padded at the end up to this array stride (an array element).
    pub stride: Option<u64>,
    /// Per WGSL member: its repr.
    pub members: Vec<Repr>,
    /// The fields, padding included, in offset order.
    pub fields: Vec<Field>,
    /// Packed size (end of the last field).
    pub size: u64,
    /// The value struct itself (same members and packing): declared as
    /// the value struct, listed so that members of plain nested structs are
    /// reached like those of variants.
    pub value: bool,
}

/// A struct storing one array element (the value, `Role::Member(0)`, or
/// the columns of a matrix, `Role::Column`) followed by padding up to the
/// contract array stride.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Element {
    pub fields: Vec<Field>,
    /// How the value is stored.
    pub inner: Repr,
    /// Packed size: the contract array stride.
    pub size: u64,
}

/// Something that needs a name, in the order the realization made it (a
/// backend that names them in this order names them the same way every
/// time).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Made {
    Cbuffer(usize),
    /// Top-level member `member` of the cbuffer of a struct-typed global;
    /// `columns`: a matrix split into that many columns.
    Member {
        cbuffer: usize,
        member: usize,
        columns: Option<u8>,
    },
    /// The single member of the cbuffer of a global of another type;
    /// `columns`: a matrix's column count (split or not).
    Value {
        cbuffer: usize,
        columns: Option<u8>,
    },
    Variant(usize),
    Element(usize),
    /// Padding field `field` of a cbuffer (its fields are global names).
    Pad {
        cbuffer: usize,
        field: usize,
    },
}

/// A declaration the realization made, for messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Of {
    Cbuffer(usize),
    Variant(usize),
    Element(usize),
}

/// An error of a D3D realization.
pub type Problem = super::Problem<Of>;

/// Every uniform and push-constant global of a module realized as a
/// cbuffer.
#[derive(Clone, Debug, Default)]
pub struct CbufferRealization {
    pub cbuffers: Vec<Cbuffer>,
    pub variants: Vec<Variant>,
    pub elements: Vec<Element>,
    /// The variants (not the value ones) and element structs, each after
    /// the structs it stores.
    pub order: Vec<Declared>,
    /// Everything that needs a name, in the order made.
    pub made: Vec<Made>,
    /// What a cbuffer cannot express (and internal mismatches).
    pub problems: Vec<Problem>,
}

impl CbufferRealization {
    /// The cbuffer of global `g` (its index), if it is one.
    pub fn cbuffer(&self, g: Handle<naga::GlobalVariable>) -> Option<usize> {
        self.cbuffers.iter().position(|c| c.global == g)
    }

    /// Whether storage of `repr` has the value type's layout and spelling.
    pub fn is_plain(&self, repr: &Repr) -> bool {
        match repr {
            Repr::Plain => true,
            Repr::Variant(i) => self.variants.get(*i).is_some_and(|v| v.value),
            Repr::Array(e) => self.is_plain(e),
            _ => false,
        }
    }

    /// The problems as diagnostics, with the types they mention spelled by
    /// `spelling`.
    pub fn diagnostics(&self, spelling: &dyn Spelling<Of>) -> Diagnostics {
        Diagnostics(
            self.problems
                .iter()
                .map(|p| p.diagnostic(spelling))
                .collect(),
        )
    }
}

/// Realize every uniform and push-constant global of `contract` as a
/// cbuffer. `parsed` gives the spans of WGSL members for diagnostics;
/// `module` is the module written (`parsed.module` or its copy with
/// overrides baked: same types).
pub fn realize(
    parsed: &Parsed,
    module: &naga::Module,
    contract: &LayoutModule,
    caps: &Capabilities,
) -> CbufferRealization {
    let mut r = Realizer {
        parsed,
        module,
        contract,
        caps: *caps,
        out: CbufferRealization::default(),
        structs: FastIndexMap::default(),
        pad16: uses_16bit(contract),
        in_array: false,
    };
    for g in &contract.globals {
        if matches!(
            g.space,
            naga::AddressSpace::Uniform | naga::AddressSpace::Immediate
        ) {
            r.cbuffer(g);
        }
    }
    let problems = verify(&r.out);
    r.out.problems.extend(problems);
    r.out
}

/// The cbuffer realization of `contract`, with every uniform (or push
/// constant) whose own realization fails moved out of it, to be declared
/// as `uint4` words read at the contract's offsets (the indices of those
/// globals, and a note for each). A module whose cbuffers all realize pays
/// one realization; what still fails with the others moved out stays in
/// the realization's problems.
pub fn realize_or_words(
    parsed: &Parsed,
    module: &naga::Module,
    contract: &LayoutModule,
    caps: &Capabilities,
) -> (CbufferRealization, Vec<usize>, Vec<Diagnostic>) {
    let real = realize(parsed, module, contract, caps);
    if real.problems.is_empty() {
        return (real, Vec::new(), Vec::new());
    }
    let alone = |g: &GlobalLayout| LayoutModule {
        globals: vec![g.clone()],
        ..contract.clone()
    };
    let mut in_words = Vec::new();
    let mut notes = Vec::new();
    for (i, g) in contract.globals.iter().enumerate() {
        let cbuffer = matches!(
            g.space,
            naga::AddressSpace::Uniform | naga::AddressSpace::Immediate
        );
        if cbuffer && !realize(parsed, module, &alone(g), caps).problems.is_empty() {
            in_words.push(i);
            notes.push(words_note(parsed, module, g));
        }
    }
    if in_words.is_empty() {
        return (real, in_words, notes);
    }
    let kept = LayoutModule {
        globals: contract
            .globals
            .iter()
            .enumerate()
            .filter(|(i, _)| !in_words.contains(i))
            .map(|(_, g)| g.clone())
            .collect(),
        ..contract.clone()
    };
    (realize(parsed, module, &kept, caps), in_words, notes)
}

/// The note for cbuffer global `g`, declared as its `uint4` words because
/// D3D's packing cannot hold its layout.
fn words_note(parsed: &Parsed, module: &naga::Module, g: &GlobalLayout) -> Diagnostic {
    let why = if parsed.uniform_standard {
        "with `uniform_buffer_standard_layout` a uniform takes the storage layout rules, which a cbuffer's D3D packing cannot hold (arrays and structs not on 16-byte registers)"
    } else {
        "a member's contract offset is one a cbuffer's D3D packing cannot give it (an array element or struct off a 16-byte register, say)"
    };
    let mut note = Diagnostic::warning(format!(
        "`{}` is declared as a cbuffer of `uint4` words in HLSL: D3D's cbuffer packing cannot hold its layout",
        g.name
    ))
    .at(
        global_span(parsed, module, g),
        "read at the contract's byte offsets",
    )
    .note(why)
    .note("the register, the binding and the bytes the host writes are the same; --target reflect marks the cbuffer \"words\": true; bind at least its size rounded up to 16 bytes");
    note.severity = crate::diag::Severity::Note;
    note
}

/// Whether any buffer layout holds a 16-bit scalar (the output then needs
/// `-enable-16bit-types`, and `uint16_t` padding is available).
pub fn uses_16bit(contract: &LayoutModule) -> bool {
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
pub fn member_slots(sl: &StructLayout) -> impl Iterator<Item = &MemberSlot> + Clone {
    sl.slots.iter().filter_map(|s| match s {
        crate::layout::Slot::Member(m) => Some(m),
        crate::layout::Slot::Padding(_) => None,
    })
}

/// The span of the name of buffer global `g`, for diagnostics.
pub fn global_span(parsed: &Parsed, module: &naga::Module, g: &GlobalLayout) -> Span {
    parsed
        .annotations
        .globals
        .get(g.name.as_str())
        .map(|a| a.name_span.clone())
        .or_else(|| module.global_variables.get_span(g.handle).to_range())
        .unwrap_or(0..0)
}

/// What kind of thing a stored type is, for messages.
fn kind_name(ty: &Storage) -> &'static str {
    match ty {
        Storage::Scalar(_) => "a scalar",
        Storage::Vector(..) => "a vector",
        Storage::Matrix { .. } => "a matrix",
        Storage::Array(..) => "an array",
        Storage::Struct { .. } => "a struct",
    }
}

/// The storage of a struct, variant or element struct of packed size `size`.
fn structure(of: StructRef, size: u64) -> Storage {
    Storage::Struct {
        of,
        size: Some(size),
        align: packing::register_bytes(),
    }
}

/// Where a member is, for diagnostics. Everything is borrowed: a site is
/// made for every member placed, and only the rare error reads it.
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

/// A matrix stored as `columns` column vectors of `rows` components.
fn split_matrix(columns: u8, rows: u8, scalar: naga::Scalar, column_stride: u64) -> Stored {
    Stored::Split {
        column: Storage::Vector(rows, scalar),
        columns,
        column_stride,
        repr: Repr::Columns {
            columns,
            rows,
            scalar,
            style: ColumnStyle::Members,
        },
    }
}

/// Lays out fields one after another by D3D packing (or, with
/// `packoffset`, at their contract offsets), with padding fields.
struct Placer<'s> {
    packoffset: bool,
    fields: Vec<Field>,
    /// End of the last field.
    cur: u64,
    /// The last real member: its WGSL name and its position in `fields`.
    last: Option<(&'s str, usize)>,
    /// The cbuffer whose fields these are: its padding fields are global
    /// names, each [`Made::Pad`].
    cbuffer: Option<usize>,
}

impl Placer<'_> {
    fn new<'s>(packoffset: bool) -> Placer<'s> {
        Placer {
            packoffset,
            fields: Vec::new(),
            cur: 0,
            last: None,
            cbuffer: None,
        }
    }
}

struct Realizer<'a> {
    parsed: &'a Parsed,
    module: &'a naga::Module,
    contract: &'a LayoutModule,
    caps: Capabilities,
    out: CbufferRealization,
    /// Memoized struct storage; `None` while in progress or once failed.
    structs: FastIndexMap<Handle<naga::Type>, Option<(Storage, Repr)>>,
    /// `uint16_t` padding is available.
    pad16: bool,
    /// [`Realizer::stored`] is working on an array element.
    in_array: bool,
}

impl<'a> Realizer<'a> {
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
        super::member_span(self.parsed, self.module, h, sname, member)
    }

    fn global_span(&self, g: &GlobalLayout) -> Span {
        global_span(self.parsed, self.module, g)
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

    /// Record an error at `site`; `text` makes its message, label and
    /// notes once the backend spells the types they mention.
    fn error(
        &mut self,
        site: &Site,
        fix: Option<Fix>,
        text: impl Fn(&dyn Spelling<Of>) -> (String, String, Vec<String>) + 'static,
    ) {
        let site_span = self.site_span(site);
        let global = site
            .global
            .as_ref()
            .filter(|(span, _)| *span != site_span)
            .map(|(span, global)| (span.clone(), format!("`{global}` is a cbuffer in HLSL")));
        self.out
            .problems
            .push(Problem::new(move |s: &dyn Spelling<Of>| {
                let (message, label, notes) = text(s);
                let mut d = Diagnostic::inexpressible(message).at(site_span.clone(), label);
                if let Some((span, label)) = &global {
                    d = d.also(span.clone(), label.clone());
                }
                for n in notes {
                    d = d.note(n);
                }
                if let Some(f) = &fix {
                    d = d.fix(f.clone());
                }
                d
            }));
    }

    /// A fix giving the member at `site` `@align(align)`.
    fn align_fix(&self, site: &Site, align: u64, outcome: String) -> Option<Fix> {
        let ann = self.site_ann(site)?;
        let edit = match &ann.align {
            Some(a) => replace_value(&self.parsed.source, &a.span, align),
            None => Edit {
                span: ann.span.start..ann.span.start,
                replacement: format!("@align({align}) "),
            },
        };
        Some(Fix {
            title: format!("add `@align({align})` to member `{}`", site.member),
            edits: vec![edit],
            outcome,
        })
    }

    /// A fix setting the `@stride` of the member's array type to `stride`.
    fn stride_fix(&self, site: &Site, stride: u64) -> Option<Fix> {
        let ann = self.site_ann(site)?;
        let s = ann.ty.stride.as_ref()?;
        Some(Fix {
            title: format!("give the array `@stride({stride})`"),
            edits: vec![replace_value(&self.parsed.source, &s.span, stride)],
            outcome: format!(
                "the elements of `{}` become {stride} bytes apart",
                site.member
            ),
        })
    }

    // -- cbuffers -----------------------------------------------------------

    fn cbuffer(&mut self, g: &'a GlobalLayout) {
        let Some(var) = self.module.global_variables.try_get(g.handle).ok() else {
            return;
        };
        let contract: &'a LayoutModule = self.contract;
        let sl = match &g.layout.kind {
            LayoutKind::Struct(h) => match contract.structs.get(h) {
                Some(sl) => Some((*h, sl)),
                None => return,
            },
            _ => None,
        };
        let index = self.out.cbuffers.len();
        self.out.made.push(Made::Cbuffer(index));
        let gspan = self.global_span(g);
        let global_label = Some((gspan.clone(), g.name.as_str()));
        let mut members = Vec::new();
        let (fields, packoffset, repr) = match sl {
            Some((h, sl)) => {
                let sname = &sl.name;
                let slots = member_slots(sl);
                // `packoffset` names 4-byte components, and DXC counts a
                // vector's components from there whatever their width.
                let packoffset = slots
                    .clone()
                    .all(|m| packing::packoffset_ok(&m.layout, m.offset));
                let mut p = Placer::new(packoffset);
                p.cbuffer = Some(index);
                let count = slots.clone().count();
                p.fields.reserve(count);
                members.reserve_exact(count);
                let mut rest = slots.enumerate().peekable();
                while let Some((k, m)) = rest.next() {
                    // With `packoffset` nothing is padded.
                    let tail_split = !packoffset
                        && packing::tail_split(
                            &m.layout,
                            m.offset,
                            match rest.peek() {
                                Some((_, n)) => (Some(&n.layout), n.offset),
                                None => (None, 0),
                            },
                        );
                    let split = tail_split || packing::splits(&m.layout, m.offset);
                    let columns = match (&m.layout.kind, split) {
                        (LayoutKind::Matrix { columns, .. }, true) => Some(*columns),
                        _ => None,
                    };
                    self.out.made.push(Made::Member {
                        cbuffer: index,
                        member: k,
                        columns,
                    });
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
                        .place_member(&mut p, k, &m.layout, m.offset, &site, tail_split)
                        .unwrap_or(Repr::Plain);
                    members.push(r);
                }
                (p.fields, packoffset, Repr::Block(g.handle))
            }
            None => {
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
                let columns = match g.layout.kind {
                    LayoutKind::Matrix { columns, .. } => Some(columns),
                    _ => None,
                };
                self.out.made.push(Made::Value {
                    cbuffer: index,
                    columns,
                });
                // As for a struct's members: where `packoffset` cannot
                // name a field (16-bit columns), fields are placed by padding.
                let packoffset = packing::packoffset_ok(&g.layout, 0);
                let mut p = Placer::new(packoffset);
                p.cbuffer = Some(index);
                let r = self
                    .place_member(&mut p, 0, &g.layout, 0, &site, false)
                    .unwrap_or(Repr::Plain);
                members.reserve_exact(1);
                members.push(r.clone());
                (p.fields, packoffset, r)
            }
        };
        let packoffsets = packoffset.then(|| {
            fields
                .iter()
                .map(|f| PackOffset::at(Shape::of(&f.ty), f.offset))
                .collect()
        });
        self.out.cbuffers.push(Cbuffer {
            global: g.handle,
            ty: var.ty,
            repr,
            members,
            fields,
            packoffsets,
        });
    }

    // -- members ------------------------------------------------------------

    /// Place WGSL member `member` (or a non-struct global's value, 0) at
    /// contract offset `offset`; its repr, or `None` after an error.
    fn place_member<'s>(
        &mut self,
        p: &mut Placer<'s>,
        member: usize,
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
            // An array of matrices that padding follows in its tail: its
            // elements are wrapped (`tail_split`).
            LayoutKind::Array {
                ref element,
                stride,
                count,
            } if tail_split => self.stored_array(element, stride, count, offset, site, true)?,
            _ => self.stored(layout, offset, site)?,
        };
        let (fields, repr) = stored.into_fields(member, offset);
        for f in fields {
            self.place_field(p, f.role, f.ty, f.offset, site)?;
        }
        Some(repr)
    }

    /// Put one field at contract offset `target` (padding before it where
    /// fields are packed); report what a cbuffer cannot express.
    fn place_field<'s>(
        &mut self,
        p: &mut Placer<'s>,
        role: Role,
        ty: Storage,
        target: u64,
        site: &Site<'s>,
    ) -> Option<()> {
        let shape = Shape::of(&ty);
        if !p.packoffset && shape.place(p.cur) < target {
            self.pad(p, target, Some(shape));
        }
        if let Some(problem) = packing::misplaced(shape, p.cur, target, p.packoffset) {
            self.placement_error(p, &ty, target, site, problem);
            return None;
        }
        p.cur = target + shape.size();
        p.last = Some((site.member, p.fields.len()));
        p.fields.push(Field {
            offset: target,
            ty,
            role,
        });
        Some(())
    }

    /// Padding fields from `p.cur` until `next` (or, without one, the end
    /// of the padding itself) lands at `target`. Each is a `uint`, `uintN`
    /// that stays inside its register, or a `uint16_t`.
    fn pad(&mut self, p: &mut Placer<'_>, target: u64, next: Option<Shape>) {
        for (pad, at) in packing::padding(p.cur, target, next, self.pad16) {
            let ty = match pad {
                Pad::U32(1) => Storage::Scalar(naga::Scalar::U32),
                Pad::U32(n) => Storage::Vector(n, naga::Scalar::U32),
                Pad::U16 => Storage::Scalar(naga::Scalar {
                    kind: naga::ScalarKind::Uint,
                    width: 2,
                }),
            };
            if let Some(cbuffer) = p.cbuffer {
                self.out.made.push(Made::Pad {
                    cbuffer,
                    field: p.fields.len(),
                });
            }
            p.cur = at + pad.shape().size();
            p.fields.push(Field {
                offset: at,
                ty,
                role: Role::Padding,
            });
        }
    }

    fn placement_error(
        &mut self,
        p: &Placer<'_>,
        ty: &Storage,
        target: u64,
        site: &Site,
        problem: Misplaced,
    ) {
        let what = capitalize(&site.what.to_string());
        let member = site.member.to_string();
        let ty = ty.clone();
        if let Misplaced::AggregateOffRegister { fixed } = problem {
            let fix = self.align_fix(
                site,
                16,
                format!("`{member}` starts on a 16-byte register (offset {fixed} or later)"),
            );
            self.error(site, fix, move |s| {
                (
                    format!(
                        "{what} has byte offset {target}, but HLSL starts {} (`{}`) in a cbuffer on a 16-byte register.",
                        kind_name(&ty),
                        s.storage(&ty)
                    ),
                    format!("offset {target} is not a multiple of 16"),
                    vec![format!(
                        "help: add `@align(16)` to member `{member}` so that it starts a register"
                    )],
                )
            });
            return;
        }
        if problem == Misplaced::Straddles {
            let size = Shape::of(&ty).size();
            let fix = self.align_fix(site, 16, format!("`{member}` starts on a 16-byte register"));
            self.error(site, fix, move |s| {
                let hlsl = s.storage(&ty);
                (
                    format!(
                        "{what} (`{hlsl}`, {size} bytes) has byte offset {target}, where it would cross a 16-byte register boundary or is misaligned; HLSL cbuffers do not let a vector or scalar straddle registers."
                    ),
                    format!("`{hlsl}` at offset {target} crosses a register"),
                    vec![format!(
                        "help: add `@align(16)` to member `{member}`, or move it so that it lies within one 16-byte register"
                    )],
                )
            });
            return;
        }
        if let Misplaced::TooEarly { natural } = problem {
            let (prev, prev_ty, prev_offset) =
                match p.last.and_then(|(n, i)| Some((n, p.fields.get(i)?))) {
                    Some((n, f)) => (n.to_string(), f.ty.clone(), f.offset),
                    None => ("the member before it".to_string(), ty.clone(), 0),
                };
            let end = prev_offset + Shape::of(&prev_ty).size();
            let fix = self.align_fix(
                site,
                16,
                format!("`{member}` starts on a later 16-byte register"),
            );
            self.error(site, fix, move |s| {
                (
                    format!(
                        "{what} has byte offset {target}, but HLSL packs `{}` no earlier than byte {natural} after `{prev}` (`{}` ends at byte {end} in the cbuffer).",
                        s.storage(&ty),
                        s.storage(&prev_ty)
                    ),
                    format!("HLSL packs it at {natural}"),
                    vec![format!(
                        "help: add `@align(16)` to member `{member}`, or an `@size` to member `{prev}`, so that `{member}` starts at or after byte {natural}"
                    )],
                )
            });
            return;
        }
        let gap = match problem {
            Misplaced::Gap { bytes } => bytes,
            _ => target.saturating_sub(p.cur),
        };
        self.error(site, None, move |_| {
            (
                format!(
                    "{what} has byte offset {target}; the {gap} bytes before it cannot be filled with cbuffer padding members (2-byte padding needs 16-bit types)."
                ),
                format!("offset {target} cannot be expressed"),
                vec![format!("help: add `@align(4)` to member `{member}`")],
            )
        });
    }

    /// The storage of a member or array element of contract `layout` at
    /// contract offset `offset`.
    fn stored(&mut self, layout: &Layout, offset: u64, site: &Site) -> Option<Stored> {
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
                if !packing::splits(layout, offset) {
                    return Some(Stored::One(
                        Storage::Matrix {
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
            } => self.stored_array(element, *stride, *count, offset, site, false),
            LayoutKind::Struct(h) => {
                let (ty, repr) = self.struct_info(*h)?;
                Some(Stored::One(ty, repr))
            }
        }
    }

    /// The storage of an array of `element`s `stride` bytes apart; with
    /// `wrap_matrices`, matrix elements are wrapped in element structs.
    fn stored_array(
        &mut self,
        element: &Layout,
        stride: u64,
        count: Option<u64>,
        offset: u64,
        site: &Site,
        wrap_matrices: bool,
    ) -> Option<Stored> {
        let what = || site.what.to_string();
        let Some(count) = count else {
            let capitalized = capitalize(&what());
            self.error(site, None, move |_| {
                (
                    format!("{capitalized} is a runtime-sized array, which a cbuffer cannot hold."),
                    "runtime-sized array".to_string(),
                    vec!["help: move the array into a `var<storage>` buffer".to_string()],
                )
            });
            return None;
        };
        if let ArrayStride::OffRegister { fixed } = packing::array_stride(stride, None) {
            let fix = self.stride_fix(site, fixed);
            let what = what();
            self.error(site, fix, move |_| {
                (
                    format!(
                        "Array stride of {what} is {stride} bytes, but HLSL starts every array element in a cbuffer on a 16-byte register, so a cbuffer array stride is a multiple of 16."
                    ),
                    format!("stride {stride} is not a multiple of 16"),
                    vec![format!(
                        "help: give the array `@stride({fixed})`, or use 16-byte elements (e.g. `vec4`), or wrap the element in a struct with `@size(16)`"
                    )],
                )
            });
            return None;
        }
        let outer = std::mem::replace(&mut self.in_array, true);
        let stored = self.stored(element, offset, site);
        self.in_array = outer;
        let (ety, erepr) = match stored? {
            Stored::One(ety, erepr) => {
                let eshape = Shape::of(&ety);
                let hstride = eshape.stride();
                // DXC's SPIR-V for an array of arrays of matrices in a
                // cbuffer loses the matrices' `MatrixStride` and row-major
                // decorations, so the inner arrays hold wrapped matrices;
                // see also `Capabilities::matrix_arrays`.
                let wrap = (outer || !self.caps.matrix_arrays || wrap_matrices)
                    && matches!(ety, Storage::Matrix { .. });
                let class = packing::array_stride(stride, Some(eshape));
                if class == ArrayStride::Natural && !wrap {
                    (ety, erepr)
                } else if class == ArrayStride::TooSmall {
                    let fix = self.stride_fix(site, hstride);
                    let ety = ety.clone();
                    let what = what();
                    self.error(site, fix, move |s| {
                        (
                            format!(
                                "Array stride of {what} is {stride} bytes, but HLSL lays out arrays of `{}` in a cbuffer with a stride of {hstride} bytes.",
                                s.storage(&ety)
                            ),
                            format!("stride {stride}, HLSL stride {hstride}"),
                            vec![format!("help: give the array `@stride({hstride})`")],
                        )
                    });
                    return None;
                } else if let LayoutKind::Struct(h) = element.kind {
                    self.stride_variant(h, stride, site)?
                } else if let (
                    Storage::Matrix {
                        columns,
                        rows,
                        scalar,
                    },
                    LayoutKind::Matrix { column_stride, .. },
                    true,
                ) = (
                    &ety,
                    &element.kind,
                    packing::ends_inside_register(eshape.size()),
                ) {
                    // The element padding would start in the tail of the
                    // matrix's last row: split it, as `tail_split` explains.
                    let columns = split_matrix(*columns, *rows, *scalar, *column_stride);
                    self.element_wrapper(columns, stride, site)?
                } else {
                    self.element_wrapper(Stored::One(ety, erepr), stride, site)?
                }
            }
            columns @ Stored::Split { .. } => self.element_wrapper(columns, stride, site)?,
        };
        let repr = if erepr == Repr::Plain {
            Repr::Plain
        } else {
            Repr::Array(Box::new(erepr))
        };
        Some(Stored::One(
            Storage::Array(Box::new(ety), Some(count)),
            repr,
        ))
        // (An array of plain structs keeps its element repr, so that
        // members are reached like those of variants.)
    }

    /// An element struct holding the value `stored` (as `Role::Member(0)`,
    /// or a matrix's columns) and padding up to `stride`.
    fn element_wrapper(
        &mut self,
        stored: Stored,
        stride: u64,
        site: &Site,
    ) -> Option<(Storage, Repr)> {
        let (fields, inner) = stored.into_fields(0, 0);
        let mut p = Placer::new(false);
        for f in fields {
            self.place_field(&mut p, f.role, f.ty, f.offset, site)?;
        }
        if p.cur > stride {
            return None;
        }
        self.pad(&mut p, stride, None);
        if p.cur != stride {
            return None;
        }
        let index = match self.out.elements.iter().position(|e| e.fields == p.fields) {
            Some(i) => i,
            None => {
                let index = self.out.elements.len();
                self.out.made.push(Made::Element(index));
                self.out.order.push(Declared::Element(index));
                self.out.elements.push(Element {
                    fields: p.fields,
                    inner: inner.clone(),
                    size: stride,
                });
                index
            }
        };
        Some((
            structure(StructRef::Element(index), stride),
            Repr::Wrapped {
                element: index,
                inner: Box::new(inner),
            },
        ))
    }

    /// The storage of struct `h` (memoized).
    fn struct_info(&mut self, h: Handle<naga::Type>) -> Option<(Storage, Repr)> {
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
    /// contract stride is larger than D3D's.
    fn stride_variant(
        &mut self,
        h: Handle<naga::Type>,
        stride: u64,
        site: &Site,
    ) -> Option<(Storage, Repr)> {
        if let Some(i) = self
            .out
            .variants
            .iter()
            .position(|v| v.ty == h && v.size == stride && !v.value)
        {
            return Some((structure(StructRef::Variant(i), stride), Repr::Variant(i)));
        }
        let outer = std::mem::replace(&mut self.in_array, false);
        let info = self.compute_struct(h, Some(stride));
        self.in_array = outer;
        match &info {
            Some((
                Storage::Struct {
                    size: Some(size), ..
                },
                _,
            )) if *size == stride => info,
            _ => {
                let what = site.what.to_string();
                self.error(site, None, move |_| {
                    (
                        format!(
                            "Array stride of {what} is {stride} bytes, which HLSL cannot reach by padding its element struct."
                        ),
                        format!("stride {stride}"),
                        vec!["help: remove the array's `@stride`".to_string()],
                    )
                });
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
    ) -> Option<(Storage, Repr)> {
        let contract: &'a LayoutModule = self.contract;
        let sl = contract.structs.get(&h)?;
        let slots = member_slots(sl);
        let count = slots.clone().count();
        let mut p = Placer::new(false);
        p.fields.reserve(count);
        let mut members = Vec::with_capacity(count);
        let mut changed = size_to.is_some();
        let mut failed = false;
        let mut rest = slots.enumerate().peekable();
        while let Some((k, m)) = rest.next() {
            let next = match rest.peek() {
                Some((_, n)) => (Some(&n.layout), n.offset),
                None => (None, size_to.unwrap_or(0)),
            };
            let tail_split = packing::tail_split(&m.layout, m.offset, next);
            let site = Site {
                at: SiteAt::Member(h, &sl.name),
                what: What::Member {
                    member: &m.name,
                    of: &sl.name,
                },
                member: &m.name,
                global: None,
            };
            let before = p.fields.len();
            match self.place_member(&mut p, k, &m.layout, m.offset, &site, tail_split) {
                Some(r) => {
                    if !self.out.is_plain(&r)
                        || p.fields.len() != before + 1
                        || p.fields[before].is_padding()
                    {
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
        if let Some(to) = size_to {
            if p.cur > to {
                return None;
            }
            self.pad(&mut p, to, None);
        }
        let size = p.cur;
        let index = self.out.variants.len();
        self.out.made.push(Made::Variant(index));
        if changed {
            self.out.order.push(Declared::Variant(index));
        }
        self.out.variants.push(Variant {
            ty: h,
            stride: size_to,
            members,
            fields: p.fields,
            size,
            value: !changed,
        });
        Some((
            structure(StructRef::Variant(index), size),
            Repr::Variant(index),
        ))
    }
}

/// Pack every variant, element struct and cbuffer again from its finished
/// field list alone and compare with the contract offsets recorded in it;
/// check `packoffset`s for overlaps and straddling. One internal error per
/// declaration that differs.
pub fn verify(r: &CbufferRealization) -> Vec<Problem> {
    let mut problems = Vec::new();
    for (i, v) in r.variants.iter().enumerate() {
        if let Some(bad) = packing_mismatch(r, &v.fields, Some(v.size)) {
            problems.push(internal(Of::Variant(i), &v.fields, bad));
        }
    }
    for (i, e) in r.elements.iter().enumerate() {
        let bad = packing_mismatch(r, &e.fields, Some(e.size))
            .or_else(|| (!packing::is_array_stride(e.size)).then_some(Bad::NotAStride(e.size)));
        if let Some(bad) = bad {
            problems.push(internal(Of::Element(i), &e.fields, bad));
        }
    }
    for (i, c) in r.cbuffers.iter().enumerate() {
        let bad = struct_size_mismatch(r, &c.fields).or_else(|| {
            let placed = placed(&c.fields);
            let bad = match &c.packoffsets {
                Some(_) => packing::packoffset_mismatch(&placed),
                None => packing::packing_mismatch(placed, None),
            };
            bad.map(Bad::Packing)
        });
        if let Some(bad) = bad {
            problems.push(internal(Of::Cbuffer(i), &c.fields, bad));
        }
    }
    problems
}

/// What [`verify`] found wrong with one declaration.
#[derive(Clone, Copy)]
enum Bad {
    Packing(Mismatch),
    /// A struct field whose size is not its declaration's.
    StructSize {
        of: Of,
        size: u64,
        used: u64,
    },
    /// An element struct whose size is not an array stride.
    NotAStride(u64),
}

/// An internal error about declaration `of`, whose fields are `fields`.
fn internal(of: Of, fields: &[Field], bad: Bad) -> Problem {
    // The type a message spells.
    let ty = match bad {
        Bad::Packing(Mismatch::Illegal { field, .. }) => fields.get(field).map(|f| f.ty.clone()),
        _ => None,
    };
    Problem::new(move |s: &dyn Spelling<Of>| {
        let kind = match of {
            Of::Cbuffer(_) => "cbuffer",
            Of::Variant(_) => "variant",
            Of::Element(_) => "element struct",
        };
        let field = |k: usize| s.field(of, k);
        let detail = match bad {
            Bad::StructSize { of, size, used } => {
                format!("`{}` is {size} bytes, used as {used}", s.name(of))
            }
            Bad::NotAStride(size) => format!("size {size} is not an array stride"),
            Bad::Packing(Mismatch::Moved {
                field: k,
                at,
                offset,
            }) => format!(
                "`{}` packs at offset {at}, the contract says {offset}",
                field(k)
            ),
            Bad::Packing(Mismatch::Size { packed, size }) => {
                format!("it packs to {packed} bytes, the plan says {size}")
            }
            Bad::Packing(Mismatch::Unnamed {
                field: k,
                position,
                offset,
            }) => format!(
                "`{}`: packoffset({position}) does not name offset {offset}",
                field(k)
            ),
            Bad::Packing(Mismatch::Illegal { field: k, offset }) => format!(
                "`{}` (`{}`) cannot start at offset {offset}",
                field(k),
                ty.as_ref().map_or_else(String::new, |t| s.storage(t))
            ),
            Bad::Packing(Mismatch::Overlaps { field: k, other }) => {
                format!("`{}` overlaps `{}`", field(k), field(other))
            }
        };
        Diagnostic::internal(format!(
            "internal error: the HLSL cbuffer packing of {kind} `{}`: {detail} differs from the contract",
            s.name(of)
        ))
        .note("this is a bug in stride's HLSL writer; please report it")
    })
}

/// The fields of a declaration as the packing rules see them.
fn placed(fields: &[Field]) -> Vec<Placed> {
    fields
        .iter()
        .map(|f| Placed {
            shape: Shape::of(&f.ty),
            offset: f.offset,
        })
        .collect()
}

/// A referenced struct's size must be its declaration's.
fn struct_size_mismatch(r: &CbufferRealization, fields: &[Field]) -> Option<Bad> {
    fn check(r: &CbufferRealization, ty: &Storage) -> Option<Bad> {
        match ty {
            Storage::Struct {
                of,
                size: Some(used),
                ..
            } => {
                let (of, size) = match *of {
                    StructRef::Variant(i) => (Of::Variant(i), r.variants.get(i)?.size),
                    StructRef::Element(i) => (Of::Element(i), r.elements.get(i)?.size),
                    _ => return None,
                };
                (size != *used).then_some(Bad::StructSize {
                    of,
                    size,
                    used: *used,
                })
            }
            Storage::Array(e, _) => check(r, e),
            _ => None,
        }
    }
    fields.iter().find_map(|f| check(r, &f.ty))
}

/// Whether `fields` pack by D3D's rules alone to their recorded offsets
/// (and to `size`), referenced structs at their declared sizes.
fn packing_mismatch(r: &CbufferRealization, fields: &[Field], size: Option<u64>) -> Option<Bad> {
    struct_size_mismatch(r, fields)
        .or_else(|| packing::packing_mismatch(placed(fields), size).map(Bad::Packing))
}
