//! Host structs: `--target c` (a C11 header that also compiles as C++17)
//! and `--target rust` (a Rust module with no dependency).
//!
//! Both print [`crate::layout::realize::host`]'s realization; this module
//! holds what they share: the declaration order, the names (structs,
//! element wrappers, padding fields, binding constants) and the walk over
//! the realized fields. Each language keeps its own syntax and keywords.

pub mod c;
pub mod rust;

use crate::layout::realize::host::{refs, HostRealization, HostStruct, Tail};
use crate::layout::realize::{Role, Storage, StructRef};
use crate::layout::LayoutModule;
use indexmap::IndexSet;

/// Options of the host targets.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HostOptions {
    /// Name of the output's stem (the C include guard); the CLI passes the
    /// input file's stem. Default `shader`.
    pub name: Option<String>,
    /// Rust: also derive `bytemuck::Pod` and `bytemuck::Zeroable`.
    pub bytemuck: bool,
}

/// One declaration, in the order the output makes them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Decl {
    /// `realization.structs[i]`.
    Struct(usize),
    /// `realization.elements[i]`.
    Element(usize),
}

/// A field as printed: its name and what it holds.
pub(crate) struct Member<'a> {
    pub name: String,
    pub offset: u64,
    pub ty: &'a Storage,
}

/// A runtime-sized array's constants.
pub(crate) struct TailNames {
    /// `<GLOBAL>_<MEMBER>`, the prefix of `_OFFSET` and `_STRIDE`.
    pub constant: String,
    /// The element type's alias name.
    pub alias: String,
    /// The alias needs its own declaration (`typedef` / `pub type`): the
    /// element is not a wrapper declared under that name.
    pub typedef: bool,
}

/// One buffer as printed.
pub(crate) struct BufferNames<'a> {
    /// The global's WGSL name.
    pub wgsl: &'a str,
    /// `PARAMS` for `params`: the prefix of its constants.
    pub constant: String,
    /// `uniform`, `storage, read_write`, `immediate`, ...
    pub space: String,
    pub binding: Option<naga::ResourceBinding>,
    pub min_binding_size: u64,
    /// `<global>_Type`: an alias of the buffer's type (with a runtime-sized
    /// array, of the fixed head before it); none for a global that is
    /// itself a runtime-sized array.
    pub alias: Option<(&'a Storage, String)>,
    pub tail: Option<(&'a Tail, TailNames)>,
    /// The WGSL type as written (for the comment).
    pub wgsl_type: String,
}

/// The realization with every name chosen, in declaration order.
pub(crate) struct Named<'a> {
    pub realization: &'a HostRealization,
    pub order: Vec<Decl>,
    /// Names of `realization.structs` and `realization.elements`.
    struct_names: Vec<String>,
    element_names: Vec<String>,
    pub buffers: Vec<BufferNames<'a>>,
}

