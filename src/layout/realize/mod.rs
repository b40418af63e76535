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
//! - [`bytes`]: D3D byte-address buffers, read at the contract's offsets.
//! - [`cbuffer`]: D3D constant-buffer packing (HLSL and Slang), as numbers.
//! - [`d3d`]: D3D constant buffers (HLSL and Slang) realized over it.
//! - [`host`]: C and Rust structs (`#[repr(C)]`) for the application.
//! - [`spirv`]: the two sizes naga's SPIR-V writer needs beyond the contract.

pub mod block;
pub mod bytes;
pub mod cbuffer;
pub mod d3d;
pub mod host;
pub mod spirv;

use crate::layout::rules::RuleTable;
use crate::layout::RuleSet;
use naga::Handle;

/// A struct declaration a realization needs, in dependency order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Declared {
    Variant(usize),
    Element(usize),
}

/// How the storage behind a pointer into a buffer is shaped, relative to
/// the WGSL value it holds.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Repr {
    /// Same type and layout as the value: plain indexing, load, store.
    Plain,
    /// The block of a buffer global whose WGSL type is a struct: its
    /// top-level members are the block's members.
    Block(Handle<naga::GlobalVariable>),
    /// A variant of a WGSL struct (padding members, split matrices): an
    /// index into the realization's variants.
    Variant(usize),
    /// An array (fixed or runtime-sized) whose element is not `Plain`.
    Array(Box<Repr>),
    /// An array element wrapped in an element struct (an index into the
    /// realization's elements) so that the array reaches its contract
    /// stride: the value is the struct's first field, stored as `inner`
    /// says; the other fields are padding. Only ever the element repr of a
    /// [`Repr::Array`].
    Wrapped { element: usize, inner: Box<Repr> },
    /// A struct member of a GLSL block whose members are block members
    /// themselves ([`block::Inlined`]): WGSL member `k` of the struct is
    /// the block's member `first + k`. Code never names the struct: its
    /// members are reached from the block.
    Inline {
        global: Handle<naga::GlobalVariable>,
        first: usize,
        count: usize,
    },
    /// A matrix stored as its column vectors.
    Columns {
        columns: u8,
        rows: u8,
        scalar: naga::Scalar,
        style: ColumnStyle,
    },
}

/// Where the columns of a split matrix ([`Repr::Columns`]) live.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ColumnStyle {
    /// Split in place: the columns are consecutive fields of the block,
    /// variant or element struct that holds the matrix ([`Role::Column`]).
    Members,
    /// An array element: a column struct ([`StructRef::Columns`]) whose
    /// fields are the columns.
    Wrapper,
}

/// A type as a realization stores it (fields of blocks, variants and
/// element structs). Names are the backend's: structs are referred to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Storage {
    /// Scalars and atomics.
    Scalar(naga::Scalar),
    Vector(u8, naga::Scalar),
    Matrix {
        columns: u8,
        rows: u8,
        scalar: naga::Scalar,
    },
    /// `None`: runtime-sized.
    Array(Box<Storage>, Option<u64>),
    /// A struct, with its size (`None`: ends in a runtime-sized array) and
    /// alignment under the rules of the block it is in.
    Struct {
        of: StructRef,
        size: Option<u64>,
        align: u64,
    },
}

/// Which struct a [`Storage::Struct`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StructRef {
    /// The WGSL struct itself: its target layout is the contract's.
    Value(Handle<naga::Type>),
    /// A variant of a WGSL struct: an index into the realization's variants.
    Variant(usize),
    /// A struct of matrix columns: an index into the realization's column structs.
    Columns(usize),
    /// An element struct: an index into the realization's elements.
    Element(usize),
}

/// What a realized field stores.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Role {
    /// WGSL member `index` of the struct (the value of an element struct, or
    /// of a block of a non-struct global: 0).
    Member(usize),
    /// Column `column` of the split matrix in WGSL member `member`.
    Column { member: usize, column: u8 },
    /// Padding: never read or written.
    Padding,
}

/// One field of a realized struct or block, in offset order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field {
    /// Its byte offset in the contract (where no explicit offset is written,
    /// also the offset the target's own rules give it).
    pub offset: u64,
    pub ty: Storage,
    pub role: Role,
}

impl Field {
    /// A padding field.
    pub fn is_padding(&self) -> bool {
        self.role == Role::Padding
    }
}

/// What a target can write down on top of its own layout rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Capabilities {
    /// The target's name in messages (`vulkan450`, `es310`).
    pub name: &'static str,
    /// Top-level block members may carry an explicit offset (GLSL
    /// `layout(offset = N)`); otherwise they are placed by padding fields.
    pub member_offsets: bool,
    /// The unsigned scalars padding fields may be made of, widest first
    /// (as scalars and 2- and 4-component vectors).
    pub padding_scalars: &'static [naga::Scalar],
    /// The rule set of push-constant blocks.
    pub push_constant_rules: RuleSet,
}

