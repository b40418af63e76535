//! Function bodies: naga expressions and statements printed as GLSL.
//!
//! INTERFACE (owned by the function part; `decl` calls it).
//!
//! One [`FunctionWriter`] prints one function (or entry point `main`, or one
//! module-scope constant expression). Its parts:
//!
//! - this file: the writer, signatures, local variables and statements;
//! - `expr`: expressions, pointers (lvalue texts with their buffer
//!   [`Repr`]), literals, casts and operators with WGSL's defined behaviours;
//! - `image`: sampling, loads, stores and queries of textures;
//! - `math`: the builtin functions (`MathFunction`) and their polyfills.
//!
//! Expression baking: an expression is printed inline where it is used,
//! unless WGSL names it (`let`), it is used more than once, or it must be
//! evaluated at its `Emit` point (loads, image reads, derivatives, call and
//! atomic results). A baked expression becomes a local `T _eN = ...;`
//! (`T name_eN = ...;` for a WGSL `let`). Pointers, textures and samplers are
//! never baked: GLSL has no pointers, so a pointer is re-printed as its
//! lvalue text at every use (its indices are side-effect free: any load or
//! call in them was baked before).

mod expr;
mod image;
mod math;

use super::buffers::Repr;
use super::{decl, types, Ctx, Needs};
use naga::proc::NameKey;
use naga::{Handle, Statement};
use std::borrow::Cow;
use std::fmt::Write as _;

/// The complete definition of function `handle` (signature and body).
/// Entry points are written by [`write_entry_main`].
pub fn write_function(ctx: &Ctx<'_>, needs: &mut Needs, handle: Handle<naga::Function>) -> String {
    let func = &ctx.module.functions[handle];
    let info = &ctx.info[handle];
    let mut w = FunctionWriter::new(ctx, needs, Body::Function(handle, func, info));
    w.signature(handle, func);
    w.out.push_str(" {\n");
    w.indent = 1;
    w.locals();
    w.block(&func.body);
    w.out.push_str("}\n");
    w.out
}

/// `void main() { ... }` for entry point `index`: the prologue from
/// `decl::entry_prologue`, the body, and every `return` replaced by
/// `decl::entry_return` followed by `return;`.
pub fn write_entry_main(ctx: &Ctx<'_>, needs: &mut Needs, index: usize) -> String {
    let Some(ep) = ctx.module.entry_points.get(index) else {
        return String::new();
    };
    let info = ctx.info.get_entry_point(index);
    let prologue = decl::entry_prologue(ctx, needs, index);
    let mut w = FunctionWriter::new(ctx, needs, Body::Entry(index, &ep.function, info));
    w.out.push_str("void main() {\n");
    w.out.push_str(&prologue);
    w.indent = 1;
    w.locals();
    w.block(&ep.function.body);
    w.out.push_str("}\n");
    w.out
}

/// A module-scope constant expression (`module.global_expressions`) as a
/// GLSL constant expression: for constants, override defaults and global
/// initializers.
pub fn const_expression(
    ctx: &Ctx<'_>,
    needs: &mut Needs,
    expr: Handle<naga::Expression>,
) -> String {
    let mut w = FunctionWriter::new(ctx, needs, Body::Module);
    let text = w.expr(expr);
    expr::unwrap_parens(&text).to_string()
}

/// What the expressions being printed belong to.
#[derive(Clone, Copy)]
enum Body<'a> {
    /// A function and its analysis.
    Function(
        Handle<naga::Function>,
        &'a naga::Function,
        &'a naga::valid::FunctionInfo,
    ),
    /// Entry point `index`, written as `main`.
    Entry(usize, &'a naga::Function, &'a naga::valid::FunctionInfo),
    /// `module.global_expressions` (constant expressions only).
    Module,
}

/// Prints one function body (or one constant expression).
struct FunctionWriter<'a, 'c> {
    ctx: &'a Ctx<'c>,
    needs: &'a mut Needs,
    body: Body<'a>,
    exprs: &'a naga::Arena<naga::Expression>,
    out: String,
    /// Current indentation, in levels of four spaces.
    indent: usize,
    /// Names of baked expressions.
    /// (The names themselves are kept one after another in `baked_text`;
    /// the map holds each name's byte range there, so that baking an
    /// expression allocates nothing of its own.)
    baked: naga::FastHashMap<Handle<naga::Expression>, (u32, u32)>,
    baked_text: String,
    /// Counter for fresh temporaries (`_s_tN`) and loop gates.
    temps: usize,
    /// Baked expressions declared ahead (before a loop whose continuing
    /// block reads them): their `Emit` assigns instead of declaring.
    declared_ahead: naga::FastHashSet<Handle<naga::Expression>>,
    /// Span of the statement being written (for diagnostics without an
    /// expression).
    stmt_span: naga::Span,
    /// Reusable buffers for the texts of one statement's expressions and
    /// lvalues (see [`Self::take_scratch`]).
    scratch: Vec<String>,
}

