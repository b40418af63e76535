//! Module-level steps the text backends (GLSL, HLSL) share: the order
//! globals are declared in, which functions an entry point reaches, and
//! the clean-up after override baking (array sizes, contract handles).

use crate::layout::{Layout, LayoutKind, LayoutModule, MemberSlot, Slot};
use indexmap::IndexMap;
use naga::{Handle, TypeInner};

#[cfg(test)]
pub(crate) use crate::front::module::calls_in;
pub(crate) use crate::front::module::{declaration_order, element_inner, reachable_functions};

/// The modules of one translation, made once each: the parsed module with
/// its validation (once per translation, `crate::Analysis`) and contract,
/// and, when a writer first asks for it, its copy with the overrides baked
/// (validated once more, by naga's baking); for each, the binding
/// assignments of every API ([`crate::bind::Assignments`]), each made on
/// first request. `lib.rs` makes one per translation, so that `--target
/// reflect` bakes once and assigns each API's bindings once for all the
/// targets it reports.
pub(crate) struct Modules<'a> {
    pub parsed: &'a crate::front::Parsed,
    info: &'a naga::valid::ModuleInfo,
    contract: &'a LayoutModule,
    /// The entry point chosen and the values the overrides are baked with
    /// (`--entry-point`, `--override`), the same for every writer.
    pub pipeline: &'a crate::back::Pipeline,
    source: crate::bind::Assignments,
    baked: std::cell::OnceCell<Result<Baked, crate::diag::Diagnostics>>,
    /// Where the text writers' `#line` directives point; `None`: none.
    pub lines: Option<crate::back::lines::LineMap>,
}

/// The module with its overrides baked, its info, its contract (remapped
/// onto its handles) and its binding assignments.
struct Baked {
    module: naga::Module,
    info: naga::valid::ModuleInfo,
    contract: LayoutModule,
    bindings: crate::bind::Assignments,
}

/// The module a text writer writes (`parsed.module` or its copy with the
/// overrides baked), with its info, contract and binding assignments.
#[derive(Clone, Copy)]
pub(crate) struct Written<'a> {
    pub module: &'a naga::Module,
    pub info: &'a naga::valid::ModuleInfo,
    pub contract: &'a LayoutModule,
    pub bindings: &'a crate::bind::Assignments,
    /// Whether the overrides were baked.
    pub baked: bool,
}

impl Written<'_> {
    /// The module's globals in declaration order.
    pub fn order(&self) -> &[Handle<naga::GlobalVariable>] {
        self.bindings.order(self.module)
    }
}

impl<'a> Modules<'a> {
    /// `info`: `parsed.module`'s validation; `pipeline`: the entry point
    /// and override values the writers are given.
    pub fn new(
        parsed: &'a crate::front::Parsed,
        info: &'a naga::valid::ModuleInfo,
        contract: &'a LayoutModule,
        pipeline: &'a crate::back::Pipeline,
    ) -> Self {
        Modules {
            parsed,
            info,
            contract,
            pipeline,
            source: Default::default(),
            baked: Default::default(),
            lines: None,
        }
    }

    /// These modules, with the text writers writing `#line` directives
    /// in `form` (already resolved for the target) naming `source_name`.
    pub fn with_lines(
        mut self,
        form: crate::back::lines::LineDirectives,
        source_name: &str,
    ) -> Self {
        self.lines = crate::back::lines::LineMap::new(self.parsed, form, source_name);
        self
    }

    /// The indices of the entry points to write: every one, or the one
    /// the pipeline names (an error listing the others when there is none
    /// of that name).
    pub fn selected_entry_points(&self) -> Result<Vec<usize>, crate::diag::Diagnostics> {
        let entry_points = &self.parsed.module.entry_points;
        let Some(name) = &self.pipeline.entry_point else {
            return Ok((0..entry_points.len()).collect());
        };
        if let Some(i) = entry_points.iter().position(|e| e.name == *name) {
            return Ok(vec![i]);
        }
        let available: Vec<String> = entry_points
            .iter()
            .map(|e| format!("`{}`", e.name))
            .collect();
        Err(crate::diag::Diagnostic::error(format!(
            "no entry point named `{name}` in this module (-e {name})"
        ))
        .note(format!("the entry points are {}", available.join(", ")))
        .into())
    }

    /// The parsed module.
    pub fn source(&self) -> Written<'_> {
        Written {
            module: &self.parsed.module,
            info: self.info,
            contract: self.contract,
            bindings: &self.source,
            baked: false,
        }
    }

    /// The module a writer writes: with `bake`, `(target, why)` of the
    /// baking warnings, the baked module (and a warning per override in
    /// `warnings`, see [`crate::back::overrides::notes`]), else the parsed
    /// module.
    pub fn written(
        &self,
        bake: Option<(&str, &str)>,
        warnings: &mut Vec<crate::diag::Diagnostic>,
    ) -> Result<Written<'_>, crate::diag::Diagnostics> {
        let Some((target, why)) = bake else {
            return Ok(self.source());
        };
        let written = self.baked()?;
        warnings.extend(crate::back::overrides::notes(
            &self.parsed.module,
            &self.pipeline.overrides,
            target,
            why,
        ));
        Ok(written)
    }

    /// The module with its overrides baked, made on the first call: naga's
    /// baking (which validates the result), override-sized arrays given
    /// their length, the contract remapped.
    pub fn baked(&self) -> Result<Written<'_>, crate::diag::Diagnostics> {
        let baked = self.baked.get_or_init(|| {
            let (mut module, mut info) = crate::back::overrides::bake_module(
                &self.parsed.module,
                self.info,
                &self.pipeline.overrides,
            )?;
            if resolve_pending_sizes(&mut module) == PendingSizes::Merged {
                info = crate::front::validate(&module)?;
            }
            let contract = remap_contract(self.contract, &self.parsed.module, &module);
            Ok(Baked {
                module,
                info,
                contract,
                bindings: Default::default(),
            })
        });
        match baked {
            Ok(b) => Ok(Written {
                module: &b.module,
                info: &b.info,
                contract: &b.contract,
                bindings: &b.bindings,
                baked: true,
            }),
            Err(e) => Err(e.clone()),
        }
    }
}

