//! Backends. Each reads the layout IR and only prints.

pub(crate) mod common;
pub mod glsl;
pub mod hlsl;
pub mod host;
pub mod lines;
pub mod listing;
pub(crate) mod offset;
pub mod overrides;
pub mod reflect;
pub(crate) mod scope;
pub mod spirv;
#[cfg(test)]
mod test_support;
pub(crate) mod text;
#[cfg(test)]
mod text_writer_tests;
