//! D3D constant buffers: the contract realized under cbuffer packing
//! (16-byte registers), with `packoffset` on top-level members.
//!
//! The packing arithmetic is the `hlsl-cbuffer` row of
//! [`crate::layout::rules`] ([`RuleSet::HlslCbuffer`]); nothing here keeps a
//! second copy of it. D3D's rules, as that table encodes them: a scalar or
//! vector may not cross a 16-byte register (one of more than 16 bytes starts
//! a register); structs, arrays and matrices start a register; every array
//! element starts a register (stride `roundUp(size, 16)`); a `row_major
//! TCxR` matrix is C rows of R components, each starting a register; a
//! struct's or array's size ends at its last component, so that a following
//! member may pack into its tail; with `-enable-16bit-types`, 16-bit scalars
//! are 2 bytes and pack tightly.
//!
//! This module answers the layout questions a cbuffer declaration raises,
//! as numbers: how big a stored type is and where D3D packs it
//! ([`Shape`]), whether and where `packoffset` can name a place
//! ([`PackOffset`]), which padding members fill a gap ([`padding`]), when a
//! matrix is stored as its columns ([`splits`], [`tail_split`]), and
//! whether a finished member list packs to the offsets the contract gives it
//! ([`packing_mismatch`], [`packoffset_mismatch`]). The backend names what
//! it declares and prints it.

use super::Storage;
use crate::layout::rules::{round_up_saturating, RuleTable};
use crate::layout::{Layout, LayoutKind, RuleSet};

/// The packing rules of a cbuffer.
fn rules() -> &'static RuleTable {
    RuleSet::HlslCbuffer.table()
}

/// Bytes in one cbuffer register (`c0`, `c1`, ...).
pub fn register_bytes() -> u64 {
    rules().register.unwrap_or(16)
}

/// `value` rounded up to a whole register.
fn to_register(value: u64) -> u64 {
    round_up_saturating(register_bytes(), value)
}

/// Bytes of one scalar in a cbuffer (a `bool` takes 4).
pub fn scalar_bytes(s: naga::Scalar) -> u64 {
    if s.kind == naga::ScalarKind::Bool {
        4
    } else {
        u64::from(s.width)
    }
}

/// A type as a cbuffer stores it, reduced to what packing needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// A scalar or vector: `size` bytes of `components` scalars of `width`
    /// bytes each; never straddles a register.
    Packed {
        size: u64,
        width: u64,
        components: u64,
    },
    /// A matrix, array or struct: starts a register; `size` ends at its last
    /// component.
    Aggregate { size: u64 },
}

impl Shape {
    pub fn scalar(s: naga::Scalar) -> Shape {
        Shape::vector(1, s)
    }

    pub fn vector(components: u8, s: naga::Scalar) -> Shape {
        let width = scalar_bytes(s);
        let components = u64::from(components);
        Shape::Packed {
            size: components * width,
            width,
            components,
        }
    }

    /// A `row_major` matrix: `columns` rows of `rows` components.
    pub fn matrix(columns: u8, rows: u8, s: naga::Scalar) -> Shape {
        Shape::vector(rows, s).array(u64::from(columns))
    }

    /// `count` elements of this shape.
    pub fn array(self, count: u64) -> Shape {
        let size = rules()
            .array_size(self.stride(), self.size(), count)
            .unwrap_or(u64::MAX);
        Shape::Aggregate { size }
    }

    /// How a cbuffer packs a realized field of type `ty` (a struct at the
    /// size its realization gives it).
    pub fn of(ty: &Storage) -> Shape {
        match ty {
            Storage::Scalar(s) => Shape::scalar(*s),
            Storage::Vector(n, s) => Shape::vector(*n, *s),
            Storage::Matrix {
                columns,
                rows,
                scalar,
            } => Shape::matrix(*columns, *rows, *scalar),
            Storage::Array(e, n) => Shape::of(e).array(n.unwrap_or(0)),
            Storage::Struct { size, .. } => Shape::structure(size.unwrap_or(0)),
        }
    }

    /// A struct whose last member ends at `size`.
    pub fn structure(size: u64) -> Shape {
        Shape::Aggregate { size }
    }

    /// Bytes from the start to the end of the last component (D3D does not
    /// round sizes up).
    pub fn size(self) -> u64 {
        match self {
            Shape::Packed { size, .. } | Shape::Aggregate { size } => size,
        }
    }

    /// The distance between two elements of an array of this shape.
    pub fn stride(self) -> u64 {
        rules()
            .array_stride(self.size(), 1)
            .map_or(u64::MAX, |(stride, _)| stride)
    }