/// What a text writer writes one module from: the parse, the module
/// written (`parsed.module` or its copy with the overrides baked) with its
/// info and contract, and where `#line` directives point.
#[derive(Clone, Copy)]
pub(crate) struct ModuleSource<'a> {
    pub parsed: &'a crate::front::Parsed,
    pub module: &'a naga::Module,
    pub info: &'a naga::valid::ModuleInfo,
    /// The contract layout of `module` (after override baking, remapped).
    pub contract: &'a LayoutModule,
    /// Where `#line` directives point (`None`: the output has none).
    pub lines: Option<&'a crate::back::lines::LineMap>,
}

impl<'a> ModuleSource<'a> {
    /// `parsed.module` itself, with no `#line` directives.
    #[cfg(test)]
    pub fn parsed(
        parsed: &'a crate::front::Parsed,
        info: &'a naga::valid::ModuleInfo,
        contract: &'a LayoutModule,
    ) -> Self {
        ModuleSource {
            parsed,
            module: &parsed.module,
            info,
            contract,
            lines: None,
        }
    }
}

impl<'a> Modules<'a> {
    /// What a text writer writes the module `written` (one of this
    /// translation's) from.
    pub fn writing(&'a self, written: Written<'a>) -> ModuleSource<'a> {
        ModuleSource {
            parsed: self.parsed,
            module: written.module,
            info: written.info,
            contract: written.contract,
            lines: self.lines.as_ref(),
        }
    }
}

/// A text writer's context for one module, the GLSL and HLSL writers'
/// `Ctx`: what the module is written from ([`ModuleSource`]), the writer's
/// options, and what was worked out before any text: the names, the
/// buffer plan, the type spellings (made on first use) and the target's
/// own decisions (`target`: HLSL's shader model; nothing for GLSL).
pub(crate) struct WriterCtx<'a, Options, Plan, TypeNames, Target> {
    pub parsed: &'a crate::front::Parsed,
    /// The module written: `parsed.module`, or a copy with overrides baked.
    pub module: &'a naga::Module,
    pub info: &'a naga::valid::ModuleInfo,
    /// The contract layout of `module` (after override baking, remapped).
    /// The writers read buffer layouts through `plan`; the byte offsets of
    /// buffers held as words, and the buffer oracle tests, read it here.
    pub contract: &'a LayoutModule,
    /// Where `#line` directives point (`None`: the output has none).
    pub lines: Option<&'a crate::back::lines::LineMap>,
    pub options: &'a Options,
    pub target: Target,
    /// The target's names of every module item, free of keywords and
    /// clashes.
    pub names: naga::FastHashMap<naga::proc::NameKey, String>,
    /// How every buffer global is declared and accessed.
    pub plan: Plan,
    /// The spelling of every type, made on first use.
    pub type_names: TypeNames,
}

impl<Options, Plan, TypeNames, Target> WriterCtx<'_, Options, Plan, TypeNames, Target> {
    /// The target's name of `key`; every key is named by the namer.
    pub fn name(&self, key: naga::proc::NameKey) -> &str {
        name_of(&self.names, key)
    }
}

/// The name `names` gives `key` (`_unnamed` for a key the namer missed).
pub(crate) fn name_of(
    names: &naga::FastHashMap<naga::proc::NameKey, String>,
    key: naga::proc::NameKey,
) -> &str {
    names.get(&key).map_or("_unnamed", String::as_str)
}

impl<'a, Options, Plan, TypeNames: Default, Target>
    WriterCtx<'a, Options, Plan, TypeNames, Target>
{
    pub fn new(
        from: ModuleSource<'a>,
        options: &'a Options,
        target: Target,
        names: naga::FastHashMap<naga::proc::NameKey, String>,
        plan: Plan,
    ) -> Self {
        WriterCtx {
            parsed: from.parsed,
            module: from.module,
            info: from.info,
            contract: from.contract,
            lines: from.lines,
            options,
            target,
            names,
            plan,
            type_names: TypeNames::default(),
        }
    }
}

/// Everything a text writer writes a module from, worked out before any
/// text: the module written (overrides baked where the writer needs it),
/// the entry points to write, the names and the buffer plan. The binding
/// assignment is `written.bindings`'. `--target reflect` reads the names
/// and bindings from it without writing.
pub(crate) struct Resolved<'a, Plan> {
    pub written: Written<'a>,
    pub warnings: Vec<crate::diag::Diagnostic>,
    pub selected: Vec<usize>,
    pub names: naga::FastHashMap<naga::proc::NameKey, String>,
    pub plan: Plan,
}

impl<'a, Plan> Resolved<'a, Plan> {
    pub fn new(
        written: Written<'a>,
        warnings: Vec<crate::diag::Diagnostic>,
        selected: Vec<usize>,
        names: naga::FastHashMap<naga::proc::NameKey, String>,
        plan: Plan,
    ) -> Self {
        Resolved {
            written,
            warnings,
            selected,
            names,
            plan,
        }
    }
}

/// What [`resolve_pending_sizes`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PendingSizes {
    /// No array was sized by an override.
    None,
    /// Each such array now has its length, in place: every handle, and so
    /// the module's validation info, is unchanged.
    InPlace,
    /// A sized array equals a type the module already has, so the two
    /// became one and the type arena was rebuilt: handles moved, and the
    /// module must be validated again.
    Merged,
}

