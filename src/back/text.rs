//! The text-writer core: what the GLSL and HLSL function writers share.
//!
//! Both writers print a naga function body the same way; only the syntax
//! of what they print differs. This module holds the shared part:
//!
//! - [`FunctionState`]: the state of one function being printed (the body
//!   and its expressions, the output, the indentation, the names of baked
//!   expressions, temporaries, values declared ahead of a loop);
//! - the baking policy ([`FunctionState::should_bake`],
//!   [`FunctionState::bake_name`]): an expression is printed inline where
//!   it is used, unless WGSL names it (`let`), it is used more than once,
//!   or it must be evaluated at its `Emit` point (loads, image reads,
//!   derivatives, call and atomic results);
//! - the statement skeleton ([`TextWriter`]): blocks, `if`, `switch`,
//!   loops with their continuing block behind a gate, jumps, `Emit`, calls
//!   and results, written once and driven by the methods each language
//!   implements to print its own syntax (expressions, stores, atomics,
//!   barriers, returns);
//! - the text helpers both languages' expressions use (literal integers,
//!   parentheses).
//!
//! Each language's `FunctionWriter` holds a [`FunctionState`] and
//! implements [`TextWriter`]; the skeleton is generic over it (no dynamic
//! dispatch).

use crate::back::lines::{Cursor, LineMap};
use naga::proc::NameKey;
use naga::{Handle, Span, Statement, TypeInner as Ti};
use std::borrow::Cow;

/// An expression of the body being printed.
pub(crate) type Expr = Handle<naga::Expression>;

/// What the expressions being printed belong to.
#[derive(Clone, Copy)]
pub(crate) enum Body<'a> {
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

impl<'a> Body<'a> {
    /// The function and its analysis (none for module expressions).
    pub fn function(self) -> Option<(&'a naga::Function, &'a naga::valid::FunctionInfo)> {
        match self {
            Body::Function(_, f, i) | Body::Entry(_, f, i) => Some((f, i)),
            Body::Module => None,
        }
    }

    /// The name key of local variable `l` of the body.
    pub fn local_key(self, l: Handle<naga::LocalVariable>) -> Option<NameKey> {
        match self {
            Body::Function(f, ..) => Some(NameKey::FunctionLocal(f, l)),
            Body::Entry(i, ..) => Some(NameKey::EntryPointLocal(i as u16, l)),
            Body::Module => None,
        }
    }
}

/// Names of baked expressions, by expression handle. The names are kept
/// one after another in `text` (one string for the whole body instead of
/// one per name): `slots[h]` is one more than the position in `spans` of
/// `h`'s name, 0 while unbaked.
#[derive(Default)]
pub(crate) struct Baked {
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

    pub fn get(&self, h: &Expr) -> Option<&str> {
        match self.slots.get(h.index()) {
            Some(&slot) if slot > 0 => {
                let &(start, end) = self.spans.get(slot as usize - 1)?;
                self.text.get(start..end)
            }
            _ => None,
        }
    }

    pub fn contains_key(&self, h: &Expr) -> bool {
        self.get(h).is_some()
    }

    pub fn insert(&mut self, h: Expr, name: &str) {
        self.insert_with(h, |text| text.push_str(name));
    }

    /// Name `h` with what `write` appends to the names' text.
    fn insert_with(&mut self, h: Expr, write: impl FnOnce(&mut String)) {
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

/// Buffers one function's writer leaves to the next one of the file (the
/// names of baked expressions, the spare strings), so that they are
/// allocated once per file rather than once per function.
#[derive(Default)]
pub(crate) struct Reuse {
    baked: Baked,
    spare: Vec<String>,
}

/// The state of one function (or constant expression) being printed.
pub(crate) struct FunctionState<'a> {
    pub module: &'a naga::Module,
    pub module_info: &'a naga::valid::ModuleInfo,
    /// The target's names of the module's items.
    names: &'a naga::FastHashMap<NameKey, String>,
    pub body: Body<'a>,
    pub exprs: &'a naga::Arena<naga::Expression>,
    pub out: String,
    /// Current indentation, in levels of four spaces.
    pub indent: usize,
    /// Names of baked expressions.
    pub baked: Baked,
    /// Counter for fresh temporaries (`_s_tN`) and loop gates.
    pub temps: usize,
    /// Baked expressions declared ahead (before a loop whose continuing
    /// block reads them): their `Emit` assigns instead of declaring.
    pub declared_ahead: naga::FastHashSet<Expr>,
    /// Span of the statement being written (for diagnostics without an
    /// expression).
    pub stmt_span: naga::Span,
    /// Where `#line` directives point (`None`: none are written), and the
    /// line the compiler counts since the last one.
    lines: Option<&'a LineMap>,
    cursor: Option<Cursor>,
    /// With `lines`, in an `Emit`: the span of the statement after it.
    emit_next: Option<naga::Span>,
    /// Strings given back after use, handed out again by
    /// [`FunctionState::take_buf`] for expression texts, so that printing
    /// an expression rarely allocates.
    spare: Vec<String>,
}

impl<'a> FunctionState<'a> {
    /// The state for `body` of the module `ctx` writes (with its names and
    /// `#line` directives), with the buffers another writer left in
    /// `reuse`.
    pub fn new<O, P, N, T>(
        ctx: &'a crate::back::common::WriterCtx<'_, O, P, N, T>,
        body: Body<'a>,
        reuse: Reuse,
    ) -> Self {
        let module = ctx.module;
        let Reuse { mut baked, spare } = reuse;
        let exprs = body
            .function()
            .map_or(&module.global_expressions, |(f, _)| &f.expressions);
        baked.reset(exprs.len());
        FunctionState {
            module,
            module_info: ctx.info,
            names: &ctx.names,
            body,
            exprs,
            out: String::new(),
            indent: 0,
            baked,
            temps: 0,
            declared_ahead: Default::default(),
            stmt_span: naga::Span::UNDEFINED,
            lines: ctx.lines,
            cursor: None,
            emit_next: None,
            spare,
        }
    }

    /// The text written, leaving the buffers to `reuse`.
    pub fn finish(self, reuse: &mut Reuse) -> String {
        *reuse = Reuse {
            baked: self.baked,
            spare: self.spare,
        };
        self.out
    }

    /// The resolved type of expression `h`.
    pub fn ty(&self, h: Expr) -> &'a Ti {
        let types = &self.module.types;
        match self.body {
            Body::Function(_, _, info) | Body::Entry(_, _, info) => info[h].ty.inner_with(types),
            Body::Module => self.module_info[h].inner_with(types),
        }
    }

    /// The type handle of expression `h`, when it has one.
    pub fn ty_handle(&self, h: Expr) -> Option<Handle<naga::Type>> {
        match self.body {
            Body::Function(_, _, info) | Body::Entry(_, _, info) => info[h].ty.handle(),
            Body::Module => self.module_info[h].handle(),
        }
    }

    /// The type a pointer expression points to: its handle when it has one,
    /// and its inner type.
    pub fn pointee(&self, h: Expr) -> (Option<Handle<naga::Type>>, Cow<'a, Ti>) {
        match *self.ty(h) {
            Ti::Pointer { base, .. } => (Some(base), Cow::Borrowed(&self.module.types[base].inner)),
            Ti::ValuePointer {
                size: Some(size),
                scalar,
                ..
            } => (None, Cow::Owned(Ti::Vector { size, scalar })),
            Ti::ValuePointer {
                size: None, scalar, ..
            } => (None, Cow::Owned(Ti::Scalar(scalar))),
            ref other => (None, Cow::Borrowed(other)),
        }
    }

    /// The scalar of a scalar, vector or matrix expression.
    pub fn scalar_of(&self, h: Expr) -> naga::Scalar {
        self.ty(h).scalar().unwrap_or(naga::Scalar::F32)
    }

    /// What `As` expression `h` does to its operand (for any other
    /// expression, `Convert`).
    pub fn conversion(&self, h: Expr) -> Conversion {
        match self.exprs[h] {
            naga::Expression::As {
                expr,
                kind,
                convert,
            } => Conversion::of(self.scalar_of(expr), kind, convert),
            _ => Conversion::Convert,
        }
    }