    /// The offset D3D packs this at when the previous member ends at byte
    /// `cur`.
    pub fn place(self, cur: u64) -> u64 {
        let placed = match self {
            Shape::Packed { size, width, .. } => rules().place(cur, width, size, true),
            Shape::Aggregate { size } => rules().place(cur, register_bytes(), size, false),
        };
        placed.unwrap_or(u64::MAX)
    }

    /// Whether a member of this shape may start at `offset` at all.
    pub fn legal_at(self, offset: u64) -> bool {
        self.place(offset) == offset
    }

    /// Whether this is a matrix, array or struct.
    pub fn is_aggregate(self) -> bool {
        matches!(self, Shape::Aggregate { .. })
    }
}

/// The shape of a scalar, vector or matrix of the contract stored whole
/// (`None` for arrays and structs, whose storage the plan decides).
pub fn leaf_shape(layout: &Layout) -> Option<Shape> {
    match layout.kind {
        LayoutKind::Scalar(s) | LayoutKind::Atomic(s) => Some(Shape::scalar(naga_scalar(s))),
        LayoutKind::Vector { size, scalar } => Some(Shape::vector(size, naga_scalar(scalar))),
        LayoutKind::Matrix {
            columns,
            rows,
            scalar,
            ..
        } => Some(Shape::matrix(columns, rows, naga_scalar(scalar))),
        _ => None,
    }
}

pub use super::naga_scalar;

/// A `packoffset(cR.c)` position: register `register`, and for a scalar or
/// vector its first 4-byte component (0 = `x` .. 3 = `w`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PackOffset {
    pub register: u64,
    pub component: Option<u8>,
}

impl PackOffset {
    /// The position of a member of `shape` at byte `offset`, or `None` where
    /// `packoffset` cannot name it: a 4-byte component, and (as DXC counts)
    /// the component index plus the number of components of the vector (a
    /// 16-bit component counts as one, a 64-bit one as two) at most 4.
    /// Aggregates start a register anyway.
    pub fn of(shape: Shape, offset: u64) -> Option<PackOffset> {
        let at = PackOffset::at(shape, offset);
        if let Shape::Packed {
            width, components, ..
        } = shape
        {
            let slots = if width == 8 {
                2 * components
            } else {
                components
            };
            let first = u64::from(at.component.unwrap_or(0));
            if !offset.is_multiple_of(4) || first + slots > register_bytes() / 4 {
                return None;
            }
        }
        Some(at)
    }

    /// The register (and for a scalar or vector, the 4-byte component) that
    /// byte `offset` falls in, whether or not it names the offset exactly.
    pub fn at(shape: Shape, offset: u64) -> PackOffset {
        let reg = register_bytes();
        let component = match shape {
            Shape::Packed { .. } => Some(((offset % reg) / 4) as u8),
            Shape::Aggregate { .. } => None,
        };
        PackOffset {
            register: offset / reg,
            component,
        }
    }

    /// The byte offset this position names.
    pub fn offset(self) -> u64 {
        self.register * register_bytes() + u64::from(self.component.unwrap_or(0)) * 4
    }
}

/// `c2.z`, or `c2` for an aggregate: what goes inside `packoffset(...)`.
impl std::fmt::Display for PackOffset {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "c{}", self.register)?;
        match self.component {
            Some(c) => write!(f, ".{}", ["x", "y", "z", "w"][usize::from(c & 3)]),
            None => Ok(()),
        }
    }
}

/// Whether `packoffset` can name the place of a top-level member of
/// contract `layout` at `offset` (the columns of a split matrix included).
pub fn packoffset_ok(layout: &Layout, offset: u64) -> bool {
    match &layout.kind {
        LayoutKind::Scalar(_) | LayoutKind::Atomic(_) | LayoutKind::Vector { .. } => {
            leaf_shape(layout).is_some_and(|s| PackOffset::of(s, offset).is_some())
        }
        LayoutKind::Matrix {
            columns,
            rows,
            scalar,
            column_stride,
        } if splits(layout, offset) => (0..u64::from(*columns)).all(|j| {
            let column = Shape::vector(*rows, naga_scalar(*scalar));
            PackOffset::of(column, offset + j * column_stride).is_some()
        }),
        _ => true,
    }
}

