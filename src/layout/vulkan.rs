//! Which Vulkan block-layout feature a buffer's contract layout needs.
//!
//! The rules are those of the Vulkan specification ("Offset and Stride
//! Assignment") as `spirv-val` checks them: standard layout (extended
//! alignment for uniform buffers, base alignment for storage buffers and push
//! constants), relaxed block layout (vectors aligned to their component and
//! not straddling 16 bytes), standard uniform buffer layout (base alignment
//! for uniform buffers) and, where none of those fits, scalar block layout
//! (scalar alignment, padding of structs and arrays may be reused), which
//! is never checked: it is the answer when the others all fail.
//!
//! The checked tree is the one the SPIR-V module declares (naga's writer):
//! in a uniform buffer, a two-row matrix reached from the root through
//! struct members of array or root structs is split into its column vectors
//! (see naga's "std140 compatible" types); everywhere else it stays a
//! matrix. The matrices the SPIR-V backend declares as columns itself
//! ([`uniform_column_split`]) are their column vectors.
//!
//! The SPIR-V backend asks [`required_features`] and only prints the answer.

use crate::layout::realize::spirv::{uniform_column_split, ColumnSplit};
use crate::layout::{Layout, LayoutKind, LayoutModule, ScalarKind};

/// A Vulkan feature that relaxes block layout rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Feature {
    RelaxedBlockLayout,
    UniformBufferStandardLayout,
    ScalarBlockLayout,
}

/// A type as naga's writer declares it in the buffer.
#[derive(Clone, Debug)]
enum Node<'a> {
    Scalar(u64),
    Vector {
        count: u64,
        width: u64,
    },
    Matrix {
        columns: u64,
        rows: u64,
        width: u64,
        stride: u64,
    },
    Array {
        element: Box<Node<'a>>,
        stride: u64,
        count: Option<u64>,
    },
    Struct(Vec<(Label<'a>, u64, Node<'a>)>),
}

/// A member's name, formatted only for an error message: a member as
/// declared, or one column of a split matrix (`m_col1`, or `col1` when the
/// matrix itself is split).
#[derive(Clone, Copy, Debug)]
enum Label<'a> {
    Member(&'a str),
    Column(&'a str, u64),
}

impl std::fmt::Display for Label<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Label::Member(name) => f.write_str(name),
            Label::Column("", c) => write!(f, "col{c}"),
            Label::Column(name, c) => write!(f, "{name}_col{c}"),
        }
    }
}

/// One of Vulkan's block-layout rule sets.
#[derive(Clone, Copy, Debug)]
struct Rules {
    /// Round struct, array and matrix alignment up to 16 (uniform buffers
    /// without the standard uniform buffer layout).
    extended: bool,
    /// Vectors align to their component and do not straddle 16 bytes.
    relaxed: bool,
}

/// Standard layout of a uniform buffer: extended alignment.
const EXTENDED: Rules = Rules {
    extended: true,
    relaxed: false,
};

/// Standard layout of a storage buffer or push constants, and of a uniform
/// buffer with `uniformBufferStandardLayout`: base alignment.
const BASE: Rules = Rules {
    extended: false,
    ..EXTENDED
};

/// [`EXTENDED`] with relaxed block layout.
const EXTENDED_RELAXED: Rules = Rules {
    relaxed: true,
    ..EXTENDED
};

/// [`BASE`] with relaxed block layout.
const BASE_RELAXED: Rules = Rules {
    relaxed: true,
    ..BASE
};

/// For a buffer that breaks its standard layout, the rule sets to try in
/// order, each with the features that allow it; where none fits, scalar
/// block layout does.
const UNIFORM_FALLBACKS: [(Rules, &[Feature]); 3] = [
    (EXTENDED_RELAXED, &[Feature::RelaxedBlockLayout]),
    (BASE, &[Feature::UniformBufferStandardLayout]),
    (
        BASE_RELAXED,
        &[
            Feature::UniformBufferStandardLayout,
            Feature::RelaxedBlockLayout,
        ],
    ),
];
const STORAGE_FALLBACKS: [(Rules, &[Feature]); 1] =
    [(BASE_RELAXED, &[Feature::RelaxedBlockLayout])];

struct Tree<'a> {
    contract: &'a LayoutModule,
    uniform: bool,
    /// The matrices [`uniform_column_split`] names are declared as columns.
    columns: ColumnSplit,
    depth: u32,
}

impl<'a> Tree<'a> {
    /// Is the uniform matrix of contract `layout` declared as its column
    /// vectors: by naga (two rows, where `split`) or by stride?
    fn splits(&self, layout: &Layout, split: bool) -> bool {
        let LayoutKind::Matrix { rows, .. } = layout.kind else {
            return false;
        };
        self.uniform
            && ((split && rows == 2) || uniform_column_split(layout, self.columns).is_some())
    }

