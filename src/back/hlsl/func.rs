//! Function bodies: naga expressions and statements printed as HLSL.
//!
//! INTERFACE (owned by the function part; `decl` calls it).
//!
//! - this file: the writer, signatures, local variables and statements;
//! - `expr`: expressions, pointers ([`super::buffers::Place`] for buffers,
//!   lvalue text otherwise), literals, casts and operators with WGSL's
//!   defined behaviours;
//! - `helpers`: the `_s_` helper functions `expr` calls (integer division,
//!   component-wise select and logic, array and struct constructors);
//! - `image`: sampling, loads, stores and queries of textures (free
//!   functions on printed operands);
//! - `math`: the builtin functions (`MathFunction`) and their polyfills
//!   (free functions on printed operands).
//!
//! Expression baking: an expression is printed inline where it is used,
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
use expr::{unwrap_parens, Ptr, Root};
use naga::proc::NameKey;
use naga::{Handle, Statement};

/// The complete definition of function `handle` (signature and body).
#[cfg(test)]
pub fn write_function(ctx: &Ctx<'_>, needs: &mut Needs, handle: Handle<naga::Function>) -> String {
    let mut out = String::new();
    write_function_into(ctx, needs, handle, &mut out, &mut Reuse::default());
    out
}

/// Buffers one function's writer leaves to the next one of the file (the
/// names of baked expressions, the scratch and spare strings), so that
/// they are allocated once per file rather than once per function.
#[derive(Default)]
pub struct Reuse {
    baked: Baked,
    scratch: String,
    spare: Vec<String>,
}

/// [`write_function`], appended to `out` (the writer prints straight into
/// the file's text rather than into a string of its own).
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
    w.out = std::mem::take(out);
    w.signature(handle, func);
    w.out.push_str("\n{\n");
    w.indent = 1;
    w.locals();
    w.block(&func.body);
    w.out.push_str("}\n");
    *out = w.finish(reuse);
}

/// The entry function of entry point `index`, appended to `out`:
/// `decl::entry_signature`, then `decl::entry_prologue`, the body, and
/// every `return` replaced by `decl::entry_return`. `has_input`: whether
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

/// How an entry point returns: `decl::entry_return` (tests pass their own).
/// It appends the statements to the given string.
type EntryReturn = fn(&Ctx<'_>, &mut Needs, usize, Option<&str>, &mut String);

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
    head(needs, out);
    let info = ctx.info.get_entry_point(index);
    let body = Body::Entry(index, &ep.function, info);
    let mut w = FunctionWriter::reusing(ctx, needs, body, std::mem::take(reuse));
    w.entry_return = Some(entry_return);
    w.out = std::mem::take(out);
    w.indent = 1;
    w.locals();
    w.block(&ep.function.body);
    w.out.push_str("}\n");
    *out = w.finish(reuse);
}

/// A module-scope constant expression (`module.global_expressions`) as an
/// HLSL initializer: for constants and global initializers
/// (`static const T name = <this>;`). Arrays and structs are initializer
/// lists (`{1.0f, 2.0f}`), which need no helper function declared before
/// the constant.
pub fn const_expression(
    ctx: &Ctx<'_>,
    needs: &mut Needs,
    expr: Handle<naga::Expression>,
) -> String {
    let mut w = FunctionWriter::new(ctx, needs, Body::Module);
    expr::strip_parens(w.expr(expr))
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
    /// Entry point `index`.
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
    baked: Baked,
    /// Counter for fresh temporaries (`_s_tN`) and loop gates.
    temps: usize,
    /// Baked expressions declared ahead (before a loop whose continuing
    /// block reads them): their `Emit` assigns instead of declaring.
    declared_ahead: naga::FastHashSet<Handle<naga::Expression>>,
    /// Span of the statement being written (for diagnostics without an
    /// expression).
    stmt_span: naga::Span,
    /// For an entry point: how its `return`s are written.
    entry_return: Option<EntryReturn>,
    /// A reused buffer for the text of an expression printed into a line
    /// (see [`FunctionWriter::with_scratch`]), so that baking an
    /// expression does not allocate a string for its value.
    scratch: String,
    /// Strings given back after use, handed out again by
    /// [`FunctionWriter::take_buf`] for operand and expression texts, so
    /// that printing an expression rarely allocates.
    spare: Vec<String>,
}