    /// The number of elements of `container` (a vector, matrix, or an
    /// array of fixed or baked override length); `None` for a
    /// runtime-sized array.
    pub fn element_count(&self, container: &Ti) -> Option<u32> {
        match *container {
            Ti::Vector { size, .. } => Some(size as u32),
            Ti::Matrix { columns, .. } => Some(columns as u32),
            Ti::Array { size, .. } => match size {
                naga::ArraySize::Constant(n) => Some(n.get()),
                naga::ArraySize::Pending(o) => crate::back::common::baked_length(self.module, o),
                naga::ArraySize::Dynamic => None,
            },
            _ => None,
        }
    }

    /// The value of `index` into `container` where it is a constant (known
    /// before the shader runs) within the container's fixed length: it is
    /// then written as a number.
    pub fn known_index(&self, container: &Ti, index: Expr) -> Option<u32> {
        use naga::Expression as E;
        let n = self.element_count(container)?;
        let module = self.module;
        let e = match self.exprs[index] {
            E::Constant(c) => &module.global_expressions[module.constants[c].init],
            ref e => e,
        };
        let k = crate::back::common::count_literal(e)?;
        (k < n).then_some(k)
    }

    // ---- output ---------------------------------------------------------

    /// Before the signature of WGSL function `name`: a `#line` directive
    /// to the line of its name.
    pub fn mark_function(&mut self, parsed: &crate::front::Parsed, name: &str) {
        if self.lines.is_some() {
            self.mark(fn_name_span(parsed, name));
        }
    }

    /// Before the declaration of `h`, emitted by `range`: a `#line`
    /// directive to where the source uses it. naga gives a variable's or
    /// argument's expression, and a load of one, the span of the
    /// declaration; such an expression takes the earliest use in its range,
    /// else the statement after the `Emit`.
    pub fn mark_emitted(&mut self, range: &naga::Range<naga::Expression>, h: Expr) {
        if self.lines.is_none() {
            return;
        }
        let mut span = self.use_span(h);
        if !span.is_defined() {
            span = range
                .clone()
                .map(|e| self.use_span(e))
                .filter(|s| s.is_defined())
                .min_by_key(|s| s.to_range().map_or(usize::MAX, |r| r.start))
                .or(self.emit_next)
                .unwrap_or_default();
        }
        self.mark(span);
    }

    /// The span of `h` where the source uses it: undefined for a
    /// declaration's expression and a load of one (see
    /// [`Self::mark_emitted`]).
    fn use_span(&self, h: Expr) -> naga::Span {
        use naga::Expression as E;
        let declared = |e: Expr| {
            matches!(
                self.exprs[e],
                E::FunctionArgument(_)
                    | E::LocalVariable(_)
                    | E::GlobalVariable(_)
                    | E::Constant(_)
                    | E::Override(_)
            )
        };
        match self.exprs[h] {
            E::Load { pointer } if declared(pointer) => naga::Span::UNDEFINED,
            _ if declared(h) => naga::Span::UNDEFINED,
            _ => self.exprs.get_span(h),
        }
    }

    /// Before the text written for source `span`: a `#line` directive
    /// where one is needed (see [`crate::back::lines`]).
    pub fn mark(&mut self, span: naga::Span) {
        let Some(lines) = self.lines else {
            return;
        };
        if let Some(line) = lines.line_of(span) {
            lines.mark(&mut self.out, &mut self.cursor, line);
        }
    }

    pub fn write_indent(&mut self) {
        for _ in 0..self.indent {
            self.out.push_str("    ");
        }
    }

    pub fn line(&mut self, text: &str) {
        self.line_parts(&[text]);
    }

    /// [`Self::line`] for formatted text, written straight into the output.
    pub fn line_fmt(&mut self, args: std::fmt::Arguments<'_>) {
        use std::fmt::Write as _;
        self.write_indent();
        let _ = self.out.write_fmt(args);
        self.out.push('\n');
    }

    /// [`Self::line`] for a line made of `parts`.
    pub fn line_parts(&mut self, parts: &[&str]) {
        push_line(&mut self.out, self.indent, parts);
    }

    /// Statements printed by another part (not indented, each line ending
    /// in a newline), indented to the current level.
    pub fn lines(&mut self, text: &str) {
        for l in text.lines() {
            if l.is_empty() {
                self.out.push('\n');
            } else {
                self.line(l);
            }
        }
    }

    /// A fresh name for a temporary.
    pub fn temp(&mut self, what: &str) -> String {
        self.temps += 1;
        let mut name = String::with_capacity(what.len() + 8);
        name.push_str("_s_");
        name.push_str(what);
        crate::back::common::push_decimal(&mut name, self.temps as u64);
        name
    }

    /// An empty string, from those given back by [`Self::give_buf`] when
    /// there is one.
    pub fn take_buf(&mut self) -> String {
        match self.spare.pop() {
            Some(mut text) => {
                text.clear();
                text
            }
            None => String::with_capacity(64),
        }
    }

    /// Keep `text`'s buffer for a later [`Self::take_buf`].
    pub fn give_buf(&mut self, text: String) {
        if text.capacity() >= 64 && self.spare.len() < 16 {
            self.spare.push(text);
        }
    }

    // ---- baking ---------------------------------------------------------

    /// Whether the `Emit` of `h` declares a local for it.
    pub fn should_bake(&self, h: Expr) -> bool {
        use naga::Expression as E;
        let Some((func, info)) = self.body.function() else {
            return false;
        };
        if self.baked.contains_key(&h) || !is_value_type(self.ty(h)) {
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
    /// `name_eN` for a WGSL `let` whose name `keep` accepts (the `_eN`
    /// suffix keeps it apart from every namer-made name, which never end
    /// in a digit, and from the language's keywords), `_eN` otherwise.
    pub fn bake_name(&mut self, h: Expr, keep: impl Fn(&str) -> bool) {
        let index = h.index();
        let named = self
            .body
            .function()
            .and_then(|(func, _)| func.named_expressions.get(&h))
            .filter(|name| {
                name.starts_with(|c: char| c.is_ascii_alphabetic())
                    && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                    && keep(name)
            });
        self.baked.insert_with(h, |text| {
            if let Some(name) = named {
                text.push_str(name);
            }
            text.push_str("_e");
            crate::back::common::push_decimal(text, index as u64);
        });
    }
}

/// A line made of `parts` at indentation level `indent`, appended to `out`
/// (for parts that borrow other fields of the writer).
pub(crate) fn push_line(out: &mut String, indent: usize, parts: &[&str]) {
    for _ in 0..indent {
        out.push_str("    ");
    }
    for part in parts {
        out.push_str(part);
    }
    out.push('\n');
}

/// Whether `block` always leaves by its last statement (so a `case` needs
/// no `break`).
pub(crate) fn ends_in_jump(block: &naga::Block) -> bool {
    matches!(
        block.last(),
        Some(Statement::Break | Statement::Continue | Statement::Return { .. } | Statement::Kill)
    )
}

/// The texel an image statement writes: `Statement::ImageStore` and
/// `Statement::ImageAtomic`'s operands besides the value.
#[derive(Clone, Copy)]
pub(crate) struct Texel {
    pub image: Expr,
    pub coordinate: Expr,
    pub array_index: Option<Expr>,
}

/// The operands of `Statement::Atomic`.
#[derive(Clone, Copy)]
pub(crate) struct Atomic<'s> {
    pub pointer: Expr,
    pub fun: &'s naga::AtomicFunction,
    pub value: Expr,
    pub result: Option<Expr>,
}

/// Whether `space` is a buffer's (uniform, storage or immediate data),
/// which the writers reach through the buffer plan.
pub(crate) fn is_buffer_space(space: naga::AddressSpace) -> bool {
    matches!(
        space,
        naga::AddressSpace::Uniform
            | naga::AddressSpace::Storage { .. }
            | naga::AddressSpace::Immediate
    )
}

/// The text of module-scope constant expression `h`, printed by `w` (a
/// writer of `Body::Module`), without outer parentheses.
pub(crate) fn const_text<'a>(mut w: impl TextWriter<'a>, h: Expr) -> String {
    let (text, prec) = w.expr_text(h);
    into_bare(text, prec)
}

/// The operands of `Expression::ImageSample`, read once for both writers.
#[derive(Clone, Copy)]
pub(crate) struct Sample {
    pub image: Expr,
    pub sampler: Expr,
    pub gather: Option<naga::SwizzleComponent>,
    pub coordinate: Expr,
    pub array_index: Option<Expr>,
    pub offset: Option<Expr>,
    pub level: naga::SampleLevel,
    pub depth_ref: Option<Expr>,
    pub clamp_to_edge: bool,
}