impl<'a, 'c> FunctionWriter<'a, 'c> {
    fn new(ctx: &'a Ctx<'c>, needs: &'a mut Needs, body: Body<'a>) -> Self {
        let exprs = match body {
            Body::Function(_, f, _) | Body::Entry(_, f, _) => &f.expressions,
            Body::Module => &ctx.module.global_expressions,
        };
        // A guess at the body's size, so that the text rarely regrows.
        let capacity = match body {
            Body::Function(..) | Body::Entry(..) => 256 + 32 * exprs.len(),
            Body::Module => 0,
        };
        FunctionWriter {
            ctx,
            needs,
            body,
            exprs,
            out: String::with_capacity(capacity),
            indent: 0,
            // Room for the names of about a third of the expressions, so
            // that the map rarely regrows.
            baked: naga::FastHashMap::with_capacity_and_hasher(capacity / 96, Default::default()),
            baked_text: String::with_capacity(capacity / 16),
            temps: 0,
            declared_ahead: Default::default(),
            stmt_span: naga::Span::UNDEFINED,
            scratch: Vec::new(),
        }
    }

    fn function(&self) -> Option<(&'a naga::Function, &'a naga::valid::FunctionInfo)> {
        match self.body {
            Body::Function(_, f, i) | Body::Entry(_, f, i) => Some((f, i)),
            Body::Module => None,
        }
    }

    // ---- output helpers -------------------------------------------------

    fn indent_text(&self) -> String {
        "    ".repeat(self.indent)
    }

    fn line(&mut self, text: &str) {
        self.push_indent();
        self.out.push_str(text);
        self.out.push('\n');
    }

    /// [`Self::line`] for formatted text, written straight into the output
    /// (no temporary `String`).
    fn line_fmt(&mut self, args: std::fmt::Arguments<'_>) {
        self.push_indent();
        let _ = self.out.write_fmt(args);
        self.out.push('\n');
    }

    /// [`Self::line`] for text in parts (for the most common statements:
    /// cheaper than formatting).
    fn line_parts(&mut self, parts: &[&str]) {
        write_line(&mut self.out, self.indent, parts);
    }

    /// The name of baked expression `h`, if it is baked.
    pub(super) fn baked_name(&self, h: Handle<naga::Expression>) -> Option<&str> {
        baked_in(&self.baked, &self.baked_text, h)
    }

    /// Store `name` as the name of baked expression `h`.
    fn set_baked(&mut self, h: Handle<naga::Expression>, name: &str) {
        let start = self.baked_text.len();
        self.baked_text.push_str(name);
        self.baked
            .insert(h, byte_range(start, self.baked_text.len()));
    }

    /// An empty buffer to print an expression into, reusing the allocation
    /// of one handed back with [`Self::give_back_scratch`] (a new one when
    /// none is free).
    fn take_scratch(&mut self) -> String {
        let mut text = self.scratch.pop().unwrap_or_default();
        text.clear();
        text
    }

    fn give_back_scratch(&mut self, text: String) {
        self.scratch.push(text);
    }

    fn push_indent(&mut self) {
        for _ in 0..self.indent {
            self.out.push_str("    ");
        }
    }

    /// A fresh name for a temporary.
    fn temp(&mut self, what: &str) -> String {
        self.temps += 1;
        format!("_s_{what}{}", self.temps)
    }

    /// An error diagnostic at `span` (the current statement when undefined).
    fn error_at(&mut self, message: impl Into<String>, span: naga::Span) {
        let span = if span.is_defined() {
            span
        } else {
            self.stmt_span
        };
        self.needs.errors.push(super::error_at(
            message,
            span,
            format!("not expressible in {}", self.ctx.dialect()),
        ));
    }