/// naga's override baking evaluates every override to a literal but leaves
/// arrays sized by an override `Pending`. Give such arrays their baked
/// length, so that every part of the writer sees a constant size: in
/// place where the sized array is a new type (the handles, and so the
/// validation info, stay), else by rebuilding the type arena.
pub(crate) fn resolve_pending_sizes(module: &mut naga::Module) -> PendingSizes {
    let sized = |module: &naga::Module, inner: &TypeInner| match *inner {
        TypeInner::Array {
            base,
            size: naga::ArraySize::Pending(o),
            stride,
        } => baked_length(module, o)
            .and_then(std::num::NonZeroU32::new)
            .map(|n| TypeInner::Array {
                base,
                size: naga::ArraySize::Constant(n),
                stride,
            }),
        _ => None,
    };
    let mut replaced: Vec<(Handle<naga::Type>, naga::Type)> = Vec::new();
    for (handle, ty) in module.types.iter() {
        if let Some(inner) = sized(module, &ty.inner) {
            let new = naga::Type {
                name: ty.name.clone(),
                inner,
            };
            replaced.push((handle, new));
        }
    }
    if replaced.is_empty() {
        return PendingSizes::None;
    }
    let distinct = replaced.iter().enumerate().all(|(i, (_, new))| {
        module.types.get(new).is_none() && !replaced[..i].iter().any(|(_, other)| other == new)
    });
    if distinct {
        for (handle, new) in replaced {
            module.types.replace(handle, new);
        }
        return PendingSizes::InPlace;
    }
    let mut types = naga::UniqueArena::new();
    let mut map: Vec<Handle<naga::Type>> = Vec::with_capacity(module.types.len());
    for (handle, ty) in module.types.iter() {
        let mut inner =
            crate::remap::map_inner(&ty.inner, |h| map.get(h.index()).copied().unwrap_or(h));
        if let Some(sized) = sized(module, &inner) {
            inner = sized;
        }
        let span = module.types.get_span(handle);
        let new = types.insert(
            naga::Type {
                name: ty.name.clone(),
                inner,
            },
            span,
        );
        map.push(new);
    }
    crate::remap::remap_types(module, types, &crate::remap::TypeMap::new(map));
    PendingSizes::Merged
}

/// The contract with its handles moved onto `to`, a compacted copy of
/// `from`: structs and globals are found again by name (WGSL names are
/// unique); what compaction removed is dropped.
pub(crate) fn remap_contract(
    contract: &LayoutModule,
    from: &naga::Module,
    to: &naga::Module,
) -> LayoutModule {
    let type_map: IndexMap<Handle<naga::Type>, Handle<naga::Type>> = contract
        .structs
        .keys()
        .filter_map(|&old| {
            let name = from.types.get_handle(old).ok()?.name.as_deref()?;
            let new = to.types.iter().find(|(_, t)| {
                t.name.as_deref() == Some(name) && matches!(t.inner, TypeInner::Struct { .. })
            })?;
            Some((old, new.0))
        })
        .collect();
    fn remap_layout(
        layout: &Layout,
        map: &IndexMap<Handle<naga::Type>, Handle<naga::Type>>,
    ) -> Option<Layout> {
        let kind = match &layout.kind {
            LayoutKind::Struct(h) => LayoutKind::Struct(*map.get(h)?),
            LayoutKind::Array {
                element,
                stride,
                count,
            } => LayoutKind::Array {
                element: Box::new(remap_layout(element, map)?),
                stride: *stride,
                count: *count,
            },
            other => other.clone(),
        };
        Some(Layout {
            size: layout.size,
            align: layout.align,
            kind,
        })
    }
    let mut structs = naga::FastIndexMap::default();
    for (old, s) in &contract.structs {
        let Some(&new) = type_map.get(old) else {
            continue;
        };
        let slots: Option<Vec<Slot>> = s
            .slots
            .iter()
            .map(|slot| match slot {
                Slot::Member(m) => {
                    let layout = remap_layout(&m.layout, &type_map)?;
                    Some(Slot::Member(MemberSlot {
                        layout,
                        ..m.clone()
                    }))
                }
                Slot::Padding(_) => Some(slot.clone()),
            })
            .collect();
        if let Some(slots) = slots {
            let mut s = s.clone();
            s.ty = new;
            s.slots = slots;
            structs.insert(new, s);
        }
    }
    let mut globals = Vec::new();
    for g in &contract.globals {
        let found = to
            .global_variables
            .iter()
            .find(|(_, v)| v.name.as_deref() == Some(g.name.as_str()));
        let (Some((handle, _)), Some(layout)) = (found, remap_layout(&g.layout, &type_map)) else {
            continue;
        };
        let mut g = g.clone();
        g.handle = handle;
        g.layout = layout;
        globals.push(g);
    }
    // Keep naga's type order (the contract lists structs in it).
    structs.sort_by_key(|h, _| h.index());
    LayoutModule {
        rules: contract.rules,
        structs,
        globals,
    }
}

/// The length of an array sized by override `o` once overrides are baked:
/// naga's baking evaluates the override's initializer to a literal but leaves
/// the array size pointing at the override.
pub(crate) fn baked_length(module: &naga::Module, o: Handle<naga::Override>) -> Option<u32> {
    let init = module.overrides.try_get(o).ok()?.init?;
    count_literal(module.global_expressions.try_get(init).ok()?)
}

/// The value of `e` when it is an integer literal (`u32`, `i32` or
/// abstract) that a `u32` holds: a length or an index known before the
/// shader runs.
pub(crate) fn count_literal(e: &naga::Expression) -> Option<u32> {
    match *e {
        naga::Expression::Literal(naga::Literal::U32(n)) => Some(n),
        naga::Expression::Literal(naga::Literal::I32(n)) => u32::try_from(n).ok(),
        naga::Expression::Literal(naga::Literal::AbstractInt(n)) => u32::try_from(n).ok(),
        _ => None,
    }
}

