//! Rewriting a naga module: the operand walks every stage uses, and replacing
//! a module's type arena with every `Handle<Type>` that refers to it rewritten.
//! It depends on naga only, so the front end (texture_external lowering) and
//! the backends share it.
//!
//! Replacing the type arena:
//! naga deduplicates types and requires a type's dependencies to have smaller
//! handles, so giving one declaration two layouts (an array type used with two
//! strides) means building a new arena in which handles move. [`remap_types`]
//! installs such an arena and follows every place of the module that names a
//! type: constants, overrides, globals, expressions, function signatures and
//! locals, entry points (mesh info included), special types and doc comments.

use naga::{Expression, Function, Handle, Module, Type, UniqueArena};

/// Every expression `expr` reads, in operand order: the one operand walk,
/// [`map_expression_operands`], run on a copy.
pub fn expression_operands(expr: &Expression) -> Vec<Handle<Expression>> {
    let read = std::cell::RefCell::new(Vec::new());
    let mut copy = expr.clone();
    map_expression_operands(&mut copy, &|h| {
        read.borrow_mut().push(h);
        h
    });
    read.into_inner()
}

/// Every expression the statements of `block` (nested blocks included)
/// name, and the operands of the expressions they emit: the one statement
/// walk, `map_block`, run on a copy.
pub fn block_operands(
    exprs: &naga::Arena<Expression>,
    block: &naga::Block,
) -> Vec<Handle<Expression>> {
    let read = std::cell::RefCell::new(Vec::new());
    let record = |h| {
        read.borrow_mut().push(h);
        h
    };
    let emitted = |r: &naga::Range<Expression>| {
        for h in r.clone() {
            read.borrow_mut().extend(expression_operands(&exprs[h]));
        }
        r.clone()
    };
    map_block(&mut block.clone(), &record, &emitted);
    read.into_inner()
}

/// Maps each handle of the old arena to its handle in the new one.
#[derive(Clone, Debug)]
pub struct TypeMap(Vec<Handle<Type>>);

impl TypeMap {
    pub fn new(handles: Vec<Handle<Type>>) -> Self {
        TypeMap(handles)
    }

    /// The new handle of `old`. A handle outside the map is returned as is;
    /// naga validation then reports it.
    pub fn get(&self, old: Handle<Type>) -> Handle<Type> {
        self.0.get(old.index()).copied().unwrap_or(old)
    }

    /// Does every old handle keep its index? Then rewriting handles through
    /// the map changes nothing.
    pub fn is_identity(&self) -> bool {
        self.0.iter().enumerate().all(|(i, h)| h.index() == i)
    }
}

/// Install `types` as the module's type arena; every type handle elsewhere
/// in the module is rewritten through `map`. The types of `types` must
/// already refer to new handles.
pub fn remap_types(module: &mut Module, types: UniqueArena<Type>, map: &TypeMap) {
    module.types = types;
    let m = |h: &mut Handle<Type>| *h = map.get(*h);

    let special = &mut module.special_types;
    for h in [
        &mut special.ray_desc,
        &mut special.ray_intersection,
        &mut special.ray_vertex_return,
        &mut special.external_texture_params,
        &mut special.external_texture_transfer_function,
    ]
    .into_iter()
    .flatten()
    {
        m(h);
    }
    for (_, h) in special.predeclared_types.iter_mut() {
        m(h);
    }

    for (_, c) in module.constants.iter_mut() {
        m(&mut c.ty);
    }
    for (_, o) in module.overrides.iter_mut() {
        m(&mut o.ty);
    }
    for (_, g) in module.global_variables.iter_mut() {
        m(&mut g.ty);
    }
    for (_, e) in module.global_expressions.iter_mut() {
        remap_expression(e, map);
    }
    for (_, f) in module.functions.iter_mut() {
        remap_function(f, map);
    }
    for ep in module.entry_points.iter_mut() {
        remap_function(&mut ep.function, map);
        if let Some(mesh) = ep.mesh_info.as_mut() {
            m(&mut mesh.vertex_output_type);
            m(&mut mesh.primitive_output_type);
        }
    }
    if let Some(doc) = module.doc_comments.as_mut() {
        let types = std::mem::take(&mut doc.types);
        doc.types = types.into_iter().map(|(h, v)| (map.get(h), v)).collect();
        let members = std::mem::take(&mut doc.struct_members);
        doc.struct_members = members
            .into_iter()
            .map(|((h, i), v)| ((map.get(h), i), v))
            .collect();
    }
}

