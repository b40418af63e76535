//! HLSL spellings of value types, the array typedefs and the value struct
//! declarations.
//!
//! INTERFACE (shared by every part):
//!
//! - [`scalar`], [`vector`], [`matrix`]: numeric type spellings
//!   (`float`, `uint3`, `float3x4`: WGSL `mat3x4` is HLSL `float3x4`, see
//!   the matrix convention in `super`).
//! - [`type_name`] / [`inner_name`]: the spelling of any value type. A
//!   fixed-size array is its typedef name (`_s_array4_float`,
//!   `_s_array2_array4_float`, `_s_array3_Light`), declared by
//!   [`struct_declaration_parts`] for every array type of the module.
//! - [`zero_value`]: `(T)0`, which HLSL accepts for every value type.

use super::Ctx;
use crate::back::common::{DeclPart, NamedStructs};
use naga::proc::NameKey;
use naga::{Handle, ImageClass, ImageDimension, ScalarKind, TypeInner};
use std::borrow::Cow;

/// The HLSL spelling of scalar `s`.
pub fn scalar(s: naga::Scalar) -> &'static str {
    match (s.kind, s.width) {
        (ScalarKind::Bool, _) => "bool",
        (ScalarKind::Float, 2) => "float16_t",
        (ScalarKind::Float, 8) => "double",
        (ScalarKind::Float, _) => "float",
        (ScalarKind::Sint, 2) => "int16_t",
        (ScalarKind::Sint, 8) => "int64_t",
        (ScalarKind::Sint, _) => "int",
        (ScalarKind::Uint, 2) => "uint16_t",
        (ScalarKind::Uint, 8) => "uint64_t",
        (ScalarKind::Uint, _) => "uint",
        // Abstract types are concretized before any backend runs.
        (ScalarKind::AbstractInt, _) => "int",
        (ScalarKind::AbstractFloat, _) => "float",
    }
}

/// The spellings of the vector sizes 2, 3 and 4 of scalar spelling `$s`.
macro_rules! vectors {
    ($s:literal) => {
        [concat!($s, "2"), concat!($s, "3"), concat!($s, "4")]
    };
}

/// `float3`, `uint2`, `float16_t4`.
pub fn vector(size: u8, s: naga::Scalar) -> Cow<'static, str> {
    // Keyed by `scalar`'s spelling, so that the two never disagree.
    let sizes = match scalar(s) {
        "bool" => vectors!("bool"),
        "float16_t" => vectors!("float16_t"),
        "double" => vectors!("double"),
        "float" => vectors!("float"),
        "int16_t" => vectors!("int16_t"),
        "int64_t" => vectors!("int64_t"),
        "int" => vectors!("int"),
        "uint16_t" => vectors!("uint16_t"),
        "uint64_t" => vectors!("uint64_t"),
        "uint" => vectors!("uint"),
        other => return Cow::Owned(text!("{other}{size}")),
    };
    match size {
        2..=4 => Cow::Borrowed(sizes[usize::from(size) - 2]),
        _ => Cow::Owned(text!("{}{size}", scalar(s))),
    }
}

/// The type of `n` components of `s`: the scalar for 0 or 1, else a
/// vector.
pub fn shaped(n: u8, s: naga::Scalar) -> Cow<'static, str> {
    match n {
        0 | 1 => Cow::Borrowed(scalar(s)),
        _ => vector(n, s),
    }
}

/// The spellings of the float matrices of scalar spelling `$s`, by
/// columns and rows (2 to 4).
macro_rules! matrices {
    ($s:literal) => {
        [
            [concat!($s, "2x2"), concat!($s, "2x3"), concat!($s, "2x4")],
            [concat!($s, "3x2"), concat!($s, "3x3"), concat!($s, "3x4")],
            [concat!($s, "4x2"), concat!($s, "4x3"), concat!($s, "4x4")],
        ]
    };
}

/// WGSL `mat{columns}x{rows}` is HLSL `float{columns}x{rows}`: `columns`
/// HLSL rows of `rows` components.
pub fn matrix(columns: u8, rows: u8, s: naga::Scalar) -> Cow<'static, str> {
    let table = match (s.kind, s.width) {
        (ScalarKind::Float, 2) => Some(matrices!("float16_t")),
        (ScalarKind::Float, 8) => Some(matrices!("double")),
        (ScalarKind::Float, _) => Some(matrices!("float")),
        _ => None,
    };
    match table {
        Some(t) if (2..=4).contains(&columns) && (2..=4).contains(&rows) => {
            Cow::Borrowed(t[usize::from(columns) - 2][usize::from(rows) - 2])
        }
        _ => Cow::Owned(text!("{}{columns}x{rows}", scalar(s))),
    }
}