    /// An error diagnostic at expression `h`.
    fn error(&mut self, message: impl Into<String>, h: Handle<naga::Expression>) {
        let span = self.exprs.get_span(h);
        self.error_at(message, span);
    }

    // ---- signature and locals -------------------------------------------

    fn signature(&mut self, handle: Handle<naga::Function>, func: &naga::Function) {
        let ret = match func.result {
            Some(ref r) => types::type_name(self.ctx, self.needs, r.ty),
            None => "void",
        };
        let ctx = self.ctx;
        self.out.push_str(ret);
        self.out.push(' ');
        self.out.push_str(ctx.name(NameKey::Function(handle)));
        self.out.push('(');
        for (i, arg) in func.arguments.iter().enumerate() {
            let name = ctx.name(NameKey::FunctionArgument(handle, i as u32));
            let span = ctx.module.functions.get_span(handle);
            let param = self.parameter(arg.ty, name, span);
            if i > 0 {
                self.out.push_str(", ");
            }
            self.out.push_str(&param);
            self.out.push(' ');
            self.out.push_str(name);
        }
        self.out.push(')');
    }

    /// One parameter declaration up to its name (`T`, `inout T`, ...):
    /// pointers become `inout`, textures and samplers are parameters only
    /// in Vulkan GLSL.
    fn parameter(&mut self, ty: Handle<naga::Type>, name: &str, span: naga::Span) -> Cow<'a, str> {
        use naga::TypeInner as Ti;
        let ctx = self.ctx;
        match ctx.module.types[ty].inner {
            Ti::Pointer { base, space } => {
                if matches!(
                    space,
                    naga::AddressSpace::Uniform
                        | naga::AddressSpace::Storage { .. }
                        | naga::AddressSpace::Immediate
                ) {
                    self.error_at(
                        "a pointer into a buffer cannot be a GLSL function parameter",
                        span,
                    );
                }
                ["inout ", types::type_name(ctx, self.needs, base)]
                    .concat()
                    .into()
            }
            Ti::Image {
                dim,
                arrayed,
                class,
            } => {
                if !ctx.dialect().is_vulkan() {
                    self.error_at(
                        format!(
                            "texture parameter `{name}`: OpenGL GLSL combines textures with samplers at module scope, so a texture cannot be passed to a function; inline the function or use --glsl vulkan450"
                        ),
                        span,
                    );
                }
                match class {
                    naga::ImageClass::Storage { format, access } => {
                        let (t, _) = types::image_type(dim, arrayed, format);
                        let q = if !access.contains(naga::StorageAccess::LOAD) {
                            "writeonly "
                        } else if !access.contains(naga::StorageAccess::STORE) {
                            "readonly "
                        } else {
                            ""
                        };
                        [q, &t].concat().into()
                    }
                    _ => types::texture_type(dim, arrayed, class).into(),
                }
            }
            Ti::Sampler { comparison } => {
                if !ctx.dialect().is_vulkan() {
                    self.error_at(
                        format!(
                            "sampler parameter `{name}`: OpenGL GLSL has no separate samplers; inline the function or use --glsl vulkan450"
                        ),
                        span,
                    );
                }
                Cow::Borrowed(if comparison {
                    "samplerShadow"
                } else {
                    "sampler"
                })
            }
            _ => Cow::Borrowed(types::type_name(ctx, self.needs, ty)),
        }
    }

    /// Local variables, declared at the start of the body with their
    /// initializer, zero-initialized without one (WGSL semantics).
    fn locals(&mut self) {
        let Some((func, _)) = self.function() else {
            return;
        };
        for (h, var) in func.local_variables.iter() {
            let key = match self.body {
                Body::Function(f, ..) => NameKey::FunctionLocal(f, h),
                Body::Entry(i, ..) => NameKey::EntryPointLocal(i as u16, h),
                Body::Module => return,
            };
            let ctx = self.ctx;
            let name = ctx.name(key);
            let ty = types::type_name(ctx, self.needs, var.ty);
            let mut init = self.take_scratch();
            match var.init {
                Some(h) => {
                    self.expr_into(h, &mut init);
                    expr::unwrap_parens_from(&mut init, 0);
                }
                None => types::zero_value_into(ctx, self.needs, var.ty, &mut init),
            }
            self.line_parts(&[ty, " ", name, " = ", &init, ";"]);
            self.give_back_scratch(init);
        }
    }

    // ---- statements -----------------------------------------------------

    fn block(&mut self, block: &naga::Block) {
        for (stmt, span) in block.span_iter() {
            self.stmt_span = *span;
            self.statement(stmt);
        }
    }

    /// Whether `block` always leaves by its last statement (so a `case`
    /// needs no `break`).
    fn ends_in_jump(block: &naga::Block) -> bool {
        matches!(
            block.last(),
            Some(
                Statement::Break | Statement::Continue | Statement::Return { .. } | Statement::Kill
            )
        )
    }

    fn statement(&mut self, stmt: &Statement) {
        match *stmt {
            Statement::Emit(ref range) => {
                for h in range.clone() {
                    if self.declared_ahead.remove(&h) {
                        let mut value = self.take_scratch();
                        self.write_expr_into(h, &mut value);
                        let name = baked_in(&self.baked, &self.baked_text, h);
                        let name = name.unwrap_or_default();
                        write_line(
                            &mut self.out,
                            self.indent,
                            &[name, " = ", expr::unwrap_parens(&value), ";"],
                        );
                        self.give_back_scratch(value);
                    } else if self.should_bake(h) {
                        self.bake(h);
                    }
                }
            }
            Statement::Block(ref b) => {
                self.line("{");
                self.indent += 1;
                self.block(b);
                self.indent -= 1;
                self.line("}");
            }
            Statement::If {
                condition,
                ref accept,
                ref reject,
            } => {
                let mut c = self.take_scratch();
                self.expr_into(condition, &mut c);
                self.line_parts(&["if (", expr::unwrap_parens(&c), ") {"]);
                self.give_back_scratch(c);
                self.indent += 1;
                self.block(accept);
                self.indent -= 1;
                if !reject.is_empty() {
                    self.line("} else {");
                    self.indent += 1;
                    self.block(reject);
                    self.indent -= 1;
                }
                self.line("}");
            }
            Statement::Switch {
                selector,
                ref cases,
            } => self.switch(selector, cases),
            Statement::Loop {
                ref body,
                ref continuing,
                break_if,
            } => self.r#loop(body, continuing, break_if),
            Statement::Break => self.line("break;"),
            Statement::Continue => self.line("continue;"),
            Statement::Return { value } => self.r#return(value),
            // WGSL `discard` demotes the invocation to a helper; GLSL's
            // `discard` ends it. Both stop every later side effect of the
            // invocation, which is what WGSL observably guarantees; only
            // derivatives in the rest of the quad can differ.
            Statement::Kill => self.line("discard;"),
            Statement::ControlBarrier(barrier) => {
                self.memory_barriers(barrier);
                self.line("barrier();");
            }
            Statement::MemoryBarrier(barrier) => self.memory_barriers(barrier),
            Statement::Store { pointer, value } => self.store(pointer, value),
            Statement::ImageStore {
                image,
                coordinate,
                array_index,
                value,
            } => self.image_store(image, coordinate, array_index, value),
            Statement::Atomic {
                pointer,
                ref fun,
                value,
                result,
            } => self.atomic(pointer, fun, value, result),
            Statement::ImageAtomic {
                image,
                coordinate,
                array_index,
                ref fun,
                value,
            } => self.image_atomic(image, coordinate, array_index, fun, value),
            Statement::WorkGroupUniformLoad { pointer, result } => {
                self.line("memoryBarrierShared();");
                self.line("barrier();");
                let v = self.load(pointer);
                let v = expr::unwrap_parens(&v).to_string();
                self.declare_result(result, &v);
                self.line("memoryBarrierShared();");
                self.line("barrier();");
            }
            Statement::Call {
                function,
                ref arguments,
                result,
            } => self.call(function, arguments, result),
            Statement::RayQuery { .. } | Statement::RayPipelineFunction(..) => self.error_at(
                "ray tracing is not supported by the GLSL output",
                self.stmt_span,
            ),
            Statement::SubgroupBallot { result, .. }
            | Statement::SubgroupGather { result, .. }
            | Statement::SubgroupCollectiveOperation { result, .. } => {
                self.error_at(
                    "subgroup operations are not supported by the GLSL output",
                    self.stmt_span,
                );
                // Keep later uses printable.
                self.set_baked(result, "_s_unsupported");
            }
            Statement::CooperativeStore { .. } => self.error_at(
                "cooperative matrices are not supported by the GLSL output",
                self.stmt_span,
            ),
        }
    }

    fn switch(&mut self, selector: Handle<naga::Expression>, cases: &[naga::SwitchCase]) {
        let sel = self.expr(selector);
        self.line_fmt(format_args!("switch ({}) {{", expr::unwrap_parens(&sel)));
        self.indent += 1;
        for case in cases {
            let label = match case.value {
                naga::SwitchValue::I32(v) => format!("case {}:", expr::i32_text(v)),
                naga::SwitchValue::U32(v) => format!("case {v}u:"),
                naga::SwitchValue::Default => "default:".to_string(),
            };
            self.line(&label);
            if case.fall_through && case.body.is_empty() {
                continue;
            }
            self.line("{");
            self.indent += 1;
            self.block(&case.body);
            self.indent -= 1;
            self.line("}");
            if !case.fall_through && !Self::ends_in_jump(&case.body) {
                self.line("break;");
            }
        }
        self.indent -= 1;
        self.line("}");
    }

    /// `loop { body continuing { ... break if c; } }` as
    /// `bool gate = true; while (true) { if (!gate) { continuing; if (c) break; } gate = false; body }`,
    /// so that `continue` (also from inside a `switch`) runs the continuing
    /// block before the next iteration.
    fn r#loop(
        &mut self,
        body: &naga::Block,
        continuing: &naga::Block,
        break_if: Option<Handle<naga::Expression>>,
    ) {
        if continuing.is_empty() && break_if.is_none() {
            self.line("while (true) {");
            self.indent += 1;
            self.block(body);
            self.indent -= 1;
            self.line("}");
            return;
        }
        // Values of the body that the continuing block reads.
        let exprs = self.exprs;
        let carried = crate::back::scope::loop_carried(exprs, body, continuing, break_if, |h| {
            expr::is_value_type(self.ty(h))
        });
        for h in carried {
            let name = self.bake_name(h);
            let ty = self.type_of(h);
            let name_text = self.baked_text.get(name.0 as usize..name.1 as usize);
            write_line(
                &mut self.out,
                self.indent,
                &[&ty, " ", name_text.unwrap_or_default(), ";"],
            );
            self.baked.insert(h, name);
            self.declared_ahead.insert(h);
        }
        let gate = self.temp("loop_init");
        self.line_fmt(format_args!("bool {gate} = true;"));
        self.line("while (true) {");
        self.indent += 1;
        self.line_fmt(format_args!("if (!{gate}) {{"));
        self.indent += 1;
        self.block(continuing);
        if let Some(c) = break_if {
            let c = self.expr(c);
            self.line_fmt(format_args!("if ({}) {{", expr::unwrap_parens(&c)));
            self.line("    break;");
            self.line("}");
        }
        self.indent -= 1;
        self.line("}");
        self.line_fmt(format_args!("{gate} = false;"));
        self.block(body);
        self.indent -= 1;
        self.line("}");
    }

    fn r#return(&mut self, value: Option<Handle<naga::Expression>>) {
        match (self.body, value) {
            (Body::Entry(index, ..), Some(v)) => {
                let name = self.named_value(v);
                let indent = self.indent_text();
                let text = decl::entry_return(self.ctx, self.needs, index, &name, &indent);
                self.out.push_str(&text);
                self.line("return;");
            }
            (_, Some(v)) => {
                let mut t = self.take_scratch();
                self.expr_into(v, &mut t);
                self.line_parts(&["return ", expr::unwrap_parens(&t), ";"]);
                self.give_back_scratch(t);
            }
            (_, None) => self.line("return;"),
        }
    }

    fn memory_barriers(&mut self, barrier: naga::Barrier) {
        if barrier.contains(naga::Barrier::STORAGE) {
            self.line("memoryBarrierBuffer();");
        }
        if barrier.contains(naga::Barrier::WORK_GROUP) {
            self.line("memoryBarrierShared();");
        }
        if barrier.contains(naga::Barrier::TEXTURE) {
            self.line("memoryBarrierImage();");
        }
        if barrier.contains(naga::Barrier::SUB_GROUP) {
            self.needs.extension("GL_KHR_shader_subgroup_basic");
            self.line("subgroupMemoryBarrier();");
        }
    }

    fn store(&mut self, pointer: Handle<naga::Expression>, value: Handle<naga::Expression>) {
        let mut place = self.take_scratch();
        let repr = self.place_into(pointer, &mut place);
        if repr == Repr::Plain {
            let mut v = self.take_scratch();
            self.expr_into(value, &mut v);
            self.line_parts(&[&place, " = ", expr::unwrap_parens(&v), ";"]);
            self.give_back_scratch(v);
            self.give_back_scratch(place);
            return;
        }
        let Some(ty) = self.pointee(pointer).0 else {
            self.error(
                "internal: a store through a split buffer pointer without a type",
                pointer,
            );
            self.give_back_scratch(place);
            return;
        };
        // `Plan::store` may evaluate the value several times.
        let v = self.named_value(value);
        let indent = self.indent_text();
        let text = self
            .ctx
            .plan
            .store(self.ctx, self.needs, &place, &repr, ty, &v, &indent);
        self.out.push_str(&text);
        self.give_back_scratch(place);
    }

    fn atomic(
        &mut self,
        pointer: Handle<naga::Expression>,
        fun: &naga::AtomicFunction,
        value: Handle<naga::Expression>,
        result: Option<Handle<naga::Expression>>,
    ) {
        let (place, repr) = self.place(pointer);
        if repr != Repr::Plain {
            self.error("internal: an atomic behind a split buffer member", pointer);
        }
        if let Some(s) = self.pointee(pointer).1.scalar() {
            if s.width == 8 {
                self.needs.extension("GL_EXT_shader_atomic_int64");
            }
        }
        let mut v = self.take_scratch();
        self.expr_into(value, &mut v);
        expr::unwrap_parens_from(&mut v, 0);
        let f = match *fun {
            naga::AtomicFunction::Add | naga::AtomicFunction::Subtract => "atomicAdd(",
            naga::AtomicFunction::And => "atomicAnd(",
            naga::AtomicFunction::ExclusiveOr => "atomicXor(",
            naga::AtomicFunction::InclusiveOr => "atomicOr(",
            naga::AtomicFunction::Min => "atomicMin(",
            naga::AtomicFunction::Max => "atomicMax(",
            naga::AtomicFunction::Exchange { compare: None } => "atomicExchange(",
            naga::AtomicFunction::Exchange { compare: Some(c) } => {
                let c = expr::unwrap_parens(&self.expr(c)).to_string();
                let call = format!("atomicCompSwap({place}, {c}, {v})");
                self.give_back_scratch(v);
                let Some(r) = result else {
                    self.line_fmt(format_args!("{call};"));
                    return;
                };
                // naga's predeclared {old_value, exchanged} struct.
                let ty = self.type_of(r);
                let scalar = self.type_of(value);
                let old = self.temp("old");
                self.line_fmt(format_args!("{scalar} {old} = {call};"));
                self.declare_result(r, &format!("{ty}({old}, {old} == {c})"));
                return;
            }
        };
        let mut call = self.take_scratch();
        for part in [f, &place, ", "] {
            call.push_str(part);
        }
        if matches!(*fun, naga::AtomicFunction::Subtract) {
            for part in ["-(", &v, "))"] {
                call.push_str(part);
            }
        } else {
            call.push_str(&v);
            call.push(')');
        }
        match result {
            Some(r) => {
                self.declare_result(r, &call);
            }
            None => self.line_parts(&[&call, ";"]),
        }
        self.give_back_scratch(call);
        self.give_back_scratch(v);
    }

    fn call(
        &mut self,
        function: Handle<naga::Function>,
        arguments: &[Handle<naga::Expression>],
        result: Option<Handle<naga::Expression>>,
    ) {
        // `name(a, b, ...)`, every argument printed in place.
        let mut call = String::with_capacity(64);
        call.push_str(self.ctx.name(NameKey::Function(function)));
        call.push('(');
        for (i, &a) in arguments.iter().enumerate() {
            if i > 0 {
                call.push_str(", ");
            }
            match *self.ty(a) {
                naga::TypeInner::Pointer { .. } | naga::TypeInner::ValuePointer { .. } => {
                    let repr = self.place_into(a, &mut call);
                    if repr != Repr::Plain {
                        self.error(
                            "a pointer into a buffer member stored in split or padded form cannot be passed to a function in GLSL",
                            a,
                        );
                    }
                }
                _ => {
                    let start = call.len();
                    self.expr_into(a, &mut call);
                    expr::unwrap_parens_from(&mut call, start);
                }
            }
        }
        call.push(')');
        match result {
            Some(r) => {
                self.declare_result(r, &call);
            }
            None => self.line_parts(&[&call, ";"]),
        }
    }

    // ---- baking ---------------------------------------------------------

    /// Whether the `Emit` of `h` declares a local for it.
    fn should_bake(&self, h: Handle<naga::Expression>) -> bool {
        use naga::Expression as E;
        let Some((func, info)) = self.function() else {
            return false;
        };
        if self.baked.contains_key(&h) || !expr::is_value_type(self.ty(h)) {
            return false;
        }
        if func.named_expressions.contains_key(&h) {
            return true;
        }
        let min_refs = match self.exprs[h] {
            E::Access { .. } | E::AccessIndex { .. } => usize::MAX,
            E::Load { .. } | E::ImageSample { .. } | E::ImageLoad { .. } | E::Derivative { .. } => {
                1
            }
            _ => 2,
        };
        info[h].ref_count >= min_refs
    }

    /// The local name of baked expression `h`: `name_eN` for a WGSL `let`
    /// (the `_eN` suffix keeps it apart from every namer-made name, which
    /// never end in a digit), `_eN` otherwise. It is appended to
    /// `baked_text`; the result is its range there, for `baked`.
    fn bake_name(&mut self, h: Handle<naga::Expression>) -> (u32, u32) {
        let function = self.function();
        let start = self.baked_text.len();
        let text = &mut self.baked_text;
        if let Some((func, _)) = function {
            if let Some(name) = func.named_expressions.get(&h) {
                let ok = name.starts_with(|c: char| c.is_ascii_alphabetic())
                    && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                    && !name.ends_with('_')
                    && !name.contains("__");
                // `gl` would make `gl_eN`.
                if ok && !name.starts_with("gl_") && name != "gl" {
                    text.push_str(name);
                }
            }
        }
        text.push_str("_e");
        super::push_decimal(text, h.index() as u64);
        byte_range(start, text.len())
    }

    /// Declare a local for expression `h` at the current point.
    fn bake(&mut self, h: Handle<naga::Expression>) {
        let name = self.bake_name(h);
        let ty = self.type_of(h);
        let mut value = self.take_scratch();
        self.write_expr_into(h, &mut value);
        let konst = if self.ctx.dialect().is_es() {
            ""
        } else {
            "const "
        };
        let name_text = self.baked_text.get(name.0 as usize..name.1 as usize);
        write_line(
            &mut self.out,
            self.indent,
            &[
                konst,
                &ty,
                " ",
                name_text.unwrap_or_default(),
                " = ",
                expr::unwrap_parens(&value),
                ";",
            ],
        );
        self.give_back_scratch(value);
        self.baked.insert(h, name);
    }

    /// Declare the result `r` of a statement (call, atomic, uniform load)
    /// with value `value`; only assign it if it was declared ahead.
    fn declare_result(&mut self, r: Handle<naga::Expression>, value: &str) {
        if self.declared_ahead.remove(&r) {
            let name = baked_in(&self.baked, &self.baked_text, r).unwrap_or_default();
            write_line(&mut self.out, self.indent, &[name, " = ", value, ";"]);
            return;
        }
        let ty = self.type_of(r);
        let name = self.bake_name(r);
        let name_text = self.baked_text.get(name.0 as usize..name.1 as usize);
        write_line(
            &mut self.out,
            self.indent,
            &[&ty, " ", name_text.unwrap_or_default(), " = ", value, ";"],
        );
        self.baked.insert(r, name);
    }

    /// A name (or other side-effect free, cheap text) for the value of `h`,
    /// declaring a temporary if `h` is not baked: for texts the caller
    /// prints several times.
    fn named_value(&mut self, h: Handle<naga::Expression>) -> String {
        if let Some(name) = self.baked_name(h) {
            return name.to_string();
        }
        let text = self.expr(h);
        if expr::is_identifier(&text) {
            return text;
        }
        let ty = self.type_of(h);
        let tmp = self.temp("v");
        self.line_fmt(format_args!("{ty} {tmp} = {};", expr::unwrap_parens(&text)));
        tmp
    }
}