/// Whether a matrix of contract `layout` at `offset` is stored as column
/// vectors: its column stride is not HLSL's row stride, or it does not
/// start a register.
pub fn splits(layout: &Layout, offset: u64) -> bool {
    match layout.kind {
        LayoutKind::Matrix {
            rows,
            scalar,
            column_stride,
            ..
        } => {
            let row = Shape::vector(rows, naga_scalar(scalar));
            column_stride != row.stride() || !offset.is_multiple_of(register_bytes())
        }
        _ => false,
    }
}

/// Whether a matrix member of contract `layout` at `offset`, which
/// [`splits`] keeps whole, must still be split because padding would follow
/// it in the unused tail of its last HLSL row (a `row_major floatCx3`
/// leaves 4 bytes there). `next` is what comes after it in the same struct:
/// the next member's layout and offset, or `None` and the padded end of the
/// struct. D3D packs such padding without complaint, but DXC's SPIR-V route
/// (`-spirv -fvk-use-dx-layout`) counts the matrix as whole rows and rejects
/// a member in its tail as an overlap, so a split keeps the output usable
/// there too.
///
/// The same holds for an array of such matrices at D3D's own stride, whose
/// last element leaves the tail: there the answer means that the elements
/// are wrapped in element structs holding the columns (DXC's SPIR-V sizes
/// an array of matrices as whole elements too, but not a struct).
pub fn tail_split(layout: &Layout, offset: u64, next: (Option<&Layout>, u64)) -> bool {
    let end = match &layout.kind {
        LayoutKind::Matrix { .. } if !splits(layout, offset) => match leaf_shape(layout) {
            Some(shape) => offset + shape.size(),
            None => return false,
        },
        LayoutKind::Array {
            element,
            stride,
            count: Some(count),
        } if *count > 0 && matches!(element.kind, LayoutKind::Matrix { .. }) => {
            match leaf_shape(element) {
                Some(shape) if shape.stride() == *stride && !splits(element, offset) => offset
                    .saturating_add(stride.saturating_mul(count - 1))
                    .saturating_add(shape.size()),
                _ => return false,
            }
        }
        _ => return false,
    };
    if end.is_multiple_of(register_bytes()) {
        return false;
    }
    let (next_layout, target) = next;
    let next_shape = next_layout.and_then(|l| match l.kind {
        LayoutKind::Scalar(_) | LayoutKind::Atomic(_) | LayoutKind::Vector { .. } => leaf_shape(l),
        // A matrix stored as columns starts with its first column, which
        // fits in the tail like any small vector.
        LayoutKind::Matrix { rows, scalar, .. } if splits(l, target) => {
            Some(Shape::vector(rows, naga_scalar(scalar)))
        }
        _ => None,
    });
    // Where D3D would put the next thing without padding: scalars and small
    // vectors fit in the tail, everything else starts a register.
    let natural = next_shape.map_or(to_register(end), |s| s.place(end));
    natural < target
}

/// Whether the padding of an array element whose value ends at `size` would
/// start in the tail of a matrix's last row (see [`tail_split`]).
pub fn ends_inside_register(size: u64) -> bool {
    !size.is_multiple_of(register_bytes())
}

/// One padding member: `uint`, `uint2`..`uint4` (`U32(n)`), or `uint16_t`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pad {
    U32(u8),
    U16,
}

impl Pad {
    pub fn shape(self) -> Shape {
        match self {
            Pad::U32(1) => Shape::scalar(naga::Scalar::U32),
            Pad::U32(n) => Shape::vector(n, naga::Scalar::U32),
            Pad::U16 => Shape::scalar(naga::Scalar {
                kind: naga::ScalarKind::Uint,
                width: 2,
            }),
        }
    }
}

/// The padding members, each with its offset, that take a struct from
/// `cur` to where `next` (or, without one, the end of the padding itself)
/// lands at `target`: `uint`s and `uintN`s that stay inside their register,
/// and (with `pad16`, where 16-bit types are available) a `uint16_t`. Stops
/// where nothing fits; the caller checks where it got to.
pub fn padding(mut cur: u64, target: u64, next: Option<Shape>, pad16: bool) -> Vec<(Pad, u64)> {
    let reg = register_bytes();
    let at_next = |cur: u64| next.map_or(cur, |s| s.place(cur));
    let mut pads = Vec::new();
    while at_next(cur) < target {
        let at4 = round_up_saturating(4, cur);
        let (pad, at) = if at4 + 4 <= target {
            let room = (reg - at4 % reg) / 4;
            let n = room.min((target - at4) / 4).clamp(1, 4);
            (Pad::U32(n as u8), at4)
        } else if pad16 && cur.is_multiple_of(2) && cur + 2 <= target {
            (Pad::U16, cur)
        } else {
            break;
        };
        pads.push((pad, at));
        cur = at + pad.shape().size();
    }
    pads
}