fn remap_function(f: &mut Function, map: &TypeMap) {
    for a in f.arguments.iter_mut() {
        a.ty = map.get(a.ty);
    }
    if let Some(r) = f.result.as_mut() {
        r.ty = map.get(r.ty);
    }
    for (_, l) in f.local_variables.iter_mut() {
        l.ty = map.get(l.ty);
    }
    for (_, e) in f.expressions.iter_mut() {
        remap_expression(e, map);
    }
}

fn remap_expression(e: &mut Expression, map: &TypeMap) {
    match e {
        Expression::ZeroValue(ty)
        | Expression::Compose { ty, .. }
        | Expression::AtomicResult { ty, .. }
        | Expression::WorkGroupUniformLoadResult { ty }
        | Expression::SubgroupOperationResult { ty } => *ty = map.get(*ty),
        _ => {}
    }
}

/// The new inner type of `inner` with its type handles mapped. Struct members
/// keep their offsets; callers that change layouts rewrite them afterwards.
pub fn map_inner(
    inner: &naga::TypeInner,
    map: impl Fn(Handle<Type>) -> Handle<Type>,
) -> naga::TypeInner {
    use naga::TypeInner as Ti;
    match inner {
        Ti::Pointer { base, space } => Ti::Pointer {
            base: map(*base),
            space: *space,
        },
        Ti::Array { base, size, stride } => Ti::Array {
            base: map(*base),
            size: *size,
            stride: *stride,
        },
        Ti::BindingArray { base, size } => Ti::BindingArray {
            base: map(*base),
            size: *size,
        },
        Ti::Struct { members, span } => Ti::Struct {
            members: members
                .iter()
                .map(|mb| naga::StructMember {
                    ty: map(mb.ty),
                    ..mb.clone()
                })
                .collect(),
            span: *span,
        },
        other => other.clone(),
    }
}

/// The new expression arena of a function being rebuilt: expressions are
/// pushed in order, and every operand of an old expression is rewritten to
/// the handle its uses now refer to.
pub struct ExpressionBuilder {
    arena: naga::Arena<Expression>,
    /// For each old handle: its first and last new handle, and the handle
    /// its uses refer to.
    first: Vec<Handle<Expression>>,
    last: Vec<Handle<Expression>>,
    uses: Vec<Handle<Expression>>,
    span: naga::Span,
}

impl ExpressionBuilder {
    /// Append an expression (its operands must already be new handles).
    pub fn push(&mut self, expression: Expression) -> Handle<Expression> {
        self.arena.append(expression, self.span)
    }

    fn use_of(&self, old: Handle<Expression>) -> Handle<Expression> {
        self.uses.get(old.index()).copied().unwrap_or(old)
    }
}

/// Rebuild `f`'s expression arena. `edit` receives each old handle and its
/// expression with operands already mapped, pushes what should replace it
/// (one or more expressions) and returns the handle that uses of the old
/// expression should refer to. Emit ranges grow to cover what was pushed,
/// and statements, named expressions and local initializers follow.
pub fn rebuild_expressions(
    f: &mut Function,
    mut edit: impl FnMut(Handle<Expression>, Expression, &mut ExpressionBuilder) -> Handle<Expression>,
) {
    let old = std::mem::take(&mut f.expressions);
    let mut b = ExpressionBuilder {
        arena: naga::Arena::new(),
        first: Vec::with_capacity(old.len()),
        last: Vec::with_capacity(old.len()),
        uses: Vec::with_capacity(old.len()),
        span: naga::Span::UNDEFINED,
    };
    for (handle, expression) in old.iter() {
        let mut expression = expression.clone();
        let uses = &b.uses;
        map_expression_operands(&mut expression, &|h| {
            uses.get(h.index()).copied().unwrap_or(h)
        });
        b.span = old.get_span(handle);
        let start = b.arena.len();
        let result = edit(handle, expression, &mut b);
        let (first, last) = b
            .arena
            .range_from(start)
            .first_and_last()
            .unwrap_or((result, result));
        b.first.push(first);
        b.last.push(last);
        b.uses.push(result);
    }
    f.expressions = std::mem::take(&mut b.arena);

    let named = std::mem::take(&mut f.named_expressions);
    f.named_expressions = named
        .into_iter()
        .map(|(h, name)| (b.uses.get(h.index()).copied().unwrap_or(h), name))
        .collect();
    for (_, local) in f.local_variables.iter_mut() {
        if let Some(init) = local.init.as_mut() {
            *init = b.use_of(*init);
        }
    }
    let first = &b.first;
    let last = &b.last;
    let range = |r: &naga::Range<Expression>| match r.first_and_last() {
        Some((a, z)) => naga::Range::new_from_bounds(
            first.get(a.index()).copied().unwrap_or(a),
            last.get(z.index()).copied().unwrap_or(z),
        ),
        None => r.clone(),
    };
    let uses = |h: Handle<Expression>| b.use_of(h);
    map_block(&mut f.body, &uses, &range);
}

