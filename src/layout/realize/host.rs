//! The host realization: the contract as a C11/C++17 struct or a Rust
//! `#[repr(C)]` struct lays it out, so that the host writes the bytes every
//! target reads.
//!
//! Both languages place a field at the next multiple of its alignment, make
//! a struct's size a multiple of its alignment, and give an array the
//! stride `sizeof` its element. Under those rules a vector is an array of
//! its scalar (alignment of the scalar), a matrix an array of columns, each
//! an array of scalars as long as the contract's column stride. Nothing
//! else is implicit: every gap the contract has becomes an explicit padding
//! field of bytes, a struct whose contract alignment is larger than its
//! fields' gets an explicit alignment, and an array whose contract stride is
//! larger than its element's size gets its element wrapped in a struct with
//! a padding field. What cannot be laid out that way is an error at the WGSL
//! member, with a fix.

use super::{Field, Role, Storage, StructRef};
use crate::diag::Span;
use crate::diag::{Diagnostic, Diagnostics, Edit, Fix};
use crate::front::Parsed;
use crate::layout::{Layout, LayoutKind, LayoutModule, Slot, StructLayout};
use indexmap::IndexMap;
use naga::Handle;

/// The scalar of every padding field: `uint8_t` / `u8`.
pub const PAD_BYTE: naga::Scalar = naga::Scalar {
    kind: naga::ScalarKind::Uint,
    width: 1,
};

/// Every buffer of a module, laid out for the host.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HostRealization {
    /// One per contract struct, in an order where a struct comes after
    /// every struct its fields hold.
    pub structs: Vec<HostStruct>,
    /// Array element wrappers ([`StructRef::Element`] indexes this), each
    /// before its first use.
    pub elements: Vec<HostStruct>,
    /// One per buffer global of the contract, in declaration order.
    pub buffers: Vec<HostBuffer>,
}

/// A struct as the host declares it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HostStruct {
    /// [`StructRef::Value`] for a WGSL struct, [`StructRef::Element`] for
    /// an element wrapper.
    pub of: StructRef,
    /// `sizeof`: the contract size (the offset of the runtime-sized array
    /// for a struct that ends in one).
    pub size: u64,
    /// `alignof`.
    pub align: u64,
    /// The alignment is larger than the fields' own and must be written
    /// (`alignas` in C, `#[repr(C, align(N))]` in Rust).
    pub explicit_align: bool,
    /// Members and padding in offset order, covering `0..size`. A wrapper's
    /// value is `Role::Member(0)`.
    pub fields: Vec<Field>,
    /// The runtime-sized array the struct ends in, which the host
    /// addresses past the struct.
    pub tail: Option<Tail>,
}

/// A runtime-sized array at the end of a buffer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tail {
    /// The WGSL member index of the array (0 for a global that is the array).
    pub member: usize,
    /// Byte offset of element 0 from the start of the buffer.
    pub offset: u64,
    /// The element as the host declares it; `stride` bytes apart.
    pub element: Storage,
    pub stride: u64,
}

/// One buffer global.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HostBuffer {
    pub global: Handle<naga::GlobalVariable>,
    /// The global's type as the host declares it; `None` for a global that
    /// is itself a runtime-sized array (only `tail` is then declared).
    pub ty: Option<Storage>,
    pub tail: Option<Tail>,
    /// The smallest buffer that may be bound: the type's size, or with a
    /// runtime-sized array, its size holding one element (as WebGPU
    /// computes `minBindingSize`).
    pub min_binding_size: u64,
}

/// Lay out every buffer of `contract` for the host. Errors are at the WGSL
/// member (spans into `parsed.source`), each with a fix.
pub fn realize(parsed: &Parsed, contract: &LayoutModule) -> Result<HostRealization, Diagnostics> {
    let mut r = Realizer {
        parsed,
        contract,
        out: HostRealization::default(),
        done: IndexMap::new(),
        floors: IndexMap::new(),
        errors: Diagnostics::new(),
    };
    for g in &contract.globals {
        r.buffer(g);
    }
    settle(&mut r.out);
    if r.errors.has_errors() {
        return Err(r.errors);
    }
    Ok(r.out)
}

/// A host type with its `sizeof` and `alignof`.
struct Host {
    ty: Storage,
    size: u64,
    align: u64,
    /// The least alignment it can have: its widest scalar.
    floor: u64,
}

