//! HLSL reserved words and the names the namer must avoid (owned by the
//! module part).

/// Keywords and reserved words of HLSL (DXC).
pub const RESERVED: &[&str] = &[];

/// Intrinsic function names and other predefined identifiers.
pub const BUILTINS: &[&str] = &[];

/// Prefixes of names stride invents.
pub const RESERVED_PREFIXES: &[&str] = &["_s_"];
