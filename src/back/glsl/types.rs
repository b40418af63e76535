//! GLSL spellings of value types, and the value struct declarations.
//!
//! INTERFACE (owned by the module part; `func` and `buffers` call it).

use super::{Ctx, Needs};
use naga::Handle;

/// The GLSL spelling of scalar `s` (`float`, `int`, `uint`, `bool`,
/// `float16_t`, `double`, `int64_t`, ...), adding the extension it needs.
pub fn scalar(needs: &mut Needs, s: naga::Scalar) -> String {
    let _ = (needs, s);
    todo!("module part")
}

/// `vec3`, `ivec2`, `f16vec4`, `bvec2`, ...
pub fn vector(needs: &mut Needs, size: naga::VectorSize, s: naga::Scalar) -> String {
    let _ = (needs, size, s);
    todo!("module part")
}

/// `mat3x2`, `f16mat4`, `dmat2x3`, ... (columns x rows).
pub fn matrix(
    needs: &mut Needs,
    columns: naga::VectorSize,
    rows: naga::VectorSize,
    s: naga::Scalar,
) -> String {
    let _ = (needs, columns, rows, s);
    todo!("module part")
}

/// The GLSL spelling of value type `ty` usable in declarations, casts and
/// constructors: arrays as `T[N]` (outer dimension first, `T[]` for
/// runtime-sized), structs by their value-struct name.
pub fn type_name(ctx: &Ctx<'_>, needs: &mut Needs, ty: Handle<naga::Type>) -> String {
    let _ = (ctx, needs, ty);
    todo!("module part")
}

/// [`type_name`] for a type given by value (an expression's resolved type).
pub fn inner_name(ctx: &Ctx<'_>, needs: &mut Needs, inner: &naga::TypeInner) -> String {
    let _ = (ctx, needs, inner);
    todo!("module part")
}

/// The zero value of `ty` as a GLSL constant expression
/// (`vec3(0.0)`, `S(0, vec2(0.0))`, `float[4](0.0, 0.0, 0.0, 0.0)`).
pub fn zero_value(ctx: &Ctx<'_>, needs: &mut Needs, ty: Handle<naga::Type>) -> String {
    let _ = (ctx, needs, ty);
    todo!("module part")
}

/// The combined-sampler type for an image type (`sampler2D`,
/// `sampler2DArrayShadow`, `isampler3D`, `sampler2DMS`, ...).
pub fn sampler_type(
    dim: naga::ImageDimension,
    arrayed: bool,
    class: naga::ImageClass,
    comparison: bool,
) -> String {
    let _ = (dim, arrayed, class, comparison);
    todo!("module part")
}

/// The separate texture type of Vulkan GLSL (`texture2D`, `itexture2DArray`,
/// `texture2DMS`, ...), for sampled and depth images.
pub fn texture_type(dim: naga::ImageDimension, arrayed: bool, class: naga::ImageClass) -> String {
    let _ = (dim, arrayed, class);
    todo!("module part")
}

/// The storage image type (`image2D`, `uimage3D`, ...) and its format
/// qualifier (`rgba8`, `r32ui`, ...).
pub fn image_type(
    dim: naga::ImageDimension,
    arrayed: bool,
    format: naga::StorageFormat,
) -> (String, &'static str) {
    let _ = (dim, arrayed, format);
    todo!("module part")
}

/// Declarations of the value structs (plain GLSL structs with the WGSL
/// members, no padding) that the entry point's code uses, in dependency
/// order.
pub fn struct_declarations(ctx: &Ctx<'_>, needs: &mut Needs) -> String {
    let _ = (ctx, needs);
    todo!("module part")
}
