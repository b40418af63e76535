//! Function bodies: naga expressions and statements printed as GLSL.
//!
//! INTERFACE (owned by the function part; `decl` calls it).
//!
//! One [`FunctionWriter`] prints one function (or entry point `main`, or one
//! module-scope constant expression). Its parts:
//!
//! - this file: the writer, signatures, and GLSL's side of the shared
//!   statement skeleton (`back::text`: function state, baking policy,
//!   blocks, loops, switch): locals, returns, barriers, stores, atomics;
//! - `expr`: expressions, pointers (lvalue texts with their buffer
//!   [`Repr`]), literals, casts and operators with WGSL's defined behaviours;
//! - `image`: sampling, loads, stores and queries of textures;
//! - `math`: the builtin functions (`MathFunction`) and their polyfills.
//!
//! Expression baking (`back::text`): an expression is printed inline where
//! it is used, unless WGSL names it (`let`), it is used more than once, or
//! it must be evaluated at its `Emit` point (loads, image reads,
//! derivatives, call and atomic results). A baked expression becomes a local `T _eN = ...;`
//! (`T name_eN = ...;` for a WGSL `let`). Pointers, textures and samplers are
//! never baked: GLSL has no pointers, so a pointer is re-printed as its
//! lvalue text at every use (its indices are side-effect free: any load or
//! call in them was baked before).

mod expr;
mod image;
mod math;

use super::buffers::{words, Repr, Way};
use super::{decl, types, Ctx, Needs};
use crate::back::common::push_parts;
use crate::back::text::{
    is_buffer_space, is_pointer, Atomic, Body, Expr, FunctionState, InfixRules, Prec, Reuse, Texel,
    TextWriter, Unsupported,
};
use naga::proc::NameKey;
use naga::Handle;
use std::borrow::Cow;

/// The complete definition of function `handle` (signature and body).
/// Entry points are written by [`write_entry_main`].
pub fn write_function(ctx: &Ctx<'_>, needs: &mut Needs, handle: Handle<naga::Function>) -> String {
    let func = &ctx.module.functions[handle];
    let info = &ctx.info[handle];
    let mut w = FunctionWriter::new(ctx, needs, Body::Function(handle, func, info));
    w.st.mark_function(ctx.parsed, func.name.as_deref().unwrap_or_default());
    w.signature(handle, func);
    w.st.out.push_str(" {\n");
    w.body(&func.body);
    w.st.out
}

/// `void main() { ... }` for entry point `index`: the prologue from
/// [`decl::push_entry_prologue`], the body, and every `return` replaced by
/// [`decl::push_entry_return`] followed by `return;`.
pub fn write_entry_main(ctx: &Ctx<'_>, needs: &mut Needs, index: usize) -> String {
    let Some(ep) = ctx.module.entry_points.get(index) else {
        return String::new();
    };
    let info = ctx.info.get_entry_point(index);
    let mut w = FunctionWriter::new(ctx, needs, Body::Entry(index, &ep.function, info));
    w.st.mark_function(ctx.parsed, &ep.name);
    w.st.out.push_str("void main() {\n");
    decl::push_entry_prologue(ctx, w.needs, index, &mut w.st.out);
    w.body(&ep.function.body);
    w.st.out
}

/// A module-scope constant expression (`module.global_expressions`) as a
/// GLSL constant expression: for constants, override defaults and global
/// initializers.
pub fn const_expression(ctx: &Ctx<'_>, needs: &mut Needs, h: Expr) -> String {
    crate::back::text::const_text(FunctionWriter::new(ctx, needs, Body::Module), h)
}

/// Prints one function body (or one constant expression): the shared
/// [`FunctionState`] and statement skeleton ([`TextWriter`]) with GLSL's
/// syntax.
struct FunctionWriter<'a, 'c> {
    ctx: &'a Ctx<'c>,
    needs: &'a mut Needs,
    st: FunctionState<'a>,
}

impl<'a, 'c> FunctionWriter<'a, 'c> {
    fn new(ctx: &'a Ctx<'c>, needs: &'a mut Needs, body: Body<'a>) -> Self {
        let mut st = FunctionState::new(ctx, body, Reuse::default());
        // A guess at the body's size, so that the text rarely regrows.
        if body.function().is_some() {
            st.out.reserve(256 + 32 * st.exprs.len());
        }
        FunctionWriter { ctx, needs, st }
    }

    fn indent_text(&self) -> String {
        "    ".repeat(self.st.indent)
    }

    // ---- signature ------------------------------------------------------

