//! What the binding assignment needs to know about a module's shape: the
//! order globals are declared in, which functions an entry point reaches,
//! and how many bindings a resource takes. The backends use the same
//! answers (`back::common` re-exports them), so that a writer and the
//! binding stage never disagree about order or reach.

use naga::{Handle, TypeInner};

type GlobalHandle = Handle<naga::GlobalVariable>;

/// Globals in declaration order: by source position, then binding (the
/// globals split from one parameter share its position), then handle.
pub fn declaration_order(module: &naga::Module) -> Vec<GlobalHandle> {
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
pub fn reachable_functions(module: &naga::Module, index: usize) -> Vec<Handle<naga::Function>> {
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

pub fn calls_in(block: &naga::Block, out: &mut Vec<Handle<naga::Function>>) {
    visit_calls(block, &mut |f, _| out.push(f));
}

/// Call `f` with the callee and arguments of every call statement in
/// `block`, nested blocks included.
pub fn visit_calls(
    block: &naga::Block,
    f: &mut impl FnMut(Handle<naga::Function>, &[Handle<naga::Expression>]),
) {
    use naga::Statement as S;
    for s in block.iter() {
        match s {
            S::Call {
                function,
                arguments,
                ..
            } => f(*function, arguments),
            S::Block(b) => visit_calls(b, f),
            S::If { accept, reject, .. } => {
                visit_calls(accept, f);
                visit_calls(reject, f);
            }
            S::Switch { cases, .. } => {
                for c in cases {
                    visit_calls(&c.body, f);
                }
            }
            S::Loop {
                body, continuing, ..
            } => {
                visit_calls(body, f);
                visit_calls(continuing, f);
            }
            _ => {}
        }
    }
}

/// The source range of global `h`'s declaration, for diagnostics.
pub fn global_range(module: &naga::Module, h: GlobalHandle) -> std::ops::Range<usize> {
    module
        .global_variables
        .get_span(h)
        .to_range()
        .unwrap_or(0..0)
}

/// The type of a resource with binding arrays unwrapped.
pub fn element_inner(module: &naga::Module, ty: Handle<naga::Type>) -> &TypeInner {
    match module.types.get_handle(ty).map(|t| &t.inner) {
        Ok(TypeInner::BindingArray { base, .. }) => element_inner(module, *base),
        Ok(inner) => inner,
        Err(_) => &TypeInner::Scalar(naga::Scalar::BOOL),
    }
}

/// The bindings (GL) or registers (D3D) a resource of type `ty` takes:
/// 1, the product of its binding arrays' lengths, or `None` when one of
/// them is runtime-sized.
pub fn binding_count(module: &naga::Module, ty: Handle<naga::Type>) -> Option<u32> {
    match module.types.get_handle(ty).map(|t| &t.inner) {
        Ok(TypeInner::BindingArray { base, size }) => match size {
            naga::ArraySize::Constant(n) => {
                binding_count(module, *base).map(|c| c.saturating_mul(n.get()))
            }
            _ => None,
        },
        _ => Some(1),
    }
}
