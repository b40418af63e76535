//! Expressions: values, pointers (lvalue text, or a buffer [`Place`]),
//! literals, operators and casts with WGSL's defined behaviours.
//!
//! Every text returned by [`FunctionWriter::expr_text`] is an HLSL primary
//! expression or wrapped in parentheses, so it can be an operand, be
//! indexed or swizzled as it is.

use super::{helpers, math, FunctionWriter};
use crate::back::hlsl::buffers::{place_prec, Index, Place, Repr};
use crate::back::hlsl::types;
pub(super) use crate::back::text::{
    bare, bare_from, component, into_bare, is_pointer, literal_class, push_swizzle, vector_size,
    Prec,
};
use crate::back::text::{
    is_buffer_space, math_operands, operator_symbol, push_i32, BinaryOperands, Body, Conversion,
    Expr, TextWriter as _,
};
use naga::proc::NameKey;
use naga::{Expression as E, Handle, Scalar, ScalarKind as K, TypeInner as Ti};
use std::borrow::Cow;

/// What a pointer outside buffers starts at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Root {
    /// A module-scope variable (private or workgroup).
    Global,
    /// A local variable.
    Local,
    /// A pointer parameter (an `inout` parameter in HLSL).
    Argument,
}

/// A printed pointer.
pub(super) enum Ptr<'a> {
    /// An HLSL lvalue (borrowed while it is a name of the module or body).
    Text { text: Cow<'a, str>, root: Root },
    /// A place in a buffer, reached through `ctx.plan`.
    Buffer(Place<'a>),
}

impl<'a> FunctionWriter<'a, '_> {
    /// The type handle of what pointer `h` points to; for a pointer to a
    /// vector or scalar inside a composite (which naga types without a
    /// handle), the module's handle of that type, if the module has one.
    ///
    /// A scalar, vector or matrix the module has no handle for (a vector
    /// component, a matrix column) gets the first type of the module:
    /// `Plan::load` and `Plan::store` read such values from the place's
    /// own layout and repr, and use the handle only for structs and arrays,
    /// which always have one.
    pub(super) fn pointee_handle(&self, h: Handle<naga::Expression>) -> Option<Handle<naga::Type>> {
        match self.st.pointee(h) {
            (Some(t), _) => Some(t),
            (None, inner) => {
                let leaf = matches!(
                    *inner,
                    Ti::Scalar(_) | Ti::Vector { .. } | Ti::Matrix { .. } | Ti::Atomic(_)
                );
                self.ctx
                    .module
                    .types
                    .get(&naga::Type {
                        name: None,
                        inner: inner.into_owned(),
                    })
                    .or_else(|| {
                        leaf.then(|| self.ctx.module.types.iter().next().map(|(h, _)| h))
                            .flatten()
                    })
            }
        }
    }

    // ---- expressions ----------------------------------------------------

    /// Expression `h` itself, even when it is baked, appended to `out`,
    /// and its class. Operands are written through [`Self::push_value`],
    /// straight into `out` where the text allows it.
    pub(super) fn push_expr_itself(
        &mut self,
        out: &mut String,
        h: Handle<naga::Expression>,
    ) -> Prec {
        if let Some(name) = self.leaf_name(h) {
            out.push_str(name);
            return Prec::Word;
        }
        let ctx = self.ctx;
        if is_pointer(self.st.ty(h)) {
            return match self.place(h) {
                Ptr::Text { text, .. } => {
                    out.push_str(&text);
                    Prec::Postfix
                }
                Ptr::Buffer(_) => {
                    self.error("internal: a buffer pointer used as a value", h);
                    out.push_str("_s_invalid");
                    Prec::Word
                }
            };
        }
        let exprs = self.st.exprs;
        match exprs[h] {
            // A chain of operators is written without a string per link.
            E::Binary { op, left, right } => return self.push_binary(out, op, left, right),
            E::Load { pointer } => return self.push_load(out, pointer),
            E::Compose { ty, ref components } => {
                self.push_compose(out, ty, components);
                return Prec::Call;
            }
            E::Literal(lit) => {
                push_literal(out, lit);
                return literal_prec(lit);
            }
            E::Constant(c) => out.push_str(ctx.name(NameKey::Constant(c))),
            E::FunctionArgument(i) => out.push_str(self.argument_str(i)),
            // A texture or sampler.
            E::GlobalVariable(g) => out.push_str(ctx.name(NameKey::GlobalVariable(g))),
            // A local variable is a pointer, written above.
            E::LocalVariable(_) => out.push_str("_s_invalid"),
            E::Override(o) => {
                // `decl` bakes every override before writing.
                self.error("internal: an override reached the HLSL writer", h);
                out.push_str(ctx.name(NameKey::Override(o)));
            }
            E::ZeroValue(ty) => {
                super::super::push_parts(out, &["(", &types::zero_value(ctx, ty), ")"]);
                return Prec::Group;
            }
            E::Access { base, .. } | E::AccessIndex { base, .. } => {
                if self.push_access(out, h) {
                    return Prec::Postfix;
                }
                self.error("internal: a struct value without a type handle", h);
                return self.push_access_base(out, base);
            }
            E::Swizzle { vector, .. } => {
                self.push_value(out, vector);
                push_swizzle(out, &self.st.exprs[h]);
                return Prec::Postfix;
            }
            E::Splat { size, value } => {
                let t = types::vector(size as u8, self.st.scalar_of(value));
                super::super::push_parts(out, &["((", &t, ")"]);
                self.push_value(out, value);
                out.push(')');
                return Prec::Group;
            }
            E::ImageSample { .. } => return self.push_image_sample(out, h),
            E::ImageLoad { .. } => return self.push_image_load(out, h),
            E::ImageQuery { image, query } => return self.push_image_query(out, image, query),
            E::Unary { op, expr } => {
                out.push_str(match op {
                    naga::UnaryOperator::Negate => "(-",
                    naga::UnaryOperator::LogicalNot => "(!",
                    naga::UnaryOperator::BitwiseNot => "(~",
                });
                self.push_value(out, expr);
                out.push(')');
                return Prec::Group;
            }
            E::Select {
                condition,
                accept,
                reject,
            } => {
                let (c, cp) = self.expr_text(condition);
                let (a, ap) = self.expr_text(accept);
                let (r, rp) = self.expr_text(reject);
                let prec = match vector_size(self.st.ty(condition)) {
                    None => {
                        super::super::push_parts(out, &["(", &c, " ? ", &a, " : ", &r, ")"]);
                        Prec::Group
                    }
                    Some(size) => {
                        let f = helpers::select(self.needs, size, self.st.scalar_of(h));
                        let (c, a, r) = (bare(&c, cp), bare(&a, ap), bare(&r, rp));
                        let parts = [&f, "(", c, ", ", a, ", ", r, ")"];
                        super::super::push_parts(out, &parts);
                        Prec::Call
                    }
                };
                self.st.give_buf(c);
                self.st.give_buf(a);
                self.st.give_buf(r);
                return prec;
            }
            E::Derivative { axis, ctrl, expr } => {
                use naga::DerivativeAxis as A;
                use naga::DerivativeControl as C;
                let suffix = match ctrl {
                    C::None => "",
                    C::Coarse => "_coarse",
                    C::Fine => "_fine",
                };
                let e = self.arg_with(expr).0;
                // HLSL has no coarse or fine `fwidth`: |ddx| + |ddy|.
                if axis == A::Width && ctrl != C::None {
                    out.push_str(&text!("(abs(ddx{suffix}({e})) + abs(ddy{suffix}({e})))"));
                    return Prec::Group;
                }
                let name = match axis {
                    A::X => "ddx",
                    A::Y => "ddy",
                    A::Width => "fwidth",
                };
                super::super::push_parts(out, &[name, suffix, "(", &e, ")"]);
                return Prec::Call;
            }
            E::Relational { fun, argument } => return self.push_relational(out, fun, argument),
            E::Math { .. } => {
                let Some((fun, arg, [arg1, arg2, arg3])) = math_operands(&self.st.exprs[h]) else {
                    return Prec::Word;
                };
                let mut texts = self.st.take_buf();
                let operands = [Some(arg), arg1, arg2, arg3];
                let printed = self
                    .push_operands(&mut texts, operands, 4)
                    .map(|at| operand_at(&texts, at));
                let args: [_; 4] = std::array::from_fn(|i| math::Arg {
                    text: printed[i].0,
                    prec: printed[i].1,
                    ty: self.st.ty(operands[i].unwrap_or(arg)),
                });
                let count = operands.iter().flatten().count();
                let args = args.get(..count).unwrap_or(&args);
                let span = self.st.exprs.get_span(h);
                let (text, prec) = math::call(ctx, self.needs, fun, args, self.st.ty(h), span);
                self.st.give_buf(texts);
                return push_as_operand(out, &text, prec);
            }
            E::As { expr, .. } => return self.push_cast(out, h, expr),
            E::ArrayLength(pointer) => match self.place(pointer) {
                Ptr::Buffer(place) => return ctx.plan.push_array_length(out, self.needs, &place),
                Ptr::Text { .. } => {
                    self.error("internal: arrayLength of an array outside a buffer", h);
                    out.push_str("0u");
                }
            },
            E::RayQueryVertexPositions { .. } | E::RayQueryGetIntersection { .. } => {
                self.error("ray queries are not supported by --target hlsl yet", h);
                out.push_str("_s_unsupported");
            }
            E::CooperativeLoad { .. } | E::CooperativeMultiplyAdd { .. } => {
                self.error("cooperative matrices are not supported by --target hlsl", h);
                out.push_str("_s_unsupported");
            }
            // The rest are results of statements (CallResult, AtomicResult
            // and the like), which their statements declare: reaching here
            // means an unsupported statement produced this one.
            _ => out.push_str(&self.unsupported_result(h)),
        }
        Prec::Word
    }

    /// Operands `operands` printed in order one after another into
    /// `texts` (the first `values` through [`Self::push_value`], the rest
    /// through [`Self::push_bare`]): where each text lies there, and its
    /// class.
    pub(super) fn push_operands<const N: usize>(
        &mut self,
        texts: &mut String,
        operands: [Option<Handle<naga::Expression>>; N],
        values: usize,
    ) -> [Option<(usize, usize, Prec)>; N] {
        let mut i = 0;
        operands.map(|operand| {
            i += 1;
            let h = operand?;
            let start = texts.len();
            let prec = if i <= values {
                self.push_value(texts, h)
            } else {
                self.push_bare(texts, h)
            };
            Some((start, texts.len(), prec))
        })
    }

    /// The text [`Self::push_expr_itself`] writes for `h` when it is just a name
    /// of the module or the body: a constant, an argument, or the load of a
    /// local, an argument or a global that is not a buffer (`None`: any
    /// other expression).
    pub(super) fn leaf_name(&self, h: Handle<naga::Expression>) -> Option<&'a str> {
        let ctx = self.ctx;
        match self.st.exprs[h] {
            E::Constant(c) => Some(ctx.name(NameKey::Constant(c))),
            E::FunctionArgument(i) => Some(self.argument_str(i)),
            E::Load { pointer } => match self.st.exprs[pointer] {
                E::GlobalVariable(g) if is_buffer_space(ctx.module.global_variables[g].space) => {
                    None
                }
                _ => self.root_name(pointer),
            },
            _ => None,
        }
    }

    /// Like [`Self::expr_text`], without the outer parentheses (for
    /// arguments), and its class.
    pub(super) fn arg_with(&mut self, h: Handle<naga::Expression>) -> (String, Prec) {
        let (text, prec) = self.expr_text(h);
        (into_bare(text, prec), prec.bare())
    }

    /// The name of argument `i` of the body.
    fn argument_str(&self, i: u32) -> &'a str {
        match self.st.body {
            Body::Function(f, ..) => self.ctx.name(NameKey::FunctionArgument(f, i)),
            Body::Entry(index, ..) => self.ctx.name(NameKey::EntryPointArgument(index as u16, i)),
            Body::Module => "_s_invalid",
        }
    }

    /// `float3(...)`, `float3x4(c0, c1, c2)` (a matrix from its WGSL
    /// columns, which are its HLSL rows), or a constructor helper for
    /// arrays and structs (at module scope, an initializer list).
    fn push_compose(
        &mut self,
        out: &mut String,
        ty: Handle<naga::Type>,
        components: &[Handle<naga::Expression>],
    ) {
        let aggregate = matches!(
            self.ctx.module.types[ty].inner,
            Ti::Array { .. } | Ti::Struct { .. }
        );
        // Module scope: an initializer list (helpers come later in the file
        // than constants); otherwise a constructor call.
        let list = aggregate && matches!(self.st.body, Body::Module);
        let start = out.len();
        if !aggregate {
            out.push_str(types::type_name(self.ctx, ty));
        }
        out.push(if list { '{' } else { '(' });
        for (i, &c) in components.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            self.push_bare(out, c);
        }
        out.push(if list { '}' } else { ')' });
        // A constructor helper is named after the arguments are written: a
        // helper an argument needs is defined first.
        if aggregate && !list {
            let f = helpers::constructor(self.ctx, self.needs, ty);
            out.insert_str(start, &f);
        }
    }

    // ---- pointers -------------------------------------------------------

    /// Pointer expression `h`: lvalue text, or a place in a buffer.
    pub(super) fn place(&mut self, h: Handle<naga::Expression>) -> Ptr<'a> {
        if let Some(root) = self.text_root(h) {
            let text = match self.root_name(h) {
                Some(name) => Cow::Borrowed(name),
                None => {
                    let mut text = String::with_capacity(32);
                    self.push_place_text(&mut text, h);
                    Cow::Owned(text)
                }
            };
            return Ptr::Text { text, root };
        }
        let ctx = self.ctx;
        match self.st.exprs[h] {
            E::GlobalVariable(g) => {
                if let Some(place) = ctx.plan.global(g) {
                    return Ptr::Buffer(place);
                }
            }
            // A local at module scope, which has none.
            E::LocalVariable(_) => {
                return Ptr::Text {
                    text: Cow::Borrowed("_s_invalid"),
                    root: Root::Local,
                }
            }
            E::Access { base, index } => match self.place(base) {
                Ptr::Buffer(place) => {
                    let (_, container) = self.st.pointee(base);
                    let mut i = self.st.take_buf();
                    self.push_restricted_index(&mut i, &container, index, Some(&place));
                    let element = ctx.plan.element(place, Index::Dynamic(&i));
                    self.st.give_buf(i);
                    return Ptr::Buffer(element);
                }
                // An invalid base, reported where it is printed.
                invalid => return invalid,
            },
            E::AccessIndex { base, index } => match self.place(base) {
                Ptr::Buffer(place) => {
                    return Ptr::Buffer(match *self.st.pointee(base).1 {
                        Ti::Struct { .. } => ctx.plan.member(ctx, place, index),
                        _ => ctx.plan.element(place, Index::Constant(index)),
                    })
                }
                invalid => return invalid,
            },
            _ => {}
        }
        self.error("internal: a pointer expression HLSL cannot name", h);
        Ptr::Text {
            text: Cow::Borrowed("_s_invalid"),
            root: Root::Local,
        }
    }

    /// The value behind pointer `pointer`, appended to `out`, and its
    /// class: a name or lvalue is copied from where it is kept, without a
    /// string of its own.
    pub(super) fn push_load(&mut self, out: &mut String, pointer: Expr) -> Prec {
        if self.text_root(pointer).is_some() {
            self.push_place_text(out, pointer);
            return self.place_prec(pointer);
        }
        match self.place(pointer) {
            Ptr::Text { text, .. } => {
                out.push_str(&text);
                self.place_prec(pointer)
            }
            Ptr::Buffer(Place::Text {
                text,
                repr: Repr::Plain,
                word,
            }) => {
                out.push_str(&text);
                place_prec(word)
            }
            Ptr::Buffer(place) => match self.pointee_handle(pointer) {
                Some(ty) => {
                    let (value, prec) = self.ctx.plan.load(self.ctx, self.needs, &place, ty);
                    push_as_operand(out, &value, prec)
                }
                None => {
                    self.error(
                        "internal: a load from a buffer of a type the module does not declare",
                        pointer,
                    );
                    out.push_str("_s_invalid");
                    Prec::Word
                }
            },
        }
    }

    /// The class of the lvalue text [`Self::place`] prints for pointer `h`
    /// outside buffers: a name, or an access chain on one.
    fn place_prec(&self, h: Handle<naga::Expression>) -> Prec {
        match self.st.exprs[h] {
            E::Access { .. } | E::AccessIndex { .. } => Prec::Postfix,
            _ => Prec::Word,
        }
    }

    /// The root of pointer `h` when it is an access chain that
    /// [`Self::place`] prints as lvalue text: a local, an argument or a
    /// global that is not a buffer (`None`: any other pointer).
    pub(super) fn text_root(&self, mut h: Handle<naga::Expression>) -> Option<Root> {
        loop {
            match self.st.exprs[h] {
                E::Access { base, .. } | E::AccessIndex { base, .. } => h = base,
                E::LocalVariable(_) => {
                    return (!matches!(self.st.body, Body::Module)).then_some(Root::Local)
                }
                E::FunctionArgument(_) => return Some(Root::Argument),
                E::GlobalVariable(g) => {
                    let space = self.ctx.module.global_variables[g].space;
                    let buffer = is_buffer_space(space);
                    let text = !buffer || self.ctx.plan.global(g).is_none();
                    return text.then_some(Root::Global);
                }
                _ => return None,
            }
        }
    }

    /// The name of pointer `h` when it is a variable or an argument.
    fn root_name(&self, h: Handle<naga::Expression>) -> Option<&'a str> {
        let ctx = self.ctx;
        Some(match self.st.exprs[h] {
            E::GlobalVariable(g) => ctx.name(NameKey::GlobalVariable(g)),
            E::LocalVariable(l) => self
                .st
                .body
                .local_key(l)
                .map_or("_s_invalid", |key| ctx.name(key)),
            E::FunctionArgument(i) => self.argument_str(i),
            _ => return None,
        })
    }

    /// The lvalue text [`Self::place`] prints for `h` (a pointer for which
    /// [`Self::text_root`] gives a root), appended to `out`.
    pub(super) fn push_place_text(&mut self, out: &mut String, h: Handle<naga::Expression>) {
        if let Some(name) = self.root_name(h) {
            out.push_str(name);
            return;
        }
        let ctx = self.ctx;
        match self.st.exprs[h] {
            E::Access { base, index } => {
                self.push_place_text(out, base);
                let (_, container) = self.st.pointee(base);
                out.push('[');
                self.push_restricted_index(out, &container, index, None);
                out.push(']');
            }
            E::AccessIndex { base, index } => {
                self.push_place_text(out, base);
                let (bty, container) = self.st.pointee(base);
                match *container {
                    Ti::Struct { .. } => match bty {
                        Some(st) => {
                            out.push('.');
                            out.push_str(ctx.name(NameKey::StructMember(st, index)));
                        }
                        None => self.error("internal: a struct pointer without a type", h),
                    },
                    Ti::Vector { .. } => {
                        out.push('.');
                        out.push(component(index));
                    }
                    _ => {
                        out.push('[');
                        super::super::push_decimal(out, u64::from(index));
                        out.push(']');
                    }
                }
            }
            _ => {}
        }
    }

    // ---- operators ------------------------------------------------------

    /// Binary `op` appended to `out`, and its class: the plain infix
    /// ([`crate::back::text::InfixRules::plain`]), or how HLSL writes the
    /// other operators.
    fn push_binary(
        &mut self,
        out: &mut String,
        op: naga::BinaryOperator,
        left: Handle<naga::Expression>,
        right: Handle<naga::Expression>,
    ) -> Prec {
        use naga::BinaryOperator as B;
        if let Some(prec) = self.push_plain_binary(out, op, left, right) {
            return prec;
        }
        let BinaryOperands {
            lt,
            rt,
            scalar,
            size,
            float,
            ..
        } = BinaryOperands::new(self.st.ty(left), self.st.ty(right));
        let (l, lp) = self.expr_text(left);
        let (r, rp) = self.expr_text(right);
        let prec = match op {
            // WGSL `a * b` with a matrix is `mul(b, a)` (see the matrix
            // convention in `hlsl`); with a scalar it scales.
            B::Multiply => {
                super::super::push_parts(out, &["mul(", bare(&r, rp), ", ", bare(&l, lp), ")"]);
                Prec::Call
            }
            // Integer `/` and `%` with WGSL's results for a zero divisor
            // and `MIN / -1`, through `_s_div_T` / `_s_mod_T` helpers; the
            // `%` of f64 (HLSL's float `%` truncates like WGSL's, but DXIL
            // has no double remainder) through `_s_fmod_T`.
            B::Divide | B::Modulo => {
                let f = if float {
                    helpers::fmod_double(self.needs, size)
                } else {
                    let what = if op == B::Divide { "div" } else { "mod" };
                    helpers::div_mod(self.needs, what, scalar, size)
                };
                super::super::push_parts(out, &[&f, "("]);
                push_splat(out, &l, lp, lt, size);
                out.push_str(", ");
                push_splat(out, &r, rp, rt, size);
                out.push(')');
                Prec::Call
            }
            // Bool vectors.
            B::And | B::InclusiveOr => {
                let size = size.unwrap_or(naga::VectorSize::Quad);
                let f = helpers::logic(self.needs, op == B::And, size);
                super::super::push_parts(out, &[&f, "(", bare(&l, lp), ", ", bare(&r, rp), ")"]);
                Prec::Call
            }
            // WGSL masks the shift amount to the bit width.
            B::ShiftLeft | B::ShiftRight => {
                let o = if op == B::ShiftLeft { " << (" } else { " >> (" };
                super::super::push_parts(out, &["(", &l, o, &r, " & "]);
                super::super::push_decimal(out, u64::from(scalar.width) * 8 - 1);
                out.push_str("u))");
                Prec::Group
            }
            // Every other operator is plain ([`InfixRules::plain`]); the
            // plain operator keeps the text valid if one ever is not.
            _ => {
                let parts = ["(", &l, " ", operator_symbol(op), " ", &r, ")"];
                super::super::push_parts(out, &parts);
                Prec::Group
            }
        };
        self.st.give_buf(l);
        self.st.give_buf(r);
        prec
    }

    /// `As` `h` ([`Conversion`]) of `expr`, appended to `out`; its class.
    fn push_cast(
        &mut self,
        out: &mut String,
        h: Handle<naga::Expression>,
        expr: Handle<naga::Expression>,
    ) -> Prec {
        let conversion = self.st.conversion(h);
        let size = vector_size(self.st.ty(expr));
        let start = out.len();
        let prec = self.push_value(out, expr);
        let target = self.type_of(h);
        let f = match conversion {
            Conversion::Same => return prec,
            Conversion::Bitcast { from, to } => match (from.kind, to.kind, from.width) {
                (K::Float, K::Uint, 4) => "asuint",
                (K::Float, K::Sint, 4) => "asint",
                (K::Uint | K::Sint, K::Float, 4) => "asfloat",
                (K::Float, K::Uint, 2) => "asuint16",
                (K::Float, K::Sint, 2) => "asint16",
                (K::Uint | K::Sint, K::Float, 2) => "asfloat16",
                (K::Float, _, 8) | (_, K::Float, 8) => {
                    &helpers::bitcast64(self.needs, from, to, size)
                }
                // int <-> uint of one width keeps the bits.
                _ => "",
            },
            // `((T)clamp(e, lo, hi))`.
            Conversion::Saturate { from, lo, hi } => {
                let suffix = match from.width {
                    8 => "L",
                    2 => "h",
                    _ => "f",
                };
                bare_from(out, start, prec);
                for part in [")clamp(", &target, "(("] {
                    out.insert_str(start, part);
                }
                super::super::push_parts(out, &[", ", lo, suffix, ", ", hi, suffix, "))"]);
                return Prec::Group;
            }
            Conversion::Convert => "",
        };
        // `((T)e)`, or `f(e)`.
        if f.is_empty() {
            for part in [")", &target, "(("] {
                out.insert_str(start, part);
            }
            out.push(')');
            return Prec::Group;
        }
        bare_from(out, start, prec);
        out.insert(start, '(');
        out.insert_str(start, f);
        out.push(')');
        Prec::Call
    }
}