impl Storage {
    /// Natural (size, alignment) under `table`; size `None`: runtime-sized.
    pub fn layout(&self, table: &RuleTable) -> (Option<u64>, u64) {
        match self {
            Storage::Scalar(s) => {
                let (size, align) = table.scalar(s.width);
                (Some(size), align)
            }
            Storage::Vector(n, s) => {
                let (size, align) = table.vector(*n, s.width);
                (Some(size), align)
            }
            Storage::Matrix {
                columns,
                rows,
                scalar,
            } => {
                let (stride, align) = column_stride(table, *rows, scalar.width);
                (Some(stride.saturating_mul(u64::from(*columns))), align)
            }
            Storage::Array(e, count) => {
                // Lazily: an eager fallback would lay the element out twice
                // per level, 2^n times for n nested arrays.
                let (stride, align) = self.stride(table).unwrap_or_else(|| (0, e.layout(table).1));
                (count.map(|n| stride.saturating_mul(n)), align)
            }
            Storage::Struct { size, align, .. } => (*size, *align),
        }
    }

    /// Array stride and alignment of an array type under `table`.
    pub fn stride(&self, table: &RuleTable) -> Option<(u64, u64)> {
        let Storage::Array(e, _) = self else {
            return None;
        };
        let (size, align) = e.layout(table);
        table.array_stride(size?, align)
    }
}

/// Column stride and alignment of a matrix with `rows`-component columns
/// of `width`-byte scalars under `table`.
pub fn column_stride(table: &RuleTable, rows: u8, width: u8) -> (u64, u64) {
    let (size, align) = table.vector(rows, width);
    table.array_stride(size, align).unwrap_or((size, align))
}

/// The naga scalar of a contract scalar.
pub fn naga_scalar(s: crate::layout::Scalar) -> naga::Scalar {
    use crate::layout::ScalarKind;
    let kind = match s.kind {
        ScalarKind::Sint => naga::ScalarKind::Sint,
        ScalarKind::Uint => naga::ScalarKind::Uint,
        ScalarKind::Float => naga::ScalarKind::Float,
        ScalarKind::Bool => naga::ScalarKind::Bool,
    };
    naga::Scalar {
        kind,
        width: s.width,
    }
}

/// The storage of one WGSL member or array element, as a realizer places
/// it.
enum Stored {
    One(Storage, Repr),
    /// A matrix split into `columns` fields of type `column`.
    Split {
        column: Storage,
        columns: u8,
        column_stride: u64,
        repr: Repr,
    },
}

impl Stored {
    /// The fields that store WGSL member `member` at contract offset
    /// `offset` (role, type, offset), and its repr.
    fn into_fields(self, member: usize, offset: u64) -> (impl Iterator<Item = Field>, Repr) {
        let (ty, count, step, split, repr) = match self {
            Stored::One(ty, repr) => (ty, 1, 0, false, repr),
            Stored::Split {
                column,
                columns,
                column_stride,
                repr,
            } => (column, columns, column_stride, true, repr),
        };
        let fields = (0..count).map(move |j| Field {
            offset: offset + u64::from(j) * step,
            ty: ty.clone(),
            role: if split {
                Role::Column { member, column: j }
            } else {
                Role::Member(member)
            },
        });
        (fields, repr)
    }
}

/// The span of WGSL member `member` of struct `name` (`h`) for diagnostics:
/// the member's, else the struct's name, else the type's.
fn member_span(
    parsed: &crate::front::Parsed,
    module: &naga::Module,
    h: Handle<naga::Type>,
    name: &str,
    member: &str,
) -> crate::diag::Span {
    let ann = parsed.annotations.structs.get(name);
    ann.and_then(|a| a.members.iter().find(|m| m.name == member))
        .map(|m| m.span.clone())
        .or_else(|| ann.map(|a| a.name_span.clone()))
        .or_else(|| module.types.get_span(h).to_range())
        .unwrap_or(0..0)
}

/// `s` with its first letter in upper case (messages start with a
/// member's description).
fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

/// Names a backend gives to what a realization made, for messages. `W`
/// says which declaration: [`block::Made`] for GLSL blocks, [`d3d::Of`]
/// for D3D constant buffers.
pub trait Spelling<W> {
    /// A short spelling of a stored type (`vec2`, `S_std140[4]`, `float3`).
    fn storage(&self, ty: &Storage) -> String;
    /// The name of a block, cbuffer, variant or element struct.
    fn name(&self, what: W) -> String;
    /// The name of field `index` of a block, cbuffer, variant or element
    /// struct.
    fn field(&self, what: W, index: usize) -> String;
}

/// An error found while realizing: a diagnostic once the backend's
/// [`Spelling`] names the types it mentions.
pub struct Problem<W>(std::rc::Rc<Render<W>>);

/// Makes a [`Problem`]'s diagnostic from the backend's names.
type Render<W> = dyn Fn(&dyn Spelling<W>) -> crate::diag::Diagnostic;

impl<W> Problem<W> {
    pub fn new(render: impl Fn(&dyn Spelling<W>) -> crate::diag::Diagnostic + 'static) -> Self {
        Problem(std::rc::Rc::new(render))
    }

    /// The diagnostic, with the names `spelling` gives.
    pub fn diagnostic(&self, spelling: &dyn Spelling<W>) -> crate::diag::Diagnostic {
        (self.0)(spelling)
    }
}

impl<W> Clone for Problem<W> {
    fn clone(&self) -> Self {
        Problem(self.0.clone())
    }
}

impl<W> std::fmt::Debug for Problem<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Problem")
    }
}
