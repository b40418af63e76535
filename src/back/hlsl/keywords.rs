//! Words an HLSL identifier must not be: keywords, reserved words, type
//! names, intrinsic functions, and stride's reserved prefix. (Owned by the
//! module part.)
//!
//! Three sets, because naga's namer treats them differently:
//!
//! - [`RESERVED`]: words that are never identifiers in DXC (HLSL 2018 and
//!   2021): HLSL keywords and storage classes, the C++ words DXC's parser
//!   reserves, every object and numeric type name (`float4`, `Texture2D`,
//!   `min16float3x2`, ...), and legacy effect-framework words. Avoided
//!   everywhere, struct members included.
//! - [`BUILTINS`]: intrinsic functions (`mul`, `lerp`, `saturate`,
//!   `asfloat`, HLSL 2021's `select`, `and`, `or`, the wave and atomic
//!   intrinsics). A global or function of that name would hide or overload
//!   the intrinsic, so the namer avoids them at module and function scope.
//! - [`RESERVED_CASE_INSENSITIVE`]: effect-framework words that FXC and
//!   DXC treat as keywords in any letter case (`technique`, `Pass`, ...).
//!
//! [`RESERVED_PREFIXES`]: `_s_` starts every name stride invents (helper
//! functions, entry-point input and output structs and their members).

use naga::proc::{CaseInsensitiveKeywordSet, KeywordSet};
use std::sync::LazyLock;

/// Prefixes of names stride invents; no source identifier keeps them.
pub const RESERVED_PREFIXES: &[&str] = &["_s_"];

/// Keywords, reserved words and type names.
pub static RESERVED: LazyLock<KeywordSet> = LazyLock::new(|| {
    let mut set = KeywordSet::new();
    set.extend(KEYWORDS);
    set.extend(CPP_RESERVED);
    set.extend(OBJECT_TYPES);
    for &ty in numeric_type_names().iter() {
        set.extend(std::iter::once(ty));
    }
    set
});

/// Intrinsic function names.
pub static BUILTINS: LazyLock<KeywordSet> = LazyLock::new(|| {
    let mut set = KeywordSet::new();
    set.extend(INTRINSICS);
    set
});

/// Words reserved in any letter case.
pub static RESERVED_CASE_INSENSITIVE: LazyLock<CaseInsensitiveKeywordSet> =
    LazyLock::new(|| CASE_INSENSITIVE.iter().collect());

/// HLSL keywords, storage classes, modifiers and semantics-related words.
const KEYWORDS: &[&str] = &[
    "break",
    "case",
    "cbuffer",
    "centroid",
    "center",
    "class",
    "column_major",
    "const",
    "continue",
    "default",
    "discard",
    "do",
    "else",
    "export",
    "extern",
    "false",
    "for",
    "globallycoherent",
    "groupshared",
    "if",
    "in",
    "indices",
    "inline",
    "inout",
    "interface",
    "line",
    "lineadj",
    "linear",
    "namespace",
    "nointerpolation",
    "noperspective",
    "NULL",
    "out",
    "packoffset",
    "payload",
    "precise",
    "primitives",
    "register",
    "return",
    "row_major",
    "sample",
    "shared",
    "snorm",
    "static",
    "struct",
    "switch",
    "tbuffer",
    "template",
    "this",
    "triangle",
    "triangleadj",
    "true",
    "typedef",
    "uniform",
    "unorm",
    "unsigned",
    "vertices",
    "volatile",
    "while",
    "point",
    "string",
    "vector",
    "matrix",
    "void",
    "sizeof",
    "typename",
    "snorm",
    "groupshared",
    // Vulkan-flavoured and newer attributes DXC parses as keywords.
    "vk",
    "nodiscard",
    "numthreads",
    "earlydepthstencil",
];

/// C++ keywords (and alternative operator spellings) that DXC's parser
/// reserves in HLSL.
const CPP_RESERVED: &[&str] = &[
    "alignas",
    "alignof",
    "and",
    "and_eq",
    "asm",
    "auto",
    "bitand",
    "bitor",
    "catch",
    "char",
    "char16_t",
    "char32_t",
    "compl",
    "const_cast",
    "constexpr",
    "decltype",
    "delete",
    "dynamic_cast",
    "enum",
    "explicit",
    "friend",
    "goto",
    "long",
    "mutable",
    "new",
    "noexcept",
    "not",
    "not_eq",
    "nullptr",
    "operator",
    "or",
    "or_eq",
    "private",
    "protected",
    "public",
    "reinterpret_cast",
    "short",
    "signed",
    "static_assert",
    "static_cast",
    "thread_local",
    "throw",
    "try",
    "union",
    "using",
    "virtual",
    "wchar_t",
    "xor",
    "xor_eq",
];