impl<'a> Named<'a> {
    /// Choose names and order. `escape` turns a WGSL identifier that is a
    /// keyword of the host language into one that is not.
    pub fn new(
        contract: &'a LayoutModule,
        realization: &'a HostRealization,
        escape: fn(&str) -> String,
    ) -> Named<'a> {
        let mut taken: IndexSet<String> = IndexSet::new();
        let wgsl_names: Vec<&str> = realization
            .structs
            .iter()
            .map(|s| match s.of {
                StructRef::Value(h) => contract.structs.get(&h).map_or("Struct", |l| &l.name),
                _ => "Struct",
            })
            .collect();
        let struct_names = keep_names(&wgsl_names, escape, &mut taken);
        let mut named = Named {
            realization,
            order: Vec::new(),
            struct_names,
            element_names: vec![String::new(); realization.elements.len()],
            buffers: Vec::new(),
        };
        // Elements are named after their first user.
        let mut seen = vec![false; realization.structs.len() + realization.elements.len()];
        for i in 0..realization.structs.len() {
            named.visit(Decl::Struct(i), &mut seen, contract, &mut taken);
        }
        for (b, g) in realization.buffers.iter().zip(&contract.globals) {
            let owner = g.name.as_str();
            if let Some(ty) = &b.ty {
                named.name_elements(ty, owner, "", &mut taken);
            }
            let tail = b.tail.as_ref().map(|t| {
                let member = match (&b.ty, &g.layout.kind) {
                    (Some(_), crate::layout::LayoutKind::Struct(h)) => contract
                        .structs
                        .get(h)
                        .and_then(|s| s.members().find(|m| m.index == t.member))
                        .map(|m| m.name.to_string()),
                    _ => None,
                };
                let alias = match &member {
                    Some(m) => format!("{owner}_{m}_Element"),
                    None => format!("{owner}_Element"),
                };
                // An element wrapper named for this array is its alias;
                // any other element takes the alias's name first, and
                // wrappers inside it are named after the alias.
                let (alias, typedef) = match &t.element {
                    Storage::Struct {
                        of: StructRef::Element(i),
                        ..
                    } => {
                        named.name_elements(
                            &t.element,
                            owner,
                            member.as_deref().unwrap_or(""),
                            &mut taken,
                        );
                        if named.element_names[*i] == alias {
                            (alias, false)
                        } else {
                            (unique(&mut taken, escape(&alias)), true)
                        }
                    }
                    _ => {
                        let alias = unique(&mut taken, escape(&alias));
                        named.name_elements(&t.element, &alias, "", &mut taken);
                        (alias, true)
                    }
                };
                let member = member.map(|m| constant_name(&m));
                (t, member, alias, typedef)
            });
            let constant = constant_prefix(
                &g.name,
                g.binding.is_some(),
                tail.as_ref().map(|(_, m, _, _)| m.as_deref()),
                &mut taken,
            );
            let tail = tail.map(|(t, member, alias, typedef)| {
                let constant = match member {
                    Some(m) => format!("{constant}_{m}"),
                    None => constant.clone(),
                };
                (
                    t,
                    TailNames {
                        constant,
                        alias,
                        typedef,
                    },
                )
            });
            let alias =
                b.ty.as_ref()
                    .map(|ty| (ty, unique(&mut taken, escape(&format!("{owner}_Type")))));
            named.buffers.push(BufferNames {
                wgsl: g.name.as_str(),
                constant,
                alias,
                space: space_name(g.space),
                binding: g.binding,
                min_binding_size: b.min_binding_size,
                tail,
                wgsl_type: crate::back::listing::layout_type_name(contract, &g.layout),
            });
        }
        // Wrappers only buffers hold (a global that is an array) are
        // declared too, after their contents.
        let mut roots = Vec::new();
        for b in &realization.buffers {
            if let Some(ty) = &b.ty {
                refs(ty, &mut roots);
            }
            if let Some(t) = &b.tail {
                refs(&t.element, &mut roots);
            }
        }
        for r in roots {
            if let StructRef::Element(i) = r {
                named.visit(Decl::Element(i), &mut seen, contract, &mut taken);
            }
        }
        named
    }

    /// Put `d` in `order` after everything its fields hold; name the
    /// element wrappers it is the first user of.
    fn visit(
        &mut self,
        d: Decl,
        seen: &mut [bool],
        contract: &LayoutModule,
        taken: &mut IndexSet<String>,
    ) {
        let structs = self.realization.structs.len();
        let slot = match d {
            Decl::Struct(i) => i,
            Decl::Element(i) => structs + i,
        };
        if seen[slot] {
            return;
        }
        seen[slot] = true;
        let (s, owner) = match d {
            Decl::Struct(i) => (&self.realization.structs[i], self.struct_names[i].clone()),
            Decl::Element(i) => (&self.realization.elements[i], self.element_names[i].clone()),
        };
        let mut deps = Vec::new();
        for f in &s.fields {
            refs(&f.ty, &mut deps);
        }
        if let Some(t) = &s.tail {
            refs(&t.element, &mut deps);
        }
        // Name wrappers after the member that first holds them.
        for f in &s.fields {
            if let Role::Member(m) = f.role {
                let member = self.member_wgsl_name(s, m, contract);
                self.name_elements(&f.ty, &owner, &member, taken);
            }
        }
        if let Some(t) = &s.tail {
            let member = self.member_wgsl_name(s, t.member, contract);
            self.name_elements(&t.element, &owner, &member, taken);
        }
        for dep in deps {
            let dep = match dep {
                StructRef::Value(h) => {
                    match self
                        .realization
                        .structs
                        .iter()
                        .position(|x| x.of == StructRef::Value(h))
                    {
                        Some(i) => Decl::Struct(i),
                        None => continue,
                    }
                }
                StructRef::Element(i) => Decl::Element(i),
                _ => continue,
            };
            self.visit(dep, seen, contract, taken);
        }
        if !self.order.contains(&d) {
            self.order.push(d);
        }
    }

    fn member_wgsl_name(&self, s: &HostStruct, member: usize, contract: &LayoutModule) -> String {
        match s.of {
            StructRef::Value(h) => contract
                .structs
                .get(&h)
                .and_then(|l| l.members().find(|m| m.index == member))
                .map_or_else(|| format!("m{member}"), |m| m.name.to_string()),
            _ => "value".to_string(),
        }
    }

    /// Name every unnamed element wrapper inside `ty`.
    fn name_elements(
        &mut self,
        ty: &Storage,
        owner: &str,
        member: &str,
        taken: &mut IndexSet<String>,
    ) {
        match ty {
            Storage::Array(e, _) => self.name_elements(e, owner, member, taken),
            Storage::Struct {
                of: StructRef::Element(i),
                ..
            } if self.element_names[*i].is_empty() => {
                let base = if member.is_empty() {
                    format!("{owner}_Element")
                } else {
                    format!("{owner}_{member}_Element")
                };
                self.element_names[*i] = unique(taken, base);
                let inner = self.realization.elements[*i].fields[0].ty.clone();
                let name = self.element_names[*i].clone();
                self.name_elements(&inner, &name, "", taken);
            }
            _ => {}
        }
    }

    /// The name of a struct a [`Storage::Struct`] refers to.
    pub fn struct_name(&self, of: StructRef) -> &str {
        match of {
            StructRef::Value(h) => self
                .realization
                .structs
                .iter()
                .position(|s| s.of == StructRef::Value(h))
                .map_or("Struct", |i| &self.struct_names[i]),
            StructRef::Element(i) => self.element_names.get(i).map_or("Element", |s| s),
            _ => "Struct",
        }
    }

    /// A declaration's struct and name.
    pub fn decl(&self, d: Decl) -> (&'a HostStruct, &str) {
        match d {
            Decl::Struct(i) => (&self.realization.structs[i], &self.struct_names[i]),
            Decl::Element(i) => (&self.realization.elements[i], &self.element_names[i]),
        }
    }

    /// The fields of `s` with their names: WGSL names through `escape`,
    /// `value` for a wrapper's value, `_pad<N>` for padding.
    pub fn members(
        &self,
        s: &'a HostStruct,
        contract: &LayoutModule,
        escape: fn(&str) -> String,
    ) -> Vec<Member<'a>> {
        // WGSL members keep their names; a keyword's escape skips the
        // other members' names. Padding fields are `_pad0`, `_pad1`, ...,
        // skipping the members' names (a source may have its own `_pad0`).
        let wgsl: Vec<String> = s
            .fields
            .iter()
            .filter_map(|f| match (f.role, s.of) {
                (Role::Member(m), StructRef::Value(_)) => {
                    Some(self.member_wgsl_name(s, m, contract))
                }
                _ => None,
            })
            .collect();
        let wgsl: Vec<&str> = wgsl.iter().map(String::as_str).collect();
        let mut taken = IndexSet::new();
        let mut member_names = keep_names(&wgsl, escape, &mut taken).into_iter();
        let mut pads = 0u32;
        let mut out = Vec::with_capacity(s.fields.len());
        for f in &s.fields {
            let name = match f.role {
                Role::Padding => loop {
                    let candidate = format!("_pad{pads}");
                    pads += 1;
                    if !taken.contains(&candidate) {
                        break candidate;
                    }
                },
                Role::Member(_) => match s.of {
                    StructRef::Element(_) => "value".to_string(),
                    _ => member_names.next().unwrap_or_default(),
                },
                Role::Column { member, column } => format!("m{member}_c{column}"),
            };
            out.push(Member {
                name,
                offset: f.offset,
                ty: &f.ty,
            });
        }
        out
    }
}

