//! HLSL backend: one file holding every entry point of a module (or the one
//! `-e` picks), whose cbuffers and byte-address buffers read exactly the
//! contract bytes.
//!
//! Parts:
//!
//! - [`buffers`]: how uniform, storage and push-constant globals are
//!   declared and reached. Uniforms (and push constants) are `cbuffer`s
//!   whose members are the WGSL type's top-level members, each with
//!   `packoffset(cN.x)` from the contract; nested structs become padded
//!   buffer variants. Storage globals are `ByteAddressBuffer` /
//!   `RWByteAddressBuffer`, read and written at the contract's byte offsets.
//! - `types`: HLSL spellings of value types, array typedefs and the value
//!   struct declarations.
//! - `decl`: the module driver: override baking, naming,
//!   registers, resource declarations, private and workgroup globals, and
//!   the entry points' input and output structs with their semantics.
//! - `func`: function bodies (expressions, statements, WGSL's defined
//!   behaviours as helper functions), with `func::image` (textures) and
//!   `func::math` (builtin functions).
//! - `keywords`: reserved words the namer avoids.
//!
//! Conventions every part keeps:
//!
//! - Matrices. WGSL `matCxR<T>` (C columns of R rows) is HLSL `TCxR`: C rows
//!   of R components, HLSL row `i` holding WGSL column `i`, so `m[i]` is the
//!   same vector in both languages and a matrix is built from its WGSL
//!   columns (`float3x4(c0, c1, c2)`). Products swap: WGSL `a * b` with a
//!   matrix operand is `mul(b, a)`. The file starts with
//!   `#pragma pack_matrix(row_major)`, so every matrix in memory stores its
//!   HLSL rows (the WGSL columns) contiguously, and buffer members also say
//!   `row_major` explicitly.
//! - Scalars: `f32` float, `i32` int, `u32` uint, `bool` bool, `f16`
//!   `float16_t` (shader model 6.2 with `-enable-16bit-types`), `f64`
//!   double, `i64` int64_t, `u64` uint64_t.
//! - Fixed-size array types are named by typedefs (`typedef float
//!   _s_array4_float[4];`), so that arrays are values like any other type:
//!   locals, struct members, function results and constructor helpers.
//! - Every name stride invents starts with `_s_`; naga's namer keeps module
//!   names away from that prefix and from HLSL's reserved words.

/// `format!` into a string with room for a typical piece of HLSL, so that
/// writing the arguments rarely has to grow it (`format!` starts from a
/// small guess and grows as it writes).
macro_rules! text {
    ($($arg:tt)*) => {{
        use std::fmt::Write as _;
        let mut text = String::with_capacity(64);
        let _ = write!(text, $($arg)*);
        text
    }};
}

pub(crate) use crate::back::common::{push_decimal, push_parts};

mod buffers;
pub(crate) mod decl;
mod func;
mod keywords;
mod types;

use crate::diag::Diagnostic;

/// The shader models `--shader-model` accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub enum ShaderModel {
    Sm5_1,
    #[default]
    Sm6_0,
    Sm6_1,
    Sm6_2,
    Sm6_3,
    Sm6_4,
    Sm6_5,
    Sm6_6,
}

impl ShaderModel {
    pub const ALL: [ShaderModel; 8] = [
        ShaderModel::Sm5_1,
        ShaderModel::Sm6_0,
        ShaderModel::Sm6_1,
        ShaderModel::Sm6_2,
        ShaderModel::Sm6_3,
        ShaderModel::Sm6_4,
        ShaderModel::Sm6_5,
        ShaderModel::Sm6_6,
    ];

    /// The spelling on the command line and in target profiles: `6_0`,
    /// in declaration (and [`ShaderModel::ALL`]) order.
    const NAMES: [&'static str; 8] = ["5_1", "6_0", "6_1", "6_2", "6_3", "6_4", "6_5", "6_6"];

    /// The spelling on the command line and in target profiles: `6_0`.
    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }

    pub fn from_name(name: &str) -> Option<ShaderModel> {
        let name = name.replace('.', "_");
        ShaderModel::ALL.into_iter().find(|m| m.name() == name)
    }

    /// (major, minor): the models after 5.1 are 6.0, 6.1, ... in
    /// declaration order.
    pub fn version(self) -> (u8, u8) {
        match self {
            ShaderModel::Sm5_1 => (5, 1),
            sm6 => (6, sm6 as u8 - ShaderModel::Sm6_0 as u8),
        }
    }

    /// The target profile for `stage`, e.g. `cs_6_0`.
    pub fn profile(self, stage: naga::ShaderStage) -> String {
        let prefix = match stage {
            naga::ShaderStage::Vertex => "vs",
            naga::ShaderStage::Fragment => "ps",
            naga::ShaderStage::Task => "as",
            naga::ShaderStage::Mesh => "ms",
            _ => "cs",
        };
        format!("{prefix}_{}", self.name())
    }
}

impl std::fmt::Display for ShaderModel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (major, minor) = self.version();
        write!(f, "{major}.{minor}")
    }
}

/// How resource registers are chosen (`--registers`); assigned by
/// [`crate::bind::d3d`].
pub use crate::bind::d3d::RegisterMode;