/// The operands of `Expression::ImageLoad`.
#[derive(Clone, Copy)]
pub(crate) struct Load {
    pub image: Expr,
    pub coordinate: Expr,
    pub array_index: Option<Expr>,
    pub sample: Option<Expr>,
    pub level: Option<Expr>,
}

impl Sample {
    /// The operands of `e`, when it is an `ImageSample`.
    pub fn of(e: &naga::Expression) -> Option<Self> {
        let naga::Expression::ImageSample {
            image,
            sampler,
            gather,
            coordinate,
            array_index,
            offset,
            level,
            depth_ref,
            clamp_to_edge,
        } = *e
        else {
            return None;
        };
        Some(Sample {
            image,
            sampler,
            gather,
            coordinate,
            array_index,
            offset,
            level,
            depth_ref,
            clamp_to_edge,
        })
    }
}

impl Load {
    /// The operands of `e`, when it is an `ImageLoad`.
    pub fn of(e: &naga::Expression) -> Option<Self> {
        let naga::Expression::ImageLoad {
            image,
            coordinate,
            array_index,
            sample,
            level,
        } = *e
        else {
            return None;
        };
        Some(Load {
            image,
            coordinate,
            array_index,
            sample,
            level,
        })
    }
}

/// The function of `Expression::Math` `e`, its first operand and the
/// others (up to three, in order).
pub(crate) fn math_operands(
    e: &naga::Expression,
) -> Option<(naga::MathFunction, Expr, [Option<Expr>; 3])> {
    match *e {
        naga::Expression::Math {
            fun,
            arg,
            arg1,
            arg2,
            arg3,
        } => Some((fun, arg, [arg1, arg2, arg3])),
        _ => None,
    }
}

/// A statement neither language's output supports.
#[derive(Clone, Copy)]
pub(crate) enum Unsupported {
    RayTracing,
    Subgroup,
    Cooperative,
    /// The result of such a statement, used by an expression.
    Result,
}

