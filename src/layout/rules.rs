//! Rule sets, table-driven: one description per rule set ([`RuleTable`]),
//! one algorithm (the helpers on [`RuleTable`], used by `build`).
//!
//! Every rule set lays out a matrix `matCxR<T>` as `array<vecR<T>, C>` under
//! its own array rules, so a matrix's column stride, alignment and size follow
//! from the vector and array rows of its table.
//!
//! Choices where the reference documents leave room:
//! - `scalar` (Vulkan scalar block layout): every type aligns to its scalar
//!   component; struct sizes are rounded up to the struct's alignment (as
//!   glslang does) so that arrays of structs keep their members aligned.
//! - `hlsl-structured`: C-like natural layout. 32-bit types give the classic
//!   4-byte aligned, tightly packed structured-buffer layout; `f16` aligns to
//!   2 bytes and 64-bit scalars to 8 bytes (their natural C alignment, as DXC
//!   lays them out with 16-bit types enabled); vectors and matrices align to
//!   their component; struct sizes are rounded up to the struct alignment.
//! - `hlsl-cbuffer`: 16-byte registers. Scalars align to their width, vectors
//!   to their component, and neither straddles a register; structs, arrays and
//!   matrices start a register; array elements (and matrix columns) start a
//!   register and the last one is not padded; struct sizes are not rounded.

/// The description of one rule set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RuleTable {
    /// Honour the source's `@align`, `@size` and `@stride` (the contract only).
    pub attributes: bool,
    /// Vectors align to `width × (2 for vec2, 4 for vec3/vec4)`; otherwise a
    /// vector aligns to its component.
    pub vector_align_pow2: bool,
    /// Arrays (and matrices) align to at least this; array strides are
    /// rounded up to it.
    pub array_min_align: u64,
    /// Structs align to at least this.
    pub struct_min_align: u64,
    /// A struct's size is rounded up to its alignment.
    pub round_struct_size: bool,
    /// The last array element (matrix column) is not padded up to the stride.
    pub trim_last_element: bool,
    /// Scalars and vectors never straddle a register of this many bytes.
    pub register: Option<u64>,
}

const WGSL: RuleTable = RuleTable {
    attributes: true,
    vector_align_pow2: true,
    array_min_align: 1,
    struct_min_align: 1,
    round_struct_size: true,
    trim_last_element: false,
    register: None,
};

const STD140: RuleTable = RuleTable {
    attributes: false,
    vector_align_pow2: true,
    array_min_align: 16,
    struct_min_align: 16,
    round_struct_size: true,
    trim_last_element: false,
    register: None,
};

const STD430: RuleTable = RuleTable {
    attributes: false,
    ..WGSL
};

const SCALAR: RuleTable = RuleTable {
    attributes: false,
    vector_align_pow2: false,
    ..WGSL
};

const HLSL_CBUFFER: RuleTable = RuleTable {
    attributes: false,
    vector_align_pow2: false,
    array_min_align: 16,
    struct_min_align: 16,
    round_struct_size: false,
    trim_last_element: true,
    register: Some(16),
};

const HLSL_STRUCTURED: RuleTable = RuleTable {
    attributes: false,
    vector_align_pow2: false,
    ..WGSL
};

/// The largest size or offset stride accepts. Offsets, strides and sizes
/// are 32-bit in SPIR-V and in the targets' reflection data, and naga limits
/// any type to `i32::MAX` bytes; a larger layout would be accepted by the
/// listing targets and then rejected, without a span, by the SPIR-V one.
pub const MAX_BYTES: u64 = i32::MAX as u64;

/// `value` rounded up to a multiple of `align`, saturating at `u64::MAX`
/// (`align` 0 or 1 leaves it as is). For values already known to fit.
pub fn round_up_saturating(align: u64, value: u64) -> u64 {
    if align <= 1 {
        value
    } else {
        value.div_ceil(align).saturating_mul(align)
    }
}