/// Every module item's name from naga's namer, with a language's reserved
/// words, builtins and prefixes: the policy both text writers share (each
/// then repairs what its language needs).
pub(crate) fn module_names(
    module: &naga::Module,
    reserved: &'static naga::proc::KeywordSet,
    builtins: &'static naga::proc::KeywordSet,
    case_insensitive: &'static naga::proc::CaseInsensitiveKeywordSet,
    prefixes: &[&'static str],
) -> naga::FastHashMap<naga::proc::NameKey, String> {
    let mut names =
        naga::FastHashMap::with_capacity_and_hasher(name_count(module), Default::default());
    let mut namer = naga::proc::Namer::default();
    namer.reset(
        module,
        reserved,
        builtins,
        case_insensitive,
        prefixes,
        &mut names,
    );
    names
}

/// How many names naga's namer writes for `module` (external textures
/// aside): room for a writer's name map, so that it never rehashes while
/// it fills.
fn name_count(module: &naga::Module) -> usize {
    let members: usize = module
        .types
        .iter()
        .map(|(_, ty)| match ty.inner {
            TypeInner::Struct { ref members, .. } => members.len(),
            _ => 0,
        })
        .sum();
    let entry_points: usize = module
        .entry_points
        .iter()
        .map(|ep| 1 + ep.function.arguments.len() + ep.function.local_variables.len())
        .sum();
    let functions: usize = module
        .functions
        .iter()
        .map(|(_, f)| 1 + f.arguments.len() + f.local_variables.len())
        .sum();
    module.types.len()
        + members
        + entry_points
        + functions
        + module.global_variables.len()
        + module.constants.len()
        + module.overrides.len()
}

/// Where type `ty` is used in the source: its own span when naga kept one,
/// else the first struct, global or function that uses it.
pub(crate) fn use_span(module: &naga::Module, ty: naga::Handle<naga::Type>) -> naga::Span {
    let own = module.types.get_span(ty);
    if own != naga::Span::default() {
        return own;
    }
    let mentions = |t: naga::Handle<naga::Type>| -> bool {
        let mut t = t;
        loop {
            if t == ty {
                return true;
            }
            match module.types[t].inner {
                naga::TypeInner::Array { base, .. }
                | naga::TypeInner::BindingArray { base, .. } => t = base,
                _ => return false,
            }
        }
    };
    for (h, t) in module.types.iter() {
        if let naga::TypeInner::Struct { ref members, .. } = t.inner {
            if members.iter().any(|m| mentions(m.ty)) {
                let span = module.types.get_span(h);
                if span != naga::Span::default() {
                    return span;
                }
            }
        }
    }
    for (h, g) in module.global_variables.iter() {
        if mentions(g.ty) {
            return module.global_variables.get_span(h);
        }
    }
    for (h, f) in module.functions.iter() {
        let uses = f.arguments.iter().any(|a| mentions(a.ty))
            || f.result.as_ref().is_some_and(|r| mentions(r.ty))
            || f.local_variables.iter().any(|(_, l)| mentions(l.ty));
        if uses {
            return module.functions.get_span(h);
        }
    }
    own
}

/// For every type of the module: whether it is or holds a runtime-sized
/// array (such a type only lives in a storage buffer; `buffers` declares
/// it). naga's type arena lists a type after the types it holds.
pub(crate) fn runtime_sized(module: &naga::Module) -> Vec<bool> {
    let mut flags = Vec::with_capacity(module.types.len());
    for (_, t) in module.types.iter() {
        let holds =
            |h: Handle<naga::Type>, flags: &[bool]| flags.get(h.index()).copied().unwrap_or(false);
        let value = match t.inner {
            TypeInner::Array {
                size: naga::ArraySize::Dynamic,
                ..
            } => true,
            TypeInner::Array { base, .. } | TypeInner::BindingArray { base, .. } => {
                holds(base, &flags)
            }
            TypeInner::Struct { ref members, .. } => members.iter().any(|m| holds(m.ty, &flags)),
            _ => false,
        };
        flags.push(value);
    }
    flags
}

/// `[N]` (nested binding arrays: `[N][M]`), `[]` or nothing for a resource
/// of type `ty`, and whether it is runtime-sized (`[]` at any level).
pub(crate) fn binding_array_suffix(
    module: &naga::Module,
    ty: Handle<naga::Type>,
) -> (String, bool) {
    match module.types.get_handle(ty).map(|t| &t.inner) {
        Ok(TypeInner::BindingArray { base, size }) => {
            let (inner, runtime) = binding_array_suffix(module, *base);
            match size {
                naga::ArraySize::Constant(n) => (format!("[{n}]{inner}"), runtime),
                _ => (format!("[]{inner}"), true),
            }
        }
        _ => (String::new(), false),
    }
}

/// Whether `ty` holds an abstract numeric type (never written: naga keeps
/// abstract constants only for const evaluation).
pub(crate) fn is_abstract(module: &naga::Module, ty: Handle<naga::Type>) -> bool {
    let abstract_scalar = |s: naga::Scalar| {
        matches!(
            s.kind,
            naga::ScalarKind::AbstractInt | naga::ScalarKind::AbstractFloat
        )
    };
    match module.types.get_handle(ty).map(|t| &t.inner) {
        Ok(TypeInner::Scalar(s) | TypeInner::Vector { scalar: s, .. })
        | Ok(TypeInner::Matrix { scalar: s, .. }) => abstract_scalar(*s),
        Ok(TypeInner::Array { base, .. }) => is_abstract(module, *base),
        _ => false,
    }
}

/// Append the decimal digits of `n` to `out`: the text of
/// `write!(out, "{n}")`, without the formatting machinery (both text
/// backends print numbers in every declaration and most lines of code).
#[inline(never)]
pub(crate) fn push_decimal(out: &mut String, n: u64) {
    if n < 10 {
        out.push(char::from(b'0' + n as u8));
        return;
    }
    let mut digits = [0u8; 20];
    let at = decimal_at_end(&mut digits, n);
    // ASCII digits: always UTF-8, copied at once.
    if let Ok(text) = std::str::from_utf8(&digits[at..]) {
        out.push_str(text);
    }
}

/// Write the decimal digits of `n` at the end of `buf` (20 bytes hold
/// every `u64`); where they start.
pub(crate) fn decimal_at_end(buf: &mut [u8], n: u64) -> usize {
    let mut at = buf.len();
    let mut rest = n;
    loop {
        at -= 1;
        buf[at] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            return at;
        }
    }
}