#[derive(Clone, Debug, PartialEq, Default)]
pub struct HlslOptions {
    /// The shader model to write for (`--shader-model`); a module that
    /// needs a higher one is an error. `None` (the default): the lowest
    /// model the module needs, at least 6.0, with a note when above it
    /// (f16 and 16- or 64-bit storage values: 6.2). [`HlslOutput`] says
    /// which model was written.
    pub shader_model: Option<ShaderModel>,
    pub registers: RegisterMode,
    /// Write Slang rather than HLSL (`--target slang`): the same program,
    /// plus `[[vk::binding(b, set)]]` on every resource (the WGSL binding,
    /// so Slang's SPIR-V binds like stride's), `[[vk::push_constant]]` on
    /// the immediate-data cbuffer, and `[shader("stage")]` on entry points.
    pub slang: bool,
}

/// One entry point in the output file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HlslEntryPoint {
    /// The WGSL name.
    pub name: String,
    /// The HLSL function name (what `-E` names to a compiler).
    pub function: String,
    pub stage: naga::ShaderStage,
}

impl HlslEntryPoint {
    /// The target profile to compile this entry point with.
    pub fn profile(&self, model: ShaderModel) -> String {
        model.profile(self.stage)
    }
}

/// Where one resource is bound.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HlslRegister {
    /// The WGSL global's name (for stride's own globals, such as the
    /// workgroup count, the HLSL name).
    pub global: String,
    /// The HLSL declaration's name.
    pub hlsl_name: String,
    /// `cbuffer`, `byte-address-buffer`, `rw-byte-address-buffer`,
    /// `texture`, `rw-texture`, `sampler`, `comparison-sampler`.
    pub kind: &'static str,
    /// `b`, `t`, `u` or `s`.
    pub class: char,
    pub register: u32,
    pub space: u32,
    /// Registers taken: 1, or the length of a binding array.
    pub count: u32,
    /// A cbuffer declared as `uint4` words (its layout is one D3D's
    /// packing cannot hold): the host writes the same bytes.
    pub words: bool,
}

/// The HLSL names of what the WGSL source names, for tools that read the
/// output (the DXC oracle test maps DXC's listing back to the contract
/// with them).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HlslNames {
    /// Per named WGSL struct: its WGSL name, its HLSL name, and the HLSL
    /// names of its members by member index.
    pub structs: Vec<(String, String, Vec<String>)>,
    /// Per uniform or push-constant global: its WGSL name, the cbuffer's
    /// name, and per WGSL member (a global of a non-struct type: its one
    /// value) the cbuffer member's name; a matrix split into columns is
    /// the prefix of its column members `<name>_c<j>`.
    pub cbuffers: Vec<(String, String, Vec<String>)>,
}

#[derive(Clone, Debug, Default)]
pub struct HlslOutput {
    pub text: String,
    /// The shader model the text is written for: the options' model, or
    /// the one chosen for the module.
    pub shader_model: ShaderModel,
    pub entry_points: Vec<HlslEntryPoint>,
    /// Every resource of the module in declaration order.
    pub registers: Vec<HlslRegister>,
    pub names: HlslNames,
    pub warnings: Vec<Diagnostic>,
}

/// Everything the parts of the writer share for one module.
pub(crate) type Ctx<'a> =
    crate::back::common::WriterCtx<'a, HlslOptions, buffers::Plan, types::TypeNames, ShaderModel>;

impl Ctx<'_> {
    /// The shader model written for, decided before writing
    /// (`decl::model`).
    pub fn shader_model(&self) -> ShaderModel {
        self.target
    }
}

/// What writing the module's code found it needs, collected while writing
/// and printed above the functions.
#[derive(Default)]
pub(crate) struct Needs {
    /// Helper functions (polyfills for WGSL's defined behaviours, buffer
    /// loads and stores, array constructors, texture queries), keyed by the
    /// function's HLSL name, in first-use order. Each value is the complete
    /// definition. A helper that calls another adds that one first.
    pub helpers: naga::FastIndexMap<String, String>,
    /// Errors found while writing (a construct HLSL or the chosen shader
    /// model cannot express).
    pub errors: Vec<Diagnostic>,
}

impl Needs {
    /// Add helper `name` unless present; `define` is called only the first
    /// time, and helpers it adds itself come before it.
    pub fn helper(&mut self, name: &str, define: impl FnOnce(&mut Needs) -> String) {
        if !self.helpers.contains_key(name) {
            let text = define(self);
            if self.helpers.capacity() == 0 {
                // Room for a typical module's helpers, rather than
                // growing the map through each power of two.
                self.helpers.reserve(8);
            }
            self.helpers.insert(name.to_string(), text);
        }
    }

    pub fn error(&mut self, error: Diagnostic) {
        if !self.errors.contains(&error) {
            self.errors.push(error);
        }
    }
}

/// The note on every error about a buffer layout that is valid WGSL (the
/// SPIR-V target writes it) but that HLSL's cbuffer packing cannot express.
pub const INEXPRESSIBLE_NOTE: &str =
    "the layout is valid and --target spirv writes it; only HLSL's cbuffer packing rules cannot express it";

pub(crate) use crate::back::common::error_at;
