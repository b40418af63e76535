//! Expressions: values, pointers (lvalue texts with their buffer repr),
//! literals, operators and casts with WGSL's defined behaviours.
//!
//! Every text returned by [`FunctionWriter::expr`] is a GLSL primary
//! expression or wrapped in parentheses, so it can be an operand, be
//! indexed or swizzled as it is.

use super::FunctionWriter;
use crate::back::common::{push_f32_debug, push_parts};
use crate::back::glsl::buffers::{words, Index, Repr};
use crate::back::glsl::{types, Needs};
pub(super) use crate::back::text::{
    bare, component, into_bare, is_pointer, push_swizzle, vector_size, Prec,
};
use crate::back::text::{
    is_buffer_space, operator_symbol, push_i32, Body, Conversion, TextWriter as _, Unsupported,
};
use naga::proc::NameKey;
use naga::{Expression as E, Handle, Scalar, ScalarKind as K, TypeInner as Ti};
use std::fmt::Write as _;

impl<'a> FunctionWriter<'a, '_> {
    // ---- expressions ----------------------------------------------------

    /// The text of expression `h`: its baked name, or the expression.
    pub(super) fn expr(&mut self, h: Handle<naga::Expression>) -> String {
        self.expr_text(h).0
    }

    /// `name(a, b, ...)`, the call of `name` on `args` (each without the
    /// parentheses of its own, visited in order), appended to `out`.
    pub(super) fn push_call(
        &mut self,
        out: &mut String,
        name: &str,
        args: impl IntoIterator<Item = Handle<naga::Expression>>,
    ) -> Prec {
        out.push_str(name);
        out.push('(');
        for (i, a) in args.into_iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            self.push_bare(out, a);
        }
        out.push(')');
        Prec::Call
    }

    /// Expression `h` itself (not its baked name), appended to `out`, with
    /// its class. Operands are written through [`Self::push_value`], in
    /// the order WGSL evaluates them (and so helpers, extensions and errors
    /// come in that order).
    pub(super) fn write_expr_into(
        &mut self,
        h: Handle<naga::Expression>,
        out: &mut String,
    ) -> Prec {
        let ctx = self.ctx;
        if is_pointer(self.st.ty(h)) {
            self.place_into(h, out);
            return self.place_class(h);
        }
        let exprs = self.st.exprs;
        match exprs[h] {
            E::Constant(c) => out.push_str(ctx.name(NameKey::Constant(c))),
            E::GlobalVariable(g) => out.push_str(ctx.name(NameKey::GlobalVariable(g))),
            E::Splat { size, value } => {
                let t = types::vector(self.needs, size, self.st.scalar_of(value));
                return self.push_call(out, t, [value]);
            }
            E::Relational { fun, argument } => return self.push_relational(out, fun, argument),
            E::Override(o) => out.push_str(ctx.name(NameKey::Override(o))),
            E::FunctionArgument(i) => out.push_str(self.argument_name(i)),
            E::Binary { op, left, right } => return self.binary_into(op, left, right, out),
            E::Access { .. } | E::AccessIndex { .. } => {
                if !self.push_access(out, h) {
                    self.error("internal: a struct value without a type handle", h);
                }
                return Prec::Postfix;
            }
            E::Compose { ty, ref components } => {
                let t = types::type_name(ctx, self.needs, ty);
                return self.push_call(out, t, components.iter().copied());
            }
            E::Load { pointer } => return self.load_into(pointer, out),
            E::Math { .. } => return self.math_into(h, out),
            E::As { expr, .. } => return self.cast_into(h, expr, out),
            E::Unary { op, expr } => {
                let open = match op {
                    naga::UnaryOperator::Negate => "(-",
                    naga::UnaryOperator::LogicalNot => match *self.st.ty(expr) {
                        Ti::Vector { .. } => return self.push_call(out, "not", [expr]),
                        _ => "(!",
                    },
                    naga::UnaryOperator::BitwiseNot => "(~",
                };
                out.push_str(open);
                self.push_value(out, expr);
                out.push(')');
                return Prec::Group;
            }
            E::Literal(lit) => return literal_into(self.needs, lit, out),
            E::Swizzle { vector, .. } => {
                self.push_value(out, vector);
                push_swizzle(out, &self.st.exprs[h]);
                return Prec::Postfix;
            }
            E::ZeroValue(ty) => {
                types::zero_value_into(ctx, self.needs, ty, out);
                return zero_value_class(ctx.module, ty);
            }
            E::Select {
                condition,
                accept,
                reject,
            } => return self.select_into(h, condition, accept, reject, out),
            // Texture functions: a call, or a component of one.
            E::ImageSample { .. } => {
                self.image_sample_into(h, out);
                return Prec::Postfix;
            }
            E::ImageLoad { .. } => {
                self.image_load_into(h, out);
                return Prec::Postfix;
            }
            E::ImageQuery { image, query } => {
                self.image_query_into(h, image, query, out);
                return Prec::Postfix;
            }
            E::Derivative { axis, ctrl, expr } => {
                use naga::DerivativeAxis as A;
                use naga::DerivativeControl as C;
                out.push_str(match axis {
                    A::X => "dFdx",
                    A::Y => "dFdy",
                    A::Width => "fwidth",
                });
                let suffix = match ctrl {
                    // ES has no derivative control: the plain function is
                    // one of the implementations WGSL allows for coarse and
                    // fine alike.
                    _ if ctx.dialect().is_es() => "",
                    C::Coarse => "Coarse",
                    C::Fine => "Fine",
                    C::None => "",
                };
                if !suffix.is_empty() && ctx.dialect().version() < 450 {
                    self.needs.extension("GL_ARB_derivative_control");
                }
                // The name's second part: `dFdxCoarse(e)`.
                return self.push_call(out, suffix, [expr]);
            }
            E::ArrayLength(pointer) => return self.array_length_into(pointer, out),
            E::RayQueryVertexPositions { .. } | E::RayQueryGetIntersection { .. } => {
                self.error("ray queries are not supported by the GLSL output", h);
                out.push_str("_s_unsupported");
            }
            E::CooperativeLoad { .. } | E::CooperativeMultiplyAdd { .. } => {
                self.error(self.unsupported(Unsupported::Cooperative), h);
                out.push_str("_s_unsupported");
            }
            // A local variable is a pointer, written above.
            E::LocalVariable(_) => out.push_str("_s_invalid"),
            // The rest are results, which their statements declare:
            // reaching here means an unsupported statement made this one.
            _ => out.push_str(&self.unsupported_result(h)),
        }
        Prec::Word
    }

    /// `arrayLength` of `pointer`, appended to `out`.
    fn array_length_into(&mut self, pointer: Handle<naga::Expression>, out: &mut String) -> Prec {
        if let Some(place) = self.words_place(pointer) {
            let block = self.ctx.plan.words.get(place.buffer);
            return match (block, &place.layout.kind) {
                (Some(b), crate::layout::LayoutKind::Array { stride, .. }) => {
                    out.push_str(&b.array_length(&place.offset, *stride));
                    Prec::Group
                }
                _ => {
                    out.push_str("_s_invalid");
                    Prec::Word
                }
            };
        }
        self.push_runtime_length(out, &pointer);
        Prec::Call
    }

    /// Like [`Self::expr`], without the outer parentheses (for arguments).
    pub(super) fn arg(&mut self, h: Handle<naga::Expression>) -> String {
        let (text, prec) = self.expr_text(h);
        into_bare(text, prec)
    }

    fn argument_name(&self, i: u32) -> &'a str {
        let ctx: &'a crate::back::glsl::Ctx<'_> = self.ctx;
        match self.st.body {
            Body::Function(f, ..) => ctx.name(NameKey::FunctionArgument(f, i)),
            Body::Entry(index, ..) => ctx.name(NameKey::EntryPointArgument(index as u16, i)),
            Body::Module => "_s_invalid",
        }
    }

    // ---- pointers -------------------------------------------------------

    /// The class of the lvalue text of pointer `h`: a name for a variable
    /// or an argument, an access for everything in it (and for a buffer,
    /// whose text is the plan's).
    fn place_class(&self, h: Handle<naga::Expression>) -> Prec {
        match self.st.exprs[h] {
            E::GlobalVariable(g) if is_buffer_space(self.ctx.module.global_variables[g].space) => {
                Prec::Postfix
            }
            E::GlobalVariable(_) | E::LocalVariable(_) | E::FunctionArgument(_) => Prec::Word,
            _ => Prec::Postfix,
        }
    }

    /// The place of pointer `h` when it points into a buffer declared as
    /// its words ([`words`]); `None` for every other pointer. Indices into
    /// a runtime-sized array are clamped to the bound buffer's length.
    pub(super) fn words_place(&mut self, h: Handle<naga::Expression>) -> Option<words::Place<'a>> {
        let ctx = self.ctx;
        match self.st.exprs[h] {
            E::GlobalVariable(g) => {
                let (block, _) = ctx.plan.words_block(g)?;
                let global = ctx.contract.globals.iter().find(|l| l.handle == g)?;
                Some(words::Place {
                    buffer: block,
                    offset: words::Offset::default(),
                    layout: std::borrow::Cow::Borrowed(&global.layout),
                })
            }
            E::Access { base, index } => {
                let place = self.words_place(base)?;
                let (_, container) = self.st.pointee(base);
                if let Some(k) = self.st.known_index(&container, index) {
                    return Some(place.element(Index::Constant(k)));
                }
                let mut i = String::with_capacity(16);
                self.push_restricted_index(&mut i, &container, index, None);
                if let crate::layout::LayoutKind::Array {
                    count: None,
                    stride,
                    ..
                } = place.layout.kind
                {
                    let block = ctx.plan.words.get(place.buffer)?;
                    let length = block.array_length(&place.offset, stride);
                    i = format!("min({i}, {length} - 1u)");
                }
                Some(place.element(Index::Dynamic(&i)))
            }
            E::AccessIndex { base, index } => {
                let place = self.words_place(base)?;
                Some(match place.layout.kind {
                    crate::layout::LayoutKind::Struct(_) => place.member(ctx.contract, index),
                    _ => place.element(Index::Constant(index)),
                })
            }
            _ => None,
        }
    }

    /// The lvalue text of pointer expression `h`, appended to `out`, and
    /// the repr of the GLSL storage behind it (`Plain` for everything
    /// outside buffers).
    pub(super) fn place_into(&mut self, h: Handle<naga::Expression>, out: &mut String) -> Repr {
        let ctx = self.ctx;
        let exprs = self.st.exprs;
        match exprs[h] {
            E::GlobalVariable(g) => ctx.plan.global_into(g, out).unwrap_or_else(|| {
                out.push_str(ctx.name(NameKey::GlobalVariable(g)));
                Repr::Plain
            }),
            E::LocalVariable(l) => {
                let key = match self.st.body.local_key(l) {
                    Some(key) => key,
                    None => {
                        out.push_str("_s_invalid");
                        return Repr::Plain;
                    }
                };
                out.push_str(ctx.name(key));
                Repr::Plain
            }
            E::FunctionArgument(i) => {
                out.push_str(self.argument_name(i));
                Repr::Plain
            }
            E::Access { base, index } => {
                let start = out.len();
                let repr = self.place_into(base, out);
                let (_, container) = self.st.pointee(base);
                if repr == Repr::Plain {
                    out.push('[');
                    self.push_restricted_index(out, &container, index, Some(&base));
                    out.push(']');
                    Repr::Plain
                } else {
                    let mut i = String::with_capacity(16);
                    self.push_restricted_index(&mut i, &container, index, Some(&base));
                    ctx.plan.element(out, start, &repr, Index::Dynamic(&i))
                }
            }
            E::AccessIndex { base, index } => {
                let start = out.len();
                let repr = self.place_into(base, out);
                let (bty, container) = self.st.pointee(base);
                match *container {
                    Ti::Struct { .. } if repr != Repr::Plain => ctx.plan.member(out, &repr, index),
                    Ti::Struct { .. } => {
                        match bty {
                            Some(st) => {
                                out.push('.');
                                out.push_str(ctx.name(NameKey::StructMember(st, index)));
                            }
                            None => self.error("internal: a struct pointer without a type", h),
                        }
                        Repr::Plain
                    }
                    Ti::Vector { .. } if repr == Repr::Plain => {
                        out.push('.');
                        out.push(component(index));
                        Repr::Plain
                    }
                    // `[N]`, or the element of buffer storage.
                    _ => ctx.plan.element(out, start, &repr, Index::Constant(index)),
                }
            }
            _ => {
                self.error("internal: a pointer expression GLSL cannot name", h);
                out.push_str("_s_invalid");
                Repr::Plain
            }
        }
    }

    /// The value behind pointer `pointer`, appended to `out`, and its
    /// class. A value read from buffer storage the plan rebuilds is a member
    /// access or a constructor call.
    pub(super) fn load_into(
        &mut self,
        pointer: Handle<naga::Expression>,
        out: &mut String,
    ) -> Prec {
        if let Some(place) = self.words_place(pointer) {
            let ctx = self.ctx;
            let (Some(block), ty) = (ctx.plan.words.get(place.buffer), self.st.pointee(pointer).0)
            else {
                return Prec::Word;
            };
            match words::load(ctx, self.needs, block, &place, ty) {
                Some(value) => out.push_str(&value),
                None => {
                    self.error("internal: a load from buffer words without a type", pointer);
                    out.push_str("_s_invalid");
                }
            }
            return Prec::Call;
        }
        let start = out.len();
        let repr = self.place_into(pointer, out);
        if repr == Repr::Plain {
            return self.place_class(pointer);
        }
        let text = take_from(out, start);
        let loaded = match self.st.pointee(pointer).0 {
            // The `Emit` rebuilds such a value in place
            // (`TextWriter::rebuilds`); nothing else loads one.
            Some(ty) => self
                .ctx
                .plan
                .load(self.ctx, &text, &repr, ty)
                .ok_or("internal: a buffer value rebuilt in place, read as an expression"),
            None => Err("internal: a load from split buffer storage without a type"),
        };
        match loaded {
            Ok(value) => append(out, value),
            Err(message) => {
                self.error(message, pointer);
                append(out, text);
            }
        }
        Prec::Postfix
    }

    // ---- operators ------------------------------------------------------

    /// Binary `op` of `left` and `right`, appended to `out`, and its class:
    /// the plain `(l o r)` of [`push_plain_binary`], vector comparisons,
    /// bool vector `&`/`|`, masked shifts, float `%` and the integer `/`
    /// and `%` helpers. Operands are visited left, then right.
    ///
    /// [`push_plain_binary`]: crate::back::text::TextWriter::push_plain_binary
    fn binary_into(
        &mut self,
        op: naga::BinaryOperator,
        left: Handle<naga::Expression>,
        right: Handle<naga::Expression>,
        out: &mut String,
    ) -> Prec {
        use naga::BinaryOperator as B;
        if let Some(prec) = self.push_plain_binary(out, op, left, right) {
            return prec;
        }
        let lt = self.st.ty(left);
        let rt = self.st.ty(right);
        let scalar = lt.scalar().unwrap_or(Scalar::F32);
        let vector = matches!(lt, Ti::Vector { .. }) || matches!(rt, Ti::Vector { .. });
        let bool_ = scalar.kind == K::Bool;
        match op {
            // Vector comparisons (the plain infix takes the scalar ones).
            B::Equal => self.push_call(out, "equal", [left, right]),
            B::NotEqual => self.push_call(out, "notEqual", [left, right]),
            B::Less => self.push_call(out, "lessThan", [left, right]),
            B::LessEqual => self.push_call(out, "lessThanEqual", [left, right]),
            B::Greater => self.push_call(out, "greaterThan", [left, right]),
            B::GreaterEqual => self.push_call(out, "greaterThanEqual", [left, right]),
            B::ExclusiveOr if bool_ && vector => self.push_call(out, "notEqual", [left, right]),
            B::And | B::InclusiveOr if bool_ && vector => {
                let n = vector_size(lt).map_or(4, |s| s as u8);
                let o = if op == B::And { "&" } else { "|" };
                let _ = write!(out, "bvec{n}(uvec{n}(");
                self.push_bare(out, left);
                let _ = write!(out, ") {o} uvec{n}(");
                self.push_bare(out, right);
                out.push_str("))");
                Prec::Call
            }
            // WGSL masks the shift amount to the bit width.
            B::ShiftLeft | B::ShiftRight => {
                let o = if op == B::ShiftLeft { " << (" } else { " >> (" };
                let mask = u32::from(scalar.width) * 8 - 1;
                out.push('(');
                self.push_value(out, left);
                out.push_str(o);
                self.push_value(out, right);
                out.push_str(" & ");
                crate::back::glsl::push_decimal(out, u64::from(mask));
                out.push_str("u))");
                Prec::Group
            }
            // WGSL's float `%` truncates (like C's fmod), GLSL's mod floors.
            B::Modulo if scalar.kind == K::Float => {
                let mut l = self.st.take_buf();
                self.push_value(&mut l, left);
                let mut r = self.st.take_buf();
                self.push_value(&mut r, right);
                push_parts(out, &["(", &l, " - ", &r, " * trunc(", &l, " / ", &r, "))"]);
                self.st.give_buf(r);
                self.st.give_buf(l);
                Prec::Group
            }
            B::Divide => self.int_div_mod_into("div", left, right, out),
            B::Modulo => self.int_div_mod_into("mod", left, right, out),
            // Every other operator is printed above; the plain operator
            // keeps the text valid if one ever is not.
            _ => self.push_infix(out, operator_symbol(op), left, right),
        }
    }

    /// Integer `/` and `%` with WGSL's results for a zero divisor and
    /// `MIN / -1`, through `_s_div_T` / `_s_mod_T` helpers, appended to
    /// `out`. The operands are visited before the helper is defined.
    fn int_div_mod_into(
        &mut self,
        what: &str,
        left: Handle<naga::Expression>,
        right: Handle<naga::Expression>,
        out: &mut String,
    ) -> Prec {
        let lt = self.st.ty(left);
        let rt = self.st.ty(right);
        let scalar = lt.scalar().unwrap_or(Scalar::I32);
        let size = vector_size(lt).or(vector_size(rt));
        let mut l = self.st.take_buf();
        let lp = self.push_value(&mut l, left);
        let mut r = self.st.take_buf();
        let rp = self.push_value(&mut r, right);
        self.div_mod_helper_into(what, scalar, size, out);
        // Splat a scalar operand of a vector operation.
        for (sep, text, prec, t) in [("(", &l, lp, lt), (", ", &r, rp, rt)] {
            out.push_str(sep);
            match (size, t) {
                (Some(n), Ti::Scalar(s)) => {
                    let v = types::vector(self.needs, n, *s);
                    push_parts(out, &[v, "(", bare(text, prec), ")"]);
                }
                _ => out.push_str(bare(text, prec)),
            }
        }
        out.push(')');
        self.st.give_buf(r);
        self.st.give_buf(l);
        Prec::Call
    }

    /// Define (once) the helper for integer `what` ("div" or "mod") on
    /// `scalar` or vectors of `size` of it, and append its name to `out`.
    /// The helper texts are made only the first time.
    fn div_mod_helper_into(
        &mut self,
        what: &str,
        scalar: Scalar,
        size: Option<naga::VectorSize>,
        out: &mut String,
    ) {
        let s = types::scalar(self.needs, scalar);
        let mut scalar_name = self.st.take_buf();
        push_parts(&mut scalar_name, &["_s_", what, "_", s]);
        self.needs.helper(&scalar_name, || {
            let signed = scalar.kind == K::Sint;
            let (minus_one, min) = match (signed, scalar.width) {
                (false, _) => ("", ""),
                (true, 8) => (small_int(scalar, -1), I64_MIN),
                (true, _) => (small_int(scalar, -1), "(-2147483647 - 1)"),
            };
            let literals = [small_int(scalar, 0), small_int(scalar, 1), minus_one, min];
            let body = crate::back::text::div_mod_body(what, s, signed, literals);
            format!("{s} {scalar_name}({s} a, {s} b) {{\n{body}}}\n")
        });
        let Some(size) = size else {
            out.push_str(&scalar_name);
            self.st.give_buf(scalar_name);
            return;
        };
        let v = types::vector(self.needs, size, scalar);
        let start = out.len();
        push_parts(out, &["_s_", what, "_", v]);
        let name = &out[start..];
        self.needs.helper(name, || {
            let params = format!("{v} a, {v} b");
            crate::back::text::componentwise_text((v, name, &params), " {\n", size, |c| {
                format!("{scalar_name}(a.{c}, b.{c})")
            })
        });
        self.st.give_buf(scalar_name);
    }

    /// `select` `h`, appended to `out`: `(c ? a : r)` for a scalar
    /// condition, else `mix(r, a, c)` or, where GLSL's `mix` takes no such
    /// vectors, one `?:` per component.
    fn select_into(
        &mut self,
        h: Handle<naga::Expression>,
        condition: Handle<naga::Expression>,
        accept: Handle<naga::Expression>,
        reject: Handle<naga::Expression>,
        out: &mut String,
    ) -> Prec {
        let Some(size) = vector_size(self.st.ty(condition)) else {
            out.push('(');
            self.push_value(out, condition);
            out.push_str(" ? ");
            self.push_value(out, accept);
            out.push_str(" : ");
            self.push_value(out, reject);
            out.push(')');
            return Prec::Group;
        };
        let (c, cp) = self.expr_text(condition);
        let (a, ap) = self.expr_text(accept);
        let (r, rp) = self.expr_text(reject);
        let scalar = self.st.scalar_of(h);
        // mix() with a bool selector takes float vectors everywhere, and
        // integer and bool vectors since GLSL 4.50 and ES 3.10.
        let d = self.ctx.dialect();
        if scalar.kind == K::Float || d.is_es() || d.version() >= 450 {
            let (r, a, c) = (bare(&r, rp), bare(&a, ap), bare(&c, cp));
            push_parts(out, &["mix(", r, ", ", a, ", ", c, ")"]);
            return Prec::Call;
        }
        out.push_str(types::vector(self.needs, size, scalar));
        for i in 0..size as u32 {
            let k = component(i);
            let sep = if i == 0 { "(" } else { ", " };
            let _ = write!(out, "{sep}{c}.{k} ? {a}.{k} : {r}.{k}");
        }
        out.push(')');
        Prec::Call
    }

    /// `As` `h` ([`Conversion`]) of `expr`, appended to `out`. The operand is
    /// visited before the target type is spelled (as the type may record
    /// needs); the call around it is inserted in front of it afterwards.
    fn cast_into(
        &mut self,
        h: Handle<naga::Expression>,
        expr: Handle<naga::Expression>,
        out: &mut String,
    ) -> Prec {
        let conversion = self.st.conversion(h);
        let start = out.len();
        self.push_bare(out, expr);
        let target = self.type_of(h);
        let f = match conversion {
            Conversion::Bitcast { from, to } => match (from.kind, to.kind, from.width) {
                (K::Float, K::Uint, 4) => "floatBitsToUint",
                (K::Float, K::Sint, 4) => "floatBitsToInt",
                (K::Uint, K::Float, 4) => "uintBitsToFloat",
                (K::Sint, K::Float, 4) => "intBitsToFloat",
                (K::Float, K::Uint, 8) => "doubleBitsToUint64",
                (K::Float, K::Sint, 8) => "doubleBitsToInt64",
                (K::Uint, K::Float, 8) => "uint64BitsToDouble",
                (K::Sint, K::Float, 8) => "int64BitsToDouble",
                (K::Float, K::Uint, 2) => "float16BitsToUint16",
                (K::Float, K::Sint, 2) => "float16BitsToInt16",
                (K::Uint, K::Float, 2) => "uint16BitsToFloat16",
                (K::Sint, K::Float, 2) => "int16BitsToFloat16",
                // int <-> uint of one width keeps the bits.
                _ => &*target,
            },
            Conversion::Saturate { from, lo, hi } => {
                out.insert_str(start, "(clamp(");
                out.insert_str(start, &target);
                let _ = match from.width {
                    8 => write!(out, ", {lo}lf, {hi}lf))"),
                    2 => {
                        let h = types::scalar(self.needs, from);
                        write!(out, ", {h}({lo}), {h}({hi})))")
                    }
                    _ => write!(out, ", {lo}, {hi}))"),
                };
                return Prec::Call;
            }
            Conversion::Same | Conversion::Convert => &*target,
        };
        // `f(operand)`.
        out.insert(start, '(');
        out.insert_str(start, f);
        out.push(')');
        Prec::Call
    }
}

