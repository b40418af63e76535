//! The contract as naga's SPIR-V writer must take it. SPIR-V states every
//! offset, array stride and matrix stride itself, so most of the contract
//! goes into the naga types as it is (`back::spirv::apply`); what is left
//! are the two sizes naga asks for that the contract does not state:
//!
//! - the span of a struct that ends in a runtime-sized array, which naga
//!   checks against its members with the array counted as one element;
//! - the stride of the one-element array that the SPIR-V backend wraps a
//!   struct member in (a struct holding a two-row matrix, in a uniform
//!   buffer), so that naga's writer does not mishandle the matrix.

use crate::layout::rules::round_up_saturating;
use crate::layout::{LayoutKind, LayoutModule, Slot, StructLayout};
use naga::{Handle, Type};

/// The span naga gets for struct `layout`: its contract size, or for a
/// struct ending in a runtime-sized array, the end of its members (that
/// array counted as one element) rounded up to the struct's alignment.
pub fn struct_span(layout: &StructLayout) -> u64 {
    if let Some(size) = layout.size {
        return size;
    }
    let end = layout
        .members()
        .map(|m| {
            let size = match &m.layout.kind {
                LayoutKind::Array {
                    stride,
                    count: None,
                    ..
                } => Some(*stride),
                _ => m.layout.size,
            };
            m.offset.saturating_add(size.unwrap_or(0))
        })
        .max()
        .unwrap_or(0);
    round_up_saturating(layout.align, end)
}

/// The one-element array stride for struct member `index` (of struct type
/// `inner`) of `outer`, if the rounded-up struct size fits before the next
/// member.
pub fn one_element_array_stride(
    contract: &LayoutModule,
    outer: Handle<Type>,
    index: usize,
    inner: Handle<Type>,
) -> Option<u32> {
    let outer_layout = contract.structs.get(&outer)?;
    let inner_size = contract.structs.get(&inner)?.size?;
    let inner_align = contract.structs.get(&inner)?.align.max(1);
    let slot = outer_layout.members().find(|m| m.index == index)?;
    let limit = outer_layout
        .slots
        .iter()
        .filter_map(|s| match s {
            Slot::Member(m) if m.offset > slot.offset => Some(m.offset),
            _ => None,
        })
        .min()
        .or(outer_layout.size)?;
    // A stride that is a multiple of 16 keeps the standard uniform layout;
    // where that does not fit, the struct's own size (rounded to its
    // alignment) still reads the same bytes, and the Vulkan check then asks
    // for uniformBufferStandardLayout.
    [
        inner_size.div_ceil(16).checked_mul(16)?,
        inner_size.div_ceil(inner_align).checked_mul(inner_align)?,
    ]
    .into_iter()
    .find(|&stride| {
        slot.offset
            .checked_add(stride)
            .is_some_and(|end| end <= limit)
    })
    .and_then(|stride| u32::try_from(stride).ok())
}
