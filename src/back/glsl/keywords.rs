//! Words a GLSL identifier must not be: keywords, reserved words, builtin
//! variables and functions, and the prefixes reserved by GLSL and by stride.
//! (Owned by the module part.)
//!
//! Two sets, because naga's namer treats them differently:
//!
//! - [`RESERVED`]: words that are never identifiers (keywords, words GLSL
//!   reserves for future use, type names of GLSL 4.60, ES 3.20, Vulkan GLSL
//!   and the extensions stride enables). They are avoided everywhere,
//!   struct members included.
//! - [`BUILTINS`]: names of builtin functions (and `main`). A global, a
//!   local or a function of that name would hide or overload the builtin,
//!   so the namer avoids them at module and function scope; struct members
//!   may keep them (`s.mix` is fine).
//!
//! Builtin variables all start with `gl_`, which is a reserved prefix
//! ([`RESERVED_PREFIXES`]), as is `_s_` for stride's own helpers and
//! entry-point interface variables. GLSL also reserves every identifier
//! containing `__`: naga's namer collapses runs of `_` in source names, and
//! `decl` repairs the one case it leaves (the `gen_` it puts before a
//! reserved prefix such as `_s_`).

use crate::back::common::{extend_leaked, products, size_suffixes};
use naga::proc::KeywordSet;
use std::sync::LazyLock;

/// Prefixes no source identifier may keep: `gl_` (GLSL builtins) and
/// `_s_` (stride's helper functions and interface variables).
pub const RESERVED_PREFIXES: &[&str] = &["gl_", "_s_"];

/// Keywords, reserved words and type names.
pub static RESERVED: LazyLock<KeywordSet> = LazyLock::new(|| {
    let mut set = KeywordSet::new();
    set.extend(KEYWORDS);
    set.extend(FUTURE_RESERVED);
    set.extend(EXTENSION_KEYWORDS);
    let bases: Vec<String> = OPAQUE_BASES.iter().map(|b| b.to_string()).collect();
    extend_leaked(&mut set, products(&["", "i", "u"], &bases));
    extend_leaked(
        &mut set,
        products(VECTOR_PREFIXES, &size_suffixes("vec", 2, false)),
    );
    extend_leaked(
        &mut set,
        products(MATRIX_PREFIXES, &size_suffixes("mat", 2, true)),
    );
    set.extend(SIZED_SCALARS);
    set
});

/// Builtin function names and `main`.
pub static BUILTINS: LazyLock<KeywordSet> = LazyLock::new(|| {
    let mut set = KeywordSet::new();
    set.extend(BUILTIN_FUNCTIONS);
    set.extend(["main"]);
    set
});

/// GLSL 4.60 and ES 3.20 keywords (qualifiers, control flow, the basic
/// types that are not generated below).
const KEYWORDS: &[&str] = &[
    "attribute",
    "const",
    "uniform",
    "varying",
    "buffer",
    "shared",
    "coherent",
    "volatile",
    "restrict",
    "readonly",
    "writeonly",
    "atomic_uint",
    "layout",
    "centroid",
    "flat",
    "smooth",
    "noperspective",
    "patch",
    "sample",
    "invariant",
    "precise",
    "break",
    "continue",
    "do",
    "for",
    "while",
    "switch",
    "case",
    "default",
    "if",
    "else",
    "subroutine",
    "in",
    "out",
    "inout",
    "void",
    "true",
    "false",
    "discard",
    "return",
    "lowp",
    "mediump",
    "highp",
    "precision",
    "struct",
    "bool",
    "int",
    "uint",
    "float",
    "double",
    // Vulkan GLSL
    "sampler",
    "samplerShadow",
    "subpassInput",
    "isubpassInput",
    "usubpassInput",
    "subpassInputMS",
    "isubpassInputMS",
    "usubpassInputMS",
];

/// Words GLSL reserves for future use: using one is an error.
const FUTURE_RESERVED: &[&str] = &[
    "common",
    "partition",
    "active",
    "asm",
    "class",
    "union",
    "enum",
    "typedef",
    "template",
    "this",
    "resource",
    "goto",
    "inline",
    "noinline",
    "public",
    "static",
    "extern",
    "external",
    "interface",
    "long",
    "short",
    "half",
    "fixed",
    "unsigned",
    "superp",
    "input",
    "output",
    "hvec2",
    "hvec3",
    "hvec4",
    "fvec2",
    "fvec3",
    "fvec4",
    "filter",
    "sizeof",
    "cast",
    "namespace",
    "using",
    "sampler3DRect",
    "iimage2DRect",
    "uimage2DRect",
];

