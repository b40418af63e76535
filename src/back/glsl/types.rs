//! GLSL spellings of value types, and the value struct declarations.
//!
//! INTERFACE (owned by the module part; `func` and `buffers` call it).
//!
//! Extensions: `f16` adds `GL_EXT_shader_explicit_arithmetic_types_float16`
//! (glslang then also accepts `float16_t` in buffer blocks; `buffers` adds
//! `GL_EXT_shader_16bit_storage` itself where a driver needs it), 64-bit
//! integers add `GL_ARB_gpu_shader_int64` (accepted by glslang for Vulkan
//! and OpenGL alike), 16-bit integers
//! `GL_EXT_shader_explicit_arithmetic_types_int16`. `f64` is core in every
//! desktop dialect; ES has no `double` (`decl` reports it).

use super::{Ctx, Dialect, Needs};
use crate::back::common::{push_parts, DeclPart, NamedStructs};
use naga::{Handle, ImageClass, ImageDimension, ScalarKind, StorageFormat, TypeInner};
use std::borrow::Cow;
use std::cell::OnceCell;

/// The extension that `float16_t` needs.
pub const F16_EXTENSION: &str = "GL_EXT_shader_explicit_arithmetic_types_float16";
/// The extension that `int64_t`/`uint64_t` need.
pub const INT64_EXTENSION: &str = "GL_ARB_gpu_shader_int64";
/// The extension that `int16_t`/`uint16_t` need.
pub const INT16_EXTENSION: &str = "GL_EXT_shader_explicit_arithmetic_types_int16";

/// The GLSL spelling of scalar `s` (`float`, `int`, `uint`, `bool`,
/// `float16_t`, `double`, `int64_t`, ...), adding the extension it needs.
pub fn scalar(needs: &mut Needs, s: naga::Scalar) -> &'static str {
    scalar_extension(needs, s);
    scalar_spelling(s)
}

/// Record the extension the arithmetic types of `s` need, if any.
pub fn scalar_extension(needs: &mut Needs, s: naga::Scalar) {
    needs.extension(match (s.kind, s.width) {
        (ScalarKind::Float, 2) => F16_EXTENSION,
        (ScalarKind::Sint | ScalarKind::Uint, 8) => INT64_EXTENSION,
        (ScalarKind::Sint | ScalarKind::Uint, 2) => INT16_EXTENSION,
        _ => return,
    });
}

/// [`scalar`]'s spelling alone, for callers that record extensions
/// themselves.
pub fn scalar_spelling(s: naga::Scalar) -> &'static str {
    SPELLINGS[scalar_row(s)].0
}

/// The prefix of vector and matrix names for `s` (`""`, `i`, `u`, `b`, `d`,
/// `f16`, `i64`, ...).
fn vector_prefix(s: naga::Scalar) -> &'static str {
    SPELLINGS[scalar_row(s)].1
}

/// The row of [`SPELLINGS`] for scalar `s` (abstract numbers are spelled
/// as `float` and `int`).
fn scalar_row(s: naga::Scalar) -> usize {
    match (s.kind, s.width) {
        (ScalarKind::Bool, _) => 1,
        (ScalarKind::Float, 8) => 2,
        (ScalarKind::Float, 2) => 3,
        (ScalarKind::Float | ScalarKind::AbstractFloat, _) => 0,
        (ScalarKind::Sint, 8) => 4,
        (ScalarKind::Uint, 8) => 5,
        (ScalarKind::Sint, 2) => 6,
        (ScalarKind::Uint, 2) => 7,
        (ScalarKind::Sint | ScalarKind::AbstractInt, _) => 8,
        (ScalarKind::Uint, _) => 9,
    }
}