// ---- free helpers -------------------------------------------------------

/// The text and class of an operand [`FunctionWriter::push_operands`]
/// printed into `texts` (nothing for an absent one).
pub(super) fn operand_at(texts: &str, at: Option<(usize, usize, Prec)>) -> (&str, Prec) {
    at.map_or(("", Prec::Word), |(start, end, prec)| {
        (texts.get(start..end).unwrap_or(""), prec)
    })
}

/// `text` (of class `prec` and type `t`) appended to `out`: as a vector
/// of `size` when it is a scalar operand of a vector operation, else
/// without outer parentheses.
fn push_splat(out: &mut String, text: &str, prec: Prec, t: &Ti, size: Option<naga::VectorSize>) {
    match (size, t) {
        (Some(n), Ti::Scalar(s)) => {
            super::super::push_parts(out, &["((", &types::vector(n as u8, *s), ")"]);
            push_as_operand(out, text, prec);
            out.push(')');
        }
        _ => out.push_str(bare(text, prec)),
    }
}

/// `text` (of class `prec`) appended to `out` as an operand, and its
/// class: a word, a call or a group as it is, anything else (a number, an
/// access, an operator) in parentheses.
pub(super) fn push_as_operand(out: &mut String, text: &str, prec: Prec) -> Prec {
    match prec {
        Prec::Word | Prec::Call | Prec::Group | Prec::NegativeNumber => {
            out.push_str(text);
            prec
        }
        Prec::Number | Prec::Exponent | Prec::Postfix | Prec::Operator => {
            super::super::push_parts(out, &["(", text, ")"]);
            Prec::Group
        }
    }
}