/// The HLSL spelling of value type `ty`: structs by name, arrays by their
/// typedef name. Runtime-sized arrays are not values: they only live in
/// byte-address buffers, which `buffers` reaches by offset; they are
/// spelled as their element type here.
///
/// Every type of the module is spelled once, on first use, and kept in
/// `ctx.type_names`.
pub fn type_name<'c>(ctx: &'c Ctx<'_>, ty: Handle<naga::Type>) -> &'c str {
    let spelled = ctx.type_names.spelled.get_or_init(|| spell_types(ctx));
    match spelled.get(ty.index()) {
        Some((name, structs)) => {
            if *structs != 0 {
                ctx.type_names.named.add(*structs);
            }
            name
        }
        None => "void",
    }
}

/// The spelling of every type of the module, by handle index, made on the
/// first [`type_name`], and the buffer structs the output has named.
#[derive(Default)]
pub struct TypeNames {
    /// With the buffer structs each spelling names ([`crate::back::common::StructUse::of`]).
    spelled: std::cell::OnceCell<Vec<(Cow<'static, str>, u64)>>,
    pub named: NamedStructs,
}

/// The spelling of every type of the module, by handle index. Scalars,
/// vectors, matrices and samplers keep their fixed spellings borrowed.
fn spell_types(ctx: &Ctx<'_>) -> Vec<(Cow<'static, str>, u64)> {
    let uses = ctx.type_names.named.uses(ctx.module);
    let mut names: Vec<(Cow<'static, str>, u64)> = Vec::with_capacity(ctx.module.types.len());
    for (h, t) in ctx.module.types.iter() {
        let name = match t.inner {
            TypeInner::Struct { .. } => Cow::Owned(ctx.name(NameKey::Type(h)).to_string()),
            TypeInner::Scalar(s) | TypeInner::Atomic(s) => Cow::Borrowed(scalar(s)),
            TypeInner::Vector { size, scalar: s } => vector(size as u8, s),
            TypeInner::Matrix {
                columns,
                rows,
                scalar: s,
            } => matrix(columns as u8, rows as u8, s),
            TypeInner::Sampler { comparison } => Cow::Borrowed(sampler_type(comparison)),
            // A type only refers to types before it in the arena.
            ref inner => Cow::Owned(spell_inner(ctx, inner, &names).into_owned()),
        };
        names.push((name, uses.of(h)));
    }
    names
}

/// The length of a fixed-size array (overrides are baked before any
/// writing when arrays are sized by them).
pub fn array_count(ctx: &Ctx<'_>, size: naga::ArraySize) -> Option<u32> {
    match size {
        naga::ArraySize::Constant(n) => Some(n.get()),
        naga::ArraySize::Pending(o) => crate::back::common::baked_length(ctx.module, o),
        naga::ArraySize::Dynamic => None,
    }
}

/// The element type and length (`None`: runtime-sized) of array type `ty`
/// (`None`: not an array).
pub fn array_of(
    ctx: &Ctx<'_>,
    ty: Handle<naga::Type>,
) -> Option<(Handle<naga::Type>, Option<u32>)> {
    match ctx.module.types.get_handle(ty).map(|t| &t.inner) {
        Ok(&TypeInner::Array { base, size, .. }) => Some((base, array_count(ctx, size))),
        _ => None,
    }
}

/// [`type_name`] for a type given by value (an expression's resolved type).
pub fn inner_name<'c>(ctx: &'c Ctx<'_>, inner: &TypeInner) -> Cow<'c, str> {
    let spelled = ctx.type_names.spelled.get_or_init(|| spell_types(ctx));
    // A struct given by value is marked where `spell_inner` finds it.
    if let TypeInner::Array { base, .. }
    | TypeInner::BindingArray { base, .. }
    | TypeInner::Pointer { base, .. } = *inner
    {
        if let Some(&(_, structs)) = spelled.get(base.index()) {
            ctx.type_names.named.add(structs);
        }
    }
    spell_inner(ctx, inner, spelled)
}

/// The spelling of `inner`, whose component types are spelled in `named`
/// (by handle index).
fn spell_inner<'c>(
    ctx: &'c Ctx<'_>,
    inner: &TypeInner,
    named: &'c [(Cow<'static, str>, u64)],
) -> Cow<'c, str> {
    let by_handle = |h: Handle<naga::Type>| {
        Cow::Borrowed(
            named
                .get(h.index())
                .map_or("void", |(name, _)| name.as_ref()),
        )
    };
    match *inner {
        TypeInner::Scalar(s) | TypeInner::Atomic(s) => Cow::Borrowed(scalar(s)),
        TypeInner::Vector { size, scalar: s } => vector(size as u8, s),
        TypeInner::Matrix {
            columns,
            rows,
            scalar: s,
        } => matrix(columns as u8, rows as u8, s),
        TypeInner::Array { base, size, .. } => {
            let element = by_handle(base);
            match array_count(ctx, size) {
                // The typedef name.
                Some(n) => Cow::Owned(text!("_s_array{n}_{element}")),
                None => element,
            }
        }
        TypeInner::Struct { .. } => {
            // A struct by value: find its handle.
            Cow::Borrowed(
                ctx.module
                    .types
                    .iter()
                    .find(|(_, t)| t.inner == *inner)
                    .map_or("_s_unknown_struct", |(h, _)| {
                        ctx.type_names.named.mark(ctx.module, h);
                        ctx.name(NameKey::Type(h))
                    }),
            )
        }
        TypeInner::Pointer { base, .. } => by_handle(base),
        TypeInner::ValuePointer {
            size, scalar: s, ..
        } => shaped(size.map_or(0, |n| n as u8), s),
        TypeInner::Image {
            dim,
            arrayed,
            class,
        } => Cow::Owned(texture_type(dim, arrayed, class)),
        TypeInner::Sampler { comparison } => Cow::Borrowed(sampler_type(comparison)),
        TypeInner::BindingArray { base, .. } => by_handle(base),
        _ => Cow::Borrowed("_s_unsupported_type"),
    }
}

