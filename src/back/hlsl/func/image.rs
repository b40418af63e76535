//! Textures: sampling, loads, stores, queries and atomics, as free
//! functions on printed operands.
//!
//! INTERFACE (owned by the math/image part; `func::expr` calls it).

use super::super::{Ctx, Needs};
use naga::{ImageClass, ImageDimension};

/// A printed texture operand (a global, a binding-array element or a
/// function argument) and its type.
pub(crate) struct Image<'a> {
    pub text: &'a str,
    pub dim: ImageDimension,
    pub arrayed: bool,
    pub class: ImageClass,
}

/// The level of detail of a sample.
pub(crate) enum Level<'a> {
    Auto,
    Zero,
    Exact(&'a str),
    Bias(&'a str),
    Gradient { x: &'a str, y: &'a str },
}

/// `textureSample*`/`textureGather*` (naga `ImageSample`), every operand
/// printed.
pub(crate) struct Sample<'a> {
    pub image: Image<'a>,
    pub sampler: &'a str,
    /// `Some`: a gather of this component.
    pub gather: Option<naga::SwizzleComponent>,
    pub coordinate: &'a str,
    pub array_index: Option<&'a str>,
    /// A constant integer vector expression.
    pub offset: Option<&'a str>,
    pub level: Level<'a>,
    pub depth_ref: Option<&'a str>,
    /// `textureSampleBaseClampToEdge`.
    pub clamp_to_edge: bool,
}

pub(crate) fn sample(ctx: &Ctx<'_>, needs: &mut Needs, s: &Sample<'_>) -> String {
    let _ = (ctx, needs, s);
    todo!()
}

/// `textureLoad` (naga `ImageLoad`); `sample` and `level` as printed.
pub(crate) fn load(
    ctx: &Ctx<'_>,
    needs: &mut Needs,
    image: &Image<'_>,
    coordinate: &str,
    array_index: Option<&str>,
    sample: Option<&str>,
    level: Option<&str>,
) -> String {
    let _ = (ctx, needs, image, coordinate, array_index, sample, level);
    todo!()
}

/// `textureStore`: one statement (ending in `;`, no newline).
pub(crate) fn store(
    ctx: &Ctx<'_>,
    needs: &mut Needs,
    image: &Image<'_>,
    coordinate: &str,
    array_index: Option<&str>,
    value: &str,
) -> String {
    let _ = (ctx, needs, image, coordinate, array_index, value);
    todo!()
}

/// The query kinds of naga's `ImageQuery`, with the level printed.
pub(crate) enum Query<'a> {
    Size { level: Option<&'a str> },
    NumLevels,
    NumLayers,
    NumSamples,
}

/// `textureDimensions`, `textureNumLevels`, `textureNumLayers`,
/// `textureNumSamples`: an expression, through a helper function where
/// HLSL's `GetDimensions` needs out parameters. `result` is the WGSL
/// result type.
pub(crate) fn query(
    ctx: &Ctx<'_>,
    needs: &mut Needs,
    image: &Image<'_>,
    query: &Query<'_>,
    result: &naga::TypeInner,
) -> String {
    let _ = (ctx, needs, image, query, result);
    todo!()
}

/// `textureAtomic*` on a storage texture: statements (not indented, each
/// ending in a newline) performing `fun` with `value`, storing the old
/// value into the declared variable `result` when given.
pub(crate) fn atomic(
    ctx: &Ctx<'_>,
    needs: &mut Needs,
    image: &Image<'_>,
    coordinate: &str,
    array_index: Option<&str>,
    fun: &naga::AtomicFunction,
    value: &str,
) -> String {
    let _ = (ctx, needs, image, coordinate, array_index, fun, value);
    todo!()
}
