//! D3D constant buffers: the contract realized under cbuffer packing
//! (16-byte registers), with `packoffset` on top-level members.