/// `name`, or `name_2`, `name_3`, ... where it is taken.
fn unique(taken: &mut IndexSet<String>, name: String) -> String {
    if taken.insert(name.clone()) {
        return name;
    }
    let mut n = 2u32;
    loop {
        let candidate = format!("{name}_{n}");
        if taken.insert(candidate.clone()) {
            return candidate;
        }
        n += 1;
    }
}

/// Names for WGSL identifiers that are unique among themselves (struct
/// names in a module, member names in a struct): each keeps its WGSL
/// spelling where `escape` leaves it alone; a keyword gets its escape, or
/// where that is taken (`int` beside a member `int_`), `<name>_2`,
/// `<name>_3`, ... Every name is added to `taken`.
fn keep_names(
    wgsl: &[&str],
    escape: fn(&str) -> String,
    taken: &mut IndexSet<String>,
) -> Vec<String> {
    let mut out: Vec<Option<String>> = wgsl
        .iter()
        .map(|n| {
            let e = escape(n);
            (e == *n && taken.insert(e.clone())).then_some(e)
        })
        .collect();
    for (slot, n) in out.iter_mut().zip(wgsl) {
        if slot.is_none() {
            let e = escape(n);
            let mut k = 2u32;
            let mut name = e;
            while !taken.insert(name.clone()) {
                name = format!("{n}_{k}");
                k += 1;
            }
            *slot = Some(name);
        }
    }
    out.into_iter().flatten().collect()
}