    fn node(&mut self, layout: &'a Layout, split: bool) -> Node<'a> {
        match &layout.kind {
            LayoutKind::Scalar(s) | LayoutKind::Atomic(s) => Node::Scalar(scalar_width(*s)),
            LayoutKind::Vector { size, scalar } => Node::Vector {
                count: u64::from(*size),
                width: scalar_width(*scalar),
            },
            LayoutKind::Matrix {
                columns,
                rows,
                scalar,
                column_stride,
            } => {
                let width = scalar_width(*scalar);
                if self.splits(layout, split) {
                    Node::Struct(
                        (0..u64::from(*columns))
                            .map(|c| {
                                (
                                    Label::Column("", c),
                                    c.saturating_mul(*column_stride),
                                    Node::Vector {
                                        count: u64::from(*rows),
                                        width,
                                    },
                                )
                            })
                            .collect(),
                    )
                } else {
                    Node::Matrix {
                        columns: u64::from(*columns),
                        rows: u64::from(*rows),
                        width,
                        stride: *column_stride,
                    }
                }
            }
            LayoutKind::Array {
                element,
                stride,
                count,
            } => Node::Array {
                element: Box::new(self.node(element, split)),
                stride: *stride,
                count: *count,
            },
            LayoutKind::Struct(ty) => self.struct_node(*ty, split),
        }
    }

    fn struct_node(&mut self, ty: naga::Handle<naga::Type>, split: bool) -> Node<'a> {
        let Some(sl) = self.contract.structs.get(&ty) else {
            return Node::Struct(Vec::new());
        };
        // Guard against a malformed (cyclic) layout.
        if self.depth > 64 {
            return Node::Struct(Vec::new());
        }
        self.depth += 1;
        let mut members = Vec::new();
        for m in sl.members() {
            match &m.layout.kind {
                LayoutKind::Matrix {
                    columns,
                    rows,
                    scalar,
                    column_stride,
                } if self.splits(&m.layout, split) => {
                    let width = scalar_width(*scalar);
                    for c in 0..u64::from(*columns) {
                        members.push((
                            Label::Column(&m.name, c),
                            m.offset.saturating_add(c.saturating_mul(*column_stride)),
                            Node::Vector {
                                count: u64::from(*rows),
                                width,
                            },
                        ));
                    }
                }
                // naga declares a struct-typed member of a struct with its
                // ordinary type: nothing below it is split.
                LayoutKind::Struct(_) => {
                    let n = self.node(&m.layout, false);
                    members.push((Label::Member(&m.name), m.offset, n));
                }
                _ => {
                    let n = self.node(&m.layout, split);
                    members.push((Label::Member(&m.name), m.offset, n));
                }
            }
        }
        self.depth -= 1;
        Node::Struct(members)
    }
}

fn scalar_width(s: crate::layout::Scalar) -> u64 {
    match s.kind {
        // Booleans are not host-shareable; treat them as 32-bit.
        ScalarKind::Bool => 4,
        _ => u64::from(s.width),
    }
}

use crate::layout::rules::round_up_saturating as round_up;

fn vector_alignment(count: u64, width: u64) -> u64 {
    if count == 2 {
        2 * width
    } else {
        4 * width
    }
}

fn alignment(n: &Node, rules: Rules) -> u64 {
    let extend = |a: u64| if rules.extended { round_up(16, a) } else { a };
    match n {
        Node::Scalar(w) => *w,
        Node::Vector { count, width } => vector_alignment(*count, *width),
        Node::Matrix { rows, width, .. } => extend(vector_alignment(*rows, *width)),
        Node::Array { element, .. } => extend(alignment(element, rules)),
        Node::Struct(members) => extend(
            members
                .iter()
                .map(|(_, _, m)| alignment(m, rules))
                .max()
                .unwrap_or(1),
        ),
    }
}

/// The size as `spirv-val` computes it: up to the last byte used.
fn size(n: &Node) -> u64 {
    match n {
        Node::Scalar(w) => *w,
        Node::Vector { count, width } => count * width,
        Node::Matrix {
            columns,
            rows,
            width,
            stride,
        } => columns
            .saturating_sub(1)
            .saturating_mul(*stride)
            .saturating_add(rows * width),
        Node::Array {
            element,
            stride,
            count,
        } => match count {
            Some(c) => c
                .saturating_sub(1)
                .saturating_mul(*stride)
                .saturating_add(size(element)),
            None => 0,
        },
        Node::Struct(members) => members
            .iter()
            .max_by_key(|(_, o, _)| *o)
            .map(|(_, o, m)| o.saturating_add(size(m)))
            .unwrap_or(0),
    }
}

fn straddles(offset: u64, size: u64) -> bool {
    if size <= 16 {
        size > 0 && offset / 16 != offset.saturating_add(size - 1) / 16
    } else {
        !offset.is_multiple_of(16)
    }
}

/// Where a node sits under the global (`name.member[1].x`), formatted only
/// for an error message.
#[derive(Clone, Copy)]
enum Path<'a> {
    Root(&'a str),
    Field(&'a Path<'a>, Label<'a>),
    Index(&'a Path<'a>, u64),
}

impl std::fmt::Display for Path<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Path::Root(name) => f.write_str(name),
            Path::Field(parent, name) => write!(f, "{parent}.{name}"),
            Path::Index(parent, i) => write!(f, "{parent}[{i}]"),
        }
    }
}

