//! The plan: how every buffer global is declared, worked out once per
//! module from the contract layout and the cbuffer realization
//! ([`crate::layout::realize::cbuffer`]): the names of cbuffers, members,
//! variants, element structs and padding members, the reprs that tell
//! [`super::Plan`] how to reach a value, and the errors (at the WGSL member,
//! with a fix) for layouts a cbuffer cannot express.

use super::*;

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
pub(super) fn uses_16bit(contract: &LayoutModule) -> bool {
    pub(super) fn walk(l: &Layout) -> bool {
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
pub(super) fn member_slots(
    sl: &crate::layout::StructLayout,
) -> impl Iterator<Item = &MemberSlot> + Clone {
    sl.slots.iter().filter_map(|s| match s {
        crate::layout::Slot::Member(m) => Some(m),
        crate::layout::Slot::Padding(_) => None,
    })
}

/// Column `j` of the split matrix at lvalue `base`.
/// A matrix stored as `columns` column vectors of `rows` components.
pub(super) fn split_matrix(
    columns: u8,
    rows: u8,
    scalar: naga::Scalar,
    column_stride: u64,
) -> Stored {
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

/// The global names taken: the namer's (and `main`, which stays free for
/// what the other parts invent), and those [`Builder`] gives out.
pub(super) struct Taken<'a> {
    names: &'a naga::FastHashMap<NameKey, String>,
    /// The namer's names and `main`, collected on first use (a module
    /// without uniforms never asks).
    namer: Option<naga::FastHashSet<&'a str>>,
    given: Given,
}

impl Taken<'_> {
    pub(super) fn contains(&mut self, name: &str) -> bool {
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

    pub(super) fn insert(&mut self, name: &str) {
        self.given.insert(name);
    }
}

/// Names given out while planning, each copied once into one text
/// rather than into a string of its own.
#[derive(Default)]
pub(super) struct Given {
    text: String,
    /// Per hash, the start and end in `text` of the first name with it.
    first: naga::FastHashMap<u64, (u32, u32)>,
    /// Names whose hash an earlier name already has (almost never any).
    more: Vec<(u32, u32)>,
}

impl Given {
    pub(super) fn hash(&self, name: &str) -> u64 {
        use std::hash::BuildHasher as _;
        self.first.hasher().hash_one(name)
    }

    pub(super) fn name(&self, (start, end): (u32, u32)) -> Option<&str> {
        self.text.get(start as usize..end as usize)
    }

    pub(super) fn contains(&self, name: &str) -> bool {
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

    pub(super) fn insert(&mut self, name: &str) {
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
pub(super) fn pad_name(global: Option<&str>, n: usize) -> String {
    let mut name = String::with_capacity(global.map_or(0, str::len) + 12);
    match global {
        Some(g) => super::super::push_parts(&mut name, &["_s_", g, "_pad"]),
        None => name.push_str("_s_pad"),
    }
    super::super::push_decimal(&mut name, n as u64);
    name
}

// ---------------------------------------------------------------------------
// Planning.

/// Where a member is, for diagnostics. Everything is borrowed: a site is
/// made for every member planned, and only the rare error reads it.
pub(super) struct Site<'s> {
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
pub(super) enum SiteAt<'s> {
    Span(Span),
    Member(Handle<naga::Type>, &'s str),
}

/// What a [`Site`] is, displayed as `member `x` of `S`` or `global `g``.
#[derive(Clone, Copy)]
pub(super) enum What<'s> {
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
pub(super) enum Stored {
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
pub(super) struct Placer<'s> {
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
    pub(super) fn new<'s>(
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

pub(super) struct Builder<'a> {
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
    pub(super) fn fresh(&mut self, base: String) -> String {
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
    pub(super) fn fresh_columns(&mut self, base: &str, columns: u8) -> String {
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

    pub(super) fn type_name(&self, h: Handle<naga::Type>) -> Cow<'a, str> {
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

    pub(super) fn member_name<'s>(
        &self,
        h: Handle<naga::Type>,
        index: usize,
        fallback: &'s str,
    ) -> &'s str
    where
        'a: 's,
    {
        self.names
            .get(&NameKey::StructMember(h, index as u32))
            .map_or(fallback, String::as_str)
    }

    /// Whether `name` is the HLSL name of a member of the struct
    /// `members` (if any).
    pub(super) fn is_member_name(
        &self,
        members: Option<(Handle<naga::Type>, &crate::layout::StructLayout)>,
        name: &str,
    ) -> bool {
        members.is_some_and(|(h, sl)| {
            member_slots(sl).any(|m| self.member_name(h, m.index, &m.name) == name)
        })
    }

    pub(super) fn member_ann(
        &self,
        sname: &str,
        member: &str,
    ) -> Option<&'a crate::front::dialect::MemberAnn> {
        let ann = self.parsed.annotations.structs.get(sname)?;
        ann.members.iter().find(|m| m.name == member)
    }

    /// The span of WGSL member `member` of struct `sname` (`h`).
    pub(super) fn member_span(&self, h: Handle<naga::Type>, sname: &str, member: &str) -> Span {
        let ann = self.parsed.annotations.structs.get(sname);
        ann.and_then(|a| a.members.iter().find(|m| m.name == member))
            .map(|m| m.span.clone())
            .or_else(|| ann.map(|a| a.name_span.clone()))
            .or_else(|| self.module.types.get_span(h).to_range())
            .unwrap_or(0..0)
    }

    pub(super) fn global_span(&self, g: &GlobalLayout) -> Span {
        self.parsed
            .annotations
            .globals
            .get(g.name.as_str())
            .map(|a| a.name_span.clone())
            .or_else(|| self.module.global_variables.get_span(g.handle).to_range())
            .unwrap_or(0..0)
    }

    /// The span of `site`.
    pub(super) fn site_span(&self, site: &Site) -> Span {
        match &site.at {
            SiteAt::Span(span) => span.clone(),
            SiteAt::Member(h, sname) => self.member_span(*h, sname, site.member),
        }
    }

    /// The annotation of the struct member at `site` (for fixes).
    pub(super) fn site_ann(&self, site: &Site) -> Option<&'a crate::front::dialect::MemberAnn> {
        match &site.at {
            SiteAt::Span(_) => None,
            SiteAt::Member(_, sname) => self.member_ann(sname, site.member),
        }
    }

    /// An error at `site` with the inexpressible note.
    pub(super) fn error(
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
    pub(super) fn align_fix(&self, site: &Site, align: u64, outcome: String) -> Option<Fix> {
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
    pub(super) fn stride_fix(&self, site: &Site, stride: u64) -> Option<Fix> {
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

    pub(super) fn cbuffer(&mut self, g: &'a GlobalLayout) {
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
                    .all(|m| engine::packoffset_ok(&m.layout, m.offset));
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
                        && engine::tail_split(
                            &m.layout,
                            m.offset,
                            match rest.peek() {
                                Some(n) => (Some(&n.layout), n.offset),
                                None => (None, 0),
                            },
                        );
                    let split = tail_split || engine::splits(&m.layout, m.offset);
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

    pub(super) fn storage(&mut self, g: &GlobalLayout, access: naga::StorageAccess) {
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

    // -- members ------------------------------------------------------------

    /// Place one WGSL member (or a non-struct global's member) at contract
    /// offset `offset`; its repr, or `None` after an error.
    pub(super) fn place_member<'s>(
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
    pub(super) fn place_field<'s>(
        &mut self,
        p: &mut Placer<'s>,
        name: String,
        ty: HType,
        target: u64,
        site: &Site<'s>,
    ) -> Option<()> {
        let shape = ty.shape();
        if !p.packoffset && shape.place(p.cur) < target {
            self.pad(p, target, Some(shape));
        }
        if let Some(problem) = engine::misplaced(shape, p.cur, target, p.packoffset) {
            self.placement_error(p, &ty, target, site, problem);
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
    pub(super) fn pad(&mut self, p: &mut Placer<'_>, target: u64, next: Option<Shape>) {
        for (pad, at) in engine::padding(p.cur, target, next, self.pad16) {
            let ty = match pad {
                Pad::U32(1) => HType::Scalar(naga::Scalar::U32),
                Pad::U32(n) => HType::Vector(n, naga::Scalar::U32),
                Pad::U16 => HType::Scalar(naga::Scalar {
                    kind: naga::ScalarKind::Uint,
                    width: 2,
                }),
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
            p.cur = at + pad.shape().size();
            p.fields.push(Field {
                name,
                ty,
                offset: at,
                padding: true,
            });
        }
    }

    pub(super) fn placement_error(
        &mut self,
        p: &Placer<'_>,
        ty: &HType,
        target: u64,
        site: &Site,
        problem: Misplaced,
    ) {
        let what = capitalize(&site.what.to_string());
        let hlsl = ty.describe();
        if let Misplaced::AggregateOffRegister { fixed } = problem {
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
        if problem == Misplaced::Straddles {
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
        if let Misplaced::TooEarly { natural } = problem {
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
        let gap = match problem {
            Misplaced::Gap { bytes } => bytes,
            _ => target.saturating_sub(p.cur),
        };
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
    pub(super) fn stored(&mut self, layout: &Layout, offset: u64, site: &Site) -> Option<Stored> {
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
                if !engine::splits(layout, offset) {
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
                if let ArrayStride::OffRegister { fixed } = engine::array_stride(stride, None) {
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
                        let class = engine::array_stride(stride, Some(ety.shape()));
                        if class == ArrayStride::Natural && !wrap {
                            (ety, erepr)
                        } else if class == ArrayStride::TooSmall {
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
                            true,
                        ) = (
                            &ety,
                            &element.kind,
                            engine::ends_inside_register(ety.size()),
                        ) {
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
    pub(super) fn columns_wrapper(
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
    pub(super) fn element_wrapper(
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
                super::super::types::matrix(fields.len() as u8, *rows, *s)
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
    pub(super) fn struct_info(&mut self, h: Handle<naga::Type>) -> Option<(HType, Repr)> {
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
    pub(super) fn stride_variant(
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
    pub(super) fn compute_struct(
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
            let tail_split = engine::tail_split(&m.layout, m.offset, next);
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
                if tail_split || engine::splits(&m.layout, m.offset) {
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
    pub(super) fn verify(&mut self) {
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
pub(super) fn verify_plan(plan: &Plan) -> Vec<String> {
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
            (!engine::is_array_stride(e.size))
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
pub(super) fn replace_value(source: &str, span: &Span, value: u64) -> Edit {
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
pub(super) fn struct_size_mismatch(
    ty: &HType,
    sizes: &naga::FastHashMap<&str, u64>,
) -> Option<String> {
    match ty {
        HType::Struct { name, size } => match sizes.get(name.as_str()) {
            Some(s) if s != size => Some(text!("`{name}` is {s} bytes, used as {size}")),
            _ => None,
        },
        HType::Array(e, _) => struct_size_mismatch(e, sizes),
        _ => None,
    }
}

/// The members of a declaration as the packing engine sees them.
pub(super) fn placed(fields: &[Field]) -> Vec<Placed<'_>> {
    fields
        .iter()
        .map(|f| Placed {
            name: &f.name,
            shape: f.ty.shape(),
            offset: f.offset,
        })
        .collect()
}

/// Whether `fields` pack by D3D's rules alone to their recorded offsets
/// (and to `size`), referenced structs at their declared sizes.
pub(super) fn packing_mismatch(
    fields: &[Field],
    size: Option<u64>,
    sizes: &naga::FastHashMap<&str, u64>,
) -> Option<String> {
    fields
        .iter()
        .find_map(|f| struct_size_mismatch(&f.ty, sizes))
        .or_else(|| engine::packing_mismatch(placed(fields), size))
}

/// Whether the `packoffset` members `fields` name their offsets without
/// straddling or overlapping, referenced structs at their declared sizes.
pub(super) fn packoffset_mismatch(
    fields: &[Field],
    sizes: &naga::FastHashMap<&str, u64>,
) -> Option<String> {
    fields
        .iter()
        .find_map(|f| struct_size_mismatch(&f.ty, sizes))
        .or_else(|| {
            engine::packoffset_mismatch(&placed(fields), |k| {
                fields.get(k).map_or_else(String::new, |f| f.ty.describe())
            })
        })
}

pub(super) fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

/// A helper-name fragment for a cbuffer type.
pub(super) fn mangle_htype(ty: &HType) -> String {
    match ty {
        HType::Array(e, n) => text!("a{n}_{}", mangle_htype(e)),
        other => other.describe(),
    }
}