fn map_block(
    block: &mut naga::Block,
    m: &dyn Fn(Handle<Expression>) -> Handle<Expression>,
    range: &dyn Fn(&naga::Range<Expression>) -> naga::Range<Expression>,
) {
    use naga::Statement as S;
    for (statement, _) in block.span_iter_mut() {
        let h = |x: &mut Handle<Expression>| *x = m(*x);
        let o = |x: &mut Option<Handle<Expression>>| {
            if let Some(x) = x.as_mut() {
                *x = m(*x);
            }
        };
        match statement {
            S::Emit(r) => *r = range(r),
            S::Block(b) => map_block(b, m, range),
            S::If {
                condition,
                accept,
                reject,
            } => {
                h(condition);
                map_block(accept, m, range);
                map_block(reject, m, range);
            }
            S::Switch { selector, cases } => {
                h(selector);
                for c in cases.iter_mut() {
                    map_block(&mut c.body, m, range);
                }
            }
            S::Loop {
                body,
                continuing,
                break_if,
            } => {
                map_block(body, m, range);
                map_block(continuing, m, range);
                o(break_if);
            }
            S::Break | S::Continue | S::Kill | S::ControlBarrier(_) | S::MemoryBarrier(_) => {}
            S::Return { value } => o(value),
            S::Store { pointer, value } => {
                h(pointer);
                h(value);
            }
            S::ImageStore {
                image,
                coordinate,
                array_index,
                value,
            } => {
                h(image);
                h(coordinate);
                o(array_index);
                h(value);
            }
            S::Atomic {
                pointer,
                fun,
                value,
                result,
            } => {
                h(pointer);
                map_atomic_function(fun, m);
                h(value);
                o(result);
            }
            S::ImageAtomic {
                image,
                coordinate,
                array_index,
                fun,
                value,
            } => {
                h(image);
                h(coordinate);
                o(array_index);
                map_atomic_function(fun, m);
                h(value);
            }
            S::WorkGroupUniformLoad { pointer, result } => {
                h(pointer);
                h(result);
            }
            S::Call {
                arguments, result, ..
            } => {
                arguments.iter_mut().for_each(h);
                o(result);
            }
            S::RayQuery { query, fun } => {
                h(query);
                match fun {
                    naga::RayQueryFunction::Initialize {
                        acceleration_structure,
                        descriptor,
                    } => {
                        h(acceleration_structure);
                        h(descriptor);
                    }
                    naga::RayQueryFunction::Proceed { result } => h(result),
                    naga::RayQueryFunction::GenerateIntersection { hit_t } => h(hit_t),
                    naga::RayQueryFunction::ConfirmIntersection
                    | naga::RayQueryFunction::Terminate => {}
                }
            }
            S::RayPipelineFunction(naga::RayPipelineFunction::TraceRay {
                acceleration_structure,
                descriptor,
                payload,
            }) => {
                h(acceleration_structure);
                h(descriptor);
                h(payload);
            }
            S::SubgroupBallot { result, predicate } => {
                h(result);
                o(predicate);
            }
            S::SubgroupGather {
                mode,
                argument,
                result,
            } => {
                map_gather_mode(mode, m);
                h(argument);
                h(result);
            }
            S::SubgroupCollectiveOperation {
                argument, result, ..
            } => {
                h(argument);
                h(result);
            }
            S::CooperativeStore { target, data } => {
                h(target);
                h(&mut data.pointer);
                h(&mut data.stride);
            }
        }
    }
}