/// Every scalar's spellings (see [`scalar_row`]): the scalar, the prefix
/// of its vector and matrix names, its vectors of 2 to 4 components, and
/// its zero.
const SPELLINGS: [(&str, &str, [&str; 3], &str); 10] = [
    ("float", "", ["vec2", "vec3", "vec4"], "0.0"),
    ("bool", "b", ["bvec2", "bvec3", "bvec4"], "false"),
    ("double", "d", ["dvec2", "dvec3", "dvec4"], "0.0lf"),
    (
        "float16_t",
        "f16",
        ["f16vec2", "f16vec3", "f16vec4"],
        "float16_t(0)",
    ),
    (
        "int64_t",
        "i64",
        ["i64vec2", "i64vec3", "i64vec4"],
        "int64_t(0)",
    ),
    (
        "uint64_t",
        "u64",
        ["u64vec2", "u64vec3", "u64vec4"],
        "uint64_t(0)",
    ),
    (
        "int16_t",
        "i16",
        ["i16vec2", "i16vec3", "i16vec4"],
        "int16_t(0)",
    ),
    (
        "uint16_t",
        "u16",
        ["u16vec2", "u16vec3", "u16vec4"],
        "uint16_t(0)",
    ),
    ("int", "i", ["ivec2", "ivec3", "ivec4"], "0"),
    ("uint", "u", ["uvec2", "uvec3", "uvec4"], "0u"),
];

/// `vec3`, `ivec2`, `f16vec4`, `bvec2`, ...
pub fn vector(needs: &mut Needs, size: naga::VectorSize, s: naga::Scalar) -> &'static str {
    scalar_extension(needs, s);
    SPELLINGS[scalar_row(s)].2[size as usize - 2]
}

/// [`vector`]'s spelling alone, for `n` components (2 to 4 in every
/// valid type; any other count is spelled out rather than clamped).
pub fn vector_spelling(n: u8, s: naga::Scalar) -> Cow<'static, str> {
    match n {
        2..=4 => Cow::Borrowed(SPELLINGS[scalar_row(s)].2[usize::from(n) - 2]),
        _ => Cow::Owned(format!("{}vec{n}", vector_prefix(s))),
    }
}

/// `mat3x2`, `f16mat4`, `dmat2x3`, ... (columns x rows).
pub fn matrix(
    needs: &mut Needs,
    columns: naga::VectorSize,
    rows: naga::VectorSize,
    s: naga::Scalar,
) -> Cow<'static, str> {
    scalar_extension(needs, s);
    matrix_spelling(columns as u8, rows as u8, s)
}

/// [`matrix`]'s spelling alone; square matrices are spelled `matN`, in
/// value types and buffer members alike.
pub fn matrix_spelling(columns: u8, rows: u8, s: naga::Scalar) -> Cow<'static, str> {
    /// The `f32` matrices, by columns and rows (2 to 4).
    const F32: [[&str; 3]; 3] = [
        ["mat2", "mat2x3", "mat2x4"],
        ["mat3x2", "mat3", "mat3x4"],
        ["mat4x2", "mat4x3", "mat4"],
    ];
    let prefix = vector_prefix(s);
    if prefix.is_empty() && (2..=4).contains(&columns) && (2..=4).contains(&rows) {
        return Cow::Borrowed(F32[usize::from(columns - 2)][usize::from(rows - 2)]);
    }
    if columns == rows {
        Cow::Owned(format!("{prefix}mat{columns}"))
    } else {
        Cow::Owned(format!("{prefix}mat{columns}x{rows}"))
    }
}

/// The GLSL spelling of value type `ty` usable in declarations, casts and
/// constructors: arrays as `T[N]` (outer dimension first, `T[]` for
/// runtime-sized), structs by their value-struct name.
///
/// Spelled once per module (see [`TypeNames`]); every use records the
/// extensions the type needs.
pub fn type_name<'c>(ctx: &'c Ctx<'_>, needs: &mut Needs, ty: Handle<naga::Type>) -> &'c str {
    let all = ctx.type_names.spelled.get_or_init(|| {
        let uses = ctx.type_names.named.uses(ctx.module);
        ctx.module
            .types
            .iter()
            .map(|(h, _)| {
                // What spelling records, kept for every use: at most the
                // extension of the type's scalar (through arrays and
                // pointers; a struct is spelled by its name alone).
                let mut own = Needs::default();
                let name = spell(ctx, &mut own, h);
                (name, own.extensions.first().copied(), uses.of(h))
            })
            .collect()
    });
    match all.get(ty.index()) {
        Some((name, extension, structs)) => {
            if let Some(e) = *extension {
                needs.extension(e);
            }
            if *structs != 0 {
                ctx.type_names.named.add(*structs);
            }
            name
        }
        None => "void",
    }
}