/// Keywords that extensions add (glslang treats them as keywords whenever
/// the extension is known, enabled or not).
const EXTENSION_KEYWORDS: &[&str] = &[
    "demote",
    "terminateInvocation",
    "terminateRayEXT",
    "ignoreIntersectionEXT",
    "nonuniformEXT",
    "devicecoherent",
    "queuefamilycoherent",
    "workgroupcoherent",
    "subgroupcoherent",
    "nonprivate",
    "shadercallcoherent",
    "pervertexNV",
    "pervertexEXT",
    "perprimitiveNV",
    "perprimitiveEXT",
    "perviewNV",
    "taskNV",
    "taskPayloadSharedEXT",
    "rayPayloadEXT",
    "rayPayloadInEXT",
    "hitAttributeEXT",
    "callableDataEXT",
    "callableDataInEXT",
    "accelerationStructureEXT",
    "rayQueryEXT",
    "hitObjectNV",
    "hitObjectAttributeNV",
    "spirv_instruction",
    "spirv_execution_mode",
    "spirv_execution_mode_id",
    "spirv_decorate",
    "spirv_decorate_id",
    "spirv_decorate_string",
    "spirv_type",
    "spirv_storage_class",
    "spirv_by_reference",
    "spirv_literal",
    "coopmat",
    "fcoopmatNV",
    "icoopmatNV",
    "ucoopmatNV",
    "tensorARM",
    "tensorLayoutNV",
    "tensorViewNV",
    "attributeEXT",
    "bfloat16_t",
    "floate5m2_t",
    "floate4m3_t",
];

/// Sampler, texture and image type names without their `i`/`u` prefix.
const OPAQUE_BASES: &[&str] = &[
    "sampler1D",
    "sampler2D",
    "sampler3D",
    "samplerCube",
    "sampler1DShadow",
    "sampler2DShadow",
    "samplerCubeShadow",
    "sampler1DArray",
    "sampler2DArray",
    "sampler1DArrayShadow",
    "sampler2DArrayShadow",
    "samplerCubeArray",
    "samplerCubeArrayShadow",
    "sampler2DRect",
    "sampler2DRectShadow",
    "samplerBuffer",
    "sampler2DMS",
    "sampler2DMSArray",
    "samplerExternalOES",
    "texture1D",
    "texture2D",
    "texture3D",
    "textureCube",
    "texture1DArray",
    "texture2DArray",
    "textureCubeArray",
    "texture2DRect",
    "textureBuffer",
    "texture2DMS",
    "texture2DMSArray",
    "image1D",
    "image2D",
    "image3D",
    "imageCube",
    "image1DArray",
    "image2DArray",
    "imageCubeArray",
    "image2DRect",
    "imageBuffer",
    "image2DMS",
    "image2DMSArray",
    "i64image1D",
    "i64image2D",
    "i64image3D",
    "u64image1D",
    "u64image2D",
    "u64image3D",
    "i64image2DArray",
    "u64image2DArray",
];

/// Prefixes of the vector type names (`vec3`, `bvec2`, `f16vec4`, `u8vec2`, ...).
const VECTOR_PREFIXES: &[&str] = &[
    "", "b", "i", "u", "d", "f16", "f32", "f64", "i8", "i16", "i32", "i64", "u8", "u16", "u32",
    "u64", "h",
];

/// Prefixes of the matrix type names (`mat3`, `dmat2x4`, `f16mat3x2`, ...).
const MATRIX_PREFIXES: &[&str] = &["", "d", "f16", "f32", "f64"];

/// The scalar type names of explicit width.
const SIZED_SCALARS: &[&str] = &[
    "float16_t",
    "float32_t",
    "float64_t",
    "int8_t",
    "int16_t",
    "int32_t",
    "int64_t",
    "uint8_t",
    "uint16_t",
    "uint32_t",
    "uint64_t",
];

