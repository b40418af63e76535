//! The plan: the cbuffer realization of [`crate::layout::realize::d3d`]
//! named for HLSL (cbuffers, members, variants, element structs and padding
//! members, in the order the realization made them, so that names are the
//! same on every run), the byte-address buffers, and the realization's
//! errors as diagnostics once the types they mention are spelled.

use super::*;
use crate::back::common::Taken;

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
    let caps = d3d::Capabilities {
        matrix_arrays: !slang,
    };
    let (real, in_words, notes) = d3d::realize_or_words(parsed, module, contract, &caps);
    let mut namer = Namer {
        module,
        contract,
        names,
        // `main` stays free for what the other parts invent.
        taken: Taken::new(names, &["main"]),
        named: Names::default(),
    };
    namer.name(&real);
    if !real.problems.is_empty() {
        let mut errors = real.diagnostics(&namer.named);
        for d in &mut errors.0 {
            if d.kind == DiagnosticKind::Inexpressible {
                d.notes.push(text!("note: {INEXPRESSIBLE_NOTE}"));
            }
        }
        return Err(errors);
    }
    let mut storages = Vec::new();
    for (i, g) in contract.globals.iter().enumerate() {
        // A uniform declared as words is read only, as a storage global
        // without STORE access.
        let as_words = in_words.contains(&i);
        let read_only = match g.space {
            _ if as_words => true,
            naga::AddressSpace::Storage { access } => !access.contains(naga::StorageAccess::STORE),
            _ => continue,
        };
        let name = namer.global_name(g.handle).to_string();
        // `cbuffer <global>_cb { uint4 <global>_words[N]; }`, free of clashes.
        let words = as_words.then(|| Words {
            cbuffer: namer.fresh(text!("{name}_cb")),
            words: namer.fresh(text!("{name}_words")),
        });
        storages.push(Storage {
            global: g.handle,
            name,
            read_only,
            layout: g.layout.clone(),
            span: d3d::global_span(parsed, module, g),
            words,
        });
    }
    Ok(Plan {
        real,
        names: namer.named,
        storages,
        notes,
        aggregate_arrays_by_element: slang,
    })
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

/// Names what the realization made, in the order it made them.
struct Namer<'a> {
    module: &'a naga::Module,
    contract: &'a LayoutModule,
    names: &'a naga::FastHashMap<NameKey, String>,
    /// Every global name given out (by the namer and here).
    taken: Taken<'a>,
    named: Names,
}