/// What the writer spells once per module, and the buffer structs the
/// file being written has named.
#[derive(Default)]
#[allow(clippy::type_complexity)]
pub struct TypeNames {
    /// Every type of the module, by handle index, with the extension it
    /// needs and the buffer structs it names; made on the first
    /// [`type_name`].
    spelled: OnceCell<Vec<(Cow<'static, str>, Option<&'static str>, u64)>>,
    /// The value struct declarations with their extensions and parts;
    /// made on the first [`struct_declarations`].
    structs: OnceCell<(String, Vec<&'static str>, Vec<DeclPart>)>,
    /// The buffer structs the file being written has named.
    pub named: NamedStructs,
}

/// The spelling of a scalar, vector or matrix type (an atomic is its
/// scalar, a value pointer its value), adding the extension it needs;
/// `None` for every other type.
pub fn numeric_name(needs: &mut Needs, inner: &TypeInner) -> Option<Cow<'static, str>> {
    Some(match *inner {
        TypeInner::Scalar(s)
        | TypeInner::Atomic(s)
        | TypeInner::ValuePointer {
            size: None,
            scalar: s,
            ..
        } => Cow::Borrowed(scalar(needs, s)),
        TypeInner::Vector { size, scalar: s }
        | TypeInner::ValuePointer {
            size: Some(size),
            scalar: s,
            ..
        } => Cow::Borrowed(vector(needs, size, s)),
        TypeInner::Matrix {
            columns,
            rows,
            scalar: s,
        } => matrix(needs, columns, rows, s),
        _ => return None,
    })
}

