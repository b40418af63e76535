//! Buffers that hold f16 in the OpenGL dialects: blocks hold 16-bit
//! values only with GL_EXT_shader_16bit_storage, which OpenGL drivers do not
//! offer, so such a buffer is declared as its 32-bit words and every access
//! reads and writes the words at the contract's byte offsets, as the HLSL
//! writer does with byte-address buffers ([`crate::layout::realize::bytes`]
//! gives the steps):
//!
//! - storage: `buffer X_block { uint _s_words[]; } X;`, word `k` at byte `4k`;
//! - uniform: `uniform X_block { uvec4 _s_words[N]; } X;` (std140 gives a
//!   `uint` array a 16-byte stride), word `k` at `_s_words[k / 4][k % 4]`.
//!
//! An f16 is one half of its word (`unpackFloat2x16(w)[half]`); a vector of
//! f16 is 4-byte aligned, so its pairs are whole words. Writing half a word
//! goes through `atomicAnd`/`atomicOr`, so that the other half, which may be
//! another value, is never written. Values are rebuilt by helper functions
//! taking the byte offset (`_s_load_<instance>_...(uint o)`).

use super::{BlockKind, Index};
use crate::back::glsl::{Ctx, Needs};
use crate::back::text::component;
use crate::layout::realize::naga_scalar;
use crate::layout::{Layout, LayoutKind, Scalar, ScalarKind};
use naga::proc::NameKey;
use naga::Handle;
use std::fmt::Write as _;

/// A buffer global declared as its words.
#[derive(Clone, Debug)]
pub struct WordsBlock {
    pub global: Handle<naga::GlobalVariable>,
    /// The instance name: code refers to `<instance>._s_words`.
    pub instance: String,
    /// The block (interface) name.
    pub type_name: String,
    pub kind: BlockKind,
    /// The contract size; `None`: runtime-sized.
    pub size: Option<u64>,
    /// It holds an f16 somewhere (its reads and writes then need the f16
    /// extension's packing functions).
    pub f16: bool,
}

/// Whether the contract layout `l` holds a 16-bit float anywhere (struct
/// members through `contract`), `depth` levels down (0 at the top).
pub fn holds_f16(l: &Layout, contract: &crate::layout::LayoutModule, depth: usize) -> bool {
    if depth > contract.structs.len() + 64 {
        return false;
    }
    match &l.kind {
        LayoutKind::Scalar(s)
        | LayoutKind::Atomic(s)
        | LayoutKind::Vector { scalar: s, .. }
        | LayoutKind::Matrix { scalar: s, .. } => s.kind == ScalarKind::Float && s.width == 2,
        LayoutKind::Array { element, .. } => holds_f16(element, contract, depth + 1),
        LayoutKind::Struct(h) => contract.structs.get(h).is_some_and(|s| {
            s.members()
                .any(|m| holds_f16(&m.layout, contract, depth + 1))
        }),
    }
}

/// A byte offset into a words block, as data (shared with HLSL's
/// byte-address buffers): a constant plus `uint` terms, printed once.
pub type Offset<'a> = crate::back::offset::ByteOffset<'a>;

/// A pointer into a words block: the block's index in the plan's words,
/// the byte offset and the contract layout of what is there.
pub type Place<'a> = crate::back::offset::BytePlace<'a, usize>;

impl WordsBlock {
    /// The lvalue of the word holding byte `offset` (4-byte aligned words;
    /// the offset may point into either half).
    pub fn word(&self, offset: &Offset) -> String {
        let base = &self.instance;
        let uniform = !matches!(self.kind, BlockKind::Storage { .. });
        match (uniform, offset.terms.is_empty()) {
            (false, true) => format!("{base}._s_words[{}]", offset.constant / 4),
            (false, false) => format!("{base}._s_words[{} >> 2u]", offset.text()),
            (true, true) => format!(
                "{base}._s_words[{}].{}",
                offset.constant / 16,
                component((offset.constant / 4 % 4) as u32)
            ),
            (true, false) => {
                let o = offset.text();
                format!("{base}._s_words[{o} >> 4u][({o} >> 2u) & 3u]")
            }
        }
    }