/// One language's function writer: the syntax it prints, and the shared
/// statement skeleton (the provided methods) printed through it.
pub(crate) trait TextWriter<'a> {
    fn state(&self) -> &FunctionState<'a>;
    fn state_mut(&mut self) -> &mut FunctionState<'a>;

    // ---- what each language prints --------------------------------------

    /// Append the text of expression `h` (its baked name, or the
    /// expression) to `out`, without parentheses around all of it; its
    /// class there ([`Prec::bare`]).
    fn push_bare(&mut self, out: &mut String, h: Expr) -> Prec {
        let start = out.len();
        let prec = self.push_value(out, h);
        bare_from(out, start, prec);
        prec.bare()
    }
    /// Append the text of expression `h` itself (even when baked) to
    /// `out`; its class.
    fn push_itself(&mut self, out: &mut String, h: Expr) -> Prec;
    /// [`Self::push_itself`] without parentheses around all of it.
    fn push_bare_itself(&mut self, out: &mut String, h: Expr) {
        let start = out.len();
        let prec = self.push_itself(out, h);
        bare_from(out, start, prec);
    }
    /// Append call argument `a` (a value or a pointer) to `out`.
    fn push_call_argument(&mut self, out: &mut String, a: Expr);
    /// The spelling of the type of `h`.
    fn type_of(&mut self, h: Expr) -> Cow<'a, str>;
    /// The name the module's namer gave `key`.
    fn name(&self, key: NameKey) -> &'a str {
        crate::back::common::name_of(self.state().names, key)
    }
    /// Append the text of expression `h` (its baked name, or the
    /// expression) to `out`; its class.
    fn push_value(&mut self, out: &mut String, h: Expr) -> Prec {
        match self.state().baked.get(&h) {
            Some(name) => {
                out.push_str(name);
                Prec::Word
            }
            None => self.push_itself(out, h),
        }
    }
    /// What this language's infix operators mean beyond the shared ones.
    const INFIX: InfixRules;
    /// `(l o r)` appended to `out` when `op` on these operands is one of
    /// the language's plain infix operators ([`InfixRules::plain`]); its
    /// class. `None`, with nothing appended, for every other operator.
    fn push_plain_binary(
        &mut self,
        out: &mut String,
        op: naga::BinaryOperator,
        left: Expr,
        right: Expr,
    ) -> Option<Prec> {
        let state = self.state();
        let o = Self::INFIX.plain(op, &BinaryOperands::new(state.ty(left), state.ty(right)))?;
        Some(self.push_infix(out, o, left, right))
    }
    /// `(l o r)` appended to `out`; its class.
    fn push_infix(&mut self, out: &mut String, o: &str, left: Expr, right: Expr) -> Prec {
        out.push('(');
        self.push_value(out, left);
        out.push(' ');
        out.push_str(o);
        out.push(' ');
        self.push_value(out, right);
        out.push(')');
        Prec::Group
    }
    /// `all(v)`, `any(v)`, `isnan(v)` or `isinf(v)`, which both languages
    /// spell alike, appended to `out`; `all` and `any` of a scalar are the
    /// scalar itself. Its class.
    fn push_relational(
        &mut self,
        out: &mut String,
        fun: naga::RelationalFunction,
        argument: Expr,
    ) -> Prec {
        use naga::RelationalFunction as R;
        let vector = matches!(*self.state().ty(argument), Ti::Vector { .. });
        let name = match fun {
            R::All | R::Any if !vector => return self.push_value(out, argument),
            R::All => "all(",
            R::Any => "any(",
            R::IsNan => "isnan(",
            R::IsInf => "isinf(",
        };
        out.push_str(name);
        self.push_bare(out, argument);
        out.push(')');
        Prec::Call
    }
    /// Append `base` as the base of an index or member access to `out`;
    /// its class.
    fn push_access_base(&mut self, out: &mut String, base: Expr) -> Prec;
    /// What [`Self::push_restricted_index`] needs to write the length of a
    /// runtime-sized array: where the array lies.
    type IndexPlace: ?Sized;
    /// What follows a constant index written as a number (`u` or nothing).
    const KNOWN_INDEX_SUFFIX: &'static str;
    /// Append index value `index` to `out`; `enclosed` when it stands
    /// alone inside `min(...)` or `uint(...)`, else it must stay an operand.
    fn push_index_value(&mut self, out: &mut String, index: Expr, enclosed: bool);
    /// Append the `uint` length of the runtime-sized array at `place`.
    fn push_runtime_length(&mut self, out: &mut String, place: &Self::IndexPlace);
    /// Append the index `index` into `container`, clamped as naga's
    /// `Restrict` bounds policy does, the policy both languages share: a
    /// constant within bounds as the number; else `min(uint(i), N - 1u)`
    /// for a container of N elements, `min(uint(i), LEN - 1u)` for a
    /// runtime-sized array at `place`, and `uint(i)` (or `i`, unsigned)
    /// where there is no bound to clamp to.
    fn push_restricted_index(
        &mut self,
        out: &mut String,
        container: &Ti,
        index: Expr,
        place: Option<&Self::IndexPlace>,
    ) {
        if let Some(k) = self.state().known_index(container, index) {
            crate::back::common::push_decimal(out, u64::from(k));
            out.push_str(Self::KNOWN_INDEX_SUFFIX);
            return;
        }
        let count = self.state().element_count(container);
        let runtime = match (count, container) {
            (
                None,
                Ti::Array {
                    size: naga::ArraySize::Dynamic,
                    ..
                },
            ) => place,
            _ => None,
        };
        let clamped = count.is_some() || runtime.is_some();
        if clamped {
            out.push_str("min(");
        }
        if self.state().scalar_of(index).kind == naga::ScalarKind::Uint {
            self.push_index_value(out, index, clamped);
        } else {
            out.push_str("uint(");
            self.push_index_value(out, index, true);
            out.push(')');
        }
        if let Some(n) = count {
            out.push_str(", ");
            crate::back::common::push_decimal(out, u64::from(n.saturating_sub(1)));
            out.push_str("u)");
        } else if let Some(place) = runtime {
            out.push_str(", ");
            self.push_runtime_length(out, place);
            out.push_str(" - 1u)");
        }
    }
    /// Append value `h`'s index or member access, `base[i]`, `base.x` or
    /// `base.member`, to `out`: the postfix accesses both languages spell
    /// alike, each with its own base and index. `false`, with nothing
    /// written, for any other expression, and for a struct value without a
    /// type handle.
    fn push_access(&mut self, out: &mut String, h: Expr) -> bool {
        let st = self.state();
        match st.exprs[h] {
            naga::Expression::Access { base, index } => {
                let container = st.ty(base);
                self.push_access_base(out, base);
                out.push('[');
                // Not in a buffer: no runtime-sized length to clamp to.
                self.push_restricted_index(out, container, index, None);
                out.push(']');
            }
            naga::Expression::AccessIndex { base, index } => {
                let member = match *st.ty(base) {
                    Ti::Struct { .. } => match st.ty_handle(base) {
                        Some(ty) => Some(ty),
                        None => return false,
                    },
                    _ => None,
                };
                let vector = matches!(*st.ty(base), Ti::Vector { .. });
                self.push_access_base(out, base);
                if let Some(ty) = member {
                    out.push('.');
                    out.push_str(self.name(NameKey::StructMember(ty, index)));
                } else if vector {
                    out.push('.');
                    out.push(component(index));
                } else {
                    out.push('[');
                    crate::back::common::push_decimal(out, u64::from(index));
                    out.push(']');
                }
            }
            _ => return false,
        }
        true
    }
    /// What goes before the type of a baked expression's declaration.
    fn bake_qualifier(&self) -> &'static str {
        ""
    }
    /// Whether the language takes WGSL `let` name `name` into baked names.
    fn keeps_let_name(name: &str) -> bool {
        let _ = name;
        true
    }
    /// Whether the text of an expression can be printed several times as
    /// it is (no temporary needed).
    fn is_reusable(prec: Prec) -> bool;
    /// The text of expression `h` (its baked name, or the expression) and
    /// its class.
    fn expr_text(&mut self, h: Expr) -> (String, Prec) {
        let mut text = self.state_mut().take_buf();
        let prec = self.push_value(&mut text, h);
        (text, prec)
    }
    /// Declare local variable `var` named `name`.
    fn local(&mut self, name: NameKey, var: &naga::LocalVariable);
    /// Report error `message` at `span` (never undefined).
    fn diagnostic(&mut self, message: String, span: naga::Span);
    /// The message for a statement the language's output does not support.
    fn unsupported(&self, what: Unsupported) -> &'static str;

    fn r#return(&mut self, value: Option<Expr>);
    fn control_barrier(&mut self, barrier: naga::Barrier);
    fn memory_barrier(&mut self, barrier: naga::Barrier);
    /// Append the value loaded through `pointer` to `out`; its class.
    fn push_loaded(&mut self, out: &mut String, pointer: Expr) -> Prec;
    fn store(&mut self, pointer: Expr, value: Expr);
    /// Where a load is rebuilt piece by piece (a buffer value whose
    /// storage the language declares differently from its value type):
    /// what [`Self::write_rebuild`] needs to write it.
    type Rebuild;
    /// For expression `h`, a `Load` whose value is rebuilt from storage
    /// that differs from the value type: how to rebuild it into a local,
    /// statement by statement, instead of in one expression. Large values
    /// must not travel through helpers by value (a driver's compiler can
    /// take minutes on a copied 10 KB struct; docs/fuzzing.md).
    fn rebuilds(&mut self, h: Expr) -> Option<Self::Rebuild> {
        let _ = h;
        None
    }
    /// The statements that store the value [`Self::rebuilds`] described
    /// into the local `name`, declared without a value.
    fn write_rebuild(&mut self, rebuild: Self::Rebuild, name: &str) {
        let _ = (rebuild, name);
    }
    fn atomic(&mut self, atomic: Atomic<'_>);
    /// `textureStore` (`fun` `None`) or `textureAtomic*` (`ImageAtomic`,
    /// which has no result) of `value` at texel `at`.
    fn texel_statement(&mut self, at: Texel, value: Expr, fun: Option<&naga::AtomicFunction>);

    // ---- shared ---------------------------------------------------------

    /// An error diagnostic at `span` (the current statement when undefined).
    fn error_at(&mut self, message: impl Into<String>, span: naga::Span) {
        let span = if span.is_defined() {
            span
        } else {
            self.state().stmt_span
        };
        self.diagnostic(message.into(), span);
    }

    /// An error diagnostic at expression `h` (the current statement when
    /// it has no span).
    fn error(&mut self, message: impl Into<String>, h: Expr) {
        self.error_at(message, self.state().exprs.get_span(h));
    }

    /// The dimension, arrayness and class of texture expression `image`
    /// (an error, and a 2D float texture, when it is not one).
    fn image_kind(&mut self, image: Expr) -> (naga::ImageDimension, bool, naga::ImageClass) {
        match *self.state().ty(image) {
            naga::TypeInner::Image {
                dim,
                arrayed,
                class,
            } => (dim, arrayed, class),
            _ => {
                self.error("internal: not a texture", image);
                (
                    naga::ImageDimension::D2,
                    false,
                    naga::ImageClass::Sampled {
                        kind: naga::ScalarKind::Float,
                        multi: false,
                    },
                )
            }
        }
    }

    /// A line of `before`, the text of expression `h` without outer
    /// parentheses, and `after`.
    fn line_with(&mut self, before: &str, h: Expr, after: &str) {
        let mut text = self.state_mut().take_buf();
        self.push_bare(&mut text, h);
        self.state_mut().line_parts(&[before, &text, after]);
        self.state_mut().give_buf(text);
    }

    /// `lvalue = <h>;`.
    fn assign(&mut self, lvalue: &str, h: Expr) {
        let mut text = self.state_mut().take_buf();
        self.push_bare(&mut text, h);
        self.state_mut().line_parts(&[lvalue, " = ", &text, ";"]);
        self.state_mut().give_buf(text);
    }

    /// The body of the function: its locals and statements at one level of
    /// indentation, and the closing brace.
    fn body(&mut self, block: &naga::Block) {
        self.state_mut().indent = 1;
        self.locals();
        self.block(block);
        self.state_mut().out.push_str("}\n");
    }

    /// Local variables, declared at the start of the body.
    fn locals(&mut self) {
        let st = self.state();
        let (Some((func, _)), body) = (st.body.function(), st.body) else {
            return;
        };
        for (h, var) in func.local_variables.iter() {
            if let Some(key) = body.local_key(h) {
                self.state_mut().mark(func.local_variables.get_span(h));
                self.local(key, var);
            }
        }
    }

    fn block(&mut self, block: &naga::Block) {
        for (i, (stmt, span)) in block.span_iter().enumerate() {
            self.state_mut().stmt_span = *span;
            let st = self.state_mut();
            if !matches!(stmt, Statement::Emit(_)) {
                st.mark(*span);
            } else if st.lines.is_some() {
                // An `Emit` marks each expression it declares instead, at
                // the statement after it when naga left no use of them.
                st.emit_next = block
                    .span_iter()
                    .skip(i + 1)
                    .find_map(|(s, span)| (!matches!(s, Statement::Emit(_))).then_some(*span));
            }
            self.statement(stmt);
        }
    }

    /// `{ block }` at one more level of indentation, `open` and `close`
    /// on the lines around it.
    fn nested(&mut self, open: &str, block: &naga::Block, close: &str) {
        self.state_mut().line(open);
        self.state_mut().indent += 1;
        self.block(block);
        self.state_mut().indent -= 1;
        self.state_mut().line(close);
    }

    fn statement(&mut self, stmt: &Statement) {
        match *stmt {
            Statement::Emit(ref range) => {
                for h in range.clone() {
                    // Declared ahead of a loop (assigned here), or baked
                    // here; otherwise printed where it is used.
                    let ahead = self.state().declared_ahead.contains(&h);
                    if !ahead && !self.state().should_bake(h) {
                        continue;
                    }
                    self.state_mut().mark_emitted(range, h);
                    if let Some(rebuild) = self.rebuilds(h) {
                        let name = self.declare_uninit(h);
                        self.write_rebuild(rebuild, &name);
                    } else if ahead {
                        let mut value = self.state_mut().take_buf();
                        self.push_bare_itself(&mut value, h);
                        self.declare_result(h, &value);
                        self.state_mut().give_buf(value);
                    } else {
                        self.bake(h);
                    }
                }
            }
            Statement::Block(ref b) => self.nested("{", b, "}"),
            Statement::If {
                condition,
                ref accept,
                ref reject,
            } => {
                self.line_with("if (", condition, ") {");
                self.state_mut().indent += 1;
                self.block(accept);
                self.state_mut().indent -= 1;
                if !reject.is_empty() {
                    self.nested("} else {", reject, "}");
                } else {
                    self.state_mut().line("}");
                }
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
            Statement::Break => self.state_mut().line("break;"),
            Statement::Continue => self.state_mut().line("continue;"),
            Statement::Return { value } => self.r#return(value),
            // WGSL `discard` demotes the invocation to a helper; GLSL's and
            // HLSL's `discard` end it (or demote it). Either stops every
            // later side effect of the invocation, which is what WGSL
            // observably guarantees; only derivatives in the rest of the
            // quad can differ.
            Statement::Kill => self.state_mut().line("discard;"),
            Statement::ControlBarrier(barrier) => self.control_barrier(barrier),
            Statement::MemoryBarrier(barrier) => self.memory_barrier(barrier),
            Statement::Store { pointer, value } => self.store(pointer, value),
            Statement::ImageStore {
                image,
                coordinate,
                array_index,
                value,
            } => {
                let at = Texel {
                    image,
                    coordinate,
                    array_index,
                };
                self.texel_statement(at, value, None);
            }
            Statement::Atomic {
                pointer,
                ref fun,
                value,
                result,
            } => self.atomic(Atomic {
                pointer,
                fun,
                value,
                result,
            }),
            Statement::ImageAtomic {
                image,
                coordinate,
                array_index,
                ref fun,
                value,
            } => {
                let at = Texel {
                    image,
                    coordinate,
                    array_index,
                };
                self.texel_statement(at, value, Some(fun));
            }
            Statement::WorkGroupUniformLoad { pointer, result } => {
                // A workgroup barrier before and after the load.
                self.control_barrier(naga::Barrier::WORK_GROUP);
                let mut v = self.state_mut().take_buf();
                let prec = self.push_loaded(&mut v, pointer);
                self.declare_result(result, bare(&v, prec));
                self.state_mut().give_buf(v);
                self.control_barrier(naga::Barrier::WORK_GROUP);
            }
            Statement::Call {
                function,
                ref arguments,
                result,
            } => self.call(function, arguments, result),
            Statement::RayQuery { .. } | Statement::RayPipelineFunction(..) => {
                self.error_at(self.unsupported(Unsupported::RayTracing), Span::UNDEFINED);
            }
            Statement::SubgroupBallot { result, .. }
            | Statement::SubgroupGather { result, .. }
            | Statement::SubgroupCollectiveOperation { result, .. } => {
                self.error_at(self.unsupported(Unsupported::Subgroup), Span::UNDEFINED);
                // Keep later uses printable.
                self.state_mut().baked.insert(result, "_s_unsupported");
            }
            Statement::CooperativeStore { .. } => {
                self.error_at(self.unsupported(Unsupported::Cooperative), Span::UNDEFINED);
            }
        }
    }

    /// The text of a result of an unsupported statement (which declares
    /// no name for it), after an error.
    fn unsupported_result(&mut self, h: Expr) -> String {
        self.error(self.unsupported(Unsupported::Result), h);
        "_s_unsupported".to_string()
    }

    fn switch(&mut self, selector: Expr, cases: &[naga::SwitchCase]) {
        self.line_with("switch (", selector, ") {");
        self.state_mut().indent += 1;
        for case in cases {
            let st = self.state_mut();
            // The label, written straight into the output.
            st.write_indent();
            let default = case.value == naga::SwitchValue::Default;
            st.out.push_str(if default { "default" } else { "case " });
            match case.value {
                naga::SwitchValue::I32(v) => push_i32(&mut st.out, v),
                naga::SwitchValue::U32(v) => {
                    crate::back::common::push_decimal(&mut st.out, u64::from(v));
                    st.out.push('u');
                }
                naga::SwitchValue::Default => {}
            }
            st.out.push_str(":\n");
            if case.fall_through && case.body.is_empty() {
                continue;
            }
            self.nested("{", &case.body, "}");
            if !case.fall_through && !ends_in_jump(&case.body) {
                self.state_mut().line("break;");
            }
        }
        self.state_mut().indent -= 1;
        self.state_mut().line("}");
    }

    /// `loop { body continuing { ... break if c; } }` as
    /// `bool gate = true; while (true) { if (!gate) { continuing; if (c) break; } gate = false; body }`,
    /// so that `continue` (also from inside a `switch`) runs the continuing
    /// block before the next iteration. Values of the body that the
    /// continuing block reads are declared before the loop
    /// (`back::scope::loop_carried`).
    fn r#loop(&mut self, body: &naga::Block, continuing: &naga::Block, break_if: Option<Expr>) {
        if continuing.is_empty() && break_if.is_none() {
            self.nested("while (true) {", body, "}");
            return;
        }
        let st = self.state();
        let carried = crate::back::scope::loop_carried(st.exprs, body, continuing, break_if, |h| {
            is_value_type(st.ty(h))
        });
        for h in carried {
            let ty = self.type_of(h);
            self.declare_local(h, "", &ty, None);
            self.state_mut().declared_ahead.insert(h);
        }
        let st = self.state_mut();
        let gate = st.temp("loop_init");
        st.line_fmt(format_args!("bool {gate} = true;"));
        st.line("while (true) {");
        st.indent += 1;
        st.line_fmt(format_args!("if (!{gate}) {{"));
        st.indent += 1;
        self.block(continuing);
        if let Some(c) = break_if {
            self.line_with("if (", c, ") {");
            let st = self.state_mut();
            st.line("    break;");
            st.line("}");
        }
        let st = self.state_mut();
        st.indent -= 1;
        st.line("}");
        st.line_fmt(format_args!("{gate} = false;"));
        self.block(body);
        let st = self.state_mut();
        st.indent -= 1;
        st.line("}");
    }

    /// `name(a, b, ...);`, or the declaration of its result.
    fn call(&mut self, function: Handle<naga::Function>, arguments: &[Expr], result: Option<Expr>) {
        let mut call = self.state_mut().take_buf();
        call.push_str(self.name(NameKey::Function(function)));
        call.push('(');
        for (i, &a) in arguments.iter().enumerate() {
            if i > 0 {
                call.push_str(", ");
            }
            self.push_call_argument(&mut call, a);
        }
        call.push(')');
        match result {
            Some(r) => self.declare_result(r, &call),
            None => self.state_mut().line_parts(&[&call, ";"]),
        }
        self.state_mut().give_buf(call);
    }

    /// Declare a local for expression `h` at the current point.
    fn bake(&mut self, h: Expr) {
        let ty = self.type_of(h);
        let mut value = self.state_mut().take_buf();
        self.push_bare_itself(&mut value, h);
        self.declare_local(h, self.bake_qualifier(), &ty, Some(&value));
        self.state_mut().give_buf(value);
    }

    /// Declare the result `r` of a statement (call, atomic, uniform load)
    /// with value `value`; only assign it if it was declared ahead.
    fn declare_result(&mut self, r: Expr, value: &str) {
        if self.state_mut().declared_ahead.remove(&r) {
            let st = self.state_mut();
            let name = st.baked.get(&r).unwrap_or_default();
            push_line(&mut st.out, st.indent, &[name, " = ", value, ";"]);
            return;
        }
        let ty = self.type_of(r);
        self.declare_local(r, "", &ty, Some(value));
    }

    /// Declare the result `r` of a statement without a value (an atomic
    /// stores into it), unless it was declared ahead; its name.
    fn declare_uninit(&mut self, r: Expr) -> String {
        if !self.state_mut().declared_ahead.remove(&r) {
            let ty = self.type_of(r);
            self.declare_local(r, "", &ty, None);
        }
        self.state().baked.get(&r).unwrap_or_default().to_string()
    }

    /// Name `r` and declare its local of type `ty`: `qualifier ty name =
    /// value;`, or `ty name;` without a value.
    fn declare_local(&mut self, r: Expr, qualifier: &str, ty: &str, value: Option<&str>) {
        let st = self.state_mut();
        st.bake_name(r, Self::keeps_let_name);
        let name = st.baked.get(&r).unwrap_or_default();
        let (eq, value) = value.map_or(("", ""), |v| (" = ", v));
        let parts = [qualifier, ty, " ", name, eq, value, ";"];
        push_line(&mut st.out, st.indent, &parts);
    }

    /// A name (or other side-effect free, cheap text) for the value of `h`,
    /// declaring a temporary if `h` is not baked: for texts the caller
    /// prints several times.
    fn named_value(&mut self, h: Expr) -> String {
        if let Some(name) = self.state().baked.get(&h) {
            return name.to_string();
        }
        let (text, prec) = self.expr_text(h);
        if Self::is_reusable(prec) {
            return text;
        }
        let ty = self.type_of(h);
        let st = self.state_mut();
        let tmp = st.temp("v");
        st.line_parts(&[&ty, " ", &tmp, " = ", bare(&text, prec), ";"]);
        tmp
    }
}