/// [`type_name`] without the cache (scalars, vectors and matrices keep
/// their static spellings: no copy).
fn spell(ctx: &Ctx<'_>, needs: &mut Needs, ty: Handle<naga::Type>) -> Cow<'static, str> {
    match ctx.module.types.get_handle(ty) {
        Ok(t) => match t.inner {
            TypeInner::Struct { .. } => Cow::Owned(ctx.name(naga::proc::NameKey::Type(ty)).into()),
            ref inner => numeric_name(needs, inner)
                .unwrap_or_else(|| Cow::Owned(spell_inner(ctx, needs, inner, false).into_owned())),
        },
        Err(_) => Cow::Borrowed("void"),
    }
}

/// Append the text between the brackets for an array size.
fn push_array_dim(ctx: &Ctx<'_>, size: naga::ArraySize, out: &mut String) {
    match size {
        naga::ArraySize::Constant(n) => super::push_decimal(out, u64::from(n.get())),
        // Overrides are baked before any writing when arrays are sized by
        // them; a specialization constant is the name otherwise.
        naga::ArraySize::Pending(o) => match crate::back::common::baked_length(ctx.module, o) {
            Some(n) => super::push_decimal(out, u64::from(n)),
            None => out.push_str(ctx.name(naga::proc::NameKey::Override(o))),
        },
        naga::ArraySize::Dynamic => {}
    }
}

/// [`type_name`] for a type given by value (an expression's resolved type).
pub fn inner_name<'c>(ctx: &'c Ctx<'_>, needs: &mut Needs, inner: &TypeInner) -> Cow<'c, str> {
    spell_inner(ctx, needs, inner, true)
}

/// [`inner_name`], naming the types it refers to through the cache of
/// [`type_name`] when `cached` (else by [`spell`], for filling the cache).
fn spell_inner<'c>(
    ctx: &'c Ctx<'_>,
    needs: &mut Needs,
    inner: &TypeInner,
    cached: bool,
) -> Cow<'c, str> {
    let name_of = |needs: &mut Needs, ty: Handle<naga::Type>| -> Cow<'c, str> {
        if cached {
            Cow::Borrowed(type_name(ctx, needs, ty))
        } else {
            spell(ctx, needs, ty)
        }
    };
    if let Some(name) = numeric_name(needs, inner) {
        return name;
    }
    match *inner {
        TypeInner::Pointer { base, .. } => name_of(needs, base),
        TypeInner::Array { .. } | TypeInner::BindingArray { .. } => {
            // GLSL lists the outer dimension first: `float[4][3]` is four
            // arrays of three. The dimensions are written walking down to
            // the element, which is spelled last, once.
            let mut dims = String::with_capacity(16);
            let mut level = inner;
            let mut element = None;
            while let TypeInner::Array { base, size, .. } | TypeInner::BindingArray { base, size } =
                *level
            {
                dims.push('[');
                push_array_dim(ctx, size, &mut dims);
                dims.push(']');
                element = Some(base);
                match ctx.module.types.get_handle(base) {
                    Ok(t) => level = &t.inner,
                    Err(_) => break,
                }
            }
            let element = element.map_or(Cow::Borrowed("void"), |e| name_of(needs, e));
            Cow::Owned([&*element, &dims].concat())
        }
        TypeInner::Struct { .. } => {
            // Structs are always named by handle in naga's IR; find it.
            let found = ctx.module.types.iter().find(|(_, t)| t.inner == *inner);
            match found {
                Some((h, _)) => {
                    ctx.type_names.named.mark(ctx.module, h);
                    Cow::Borrowed(ctx.name(naga::proc::NameKey::Type(h)))
                }
                None => Cow::Borrowed("_unnamed_struct"),
            }
        }
        TypeInner::Image {
            dim,
            arrayed,
            class,
        } => {
            let dim = declared_dim(ctx.dialect(), dim);
            Cow::Owned(match class {
                ImageClass::Storage { format, .. } => image_type(dim, arrayed, format).0,
                _ if ctx.dialect().is_vulkan() => texture_type(dim, arrayed, class),
                _ => {
                    let comparison = matches!(class, ImageClass::Depth { .. });
                    sampler_type(dim, arrayed, class, comparison)
                }
            })
        }
        TypeInner::Sampler { comparison } => {
            if comparison {
                Cow::Borrowed("samplerShadow")
            } else {
                Cow::Borrowed("sampler")
            }
        }
        // Cooperative matrices and ray tracing types (the numeric types
        // are spelled above).
        _ => Cow::Borrowed("void"),
    }
}

/// The zero of scalar `s` (a literal, or a constructor where GLSL has
/// no literal of the type), adding the extension the type needs.
fn scalar_zero(needs: &mut Needs, s: naga::Scalar) -> &'static str {
    scalar_extension(needs, s);
    SPELLINGS[scalar_row(s)].3
}

