// Data packing builtins: pack/unpack 4x8 snorm/unorm, 2x16 snorm/unorm/float, the packed
// 4x8 integer forms (pack4xI8, pack4xU8 and their Clamp variants, unpack4xI8/U8) and the
// packed dot products dot4I8Packed and dot4U8Packed, over a storage buffer of vertex data.

struct Packed {
    color: u32,
    normal: u32,
    uv: u32,
    half_pair: u32,
    bytes: u32,
}

struct Unpacked {
    color: vec4<f32>,
    normal: vec4<f32>,
    uv: vec2<f32>,
    half_pair: vec2<f32>,
    bytes_i: vec4<i32>,
    bytes_u: vec4<u32>,
    dots: vec2<i32>,
    repacked: vec4<u32>,
}

struct PackParams {
    scale: vec4<f32>,
    clamp_i: vec4<i32>,
    clamp_u: vec4<u32>,
}

@group(0) @binding(0) var<storage, read> packed: array<Packed>;
@group(0) @binding(1) var<storage, read_write> unpacked: array<Unpacked>;
@group(0) @binding(2) var<uniform> pack_params: PackParams;

@compute @workgroup_size(32)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let i = gid.x;
    if i >= arrayLength(&packed) {
        return;
    }
    let p = packed[i];
    var u: Unpacked;
    u.color = unpack4x8unorm(p.color);
    u.normal = unpack4x8snorm(p.normal);
    u.uv = unpack2x16unorm(p.uv) + unpack2x16snorm(p.uv);
    u.half_pair = unpack2x16float(p.half_pair);
    u.bytes_i = unpack4xI8(p.bytes);
    u.bytes_u = unpack4xU8(p.bytes);
    u.dots = vec2<i32>(dot4I8Packed(p.bytes, p.color), i32(dot4U8Packed(p.bytes, p.normal)));
    let s = pack_params.scale;
    u.repacked = vec4<u32>(
        pack4x8unorm(u.color * s) ^ pack4x8snorm(u.normal * s),
        pack2x16unorm(u.uv * s.xy) ^ pack2x16snorm(u.uv * s.zw) ^ pack2x16float(u.half_pair),
        pack4xI8(u.bytes_i) ^ pack4xU8(u.bytes_u),
        pack4xI8Clamp(pack_params.clamp_i * u.bytes_i) ^ pack4xU8Clamp(pack_params.clamp_u * u.bytes_u),
    );
    unpacked[i] = u;
}