/// A line made of `parts` at indentation level `indent`, appended to `out`
/// ([`FunctionWriter::line_parts`] for parts that borrow other fields of
/// the writer).
fn push_line(out: &mut String, indent: usize, parts: &[&str]) {
    for _ in 0..indent {
        out.push_str("    ");
    }
    for part in parts {
        out.push_str(part);
    }
    out.push('\n');
}

/// Names of baked expressions, by expression handle. The names are kept
/// one after another in `text` (one string for the whole body instead of
/// one per name): `slots[h]` is one more than the position in `spans` of
/// `h`'s name, 0 while unbaked.
#[derive(Default)]
struct Baked {
    slots: Vec<u32>,
    text: String,
    /// Byte range of each name in `text`.
    spans: Vec<(usize, usize)>,
}

impl Baked {
    /// Empty, with room for the expressions of an arena of `len` (the
    /// buffers are kept).
    fn reset(&mut self, len: usize) {
        self.slots.clear();
        self.slots.resize(len, 0);
        self.text.clear();
        self.spans.clear();
    }

    fn get(&self, h: &Handle<naga::Expression>) -> Option<&str> {
        match self.slots.get(h.index()) {
            Some(&slot) if slot > 0 => {
                let &(start, end) = self.spans.get(slot as usize - 1)?;
                self.text.get(start..end)
            }
            _ => None,
        }
    }

    fn contains_key(&self, h: &Handle<naga::Expression>) -> bool {
        self.get(h).is_some()
    }

    fn insert(&mut self, h: Handle<naga::Expression>, name: &str) {
        self.insert_with(h, |text| text.push_str(name));
    }

    /// Name `h` with what `write` appends to the names' text.
    fn insert_with(&mut self, h: Handle<naga::Expression>, write: impl FnOnce(&mut String)) {
        let i = h.index();
        if i >= self.slots.len() {
            self.slots.resize(i + 1, 0);
        }
        if self.spans.capacity() == 0 {
            // Room for names of about a quarter of the expressions, so that
            // the names rarely have to grow.
            self.text.reserve(2 * self.slots.len());
            self.spans.reserve(self.slots.len() / 4 + 1);
        }
        let start = self.text.len();
        write(&mut self.text);
        self.spans.push((start, self.text.len()));
        self.slots[i] = self.spans.len() as u32;
    }
}

impl<'a, 'c> FunctionWriter<'a, 'c> {
    fn new(ctx: &'a Ctx<'c>, needs: &'a mut Needs, body: Body<'a>) -> Self {
        Self::reusing(ctx, needs, body, Reuse::default())
    }

    /// [`Self::new`] with the buffers another writer left.
    fn reusing(ctx: &'a Ctx<'c>, needs: &'a mut Needs, body: Body<'a>, reuse: Reuse) -> Self {
        let Reuse {
            mut baked,
            scratch,
            spare,
        } = reuse;
        let exprs = match body {
            Body::Function(_, f, _) | Body::Entry(_, f, _) => &f.expressions,
            Body::Module => &ctx.module.global_expressions,
        };
        FunctionWriter {
            ctx,
            needs,
            body,
            exprs,
            out: String::new(),
            indent: 0,
            baked: {
                baked.reset(exprs.len());
                baked
            },
            scratch,
            spare,
            temps: 0,
            declared_ahead: Default::default(),
            stmt_span: naga::Span::UNDEFINED,
            entry_return: None,
        }
    }

    fn function(&self) -> Option<(&'a naga::Function, &'a naga::valid::FunctionInfo)> {
        match self.body {
            Body::Function(_, f, i) | Body::Entry(_, f, i) => Some((f, i)),
            Body::Module => None,
        }
    }

