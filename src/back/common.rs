//! Module-level steps the text backends (GLSL, HLSL) share: the order
//! globals are declared in, which functions an entry point reaches, and
//! the clean-up after override baking (array sizes, contract handles).

use crate::layout::{Layout, LayoutKind, LayoutModule, Slot};
use indexmap::IndexMap;
use naga::{Handle, TypeInner};

type GlobalHandle = Handle<naga::GlobalVariable>;

/// naga's override baking evaluates every override to a literal but leaves
/// arrays sized by an override `Pending`. Give such arrays their baked
/// length, so that every part of the writer sees a constant size. Returns
/// whether the type arena changed.
pub(crate) fn resolve_pending_sizes(module: &mut naga::Module) -> bool {
    let pending = |inner: &TypeInner| {
        matches!(
            inner,
            TypeInner::Array {
                size: naga::ArraySize::Pending(_),
                ..
            }
        )
    };
    if !module.types.iter().any(|(_, t)| pending(&t.inner)) {
        return false;
    }
    let mut types = naga::UniqueArena::new();
    let mut map: Vec<Handle<naga::Type>> = Vec::with_capacity(module.types.len());
    for (handle, ty) in module.types.iter() {
        let mut inner =
            crate::back::remap::map_inner(&ty.inner, |h| map.get(h.index()).copied().unwrap_or(h));
        if let TypeInner::Array {
            size: ref mut size @ naga::ArraySize::Pending(o),
            ..
        } = inner
        {
            if let Some(n) = baked_length(module, o)
                .and_then(|n| u32::try_from(n).ok())
                .and_then(std::num::NonZeroU32::new)
            {
                *size = naga::ArraySize::Constant(n);
            }
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
    crate::back::remap::remap_types(module, types, &crate::back::remap::TypeMap::new(map));
    true
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
    let mut structs = IndexMap::new();
    for (old, s) in &contract.structs {
        let Some(&new) = type_map.get(old) else {
            continue;
        };
        let mut slots = Vec::with_capacity(s.slots.len());
        let mut complete = true;
        for slot in &s.slots {
            match slot {
                Slot::Member(m) => match remap_layout(&m.layout, &type_map) {
                    Some(layout) => {
                        let mut m = m.clone();
                        m.layout = layout;
                        slots.push(Slot::Member(m));
                    }
                    None => complete = false,
                },
                Slot::Padding(p) => slots.push(Slot::Padding(p.clone())),
            }
        }
        if complete {
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

/// Globals in declaration order: by source position, then binding (the
/// globals split from one parameter share its position), then handle.
pub(crate) fn declaration_order(module: &naga::Module) -> Vec<GlobalHandle> {
    let mut order: Vec<GlobalHandle> = module.global_variables.iter().map(|(h, _)| h).collect();
    order.sort_by_key(|&h| {
        let start = module
            .global_variables
            .get_span(h)
            .to_range()
            .map_or(usize::MAX, |r| r.start);
        // The globals split from one parameter share its span: binding order.
        let binding = module.global_variables[h]
            .binding
            .map(|b| (b.group, b.binding));
        (start, binding, h.index())
    });
    order
}

/// The functions entry point `index` calls, directly or not, in arena order
/// (naga's function arena lists a callee before its callers).
pub(crate) fn reachable_functions(
    module: &naga::Module,
    index: usize,
) -> Vec<Handle<naga::Function>> {
    let mut seen = vec![false; module.functions.len()];
    let mut stack = Vec::new();
    if let Some(ep) = module.entry_points.get(index) {
        calls_in(&ep.function.body, &mut stack);
    }
    while let Some(f) = stack.pop() {
        let Some(slot) = seen.get_mut(f.index()) else {
            continue;
        };
        if *slot {
            continue;
        }
        *slot = true;
        if let Ok(func) = module.functions.try_get(f) {
            calls_in(&func.body, &mut stack);
        }
    }
    module
        .functions
        .iter()
        .map(|(h, _)| h)
        .filter(|h| seen.get(h.index()).copied().unwrap_or(false))
        .collect()
}

pub(crate) fn calls_in(block: &naga::Block, out: &mut Vec<Handle<naga::Function>>) {
    use naga::Statement as S;
    for s in block.iter() {
        match s {
            S::Call { function, .. } => out.push(*function),
            S::Block(b) => calls_in(b, out),
            S::If { accept, reject, .. } => {
                calls_in(accept, out);
                calls_in(reject, out);
            }
            S::Switch { cases, .. } => {
                for c in cases {
                    calls_in(&c.body, out);
                }
            }
            S::Loop {
                body, continuing, ..
            } => {
                calls_in(body, out);
                calls_in(continuing, out);
            }
            _ => {}
        }
    }
}

/// The length of an array sized by override `o` once overrides are baked:
/// naga's baking evaluates the override's initializer to a literal but leaves
/// the array size pointing at the override.
pub(crate) fn baked_length(module: &naga::Module, o: Handle<naga::Override>) -> Option<u64> {
    let init = module.overrides.try_get(o).ok()?.init?;
    match module.global_expressions.try_get(init).ok()? {
        naga::Expression::Literal(naga::Literal::U32(n)) => Some(u64::from(*n)),
        naga::Expression::Literal(naga::Literal::I32(n)) => u64::try_from(*n).ok(),
        naga::Expression::Literal(naga::Literal::AbstractInt(n)) => u64::try_from(*n).ok(),
        _ => None,
    }
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

/// The type of a resource with binding arrays unwrapped.
pub(crate) fn element_inner(module: &naga::Module, ty: Handle<naga::Type>) -> &TypeInner {
    match module.types.get_handle(ty).map(|t| &t.inner) {
        Ok(TypeInner::BindingArray { base, .. }) => element_inner(module, *base),
        Ok(inner) => inner,
        Err(_) => &TypeInner::Scalar(naga::Scalar::BOOL),
    }
}

/// `[N]` (nested binding arrays: `[N][M]`), `[]` or nothing for a resource
/// of type `ty`, and the bindings (GL) or registers (D3D) it takes
/// (`None`: runtime-sized).
pub(crate) fn binding_array_suffix(
    module: &naga::Module,
    ty: Handle<naga::Type>,
) -> (String, Option<u32>) {
    match module.types.get_handle(ty).map(|t| &t.inner) {
        Ok(TypeInner::BindingArray { base, size }) => {
            let (inner, count) = binding_array_suffix(module, *base);
            match size {
                naga::ArraySize::Constant(n) => (
                    format!("[{n}]{inner}"),
                    count.map(|c| c.saturating_mul(n.get())),
                ),
                _ => (format!("[]{inner}"), None),
            }
        }
        _ => (String::new(), Some(1)),
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
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    let mut rest = n;
    loop {
        at -= 1;
        digits[at] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    out.reserve(digits.len() - at);
    for &d in &digits[at..] {
        out.push(char::from(d));
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

#[cfg(test)]
mod tests {
    use super::{push_decimal, push_f32_debug};

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
}