// ---- free helpers -------------------------------------------------------

/// `out[start..]`, removed from `out`; all of `out` (its allocation
/// included) when `start` is 0.
fn take_from(out: &mut String, start: usize) -> String {
    if start == 0 {
        std::mem::take(out)
    } else {
        out.split_off(start)
    }
}

/// Append `text` to `out`, taking over its allocation when `out` is empty.
fn append(out: &mut String, text: String) {
    if out.is_empty() {
        *out = text;
    } else {
        out.push_str(&text);
    }
}

/// An f32 value as a GLSL float literal that reads back as exactly the
/// same value (Rust prints the shortest such decimal), appended to `out`:
/// in parentheses when negative and `grouped` (as an operand), an
/// infinity or NaN by its bits.
pub(crate) fn push_f32(out: &mut String, v: f32, grouped: bool) {
    if !v.is_finite() {
        let _ = write!(out, "uintBitsToFloat({:#x}u)", v.to_bits());
    } else if grouped && v.is_sign_negative() {
        out.push('(');
        push_f32_debug(out, v);
        out.push(')');
    } else {
        push_f32_debug(out, v);
    }
}

/// An f64 value as a GLSL double literal.
pub(crate) fn f64_text(v: f64) -> String {
    if !v.is_finite() {
        return format!("uint64BitsToDouble({:#x}ul)", v.to_bits());
    }
    crate::back::common::float_literal(v.is_sign_negative(), "lf", |t| {
        let _ = write!(t, "{v:?}");
    })
}