/// Check a struct laid out at `base`; the error names the first violation.
fn check_struct(
    members: &[(Label<'_>, u64, Node<'_>)],
    base: u64,
    rules: Rules,
    path: &Path<'_>,
) -> Result<(), String> {
    let mut sorted: Vec<&(Label<'_>, u64, Node<'_>)> = members.iter().collect();
    sorted.sort_by_key(|(_, o, _)| *o);
    let mut next_valid = 0u64;
    for (name, rel, node) in sorted {
        let offset = base.saturating_add(*rel);
        let path = Path::Field(path, *name);
        let align = alignment(node, rules);
        if let (true, Node::Vector { width, .. }) = (rules.relaxed, node) {
            if !offset.is_multiple_of(*width) {
                return Err(format!(
                    "`{path}` at offset {offset} is not aligned to its component size {width}"
                ));
            }
            if straddles(offset, size(node)) {
                return Err(format!(
                    "`{path}` at offset {offset} is a vector that straddles a 16-byte boundary"
                ));
            }
        } else if !offset.is_multiple_of(align) {
            return Err(format!(
                "`{path}` at offset {offset} is not aligned to {align}"
            ));
        }
        if offset < base.saturating_add(next_valid) {
            return Err(format!(
                "`{path}` at offset {offset} lies in the padding that ends at offset {}",
                base.saturating_add(next_valid)
            ));
        }
        check_node(node, offset, align, rules, &path)?;
        next_valid = rel.saturating_add(size(node));
        if matches!(node, Node::Array { .. } | Node::Struct(_)) {
            next_valid = round_up(align, next_valid);
        }
    }
    Ok(())
}

fn check_node(
    node: &Node,
    offset: u64,
    align: u64,
    rules: Rules,
    path: &Path<'_>,
) -> Result<(), String> {
    match node {
        Node::Struct(members) => check_struct(members, offset, rules, path),
        Node::Matrix { stride, .. } => {
            if !stride.is_multiple_of(align) {
                return Err(format!(
                    "`{path}` is a matrix with column stride {stride}, not a multiple of {align}"
                ));
            }
            Ok(())
        }
        Node::Array {
            element,
            stride,
            count,
        } => {
            if *stride == 0 || !stride.is_multiple_of(align) {
                return Err(format!(
                    "`{path}` is an array with stride {stride}, not a multiple of {align}"
                ));
            }
            let element_size = size(element);
            if element_size > *stride {
                return Err(format!(
                    "`{path}` is an array with stride {stride} but elements of {element_size} bytes"
                ));
            }
            // Elements differ only by a multiple of the stride; check the
            // first two (the second shows straddling that depends on it).
            let checked = count.unwrap_or(2).clamp(1, 2);
            for i in 0..checked {
                let element_align = alignment(element, rules);
                check_node(
                    element,
                    offset.saturating_add(i.saturating_mul(*stride)),
                    element_align,
                    rules,
                    &Path::Index(path, i),
                )?;
            }
            Ok(())
        }
        Node::Scalar(_) | Node::Vector { .. } => Ok(()),
    }
}

fn check_root(root: &Node, rules: Rules, name: &str) -> Result<(), String> {
    match root {
        Node::Struct(members) => check_struct(members, 0, rules, &Path::Root(name)),
        other => check_struct(
            &[(Label::Member(""), 0, other.clone())],
            0,
            rules,
            &Path::Root(name),
        ),
    }
}

/// The features a global's buffer needs beyond Vulkan's standard layout, and
/// the first rule that the standard layout breaks.
pub fn required_features(
    contract: &LayoutModule,
    global: &crate::layout::GlobalLayout,
) -> Option<(Vec<Feature>, String)> {
    required_features_of(contract, global, ColumnSplit::Standard)
}

/// [`required_features`] of the module as declared with the SPIR-V
/// backend's column split `columns` of uniform matrices.
pub fn required_features_of(
    contract: &LayoutModule,
    global: &crate::layout::GlobalLayout,
    columns: ColumnSplit,
) -> Option<(Vec<Feature>, String)> {
    let uniform = match global.space {
        naga::AddressSpace::Uniform => true,
        naga::AddressSpace::Storage { .. } | naga::AddressSpace::Immediate => false,
        _ => return None,
    };
    let mut tree = Tree {
        contract,
        uniform,
        columns,
        depth: 0,
    };
    let root = tree.node(&global.layout, true);
    let name = global.name.as_str();
    let (standard, fallbacks): (Rules, &[(Rules, &[Feature])]) = if uniform {
        (EXTENDED, &UNIFORM_FALLBACKS)
    } else {
        (BASE, &STORAGE_FALLBACKS)
    };
    let reason = check_root(&root, standard, name).err()?;
    let features = fallbacks
        .iter()
        .find(|(rules, _)| check_root(&root, *rules, name).is_ok())
        .map_or_else(|| vec![Feature::ScalarBlockLayout], |(_, f)| f.to_vec());
    Some((features, reason))
}