/// Append `format!("{v:?}")` of a finite `v`. Whole numbers up to 2^24 in
/// magnitude (every one is an `f32`, and its shortest round-trip digits are
/// its integer digits) are written without the float formatter.
pub(crate) fn push_f32_debug(out: &mut String, v: f32) {
    if v.fract() == 0.0 && v.abs() <= 16_777_216.0 {
        if v.is_sign_negative() {
            out.push('-');
        }
        push_decimal(out, v.abs() as u64);
        out.push_str(".0");
    } else {
        use std::fmt::Write as _;
        let _ = write!(out, "{v:?}");
    }
}

/// One part of a text of type declarations (see
/// [`push_live_declarations`]):
/// `text[start..end]`, separators after it included.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct DeclPart {
    pub start: usize,
    pub end: usize,
    /// The bit of the buffer struct this part declares ([`StructUse`]); 0
    /// for every other part, which is always kept.
    pub bit: u64,
    /// The bits of the buffer structs this part's text names.
    pub names: u64,
}

/// Which buffer structs (structs that a uniform, storage or immediate
/// global holds) each type of a module names when it is spelled, as bits:
/// one per buffer struct, for the first 64 in the order of the globals (a
/// later one is always declared). The text backends
/// declare those buffers member by member, so an output may well never
/// name such a struct; they record the bits of every type they spell in
/// [`NamedStructs`] and leave out the declarations of the buffer structs
/// nothing named ([`push_live_declarations`]).
#[derive(Debug, Default)]
pub(crate) struct StructUse {
    /// Per type, by handle index.
    masks: Vec<u64>,
}

impl StructUse {
    pub fn new(module: &naga::Module) -> Self {
        let mut masks = vec![0u64; module.types.len()];
        // A bit for each buffer struct, in the order of the globals.
        let mut next = 0u32;
        for (_, var) in module.global_variables.iter() {
            let buffer = crate::back::text::is_buffer_space(var.space);
            let is_struct = matches!(module.types[var.ty].inner, TypeInner::Struct { .. });
            match masks.get_mut(var.ty.index()) {
                Some(mask) if buffer && is_struct && *mask == 0 && next < 64 => {
                    *mask = 1 << next;
                    next += 1;
                }
                _ => {}
            }
        }
        // Arrays and pointers name what their base names; a type only
        // refers to types before it in the arena.
        for (h, t) in module.types.iter() {
            if let TypeInner::Array { base, .. }
            | TypeInner::BindingArray { base, .. }
            | TypeInner::Pointer { base, .. } = t.inner
            {
                let of = masks.get(base.index()).copied().unwrap_or(0);
                if let Some(mask) = masks.get_mut(h.index()) {
                    *mask = of;
                }
            }
        }
        StructUse { masks }
    }

    /// The buffer structs spelling `ty` names.
    pub fn of(&self, ty: Handle<naga::Type>) -> u64 {
        self.masks.get(ty.index()).copied().unwrap_or(0)
    }

    /// The bit of `ty` itself when it is a buffer struct, else 0.
    pub fn bit(&self, module: &naga::Module, ty: Handle<naga::Type>) -> u64 {
        match module.types.get_handle(ty).map(|t| &t.inner) {
            Ok(TypeInner::Struct { .. }) => self.of(ty),
            _ => 0,
        }
    }
}

/// The buffer structs an output has named so far ([`StructUse`]), kept
/// beside a backend's cache of type spellings.
#[derive(Debug, Default)]
pub(crate) struct NamedStructs {
    uses: std::cell::OnceCell<StructUse>,
    named: std::cell::Cell<u64>,
}

impl NamedStructs {
    /// The masks of `module` (the module the backend writes).
    pub fn uses(&self, module: &naga::Module) -> &StructUse {
        self.uses.get_or_init(|| StructUse::new(module))
    }

    /// Record that the output spells `ty`.
    pub fn mark(&self, module: &naga::Module, ty: Handle<naga::Type>) {
        self.add(self.uses(module).of(ty));
    }

    /// Record that the output names the buffer structs `mask`
    /// ([`StructUse::of`]).
    pub fn add(&self, mask: u64) {
        self.named.set(self.named.get() | mask);
    }

    /// What has been named, and from now on nothing.
    pub fn take(&self) -> u64 {
        self.named.replace(0)
    }

    /// Run `f` without recording what it names: for spelling the
    /// declarations themselves, whose member types [`DeclPart::names`]
    /// accounts for.
    pub fn unrecorded<R>(&self, f: impl FnOnce() -> R) -> R {
        let named = self.named.get();
        let result = f();
        self.named.set(named);
        result
    }
}

/// The global names in use while a writer invents declarations of its own
/// (buffer blocks, variant and element structs, split columns): the
/// namer's names, the words the writer keeps free (`also`), and the names
/// given out so far. Most modules ask only a few times, so the namer's
/// names are searched one by one at first and hashed once a module asks
/// more; the names given out are copied into one text, found by hash.
pub(crate) struct Taken<'a> {
    names: &'a naga::FastHashMap<naga::proc::NameKey, String>,
    also: &'static [&'static str],
    /// The namer's names as a set, once asked often.
    set: Option<naga::FastHashSet<&'a str>>,
    queries: usize,
    given: String,
    /// Per hash, the start and end in `given` of the first name with it.
    first: naga::FastHashMap<u64, (u32, u32)>,
    /// Names whose hash an earlier name already has (almost never any).
    more: Vec<(u32, u32)>,
}

