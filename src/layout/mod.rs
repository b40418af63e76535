//! The layout IR: explicit layouts (offsets, sizes, alignments, strides and
//! padding slots) for every host-shareable type reachable from a uniform,
//! storage or push-constant global, per rule set.
//!
//! `build` computes them from the naga module and the source annotations;
//! `rules` holds the rule-set table; `check` applies the address-space rules
//! and produces diagnostics with fixes; `vulkan` says which Vulkan
//! block-layout feature a buffer's layout needs.

pub mod build;
pub mod check;
pub mod realize;
pub mod rules;
#[cfg(test)]
mod tests;
pub mod vulkan;

pub use build::build;
pub use rules::RuleSet;

pub use crate::front::scan::Name;

/// Scalar kinds that can live in a buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScalarKind {
    Sint,
    Uint,
    Float,
    Bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Scalar {
    pub kind: ScalarKind,
    /// Bytes: 2 (f16), 4, 8 (f64, i64, u64).
    pub width: u8,
}

impl Scalar {
    /// WGSL spelling: `f32`, `f16`, `i32`, ...
    pub fn wgsl_name(&self) -> String {
        let k = match self.kind {
            ScalarKind::Sint => "i",
            ScalarKind::Uint => "u",
            ScalarKind::Float => "f",
            ScalarKind::Bool => return "bool".to_string(),
        };
        format!("{k}{}", self.width as u32 * 8)
    }
}

/// The explicit layout of one type at one position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Bytes; `None` for runtime-sized arrays and structs ending in one.
    pub size: Option<u64>,
    pub align: u64,
    pub kind: LayoutKind,
}

impl Layout {
    /// The stride an array of this element has with no `@stride`: its size
    /// rounded up to its alignment. `None` when the size is unknown
    /// (runtime-sized) or the rounding overflows.
    pub fn natural_stride(&self) -> Option<u64> {
        self.size?.checked_next_multiple_of(self.align.max(1))
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LayoutKind {
    Scalar(Scalar),
    Atomic(Scalar),
    Vector {
        size: u8,
        scalar: Scalar,
    },
    /// Column-major: `columns` vectors of `rows` components.
    Matrix {
        columns: u8,
        rows: u8,
        scalar: Scalar,
        column_stride: u64,
    },
    Array {
        element: Box<Layout>,
        stride: u64,
        /// `None`: runtime-sized.
        count: Option<u64>,
    },
    /// The struct's layout is `LayoutModule::structs[ty]`.
    Struct(naga::Handle<naga::Type>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PaddingReason {
    /// Between two members, to reach the next member's alignment.
    FieldAlignment,
    /// After the last member, up to the struct size.
    StructSize,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemberSlot {
    /// Index of the member in the naga struct.
    pub index: usize,
    pub name: Name,
    pub offset: u64,
    /// The member's size: its own `@size`, else the type's size.
    pub size: Option<u64>,
    /// The member's alignment: its own `@align`, else the type's alignment.
    pub align: u64,
    pub layout: Layout,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PaddingSlot {
    pub offset: u64,
    pub size: u64,
    pub reason: PaddingReason,
}

/// Padding is a first-class slot, never an anonymous gap.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Slot {
    Member(MemberSlot),
    Padding(PaddingSlot),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StructLayout {
    pub name: Name,
    pub ty: naga::Handle<naga::Type>,
    /// `None` when the last member is a runtime-sized array.
    pub size: Option<u64>,
    pub align: u64,
    /// Members and padding in offset order, covering the whole struct.
    pub slots: Vec<Slot>,
}

impl StructLayout {
    pub fn members(&self) -> impl Iterator<Item = &MemberSlot> {
        self.slots.iter().filter_map(|s| match s {
            Slot::Member(m) => Some(m),
            Slot::Padding(_) => None,
        })
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GlobalLayout {
    pub handle: naga::Handle<naga::GlobalVariable>,
    pub name: Name,
    pub space: naga::AddressSpace,
    pub binding: Option<naga::ResourceBinding>,
    pub layout: Layout,
}

/// All buffer layouts of a module under one rule set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LayoutModule {
    pub rules: RuleSet,
    /// Every struct reachable from a buffer global, in naga type order
    /// (hashed with naga's fast hasher: a type handle is a small integer).
    pub structs: naga::FastIndexMap<naga::Handle<naga::Type>, StructLayout>,
    /// Uniform, storage and push-constant globals, in declaration order.
    pub globals: Vec<GlobalLayout>,
}