/// The zero value of `ty` as a GLSL constant expression
/// (`vec3(0.0)`, `S(0, vec2(0.0))`, `float[4](0.0, 0.0, 0.0, 0.0)`),
/// appended to `out` (members, elements and components are written in
/// place rather than built as strings of their own).
pub fn zero_value_into(ctx: &Ctx<'_>, needs: &mut Needs, ty: Handle<naga::Type>, out: &mut String) {
    let Ok(t) = ctx.module.types.get_handle(ty) else {
        out.push('0');
        return;
    };
    match t.inner {
        TypeInner::Scalar(s) | TypeInner::Atomic(s) => out.push_str(scalar_zero(needs, s)),
        TypeInner::Vector { scalar: s, .. } | TypeInner::Matrix { scalar: s, .. } => {
            push_parts(out, &[type_name(ctx, needs, ty), "("]);
            push_parts(out, &[scalar_zero(needs, s), ")"]);
        }
        TypeInner::Array {
            base,
            size: naga::ArraySize::Constant(n),
            ..
        } => {
            // The type records the extension of the element's scalar, as
            // the element does: either order records the same.
            out.push_str(type_name(ctx, needs, ty));
            for i in 0..n.get() {
                out.push_str(if i == 0 { "(" } else { ", " });
                zero_value_into(ctx, needs, base, out);
            }
            out.push(')');
        }
        TypeInner::Struct { ref members, .. } => {
            ctx.type_names.named.mark(ctx.module, ty);
            out.push_str(ctx.name(naga::proc::NameKey::Type(ty)));
            out.push('(');
            for (i, m) in members.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                zero_value_into(ctx, needs, m.ty, out);
            }
            out.push(')');
        }
        _ => {
            out.push_str(type_name(ctx, needs, ty));
            out.push_str("(0)");
        }
    }
}

/// The dimension part of sampler, texture and image names.
fn dim_str(dim: ImageDimension) -> &'static str {
    match dim {
        ImageDimension::D1 => "1D",
        ImageDimension::D2 => "2D",
        ImageDimension::D3 => "3D",
        ImageDimension::Cube => "Cube",
    }
}

/// `i`, `u` or nothing for the texel kind of a sampled image.
fn kind_prefix(kind: ScalarKind) -> &'static str {
    match kind {
        ScalarKind::Sint => "i",
        ScalarKind::Uint => "u",
        _ => "",
    }
}

/// `<prefix><base><dim>[MS][Array]` for sampled and depth classes.
fn opaque_name(base: &str, dim: ImageDimension, arrayed: bool, class: ImageClass) -> String {
    let (prefix, multi) = match class {
        ImageClass::Sampled { kind, multi } => (kind_prefix(kind), multi),
        ImageClass::Depth { multi } => ("", multi),
        ImageClass::External | ImageClass::Storage { .. } => ("", false),
    };
    let ms = if multi { "MS" } else { "" };
    let array = if arrayed { "Array" } else { "" };
    [prefix, base, dim_str(dim), ms, array].concat()
}

/// The combined-sampler type for an image type (`sampler2D`,
/// `sampler2DArrayShadow`, `isampler3D`, `sampler2DMS`, ...).
/// `comparison` adds `Shadow` to a depth image (GLSL has no multisampled
/// shadow samplers: a multisampled depth image is only ever fetched).
pub fn sampler_type(
    dim: ImageDimension,
    arrayed: bool,
    class: ImageClass,
    comparison: bool,
) -> String {
    let mut name = opaque_name("sampler", dim, arrayed, class);
    if comparison && matches!(class, ImageClass::Depth { multi: false }) {
        name.push_str("Shadow");
    }
    name
}

/// The separate texture type of Vulkan GLSL (`texture2D`, `itexture2DArray`,
/// `texture2DMS`, ...), for sampled and depth images.
pub fn texture_type(dim: ImageDimension, arrayed: bool, class: ImageClass) -> String {
    opaque_name("texture", dim, arrayed, class)
}

/// The storage image type (`image2D`, `uimage3D`, ...) and its format
/// qualifier (`rgba8`, `r32ui`, ...).
pub fn image_type(
    dim: ImageDimension,
    arrayed: bool,
    format: StorageFormat,
) -> (String, &'static str) {
    let (qualifier, kind, _) = storage_format(format);
    let prefix = match (kind, format) {
        (_, StorageFormat::R64Uint) => "u64",
        (ScalarKind::Uint, _) => "u",
        (ScalarKind::Sint, _) => "i",
        _ => "",
    };
    let array = if arrayed { "Array" } else { "" };
    ([prefix, "image", dim_str(dim), array].concat(), qualifier)
}