/// Builtin functions of GLSL 4.60 and ES 3.20, and of the extensions stride
/// uses (subgroups, demote, nonuniform).
const BUILTIN_FUNCTIONS: &[&str] = &[
    // angle and trigonometry
    "radians",
    "degrees",
    "sin",
    "cos",
    "tan",
    "asin",
    "acos",
    "atan",
    "sinh",
    "cosh",
    "tanh",
    "asinh",
    "acosh",
    "atanh",
    // exponential
    "pow",
    "exp",
    "log",
    "exp2",
    "log2",
    "sqrt",
    "inversesqrt",
    // common
    "abs",
    "sign",
    "floor",
    "trunc",
    "round",
    "roundEven",
    "ceil",
    "fract",
    "mod",
    "modf",
    "min",
    "max",
    "clamp",
    "mix",
    "step",
    "smoothstep",
    "isnan",
    "isinf",
    "floatBitsToInt",
    "floatBitsToUint",
    "intBitsToFloat",
    "uintBitsToFloat",
    "fma",
    "frexp",
    "ldexp",
    "doubleBitsToInt64",
    "doubleBitsToUint64",
    "int64BitsToDouble",
    "uint64BitsToDouble",
    "float16BitsToInt16",
    "float16BitsToUint16",
    "int16BitsToFloat16",
    "uint16BitsToFloat16",
    // packing
    "packUnorm2x16",
    "packSnorm2x16",
    "packUnorm4x8",
    "packSnorm4x8",
    "unpackUnorm2x16",
    "unpackSnorm2x16",
    "unpackUnorm4x8",
    "unpackSnorm4x8",
    "packHalf2x16",
    "unpackHalf2x16",
    "packDouble2x32",
    "unpackDouble2x32",
    "packFloat2x16",
    "unpackFloat2x16",
    "packInt2x32",
    "unpackInt2x32",
    "packUint2x32",
    "unpackUint2x32",
    // geometry
    "length",
    "distance",
    "dot",
    "cross",
    "normalize",
    "ftransform",
    "faceforward",
    "reflect",
    "refract",
    // matrices
    "matrixCompMult",
    "outerProduct",
    "transpose",
    "determinant",
    "inverse",
    // vector relations
    "lessThan",
    "lessThanEqual",
    "greaterThan",
    "greaterThanEqual",
    "equal",
    "notEqual",
    "any",
    "all",
    "not",
    // integers
    "uaddCarry",
    "usubBorrow",
    "umulExtended",
    "imulExtended",
    "bitfieldExtract",
    "bitfieldInsert",
    "bitfieldReverse",
    "bitCount",
    "findLSB",
    "findMSB",
    // textures
    "textureSize",
    "textureQueryLod",
    "textureQueryLevels",
    "textureSamples",
    "texture",
    "textureProj",
    "textureLod",
    "textureOffset",
    "texelFetch",
    "texelFetchOffset",
    "textureProjOffset",
    "textureLodOffset",
    "textureProjLod",
    "textureProjLodOffset",
    "textureGrad",
    "textureGradOffset",
    "textureProjGrad",
    "textureProjGradOffset",
    "textureGather",
    "textureGatherOffset",
    "textureGatherOffsets",
    "texture1D",
    "texture1DProj",
    "texture1DLod",
    "texture1DProjLod",
    "texture2DProj",
    "texture2DLod",
    "texture2DProjLod",
    "texture3DProj",
    "texture3DLod",
    "texture3DProjLod",
    "textureCubeLod",
    "shadow1D",
    "shadow2D",
    "shadow1DProj",
    "shadow2DProj",
    "shadow1DLod",
    "shadow2DLod",
    "shadow1DProjLod",
    "shadow2DProjLod",
    "sparseTextureARB",
    "sparseTexelsResidentARB",
    "textureGradClamp",
    "textureClamp",
    // atomics and images
    "atomicCounterIncrement",
    "atomicCounterDecrement",
    "atomicCounter",
    "atomicCounterAdd",
    "atomicCounterSubtract",
    "atomicCounterMin",
    "atomicCounterMax",
    "atomicCounterAnd",
    "atomicCounterOr",
    "atomicCounterXor",
    "atomicCounterExchange",
    "atomicCounterCompSwap",
    "atomicAdd",
    "atomicMin",
    "atomicMax",
    "atomicAnd",
    "atomicOr",
    "atomicXor",
    "atomicExchange",
    "atomicCompSwap",
    "atomicLoad",
    "atomicStore",
    "imageSize",
    "imageSamples",
    "imageLoad",
    "imageStore",
    "imageAtomicAdd",
    "imageAtomicMin",
    "imageAtomicMax",
    "imageAtomicAnd",
    "imageAtomicOr",
    "imageAtomicXor",
    "imageAtomicExchange",
    "imageAtomicCompSwap",
    "imageAtomicLoad",
    "imageAtomicStore",
    // fragment processing
    "dFdx",
    "dFdy",
    "dFdxFine",
    "dFdyFine",
    "dFdxCoarse",
    "dFdyCoarse",
    "fwidth",
    "fwidthFine",
    "fwidthCoarse",
    "interpolateAtCentroid",
    "interpolateAtSample",
    "interpolateAtOffset",
    "helperInvocationEXT",
    "beginInvocationInterlockARB",
    "endInvocationInterlockARB",
    // noise, geometry shaders
    "noise1",
    "noise2",
    "noise3",
    "noise4",
    "EmitStreamVertex",
    "EndStreamPrimitive",
    "EmitVertex",
    "EndPrimitive",
    // barriers
    "barrier",
    "memoryBarrier",
    "memoryBarrierAtomicCounter",
    "memoryBarrierBuffer",
    "memoryBarrierShared",
    "memoryBarrierImage",
    "groupMemoryBarrier",
    "controlBarrier",
    // Vulkan and votes
    "subpassLoad",
    "anyInvocation",
    "allInvocations",
    "allInvocationsEqual",
    "anyInvocationARB",
    "allInvocationsARB",
    "allInvocationsEqualARB",
    // subgroups
    "subgroupBarrier",
    "subgroupMemoryBarrier",
    "subgroupMemoryBarrierBuffer",
    "subgroupMemoryBarrierShared",
    "subgroupMemoryBarrierImage",
    "subgroupElect",
    "subgroupAll",
    "subgroupAny",
    "subgroupAllEqual",
    "subgroupBroadcast",
    "subgroupBroadcastFirst",
    "subgroupBallot",
    "subgroupInverseBallot",
    "subgroupBallotBitExtract",
    "subgroupBallotBitCount",
    "subgroupBallotInclusiveBitCount",
    "subgroupBallotExclusiveBitCount",
    "subgroupBallotFindLSB",
    "subgroupBallotFindMSB",
    "subgroupShuffle",
    "subgroupShuffleXor",
    "subgroupShuffleUp",
    "subgroupShuffleDown",
    "subgroupAdd",
    "subgroupMul",
    "subgroupMin",
    "subgroupMax",
    "subgroupAnd",
    "subgroupOr",
    "subgroupXor",
    "subgroupInclusiveAdd",
    "subgroupInclusiveMul",
    "subgroupInclusiveMin",
    "subgroupInclusiveMax",
    "subgroupInclusiveAnd",
    "subgroupInclusiveOr",
    "subgroupInclusiveXor",
    "subgroupExclusiveAdd",
    "subgroupExclusiveMul",
    "subgroupExclusiveMin",
    "subgroupExclusiveMax",
    "subgroupExclusiveAnd",
    "subgroupExclusiveOr",
    "subgroupExclusiveXor",
    "subgroupClusteredAdd",
    "subgroupClusteredMul",
    "subgroupClusteredMin",
    "subgroupClusteredMax",
    "subgroupClusteredAnd",
    "subgroupClusteredOr",
    "subgroupClusteredXor",
    "subgroupQuadBroadcast",
    "subgroupQuadSwapHorizontal",
    "subgroupQuadSwapVertical",
    "subgroupQuadSwapDiagonal",
    "subgroupQuadAll",
    "subgroupQuadAny",
    // ray queries
    "rayQueryInitializeEXT",
    "rayQueryProceedEXT",
    "rayQueryTerminateEXT",
    "rayQueryGenerateIntersectionEXT",
    "rayQueryConfirmIntersectionEXT",
    "rayQueryGetIntersectionTypeEXT",
    // debug output
    "debugPrintfEXT",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_from_the_issue_are_avoided() {
        for w in [
            "sample",
            "input",
            "output",
            "filter",
            "texture2D",
            "sampler",
            "buffer",
        ] {
            assert!(RESERVED.contains(w), "{w}");
        }
        for w in ["texture", "main", "mix", "barrier", "dFdx", "atomicAdd"] {
            assert!(BUILTINS.contains(w), "{w}");
        }
        for w in [
            "vec3",
            "dmat2x4",
            "f16vec2",
            "f16mat3x2",
            "uint64_t",
            "isampler2DArray",
        ] {
            assert!(RESERVED.contains(w), "{w}");
        }
        assert!(!RESERVED.contains("color"));
        assert!(!BUILTINS.contains("position"));
    }

    #[test]
    fn namer_renames_reserved_words_and_prefixes() {
        let mut namer = naga::proc::Namer::default();
        let module = naga::front::wgsl::parse_str(
            "struct S { sample: f32, mix: f32 }
             var<private> texture: S;
             var<private> gl_Thing: f32;
             var<private> _s_helper: f32;",
        )
        .expect("parses");
        let mut names = naga::FastHashMap::default();
        namer.reset(
            &module,
            &RESERVED,
            &BUILTINS,
            naga::proc::CaseInsensitiveKeywordSet::empty(),
            RESERVED_PREFIXES,
            &mut names,
        );
        let mut all: Vec<&str> = names.values().map(String::as_str).collect();
        all.sort_unstable();
        assert!(all.contains(&"sample_"), "{all:?}");
        assert!(all.contains(&"mix"), "{all:?}");
        assert!(all.contains(&"texture_"), "{all:?}");
        assert!(all.contains(&"gen_gl_Thing"), "{all:?}");
    }
}
