//! The contract as naga's SPIR-V writer must take it. SPIR-V states every
//! offset, array stride and matrix stride itself, so most of the contract
//! goes into the naga types as it is (`back::spirv::apply`); what is left
//! is the size naga asks for that the contract does not state (the span of
//! a struct that ends in a runtime-sized array, which naga checks against
//! its members with the array counted as one element), and which uniform
//! matrices the SPIR-V backend declares as their columns.

use crate::layout::rules::round_up_saturating;
use crate::layout::{Layout, LayoutKind, StructLayout};

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

/// Which matrices of a uniform buffer the SPIR-V backend declares as
/// their column vectors itself (each column a member at its own offset).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColumnSplit {
    /// None: every matrix is declared as naga declares it.
    Off,
    /// The matrices whose contract column stride Vulkan's standard uniform
    /// layout does not allow (a multiple of 16), except two-row matrices,
    /// which naga's writer splits itself.
    Standard,
    /// Those and every two-row matrix: naga's own two-row handling is not
    /// used (a module where it would fail: a two-row matrix behind a nested
    /// struct).
    All,
}

/// The column stride of a uniform matrix of contract `layout` that `split`
/// declares as columns, or `None` where it stays a matrix. The decision is
/// the one the GLSL block realization makes for std140
/// ([`super::block::needs_split`]: the contract's column stride is not
/// Vulkan's extended-layout one).
pub fn uniform_column_split(layout: &Layout, split: ColumnSplit) -> Option<u64> {
    let LayoutKind::Matrix {
        rows,
        column_stride,
        ..
    } = layout.kind
    else {
        return None;
    };
    let std140 = super::block::needs_split(layout, crate::layout::RuleSet::Std140);
    let declared = match split {
        ColumnSplit::Off => false,
        ColumnSplit::Standard => rows != 2 && std140,
        ColumnSplit::All => rows == 2 || std140,
    };
    declared.then_some(column_stride)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::{Scalar, ScalarKind};

    /// A `mat<columns>x<rows>` of float `width` with WGSL's column stride.
    fn matrix(columns: u8, rows: u8, width: u8) -> Layout {
        let w = u64::from(width);
        let column_stride = if rows == 2 { 2 * w } else { 4 * w };
        Layout {
            size: Some(u64::from(columns) * column_stride),
            align: column_stride,
            kind: LayoutKind::Matrix {
                columns,
                rows,
                scalar: Scalar {
                    kind: ScalarKind::Float,
                    width,
                },
                column_stride,
            },
        }
    }

    #[test]
    fn uniform_matrices_declared_as_columns() {
        use ColumnSplit::{All, Off, Standard};
        // f16 with three or four rows: column stride 8.
        assert_eq!(uniform_column_split(&matrix(2, 3, 2), Standard), Some(8));
        assert_eq!(uniform_column_split(&matrix(4, 4, 2), Standard), Some(8));
        assert_eq!(uniform_column_split(&matrix(4, 4, 2), Off), None);
        // f32 with three or four rows: column stride 16, kept.
        assert_eq!(uniform_column_split(&matrix(3, 3, 4), Standard), None);
        assert_eq!(uniform_column_split(&matrix(3, 3, 4), All), None);
        // Two rows: naga's unless every two-row matrix is stride's.
        assert_eq!(uniform_column_split(&matrix(3, 2, 4), Standard), None);
        assert_eq!(uniform_column_split(&matrix(3, 2, 4), All), Some(8));
        assert_eq!(uniform_column_split(&matrix(2, 2, 8), All), Some(16));
    }
}