/// The integer 0, 1 or -1 as a literal of integer scalar `s` (integer
/// helpers' constants).
fn small_int(s: Scalar, v: i8) -> &'static str {
    match (s.kind, s.width, v) {
        (K::Uint, 8, 0) => "0ul",
        (K::Uint, 8, _) => "1ul",
        (K::Uint, _, 0) => "0u",
        (K::Uint, _, _) => "1u",
        (K::Sint, 8, 0) => "0l",
        (K::Sint, 8, 1) => "1l",
        (K::Sint, 8, _) => "(-1l)",
        (_, _, 0) => "0",
        (_, _, 1) => "1",
        _ => "(-1)",
    }
}

/// The `i64` minimum, which GLSL has no literal for.
const I64_MIN: &str = "(-9223372036854775807l - 1l)";

/// Literal `lit` as GLSL, appended to `out`, and its class.
fn literal_into(needs: &mut Needs, lit: naga::Literal, out: &mut String) -> Prec {
    use naga::Literal as L;
    let float = |v: f32, out: &mut String| {
        push_f32(out, v, true);
        Ok(())
    };
    let int = |v: i32, out: &mut String| {
        push_i32(out, v);
        Ok(())
    };
    let _: std::fmt::Result = match lit {
        L::F32(v) => float(v, out),
        L::AbstractFloat(v) => float(v as f32, out),
        L::F64(v) => write!(out, "{}", f64_text(v)),
        L::F16(v) => {
            push_parts(out, &[types::scalar(needs, Scalar::F16), "("]);
            push_f32(out, f32::from(v), false);
            out.push(')');
            Ok(())
        }
        L::U32(v) => write!(out, "{v}u"),
        L::I32(v) => int(v, out),
        L::AbstractInt(v) => match i32::try_from(v) {
            Ok(v) => int(v, out),
            Err(_) => write!(out, "{v}l"),
        },
        L::U64(v) => {
            types::scalar(needs, Scalar::U64);
            write!(out, "{v}ul")
        }
        L::I64(v) => {
            types::scalar(needs, Scalar::I64);
            match v {
                i64::MIN => write!(out, "{I64_MIN}"),
                v if v < 0 => write!(out, "({v}l)"),
                _ => write!(out, "{v}l"),
            }
        }
        L::U16(v) => write!(out, "{}({v})", types::scalar(needs, Scalar::U16)),
        L::I16(v) => write!(out, "{}({v})", types::scalar(needs, Scalar::I16)),
        L::Bool(b) => write!(out, "{b}"),
    };
    literal_class(lit)
}

/// The class of [`literal_into`] of `lit` (an abstract integer outside the
/// `i32` range is printed without parentheses of its own).
fn literal_class(lit: naga::Literal) -> Prec {
    match lit {
        naga::Literal::AbstractInt(v) if v < 0 && i32::try_from(v).is_err() => Prec::Operator,
        _ => crate::back::text::literal_class(lit),
    }
}

/// The class of the zero value of `ty`: a keyword or a number for a
/// scalar, a constructor for anything else.
fn zero_value_class(module: &naga::Module, ty: Handle<naga::Type>) -> Prec {
    match module.types.get_handle(ty).map(|t| &t.inner) {
        Ok(Ti::Scalar(s) | Ti::Atomic(s)) => match (s.kind, s.width) {
            (K::Bool, _) => Prec::Word,
            (K::Float, 4 | 8) | (K::Sint | K::Uint, 4) => Prec::Number,
            _ => Prec::Call,
        },
        Ok(_) => Prec::Call,
        Err(_) => Prec::Number,
    }
}