impl<'a> Taken<'a> {
    pub fn new(
        names: &'a naga::FastHashMap<naga::proc::NameKey, String>,
        also: &'static [&'static str],
    ) -> Self {
        Taken {
            names,
            also,
            set: None,
            queries: 0,
            given: String::new(),
            first: Default::default(),
            more: Vec::new(),
        }
    }

    fn hash(&self, name: &str) -> u64 {
        use std::hash::BuildHasher as _;
        self.first.hasher().hash_one(name)
    }

    fn given_at(&self, (start, end): (u32, u32)) -> Option<&str> {
        self.given.get(start as usize..end as usize)
    }

    /// Whether `name` is in use.
    pub fn contains(&mut self, name: &str) -> bool {
        if self.also.contains(&name) {
            return true;
        }
        if !self.first.is_empty() {
            if let Some(&span) = self.first.get(&self.hash(name)) {
                if self.given_at(span) == Some(name)
                    || self
                        .more
                        .iter()
                        .any(|&span| self.given_at(span) == Some(name))
                {
                    return true;
                }
            }
        }
        self.queries += 1;
        if self.queries <= 8 {
            return self.names.values().any(|n| n == name);
        }
        let names = self.names;
        self.set
            .get_or_insert_with(|| names.values().map(String::as_str).collect())
            .contains(name)
    }

    /// Record `name` as given out.
    pub fn insert(&mut self, name: &str) {
        if self.first.is_empty() {
            // Room for the names of a typical module's buffers.
            self.given.reserve(512);
            self.first.reserve(32);
        }
        let hash = self.hash(name);
        let start = self.given.len() as u32;
        self.given.push_str(name);
        let span = (start, self.given.len() as u32);
        if self.first.contains_key(&hash) {
            self.more.push(span);
        } else {
            self.first.insert(hash, span);
        }
    }
}

/// Append to `out` the parts of `decls` (in declaration order: a type
/// only names types declared before it) that the output needs, given the
/// buffer structs `named` by everything else in it. A part declaring a
/// buffer struct is left out when neither `named` nor a part kept after it
/// names that struct: typically the WGSL type of a buffer whose block or
/// cbuffer lists its members instead, when no code uses it as a value.
/// Every other part is kept.
pub(crate) fn push_live_declarations(
    out: &mut String,
    decls: &str,
    parts: &[DeclPart],
    named: u64,
) {
    // Backwards, each kept part adds what it names. A part only names
    // parts before it, so when the walk reaches a buffer struct, whether
    // it is named is settled: the final set decides for every part.
    let named = parts.iter().rev().fold(named, |named, p| {
        if p.bit == 0 || named & p.bit != 0 {
            named | p.names
        } else {
            named
        }
    });
    let kept = |p: &&DeclPart| p.bit == 0 || named & p.bit != 0;
    if parts.iter().all(|p| kept(&p)) {
        out.push_str(decls);
        return;
    }
    for p in parts.iter().filter(kept) {
        out.push_str(decls.get(p.start..p.end).unwrap_or(""));
    }
}

/// An error diagnostic at a source range (the GLSL and HLSL writers' shorthand).
pub(crate) fn error_at(
    message: impl Into<String>,
    span: naga::Span,
    label: impl Into<String>,
) -> crate::diag::Diagnostic {
    crate::diag::Diagnostic::error(message).at(span.to_range().unwrap_or(0..0), label)
}

/// `{head}{tail}` for every head and tail, heads outermost: the prefixed
/// and sized type names of a keyword table (`ivec3`, `dmat2x4`,
/// `uimage2D`, `float4x4`).
pub(crate) fn products<'a>(
    heads: &'a [&str],
    tails: &'a [String],
) -> impl Iterator<Item = String> + 'a {
    heads
        .iter()
        .flat_map(move |head| tails.iter().map(move |tail| format!("{head}{tail}")))
}

/// The size suffixes of vector and matrix type names: `{stem}N` for N from
/// `from` to 4, each followed, with `matrices`, by `{stem}NxM` for M from
/// `from` to 4 (`vec2`, ...; `mat2`, `mat2x2`, ...; `1`, `1x1`, ...).
pub(crate) fn size_suffixes(stem: &str, from: u32, matrices: bool) -> Vec<String> {
    let mut out = Vec::new();
    for n in from..=4 {
        out.push(format!("{stem}{n}"));
        if matrices {
            out.extend((from..=4).map(|m| format!("{stem}{n}x{m}")));
        }
    }
    out
}

/// `words` added to a keyword set, each leaked once (the keyword sets of
/// the text targets live for the whole process); a word the set already
/// has is not leaked (nothing would refer to it).
pub(crate) fn extend_leaked(
    set: &mut naga::proc::KeywordSet,
    words: impl IntoIterator<Item = String>,
) {
    for word in words {
        if !set.contains(&word) {
            set.extend(std::iter::once(&*Box::leak(word.into_boxed_str())));
        }
    }
}

