//! Function bodies: naga expressions and statements printed as HLSL.
//!
//! INTERFACE (owned by the function part; `decl` calls it).
//!
//! - this file: the writer, signatures, and HLSL's side of the shared
//!   statement skeleton (`back::text`: function state, baking policy,
//!   blocks, loops, switch): locals, returns, barriers, stores, atomics
//!   (of buffers, variables and texels);
//! - `expr`: expressions, pointers ([`super::buffers::Place`] for buffers,
//!   lvalue text otherwise), literals, casts and operators with WGSL's
//!   defined behaviours;
//! - `helpers`: the `_s_` helper functions `expr` calls (integer division,
//!   component-wise select and logic, array and struct constructors);
//! - `image`: sampling, loads and queries of textures, and texel addresses
//!   (writer methods on the expressions' operands);
//! - `math`: the builtin functions (`MathFunction`) and their polyfills
//!   (free functions on printed operands).
//!
//! Expression baking (`back::text`): an expression is printed inline where it is used,
//! unless WGSL names it (`let`), it is used more than once, or it must be
//! evaluated at its `Emit` point (loads, image reads, derivatives, call and
//! atomic results). A baked expression becomes a local `T _eN = ...;`
//! (`T name_eN = ...;` for a WGSL `let`). Pointers, textures and samplers
//! are never baked: a pointer is re-printed at every use, as lvalue text or
//! as a buffer [`super::buffers::Place`] (its indices are side-effect free:
//! any load or call in them was baked before).
//!
//! Loops with a continuing block run it at the top of the next iteration
//! behind a gate variable, so that `continue` (also from inside a `switch`)
//! reaches it; values of the body it reads are declared before the loop
//! (`back::scope::loop_carried`).

mod expr;
mod helpers;
mod image;
mod math;

use super::{decl, types, Ctx, Needs};
use crate::back::text::{
    is_buffer_space, is_pointer, Atomic, Body, Expr, FunctionState, InfixRules, Prec, Texel,
    TextWriter, Unsupported,
};
use expr::{Ptr, Root};
use naga::proc::NameKey;
use naga::Handle;
use std::borrow::Cow;

/// [`write_function_into`], in a string of its own.
#[cfg(test)]
pub fn write_function(ctx: &Ctx<'_>, needs: &mut Needs, handle: Handle<naga::Function>) -> String {
    let mut out = String::new();
    write_function_into(ctx, needs, handle, &mut out, &mut Reuse::default());
    out
}

pub(crate) use crate::back::text::Reuse;

/// The complete definition of function `handle` (signature and body),
/// appended to `out` (the writer prints straight into the file's text
/// rather than into a string of its own).
pub fn write_function_into(
    ctx: &Ctx<'_>,
    needs: &mut Needs,
    handle: Handle<naga::Function>,
    out: &mut String,
    reuse: &mut Reuse,
) {
    let func = &ctx.module.functions[handle];
    let info = &ctx.info[handle];
    let body = Body::Function(handle, func, info);
    let mut w = FunctionWriter::reusing(ctx, needs, body, std::mem::take(reuse));
    w.st.out = std::mem::take(out);
    w.st.mark_function(ctx.parsed, func.name.as_deref().unwrap_or_default());
    w.signature(handle, func);
    w.st.out.push_str("\n{\n");
    w.body(&func.body);
    *out = w.st.finish(reuse);
}

/// The entry function of entry point `index`, appended to `out`:
/// [`decl::push_entry_signature`], then [`decl::push_entry_prologue`], the
/// body, and every `return` replaced by [`decl::push_entry_return`]. `has_input`: whether
/// the entry point has an input struct, when the caller knows.
pub fn write_entry_point_into(
    ctx: &Ctx<'_>,
    needs: &mut Needs,
    index: usize,
    has_input: Option<bool>,
    out: &mut String,
    reuse: &mut Reuse,
) {
    entry_point_into(
        ctx,
        needs,
        index,
        |needs, out| {
            decl::push_entry_signature(ctx, needs, index, has_input, out);
            out.push_str("\n{\n");
            decl::push_entry_prologue(ctx, needs, index, out);
        },
        decl::push_entry_return,
        out,
        reuse,
    );
}