    /// The text written, leaving the buffers to `reuse`.
    fn finish(self, reuse: &mut Reuse) -> String {
        let FunctionWriter {
            out,
            baked,
            scratch,
            spare,
            ..
        } = self;
        *reuse = Reuse {
            baked,
            scratch,
            spare,
        };
        out
    }

    // ---- output helpers -------------------------------------------------

    /// An empty string, from those given back by [`Self::give_buf`] when
    /// there is one.
    fn take_buf(&mut self) -> String {
        match self.spare.pop() {
            Some(mut text) => {
                text.clear();
                text
            }
            None => String::with_capacity(64),
        }
    }

    /// Keep `text`'s buffer for a later [`Self::take_buf`].
    fn give_buf(&mut self, text: String) {
        if text.capacity() >= 64 && self.spare.len() < 16 {
            self.spare.push(text);
        }
    }

    fn line(&mut self, text: &str) {
        self.write_indent();
        self.out.push_str(text);
        self.out.push('\n');
    }

    /// [`Self::line`] for formatted text, written straight into the output.
    fn line_fmt(&mut self, args: std::fmt::Arguments<'_>) {
        use std::fmt::Write as _;
        self.write_indent();
        let _ = self.out.write_fmt(args);
        self.out.push('\n');
    }

    /// Formatted text appended to the output as it is (no indentation, no
    /// newline).
    fn line_start_fmt(&mut self, args: std::fmt::Arguments<'_>) {
        use std::fmt::Write as _;
        let _ = self.out.write_fmt(args);
    }

    /// A line of `before`, `middle`, the text of expression `h` without
    /// outer parentheses, and `after`. A baked expression or a name
    /// ([`Self::leaf_name`]) is copied from where its name is kept.
    fn line_around(
        &mut self,
        before: &str,
        middle: &str,
        h: Handle<naga::Expression>,
        after: &str,
    ) {
        let leaf = self.leaf_name(h);
        if let Some(name) = self.baked.get(&h).or(leaf) {
            push_line(&mut self.out, self.indent, &[before, middle, name, after]);
        } else {
            self.with_scratch(h, |w, text| {
                push_line(
                    &mut w.out,
                    w.indent,
                    &[before, middle, unwrap_parens(text), after],
                );
            });
        }
    }

    /// Call `f` with the text [`Self::write_expr`] prints for `h`, written
    /// into the writer's reused scratch buffer instead of a new string.
    /// (The expression may write statements to `self.out` while printed,
    /// so its text cannot go straight into the line.)
    fn with_scratch(&mut self, h: Handle<naga::Expression>, f: impl FnOnce(&mut Self, &str)) {
        let mut text = std::mem::take(&mut self.scratch);
        text.clear();
        self.push_expr_itself(&mut text, h);
        f(self, &text);
        self.scratch = text;
    }

    /// [`Self::line`] for a line made of `parts`.
    fn line_parts(&mut self, parts: &[&str]) {
        push_line(&mut self.out, self.indent, parts);
    }

    fn write_indent(&mut self) {
        for _ in 0..self.indent {
            self.out.push_str("    ");
        }
    }

    /// Statements printed by another part (not indented, each line ending
    /// in a newline), indented to the current level.
    fn lines(&mut self, text: &str) {
        for l in text.lines() {
            if l.is_empty() {
                self.out.push('\n');
            } else {
                self.line(l);
            }
        }
    }

    /// A fresh name for a temporary.
    fn temp(&mut self, what: &str) -> String {
        self.temps += 1;
        let mut name = String::with_capacity(what.len() + 8);
        name.push_str("_s_");
        name.push_str(what);
        super::push_decimal(&mut name, self.temps as u64);
        name
    }

    /// An error diagnostic at `span` (the current statement when undefined).
    fn error_at(&mut self, message: impl Into<String>, span: naga::Span) {
        let span = if span.is_defined() {
            span
        } else {
            self.stmt_span
        };
        self.needs
            .error(super::error_at(message, span, "not expressible in HLSL"));
    }

