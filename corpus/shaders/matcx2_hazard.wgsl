// naga 30 hazard repro: a mat2x2 (matCx2) inside a nested struct in a uniform buffer;
// naga's SPIR-V writer emits an invalid OpAccessChain for u.s.m[1][0].
struct S { m: mat2x2<f32>, x: f32 } struct Root { a: vec4<f32>, s: S } @group(0) @binding(0) var<uniform> u: Root; @group(0) @binding(1) var<storage, read_write> sink: array<u32>; @compute @workgroup_size(1) fn main() { sink[0] = bitcast<u32>(u.s.m[1][0]); }