/// `SamplerState` or `SamplerComparisonState`.
pub fn sampler_type(comparison: bool) -> &'static str {
    if comparison {
        "SamplerComparisonState"
    } else {
        "SamplerState"
    }
}

fn dim_name(dim: ImageDimension) -> &'static str {
    match dim {
        ImageDimension::D1 => "1D",
        ImageDimension::D2 => "2D",
        ImageDimension::D3 => "3D",
        ImageDimension::Cube => "Cube",
    }
}

/// The HLSL texture type of a WGSL texture type: `Texture2D<float4>`,
/// `Texture2DMSArray<int4>`, `TextureCube<float>` (depth),
/// `RWTexture2D<unorm float4>`, `RWTexture2D<uint>` (storage).
pub fn texture_type(dim: ImageDimension, arrayed: bool, class: ImageClass) -> String {
    let array = if arrayed { "Array" } else { "" };
    let dim_text = dim_name(dim);
    let ms = if class.is_multisampled() { "MS" } else { "" };
    match class {
        ImageClass::Sampled { kind, .. } => {
            let texel = vector(4, naga::Scalar { kind, width: 4 });
            ["Texture", dim_text, ms, array, "<", &texel, ">"].concat()
        }
        ImageClass::Depth { .. } => ["Texture", dim_text, ms, array, "<float>"].concat(),
        // A scalar texel for the formats [`storage_scalar_texel`] names,
        // `unorm`/`snorm` for normalized formats (`RWTexture2D<unorm
        // float4>`, `Texture2DArray<float>`), 64-bit for `r64uint`.
        ImageClass::Storage { format, access } => {
            let rw = if is_rw(access) { "RW" } else { "" };
            let texel = match storage_scalar_texel(format) {
                Some(s) => Cow::Borrowed(scalar(s)),
                None => vector(4, naga::Scalar::from(format)),
            };
            let norm = storage_norm_prefix(format);
            [rw, "Texture", dim_text, array, "<", norm, &texel, ">"].concat()
        }
        ImageClass::External => ["Texture", dim_text, array, "<float4>"].concat(),
    }
}

/// The scalar texel of storage textures of the single-channel `format`s,
/// which are declared with a scalar element (`RWTexture2D<float>`): HLSL's
/// `Interlocked*` only take textures with a scalar element type, and a
/// typed UAV load of a four-component declaration needs D3D's optional
/// "additional formats" even where the format is `r32float`. `None`: a
/// four-component texel.
pub(crate) fn storage_scalar_texel(format: naga::StorageFormat) -> Option<naga::Scalar> {
    use naga::StorageFormat as F;
    match format {
        F::R8Unorm | F::R8Snorm | F::R16Unorm | F::R16Snorm | F::R16Float | F::R32Float => {
            Some(naga::Scalar::F32)
        }
        F::R8Uint | F::R16Uint | F::R32Uint => Some(naga::Scalar::U32),
        F::R8Sint | F::R16Sint | F::R32Sint => Some(naga::Scalar::I32),
        F::R64Uint => Some(naga::Scalar::U64),
        _ => None,
    }
}