    fn signature(&mut self, handle: Handle<naga::Function>, func: &naga::Function) {
        let ret = match func.result {
            Some(ref r) => types::type_name(self.ctx, self.needs, r.ty),
            None => "void",
        };
        let ctx = self.ctx;
        let name = ctx.name(NameKey::Function(handle));
        push_parts(&mut self.st.out, &[ret, " ", name, "("]);
        for (i, arg) in func.arguments.iter().enumerate() {
            let name = ctx.name(NameKey::FunctionArgument(handle, i as u32));
            let span = ctx.module.functions.get_span(handle);
            let param = self.parameter(arg.ty, name, span);
            let sep = if i > 0 { ", " } else { "" };
            push_parts(&mut self.st.out, &[sep, &param, " ", name]);
        }
        self.st.out.push(')');
    }

    /// One parameter declaration up to its name (`T`, `inout T`, ...):
    /// pointers become `inout`, textures and samplers are parameters only
    /// in Vulkan GLSL (storage textures with their memory qualifier).
    fn parameter(&mut self, ty: Handle<naga::Type>, name: &str, span: naga::Span) -> Cow<'a, str> {
        use naga::TypeInner as Ti;
        let ctx = self.ctx;
        let (what, why, memory) = match ctx.module.types[ty].inner {
            Ti::Pointer { base, space } => {
                if is_buffer_space(space) {
                    self.error_at(
                        "a pointer into a buffer cannot be a GLSL function parameter",
                        span,
                    );
                }
                return ["inout ", types::type_name(ctx, self.needs, base)]
                    .concat()
                    .into();
            }
            Ti::Image { class, .. } => (
                "texture",
                "OpenGL GLSL combines textures with samplers at module scope, so a texture cannot be passed to a function",
                match class {
                    naga::ImageClass::Storage { access, .. } => types::memory_qualifier(access),
                    _ => "",
                },
            ),
            Ti::Sampler { .. } => ("sampler", "OpenGL GLSL has no separate samplers", ""),
            _ => return Cow::Borrowed(types::type_name(ctx, self.needs, ty)),
        };
        if !ctx.dialect().is_vulkan() {
            // The file is not written: its spelling below does not matter.
            self.error_at(
                format!(
                    "{what} parameter `{name}`: {why}; inline the function or use --glsl vulkan450"
                ),
                span,
            );
        }
        let t = types::type_name(ctx, self.needs, ty);
        match memory {
            "" => Cow::Borrowed(t),
            _ => [memory, t].concat().into(),
        }
    }
}