/// A builtin as WGSL spells it (for messages and stride's own names);
/// `None` for those no WGSL source names.
pub(crate) fn builtin_wgsl_name(builtin: naga::BuiltIn) -> Option<&'static str> {
    use naga::BuiltIn as B;
    Some(match builtin {
        B::Position { .. } => "position",
        B::ViewIndex => "view_index",
        B::BaseInstance => "base_instance",
        B::BaseVertex => "base_vertex",
        B::ClipDistances => "clip_distances",
        B::CullDistance => "cull_distance",
        B::InstanceIndex => "instance_index",
        B::PointSize => "point_size",
        B::VertexIndex => "vertex_index",
        B::DrawIndex => "draw_index",
        B::FragDepth => "frag_depth",
        B::PointCoord => "point_coord",
        B::FrontFacing => "front_facing",
        B::PrimitiveIndex => "primitive_index",
        B::Barycentric { .. } => "barycentric",
        B::SampleIndex => "sample_index",
        B::SampleMask => "sample_mask",
        B::GlobalInvocationId => "global_invocation_id",
        B::LocalInvocationId => "local_invocation_id",
        B::LocalInvocationIndex => "local_invocation_index",
        B::WorkGroupId => "workgroup_id",
        B::WorkGroupSize => "workgroup_size",
        B::NumWorkGroups => "num_workgroups",
        B::NumSubgroups => "num_subgroups",
        B::SubgroupId => "subgroup_id",
        B::SubgroupSize => "subgroup_size",
        B::SubgroupInvocationId => "subgroup_invocation_id",
        _ => return None,
    })
}

/// A finite float as a literal that reads back as exactly the same value:
/// the shortest decimal (`digits` writes it), the language's `suffix`, and
/// parentheses around a negative one so that its `-` never meets another
/// operator's. The caller writes non-finite values (by their bits).
pub(crate) fn float_literal(
    negative: bool,
    suffix: &str,
    digits: impl FnOnce(&mut String),
) -> String {
    let mut t = String::with_capacity(16 + suffix.len());
    if negative {
        t.push('(');
    }
    digits(&mut t);
    t.push_str(suffix);
    if negative {
        t.push(')');
    }
    t
}

/// What a WGSL atomic read-modify-write does, in the word both text
/// targets build their function names from (`atomic<Op>`,
/// `Interlocked<Op>`), and whether the value is negated first (WGSL
/// `atomicSub` is an add of the negated value). GLSL writes a compare
/// exchange its own way (`atomicCompSwap`).
pub(crate) fn atomic_op(fun: &naga::AtomicFunction) -> (&'static str, bool) {
    use naga::AtomicFunction as A;
    match *fun {
        A::Add => ("Add", false),
        A::Subtract => ("Add", true),
        A::And => ("And", false),
        A::ExclusiveOr => ("Xor", false),
        A::InclusiveOr => ("Or", false),
        A::Min => ("Min", false),
        A::Max => ("Max", false),
        A::Exchange { compare: None } => ("Exchange", false),
        A::Exchange { compare: Some(_) } => ("CompareExchange", false),
    }
}

/// End the part of a text written to `out` from byte `start` on: nothing
/// if it is empty, else a newline if it lacks one and a blank line.
pub(crate) fn end_section(out: &mut String, start: usize) {
    if out.len() == start {
        return;
    }
    if !out.ends_with('\n') {
        out.push('\n');
    }
    out.push('\n');
}

/// Each distinct scalar of `module`'s scalar, vector, matrix and atomic
/// types, once, with the first such type (whose [`use_span`] a report
/// points at): what a writer checks against the scalars its target can
/// spell, reporting each unsupported one once, in type order.
pub(crate) fn first_scalar_uses(
    module: &naga::Module,
) -> impl Iterator<Item = (naga::Scalar, Handle<naga::Type>)> + '_ {
    let mut seen: Vec<naga::Scalar> = Vec::new();
    module.types.iter().filter_map(move |(handle, ty)| {
        let (TypeInner::Scalar(s)
        | TypeInner::Vector { scalar: s, .. }
        | TypeInner::Matrix { scalar: s, .. }
        | TypeInner::Atomic(s)) = ty.inner
        else {
            return None;
        };
        if seen.contains(&s) {
            return None;
        }
        seen.push(s);
        Some((s, handle))
    })
}

/// Write one part of a text into `out` with `write`, ended as
/// [`end_section`] ends it: nothing when `write` wrote nothing, else a
/// blank line after it.
pub(crate) fn push_section(out: &mut String, write: impl FnOnce(&mut String)) {
    let start = out.len();
    write(out);
    end_section(out, start);
}

/// The name of struct type `h` in a buffer plan (the value struct's name,
/// which its buffer variants' names start with): the one `names` gives
/// it, else its WGSL name, else `_s_type<index>`.
pub(crate) fn plan_type_name<'a>(
    names: &'a naga::FastHashMap<naga::proc::NameKey, String>,
    module: &'a naga::Module,
    h: Handle<naga::Type>,
) -> std::borrow::Cow<'a, str> {
    let own = module
        .types
        .get_handle(h)
        .ok()
        .and_then(|t| t.name.as_ref());
    match names.get(&naga::proc::NameKey::Type(h)).or(own) {
        Some(name) => std::borrow::Cow::Borrowed(name),
        None => std::borrow::Cow::Owned(format!("_s_type{}", h.index())),
    }
}

/// Append every part of `parts` to `out`.
pub(crate) fn push_parts(out: &mut String, parts: &[&str]) {
    for part in parts {
        out.push_str(part);
    }
}

#[cfg(test)]
mod tests {
    use super::{push_decimal, push_f32_debug, push_live_declarations, DeclPart, StructUse};

    #[test]
    fn push_decimal_writes_what_display_writes() {
        let mut out = String::from("x");
        for n in [0, 7, 9, 10, 99, 100, 65_535, 1 << 32, u64::MAX] {
            let at = out.len();
            push_decimal(&mut out, n);
            assert_eq!(&out[at..], n.to_string());
        }
    }

    #[test]
    fn whole_floats_print_as_the_float_formatter_does() {
        let mut values: Vec<f32> = (-2000..=2000).map(|i| i as f32).collect();
        values.extend([
            16_777_216.0,
            -16_777_216.0,
            16_777_215.0,
            1e7,
            -0.0,
            0.5,
            1e20,
        ]);
        for v in values {
            let mut text = String::new();
            push_f32_debug(&mut text, v);
            assert_eq!(text, format!("{v:?}"));
        }
    }