struct Realizer<'a> {
    parsed: &'a Parsed,
    contract: &'a LayoutModule,
    out: HostRealization,
    /// WGSL structs laid out so far: index into `out.structs`, or `None`
    /// where it failed.
    done: IndexMap<Handle<naga::Type>, Option<usize>>,
    /// The least alignment of each struct: its widest scalar.
    floors: IndexMap<StructRef, u64>,
    errors: Diagnostics,
}

/// Where an error is reported: the WGSL member (or global) being laid out.
#[derive(Clone)]
struct Site {
    what: String,
    span: Span,
    /// The member annotation's whole span, where an attribute is inserted.
    insert_at: Option<usize>,
    /// An `@align` the member already has (value span).
    align: Option<Span>,
}

impl Realizer<'_> {
    fn buffer(&mut self, g: &crate::layout::GlobalLayout) {
        let span = self
            .parsed
            .annotations
            .globals
            .get(g.name.as_str())
            .map(|a| a.name_span.clone())
            .or_else(|| {
                self.parsed
                    .module
                    .global_variables
                    .get_span(g.handle)
                    .to_range()
            })
            .unwrap_or(0..0);
        let site = Site {
            what: format!("`{}`", g.name),
            span,
            insert_at: None,
            align: None,
        };
        let (ty, tail, min) = match &g.layout.kind {
            LayoutKind::Array {
                element,
                stride,
                count: None,
            } => {
                let Some(element) = self.element(element, *stride, &site) else {
                    return;
                };
                let tail = Tail {
                    member: 0,
                    offset: 0,
                    element,
                    stride: *stride,
                };
                (None, Some(tail), *stride)
            }
            _ => {
                let Some(host) = self.host(&g.layout, &site) else {
                    return;
                };
                let tail = match &g.layout.kind {
                    LayoutKind::Struct(h) => self
                        .done
                        .get(h)
                        .copied()
                        .flatten()
                        .and_then(|i| self.out.structs[i].tail.clone()),
                    _ => None,
                };
                let min = match (&g.layout.size, &tail) {
                    (Some(size), _) => *size,
                    (None, Some(t)) => {
                        let end = t.offset.saturating_add(t.stride);
                        end.checked_next_multiple_of(g.layout.align.max(1))
                            .unwrap_or(end)
                    }
                    (None, None) => host.size,
                };
                (Some(host.ty), tail, min)
            }
        };
        self.out.buffers.push(HostBuffer {
            global: g.handle,
            ty,
            tail,
            min_binding_size: min,
        });
    }

    /// The host form of a contract layout (not a runtime-sized array).
    fn host(&mut self, layout: &Layout, site: &Site) -> Option<Host> {
        match &layout.kind {
            LayoutKind::Scalar(s) | LayoutKind::Atomic(s) => {
                let w = u64::from(s.width);
                Some(Host {
                    ty: Storage::Scalar(super::naga_scalar(*s)),
                    size: w,
                    align: w,
                    floor: w,
                })
            }
            LayoutKind::Vector { size, scalar } => {
                let w = u64::from(scalar.width);
                Some(Host {
                    ty: Storage::Vector(*size, super::naga_scalar(*scalar)),
                    size: w * u64::from(*size),
                    align: w,
                    floor: w,
                })
            }
            LayoutKind::Matrix {
                columns,
                rows,
                scalar,
                column_stride,
            } => {
                let w = u64::from(scalar.width);
                let s = super::naga_scalar(*scalar);
                if !column_stride.is_multiple_of(w) || *column_stride < w * u64::from(*rows) {
                    self.error(
                        site,
                        format!(
                            "{} has a column stride of {column_stride} bytes, which is not a whole number of its {w}-byte scalars",
                            site.what
                        ),
                        format!("help: use a column stride that is a multiple of {w} bytes"),
                        None,
                    );
                    return None;
                }
                let slots = *column_stride / w;
                let ty = if slots == u64::from(*rows) {
                    Storage::Matrix {
                        columns: *columns,
                        rows: *rows,
                        scalar: s,
                    }
                } else {
                    // Each column is as long as the contract's column
                    // stride; the slots past `rows` are never read.
                    Storage::Array(
                        Box::new(Storage::Array(Box::new(Storage::Scalar(s)), Some(slots))),
                        Some(u64::from(*columns)),
                    )
                };
                Some(Host {
                    ty,
                    size: column_stride.saturating_mul(u64::from(*columns)),
                    align: w,
                    floor: w,
                })
            }
            LayoutKind::Array {
                element,
                stride,
                count: Some(n),
            } => {
                let e = self.element(element, *stride, site)?;
                let align = host_align(&e);
                let floor = self.floor(&e);
                Some(Host {
                    ty: Storage::Array(Box::new(e), Some(*n)),
                    size: stride.saturating_mul(*n),
                    align,
                    floor,
                })
            }
            LayoutKind::Array { count: None, .. } => {
                // A runtime-sized array is only ever a buffer's last member,
                // which `strukt` turns into a tail.
                self.error(
                    site,
                    format!("{} is a runtime-sized array inside another type", site.what),
                    "help: a runtime-sized array can only be the last member of a buffer's struct"
                        .to_string(),
                    None,
                );
                None
            }
            LayoutKind::Struct(h) => {
                let i = self.strukt(*h)?;
                let s = &self.out.structs[i];
                Some(Host {
                    ty: Storage::Struct {
                        of: StructRef::Value(*h),
                        size: Some(s.size),
                        align: s.align,
                    },
                    size: s.size,
                    align: s.align,
                    floor: self.floors.get(&StructRef::Value(*h)).copied().unwrap_or(1),
                })
            }
        }
    }

    /// The least alignment a host type can have: its widest scalar.
    fn floor(&self, e: &Storage) -> u64 {
        leaf_align(e, &|of, _| self.floors.get(&of).copied().unwrap_or(1))
    }

    /// An array element at `stride`: the element itself where `stride` is
    /// its size, else the element wrapped with padding up to `stride`.
    fn element(&mut self, element: &Layout, stride: u64, site: &Site) -> Option<Storage> {
        let e = self.host(element, site)?;
        if stride == e.size {
            return Some(e.ty);
        }
        if stride < e.size || !stride.is_multiple_of(e.align) {
            let fixed = e.size.checked_next_multiple_of(e.align.max(1))?;
            self.error(
                site,
                format!(
                    "{} has an array stride of {stride} bytes; a host array of its {}-byte elements (alignment {}) cannot have that stride",
                    site.what, e.size, e.align
                ),
                format!(
                    "help: give the array a stride that is a multiple of {} and at least {} (e.g. `@stride({fixed})`)",
                    e.align, e.size
                ),
                None,
            );
            return None;
        }
        let wrapper = HostStruct {
            of: StructRef::Element(self.out.elements.len()),
            size: stride,
            align: e.align,
            explicit_align: false,
            fields: vec![
                Field {
                    offset: 0,
                    ty: e.ty.clone(),
                    role: Role::Member(0),
                },
                padding(e.size, stride - e.size),
            ],
            tail: None,
        };
        let index = match self
            .out
            .elements
            .iter()
            .position(|w| w.size == wrapper.size && w.fields == wrapper.fields)
        {
            Some(i) => i,
            None => {
                self.out.elements.push(wrapper);
                let i = self.out.elements.len() - 1;
                self.floors.insert(StructRef::Element(i), e.floor);
                i
            }
        };
        Some(Storage::Struct {
            of: StructRef::Element(index),
            size: Some(stride),
            align: e.align,
        })
    }

    /// Lay out WGSL struct `h` (once); its index in `out.structs`.
    fn strukt(&mut self, h: Handle<naga::Type>) -> Option<usize> {
        if let Some(done) = self.done.get(&h) {
            return *done;
        }
        // Mark it failed while its members are laid out: types are acyclic,
        // so this is never read back before it is set.
        self.done.insert(h, None);
        let sl = self.contract.structs.get(&h)?;
        let result = self.struct_fields(h, sl);
        let index = result.map(|s| {
            self.out.structs.push(s);
            self.out.structs.len() - 1
        });
        self.done.insert(h, index);
        index
    }

    fn member_site(&self, sl: &StructLayout, index: usize, name: &str) -> Site {
        let ann = self.parsed.annotations.structs.get(sl.name.as_str());
        let m = ann.and_then(|a| a.member(index, name));
        let span = m
            .map(|m| m.name_span.clone())
            .or_else(|| ann.map(|a| a.name_span.clone()))
            .or_else(|| self.parsed.module.types.get_span(sl.ty).to_range())
            .unwrap_or(0..0);
        Site {
            what: format!("member `{name}` of struct `{}`", sl.name),
            span,
            insert_at: m.map(|m| m.span.start),
            align: m.and_then(|m| m.align.as_ref()).map(|a| a.span.clone()),
        }
    }

    fn struct_fields(&mut self, h: Handle<naga::Type>, sl: &StructLayout) -> Option<HostStruct> {
        let mut fields = Vec::with_capacity(sl.slots.len());
        let mut cursor = 0u64;
        let mut natural = 1u64;
        let mut tail = None;
        let mut failed = false;
        let mut last_site = None;
        for slot in &sl.slots {
            let Slot::Member(m) = slot else { continue };
            let site = self.member_site(sl, m.index, &m.name);
            if let LayoutKind::Array {
                element,
                stride,
                count: None,
            } = &m.layout.kind
            {
                match self.element(element, *stride, &site) {
                    Some(e) => {
                        tail = Some(Tail {
                            member: m.index,
                            offset: m.offset,
                            element: e,
                            stride: *stride,
                        })
                    }
                    None => failed = true,
                }
                last_site = Some(site);
                break;
            }
            let Some(host) = self.host(&m.layout, &site) else {
                failed = true;
                continue;
            };
            if m.offset > cursor {
                fields.push(padding(cursor, m.offset - cursor));
            }
            natural = natural.max(host.floor);
            cursor = m.offset.saturating_add(host.size);
            fields.push(Field {
                offset: m.offset,
                ty: host.ty,
                role: Role::Member(m.index),
            });
        }
        if failed {
            return None;
        }
        let (size, contract_align) = match (&tail, sl.size) {
            (Some(t), _) => (t.offset, natural),
            (None, Some(size)) => (size, sl.align),
            (None, None) => (cursor, natural),
        };
        if size > cursor {
            fields.push(padding(cursor, size - cursor));
        }
        // The largest alignment up to the contract's that divides the size,
        // so that `sizeof` is the contract size.
        let mut align = contract_align.max(1);
        while align > natural && !size.is_multiple_of(align) {
            align /= 2;
        }
        if !size.is_multiple_of(align) {
            let fixed = size.checked_next_multiple_of(natural)?;
            match (&tail, last_site) {
                (Some(t), Some(site)) => {
                    let fix = match (site.insert_at, &site.align) {
                        (Some(at), None) => Some(Fix {
                            title: format!("add `@align({natural})` to the array member"),
                            edits: vec![Edit {
                                span: at..at,
                                replacement: format!("@align({natural}) "),
                            }],
                            outcome: format!("the array starts at byte {fixed}"),
                        }),
                        _ => None,
                    };
                    self.error(
                        &site,
                        format!(
                            "{} starts at byte {}, but the fields before it are {natural}-byte aligned, so a host struct of them has a size that is a multiple of {natural} and cannot end at byte {}",
                            site.what, t.offset, t.offset
                        ),
                        format!("help: add `@align({natural})` to the array member so that it starts at byte {fixed}"),
                        fix,
                    );
                }
                _ => {
                    let ann = self.parsed.annotations.structs.get(sl.name.as_str());
                    let site = Site {
                        what: format!("struct `{}`", sl.name),
                        span: ann.map(|a| a.name_span.clone()).unwrap_or(0..0),
                        insert_at: None,
                        align: None,
                    };
                    self.error(
                        &site,
                        format!(
                            "struct `{}` is {size} bytes, which is not a multiple of the {natural}-byte alignment of its fields; no host struct of them has that size",
                            sl.name
                        ),
                        format!("help: give the struct a size that is a multiple of {natural} (`@size({fixed})`)"),
                        None,
                    );
                }
            }
            return None;
        }
        self.floors.insert(StructRef::Value(h), natural);
        Some(HostStruct {
            of: StructRef::Value(h),
            size,
            align,
            // Settled once every struct is known (`settle`).
            explicit_align: false,
            fields,
            tail,
        })
    }

    fn error(&mut self, site: &Site, message: String, help: String, fix: Option<Fix>) {
        let mut d = Diagnostic::inexpressible(message)
            .at(
                site.span.clone(),
                "the host cannot lay this out as the contract does",
            )
            .note(help);
        if let Some(fix) = fix {
            d = d.fix(fix);
        }
        self.errors.push(d);
    }
}