    /// The block declaration, after `layout(` and the binding.
    pub fn write_declaration(&self, out: &mut String) {
        let (rules, words) = match self.kind {
            BlockKind::Storage { .. } => ("std430", "uint _s_words[]".to_string()),
            _ => {
                let n = crate::layout::realize::bytes::sixteen_byte_words(self.size);
                ("std140", format!("uvec4 _s_words[{n}]"))
            }
        };
        let _ = writeln!(
            out,
            "{rules}) {} {} {{\n    {words};\n}} {};",
            self.kind.storage(),
            self.type_name,
            self.instance
        );
    }

    /// The number of elements of the runtime-sized array at `offset` with
    /// element stride `stride` (the bound buffer's whole words).
    pub fn array_length(&self, offset: &Offset, stride: u64) -> String {
        let bytes = format!("uint({}._s_words.length()) * 4u", self.instance);
        let after = if offset.is_zero() {
            bytes
        } else {
            format!("{bytes} - {}", offset.text())
        };
        format!("(({after}) / {}u)", stride.max(1))
    }
}

/// `f16vec2` of the word at `offset`.
fn halves(block: &WordsBlock, offset: &Offset) -> String {
    format!("unpackFloat2x16({})", block.word(offset))
}

/// The scalar of `s` (32-bit, or f16) at `offset`.
fn load_scalar(block: &WordsBlock, offset: &Offset, s: Scalar) -> String {
    let word = block.word(offset);
    match (s.kind, s.width) {
        (ScalarKind::Float, 2) => {
            if offset.terms.is_empty() {
                let half = if offset.constant.is_multiple_of(4) {
                    "x"
                } else {
                    "y"
                };
                format!("{}.{half}", halves(block, offset))
            } else {
                format!("{}[({} >> 1u) & 1u]", halves(block, offset), offset.text())
            }
        }
        (ScalarKind::Float, _) => format!("uintBitsToFloat({word})"),
        (ScalarKind::Sint, _) => format!("int({word})"),
        _ => word,
    }
}

/// The vector of `n` components of `s` at `offset`.
fn load_vector(block: &WordsBlock, offset: &Offset, n: u8, s: Scalar) -> String {
    let spelled = super::vector_name(n, naga_scalar(s));
    if s.width == 2 {
        return match n {
            2 => halves(block, offset),
            // The pair at `offset`, then the one after it (`.x` of it for a vec3).
            _ => format!(
                "{spelled}({}, {}{})",
                halves(block, offset),
                halves(block, &offset.offset_by(4)),
                if n == 3 { ".x" } else { "" }
            ),
        };
    }
    let words: Vec<String> = (0..u64::from(n))
        .map(|k| block.word(&offset.offset_by(4 * k)))
        .collect();
    let bits = format!("uvec{n}({})", words.join(", "));
    match s.kind {
        ScalarKind::Float => format!("uintBitsToFloat({bits})"),
        ScalarKind::Sint => format!("ivec{n}({bits})"),
        _ => bits,
    }
}

/// An rvalue of value type `ty` read from `place` of `block`. Arrays and
/// structs are read by helper functions (one per block and type), which
/// need the value type: `None` when it is not known.
pub fn load(
    ctx: &Ctx<'_>,
    needs: &mut Needs,
    block: &WordsBlock,
    place: &Place,
    ty: Option<Handle<naga::Type>>,
) -> Option<String> {
    if block.f16 {
        needs.extension(crate::back::glsl::types::F16_EXTENSION);
    }
    let offset = &place.offset;
    Some(match place.layout.kind {
        LayoutKind::Scalar(s) | LayoutKind::Atomic(s) => load_scalar(block, offset, s),
        LayoutKind::Vector { size, scalar } => load_vector(block, offset, size, scalar),
        LayoutKind::Matrix {
            columns,
            rows,
            scalar,
            ..
        } => {
            let cols: Vec<String> = crate::layout::realize::bytes::matrix_columns(&place.layout)
                .into_iter()
                .flat_map(|(_, at)| at)
                .map(|at| load_vector(block, &offset.offset_by(at), rows, scalar))
                .collect();
            let spelled = super::matrix_name(columns, rows, naga_scalar(scalar));
            format!("{spelled}({})", cols.join(", "))
        }
        LayoutKind::Array { count, .. } => {
            let ty = ty?;
            let (naga::TypeInner::Array { base: elem_ty, .. }, Some(n)) =
                (&ctx.module.types[ty].inner, count)
            else {
                // Runtime-sized arrays cannot be loaded whole.
                return None;
            };
            load_helper(ctx, needs, block, place, ty, |needs, at, vbase, vdims| {
                let item = at.element(Index::Dynamic("i"));
                let value = load(ctx, needs, block, &item, Some(*elem_ty))?;
                Some(format!(
                    "    {vbase} r{vdims};\n    for (uint i = 0u; i < {n}u; ++i) {{\n        r[i] = {value};\n    }}\n    return r;\n"
                ))
            })?
        }
        LayoutKind::Struct(_) => {
            let ty = ty?;
            let naga::TypeInner::Struct { ref members, .. } = ctx.module.types[ty].inner else {
                return None;
            };
            load_helper(ctx, needs, block, place, ty, |needs, at, vbase, _| {
                let mut args = Vec::with_capacity(members.len());
                for (i, m) in members.iter().enumerate() {
                    let member = at.clone().member(ctx.contract, i as u32);
                    args.push(load(ctx, needs, block, &member, Some(m.ty))?);
                }
                Some(format!("    return {vbase}({});\n", args.join(", ")))
            })?
        }
    })
}