    /// An error diagnostic at expression `h`.
    fn error(&mut self, message: impl Into<String>, h: Handle<naga::Expression>) {
        let span = self.exprs.get_span(h);
        self.error_at(message, span);
    }

    // ---- signature and locals -------------------------------------------

    fn signature(&mut self, handle: Handle<naga::Function>, func: &naga::Function) {
        let ret = match func.result {
            Some(ref r) => types::type_name(self.ctx, r.ty),
            None => "void",
        };
        let span = self.ctx.module.functions.get_span(handle);
        let ctx = self.ctx;
        let name = ctx.name(NameKey::Function(handle));
        self.line_start_fmt(format_args!("{ret} {name}("));
        for (i, arg) in func.arguments.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            let name = ctx.name(NameKey::FunctionArgument(handle, i as u32));
            let param = self.parameter(arg.ty, name, span);
            self.out.push_str(&param);
        }
        self.out.push(')');
    }

    /// One parameter declaration: pointers become `inout`.
    fn parameter(&mut self, ty: Handle<naga::Type>, name: &str, span: naga::Span) -> String {
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
                        text!(
                            "parameter `{name}`: a pointer into a buffer cannot be an HLSL function parameter (HLSL reaches storage buffers by byte offset); pass the value, or inline the function"
                        ),
                        span,
                    );
                }
                text!("inout {} {name}", types::type_name(ctx, base))
            }
            _ => text!("{} {name}", types::type_name(ctx, ty)),
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
            let ty = types::type_name(ctx, var.ty);
            let init = match var.init {
                Some(init) => expr::strip_parens(self.expr(init)),
                None => types::zero_value(ctx, var.ty),
            };
            self.line_parts(&[ty, " ", name, " = ", &init, ";"]);
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
                        self.with_scratch(h, |w, value| {
                            let name = w.baked.get(&h).unwrap_or_default();
                            push_line(
                                &mut w.out,
                                w.indent,
                                &[name, " = ", unwrap_parens(value), ";"],
                            );
                        });
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
                self.line_around("if (", "", condition, ") {");
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
            // WGSL `discard` demotes the invocation to a helper; HLSL's
            // `discard` (DXIL `discard`, SPIR-V `OpKill` or
            // `OpDemoteToHelperInvocation`) stops every later side effect
            // of the invocation, which is what WGSL observably guarantees.
            Statement::Kill => self.line("discard;"),
            Statement::ControlBarrier(barrier) => {
                if barrier.contains(naga::Barrier::SUB_GROUP) {
                    self.subgroup_error();
                }
                let device = barrier.intersects(naga::Barrier::STORAGE | naga::Barrier::TEXTURE);
                let group = barrier.contains(naga::Barrier::WORK_GROUP);
                let call = match (device, group) {
                    (true, true) => "AllMemoryBarrierWithGroupSync();",
                    (true, false) => "DeviceMemoryBarrierWithGroupSync();",
                    (false, _) => "GroupMemoryBarrierWithGroupSync();",
                };
                self.line(call);
            }
            Statement::MemoryBarrier(barrier) => {
                if barrier.contains(naga::Barrier::SUB_GROUP) {
                    self.subgroup_error();
                }
                let device = barrier.intersects(naga::Barrier::STORAGE | naga::Barrier::TEXTURE);
                let group = barrier.contains(naga::Barrier::WORK_GROUP);
                match (device, group) {
                    (true, true) => self.line("AllMemoryBarrier();"),
                    (true, false) => self.line("DeviceMemoryBarrier();"),
                    (false, true) => self.line("GroupMemoryBarrier();"),
                    (false, false) => {}
                }
            }
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
                self.line("GroupMemoryBarrierWithGroupSync();");
                let v = self.load(pointer);
                let v = unwrap_parens(&v).to_string();
                self.declare_result(result, &v);
                self.line("GroupMemoryBarrierWithGroupSync();");
            }
            Statement::Call {
                function,
                ref arguments,
                result,
            } => self.call(function, arguments, result),
            Statement::RayQuery { .. } | Statement::RayPipelineFunction(..) => self.error_at(
                "ray queries and ray tracing are not supported by --target hlsl yet",
                self.stmt_span,
            ),
            Statement::SubgroupBallot { result, .. }
            | Statement::SubgroupGather { result, .. }
            | Statement::SubgroupCollectiveOperation { result, .. } => {
                self.subgroup_error();
                // Keep later uses printable.
                self.baked.insert(result, "_s_unsupported");
            }
            Statement::CooperativeStore { .. } => self.error_at(
                "cooperative matrices are not supported by --target hlsl",
                self.stmt_span,
            ),
        }
    }

    fn subgroup_error(&mut self) {
        self.error_at(
            "subgroup operations are not supported by --target hlsl yet",
            self.stmt_span,
        );
    }

    fn switch(&mut self, selector: Handle<naga::Expression>, cases: &[naga::SwitchCase]) {
        let sel = self.expr(selector);
        self.line_parts(&["switch (", unwrap_parens(&sel), ") {"]);
        self.indent += 1;
        for case in cases {
            // The label, written straight into the output.
            match case.value {
                naga::SwitchValue::I32(v) if v >= 0 => {
                    self.write_indent();
                    self.out.push_str("case ");
                    super::push_decimal(&mut self.out, v as u64);
                    self.out.push_str(":\n");
                }
                naga::SwitchValue::I32(v) => {
                    let text = expr::i32_text(v);
                    self.line_parts(&["case ", &text, ":"]);
                }
                naga::SwitchValue::U32(v) => {
                    self.write_indent();
                    self.out.push_str("case ");
                    super::push_decimal(&mut self.out, u64::from(v));
                    self.out.push_str("u:\n");
                }
                naga::SwitchValue::Default => self.line("default:"),
            }
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
            self.bake_name(h);
            let ty = self.type_of(h);
            let name = self.baked.get(&h).unwrap_or_default();
            push_line(&mut self.out, self.indent, &[&ty, " ", name, ";"]);
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
            self.line_parts(&["if (", unwrap_parens(&c), ") {"]);
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
        if let (Body::Entry(index, ..), Some(entry_return)) = (self.body, self.entry_return) {
            let name = value.map(|v| self.named_value(v));
            // The statements go through the reused scratch buffer.
            let mut text = std::mem::take(&mut self.scratch);
            text.clear();
            entry_return(self.ctx, self.needs, index, name.as_deref(), &mut text);
            self.lines(&text);
            self.scratch = text;
            return;
        }
        match value {
            Some(v) => self.line_around("return ", "", v, ";"),
            None => self.line("return;"),
        }
    }

    fn store(&mut self, pointer: Handle<naga::Expression>, value: Handle<naga::Expression>) {
        if self.text_rooted(pointer) {
            // The lvalue, printed into a reused string.
            let mut lvalue = self.take_buf();
            self.push_place_text(&mut lvalue, pointer);
            self.line_around(&lvalue, " = ", value, ";");
            self.give_buf(lvalue);
            return;
        }
        match self.place(pointer) {
            Ptr::Text { text, .. } => self.line_around(&text, " = ", value, ";"),
            Ptr::Buffer(place) => {
                let Some(ty) = self.pointee_handle(pointer) else {
                    self.error("internal: a store into a buffer without a type", pointer);
                    return;
                };
                // `Plan::store` may evaluate the value several times.
                let v = self.named_value(value);
                let text = self.ctx.plan.store(self.ctx, self.needs, &place, ty, &v);
                self.lines(&text);
            }
        }
    }

    fn atomic(
        &mut self,
        pointer: Handle<naga::Expression>,
        fun: &naga::AtomicFunction,
        value: Handle<naga::Expression>,
        result: Option<Handle<naga::Expression>>,
    ) {
        let scalar = match *self.pointee(pointer).1 {
            naga::TypeInner::Atomic(s) => Some(s),
            ref other => other.scalar(),
        };
        if scalar.is_some_and(|s| s.width == 8)
            && self.ctx.shader_model() < super::ShaderModel::Sm6_6
        {
            self.error(
                "64-bit atomics need shader model 6.6: add --shader-model 6.6",
                pointer,
            );
        }
        let ptr = self.place(pointer);
        let v = self.arg(value);
        let compare = match *fun {
            naga::AtomicFunction::Exchange { compare: Some(c) } => Some(self.named_value(c)),
            _ => None,
        };
        // Declare the result first: both forms below store into it.
        let result_name = result.map(|r| self.declare_uninit(r));
        match ptr {
            Ptr::Buffer(place) => {
                let text = self.ctx.plan.atomic(
                    self.ctx,
                    self.needs,
                    &place,
                    fun,
                    &v,
                    compare.as_deref(),
                    result_name.as_deref(),
                );
                self.lines(&text);
            }
            Ptr::Text { text, root } => {
                if root != Root::Global {
                    self.error(
                        "HLSL atomics need the workgroup variable itself: an atomic through a pointer parameter is not expressible (HLSL copies `inout` parameters); inline the function",
                        pointer,
                    );
                }
                let value_ty = self.type_of(value);
                let f = match *fun {
                    naga::AtomicFunction::Add => "InterlockedAdd",
                    naga::AtomicFunction::Subtract => "InterlockedAdd",
                    naga::AtomicFunction::And => "InterlockedAnd",
                    naga::AtomicFunction::ExclusiveOr => "InterlockedXor",
                    naga::AtomicFunction::InclusiveOr => "InterlockedOr",
                    naga::AtomicFunction::Min => "InterlockedMin",
                    naga::AtomicFunction::Max => "InterlockedMax",
                    naga::AtomicFunction::Exchange { compare: None } => "InterlockedExchange",
                    naga::AtomicFunction::Exchange { compare: Some(_) } => {
                        "InterlockedCompareExchange"
                    }
                };
                let v = if matches!(*fun, naga::AtomicFunction::Subtract) {
                    ["-", &expr::wrap(v)].concat()
                } else {
                    v
                };
                match (compare, result_name) {
                    (Some(c), Some(r)) => {
                        let (old, exchanged) = self.compare_result_members(result);
                        self.line_fmt(format_args!("{f}({text}, {c}, {v}, {r}.{old});"));
                        self.line_fmt(format_args!("{r}.{exchanged} = {r}.{old} == {c};"));
                    }
                    (Some(c), None) => {
                        self.line_fmt(format_args!("InterlockedCompareStore({text}, {c}, {v});"))
                    }
                    (None, Some(r)) => self.line_fmt(format_args!("{f}({text}, {v}, {r});")),
                    (None, None) if f == "InterlockedExchange" => {
                        let old = self.temp("old");
                        self.line_fmt(format_args!("{value_ty} {old};"));
                        self.line_fmt(format_args!("{f}({text}, {v}, {old});"));
                    }
                    (None, None) => self.line_fmt(format_args!("{f}({text}, {v});")),
                }
            }
        }
    }

    /// The member names `old_value` and `exchanged` of the result struct
    /// of a compare-exchange.
    fn compare_result_members(&self, result: Option<Handle<naga::Expression>>) -> (String, String) {
        match result.and_then(|r| self.ty_handle(r)) {
            Some(st) => (
                self.ctx.name(NameKey::StructMember(st, 0)).to_string(),
                self.ctx.name(NameKey::StructMember(st, 1)).to_string(),
            ),
            None => ("old_value".to_string(), "exchanged".to_string()),
        }
    }

    fn call(
        &mut self,
        function: Handle<naga::Function>,
        arguments: &[Handle<naga::Expression>],
        result: Option<Handle<naga::Expression>>,
    ) {
        // The call is printed into the reused scratch buffer.
        let mut call = std::mem::take(&mut self.scratch);
        call.clear();
        call.push_str(self.ctx.name(NameKey::Function(function)));
        call.push('(');
        for (i, &a) in arguments.iter().enumerate() {
            if i > 0 {
                call.push_str(", ");
            }
            if expr::is_pointer(self.ty(a)) {
                match self.place(a) {
                    Ptr::Text { text, .. } => call.push_str(&text),
                    Ptr::Buffer(_) => {
                        self.error(
                            "a pointer into a buffer cannot be passed to an HLSL function (HLSL reaches storage buffers by byte offset); pass the value, or inline the function",
                            a,
                        );
                        call.push_str("_s_invalid");
                    }
                }
            } else {
                self.push_arg(&mut call, a);
            }
        }
        call.push(')');
        match result {
            Some(r) => self.declare_result(r, &call),
            None => self.line_parts(&[&call, ";"]),
        }
        self.scratch = call;
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

    /// Give baked expression `h` its local name (in `self.baked`):
    /// `name_eN` for a WGSL `let` (the `_eN` suffix keeps it apart from
    /// every namer-made name, which never end in a digit, and from HLSL's
    /// keywords), `_eN` otherwise.
    fn bake_name(&mut self, h: Handle<naga::Expression>) {
        let index = h.index();
        let named = self
            .function()
            .and_then(|(func, _)| func.named_expressions.get(&h))
            .filter(|name| {
                name.starts_with(|c: char| c.is_ascii_alphabetic())
                    && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            });
        self.baked.insert_with(h, |text| {
            if let Some(name) = named {
                text.push_str(name);
            }
            text.push_str("_e");
            super::push_decimal(text, index as u64);
        });
    }

    /// Declare a local for expression `h` at the current point.
    fn bake(&mut self, h: Handle<naga::Expression>) {
        let ty = self.type_of(h);
        self.with_scratch(h, |w, value| {
            w.bake_name(h);
            let name = w.baked.get(&h).unwrap_or_default();
            push_line(
                &mut w.out,
                w.indent,
                &[&ty, " ", name, " = ", unwrap_parens(value), ";"],
            );
        });
    }

    /// Declare the result `r` of a statement (call, uniform load) with
    /// value `value`; only assign it if it was declared ahead.
    fn declare_result(&mut self, r: Handle<naga::Expression>, value: &str) {
        if self.declared_ahead.remove(&r) {
            let name = self.baked.get(&r).unwrap_or_default();
            push_line(&mut self.out, self.indent, &[name, " = ", value, ";"]);
            return;
        }
        let ty = self.type_of(r);
        self.bake_name(r);
        let name = self.baked.get(&r).unwrap_or_default();
        push_line(
            &mut self.out,
            self.indent,
            &[&ty, " ", name, " = ", value, ";"],
        );
    }

    /// Declare the result `r` of a statement without a value (an atomic
    /// stores into it), unless it was declared ahead; its name.
    fn declare_uninit(&mut self, r: Handle<naga::Expression>) -> String {
        if self.declared_ahead.remove(&r) {
            return self.baked.get(&r).unwrap_or_default().to_string();
        }
        let ty = self.type_of(r);
        self.bake_name(r);
        let name = self.baked.get(&r).unwrap_or_default();
        push_line(&mut self.out, self.indent, &[&ty, " ", name, ";"]);
        name.to_string()
    }

    /// A name (or other side-effect free, cheap text) for the value of `h`,
    /// declaring a temporary if `h` is not baked: for texts the caller
    /// prints several times.
    fn named_value(&mut self, h: Handle<naga::Expression>) -> String {
        if let Some(name) = self.baked.get(&h) {
            return name.to_string();
        }
        let text = self.expr(h);
        if expr::is_identifier(&text) || expr::is_literal(&text) {
            return text;
        }
        let ty = self.type_of(h);
        let tmp = self.temp("v");
        self.line_parts(&[&ty, " ", &tmp, " = ", unwrap_parens(&text), ";"]);
        tmp
    }
}

#[cfg(test)]
mod tests;