/// The swizzle a storage texture's texels take at every load and store
/// because GLSL declares it with another format: `bgra8unorm`, which GLSL
/// cannot name, is declared `rgba8` ([`storage_format`]). The host binds
/// the texture's bytes viewed as `rgba8` (B, G, R, A in memory order), so
/// the shader's red is the texture's blue: `.bgra` puts the channels back,
/// in both directions. `None`: the texels are read and written as they are.
pub fn texel_swizzle(format: StorageFormat) -> Option<&'static str> {
    (format == StorageFormat::Bgra8Unorm).then_some(".bgra")
}

/// The memory qualifier of a storage texture with `access`, in its
/// declaration and as a parameter alike: `readonly ` or `writeonly ` for
/// one-way access, none for read-write and atomic textures.
pub fn memory_qualifier(access: naga::StorageAccess) -> &'static str {
    use naga::StorageAccess as A;
    match (
        access.intersects(A::LOAD | A::ATOMIC),
        access.contains(A::STORE),
    ) {
        (true, false) => "readonly ",
        (false, true) => "writeonly ",
        _ => "",
    }
}

/// The GLSL format qualifier of a storage format, its texel kind, and
/// whether GLSL ES 3.10/3.20 accepts images of it (bgra8unorm through its
/// `rgba8` qualifier, [`texel_swizzle`]).
pub fn storage_format(format: StorageFormat) -> (&'static str, ScalarKind, bool) {
    use ScalarKind::{Float, Sint, Uint};
    use StorageFormat as F;
    match format {
        F::R8Unorm => ("r8", Float, false),
        F::R8Snorm => ("r8_snorm", Float, false),
        F::R8Uint => ("r8ui", Uint, false),
        F::R8Sint => ("r8i", Sint, false),
        F::R16Uint => ("r16ui", Uint, false),
        F::R16Sint => ("r16i", Sint, false),
        F::R16Float => ("r16f", Float, false),
        F::Rg8Unorm => ("rg8", Float, false),
        F::Rg8Snorm => ("rg8_snorm", Float, false),
        F::Rg8Uint => ("rg8ui", Uint, false),
        F::Rg8Sint => ("rg8i", Sint, false),
        F::R32Uint => ("r32ui", Uint, true),
        F::R32Sint => ("r32i", Sint, true),
        F::R32Float => ("r32f", Float, true),
        F::Rg16Uint => ("rg16ui", Uint, false),
        F::Rg16Sint => ("rg16i", Sint, false),
        F::Rg16Float => ("rg16f", Float, false),
        F::Rgba8Unorm => ("rgba8", Float, true),
        F::Rgba8Snorm => ("rgba8_snorm", Float, true),
        F::Rgba8Uint => ("rgba8ui", Uint, true),
        F::Rgba8Sint => ("rgba8i", Sint, true),
        // Declared as rgba8, its texels swizzled ([`texel_swizzle`]).
        F::Bgra8Unorm => ("rgba8", Float, true),
        F::Rgb10a2Uint => ("rgb10_a2ui", Uint, false),
        F::Rgb10a2Unorm => ("rgb10_a2", Float, false),
        F::Rg11b10Ufloat => ("r11f_g11f_b10f", Float, false),
        F::R64Uint => ("r64ui", Uint, false),
        F::Rg32Uint => ("rg32ui", Uint, false),
        F::Rg32Sint => ("rg32i", Sint, false),
        F::Rg32Float => ("rg32f", Float, false),
        F::Rgba16Uint => ("rgba16ui", Uint, true),
        F::Rgba16Sint => ("rgba16i", Sint, true),
        F::Rgba16Float => ("rgba16f", Float, true),
        F::Rgba32Uint => ("rgba32ui", Uint, true),
        F::Rgba32Sint => ("rgba32i", Sint, true),
        F::Rgba32Float => ("rgba32f", Float, true),
        F::R16Unorm => ("r16", Float, false),
        F::R16Snorm => ("r16_snorm", Float, false),
        F::Rg16Unorm => ("rg16", Float, false),
        F::Rg16Snorm => ("rg16_snorm", Float, false),
        F::Rgba16Unorm => ("rgba16", Float, false),
        F::Rgba16Snorm => ("rgba16_snorm", Float, false),
    }
}