fn map_atomic_function(
    fun: &mut naga::AtomicFunction,
    m: &dyn Fn(Handle<Expression>) -> Handle<Expression>,
) {
    if let naga::AtomicFunction::Exchange {
        compare: Some(c), ..
    } = fun
    {
        *c = m(*c);
    }
}

fn map_gather_mode(
    mode: &mut naga::GatherMode,
    m: &dyn Fn(Handle<Expression>) -> Handle<Expression>,
) {
    use naga::GatherMode as G;
    match mode {
        G::BroadcastFirst | G::QuadSwap(_) => {}
        G::Broadcast(x)
        | G::Shuffle(x)
        | G::ShuffleDown(x)
        | G::ShuffleUp(x)
        | G::ShuffleXor(x)
        | G::QuadBroadcast(x) => *x = m(*x),
    }
}

/// Rewrite every expression operand of `e` through `m`.
pub fn map_expression_operands(
    e: &mut Expression,
    m: &dyn Fn(Handle<Expression>) -> Handle<Expression>,
) {
    use naga::Expression as E;
    let h = |x: &mut Handle<Expression>| *x = m(*x);
    let o = |x: &mut Option<Handle<Expression>>| {
        if let Some(x) = x.as_mut() {
            *x = m(*x);
        }
    };
    match e {
        E::Literal(_)
        | E::Constant(_)
        | E::Override(_)
        | E::ZeroValue(_)
        | E::FunctionArgument(_)
        | E::GlobalVariable(_)
        | E::LocalVariable(_)
        | E::CallResult(_)
        | E::AtomicResult { .. }
        | E::WorkGroupUniformLoadResult { .. }
        | E::RayQueryProceedResult
        | E::SubgroupBallotResult
        | E::SubgroupOperationResult { .. } => {}
        E::Compose { components, .. } => components.iter_mut().for_each(h),
        E::Access { base, index } => {
            h(base);
            h(index);
        }
        E::AccessIndex { base, .. } => h(base),
        E::Splat { value, .. } => h(value),
        E::Swizzle { vector, .. } => h(vector),
        E::Load { pointer } => h(pointer),
        E::ImageSample {
            image,
            sampler,
            coordinate,
            array_index,
            offset,
            level,
            depth_ref,
            ..
        } => {
            h(image);
            h(sampler);
            h(coordinate);
            o(array_index);
            o(offset);
            match level {
                naga::SampleLevel::Auto | naga::SampleLevel::Zero => {}
                naga::SampleLevel::Exact(x) | naga::SampleLevel::Bias(x) => h(x),
                naga::SampleLevel::Gradient { x, y } => {
                    h(x);
                    h(y);
                }
            }
            o(depth_ref);
        }
        E::ImageLoad {
            image,
            coordinate,
            array_index,
            sample,
            level,
        } => {
            h(image);
            h(coordinate);
            o(array_index);
            o(sample);
            o(level);
        }
        E::ImageQuery { image, query } => {
            h(image);
            if let naga::ImageQuery::Size { level } = query {
                o(level);
            }
        }
        E::Unary { expr, .. } => h(expr),
        E::Binary { left, right, .. } => {
            h(left);
            h(right);
        }
        E::Select {
            condition,
            accept,
            reject,
        } => {
            h(condition);
            h(accept);
            h(reject);
        }
        E::Derivative { expr, .. } => h(expr),
        E::Relational { argument, .. } => h(argument),
        E::Math {
            arg,
            arg1,
            arg2,
            arg3,
            ..
        } => {
            h(arg);
            o(arg1);
            o(arg2);
            o(arg3);
        }
        E::As { expr, .. } => h(expr),
        E::ArrayLength(x) => h(x),
        E::RayQueryVertexPositions { query, .. } | E::RayQueryGetIntersection { query, .. } => {
            h(query)
        }
        E::CooperativeLoad { data, .. } => {
            h(&mut data.pointer);
            h(&mut data.stride);
        }
        E::CooperativeMultiplyAdd { a, b, c } => {
            h(a);
            h(b);
            h(c);
        }
    }
}