/// Object (resource, stream, state, effect) type names.
const OBJECT_TYPES: &[&str] = &[
    "AppendStructuredBuffer",
    "BlendState",
    "Buffer",
    "BuiltInTriangleIntersectionAttributes",
    "ByteAddressBuffer",
    "CompileShader",
    "ComputeShader",
    "ConstantBuffer",
    "ConsumeStructuredBuffer",
    "DepthStencilState",
    "DepthStencilView",
    "DomainShader",
    "FeedbackTexture2D",
    "FeedbackTexture2DArray",
    "GeometryShader",
    "HullShader",
    "InputPatch",
    "LineStream",
    "OutputPatch",
    "PixelShader",
    "PointStream",
    "RasterizerOrderedBuffer",
    "RasterizerOrderedByteAddressBuffer",
    "RasterizerOrderedStructuredBuffer",
    "RasterizerOrderedTexture1D",
    "RasterizerOrderedTexture1DArray",
    "RasterizerOrderedTexture2D",
    "RasterizerOrderedTexture2DArray",
    "RasterizerOrderedTexture3D",
    "RasterizerState",
    "RayDesc",
    "RayQuery",
    "RaytracingAccelerationStructure",
    "RenderTargetView",
    "RWBuffer",
    "RWByteAddressBuffer",
    "RWStructuredBuffer",
    "RWTexture1D",
    "RWTexture1DArray",
    "RWTexture2D",
    "RWTexture2DArray",
    "RWTexture2DMS",
    "RWTexture2DMSArray",
    "RWTexture3D",
    "SamplerComparisonState",
    "SamplerState",
    "StructuredBuffer",
    "SubpassInput",
    "SubpassInputMS",
    "Texture1D",
    "Texture1DArray",
    "Texture2D",
    "Texture2DArray",
    "Texture2DMS",
    "Texture2DMSArray",
    "Texture3D",
    "TextureBuffer",
    "TextureCube",
    "TextureCubeArray",
    "TriangleStream",
    "VertexShader",
    "sampler",
    "sampler1D",
    "sampler2D",
    "sampler3D",
    "samplerCUBE",
    "sampler_state",
    "SamplerComparisonState",
    "texture",
    "stateblock",
    "stateblock_state",
    "fxgroup",
    "technique",
    "technique10",
    "technique11",
    "pass",
    "compile",
    "compile_fragment",
    "asm_fragment",
    "pixelfragment",
    "vertexfragment",
];

/// Effect-framework words reserved in any letter case.
const CASE_INSENSITIVE: &[&str] = &[
    "asm",
    "decl",
    "pass",
    "technique",
    "texture",
    "sampler",
    "compile",
    "vertexshader",
    "pixelshader",
    "stateblock",
];

/// The scalar type names, each also as vectors `T1`..`T4` and matrices
/// `T1x1`..`T4x4`.
const SCALARS: &[&str] = &[
    "bool",
    "int",
    "uint",
    "dword",
    "half",
    "float",
    "double",
    "min16float",
    "min10float",
    "min16int",
    "min12int",
    "min16uint",
    "float16_t",
    "float32_t",
    "float64_t",
    "int16_t",
    "int32_t",
    "int64_t",
    "uint16_t",
    "uint32_t",
    "uint64_t",
    "int8_t4_packed",
    "uint8_t4_packed",
];

fn numeric_type_names() -> &'static [&'static str] {
    static NAMES: LazyLock<Vec<&'static str>> = LazyLock::new(|| {
        let mut names = Vec::new();
        for &s in SCALARS {
            names.push(s);
            if s.ends_with("_packed") {
                continue;
            }
            for n in 1..=4 {
                names.push(leak(format!("{s}{n}")));
                for m in 1..=4 {
                    names.push(leak(format!("{s}{n}x{m}")));
                }
            }
        }
        names
    });
    &NAMES
}

/// Leak a generated word once: the keyword sets live for the whole process.
fn leak(s: String) -> &'static str {
    Box::leak(s.into_boxed_str())
}