/// The prefix of a buffer's constants: `MY_PARAMS` for `myParams`, or
/// `MY_PARAMS_2`, ... where one of its constants (`_GROUP`, `_BINDING`,
/// `_MIN_BINDING_SIZE`, the runtime-sized array's `_OFFSET`, `_STRIDE`)
/// is already a name in the output (`my_params` beside `myParams`, or a
/// struct named `MY_PARAMS_GROUP`, which a C macro would replace).
fn constant_prefix(
    global: &str,
    binding: bool,
    tail: Option<Option<&str>>,
    taken: &mut IndexSet<String>,
) -> String {
    let base = constant_name(global);
    let names = |p: &str| {
        let mut v = Vec::new();
        if binding {
            v.push(format!("{p}_GROUP"));
            v.push(format!("{p}_BINDING"));
        }
        v.push(format!("{p}_MIN_BINDING_SIZE"));
        if let Some(m) = tail {
            let t = m.map_or_else(|| p.to_string(), |m| format!("{p}_{m}"));
            v.push(format!("{t}_OFFSET"));
            v.push(format!("{t}_STRIDE"));
        }
        v
    };
    let mut prefix = base.clone();
    let mut n = 2u32;
    while names(&prefix).iter().any(|c| taken.contains(c)) {
        prefix = format!("{base}_{n}");
        n += 1;
    }
    taken.extend(names(&prefix));
    prefix
}

/// `MY_PARAMS` for `myParams` or `my_params`: upper snake case. Leading
/// underscores go (`_params` gives `PARAMS`, not the `_P...` names C
/// reserves).
pub fn constant_name(name: &str) -> String {
    let name = match name.trim_start_matches('_') {
        "" => "BUFFER",
        rest => rest,
    };
    let mut out = String::with_capacity(name.len() + 4);
    let mut prev_lower = false;
    for c in name.chars() {
        if c.is_ascii_uppercase() && prev_lower {
            out.push('_');
        }
        prev_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
        out.push(c.to_ascii_uppercase());
    }
    out
}

fn space_name(space: naga::AddressSpace) -> String {
    match space {
        naga::AddressSpace::Uniform => "uniform".to_string(),
        naga::AddressSpace::Storage { access } => {
            if access.contains(naga::StorageAccess::STORE) {
                "storage, read_write".to_string()
            } else {
                "storage, read".to_string()
            }
        }
        naga::AddressSpace::Immediate => "immediate".to_string(),
        other => format!("{other:?}"),
    }
}

/// A leaf scalar's kind, for the printers.
pub(crate) fn scalar_of(ty: &Storage) -> Option<naga::Scalar> {
    match ty {
        Storage::Scalar(s) | Storage::Vector(_, s) | Storage::Matrix { scalar: s, .. } => Some(*s),
        Storage::Array(e, _) => scalar_of(e),
        Storage::Struct { .. } => None,
    }
}

/// The array lengths of `ty` from the outside in (vectors and matrices
/// count as arrays of their scalar: `[columns][rows]`), and the innermost
/// non-array type.
pub(crate) fn dims(ty: &Storage) -> (Vec<u64>, &Storage) {
    let mut dims = Vec::new();
    let mut t = ty;
    loop {
        match t {
            Storage::Array(e, n) => {
                dims.push(n.unwrap_or(0));
                t = e;
            }
            Storage::Vector(n, _) => {
                dims.push(u64::from(*n));
                return (dims, t);
            }
            Storage::Matrix { columns, rows, .. } => {
                dims.push(u64::from(*columns));
                dims.push(u64::from(*rows));
                return (dims, t);
            }
            _ => return (dims, t),
        }
    }
}

/// How the host stores a scalar: its kind and width in bits. An `f16` is
/// stored as its bits (unsigned, 16): neither C nor stable Rust has a
/// portable half type. Bool never reaches a buffer.
pub(crate) fn host_scalar(s: naga::Scalar) -> (naga::ScalarKind, u32) {
    use naga::ScalarKind as K;
    let bits = u32::from(s.width) * 8;
    match s.kind {
        K::Float if bits >= 32 => (K::Float, bits),
        K::Sint => (K::Sint, bits),
        _ => (K::Uint, bits),
    }
}