/// The name of baked expression `h` (see `FunctionWriter::baked`).
fn baked_in<'t>(
    baked: &naga::FastHashMap<Handle<naga::Expression>, (u32, u32)>,
    text: &'t str,
    h: Handle<naga::Expression>,
) -> Option<&'t str> {
    let &(start, end) = baked.get(&h)?;
    text.get(start as usize..end as usize)
}

/// One line at `indent` levels of four spaces, in parts.
fn write_line(out: &mut String, indent: usize, parts: &[&str]) {
    for _ in 0..indent {
        out.push_str("    ");
    }
    for part in parts {
        out.push_str(part);
    }
    out.push('\n');
}

/// A byte range of `baked_text` as stored in `baked` (function texts are
/// far below 4 GiB; a longer one saturates and its names read as empty).
fn byte_range(start: usize, end: usize) -> (u32, u32) {
    let clamp = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
    (clamp(start), clamp(end))
}

#[cfg(test)]
mod tests {
    use super::expr::{f32_text, f64_text, i32_text, unwrap_parens};

    #[test]
    fn float_literals_round_trip() {
        for v in [
            1.0f32,
            0.1,
            1e-7,
            3.4028235e38,
            -2.5,
            16777216.0,
            1.175_494_4e-38,
            1e-45,
            0.0,
        ] {
            let text = f32_text(v);
            let body = text.trim_start_matches('(').trim_end_matches(')');
            assert_eq!(body.parse::<f32>().ok(), Some(v), "{text}");
            assert!(body.contains('.') || body.contains('e'), "{text}");
        }
        assert_eq!(f32_text(1.0), "1.0");
        assert_eq!(f32_text(1e-7), "1e-7");
        assert_eq!(f32_text(-2.5), "(-2.5)");
        assert_eq!(f64_text(0.5), "0.5lf");
    }