// ---- entry points -------------------------------------------------------

/// One bound part of an entry point's arguments or result: the part that
/// one interface variable (GLSL) or struct member (HLSL) carries.
#[derive(Clone, Debug)]
pub(crate) struct IoPart {
    pub binding: naga::Binding,
    pub ty: Handle<naga::Type>,
    /// The struct member index, when the argument or result is a struct.
    pub member: Option<u32>,
}

/// Flatten an argument or result into its bound parts: itself when it has
/// a binding, else its struct members that have one. (An iterator: the
/// parts are walked again by every part of a writer that needs them.)
pub(crate) fn io_parts<'m>(
    module: &'m naga::Module,
    ty: Handle<naga::Type>,
    binding: Option<&'m naga::Binding>,
) -> impl Iterator<Item = IoPart> + 'm {
    let whole = binding.map(|b| IoPart {
        binding: b.clone(),
        ty,
        member: None,
    });
    let members: &[naga::StructMember] = match module.types.get_handle(ty).map(|t| &t.inner) {
        Ok(Ti::Struct { members, .. }) if binding.is_none() => members,
        _ => &[],
    };
    whole
        .into_iter()
        .chain(members.iter().enumerate().filter_map(move |(i, m)| {
            Some(IoPart {
                binding: m.binding.clone()?,
                ty: m.ty,
                member: Some(i as u32),
            })
        }))
}

