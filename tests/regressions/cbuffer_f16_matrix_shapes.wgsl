// Whole f16 matrices as uniform globals, every shape matCxR<f16> (C, R in
// 2..4): each is its own cbuffer, read whole, by column and by element.
// HLSL writes them at shader model 6.2 by default (DXC:
// -enable-16bit-types); the HLSL and Slang oracles compile them and compare
// DXC's cbuffer offsets with the contract. (Here rather than in corpus/:
// the GLSL sweep of corpus/ would need them listed as not fitting gl450 and
// es310.)
enable f16;

@group(0) @binding(0) var<uniform> m22: mat2x2<f16>;
@group(0) @binding(1) var<uniform> m23: mat2x3<f16>;
@group(0) @binding(2) var<uniform> m24: mat2x4<f16>;
@group(0) @binding(3) var<uniform> m32: mat3x2<f16>;
@group(0) @binding(4) var<uniform> m33: mat3x3<f16>;
@group(0) @binding(5) var<uniform> m34: mat3x4<f16>;
@group(0) @binding(6) var<uniform> m42: mat4x2<f16>;
@group(0) @binding(7) var<uniform> m43: mat4x3<f16>;
@group(0) @binding(8) var<uniform> m44: mat4x4<f16>;
@group(0) @binding(9) var<storage, read_write> out: array<f32>;

@compute @workgroup_size(1)
fn main(@builtin(local_invocation_index) i: u32) {
    var acc = 0.0h;
    acc += m22[i % 2u][i % 2u] + m22[1].x + dot(m22[0], m22[1]);
    acc += m23[i % 2u][i % 3u] + m23[1].x + dot(m23[0], m23[1]);
    acc += m24[i % 2u][i % 4u] + m24[1].x + dot(m24[0], m24[1]);
    acc += m32[i % 3u][i % 2u] + m32[1].x + dot(m32[0], m32[2]);
    acc += m33[i % 3u][i % 3u] + m33[1].x + dot(m33[0], m33[2]);
    acc += m34[i % 3u][i % 4u] + m34[1].x + dot(m34[0], m34[2]);
    acc += m42[i % 4u][i % 2u] + m42[1].x + dot(m42[0], m42[3]);
    acc += m43[i % 4u][i % 3u] + m43[1].x + dot(m43[0], m43[3]);
    acc += m44[i % 4u][i % 4u] + m44[1].x + dot(m44[0], m44[3]);
    let whole = m23;
    let product = m32 * whole;
    acc += whole[1][2] + product[1][1] + (m44 * m44)[3][3];
    out[i] = f32(acc);
}