/// Intrinsic functions (shader model 5.1 to 6.6, HLSL 2021).
const INTRINSICS: &[&str] = &[
    "abort",
    "abs",
    "acos",
    "AcceptHitAndEndSearch",
    "AddUint64",
    "all",
    "AllMemoryBarrier",
    "AllMemoryBarrierWithGroupSync",
    "and",
    "any",
    "asdouble",
    "asfloat",
    "asfloat16",
    "asin",
    "asint",
    "asint16",
    "asuint",
    "asuint16",
    "atan",
    "atan2",
    "Barrier",
    "CallShader",
    "ceil",
    "CheckAccessFullyMapped",
    "clamp",
    "clip",
    "cos",
    "cosh",
    "countbits",
    "cross",
    "D3DCOLORtoUBYTE4",
    "ddx",
    "ddx_coarse",
    "ddx_fine",
    "ddy",
    "ddy_coarse",
    "ddy_fine",
    "degrees",
    "determinant",
    "DeviceMemoryBarrier",
    "DeviceMemoryBarrierWithGroupSync",
    "DispatchMesh",
    "DispatchRaysDimensions",
    "DispatchRaysIndex",
    "distance",
    "dot",
    "dot2add",
    "dot4add_i8packed",
    "dot4add_u8packed",
    "dst",
    "errorf",
    "EvaluateAttributeAtCentroid",
    "EvaluateAttributeAtSample",
    "EvaluateAttributeCentroid",
    "EvaluateAttributeSnapped",
    "exp",
    "exp2",
    "f16tof32",
    "f32tof16",
    "faceforward",
    "firstbithigh",
    "firstbitlow",
    "floor",
    "fma",
    "fmod",
    "frac",
    "frexp",
    "fwidth",
    "GetAttributeAtVertex",
    "GetRenderTargetSampleCount",
    "GetRenderTargetSamplePosition",
    "GroupMemoryBarrier",
    "GroupMemoryBarrierWithGroupSync",
    "IgnoreHit",
    "InterlockedAdd",
    "InterlockedAnd",
    "InterlockedCompareExchange",
    "InterlockedCompareExchangeFloatBitwise",
    "InterlockedCompareStore",
    "InterlockedCompareStoreFloatBitwise",
    "InterlockedExchange",
    "InterlockedMax",
    "InterlockedMin",
    "InterlockedOr",
    "InterlockedXor",
    "isfinite",
    "IsHelperLane",
    "isinf",
    "isnan",
    "ldexp",
    "length",
    "lerp",
    "lit",
    "log",
    "log10",
    "log2",
    "mad",
    "max",
    "min",
    "modf",
    "msad4",
    "mul",
    "noise",
    "NonUniformResourceIndex",
    "normalize",
    "or",
    "pack_clamp_s8",
    "pack_clamp_u8",
    "pack_s8",
    "pack_u8",
    "pow",
    "printf",
    "Process2DQuadTessFactorsAvg",
    "Process2DQuadTessFactorsMax",
    "Process2DQuadTessFactorsMin",
    "ProcessIsolineTessFactors",
    "ProcessQuadTessFactorsAvg",
    "ProcessQuadTessFactorsMax",
    "ProcessQuadTessFactorsMin",
    "ProcessTriTessFactorsAvg",
    "ProcessTriTessFactorsMax",
    "ProcessTriTessFactorsMin",
    "QuadAll",
    "QuadAny",
    "QuadReadAcrossDiagonal",
    "QuadReadAcrossX",
    "QuadReadAcrossY",
    "QuadReadLaneAt",
    "radians",
    "rcp",
    "reflect",
    "refract",
    "ReportHit",
    "reversebits",
    "round",
    "rsqrt",
    "saturate",
    "select",
    "SetMeshOutputCounts",
    "sign",
    "sin",
    "sincos",
    "sinh",
    "smoothstep",
    "sqrt",
    "step",
    "tan",
    "tanh",
    "tex1D",
    "tex1Dbias",
    "tex1Dgrad",
    "tex1Dlod",
    "tex1Dproj",
    "tex2D",
    "tex2Dbias",
    "tex2Dgrad",
    "tex2Dlod",
    "tex2Dproj",
    "tex3D",
    "tex3Dbias",
    "tex3Dgrad",
    "tex3Dlod",
    "tex3Dproj",
    "texCUBE",
    "texCUBEbias",
    "texCUBEgrad",
    "texCUBElod",
    "texCUBEproj",
    "TraceRay",
    "transpose",
    "trunc",
    "unpack_s8s16",
    "unpack_s8s32",
    "unpack_u8u16",
    "unpack_u8u32",
    "WaveActiveAllEqual",
    "WaveActiveAllTrue",
    "WaveActiveAnyTrue",
    "WaveActiveBallot",
    "WaveActiveBitAnd",
    "WaveActiveBitOr",
    "WaveActiveBitXor",
    "WaveActiveCountBits",
    "WaveActiveMax",
    "WaveActiveMin",
    "WaveActiveProduct",
    "WaveActiveSum",
    "WaveGetLaneCount",
    "WaveGetLaneIndex",
    "WaveIsFirstLane",
    "WaveMatch",
    "WaveMultiPrefixBitAnd",
    "WaveMultiPrefixBitOr",
    "WaveMultiPrefixBitXor",
    "WaveMultiPrefixCountBits",
    "WaveMultiPrefixProduct",
    "WaveMultiPrefixSum",
    "WavePrefixCountBits",
    "WavePrefixProduct",
    "WavePrefixSum",
    "WaveReadLaneAt",
    "WaveReadLaneFirst",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sets_hold_keywords_types_and_intrinsics() {
        for word in [
            "packoffset",
            "register",
            "cbuffer",
            "groupshared",
            "row_major",
            "snorm",
            "unorm",
            "line",
            "point",
            "triangle",
            "sample",
            "vector",
            "matrix",
            "string",
            "half",
            "min16float",
            "precise",
            "export",
            "template",
            "this",
            "float4",
            "float3x4",
            "uint64_t2",
            "min16float4x4",
            "Texture2D",
            "SamplerState",
            "RWByteAddressBuffer",
        ] {
            assert!(RESERVED.contains(word), "{word}");
        }
        for word in ["mul", "lerp", "saturate", "asfloat", "select", "and", "or"] {
            assert!(BUILTINS.contains(word), "{word}");
        }
        assert!(RESERVED_CASE_INSENSITIVE.contains("Technique"));
        assert!(!RESERVED.contains("color"));
    }
}