/// The call of the helper that loads the array or struct of value type
/// `ty` at `place` of `block`, defined first (once per name) around the
/// body `body` writes from the place at the helper's offset `o` and the
/// value type's spelling (element, dims); `None` where the body cannot be
/// written.
fn load_helper<'p>(
    ctx: &Ctx<'_>,
    needs: &mut Needs,
    block: &WordsBlock,
    place: &Place<'p>,
    ty: Handle<naga::Type>,
    body: impl FnOnce(&mut Needs, Place<'p>, &str, &str) -> Option<String>,
) -> Option<String> {
    let (vbase, vdims) = super::value_name(ctx, ty);
    let helper = helper_name(block, "load", &place.layout, &vbase);
    if !needs.helpers.contains_key(&helper) {
        let at = Place {
            buffer: place.buffer,
            offset: Offset::base("o"),
            layout: place.layout.clone(),
        };
        let body = body(needs, at, &vbase, &vdims)?;
        let text = format!("{vbase}{vdims} {helper}(uint o) {{\n{body}}}\n");
        needs.helper(&helper, || text);
    }
    // `helper(offset)`.
    let mut call = helper;
    call.push('(');
    place.offset.push_bare_to(&mut call);
    call.push(')');
    Some(call)
}

/// `_s_<what>_<instance>_<type>`: one helper per block, direction and
/// stored type (`layout`, whose element is spelled `vbase`): an array's
/// counts follow the element (`S_a4_a2`), then its strides, so that two
/// layouts of one value type (an array with two strides) get distinct
/// names.
fn helper_name(block: &WordsBlock, what: &str, layout: &Layout, vbase: &str) -> String {
    let mut name = format!("_s_{what}_{}_{vbase}", block.instance);
    let mut strides = String::new();
    let mut l = layout;
    while let LayoutKind::Array {
        element,
        stride,
        count,
    } = &l.kind
    {
        name.push_str("_a");
        if let Some(n) = count {
            let _ = write!(name, "{n}");
        }
        let _ = write!(strides, "_s{stride}");
        l = element;
    }
    name.push_str(&strides);
    super::collapse_underscores(name)
}

/// Statements writing half a word: the f16 `value` into the half of the
/// word at `offset` that `offset` points to, the other half untouched.
fn store_half(block: &WordsBlock, offset: &Offset, value: &str, indent: &str, out: &mut String) {
    let word = block.word(offset);
    let bits = format!("(packFloat2x16(f16vec2({value}, float16_t(0.0))))");
    if offset.terms.is_empty() {
        let (keep, shift) = if offset.constant.is_multiple_of(4) {
            ("0xFFFF0000u", "")
        } else {
            ("0x0000FFFFu", " << 16u")
        };
        let _ = writeln!(out, "{indent}atomicAnd({word}, {keep});");
        let _ = writeln!(out, "{indent}atomicOr({word}, {bits}{shift});");
    } else {
        let shift = format!("(({} & 2u) * 8u)", offset.text());
        let _ = writeln!(out, "{indent}atomicAnd({word}, ~(0xFFFFu << {shift}));");
        let _ = writeln!(out, "{indent}atomicOr({word}, {bits} << {shift});");
    }
}

/// The bits of the 32-bit scalar `value` of `s` as a `uint`.
fn bits32(value: &str, s: Scalar) -> String {
    match s.kind {
        ScalarKind::Float => format!("floatBitsToUint({value})"),
        ScalarKind::Sint => format!("uint({value})"),
        _ => value.to_string(),
    }
}