/// The bound parts of every argument of `ep`.
pub(crate) fn input_parts<'m>(
    module: &'m naga::Module,
    ep: &'m naga::EntryPoint,
) -> impl Iterator<Item = IoPart> + 'm {
    let arguments = ep.function.arguments.iter();
    arguments.flat_map(move |a| io_parts(module, a.ty, a.binding.as_ref()))
}

/// The bound parts of the result of `ep`.
pub(crate) fn output_parts<'m>(
    module: &'m naga::Module,
    ep: &'m naga::EntryPoint,
) -> impl Iterator<Item = IoPart> + 'm {
    let result = ep.function.result.as_ref();
    result
        .into_iter()
        .flat_map(move |r| io_parts(module, r.ty, r.binding.as_ref()))
}

/// A span for errors about entry point `index`: its name in the source
/// (naga keeps no entry-point span).
pub(crate) fn entry_span(
    parsed: &crate::front::Parsed,
    module: &naga::Module,
    index: usize,
) -> naga::Span {
    let Some(ep) = module.entry_points.get(index) else {
        return naga::Span::default();
    };
    fn_name_span(parsed, &ep.name)
}

/// The span of the name of WGSL function `name` in the source (undefined
/// when there is none): where a function starts, for its `#line`.
pub(crate) fn fn_name_span(parsed: &crate::front::Parsed, wanted: &str) -> naga::Span {
    parsed
        .scanned
        .items
        .iter()
        .find_map(|item| match &item.kind {
            crate::front::scan::ItemKind::Fn { name, name_span } if *name == wanted => Some(
                naga::Span::new(name_span.start as u32, name_span.end as u32),
            ),
            _ => None,
        })
        .unwrap_or_default()
}

/// The workgroup variables entry point `index` zeroes before its body, in
/// declaration order: WGSL zero-initializes workgroup variables, so a
/// compute entry point that uses any has invocation 0 zero them, then all
/// invocations wait at a barrier.
pub(crate) fn zeroed_workgroup_variables(
    module: &naga::Module,
    info: &naga::valid::ModuleInfo,
    index: usize,
) -> Vec<Handle<naga::GlobalVariable>> {
    match module.entry_points.get(index) {
        Some(ep) if ep.stage == naga::ShaderStage::Compute => {}
        _ => return Vec::new(),
    }
    let ep_info = info.get_entry_point(index);
    let mut order = crate::back::common::declaration_order(module);
    order.retain(|&h| {
        module.global_variables[h].space == naga::AddressSpace::WorkGroup && !ep_info[h].is_empty()
    });
    order
}

// ---- text helpers -------------------------------------------------------

/// Whether values of `inner` can be held in a local.
pub(crate) fn is_value_type(inner: &Ti) -> bool {
    !matches!(
        *inner,
        Ti::Pointer { .. }
            | Ti::ValuePointer { .. }
            | Ti::Image { .. }
            | Ti::Sampler { .. }
            | Ti::AccelerationStructure { .. }
            | Ti::RayQuery { .. }
            | Ti::BindingArray { .. }
    )
}

/// Whether `inner` is a pointer type (a pointer or a value pointer).
pub(crate) fn is_pointer(inner: &Ti) -> bool {
    matches!(*inner, Ti::Pointer { .. } | Ti::ValuePointer { .. })
}

/// The operands of a binary operator as the writers classify them: their
/// types, the scalar of the left one, the vector size of either, and
/// whether it is a matrix product (`mul` in HLSL).
#[derive(Clone, Copy)]
pub(crate) struct BinaryOperands<'a> {
    pub lt: &'a Ti,
    pub rt: &'a Ti,
    pub scalar: naga::Scalar,
    pub size: Option<naga::VectorSize>,
    pub float: bool,
    pub int: bool,
    pub bool_: bool,
    pub matrix_product: bool,
}

impl<'a> BinaryOperands<'a> {
    pub fn new(lt: &'a Ti, rt: &'a Ti) -> Self {
        use naga::ScalarKind as K;
        let scalar = lt.scalar().unwrap_or(naga::Scalar::F32);
        let matrix = |t: &Ti| matches!(*t, Ti::Matrix { .. });
        let scalar_ty = |t: &Ti| matches!(*t, Ti::Scalar(_));
        BinaryOperands {
            lt,
            rt,
            scalar,
            size: vector_size(lt).or(vector_size(rt)),
            float: scalar.kind == K::Float,
            int: matches!(scalar.kind, K::Sint | K::Uint),
            bool_: scalar.kind == K::Bool,
            matrix_product: (matrix(lt) || matrix(rt)) && !scalar_ty(lt) && !scalar_ty(rt),
        }
    }
}

/// Where a language's infix operators mean what WGSL's do beyond the ones
/// both languages share ([`TextWriter::INFIX`]).
pub(crate) struct InfixRules {
    /// `==`, `<` and the rest (and `!=` as bool `^`) compare vectors
    /// component-wise (HLSL); else a vector comparison is a call (GLSL's
    /// `lessThan`).
    pub vector_comparisons: bool,
    /// `*` multiplies matrices (GLSL); else a matrix product is a call
    /// (HLSL's `mul`).
    pub matrix_star: bool,
    /// `%` on f16 and f32 truncates as WGSL's does (HLSL); else float `%`
    /// is written out.
    pub float_modulo: bool,
}

impl InfixRules {
    /// The operator printed as the plain infix `(l o r)` for `op` on
    /// `operands`; `None` for the operators written as calls, polyfills or
    /// with masks.
    pub fn plain(&self, op: naga::BinaryOperator, o: &BinaryOperands) -> Option<&'static str> {
        use naga::BinaryOperator as B;
        let compares = self.vector_comparisons || o.size.is_none();
        let plain = match op {
            B::Multiply => self.matrix_star || !o.matrix_product,
            B::Divide => !o.int,
            B::Modulo => self.float_modulo && o.float && o.scalar.width != 8,
            B::Equal | B::NotEqual | B::Less | B::LessEqual | B::Greater | B::GreaterEqual => {
                compares
            }
            // Bool `&` and `|` are the logical operators on scalars, bool
            // `^` is `!=` where that compares.
            B::And if o.bool_ => return o.size.is_none().then_some("&&"),
            B::InclusiveOr if o.bool_ => return o.size.is_none().then_some("||"),
            B::ExclusiveOr if o.bool_ => return compares.then_some("!="),
            B::ShiftLeft | B::ShiftRight => false,
            _ => true,
        };
        plain.then(|| operator_symbol(op))
    }
}