    #[test]
    fn int_literals() {
        assert_eq!(i32_text(5), "5");
        assert_eq!(i32_text(-5), "(-5)");
        assert_eq!(i32_text(i32::MIN), "(-2147483647 - 1)");
    }

    #[test]
    fn parens() {
        assert_eq!(unwrap_parens("(a + b)"), "a + b");
        assert_eq!(unwrap_parens("(a) + (b)"), "(a) + (b)");
        assert_eq!(unwrap_parens("f(a)"), "f(a)");
    }

    /// Writes the GLSL of every `.wgsl` file in `corpus/shaders` (and the
    /// folders in `$STRIDE_GLSL_IN`, `:`-separated) to `$STRIDE_GLSL_OUT`,
    /// one folder per dialect (`$STRIDE_GLSL_DIALECTS`, default all), for
    /// checking with glslangValidator; failures go to `<stem>.error.txt`.
    /// Run: `cargo test --lib dump_glsl -- --ignored`.
    #[test]
    #[ignore]
    fn dump_glsl() {
        let Ok(out) = std::env::var("STRIDE_GLSL_OUT") else {
            return;
        };
        let mut dirs = vec!["corpus/shaders".to_string()];
        if let Ok(extra) = std::env::var("STRIDE_GLSL_IN") {
            dirs.extend(extra.split(':').map(str::to_string));
        }
        let dialects: Vec<crate::back::glsl::Dialect> = match std::env::var("STRIDE_GLSL_DIALECTS")
        {
            Ok(list) => list
                .split(',')
                .filter_map(crate::back::glsl::Dialect::from_name)
                .collect(),
            Err(_) => crate::back::glsl::Dialect::ALL.to_vec(),
        };
        for dialect in dialects {
            let folder = std::path::Path::new(&out).join(dialect.name());
            std::fs::create_dir_all(&folder).expect("output folder");
            for dir in &dirs {
                let Ok(entries) = std::fs::read_dir(dir) else {
                    continue;
                };
                let mut paths: Vec<_> = entries.flatten().map(|e| e.path()).collect();
                paths.sort();
                for path in paths {
                    if path.extension().and_then(|e| e.to_str()) != Some("wgsl") {
                        continue;
                    }
                    let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("x");
                    let source = std::fs::read_to_string(&path).unwrap_or_default();
                    let mut options = crate::Options {
                        target: crate::Target::Glsl,
                        ..Default::default()
                    };
                    options.glsl.dialect = dialect;
                    match crate::translate(&source, &options) {
                        Ok(t) => {
                            if let crate::Output::Files(files) = t.output {
                                for f in files {
                                    let name = folder.join(format!("{stem}.{}", f.suffix));
                                    std::fs::write(name, f.text).expect("write");
                                }
                            }
                        }
                        Err(e) => {
                            let text = e.render(stem, &source, false);
                            std::fs::write(folder.join(format!("{stem}.error.txt")), text)
                                .expect("write");
                        }
                    }
                }
            }
        }
    }
}