impl<'a> TextWriter<'a> for FunctionWriter<'a, '_> {
    fn state(&self) -> &FunctionState<'a> {
        &self.st
    }

    fn state_mut(&mut self) -> &mut FunctionState<'a> {
        &mut self.st
    }

    fn push_itself(&mut self, out: &mut String, h: Handle<naga::Expression>) -> Prec {
        self.write_expr_into(h, out)
    }

    fn push_call_argument(&mut self, out: &mut String, a: Handle<naga::Expression>) {
        if !is_pointer(self.st.ty(a)) {
            self.push_bare(out, a);
            return;
        }
        if self.words_place(a).is_some() {
            self.error(
                "a pointer into this buffer cannot be passed to a function in GLSL: the buffer is declared as its 32-bit words (because it holds f16 outside Vulkan, or because no GLSL block can hold its layout); pass the value instead, or load it in the caller",
                a,
            );
            return;
        }
        if self.place_into(a, out) != Repr::Plain {
            self.error(
                "a pointer into a buffer member stored in split or padded form cannot be passed to a function in GLSL",
                a,
            );
        }
    }

    /// The spelling of the type of `h`.
    fn type_of(&mut self, h: Handle<naga::Expression>) -> Cow<'a, str> {
        match self.st.ty_handle(h) {
            Some(t) => Cow::Borrowed(types::type_name(self.ctx, self.needs, t)),
            None => types::inner_name(self.ctx, self.needs, self.st.ty(h)),
        }
    }

    const INFIX: InfixRules = InfixRules {
        vector_comparisons: false,
        matrix_star: true,
        float_modulo: false,
    };

    fn push_access_base(&mut self, out: &mut String, base: Handle<naga::Expression>) -> Prec {
        self.push_value(out, base)
    }

    /// The pointer to the array being indexed.
    type IndexPlace = Handle<naga::Expression>;

    const KNOWN_INDEX_SUFFIX: &'static str = "";

    fn push_index_value(&mut self, out: &mut String, index: Handle<naga::Expression>, _: bool) {
        // Inside brackets, `min(` or `uint(`: bare either way.
        self.push_bare(out, index);
    }

    fn push_runtime_length(&mut self, out: &mut String, place: &Handle<naga::Expression>) {
        // A runtime-sized array is a buffer's last member: its place is a
        // global or a member of one, written again as `.length()`'s operand.
        out.push_str("uint(");
        self.place_into(*place, out);
        out.push_str(".length())");
    }

    fn bake_qualifier(&self) -> &'static str {
        if self.ctx.dialect().is_es() {
            ""
        } else {
            "const "
        }
    }

    /// `gl` would make `gl_eN`, and GLSL reserves names with `__`.
    fn keeps_let_name(name: &str) -> bool {
        !name.ends_with('_')
            && !crate::back::glsl::has_double_underscore(name)
            && !name.starts_with("gl_")
            && name != "gl"
    }

    fn is_reusable(prec: Prec) -> bool {
        prec == Prec::Word
    }

    /// Declared with its initializer, zero-initialized without one (WGSL
    /// semantics).
    fn local(&mut self, key: NameKey, var: &naga::LocalVariable) {
        let ctx = self.ctx;
        let name = ctx.name(key);
        let ty = types::type_name(ctx, self.needs, var.ty);
        let mut init = self.st.take_buf();
        match var.init {
            Some(h) => {
                self.push_bare(&mut init, h);
            }
            None => types::zero_value_into(ctx, self.needs, var.ty, &mut init),
        }
        self.st.line_parts(&[ty, " ", name, " = ", &init, ";"]);
        self.st.give_buf(init);
    }

    fn diagnostic(&mut self, message: String, span: naga::Span) {
        let label = format!("not expressible in {}", self.ctx.dialect());
        self.needs
            .errors
            .push(super::error_at(message, span, label));
    }

    fn unsupported(&self, what: Unsupported) -> &'static str {
        match what {
            Unsupported::RayTracing => "ray tracing is not supported by the GLSL output",
            Unsupported::Subgroup => "subgroup operations are not supported by the GLSL output",
            Unsupported::Cooperative => "cooperative matrices are not supported by the GLSL output",
            Unsupported::Result => "this result is not supported by the GLSL output",
        }
    }

    /// The memory barriers of `barrier`, then `barrier();`.
    fn control_barrier(&mut self, barrier: naga::Barrier) {
        self.memory_barrier(barrier);
        self.st.line("barrier();");
    }

    fn memory_barrier(&mut self, barrier: naga::Barrier) {
        if barrier.contains(naga::Barrier::STORAGE) {
            self.st.line("memoryBarrierBuffer();");
        }
        if barrier.contains(naga::Barrier::WORK_GROUP) {
            self.st.line("memoryBarrierShared();");
        }
        if barrier.contains(naga::Barrier::TEXTURE) {
            self.st.line("memoryBarrierImage();");
        }
        if barrier.contains(naga::Barrier::SUB_GROUP) {
            self.needs.extension("GL_KHR_shader_subgroup_basic");
            self.st.line("subgroupMemoryBarrier();");
        }
    }

    fn push_loaded(&mut self, out: &mut String, pointer: Handle<naga::Expression>) -> Prec {
        self.load_into(pointer, out)
    }

    fn texel_statement(&mut self, at: Texel, value: Expr, fun: Option<&naga::AtomicFunction>) {
        let (image, coordinate, array_index) = (at.image, at.coordinate, at.array_index);
        let (dim, _, class) = self.image_kind(image);
        let img = self.expr(image);
        let (c, _) = self.texel_coords(dim, coordinate, array_index);
        let Some(fun) = fun else {
            let swizzle = match class {
                naga::ImageClass::Storage { format, .. } => types::texel_swizzle(format),
                _ => None,
            };
            let v = match swizzle {
                // `expr` keeps the value's own parentheses, so the swizzle
                // applies to all of it.
                Some(swizzle) => self.expr(value) + swizzle,
                None => self.arg(value),
            };
            return self
                .st
                .line_fmt(format_args!("imageStore({img}, {c}, {v});"));
        };
        let v = self.arg(value);
        // The buffer atomics' operation names (`imageAtomic<Op>`).
        let call = match *fun {
            naga::AtomicFunction::Exchange { compare: Some(cmp) } => {
                let cmp = self.arg(cmp);
                format!("imageAtomicCompSwap({img}, {c}, {cmp}, {v})")
            }
            _ => match crate::back::common::atomic_op(fun) {
                (op, true) => format!("imageAtomic{op}({img}, {c}, -({v}))"),
                (op, false) => format!("imageAtomic{op}({img}, {c}, {v})"),
            },
        };
        self.st.line_fmt(format_args!("{call};"));
    }

    fn r#return(&mut self, value: Option<Handle<naga::Expression>>) {
        match (self.st.body, value) {
            (Body::Entry(index, ..), Some(v)) => {
                let name = self.named_value(v);
                let indent = self.indent_text();
                let out = &mut self.st.out;
                decl::push_entry_return(self.ctx, self.needs, index, &name, &indent, out);
                self.st.line("return;");
            }
            (_, Some(v)) => self.line_with("return ", v, ";"),
            (_, None) => self.st.line("return;"),
        }
    }

    fn store(&mut self, pointer: Handle<naga::Expression>, value: Handle<naga::Expression>) {
        if let Some(place) = self.words_place(pointer) {
            let ctx = self.ctx;
            let Some(block) = ctx.plan.words.get(place.buffer) else {
                return;
            };
            // The stores may evaluate the value several times.
            let v = self.named_value(value);
            let indent = self.indent_text();
            let ty = self.st.pointee(pointer).0;
            let out = &mut self.st.out;
            match ty {
                Some(ty) => words::store(ctx, block, &place, ty, &v, &indent, 0, out),
                // A component of a vector: its scalar type is the layout's.
                None => words::store_leaf(block, &place, &v, &indent, out),
            }
            return;
        }
        let mut place = self.st.take_buf();
        let repr = self.place_into(pointer, &mut place);
        if repr == Repr::Plain {
            self.assign(&place, value);
            self.st.give_buf(place);
            return;
        }
        let Some(ty) = self.st.pointee(pointer).0 else {
            self.error(
                "internal: a store through a split buffer pointer without a type",
                pointer,
            );
            self.st.give_buf(place);
            return;
        };
        // `Plan::copy` may evaluate the value several times.
        let v = self.named_value(value);
        let (ctx, indent) = (self.ctx, self.indent_text());
        let out = &mut self.st.out;
        ctx.plan
            .copy(ctx, Way::Store, &place, &repr, ty, &v, &indent, 0, out);
        self.st.give_buf(place);
    }

    /// The place text, its repr and the value type of a load from buffer
    /// storage that [`Plan::rebuilt`](super::buffers::Plan::rebuilt) says
    /// is rebuilt through a helper.
    type Rebuild = (String, Repr, Handle<naga::Type>);

    fn rebuilds(&mut self, h: Handle<naga::Expression>) -> Option<Self::Rebuild> {
        let naga::Expression::Load { pointer } = self.st.exprs[h] else {
            return None;
        };
        // Only structs and arrays in buffers are rebuilt; a words buffer
        // has its own loads (by offset, no storage copied).
        let in_buffer = match *self.st.ty(pointer) {
            naga::TypeInner::Pointer { space, .. } => is_buffer_space(space),
            _ => false,
        };
        let ty = self.st.pointee(pointer).0?;
        if !in_buffer
            || !matches!(
                self.ctx.module.types[ty].inner,
                naga::TypeInner::Struct { .. } | naga::TypeInner::Array { .. }
            )
            || self.words_place(pointer).is_some()
        {
            return None;
        }
        let mut place = String::new();
        let repr = self.place_into(pointer, &mut place);
        self.ctx.plan.rebuilt(&repr).then_some((place, repr, ty))
    }

    fn write_rebuild(&mut self, (place, repr, ty): Self::Rebuild, name: &str) {
        let (ctx, indent) = (self.ctx, self.indent_text());
        let out = &mut self.st.out;
        ctx.plan
            .copy(ctx, Way::Load, &place, &repr, ty, name, &indent, 0, out);
    }

    fn atomic(&mut self, a: Atomic<'_>) {
        let (pointer, fun, value, result) = (a.pointer, a.fun, a.value, a.result);
        // An `atomic<i32>` in a words buffer is its word's bits: two's
        // complement makes every operation but min and max the same on
        // `uint`, so the operands and the result are converted.
        let mut signed_word = false;
        let (place, repr) = match self.words_place(pointer) {
            Some(at) => {
                signed_word = matches!(
                    at.layout.kind,
                    crate::layout::LayoutKind::Atomic(crate::layout::Scalar {
                        kind: crate::layout::ScalarKind::Sint,
                        ..
                    })
                );
                let word = self
                    .ctx
                    .plan
                    .words
                    .get(at.buffer)
                    .map(|b| b.word(&at.offset));
                (word.unwrap_or_default(), Repr::Plain)
            }
            None => {
                let mut text = String::with_capacity(32);
                let repr = self.place_into(pointer, &mut text);
                (text, repr)
            }
        };
        if repr != Repr::Plain {
            self.error("internal: an atomic behind a split buffer member", pointer);
        }
        if self
            .st
            .pointee(pointer)
            .1
            .scalar()
            .is_some_and(|s| s.width == 8)
        {
            self.needs.extension("GL_EXT_shader_atomic_int64");
        }
        if signed_word && matches!(*fun, naga::AtomicFunction::Min | naga::AtomicFunction::Max) {
            return self.signed_word_min_max(&place, *fun, value, result);
        }
        // `[int(]atomic<Op>(place, [cmp, ]value)[)]`, the operands of a
        // signed word as its bits.
        let (to_word, from_word, close) = match signed_word {
            true => ("uint(", "int(", ")"),
            false => ("", "", ""),
        };
        let mut v = self.st.take_buf();
        v.push_str(to_word);
        self.push_bare(&mut v, value);
        v.push_str(close);
        let compare = match *fun {
            naga::AtomicFunction::Exchange { compare: Some(c) } => Some(self.arg(c)),
            _ => None,
        };
        let (op, negate) = match compare {
            Some(_) => ("CompSwap", false),
            None => crate::back::common::atomic_op(fun),
        };
        let (open, negated) = if negate { ("-(", ")") } else { ("", "") };
        let mut call = self.st.take_buf();
        push_parts(&mut call, &[from_word, "atomic", op, "(", &place, ", "]);
        if let Some(c) = &compare {
            push_parts(&mut call, &[to_word, c, close, ", "]);
        }
        push_parts(&mut call, &[open, &v, negated, ")", close]);
        self.st.give_buf(v);
        match (result, compare) {
            (Some(r), Some(c)) => {
                // naga's predeclared {old_value, exchanged} struct.
                let ty = self.type_of(r);
                let scalar = self.type_of(value);
                let old = self.st.temp("old");
                self.st.line_parts(&[&scalar, " ", &old, " = ", &call, ";"]);
                self.declare_result(r, &format!("{ty}({old}, {old} == {c})"));
            }
            (Some(r), None) => self.declare_result(r, &call),
            (None, _) => self.st.line_parts(&[&call, ";"]),
        }
        self.st.give_buf(call);
    }
}