/// `value` rounded up to a multiple of `align` (`align` > 0), or `None` on
/// overflow.
pub fn round_up(align: u64, value: u64) -> Option<u64> {
    if align == 0 {
        return None;
    }
    let rem = value % align;
    if rem == 0 {
        Some(value)
    } else {
        value.checked_add(align - rem)
    }
}

impl RuleTable {
    /// Size and alignment of a scalar of `width` bytes.
    pub fn scalar(&self, width: u8) -> (u64, u64) {
        let w = u64::from(width);
        (w, w)
    }

    /// Size and alignment of a vector of `components` scalars of `width` bytes.
    pub fn vector(&self, components: u8, width: u8) -> (u64, u64) {
        let w = u64::from(width);
        let n = u64::from(components);
        let align = if self.vector_align_pow2 {
            w * n.next_power_of_two()
        } else {
            w
        };
        (w * n, align)
    }

    /// Alignment and default stride of an array whose element has `size` and
    /// `align`; `None` on overflow.
    pub fn array_stride(&self, size: u64, align: u64) -> Option<(u64, u64)> {
        let align = align.max(self.array_min_align);
        Some((round_up(align, size)?, align))
    }

    /// Size of `count` elements of `element_size` bytes at `stride`.
    pub fn array_size(&self, stride: u64, element_size: u64, count: u64) -> Option<u64> {
        if count == 0 {
            return Some(0);
        }
        if self.trim_last_element {
            stride.checked_mul(count - 1)?.checked_add(element_size)
        } else {
            stride.checked_mul(count)
        }
    }

    /// A struct's alignment from the largest member alignment.
    pub fn struct_align(&self, max_member_align: u64) -> u64 {
        max_member_align.max(self.struct_min_align).max(1)
    }

    /// A struct's default size from the end of its last member.
    pub fn struct_size(&self, end: u64, align: u64) -> Option<u64> {
        if self.round_struct_size {
            round_up(align, end)
        } else {
            Some(end)
        }
    }

    /// The offset of a member placed at or after `offset`. `packed` is true
    /// for scalars and vectors, which never straddle a register.
    pub fn place(&self, offset: u64, align: u64, size: u64, packed: bool) -> Option<u64> {
        let at = round_up(align.max(1), offset)?;
        match self.register {
            Some(reg) if packed && (at % reg).checked_add(size)? > reg => round_up(reg, at),
            _ => Some(at),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RuleSet {
    /// The contract: WGSL memory layout plus the dialect.
    Wgsl,
    Std140,
    Std430,
    Scalar,
    HlslCbuffer,
    HlslStructured,
}

impl RuleSet {
    pub const ALL: [RuleSet; 6] = [
        RuleSet::Wgsl,
        RuleSet::Std140,
        RuleSet::Std430,
        RuleSet::Scalar,
        RuleSet::HlslCbuffer,
        RuleSet::HlslStructured,
    ];

    /// The name used on the command line and in output.
    pub fn name(self) -> &'static str {
        match self {
            RuleSet::Wgsl => "wgsl",
            RuleSet::Std140 => "std140",
            RuleSet::Std430 => "std430",
            RuleSet::Scalar => "scalar",
            RuleSet::HlslCbuffer => "hlsl-cbuffer",
            RuleSet::HlslStructured => "hlsl-structured",
        }
    }

    pub fn from_name(name: &str) -> Option<RuleSet> {
        RuleSet::ALL.into_iter().find(|r| r.name() == name)
    }

    /// This rule set's description.
    pub fn table(self) -> &'static RuleTable {
        match self {
            RuleSet::Wgsl => &WGSL,
            RuleSet::Std140 => &STD140,
            RuleSet::Std430 => &STD430,
            RuleSet::Scalar => &SCALAR,
            RuleSet::HlslCbuffer => &HLSL_CBUFFER,
            RuleSet::HlslStructured => &HLSL_STRUCTURED,
        }
    }
}
