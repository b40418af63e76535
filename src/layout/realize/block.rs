//! GLSL blocks: the contract realized under std140 (uniform blocks) and
//! std430 (storage blocks), with offset qualifiers where the dialect has them.
