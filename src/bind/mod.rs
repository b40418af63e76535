//! Binding assignment for every API, after layout: the GLSL bindings
//! (Vulkan set/binding, OpenGL units per kind and combined-sampler pairs)
//! and the D3D registers (both register modes, and the Vulkan bindings Slang
//! declares). Both start from the WGSL `@group`/`@binding` the front end
//! assigned (`front::bindings`, spec/001).

pub mod d3d;
pub mod gl;
