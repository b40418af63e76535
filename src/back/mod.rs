//! Backends. Each reads the layout IR and only prints.

pub mod glsl;
pub mod layout;
pub mod overrides;
pub mod reflect;
pub mod remap;
pub mod spirv;