/// The infix spelling of `op` in GLSL and HLSL alike (for operands where
/// it means what WGSL's does: see [`InfixRules::plain`]).
pub(crate) fn operator_symbol(op: naga::BinaryOperator) -> &'static str {
    use naga::BinaryOperator as B;
    match op {
        B::Add => "+",
        B::Subtract => "-",
        B::Multiply => "*",
        B::Divide => "/",
        B::Modulo => "%",
        B::Equal => "==",
        B::NotEqual => "!=",
        B::Less => "<",
        B::LessEqual => "<=",
        B::Greater => ">",
        B::GreaterEqual => ">=",
        B::And => "&",
        B::ExclusiveOr => "^",
        B::InclusiveOr => "|",
        B::LogicalAnd => "&&",
        B::LogicalOr => "||",
        B::ShiftLeft => "<<",
        B::ShiftRight => ">>",
    }
}

/// What a WGSL `As` expression does to its operand, decided once for both
/// text writers; each spells it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Conversion {
    /// A bitcast to the operand's own type: the same value.
    Same,
    /// The same bits read as `to`, of the operand's width.
    Bitcast {
        from: naga::Scalar,
        to: naga::Scalar,
    },
    /// A float clamped to `lo..=hi` ([`saturation_bounds`], as decimal
    /// text without a suffix), then converted to an integer: WGSL's
    /// conversions saturate.
    Saturate {
        from: naga::Scalar,
        lo: &'static str,
        hi: &'static str,
    },
    /// A value conversion to the result type.
    Convert,
}

impl Conversion {
    /// `As { kind, convert }` on an operand of scalar `from`.
    pub fn of(from: naga::Scalar, kind: naga::ScalarKind, convert: Option<naga::Bytes>) -> Self {
        let Some(width) = convert else {
            let to = naga::Scalar {
                kind,
                width: from.width,
            };
            return if to == from {
                Conversion::Same
            } else {
                Conversion::Bitcast { from, to }
            };
        };
        match saturation_bounds(from, kind, width) {
            Some((lo, hi)) => Conversion::Saturate { from, lo, hi },
            None => Conversion::Convert,
        }
    }
}

/// The text of a helper applying a scalar function to each component:
/// `ret name(params) {\n    return ret(each(x), each(y), ...);\n}\n`, with
/// the opening brace written as `open` (GLSL: ` {\n`, HLSL: `\n{\n`).
pub(crate) fn componentwise_text(
    (ret, name, params): (&str, &str, &str),
    open: &str,
    size: naga::VectorSize,
    each: impl Fn(char) -> String,
) -> String {
    let parts: Vec<String> = ['x', 'y', 'z', 'w'][..size as usize]
        .iter()
        .map(|&c| each(c))
        .collect();
    format!(
        "{ret} {name}({params}){open}    return {ret}({});\n}}\n",
        parts.join(", ")
    )
}

/// The statements of a helper computing WGSL's integer division (`what`
/// is "div") or remainder ("mod") of two scalars `a` and `b` of the type
/// spelled `s`, which neither `/` nor `%` of GLSL or HLSL gives for every
/// operand: `a / 0` is `a`, `a % 0` is 0, and `MIN / -1` is `MIN` (`MIN %
/// -1` is 0). Where the divisor would leave another result it is replaced
/// by 1. A signed remainder is spelled with the division: GLSL's `%` is
/// undefined for negative operands, and every HLSL compiler agrees on the
/// division's rounding. `[zero, one, minus_one, min]` are the literals of
/// the type in the writer's language (the last two only when `signed`).
pub(crate) fn div_mod_body(what: &str, s: &str, signed: bool, literals: [&str; 4]) -> String {
    let [zero, one, minus_one, min] = literals;
    let bad = if signed {
        format!("(b == {zero} || (a == {min} && b == {minus_one}))")
    } else {
        format!("b == {zero}")
    };
    if what == "div" {
        format!("    return a / ({bad} ? {one} : b);\n")
    } else if signed {
        format!("    {s} d = {bad} ? {one} : b;\n    return a - (a / d) * d;\n")
    } else {
        format!("    return a % ({bad} ? {one} : b);\n")
    }
}

/// The bounds a float of `from` is clamped to before it converts to an
/// integer of `kind` and `width` bytes (WGSL's conversions saturate): the
/// extreme floats of `from`'s width inside the integer's range, as decimal
/// text each writer gives its literal suffix. `None` where no clamp is
/// due: not a float, or every value of `from` fits (f16 into a signed
/// integer).
pub(crate) fn saturation_bounds(
    from: naga::Scalar,
    kind: naga::ScalarKind,
    width: u8,
) -> Option<(&'static str, &'static str)> {
    use naga::ScalarKind as K;
    if from.kind != K::Float {
        return None;
    }
    let (i32_min, i64_min) = ("-2147483648.0", "-9223372036854775808.0");
    Some(match (from.width, kind, width) {
        (4, K::Sint, 4) => (i32_min, "2147483520.0"),
        (4, K::Uint, 4) => ("0.0", "4294967040.0"),
        (4, K::Sint, 8) => (i64_min, "9223371487098961920.0"),
        (4, K::Uint, 8) => ("0.0", "18446742974197923840.0"),
        (8, K::Sint, 4) => (i32_min, "2147483647.0"),
        (8, K::Uint, 4) => ("0.0", "4294967295.0"),
        (8, K::Sint, 8) => (i64_min, "9223372036854774784.0"),
        (8, K::Uint, 8) => ("0.0", "18446744073709549568.0"),
        (2, K::Uint, _) => ("0.0", "65504.0"),
        _ => return None,
    })
}

/// How many coordinates address a texel of `dim` (without the layer).
pub(crate) fn coordinate_count(dim: naga::ImageDimension) -> usize {
    match dim {
        naga::ImageDimension::D1 => 1,
        naga::ImageDimension::D2 => 2,
        naga::ImageDimension::D3 | naga::ImageDimension::Cube => 3,
    }
}

/// How many components the size of a texture of `dim` has (without the
/// layers): a cube's size is its square faces' width and height.
pub(crate) fn size_count(dim: naga::ImageDimension) -> usize {
    coordinate_count(dim) - usize::from(dim == naga::ImageDimension::Cube)
}

pub(crate) fn vector_size(inner: &Ti) -> Option<naga::VectorSize> {
    match *inner {
        Ti::Vector { size, .. } => Some(size),
        _ => None,
    }
}

/// The `.xyz` of swizzle `e` (nothing for any other expression).
pub(crate) fn push_swizzle(out: &mut String, e: &naga::Expression) {
    if let naga::Expression::Swizzle { size, pattern, .. } = *e {
        out.push('.');
        out.extend(
            pattern[..size as usize]
                .iter()
                .map(|&c| component(c as u32)),
        );
    }
}

/// `x`, `y`, `z`, `w`.
pub(crate) fn component(i: u32) -> char {
    ['x', 'y', 'z', 'w'].get(i as usize).copied().unwrap_or('x')
}

// ---- precedence -----------------------------------------------------------

/// How the text of an expression binds, as the writer that wrote it knows
/// it: each expression writer returns the class of what it wrote, and
/// callers decide parentheses from the class, never from the characters.
///
/// Both writers print every expression ready to be an operand of any
/// operator (a primary expression, or an operator expression in
/// parentheses of its own), and take those parentheses off where any
/// expression may stand (an argument, an initializer, the right of `=`).
/// The classes say which of those shapes a text has, finely enough for
/// each language's own choices (HLSL parenthesizes a member access that it
/// negates, and reuses number literals as they are).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Prec {
    /// A word: a name (variable, constant, argument, baked temporary) or a
    /// keyword literal (`true`).
    Word,
    /// A number literal without a sign: `1u`, `0.5f`.
    Number,
    /// A number literal without a sign of its own but with a negative
    /// exponent: `1e-7f` (HLSL's math and texture texts parenthesize it
    /// where they cast it; elsewhere it is a [`Prec::Number`]).
    Exponent,
    /// A call or constructor: `f(a, b)`, `vec2(a, b)`.
    Call,
    /// A member access, index or swizzle: `a.b[i].xy`.
    Postfix,
    /// An operator expression (unary, binary, conditional, cast) in one
    /// pair of parentheses of its own: `(a + b)`, `(-x)`.
    Group,
    /// A negative number literal in parentheses of its own: `(-1)`.
    NegativeNumber,
    /// An operator expression without parentheses of its own: `-x`,
    /// `(float)x`, `a + b` (an expression taken out of its group).
    Operator,
}

