//! Byte-address buffers (HLSL `ByteAddressBuffer`, `RWByteAddressBuffer`):
//! their layout is the contract itself, read and written at byte offsets.
//! This module gives, as numbers from the contract, what an access chain
//! or a load or store of a matrix steps over; the backend builds its byte
//! offsets from them and prints them.

use crate::layout::{Layout, LayoutKind};
use std::borrow::Cow;

/// The byte step and the layout of one element of `l`: an array's element
/// (borrowed from `l`), a matrix's column or a vector's component; `None`
/// for anything else.
pub fn element(l: &Layout) -> Option<(u64, Cow<'_, Layout>)> {
    match &l.kind {
        LayoutKind::Array {
            element, stride, ..
        } => Some((*stride, Cow::Borrowed(&**element))),
        LayoutKind::Matrix {
            rows,
            scalar,
            column_stride,
            ..
        } => Some((
            *column_stride,
            Cow::Owned(Layout {
                size: Some(u64::from(*rows) * u64::from(scalar.width)),
                align: u64::from(scalar.width),
                kind: LayoutKind::Vector {
                    size: *rows,
                    scalar: *scalar,
                },
            }),
        )),
        LayoutKind::Vector { scalar, .. } => Some((
            u64::from(scalar.width),
            Cow::Owned(Layout {
                size: Some(u64::from(scalar.width)),
                align: u64::from(scalar.width),
                kind: LayoutKind::Scalar(*scalar),
            }),
        )),
        _ => None,
    }
}

/// The columns of matrix layout `l`: the layout of one, and the byte offset
/// of each within the matrix; `None` when `l` is not a matrix.
pub fn matrix_columns(l: &Layout) -> Option<(Layout, impl Iterator<Item = u64>)> {
    let LayoutKind::Matrix { columns, .. } = l.kind else {
        return None;
    };
    let (step, column) = element(l)?;
    let offsets = (0..u64::from(columns)).map(move |j| j * step);
    Some((column.into_owned(), offsets))
}

/// How many 16-byte words (`uvec4`, `uint4`) cover a buffer of contract
/// size `size` read as words: every byte, at least one word.
pub fn sixteen_byte_words(size: Option<u64>) -> u64 {
    size.unwrap_or(0).div_ceil(16).max(1)
}