/// How an entry point returns: [`decl::push_entry_return`] (tests pass
/// their own). It appends the statements to the given string.
type EntryReturn = fn(&Ctx<'_>, usize, Option<&str>, &mut String);

/// The entry function of entry point `index` with the module part's
/// pieces given.
#[cfg(test)]
fn entry_point_with(
    ctx: &Ctx<'_>,
    needs: &mut Needs,
    index: usize,
    signature: &str,
    prologue: &str,
    entry_return: EntryReturn,
) -> String {
    let mut out = String::new();
    entry_point_into(
        ctx,
        needs,
        index,
        |_, out| {
            out.push_str(signature);
            out.push_str("\n{\n");
            out.push_str(prologue);
        },
        entry_return,
        &mut out,
        &mut Reuse::default(),
    );
    out
}

/// [`write_entry_point_into`] with the module part's pieces given: `head`
/// appends the signature, the opening brace and the prologue.
fn entry_point_into(
    ctx: &Ctx<'_>,
    needs: &mut Needs,
    index: usize,
    head: impl FnOnce(&mut Needs, &mut String),
    entry_return: EntryReturn,
    out: &mut String,
    reuse: &mut Reuse,
) {
    let Some(ep) = ctx.module.entry_points.get(index) else {
        return;
    };
    let info = ctx.info.get_entry_point(index);
    let body = Body::Entry(index, &ep.function, info);
    let mut w = FunctionWriter::reusing(ctx, needs, body, std::mem::take(reuse));
    w.entry_return = Some(entry_return);
    w.st.out = std::mem::take(out);
    w.st.mark_function(ctx.parsed, &ep.name);
    head(w.needs, &mut w.st.out);
    w.body(&ep.function.body);
    *out = w.st.finish(reuse);
}

/// A module-scope constant expression (`module.global_expressions`) as an
/// HLSL initializer: for constants and global initializers
/// (`static const T name = <this>;`). Arrays and structs are initializer
/// lists (`{1.0f, 2.0f}`), which need no helper function declared before
/// the constant.
pub fn const_expression(ctx: &Ctx<'_>, needs: &mut Needs, h: Expr) -> String {
    let w = FunctionWriter::reusing(ctx, needs, Body::Module, Reuse::default());
    crate::back::text::const_text(w, h)
}

/// Prints one function body (or one constant expression): the shared
/// [`FunctionState`] and statement skeleton ([`TextWriter`]) with HLSL's
/// syntax.
struct FunctionWriter<'a, 'c> {
    ctx: &'a Ctx<'c>,
    needs: &'a mut Needs,
    st: FunctionState<'a>,
    /// For an entry point: how its `return`s are written.
    entry_return: Option<EntryReturn>,
}

impl<'a, 'c> FunctionWriter<'a, 'c> {
    /// A writer of `body`, with the buffers another writer left.
    fn reusing(ctx: &'a Ctx<'c>, needs: &'a mut Needs, body: Body<'a>, reuse: Reuse) -> Self {
        FunctionWriter {
            ctx,
            needs,
            st: FunctionState::new(ctx, body, reuse),
            entry_return: None,
        }
    }

    // ---- signature and locals -------------------------------------------

    /// The signature of `func`: pointer parameters become `inout`.
    fn signature(&mut self, handle: Handle<naga::Function>, func: &naga::Function) {
        let ctx = self.ctx;
        let ret = match func.result {
            Some(ref r) => types::type_name(ctx, r.ty),
            None => "void",
        };
        let span = ctx.module.functions.get_span(handle);
        let name = ctx.name(NameKey::Function(handle));
        super::push_parts(&mut self.st.out, &[ret, " ", name, "("]);
        for (i, arg) in func.arguments.iter().enumerate() {
            let name = ctx.name(NameKey::FunctionArgument(handle, i as u32));
            let (inout, ty) = match ctx.module.types[arg.ty].inner {
                naga::TypeInner::Pointer { base, space } => {
                    if is_buffer_space(space) {
                        self.error_at(
                            text!(
                                "parameter `{name}`: a pointer into a buffer cannot be an HLSL function parameter (HLSL reaches storage buffers by byte offset); pass the value, or inline the function"
                            ),
                            span,
                        );
                    }
                    ("inout ", base)
                }
                _ => ("", arg.ty),
            };
            let separator = if i > 0 { ", " } else { "" };
            let parts = [separator, inout, types::type_name(ctx, ty), " ", name];
            super::push_parts(&mut self.st.out, &parts);
        }
        self.st.out.push(')');
    }

    /// Whether `barrier` reaches device memory (storage or textures) and
    /// workgroup memory; a subgroup barrier is an error.
    fn barrier_scope(&mut self, barrier: naga::Barrier) -> (bool, bool) {
        if barrier.contains(naga::Barrier::SUB_GROUP) {
            self.error_at(
                "subgroup operations are not supported by --target hlsl yet",
                self.st.stmt_span,
            );
        }
        let device = barrier.intersects(naga::Barrier::STORAGE | naga::Barrier::TEXTURE);
        (device, barrier.contains(naga::Barrier::WORK_GROUP))
    }

    /// An error at `at` when atomics on `scalar` (buffer values or
    /// texels) need a higher shader model than the one written for: 64-bit
    /// atomics need 6.6 (`decl::model` chooses it when no model is given).
    fn require_atomic_model(&mut self, scalar: naga::Scalar, at: Expr) {
        if scalar.width == 8 && self.ctx.shader_model() < super::ShaderModel::Sm6_6 {
            self.error(
                "64-bit atomics need shader model 6.6: add --shader-model 6.6",
                at,
            );
        }
    }

    /// The member names `old_value` and `exchanged` of the result struct
    /// of a compare-exchange.
    fn compare_result_members(&self, result: Option<Expr>) -> (&'a str, &'a str) {
        match result.and_then(|r| self.st.ty_handle(r)) {
            Some(st) => (
                self.ctx.name(NameKey::StructMember(st, 0)),
                self.ctx.name(NameKey::StructMember(st, 1)),
            ),
            None => ("old_value", "exchanged"),
        }
    }
}

impl<'a> TextWriter<'a> for FunctionWriter<'a, '_> {
    /// HLSL and Slang read buffer values through helpers that take a byte
    /// offset, never the storage itself by value: nothing is rebuilt in
    /// place. (Rebuilding in place measured no faster for Slang on
    /// lavapipe, where the time goes to the large locals themselves;
    /// docs/fuzzing.md.)
    type Rebuild = ();

    fn push_itself(&mut self, out: &mut String, h: Handle<naga::Expression>) -> Prec {
        self.push_expr_itself(out, h)
    }

    const INFIX: InfixRules = InfixRules {
        vector_comparisons: true,
        matrix_star: false,
        float_modulo: true,
    };

    /// The spelling of the type of `h`.
    fn type_of(&mut self, h: Handle<naga::Expression>) -> Cow<'a, str> {
        match self.st.ty_handle(h) {
            Some(t) => Cow::Borrowed(types::type_name(self.ctx, t)),
            None => types::inner_name(self.ctx, self.st.ty(h)),
        }
    }

    /// [`Self::push_value`] for the base of an access. DXC cannot index,
    /// nor take a member of, the cast that spells a zero-valued array or
    /// struct (`((T)0)[i]`: "cannot compile this l-value expression yet"),
    /// wherever it appears, so such a zero value is read from a helper's
    /// result instead: `_s_zero_T()[i]`.
    fn push_access_base(&mut self, out: &mut String, base: Handle<naga::Expression>) -> Prec {
        if let naga::Expression::ZeroValue(ty) = self.st.exprs[base] {
            let aggregate = matches!(
                self.ctx.module.types[ty].inner,
                naga::TypeInner::Array { .. } | naga::TypeInner::Struct { .. }
            );
            if aggregate && !self.st.baked.contains_key(&base) {
                out.push_str(&helpers::zero_value(self.ctx, self.needs, ty));
                out.push_str("()");
                return Prec::Call;
            }
        }
        self.push_value(out, base)
    }

    type IndexPlace = crate::back::hlsl::buffers::Place<'a>;

    const KNOWN_INDEX_SUFFIX: &'static str = "u";

    fn push_index_value(
        &mut self,
        out: &mut String,
        index: Handle<naga::Expression>,
        enclosed: bool,
    ) {
        let start = out.len();
        let prec = self.push_bare(out, index);
        if !enclosed {
            // Written bare, the index must still be an operand: a byte
            // offset scales it (`Index::Dynamic`).
            let written = out.split_off(start);
            expr::push_as_operand(out, &written, prec);
        }
    }

    fn push_runtime_length(
        &mut self,
        out: &mut String,
        place: &crate::back::hlsl::buffers::Place<'a>,
    ) {
        self.ctx.plan.push_array_length(out, self.needs, place);
    }

    fn is_reusable(prec: Prec) -> bool {
        prec == Prec::Word || prec.is_number()
    }

    fn push_call_argument(&mut self, out: &mut String, a: Handle<naga::Expression>) {
        if !is_pointer(self.st.ty(a)) {
            self.push_bare(out, a);
            return;
        }
        match self.place(a) {
            Ptr::Text { text, .. } => out.push_str(&text),
            Ptr::Buffer(_) => {
                self.error(
                    "a pointer into a buffer cannot be passed to an HLSL function (HLSL reaches storage buffers by byte offset); pass the value, or inline the function",
                    a,
                );
                out.push_str("_s_invalid");
            }
        }
    }

    /// Declared with its initializer, zero-initialized without one (WGSL
    /// semantics).
    fn local(&mut self, key: NameKey, var: &naga::LocalVariable) {
        let ctx = self.ctx;
        let name = ctx.name(key);
        let ty = types::type_name(ctx, var.ty);
        let init = match var.init {
            Some(init) => self.arg_with(init).0,
            None => types::zero_value(ctx, var.ty),
        };
        self.st.line_parts(&[ty, " ", name, " = ", &init, ";"]);
    }

    fn diagnostic(&mut self, message: String, span: naga::Span) {
        self.needs
            .error(super::error_at(message, span, "not expressible in HLSL"));
    }

    fn unsupported(&self, what: Unsupported) -> &'static str {
        match what {
            Unsupported::RayTracing => {
                "ray queries and ray tracing are not supported by --target hlsl yet"
            }
            Unsupported::Subgroup => "subgroup operations are not supported by --target hlsl yet",
            Unsupported::Cooperative => "cooperative matrices are not supported by --target hlsl",
            Unsupported::Result => "this result is not supported by --target hlsl yet",
        }
    }

    fn push_loaded(&mut self, out: &mut String, pointer: Handle<naga::Expression>) -> Prec {
        self.push_load(out, pointer)
    }

    fn control_barrier(&mut self, barrier: naga::Barrier) {
        let call = match self.barrier_scope(barrier) {
            (true, true) => "AllMemoryBarrierWithGroupSync();",
            (true, false) => "DeviceMemoryBarrierWithGroupSync();",
            (false, _) => "GroupMemoryBarrierWithGroupSync();",
        };
        self.st.line(call);
    }

    fn memory_barrier(&mut self, barrier: naga::Barrier) {
        match self.barrier_scope(barrier) {
            (true, true) => self.st.line("AllMemoryBarrier();"),
            (true, false) => self.st.line("DeviceMemoryBarrier();"),
            (false, true) => self.st.line("GroupMemoryBarrier();"),
            (false, false) => {}
        }
    }

    /// `textureStore` (`fun` `None`) or `textureAtomic*` of `value` at
    /// texel `at` of a storage texture, its operands printed first (image,
    /// coordinate, layer, value). naga's `ImageAtomic` has no result. The
    /// errors here (a texture of a format without atomics, a
    /// compare-exchange) are rejected by naga's validation of WGSL first,
    /// so they carry no span.
    fn texel_statement(&mut self, at: Texel, value: Expr, fun: Option<&naga::AtomicFunction>) {
        let (image, image_prec) = self.expr_text(at.image);
        let (dim, _, class) = self.image_kind(at.image);
        let coordinate = self.arg_with(at.coordinate).0;
        let array_index = at.array_index.map(|a| self.arg_with(a).0);
        let (value, value_prec) = self.arg_with(value);
        let layer = array_index.as_deref();
        let texel = image::storage_texel((&image, image_prec), dim, &coordinate, layer);
        let scalar = match class {
            naga::ImageClass::Storage { format, .. } => types::storage_scalar_texel(format),
            _ => None,
        };
        let Some(fun) = fun else {
            return match scalar {
                Some(_) => {
                    let value = math::paren(&value, value_prec);
                    self.st.line_fmt(format_args!("{texel} = {value}.x;"))
                }
                None => self.st.line_fmt(format_args!("{texel} = {value};")),
            };
        };
        let Some(scalar) = scalar else {
            return self.needs.error(super::error_at(
                "texture atomics need an r32uint, r32sint or r64uint storage texture",
                naga::Span::UNDEFINED,
                "atomic on this texture",
            ));
        };
        self.require_atomic_model(scalar, at.image);
        let (op, negate) = crate::back::common::atomic_op(fun);
        match *fun {
            naga::AtomicFunction::Exchange { compare: None } => self.st.line_fmt(format_args!(
                "{{ {} _s_old; InterlockedExchange({texel}, {value}, _s_old); }}",
                types::scalar(scalar)
            )),
            naga::AtomicFunction::Exchange { compare: Some(_) } => {
                self.needs.error(super::error_at(
                    "textureAtomicCompareExchange is not supported",
                    naga::Span::UNDEFINED,
                    "compare-exchange on a texture",
                ));
            }
            // WGSL's subtract adds the negated value.
            _ if negate => {
                let value = math::paren(&value, value_prec);
                self.st
                    .line_fmt(format_args!("Interlocked{op}({texel}, 0 - {value});"));
            }
            _ => self
                .st
                .line_fmt(format_args!("Interlocked{op}({texel}, {value});")),
        }
    }

    fn r#return(&mut self, value: Option<Handle<naga::Expression>>) {
        if let (Body::Entry(index, ..), Some(entry_return)) = (self.st.body, self.entry_return) {
            let name = value.map(|v| self.named_value(v));
            // The statements go through a reused buffer.
            let mut text = self.st.take_buf();
            entry_return(self.ctx, index, name.as_deref(), &mut text);
            self.st.lines(&text);
            self.st.give_buf(text);
            return;
        }
        match value {
            Some(v) => self.line_with("return ", v, ";"),
            None => self.st.line("return;"),
        }
    }

    fn store(&mut self, pointer: Handle<naga::Expression>, value: Handle<naga::Expression>) {
        if self.text_root(pointer).is_some() {
            // The lvalue, printed into a reused string.
            let mut lvalue = self.st.take_buf();
            self.push_place_text(&mut lvalue, pointer);
            self.assign(&lvalue, value);
            self.st.give_buf(lvalue);
            return;
        }
        match self.place(pointer) {
            Ptr::Text { text, .. } => self.assign(&text, value),
            Ptr::Buffer(place) => {
                let Some(ty) = self.pointee_handle(pointer) else {
                    self.error("internal: a store into a buffer without a type", pointer);
                    return;
                };
                // `Plan::store` may evaluate the value several times.
                let v = self.named_value(value);
                let text = self.ctx.plan.store(self.ctx, self.needs, &place, ty, &v);
                self.st.lines(&text);
            }
        }
    }

    fn atomic(&mut self, a: Atomic<'_>) {
        let (pointer, fun, value, result) = (a.pointer, a.fun, a.value, a.result);
        let scalar = match *self.st.pointee(pointer).1 {
            naga::TypeInner::Atomic(s) => Some(s),
            ref other => other.scalar(),
        };
        if let Some(s) = scalar {
            self.require_atomic_model(s, pointer);
        }
        let ptr = self.place(pointer);
        let (v, v_prec) = self.arg_with(value);
        let compare = match *fun {
            naga::AtomicFunction::Exchange { compare: Some(c) } => Some(self.named_value(c)),
            _ => None,
        };
        // Declare the result first: both forms below store into it.
        let result_name = result.map(|r| self.declare_uninit(r));
        match ptr {
            Ptr::Buffer(place) => {
                let members = self.compare_result_members(result);
                let into = result_name.as_deref().map(|r| (r, members));
                let plan = &self.ctx.plan;
                let text = plan.atomic(self.needs, &place, fun, &v, compare.as_deref(), into);
                self.st.lines(&text);
            }
            Ptr::Text { text, root } => {
                if root != Root::Global {
                    self.error(
                        "HLSL atomics need the workgroup variable itself: an atomic through a pointer parameter is not expressible (HLSL copies `inout` parameters); inline the function",
                        pointer,
                    );
                }
                let value_ty = self.type_of(value);
                let (op, negate) = crate::back::common::atomic_op(fun);
                let f = ["Interlocked", op].concat();
                let v = if negate {
                    let mut negated = String::from("-");
                    expr::push_as_operand(&mut negated, &v, v_prec);
                    negated
                } else {
                    v
                };
                match (compare, result_name) {
                    (Some(c), Some(r)) => {
                        let (old, exchanged) = self.compare_result_members(result);
                        self.st
                            .line_fmt(format_args!("{f}({text}, {c}, {v}, {r}.{old});"));
                        self.st
                            .line_fmt(format_args!("{r}.{exchanged} = {r}.{old} == {c};"));
                    }
                    (Some(c), None) => self
                        .st
                        .line_fmt(format_args!("InterlockedCompareStore({text}, {c}, {v});")),
                    (None, Some(r)) => self.st.line_fmt(format_args!("{f}({text}, {v}, {r});")),
                    (None, None) if op == "Exchange" => {
                        let old = self.st.temp("old");
                        self.st.line_fmt(format_args!("{value_ty} {old};"));
                        self.st.line_fmt(format_args!("{f}({text}, {v}, {old});"));
                    }
                    (None, None) => self.st.line_fmt(format_args!("{f}({text}, {v});")),
                }
            }
        }
    }

    fn state(&self) -> &FunctionState<'a> {
        &self.st
    }

    fn state_mut(&mut self) -> &mut FunctionState<'a> {
        &mut self.st
    }
}

#[cfg(test)]
mod tests;