impl<'a> Namer<'a> {
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
        crate::back::common::plan_type_name(self.names, self.module, h)
    }

    fn member_name<'s>(&self, h: Handle<naga::Type>, index: usize, fallback: &'s str) -> &'s str
    where
        'a: 's,
    {
        self.names
            .get(&NameKey::StructMember(h, index as u32))
            .map_or(fallback, String::as_str)
    }

    /// Whether `name` is the HLSL name of a member of struct `h`.
    fn is_member_name(&self, h: Handle<naga::Type>, sl: &StructLayout, name: &str) -> bool {
        d3d::member_slots(sl).any(|m| self.member_name(h, m.index, &m.name) == name)
    }

    /// The contract of buffer global `g`.
    fn global(&self, g: Handle<naga::GlobalVariable>) -> Option<&'a GlobalLayout> {
        self.contract.globals.iter().find(|l| l.handle == g)
    }

    /// The HLSL name of buffer global `g`.
    fn global_name(&self, g: Handle<naga::GlobalVariable>) -> &'a str {
        match self.names.get(&NameKey::GlobalVariable(g)) {
            Some(n) => n,
            None => self.global(g).map_or("", |l| l.name.as_str()),
        }
    }

    /// The HLSL name of WGSL member `member` (in offset order) of the
    /// struct global `g`.
    fn global_member_name(&self, g: Handle<naga::GlobalVariable>, member: usize) -> &'a str {
        let Some(LayoutKind::Struct(h)) = self.global(g).map(|l| &l.layout.kind) else {
            return "";
        };
        let slot = self
            .contract
            .structs
            .get(h)
            .and_then(|sl| d3d::member_slots(sl).nth(member));
        slot.map_or("", |m| self.member_name(*h, m.index, &m.name))
    }

    fn name(&mut self, r: &CbufferRealization) {
        self.named.cbuffers = r
            .cbuffers
            .iter()
            .map(|c| Named {
                fields: vec![String::new(); c.fields.len()],
                ..Named::default()
            })
            .collect();
        self.named.variants = vec![Named::default(); r.variants.len()];
        self.named.elements = vec![Named::default(); r.elements.len()];
        let mut pads = vec![0usize; r.cbuffers.len()];
        for made in &r.made {
            match *made {
                Made::Cbuffer(i) => {
                    let Some(c) = r.cbuffers.get(i) else { continue };
                    let name = self.fresh([self.global_name(c.global), "_cb"].concat());
                    self.named.cbuffers[i].name = name;
                }
                Made::Member {
                    cbuffer,
                    member,
                    columns,
                } => {
                    let Some(c) = r.cbuffers.get(cbuffer) else {
                        continue;
                    };
                    let base = [
                        self.global_name(c.global),
                        "_",
                        self.global_member_name(c.global, member),
                    ]
                    .concat();
                    let name = match columns {
                        Some(n) => self.fresh_columns(&base, n),
                        None => self.fresh(base),
                    };
                    self.named.cbuffers[cbuffer].members.push(name);
                }
                Made::Value { cbuffer, columns } => {
                    let Some(c) = r.cbuffers.get(cbuffer) else {
                        continue;
                    };
                    // The global's own name is free: nothing else declares it.
                    let name = self.global_name(c.global).to_string();
                    for j in 0..columns.unwrap_or(0) {
                        self.taken.insert(&column_name(&name, j));
                    }
                    self.named.cbuffers[cbuffer].members.push(name);
                }
                Made::Pad { cbuffer, field } => {
                    let Some(c) = r.cbuffers.get(cbuffer) else {
                        continue;
                    };
                    let n = pad_name(Some(self.global_name(c.global)), pads[cbuffer]);
                    pads[cbuffer] += 1;
                    let name = self.fresh(n);
                    if let Some(f) = self.named.cbuffers[cbuffer].fields.get_mut(field) {
                        *f = name;
                    }
                }
                Made::Variant(i) => self.name_variant(r, i),
                Made::Element(i) => self.name_element(r, i),
            }
        }
        for (c, named) in r.cbuffers.iter().zip(&mut self.named.cbuffers) {
            for (f, name) in c.fields.iter().zip(&mut named.fields) {
                if let Some(n) = field_name(&named.members, f.role) {
                    *name = n;
                }
            }
        }
    }

    fn name_variant(&mut self, r: &CbufferRealization, i: usize) {
        let Some(v) = r.variants.get(i) else { return };
        let h = v.ty;
        let Some(sl) = self.contract.structs.get(&h) else {
            return;
        };
        let mut members = Vec::with_capacity(v.members.len());
        for (m, repr) in d3d::member_slots(sl).zip(&v.members) {
            let mut prefix = self.member_name(h, m.index, &m.name).to_string();
            if let Repr::Columns { columns, .. } = repr {
                while (0..*columns).any(|j| self.is_member_name(h, sl, &column_name(&prefix, j))) {
                    prefix = text!("_s_{prefix}");
                }
            }
            members.push(prefix);
        }
        let fields = field_names(&v.fields, &members, |n| self.is_member_name(h, sl, n));
        let name = if v.value {
            self.type_name(h).into_owned()
        } else {
            let base = match v.stride {
                Some(s) => text!("{}_cb_s{s}", self.type_name(h)),
                None => text!("{}_cb", self.type_name(h)),
            };
            self.fresh(base)
        };
        self.named.variants[i] = Named {
            name,
            members,
            fields,
        };
    }

    fn name_element(&mut self, r: &CbufferRealization, i: usize) {
        let Some(e) = r.elements.get(i) else { return };
        let members = vec!["v".to_string()];
        let fields = field_names(&e.fields, &members, |_| false);
        let mut values = e.fields.iter().filter(|f| !f.is_padding());
        let what = match (values.next(), values.count()) {
            (Some(one), 0) => self.named.mangle(&one.ty),
            // The columns of a matrix: `float3x2_cols`.
            (
                Some(Field {
                    ty: LStorage::Vector(rows, s),
                    ..
                }),
                more,
            ) => text!(
                "{}_cols",
                super::super::types::matrix(more as u8 + 1, *rows, *s)
            ),
            _ => "element".to_string(),
        };
        let name = self.fresh(text!("_s_{what}_s{}", e.size));
        self.named.elements[i] = Named {
            name,
            members,
            fields,
        };
    }
}

/// The name of a field of role `role` in a declaration whose WGSL members
/// are named `members`; `None` for padding.
fn field_name(members: &[String], role: Role) -> Option<String> {
    match role {
        Role::Member(k) => Some(members.get(k).cloned().unwrap_or_default()),
        Role::Column { member, column } => members.get(member).map(|m| column_name(m, column)),
        Role::Padding => None,
    }
}