/// Why a member of `shape` cannot start at contract offset `target` when the
/// previous member ends at `cur` (`packoffset`: members carry their own
/// offsets). `None` when it can.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Misplaced {
    /// A struct, array or matrix that does not start a register; the next
    /// register starts at `fixed`.
    AggregateOffRegister { fixed: u64 },
    /// A scalar or vector that would straddle a register (or a
    /// `packoffset` that is not on a 4-byte component).
    Straddles,
    /// D3D packs it no earlier than `natural`, after the member before it.
    TooEarly { natural: u64 },
    /// The gap before it cannot be filled with padding members.
    Gap { bytes: u64 },
}

/// Whether a member of `shape` can start at `target` after `cur`.
pub fn misplaced(shape: Shape, cur: u64, target: u64, packoffset: bool) -> Option<Misplaced> {
    let ok = if packoffset {
        target.is_multiple_of(4) && shape.legal_at(target) && target >= cur
    } else {
        shape.place(cur) == target
    };
    if ok {
        return None;
    }
    if shape.is_aggregate() && !target.is_multiple_of(register_bytes()) {
        return Some(Misplaced::AggregateOffRegister {
            fixed: to_register(target),
        });
    }
    if !shape.legal_at(target) || (packoffset && !target.is_multiple_of(4)) {
        return Some(Misplaced::Straddles);
    }
    let natural = shape.place(cur);
    if natural > target {
        return Some(Misplaced::TooEarly { natural });
    }
    Some(Misplaced::Gap {
        bytes: target.saturating_sub(cur),
    })
}

/// What a contract array stride is to D3D, whose element stride is
/// `hlsl_stride`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArrayStride {
    /// Not a multiple of a register: no cbuffer array has it; `fixed` is the
    /// next one that is.
    OffRegister { fixed: u64 },
    /// Smaller than D3D's stride for the element.
    TooSmall,
    /// D3D's own stride.
    Natural,
    /// Larger than D3D's: the element is padded up to it.
    Padded,
}

/// Classify contract array stride `stride` against D3D's stride for
/// elements of `element` (`None`: before the element's storage is known,
/// only the register check).
pub fn array_stride(stride: u64, element: Option<Shape>) -> ArrayStride {
    if !stride.is_multiple_of(register_bytes()) {
        return ArrayStride::OffRegister {
            fixed: to_register(stride),
        };
    }
    match element.map(Shape::stride) {
        Some(h) if stride < h => ArrayStride::TooSmall,
        Some(h) if stride == h => ArrayStride::Natural,
        Some(_) => ArrayStride::Padded,
        None => ArrayStride::Natural,
    }
}

/// One member of a finished declaration, for verification.
#[derive(Clone, Copy, Debug)]
pub struct Placed {
    pub shape: Shape,
    /// Its byte offset in the contract.
    pub offset: u64,
}

/// How a finished member list differs from what D3D makes of it; fields
/// are indices into the list checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mismatch {
    /// Packed alone, `field` lands at `at`, not at its contract `offset`.
    Moved { field: usize, at: u64, offset: u64 },
    /// The members pack to `packed` bytes, the realization says `size`.
    Size { packed: u64, size: u64 },
    /// `packoffset(position)` does not name `field`'s `offset`.
    Unnamed {
        field: usize,
        position: PackOffset,
        offset: u64,
    },
    /// `field` cannot start at its `offset` at all.
    Illegal { field: usize, offset: u64 },
    /// `field` overlaps the earlier `other`.
    Overlaps { field: usize, other: usize },
}

/// Pack `fields` by D3D's rules alone; the first field whose packed offset
/// differs from its recorded offset, or a size that differs from `size`.
pub fn packing_mismatch(
    fields: impl IntoIterator<Item = Placed>,
    size: Option<u64>,
) -> Option<Mismatch> {
    let mut cur = 0u64;
    for (field, f) in fields.into_iter().enumerate() {
        let at = f.shape.place(cur);
        if at != f.offset {
            return Some(Mismatch::Moved {
                field,
                at,
                offset: f.offset,
            });
        }
        cur = at + f.shape.size();
    }
    match size {
        Some(s) if s != cur => Some(Mismatch::Size {
            packed: cur,
            size: s,
        }),
        _ => None,
    }
}

/// Whether an element struct of `size` bytes is an array stride.
pub fn is_array_stride(size: u64) -> bool {
    to_register(size) == size
}