/// `unorm ` or `snorm ` for the normalized storage formats (D3D's typed UAV
/// declarations of UNORM and SNORM formats), else nothing.
fn storage_norm_prefix(format: naga::StorageFormat) -> &'static str {
    use naga::StorageFormat as F;
    match format {
        F::R8Unorm
        | F::R16Unorm
        | F::Rg8Unorm
        | F::Rg16Unorm
        | F::Rgba8Unorm
        | F::Rgba16Unorm
        | F::Bgra8Unorm
        | F::Rgb10a2Unorm => "unorm ",
        F::R8Snorm | F::R16Snorm | F::Rg8Snorm | F::Rg16Snorm | F::Rgba8Snorm | F::Rgba16Snorm => {
            "snorm "
        }
        _ => "",
    }
}

/// Whether a storage texture with `access` is an `RW` (UAV) texture.
pub(crate) fn is_rw(access: naga::StorageAccess) -> bool {
    access.intersects(naga::StorageAccess::STORE | naga::StorageAccess::ATOMIC)
}

/// `(T)0`: the zero value of any value type.
pub fn zero_value(ctx: &Ctx<'_>, ty: Handle<naga::Type>) -> String {
    text!("({})0", type_name(ctx, ty))
}

/// `row_major ` for a matrix type (a struct member or array element
/// spells its layout), else nothing.
fn row_major(ctx: &Ctx<'_>, ty: Handle<naga::Type>) -> &'static str {
    match ctx.module.types[ty].inner {
        TypeInner::Matrix { .. } => "row_major ",
        _ => "",
    }
}

/// Whether `ty` can be an HLSL value (and so gets a declaration): not a
/// runtime-sized array and no struct ending in one.
fn is_value(ctx: &Ctx<'_>, unsized_types: &[bool], h: Handle<naga::Type>) -> bool {
    !unsized_types.get(h.index()).copied().unwrap_or(false)
        && !matches!(
            ctx.module.types[h].inner,
            TypeInner::BindingArray { .. } | TypeInner::Image { .. } | TypeInner::Sampler { .. }
        )
}

/// The text of [`struct_declaration_parts`].
#[cfg(test)]
pub fn struct_declarations(ctx: &Ctx<'_>) -> String {
    struct_declaration_parts(ctx).0
}

/// Declarations of the value structs (plain HLSL structs with the WGSL
/// members, no padding) and of the array typedefs, in naga's type order (a
/// type comes after the types it contains), with the part of the text each
/// struct and typedef takes, for
/// [`crate::back::common::push_live_declarations`]. Structs that hold a
/// runtime-sized array are not values and are not declared.
pub fn struct_declaration_parts(ctx: &Ctx<'_>) -> (String, Vec<DeclPart>) {
    let unsized_types = crate::back::common::runtime_sized(ctx.module);
    // Room for a line per struct member and per array typedef.
    let lines = ctx
        .module
        .types
        .iter()
        .map(|(_, t)| match t.inner {
            TypeInner::Struct { ref members, .. } => members.len() + 2,
            TypeInner::Array { .. } => 1,
            _ => 0,
        })
        .sum::<usize>();
    let mut out = String::with_capacity(40 * lines);
    // naga keeps arrays that differ only in stride apart; HLSL spells them
    // alike, and one typedef serves them all (Slang rejects a repeated one).
    let mut typedefs = naga::FastHashSet::default();
    let mut parts = Vec::new();
    let uses = ctx.type_names.named.uses(ctx.module);
    for (h, t) in ctx.module.types.iter() {
        if !is_value(ctx, &unsized_types, h) {
            continue;
        }
        let start = out.len();
        match t.inner {
            TypeInner::Struct { ref members, .. } => {
                super::push_parts(&mut out, &["struct ", ctx.name(NameKey::Type(h)), " {\n"]);
                for (i, m) in members.iter().enumerate() {
                    let ty = type_name(ctx, m.ty);
                    let name = ctx.name(NameKey::StructMember(h, i as u32));
                    let major = row_major(ctx, m.ty);
                    super::push_parts(&mut out, &["    ", major, ty, " ", name, ";\n"]);
                }
                out.push_str("};\n\n");
                parts.push(DeclPart {
                    start,
                    end: out.len(),
                    bit: uses.bit(ctx.module, h),
                    names: members.iter().fold(0, |n, m| n | uses.of(m.ty)),
                });
            }
            TypeInner::Array { base, size, .. } => {
                if let Some(n) = array_count(ctx, size) {
                    let element = type_name(ctx, base);
                    // `_s_array{n}_{element}`.
                    let name = type_name(ctx, h);
                    if !typedefs.insert(name) {
                        continue;
                    }
                    let major = row_major(ctx, base);
                    super::push_parts(&mut out, &["typedef ", major, element, " ", name, "["]);
                    super::push_decimal(&mut out, u64::from(n));
                    out.push_str("];\n");
                    parts.push(DeclPart {
                        start,
                        end: out.len(),
                        bit: 0,
                        names: uses.of(base),
                    });
                }
            }
            _ => {}
        }
    }
    (out, parts)
}
