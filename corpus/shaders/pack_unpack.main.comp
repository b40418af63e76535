#version 450

layout(local_size_x = 32, local_size_y = 1, local_size_z = 1) in;

struct Packed {
    uint color;
    uint normal;
    uint uv;
    uint half_pair;
    uint bytes;
};
struct Unpacked {
    vec4 color;
    vec4 normal;
    vec2 uv;
    vec2 half_pair;
    ivec4 bytes_i;
    uvec4 bytes_u;
    ivec2 dots;
    uvec4 repacked;
};

layout(set = 0, binding = 0, std430) readonly buffer packed_block {
    layout(offset = 0) Packed value[];
} packed;
layout(set = 0, binding = 1, std430) buffer unpacked_block {
    layout(offset = 0) Unpacked value[];
} unpacked;
layout(set = 0, binding = 2, std140) uniform pack_params_block {
    layout(offset = 0) vec4 scale;
    layout(offset = 16) ivec4 clamp_i;
    layout(offset = 32) uvec4 clamp_u;
} pack_params;

ivec4 _s_unpack4xI8(uint x) {
    int i = int(x);
    return ivec4(bitfieldExtract(i, 0, 8), bitfieldExtract(i, 8, 8), bitfieldExtract(i, 16, 8), bitfieldExtract(i, 24, 8));
}

uvec4 _s_unpack4xU8(uint x) {
    return uvec4(x & 0xFFu, (x >> 8u) & 0xFFu, (x >> 16u) & 0xFFu, x >> 24u);
}

int _s_dot4I8Packed(uint a, uint b) {
    ivec4 x = _s_unpack4xI8(a);
    ivec4 y = _s_unpack4xI8(b);
    return x.x * y.x + x.y * y.y + x.z * y.z + x.w * y.w;
}

uint _s_dot4U8Packed(uint a, uint b) {
    uvec4 x = _s_unpack4xU8(a);
    uvec4 y = _s_unpack4xU8(b);
    return x.x * y.x + x.y * y.y + x.z * y.z + x.w * y.w;
}

uint _s_pack4xI8(ivec4 v) {
    uvec4 u = uvec4(v) & 0xFFu;
    return u.x | (u.y << 8u) | (u.z << 16u) | (u.w << 24u);
}

uint _s_pack4xU8(uvec4 v) {
    uvec4 u = v & 0xFFu;
    return u.x | (u.y << 8u) | (u.z << 16u) | (u.w << 24u);
}

uint _s_pack4xI8Clamp(ivec4 v) {
    uvec4 u = uvec4(clamp(v, ivec4(-128), ivec4(127))) & 0xFFu;
    return u.x | (u.y << 8u) | (u.z << 16u) | (u.w << 24u);
}

uint _s_pack4xU8Clamp(uvec4 v) {
    uvec4 u = min(v, uvec4(255u));
    return u.x | (u.y << 8u) | (u.z << 16u) | (u.w << 24u);
}

void main() {
    uvec3 gid = gl_GlobalInvocationID;
    Unpacked u = Unpacked(vec4(0.0), vec4(0.0), vec2(0.0), vec2(0.0), ivec4(0), uvec4(0u), ivec2(0), uvec4(0u));
    const uint i_e1 = gid.x;
    if (i_e1 >= uint(packed.value.length())) {
        return;
    }
    const Packed p_e7 = packed.value[min(i_e1, uint(packed.value.length()) - 1u)];
    u.color = unpackUnorm4x8(p_e7.color);
    u.normal = unpackSnorm4x8(p_e7.normal);
    u.uv = unpackUnorm2x16(p_e7.uv) + unpackSnorm2x16(p_e7.uv);
    u.half_pair = unpackHalf2x16(p_e7.half_pair);
    u.bytes_i = _s_unpack4xI8(p_e7.bytes);
    u.bytes_u = _s_unpack4xU8(p_e7.bytes);
    u.dots = ivec2(_s_dot4I8Packed(p_e7.bytes, p_e7.color), int(_s_dot4U8Packed(p_e7.bytes, p_e7.normal)));
    const vec4 s_e41 = pack_params.scale;
    const vec4 _e44 = u.color;
    const vec4 _e48 = u.normal;
    const vec2 _e53 = u.uv;
    const vec2 _e58 = u.uv;
    const vec2 _e64 = u.half_pair;
    const ivec4 _e68 = u.bytes_i;
    const uvec4 _e71 = u.bytes_u;
    const ivec4 _e76 = pack_params.clamp_i;
    const ivec4 _e78 = u.bytes_i;
    const uvec4 _e83 = pack_params.clamp_u;
    const uvec4 _e85 = u.bytes_u;
    u.repacked = uvec4(packUnorm4x8(_e44 * s_e41) ^ packSnorm4x8(_e48 * s_e41), (packUnorm2x16(_e53 * s_e41.xy) ^ packSnorm2x16(_e58 * s_e41.zw)) ^ packHalf2x16(_e64), _s_pack4xI8(_e68) ^ _s_pack4xU8(_e71), _s_pack4xI8Clamp(_e76 * _e78) ^ _s_pack4xU8Clamp(_e83 * _e85));
    const Unpacked _e92 = u;
    unpacked.value[min(i_e1, uint(unpacked.value.length()) - 1u)] = _e92;
    return;
}