/// Statements storing the vector `v` (`n` components of `s`) at `offset`.
fn store_vector(
    block: &WordsBlock,
    offset: &Offset,
    (n, s): (u8, Scalar),
    v: &str,
    indent: &str,
    out: &mut String,
) {
    if s.width == 2 {
        let _ = writeln!(
            out,
            "{indent}{} = packFloat2x16({v}.xy);",
            block.word(offset)
        );
        match n {
            3 => store_half(block, &offset.offset_by(4), &format!("{v}.z"), indent, out),
            4 => {
                let _ = writeln!(
                    out,
                    "{indent}{} = packFloat2x16({v}.zw);",
                    block.word(&offset.offset_by(4))
                );
            }
            _ => {}
        }
        return;
    }
    for k in 0..n {
        let c = format!("{v}.{}", component(u32::from(k)));
        let _ = writeln!(
            out,
            "{indent}{} = {};",
            block.word(&offset.offset_by(4 * u64::from(k))),
            bits32(&c, s)
        );
    }
}

/// Statements storing the scalar or vector `value` at `place`, whose
/// layout says its type (a component of a vector has no naga type handle).
pub fn store_leaf(block: &WordsBlock, place: &Place, value: &str, indent: &str, out: &mut String) {
    match place.layout.kind {
        LayoutKind::Scalar(s) | LayoutKind::Atomic(s) if s.width == 2 => {
            store_half(block, &place.offset, value, indent, out);
        }
        LayoutKind::Scalar(s) | LayoutKind::Atomic(s) => {
            let word = block.word(&place.offset);
            let _ = writeln!(out, "{indent}{word} = {};", bits32(value, s));
        }
        LayoutKind::Vector { size, scalar } => {
            store_vector(block, &place.offset, (size, scalar), value, indent, out);
        }
        _ => {}
    }
}