/// Literal `lit` as HLSL, appended to `out`: negative numbers in
/// parentheses of their own (an f32 reads back as exactly the same value:
/// Rust prints the shortest such decimal), the most negative integers as
/// expressions, non-finite floats from their bits.
pub(super) fn push_literal(out: &mut String, lit: naga::Literal) {
    use naga::Literal as L;
    use std::fmt::Write as _;
    let (negative, prefix, suffix) = match lit {
        L::AbstractFloat(v) => return push_literal(out, L::F32(v as f32)),
        L::AbstractInt(v) => return push_literal(out, i32::try_from(v).map_or(L::I64(v), L::I32)),
        L::Bool(b) => return out.push_str(if b { "true" } else { "false" }),
        L::I32(v) if v < 0 => return push_i32(out, v),
        L::I64(i64::MIN) => return out.push_str("(-9223372036854775807L - 1L)"),
        L::F32(v) if !v.is_finite() => {
            let _ = write!(out, "asfloat({:#x}u)", v.to_bits());
            return;
        }
        L::F64(v) if !v.is_finite() => {
            let bits = v.to_bits();
            let _ = write!(
                out,
                "asdouble({:#x}u, {:#x}u)",
                bits & 0xffff_ffff,
                bits >> 32
            );
            return;
        }
        L::F16(v) if !v.is_finite() => {
            let _ = write!(out, "asfloat16(uint16_t({:#x}))", half_bits(f32::from(v)));
            return;
        }
        L::F32(v) => (v.is_sign_negative(), "", "f"),
        L::F64(v) => (v.is_sign_negative(), "", "L"),
        L::F16(v) => (v.is_sign_negative(), "", "h"),
        L::I64(v) => (v < 0, "", "L"),
        L::I32(_) => (false, "", ""),
        L::U32(_) => (false, "", "u"),
        L::U64(_) => (false, "", "UL"),
        L::U16(_) => (false, "uint16_t(", ")"),
        L::I16(_) => (false, "int16_t(", ")"),
    };
    if negative {
        out.push('(');
    }
    out.push_str(prefix);
    let signed = |out: &mut String, v: i64| {
        if v < 0 {
            out.push('-');
        }
        super::super::push_decimal(out, v.unsigned_abs());
    };
    match lit {
        L::F32(v) => crate::back::common::push_f32_debug(out, v),
        L::F64(v) => {
            let _ = write!(out, "{v:?}");
        }
        L::F16(v) => {
            let _ = write!(out, "{:?}", f32::from(v));
        }
        L::U32(v) => super::super::push_decimal(out, u64::from(v)),
        L::U64(v) => super::super::push_decimal(out, v),
        L::U16(v) => super::super::push_decimal(out, u64::from(v)),
        L::I32(v) => signed(out, i64::from(v)),
        L::I64(v) => signed(out, v),
        L::I16(v) => signed(out, i64::from(v)),
        _ => {}
    }
    out.push_str(suffix);
    if negative {
        out.push(')');
    }
}