impl Prec {
    /// Whether the text is in one pair of parentheses of its own, which
    /// come off where any expression may stand.
    pub fn is_grouped(self) -> bool {
        matches!(self, Prec::Group | Prec::NegativeNumber)
    }

    /// Whether the text is a number literal, negative ones included.
    pub fn is_number(self) -> bool {
        matches!(self, Prec::Number | Prec::Exponent | Prec::NegativeNumber)
    }

    /// Whether a text of this class can stand as an operand of a postfix
    /// or binary operator, or after a cast, as it is: anything but an
    /// operator expression without parentheses of its own, or a number
    /// with a sign in its exponent.
    pub fn is_operand(self) -> bool {
        !matches!(self, Prec::Operator | Prec::Exponent)
    }

    /// The class of a text of this class where any expression may stand,
    /// that is, after [`bare`] took off its own parentheses.
    pub fn bare(self) -> Prec {
        if self.is_grouped() {
            Prec::Operator
        } else {
            self
        }
    }
}

/// `text` (of class `prec`) where any expression may stand: without the
/// parentheses of its own, which a grouped class says it has.
pub(crate) fn bare(text: &str, prec: Prec) -> &str {
    if prec.is_grouped() {
        text.get(1..text.len().saturating_sub(1)).unwrap_or(text)
    } else {
        text
    }
}

/// [`bare`] of an owned text, in place.
pub(crate) fn into_bare(mut text: String, prec: Prec) -> String {
    bare_from(&mut text, 0, prec);
    text
}

/// [`bare`] of `out[start..]` (of class `prec`), in place.
pub(crate) fn bare_from(out: &mut String, start: usize, prec: Prec) {
    if prec.is_grouped() && out.len() >= start + 2 {
        out.pop();
        out.remove(start);
    }
}

/// The class of a literal as both writers print it: a number, negative
/// ones in parentheses of their own (the most negative integers as an
/// expression), non-finite floats and 16-bit integers through a call.
pub(crate) fn literal_class(lit: naga::Literal) -> Prec {
    use naga::Literal as L;
    let float = |v: f64| {
        if !v.is_finite() {
            Prec::Call
        } else if v.is_sign_negative() {
            Prec::NegativeNumber
        } else {
            Prec::Number
        }
    };
    // The most negative value of the integer's type (`min`) is written as
    // an expression (see [`push_i32`]).
    let int = |v: i64, min: i64| match v {
        v if v == min => Prec::Group,
        v if v < 0 => Prec::NegativeNumber,
        _ => Prec::Number,
    };
    match lit {
        L::F64(v) => float(v),
        L::F32(v) => float(f64::from(v)),
        L::AbstractFloat(v) => float(f64::from(v as f32)),
        L::F16(_) | L::U16(_) | L::I16(_) => Prec::Call,
        L::U32(_) | L::U64(_) => Prec::Number,
        L::I32(v) => int(v.into(), i32::MIN.into()),
        L::I64(v) => int(v, i64::MIN),
        L::Bool(_) => Prec::Word,
        // Written as an i32 where it fits, else as an i64.
        L::AbstractInt(v) => match i32::try_from(v) {
            Ok(_) => int(v, i32::MIN.into()),
            Err(_) => int(v, i64::MIN),
        },
    }
}

/// An i32 value, appended to `out`: negative values in parentheses, the
/// most negative one as an expression (its magnitude is not an int literal
/// in GLSL or HLSL).
pub(crate) fn push_i32(out: &mut String, v: i32) {
    if v == i32::MIN {
        return out.push_str("(-2147483647 - 1)");
    }
    if v < 0 {
        out.push_str("(-");
    }
    crate::back::common::push_decimal(out, u64::from(v.unsigned_abs()));
    if v < 0 {
        out.push(')');
    }
}

#[cfg(test)]
mod tests {
    use super::{bare, bare_from, into_bare, literal_class, push_i32, saturation_bounds, Prec};

    /// Each bound is a float of the source width, the low one the
    /// integer's minimum and the high one the integer's maximum or the
    /// largest float below it (for f16, whose largest finite value is
    /// inside every range it is clamped for, that value).
    #[test]
    fn saturation_bounds_are_the_extreme_floats_inside_the_range() {
        use naga::{Scalar, ScalarKind as K};
        let mut clamped = 0;
        for from in [Scalar::F16, Scalar::F32, Scalar::F64] {
            for (kind, width) in [(K::Sint, 4), (K::Uint, 4), (K::Sint, 8), (K::Uint, 8)] {
                let bits = u32::from(width) * 8;
                let (min, max): (i128, i128) = match kind {
                    K::Sint => (-(1 << (bits - 1)), (1 << (bits - 1)) - 1),
                    _ => (0, (1 << bits) - 1),
                };
                let Some((lo, hi)) = saturation_bounds(from, kind, width) else {
                    // Only f16 into a signed integer needs no clamp.
                    assert!(
                        from == Scalar::F16 && kind == K::Sint,
                        "{from:?} {kind:?}{width}"
                    );
                    continue;
                };
                clamped += 1;
                let (Ok(lo), Ok(hi)) = (lo.parse::<f64>(), hi.parse::<f64>()) else {
                    panic!("{lo}, {hi}: not numbers");
                };
                assert_eq!(lo as i128, min, "{from:?} {kind:?}{width}");
                let next_up = match from.width {
                    4 => {
                        assert_eq!(f64::from(hi as f32), hi);
                        f64::from(f32::from_bits((hi as f32).to_bits() + 1))
                    }
                    8 => f64::from_bits(hi.to_bits() + 1),
                    _ => {
                        assert_eq!(hi, 65504.0, "the largest finite f16");
                        f64::INFINITY
                    }
                };
                // Clamped to `hi`, every larger float converts to the
                // maximum, or to the largest value a float reaches.
                assert!(hi as i128 <= max, "{from:?} {kind:?}{width}: {hi}");
                assert!(
                    hi as i128 == max || next_up as i128 > max,
                    "{from:?} {kind:?}{width}: {hi}, then {next_up}"
                );
            }
        }
        assert_eq!(clamped, 10);
        assert_eq!(saturation_bounds(Scalar::I32, K::Uint, 4), None);
    }

    #[test]
    fn parentheses_come_off_by_class() {
        assert_eq!(bare("(a + b)", Prec::Group), "a + b");
        assert_eq!(bare("(-1)", Prec::NegativeNumber), "-1");
        // Parentheses that are not the expression's own stay.
        assert_eq!(bare("(a) + (b)", Prec::Operator), "(a) + (b)");
        assert_eq!(bare("f(a)", Prec::Call), "f(a)");
        assert_eq!(into_bare("(x ? a : b)".into(), Prec::Group), "x ? a : b");
        let mut out = String::from("f(");
        bare_from(&mut out, 2, Prec::Word);
        out.push_str("(a * b)");
        bare_from(&mut out, 2, Prec::Group);
        assert_eq!(out, "f(a * b");
        assert_eq!(Prec::Group.bare(), Prec::Operator);
    }

    #[test]
    fn literal_classes() {
        for (v, text, grouped) in [
            (5, "5", false),
            (-5, "(-5)", true),
            (i32::MIN, "(-2147483647 - 1)", true),
        ] {
            let mut written = String::new();
            push_i32(&mut written, v);
            assert_eq!(written, text);
            let class = literal_class(naga::Literal::I32(v));
            assert_eq!(class.is_grouped(), grouped, "{v}");
        }
        assert_eq!(literal_class(naga::Literal::Bool(true)), Prec::Word);
        assert_eq!(
            literal_class(naga::Literal::F32(-0.5)),
            Prec::NegativeNumber
        );
        assert_eq!(literal_class(naga::Literal::F32(f32::INFINITY)), Prec::Call);
        assert_eq!(literal_class(naga::Literal::I64(i64::MIN)), Prec::Group);
    }
}
