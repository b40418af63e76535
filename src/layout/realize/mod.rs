//! Realizations: the contract layout as one target must spell it.
//!
//! The contract ([`super::LayoutModule`] under [`super::RuleSet::Wgsl`]) says
//! where every byte is. A target lays the same declarations out by its own
//! rule family (std140, std430, D3D cbuffer packing, ...) and can write down
//! only some corrections (an offset qualifier on a block member, a
//! `packoffset`, a padding member). A realization is the result of putting
//! the two together, as data: for every buffer, the members at their
//! offsets, the padded variant structs, the matrices split into columns, the
//! array elements wrapped to reach a stride, and, where nothing fits, an
//! error at the WGSL member with a fix.
//!
//! Backends read a realization and print it; they never compute an offset,
//! size, alignment, stride or padding themselves. Names are not part of a
//! realization: the backends name variants and padding members.
//!
//! - [`block`]: GLSL blocks (std140 uniform blocks, std430 storage blocks).
//! - [`cbuffer`]: D3D constant buffers (HLSL and Slang).

pub mod cbuffer;
pub mod block;