/// The binary16 bits of a non-finite `v`.
fn half_bits(v: f32) -> u16 {
    let sign = if v.is_sign_negative() { 0x8000 } else { 0 };
    if v.is_nan() {
        sign | 0x7e00
    } else {
        sign | 0x7c00
    }
}

/// The integer `v` as a literal of integer scalar `s` (wrapped to its
/// width).
pub(super) fn typed_int(s: Scalar, v: i64) -> String {
    use naga::Literal as L;
    let mut text = String::with_capacity(16);
    let lit = match (s.kind, s.width) {
        (K::Uint, 8) => L::U64(v as u64),
        (K::Uint, 2) => L::U16(v as u16),
        (K::Uint, _) => L::U32(v as u32),
        (K::Sint, 8) => L::I64(v),
        (K::Sint, 2) => L::I16(v as i16),
        _ => L::I32(v as i32),
    };
    push_literal(&mut text, lit);
    text
}

/// The class of [`push_literal`] of `lit`: [`literal_class`], and
/// [`Prec::Exponent`] for a positive f32 or f64 printed with a negative
/// exponent (`{:?}` writes those below 1e-4 as `1e-5`).
fn literal_prec(lit: naga::Literal) -> Prec {
    use naga::Literal as L;
    match lit {
        L::F32(v) if v > 0.0 && v < 1e-4 => Prec::Exponent,
        L::AbstractFloat(v) if (v as f32) > 0.0 && (v as f32) < 1e-4 => Prec::Exponent,
        L::F64(v) if v > 0.0 && v < 1e-4 => Prec::Exponent,
        _ => literal_class(lit),
    }
}