/// Declarations of the value structs (plain GLSL structs with the WGSL
/// members, no padding), in dependency order: every struct of the module
/// that holds no runtime-sized array, in naga's type order (a struct comes
/// after the types of its members), with where each one is in the text.
/// Each entry-point file leaves out the buffer structs it never names
/// ([`crate::back::common::push_live_declarations`]).
///
/// The text is the same for every entry point: it is made once per module
/// (see [`TypeNames`]) and every use records the extensions it needs.
pub fn struct_declarations<'c>(ctx: &'c Ctx<'_>, needs: &mut Needs) -> (&'c str, &'c [DeclPart]) {
    let (text, extensions, parts) = ctx.type_names.structs.get_or_init(|| {
        // The member types a declaration spells are named by the
        // declaration ([`DeclPart::names`]), not by the file.
        let mut own = Needs::default();
        let (text, parts) = ctx
            .type_names
            .named
            .unrecorded(|| spell_struct_declarations(ctx, &mut own));
        (text, own.extensions.into_iter().collect(), parts)
    });
    for &e in extensions {
        needs.extension(e);
    }
    (text, parts)
}

/// [`struct_declarations`] without the cache: the text and where each
/// struct is in it.
fn spell_struct_declarations(ctx: &Ctx<'_>, needs: &mut Needs) -> (String, Vec<DeclPart>) {
    let unsized_types = crate::back::common::runtime_sized(ctx.module);
    // About 24 bytes per member and per struct line, so that the text
    // rarely regrows.
    let lines: usize = ctx
        .module
        .types
        .iter()
        .map(|(_, t)| match t.inner {
            TypeInner::Struct { ref members, .. } => members.len() + 2,
            _ => 0,
        })
        .sum();
    let mut out = String::with_capacity(24 * lines);
    let mut parts = Vec::new();
    let uses = ctx.type_names.named.uses(ctx.module);
    for (h, t) in ctx.module.types.iter() {
        let TypeInner::Struct { ref members, .. } = t.inner else {
            continue;
        };
        if unsized_types.get(h.index()).copied().unwrap_or(false) {
            continue;
        }
        let start = out.len();
        let name = ctx.name(naga::proc::NameKey::Type(h));
        push_parts(&mut out, &["struct ", name, " {\n"]);
        for (i, m) in members.iter().enumerate() {
            let ty = type_name(ctx, needs, m.ty);
            let name = ctx.name(naga::proc::NameKey::StructMember(h, i as u32));
            push_parts(&mut out, &["    ", ty, " ", name, ";\n"]);
        }
        out.push_str("};\n");
        parts.push(DeclPart {
            start,
            end: out.len(),
            bit: uses.bit(ctx.module, h),
            names: members.iter().fold(0, |n, m| n | uses.of(m.ty)),
        });
    }
    (out, parts)
}

/// The dimension a texture of `dim` is declared with in `d`: GLSL ES has
/// no 1D textures, so there a 1D texture is a 2D texture of height 1 (the
/// host binds a 2D texture of height 1; `func::image` addresses its one
/// row and reads its width).
pub fn declared_dim(d: Dialect, dim: ImageDimension) -> ImageDimension {
    if d.is_es() && dim == ImageDimension::D1 {
        ImageDimension::D2
    } else {
        dim
    }
}