/// A padding field of `size` bytes at `offset`.
fn padding(offset: u64, size: u64) -> Field {
    Field {
        offset,
        ty: Storage::Array(Box::new(Storage::Scalar(PAD_BYTE)), Some(size)),
        role: Role::Padding,
    }
}

/// The largest power of two that divides `n` (`u64::MAX` for 0: no bound).
fn lowbit(n: u64) -> u64 {
    if n == 0 {
        u64::MAX
    } else {
        1 << n.trailing_zeros()
    }
}

/// Every struct `ty` holds, directly or as an array element.
pub fn refs(ty: &Storage, out: &mut Vec<StructRef>) {
    match ty {
        Storage::Array(e, _) => refs(e, out),
        Storage::Struct { of, .. } => out.push(*of),
        _ => {}
    }
}

/// Lower struct alignments until C's placement agrees with the contract
/// everywhere. Each struct starts at the largest alignment up to its
/// contract alignment that divides its size; a struct inside another must
/// also divide the outer struct's size and its own offset there, and may
/// not be more aligned than the outer struct can be. Then the recorded
/// alignments are written into every [`Storage::Struct`], and a struct
/// whose alignment is above its fields' gets it written out.
fn settle(out: &mut HostRealization) {
    let nodes: Vec<&HostStruct> = out.structs.iter().chain(&out.elements).collect();
    let index: IndexMap<StructRef, usize> =
        nodes.iter().enumerate().map(|(i, s)| (s.of, i)).collect();
    let mut cap: Vec<u64> = nodes.iter().map(|s| s.align).collect();
    let mut children = Vec::new();
    let mut changed = true;
    while changed {
        changed = false;
        for (p, parent) in nodes.iter().enumerate() {
            for f in &parent.fields {
                children.clear();
                refs(&f.ty, &mut children);
                let bound = cap[p].min(lowbit(parent.size)).min(lowbit(f.offset));
                for c in &children {
                    let Some(&c) = index.get(c) else { continue };
                    if cap[c] > bound {
                        cap[c] = bound;
                        changed = true;
                    }
                }
            }
        }
    }
    let aligns: IndexMap<StructRef, u64> = index.into_iter().map(|(r, i)| (r, cap[i])).collect();
    let fix = |ty: &mut Storage| fix_aligns(ty, &aligns);
    for (i, s) in out
        .structs
        .iter_mut()
        .chain(out.elements.iter_mut())
        .enumerate()
    {
        s.align = cap[i];
        let mut widest = 1;
        for f in &mut s.fields {
            fix(&mut f.ty);
            widest = widest.max(host_align(&f.ty));
        }
        if let Some(t) = &mut s.tail {
            fix(&mut t.element);
        }
        s.explicit_align = s.align > widest;
    }
    for b in &mut out.buffers {
        if let Some(ty) = &mut b.ty {
            fix(ty);
        }
        if let Some(t) = &mut b.tail {
            fix(&mut t.element);
        }
    }
}

fn fix_aligns(ty: &mut Storage, aligns: &IndexMap<StructRef, u64>) {
    match ty {
        Storage::Array(e, _) => fix_aligns(e, aligns),
        Storage::Struct { of, align, .. } => {
            if let Some(a) = aligns.get(of) {
                *align = *a;
            }
        }
        _ => {}
    }
}

/// `alignof` of a settled host type.
pub fn host_align(ty: &Storage) -> u64 {
    leaf_align(ty, &|_, align| align)
}

/// The alignment of a scalar, vector or matrix (its scalar's width), of an
/// array (its element's), or of a struct (`of_struct(which, recorded)`).
fn leaf_align(ty: &Storage, of_struct: &dyn Fn(StructRef, u64) -> u64) -> u64 {
    match ty {
        Storage::Scalar(s) | Storage::Vector(_, s) | Storage::Matrix { scalar: s, .. } => {
            u64::from(s.width)
        }
        Storage::Array(e, _) => leaf_align(e, of_struct),
        Storage::Struct { of, align, .. } => of_struct(*of, *align),
    }
}
