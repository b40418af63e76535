#version 450

layout(local_size_x = 64, local_size_y = 1, local_size_z = 1) in;

struct _atomic_compare_exchange_result_Uint_4_ {
    uint old_value;
    bool exchanged;
};

layout(set = 0, binding = 0, std430) buffer counters_block {
    layout(offset = 0) uint total;
    layout(offset = 4) int balance;
    layout(offset = 16) vec4 bounds;
    layout(offset = 32) uint buckets[8];
    layout(offset = 64) uint max_seen;
} counters;
layout(set = 0, binding = 1, std430) buffer flags_block {
    layout(offset = 0) uint value[];
} flags;
layout(set = 0, binding = 2, std430) readonly buffer values_block {
    layout(offset = 0) float value[];
} values;

uint _s_div_uint(uint a, uint b) {
    return a / (b == 0u ? 1u : b);
}

uint _s_mod_uint(uint a, uint b) {
    return a % (b == 0u ? 1u : b);
}

void main() {
    uvec3 id = gl_GlobalInvocationID;
    if (id.x >= uint(values.value.length())) {
        return;
    }
    const float v_e8 = values.value[min(id.x, uint(values.value.length()) - 1u)];
    uint _e12 = atomicAdd(counters.total, 1u);
    int _e20 = atomicAdd(counters.balance, -((v_e8 < 0.0) ? (-1) : 1));
    const float _e24 = counters.bounds.x;
    const float _e29 = counters.bounds.y;
    const float _e33 = counters.bounds.x;
    const float t_e40 = clamp((v_e8 - _e24) / max(_e29 - _e33, 1e-6), 0.0, 0.999);
    uint _e48 = atomicAdd(counters.buckets[min(uint(clamp(t_e40 * 8.0, 0.0, 4294967040.0)), 7u)], 1u);
    uint _e53 = atomicMax(counters.max_seen, floatBitsToUint(abs(v_e8)));
    uint _e64 = atomicOr(flags.value[min(_s_div_uint(id.x, 32u), uint(flags.value.length()) - 1u)], 1u << (_s_mod_uint(id.x, 32u) & 31u));
    uint _s_old1 = atomicCompSwap(counters.max_seen, 0u, 1u);
    _atomic_compare_exchange_result_Uint_4_ old_e69 = _atomic_compare_exchange_result_Uint_4_(_s_old1, _s_old1 == 0u);
    if (old_e69.exchanged) {
        const uint _e75 = counters.total;
        flags.value[0] = _e75;
        return;
    } else {
        return;
    }
}