/// Record the extension dialect `d` needs to declare `dim`/`arrayed`/
/// `multi` images: cube arrays and multisampled arrays in ES 3.10 (ES
/// declares 1D images as 2D, [`declared_dim`]). Every image is declarable.
pub fn image_extension(
    needs: &mut Needs,
    d: Dialect,
    dim: ImageDimension,
    arrayed: bool,
    multi: bool,
) {
    needs.extension(match (dim, arrayed, multi) {
        (ImageDimension::Cube, true, _) if d == Dialect::Es310 => "GL_EXT_texture_cube_map_array",
        (_, true, true) if d == Dialect::Es310 => "GL_OES_texture_storage_multisample_2d_array",
        _ => return,
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use naga::{Scalar, VectorSize};

    #[test]
    fn numeric_spellings() {
        let mut needs = Needs::default();
        assert_eq!(scalar(&mut needs, Scalar::F32), "float");
        assert_eq!(scalar(&mut needs, Scalar::U32), "uint");
        assert_eq!(vector(&mut needs, VectorSize::Tri, Scalar::I32), "ivec3");
        assert_eq!(vector(&mut needs, VectorSize::Bi, Scalar::BOOL), "bvec2");
        assert_eq!(
            matrix(&mut needs, VectorSize::Tri, VectorSize::Bi, Scalar::F32),
            "mat3x2"
        );
        assert_eq!(
            matrix(&mut needs, VectorSize::Quad, VectorSize::Quad, Scalar::F64),
            "dmat4"
        );
        assert!(needs.extensions.is_empty());
        assert_eq!(
            matrix(&mut needs, VectorSize::Bi, VectorSize::Tri, Scalar::F16),
            "f16mat2x3"
        );
        assert_eq!(vector(&mut needs, VectorSize::Tri, Scalar::F16), "f16vec3");
        assert_eq!(scalar(&mut needs, Scalar::U64), "uint64_t");
        let exts: Vec<_> = needs.extensions.iter().copied().collect();
        assert_eq!(exts, [F16_EXTENSION, INT64_EXTENSION]);
    }

    #[test]
    fn opaque_spellings() {
        use ImageDimension as D;
        let float = ImageClass::Sampled {
            kind: ScalarKind::Float,
            multi: false,
        };
        let uint_ms = ImageClass::Sampled {
            kind: ScalarKind::Uint,
            multi: true,
        };
        let depth = ImageClass::Depth { multi: false };
        assert_eq!(sampler_type(D::D2, false, float, false), "sampler2D");
        assert_eq!(
            sampler_type(D::D2, true, depth, true),
            "sampler2DArrayShadow"
        );
        assert_eq!(sampler_type(D::Cube, false, depth, false), "samplerCube");
        assert_eq!(sampler_type(D::D2, false, uint_ms, false), "usampler2DMS");
        assert_eq!(texture_type(D::D3, false, float), "texture3D");
        assert_eq!(texture_type(D::D2, true, depth), "texture2DArray");
        assert_eq!(
            image_type(D::D2, false, StorageFormat::Rgba8Unorm),
            ("image2D".to_string(), "rgba8")
        );
        assert_eq!(
            image_type(D::D3, true, StorageFormat::R32Uint),
            ("uimage3DArray".to_string(), "r32ui")
        );
    }

    #[test]
    fn arrays_list_the_outer_dimension_first() {
        let source = "struct S { v: array<array<f32, 3>, 4> }
@group(0) @binding(0) var<storage, read_write> o: array<f32>;
@compute @workgroup_size(1) fn main() {
    var a: array<array<array<f32, 2>, 3>, 4>;
    var s: S;
    a[1][2][0] = o[0];
    s.v[3][2] = a[1][2][0];
    o[1] = s.v[3][2];
}";
        let options = crate::Options {
            target: crate::Target::Glsl,
            ..Default::default()
        };
        let t = crate::translate(source, &options).unwrap_or_else(|d| panic!("{d}"));
        let crate::Output::Files(files) = t.output else {
            panic!("GLSL gives files");
        };
        let text = &files[0].text;
        assert!(text.contains("    float[4][3] v;\n"), "{text}");
        assert!(
            text.contains("    float[4][3][2] a = float[4][3][2](float[3][2](float[2]("),
            "{text}"
        );
    }
}