impl FunctionWriter<'_, '_> {
    /// `atomicMin`/`atomicMax` of an `atomic<i32>` held in a `uint` word:
    /// the word compares unsigned, so the signed result is computed and
    /// swapped in with `atomicCompSwap` until no other invocation changed
    /// the word in between. The old value is the result, as in WGSL.
    fn signed_word_min_max(
        &mut self,
        word: &str,
        fun: naga::AtomicFunction,
        value: Handle<naga::Expression>,
        result: Option<Handle<naga::Expression>>,
    ) {
        let f = if matches!(fun, naga::AtomicFunction::Min) {
            "min"
        } else {
            "max"
        };
        let v = self.arg(value);
        let (cur, seen) = (self.st.temp("cur"), self.st.temp("seen"));
        self.st
            .line_fmt(format_args!("uint {cur} = atomicOr({word}, 0u);"));
        self.st.line_fmt(format_args!("while (true) {{"));
        self.st.indent += 1;
        self.st.line_fmt(format_args!(
            "uint {seen} = atomicCompSwap({word}, {cur}, uint({f}(int({cur}), {v})));"
        ));
        self.st
            .line_fmt(format_args!("if ({seen} == {cur}) {{ break; }}"));
        self.st.line_fmt(format_args!("{cur} = {seen};"));
        self.st.indent -= 1;
        self.st.line_fmt(format_args!("}}"));
        if let Some(r) = result {
            self.declare_result(r, &format!("int({cur})"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::expr::{f64_text, push_f32};
    use crate::back::text::push_i32;

    #[test]
    fn float_literals_round_trip() {
        let f32_text = |v| {
            let mut text = String::new();
            push_f32(&mut text, v, true);
            text
        };
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
        let mut operand = String::new();
        push_f32(&mut operand, -2.5, false);
        assert_eq!(operand, "-2.5");
        assert_eq!(f64_text(0.5), "0.5lf");
    }

    #[test]
    fn int_literals() {
        for (v, text) in [(5, "5"), (-5, "(-5)"), (i32::MIN, "(-2147483647 - 1)")] {
            let mut written = String::new();
            push_i32(&mut written, v);
            assert_eq!(written, text);
        }
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