/// Check `packoffset` members: each offset has a position that names it, is
/// legal for the type (no straddling, aggregates on a register) and does not
/// overlap the members before it.
pub fn packoffset_mismatch(fields: &[Placed]) -> Option<Mismatch> {
    for (k, f) in fields.iter().enumerate() {
        let position = PackOffset::at(f.shape, f.offset);
        if position.offset() != f.offset {
            return Some(Mismatch::Unnamed {
                field: k,
                position,
                offset: f.offset,
            });
        }
        if !f.shape.legal_at(f.offset) || PackOffset::of(f.shape, f.offset).is_none() {
            return Some(Mismatch::Illegal {
                field: k,
                offset: f.offset,
            });
        }
        let end = f.offset + f.shape.size();
        let before = fields.get(..k).unwrap_or(&[]);
        if let Some(other) = before
            .iter()
            .position(|o| f.offset < o.offset + o.shape.size() && o.offset < end)
        {
            return Some(Mismatch::Overlaps { field: k, other });
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn d3d_packing_rules() {
        let f = naga::Scalar::F32;
        let h = naga::Scalar::F16;
        let d = naga::Scalar::F64;
        assert_eq!(Shape::vector(3, f).place(4), 4);
        assert_eq!(Shape::vector(3, f).place(8), 16);
        assert_eq!(Shape::vector(2, f).place(4), 4);
        assert_eq!(Shape::scalar(h).place(2), 2);
        assert_eq!(Shape::vector(4, h).place(10), 16);
        assert_eq!(Shape::vector(3, d).place(8), 16);
        assert_eq!(Shape::vector(3, d).size(), 24);
        assert_eq!(Shape::scalar(naga::Scalar::BOOL).size(), 4);
        let m = Shape::matrix(3, 2, f);
        assert_eq!((m.place(4), m.size()), (16, 40));
        let a = Shape::scalar(f).array(4);
        assert_eq!((a.place(20), a.size(), a.stride()), (32, 52, 64));
        // packoffset components count whole components from the named one.
        assert!(PackOffset::of(Shape::vector(2, h), 8).is_some());
        assert!(PackOffset::of(Shape::vector(4, h), 8).is_none());
        assert!(PackOffset::of(Shape::scalar(h), 2).is_none());
        assert_eq!(
            PackOffset::of(Shape::vector(2, f), 40),
            Some(PackOffset {
                register: 2,
                component: Some(2)
            })
        );
        assert_eq!(PackOffset::of(m, 32).map(PackOffset::offset), Some(32));
        assert_eq!(PackOffset::at(Shape::vector(2, f), 40).to_string(), "c2.z");
    }

    #[test]
    fn padding_stays_inside_registers() {
        let u = Pad::U32;
        assert_eq!(padding(4, 16, None, false), vec![(u(3), 4)]);
        assert_eq!(padding(12, 24, None, false), vec![(u(1), 12), (u(2), 16)]);
        // Whole words first; a 16-bit padding member only for what is left.
        assert_eq!(padding(2, 8, None, true), vec![(u(1), 4)]);
        assert_eq!(padding(2, 4, None, true), vec![(Pad::U16, 2)]);
        assert_eq!(padding(2, 4, None, false), vec![]);
        let v4 = Shape::vector(4, naga::Scalar::F32);
        // A vec4 after byte 4 lands at 16 already: no padding.
        assert_eq!(padding(4, 16, Some(v4), false), vec![]);
    }

    #[test]
    fn misplaced_members() {
        let f = naga::Scalar::F32;
        let m = Shape::matrix(2, 2, f);
        assert_eq!(
            misplaced(m, 0, 8, false),
            Some(Misplaced::AggregateOffRegister { fixed: 16 })
        );
        assert_eq!(
            misplaced(Shape::vector(3, f), 0, 8, false),
            Some(Misplaced::Straddles)
        );
        assert_eq!(
            misplaced(Shape::vector(2, f), 12, 8, false),
            Some(Misplaced::TooEarly { natural: 16 })
        );
        assert_eq!(misplaced(Shape::scalar(f), 4, 8, true), None);
        assert_eq!(
            array_stride(20, None),
            ArrayStride::OffRegister { fixed: 32 }
        );
        assert_eq!(array_stride(16, Some(m)), ArrayStride::TooSmall);
        assert_eq!(array_stride(32, Some(m)), ArrayStride::Natural);
        assert_eq!(array_stride(48, Some(m)), ArrayStride::Padded);
    }
}