/// Statements (each line starting with `indent`) storing `value` (a name or
/// other side-effect-free expression, evaluated possibly several times) of
/// type `ty` at `place` of the storage block `block`, value by value, so
/// that no byte outside the values is written.
#[allow(clippy::too_many_arguments)]
pub fn store(
    ctx: &Ctx<'_>,
    block: &WordsBlock,
    place: &Place,
    ty: Handle<naga::Type>,
    value: &str,
    indent: &str,
    depth: usize,
    out: &mut String,
) {
    match place.layout.kind {
        LayoutKind::Scalar(_) | LayoutKind::Atomic(_) | LayoutKind::Vector { .. } => {
            store_leaf(block, place, value, indent, out);
        }
        LayoutKind::Matrix { columns, .. } => {
            for j in 0..u32::from(columns) {
                let column = place.clone().element(Index::Constant(j));
                store_leaf(block, &column, &format!("{value}[{j}]"), indent, out);
            }
        }
        LayoutKind::Array { count: Some(n), .. } => {
            let naga::TypeInner::Array { base: elem_ty, .. } = ctx.module.types[ty].inner else {
                return;
            };
            let i = format!("_s_i{depth}");
            let _ = writeln!(out, "{indent}for (uint {i} = 0u; {i} < {n}u; ++{i}) {{");
            let item = place.clone().element(Index::Dynamic(&i));
            let v = format!("{value}[{i}]");
            let deeper = format!("{indent}    ");
            store(ctx, block, &item, elem_ty, &v, &deeper, depth + 1, out);
            let _ = writeln!(out, "{indent}}}");
        }
        LayoutKind::Array { count: None, .. } => {}
        LayoutKind::Struct(_) => {
            let naga::TypeInner::Struct { ref members, .. } = ctx.module.types[ty].inner else {
                return;
            };
            for (i, m) in members.iter().enumerate() {
                let field = format!(
                    "{}.{}",
                    value,
                    ctx.name(NameKey::StructMember(ty, i as u32))
                );
                let at = place.clone().member(ctx.contract, i as u32);
                store(ctx, block, &at, m.ty, &field, indent, depth, out);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn block(kind: BlockKind) -> WordsBlock {
        WordsBlock {
            global: {
                let mut arena = naga::Arena::new();
                arena.append(
                    naga::GlobalVariable {
                        name: None,
                        space: naga::AddressSpace::Private,
                        binding: None,
                        ty: naga::UniqueArena::new().insert(
                            naga::Type {
                                name: None,
                                inner: naga::TypeInner::Scalar(naga::Scalar::U32),
                            },
                            naga::Span::default(),
                        ),
                        init: None,
                        memory_decorations: Default::default(),
                    },
                    naga::Span::default(),
                )
            },
            instance: "b".into(),
            type_name: "b_block".into(),
            kind,
            size: Some(40),
            f16: true,
        }
    }

    const F16: Scalar = Scalar {
        kind: ScalarKind::Float,
        width: 2,
    };

    #[test]
    fn words_and_halves_of_constant_offsets() {
        let storage = block(BlockKind::Storage { read_only: false });
        let uniform = block(BlockKind::Uniform);
        let at = Offset::constant;
        // Storage: word k of byte 4k; uniform: uvec4 k / 4, component k % 4.
        assert_eq!(storage.word(&at(0)), "b._s_words[0]");
        assert_eq!(storage.word(&at(22)), "b._s_words[5]");
        assert_eq!(uniform.word(&at(22)), "b._s_words[1].y");
        assert_eq!(uniform.word(&at(36)), "b._s_words[2].y");
        // An f16 at byte 2 is the high half of word 0; at 4, the low half of word 1.
        assert_eq!(
            load_scalar(&storage, &at(2), F16),
            "unpackFloat2x16(b._s_words[0]).y"
        );
        assert_eq!(
            load_scalar(&storage, &at(4), F16),
            "unpackFloat2x16(b._s_words[1]).x"
        );
        // vec3<f16> at 8: xy the word at 8, z the low half of the word at 12.
        assert_eq!(
            load_vector(&storage, &at(8), 3, F16),
            "f16vec3(unpackFloat2x16(b._s_words[2]), unpackFloat2x16(b._s_words[3]).x)"
        );
        let mut out = String::new();
        store_half(&storage, &at(6), "h", "", &mut out);
        assert_eq!(
            out,
            "atomicAnd(b._s_words[1], 0x0000FFFFu);\natomicOr(b._s_words[1], (packFloat2x16(f16vec2(h, float16_t(0.0)))) << 16u);\n"
        );
        let mut out = String::new();
        store_vector(&storage, &at(8), (3, F16), "v", "", &mut out);
        assert_eq!(
            out,
            "b._s_words[2] = packFloat2x16(v.xy);\natomicAnd(b._s_words[3], 0xFFFF0000u);\natomicOr(b._s_words[3], (packFloat2x16(f16vec2(v.z, float16_t(0.0)))));\n"
        );
    }

    #[test]
    fn words_and_halves_of_dynamic_offsets() {
        let storage = block(BlockKind::Storage { read_only: false });
        let uniform = block(BlockKind::Uniform);
        let at = Offset::constant(2).plus_scaled(4, "i");
        assert_eq!(storage.word(&at), "b._s_words[(2u + 4u * i) >> 2u]");
        assert_eq!(
            uniform.word(&at),
            "b._s_words[(2u + 4u * i) >> 4u][((2u + 4u * i) >> 2u) & 3u]"
        );
        // The half is bit 1 of the byte offset.
        assert_eq!(
            load_scalar(&storage, &at, F16),
            "unpackFloat2x16(b._s_words[(2u + 4u * i) >> 2u])[((2u + 4u * i) >> 1u) & 1u]"
        );
        let mut out = String::new();
        store_half(&storage, &at, "h", "", &mut out);
        assert_eq!(
            out,
            "atomicAnd(b._s_words[(2u + 4u * i) >> 2u], ~(0xFFFFu << (((2u + 4u * i) & 2u) * 8u)));\natomicOr(b._s_words[(2u + 4u * i) >> 2u], (packFloat2x16(f16vec2(h, float16_t(0.0)))) << (((2u + 4u * i) & 2u) * 8u));\n"
        );
        assert_eq!(
            storage.array_length(&Offset::constant(16), 2),
            "((uint(b._s_words.length()) * 4u - 16u) / 2u)"
        );
    }

    #[test]
    fn declarations() {
        let mut out = String::from("layout(binding = 0, ");
        block(BlockKind::Uniform).write_declaration(&mut out);
        assert_eq!(
            out,
            "layout(binding = 0, std140) uniform b_block {\n    uvec4 _s_words[3];\n} b;\n"
        );
        let mut out = String::from("layout(binding = 1, ");
        block(BlockKind::Storage { read_only: true }).write_declaration(&mut out);
        assert_eq!(
            out,
            "layout(binding = 1, std430) readonly buffer b_block {\n    uint _s_words[];\n} b;\n"
        );
    }
}
