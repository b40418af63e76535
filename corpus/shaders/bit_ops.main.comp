#version 450

layout(local_size_x = 64, local_size_y = 1, local_size_z = 1) in;

struct Words {
    uvec4 u;
    ivec4 i;
    uint shift;
    int divisor;
};
struct BitResults {
    uvec4 counts;
    uvec4 fields;
    ivec4 sfields;
    uvec4 bits;
    ivec4 quotients;
    uvec4 uquotients;
    vec4 floats;
};

layout(set = 0, binding = 0, std430) readonly buffer words_block {
    layout(offset = 0) Words value[];
} words;
layout(set = 0, binding = 1, std430) buffer bit_results_block {
    layout(offset = 0) BitResults value[];
} bit_results;

int _s_div_int(int a, int b) {
    return a / ((b == 0 || (a == (-2147483647 - 1) && b == (-1))) ? 1 : b);
}

ivec4 _s_div_ivec4(ivec4 a, ivec4 b) {
    return ivec4(_s_div_int(a.x, b.x), _s_div_int(a.y, b.y), _s_div_int(a.z, b.z), _s_div_int(a.w, b.w));
}

int _s_mod_int(int a, int b) {
    int d = (b == 0 || (a == (-2147483647 - 1) && b == (-1))) ? 1 : b;
    return a - (a / d) * d;
}

ivec4 _s_mod_ivec4(ivec4 a, ivec4 b) {
    return ivec4(_s_mod_int(a.x, b.x), _s_mod_int(a.y, b.y), _s_mod_int(a.z, b.z), _s_mod_int(a.w, b.w));
}

uint _s_div_uint(uint a, uint b) {
    return a / (b == 0u ? 1u : b);
}

uvec4 _s_div_uvec4(uvec4 a, uvec4 b) {
    return uvec4(_s_div_uint(a.x, b.x), _s_div_uint(a.y, b.y), _s_div_uint(a.z, b.z), _s_div_uint(a.w, b.w));
}

uint _s_mod_uint(uint a, uint b) {
    return a % (b == 0u ? 1u : b);
}

uvec4 _s_mod_uvec4(uvec4 a, uvec4 b) {
    return uvec4(_s_mod_uint(a.x, b.x), _s_mod_uint(a.y, b.y), _s_mod_uint(a.z, b.z), _s_mod_uint(a.w, b.w));
}

void main() {
    uvec3 gid = gl_GlobalInvocationID;
    BitResults r = BitResults(uvec4(0u), uvec4(0u), ivec4(0), uvec4(0u), ivec4(0), uvec4(0u), vec4(0.0));
    const uint n_e2 = uint(words.value.length());
    if (gid.x >= n_e2) {
        return;
    }
    const Words w_e8 = words.value[min(gid.x, uint(words.value.length()) - 1u)];
    r.counts = ((uvec4(31 - findMSB(w_e8.u)) + uvec4(bitCount(w_e8.u))) + uvec4(min(uvec4(findLSB(w_e8.u)), 32u))) + uvec4(uint(bitCount(uint(w_e8.i.x))), uvec2(ivec2(31 - findMSB(uvec2(w_e8.i.yz)))), 0u);
    r.fields = bitfieldExtract(w_e8.u, int(min(4u, 32u)), int(min(8u, 32u - min(4u, 32u)))) + bitfieldInsert(w_e8.u, w_e8.u.wzyx, int(min(w_e8.shift & 31u, 32u)), int(min(5u, 32u - min(w_e8.shift & 31u, 32u))));
    r.sfields = (((bitfieldExtract(w_e8.i, int(min(3u, 32u)), int(min(12u, 32u - min(3u, 32u)))) + bitfieldInsert(w_e8.i, ivec4(-1), int(min(8u, 32u)), int(min(w_e8.shift, 32u - min(8u, 32u))))) + ivec4(findMSB(w_e8.i))) + ivec4(findLSB(w_e8.i))) + ivec4(min(uvec4(findLSB(w_e8.i)), 32u));
    r.bits = (((((((uvec4(findMSB(w_e8.u)) + uvec4(findLSB(w_e8.u))) + bitfieldReverse(w_e8.u)) + (w_e8.u << (uvec4(w_e8.shift) & 31u))) + (w_e8.u >> (uvec4(w_e8.shift + 1u) & 31u))) + (~w_e8.u)) + (w_e8.u ^ w_e8.u.yzwx)) + (w_e8.u & uvec4(16711935u))) + (w_e8.u | uvec4(2147483648u));
    const int d_e104 = w_e8.divisor;
    r.quotients = (_s_div_ivec4(w_e8.i, ivec4(d_e104)) + _s_mod_ivec4(w_e8.i, ivec4(d_e104))) + ivec4(_s_div_int(w_e8.i.x, d_e104), _s_mod_int(w_e8.i.y, d_e104), w_e8.i.z >> (w_e8.shift & 31u), -w_e8.i.w);
    r.uquotients = ((_s_div_uvec4(w_e8.u, w_e8.u.yzwx) + _s_mod_uvec4(w_e8.u, uvec4(w_e8.shift))) + (w_e8.u * 2654435761u)) - w_e8.u.zwxy;
    r.floats = uintBitsToFloat(w_e8.u & uvec4(1073741823u)) + vec4(intBitsToFloat(w_e8.i.x & 1073741823), vec3(w_e8.i.yzw));
    const BitResults _e164 = r;
    bit_results.value[min(gid.x, uint(bit_results.value.length()) - 1u)] = _e164;
    return;
}