    #[test]
    fn buffer_structs_nothing_names_are_left_out() {
        // Bits: A 1, B 2, C 4, E 8; D is no buffer struct.
        let decls = [
            ("struct A { float x; };\n", 1, 0),
            ("struct B { A a; };\n", 2, 1),
            ("struct C { float y; };\n", 4, 0),
            ("struct D { C c; };\n", 0, 4),
            ("typedef D _s_array2_D[2];\n", 0, 0),
            ("struct E { float z; };\n", 8, 0),
        ];
        let mut text = String::new();
        let mut parts = Vec::new();
        for (d, bit, names) in decls {
            let start = text.len();
            text.push_str(d);
            parts.push(DeclPart {
                start,
                end: text.len(),
                bit,
                names,
            });
        }
        // Only E is named: B goes and with it A; D stays, so C stays.
        let live = |named| {
            let mut out = String::from("// ");
            push_live_declarations(&mut out, &text, &parts, named);
            out
        };
        assert_eq!(
            live(8),
            "// struct C { float y; };\nstruct D { C c; };\n\
             typedef D _s_array2_D[2];\nstruct E { float z; };\n"
        );
        // B and E named: everything stays.
        assert_eq!(live(2 | 8), format!("// {text}"));
    }

    #[test]
    fn struct_use_follows_arrays_and_pointers() {
        let module = naga::front::wgsl::parse_str(
            "struct P { a: f32 }
             struct Q { b: f32 }
             struct R { p: P }
             @group(0) @binding(0) var<uniform> p: P;
             @group(0) @binding(1) var<storage> q: array<Q, 2>;
             @group(0) @binding(2) var<storage, read_write> r: R;
             var<private> ps: array<P, 3>;
             fn f(x: ptr<function, P>) -> f32 { return (*x).a; }",
        )
        .expect("parses");
        let uses = StructUse::new(&module);
        let ty = |name: &str| {
            module
                .types
                .iter()
                .find(|(_, t)| t.name.as_deref() == Some(name))
                .map(|(h, _)| h)
                .expect("type")
        };
        let (p, q, r) = (ty("P"), ty("Q"), ty("R"));
        assert_ne!(uses.bit(&module, p), 0);
        assert_ne!(uses.bit(&module, r), 0);
        // Q is held in an array, not as the buffer's type.
        assert_eq!(uses.bit(&module, q), 0);
        // R names only itself (its members are named in its declaration).
        assert_eq!(uses.of(r), uses.bit(&module, r));
        let global = |name: &str| {
            module
                .global_variables
                .iter()
                .find(|(_, v)| v.name.as_deref() == Some(name))
                .map(|(_, v)| v.ty)
                .expect("global")
        };
        assert_eq!(uses.of(global("ps")), uses.bit(&module, p));
        let arg = module.functions.iter().next().expect("f").1.arguments[0].ty;
        assert_eq!(uses.of(arg), uses.bit(&module, p));
    }

    /// The files of `source` as `target`: (suffix, text); HLSL's one file
    /// has the suffix "".
    fn translated(source: &str, target: crate::Target) -> Vec<(String, String)> {
        let options = crate::Options {
            target,
            ..Default::default()
        };
        match crate::translate(source, &options).map(|t| t.output) {
            Ok(crate::Output::Text(text)) => vec![(String::new(), text)],
            Ok(crate::Output::Files(files)) => {
                files.into_iter().map(|f| (f.suffix, f.text)).collect()
            }
            other => panic!("{other:?}"),
        }
    }

    /// A buffer's struct is declared only in files whose code uses it as a
    /// value; a struct a function takes is declared as before.
    #[test]
    fn buffer_structs_are_declared_where_code_uses_them() {
        let source = "
            struct Params { scale: f32, bias: f32 }
            struct Pair { a: f32, b: f32 }
            @group(0) @binding(0) var<uniform> params: Params;
            @group(0) @binding(1) var<storage, read_write> out: array<f32>;
            fn sum(p: Pair) -> f32 { return p.a + p.b; }
            @compute @workgroup_size(1) fn member() { out[0] = params.scale; }
            @compute @workgroup_size(1) fn whole() {
                let p = params;
                out[1] = sum(Pair(p.scale, p.bias));
            }";
        let glsl = translated(source, crate::Target::Glsl);
        let file = |suffix: &str| {
            glsl.iter()
                .find(|(s, _)| s == suffix)
                .map(|(_, t)| t.as_str())
                .unwrap_or_default()
        };
        assert!(file("whole.comp").contains("struct Params {"), "{glsl:?}");
        assert!(file("whole.comp").contains("struct Pair {"), "{glsl:?}");
        assert!(file("member.comp").contains("params_block"), "{glsl:?}");
        assert!(!file("member.comp").contains("struct Params"), "{glsl:?}");
        let hlsl = &translated(source, crate::Target::Hlsl)[0].1;
        assert!(hlsl.contains("struct Params {"), "{hlsl}");
        assert!(hlsl.contains("struct Pair {"), "{hlsl}");

        // Constructing the struct names it too.
        let made = source.replace("let p = params;", "let p = Params(params.bias, 0.0);");
        let hlsl = &translated(&made, crate::Target::Hlsl)[0].1;
        assert!(hlsl.contains("struct Params {"), "{hlsl}");
        let glsl = translated(&made, crate::Target::Glsl);
        assert!(glsl
            .iter()
            .any(|(s, t)| s == "whole.comp" && t.contains("struct Params {")));
        let unused = source
            .replace("let p = params;", "let p = Pair(params.bias, 0.0);")
            .replace("Pair(p.scale, p.bias)", "p");
        for target in [crate::Target::Glsl, crate::Target::Hlsl] {
            for (_, text) in translated(&unused, target) {
                assert!(!text.contains("struct Params"), "{text}");
            }
        }
    }
}