/// The name of every field of a struct whose WGSL members are named
/// `members` ([`field_name`]); padding `_s_pad<N>`, numbered in order,
/// skipping the names `taken` says are taken.
fn field_names(fields: &[Field], members: &[String], taken: impl Fn(&str) -> bool) -> Vec<String> {
    let mut pads = 0;
    let mut pad = || loop {
        let n = pad_name(None, pads);
        pads += 1;
        if !taken(&n) {
            break n;
        }
    };
    let name = |f: &Field| field_name(members, f.role).unwrap_or_else(&mut pad);
    fields.iter().map(name).collect()
}

/// The names given to what the realization made, one per cbuffer, variant
/// and element struct, which spell the stored types.
#[derive(Clone, Debug, Default)]
pub struct Names {
    pub cbuffers: Vec<Named>,
    pub variants: Vec<Named>,
    pub elements: Vec<Named>,
}

impl Names {
    fn named(&self, of: d3d::Of) -> Option<&Named> {
        match of {
            d3d::Of::Cbuffer(i) => self.cbuffers.get(i),
            d3d::Of::Variant(i) => self.variants.get(i),
            d3d::Of::Element(i) => self.elements.get(i),
        }
    }

    /// The name of a struct a field stores.
    fn struct_name(&self, of: StructRef) -> &str {
        let named = match of {
            StructRef::Variant(i) => self.variants.get(i),
            StructRef::Element(i) => self.elements.get(i),
            StructRef::Value(_) | StructRef::Columns(_) => None,
        };
        named.map_or("", |n| n.name.as_str())
    }

    /// `{base} {name}{dims}`, appended to `out`: a member declaration.
    pub(super) fn push_declarator(&self, out: &mut String, ty: &LStorage, name: &str) {
        self.push_base(out, ty, true);
        out.push(' ');
        out.push_str(name);
        push_dims(out, ty);
    }

    /// The type part of a declaration (with `row_major` where a matrix
    /// and `declared`), appended to `out`.
    pub(super) fn push_base(&self, out: &mut String, ty: &LStorage, declared: bool) {
        match ty {
            LStorage::Scalar(s) => out.push_str(super::super::types::scalar(*s)),
            LStorage::Vector(n, s) => out.push_str(&super::super::types::vector(*n, *s)),
            LStorage::Matrix {
                columns,
                rows,
                scalar,
            } => {
                if declared {
                    out.push_str("row_major ");
                }
                out.push_str(&super::super::types::matrix(*columns, *rows, *scalar));
            }
            LStorage::Array(e, _) => self.push_base(out, e, declared),
            LStorage::Struct { of, .. } => out.push_str(self.struct_name(*of)),
        }
    }

    /// The spelling of a stored type without `row_major`, for messages.
    pub(super) fn describe(&self, ty: &LStorage) -> String {
        let mut out = String::new();
        self.push_base(&mut out, ty, false);
        push_dims(&mut out, ty);
        out
    }

    /// A helper-name fragment for a stored type.
    fn mangle(&self, ty: &LStorage) -> String {
        match ty {
            LStorage::Array(e, n) => text!("a{}_{}", n.unwrap_or(0), self.mangle(e)),
            other => self.describe(other),
        }
    }
}

/// The array dimensions of a stored type, appended to `out`.
fn push_dims(out: &mut String, ty: &LStorage) {
    if let LStorage::Array(e, n) = ty {
        out.push('[');
        super::super::push_decimal(out, n.unwrap_or(0));
        out.push(']');
        push_dims(out, e);
    }
}

impl crate::layout::realize::Spelling<d3d::Of> for Names {
    fn storage(&self, ty: &LStorage) -> String {
        self.describe(ty)
    }

    fn name(&self, of: d3d::Of) -> String {
        self.named(of).map_or_else(String::new, |n| n.name.clone())
    }

    fn field(&self, of: d3d::Of, index: usize) -> String {
        self.named(of)
            .and_then(|n| n.fields.get(index))
            .cloned()
            .unwrap_or_default()
    }
}

/// [`d3d::verify`]'s findings for `plan`, as messages.
#[cfg(test)]
pub(super) fn verify_plan(plan: &Plan) -> Vec<String> {
    d3d::verify(&plan.real)
        .iter()
        .map(|p| p.diagnostic(&plan.names).message)
        .collect()
}
