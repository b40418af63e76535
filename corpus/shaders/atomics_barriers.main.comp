#version 450

layout(local_size_x = 8, local_size_y = 4, local_size_z = 2) in;

struct _atomic_compare_exchange_result_Uint_4_ {
    uint old_value;
    bool exchanged;
};
struct _atomic_compare_exchange_result_Sint_4_ {
    int old_value;
    bool exchanged;
};

layout(set = 0, binding = 0, std430) buffer counters_block {
    layout(offset = 0) uint total;
    layout(offset = 4) int signed_sum;
    layout(offset = 8) uint max_seen;
    layout(offset = 12) int min_seen;
    layout(offset = 16) uint mask_and;
    layout(offset = 20) uint mask_or;
    layout(offset = 24) uint mask_xor;
    layout(offset = 28) uint last;
    layout(offset = 32) uint slots[16];
} counters;
layout(set = 0, binding = 1, std430) buffer lock_block {
    layout(offset = 0) uint owner;
    layout(offset = 4) uint attempts;
} lock;
layout(set = 0, binding = 2, std430) buffer signed_bins_block {
    layout(offset = 0) int value[];
} signed_bins;
layout(set = 0, binding = 3, std430) readonly buffer values_block {
    layout(offset = 0) int value[];
} values;

shared uint wg_total;
shared int wg_signed;
shared uint[8] wg_bins;
shared uint wg_leader;

uint _s_mod_uint(uint a, uint b) {
    return a % (b == 0u ? 1u : b);
}

void main() {
    if (gl_LocalInvocationIndex == 0u) {
        wg_total = 0u;
        wg_signed = 0;
        wg_bins = uint[8](0u, 0u, 0u, 0u, 0u, 0u, 0u, 0u);
        wg_leader = 0u;
    }
    barrier();
    uvec3 lid = gl_LocalInvocationID;
    uint lindex = gl_LocalInvocationIndex;
    uvec3 gid = gl_GlobalInvocationID;
    uvec3 wid = gl_WorkGroupID;
    uvec3 nwg = gl_NumWorkGroups;
    uint tries = 0u;
    bool local = false;
    if (lindex == 0u) {
        wg_total = 0u;
        wg_signed = 0;
        wg_leader = (wid.x + (wid.y * nwg.x)) + ((wid.z * nwg.x) * nwg.y);
    }
    memoryBarrierShared();
    barrier();
    const uint flat_e37 = (gid.x + ((gid.y * nwg.x) * 8u)) + (((gid.z * nwg.x) * nwg.y) * 32u);
    const int v_e43 = values.value[min(_s_mod_uint(flat_e37, uint(values.value.length())), uint(values.value.length()) - 1u)];
    uint _e46 = atomicAdd(wg_total, 1u);
    int _e48 = atomicAdd(wg_signed, -(v_e43));
    uint _e54 = atomicMax(wg_bins[min(lid.x, 7u)], uint(abs(v_e43)));
    uint _e63 = atomicMin(wg_bins[min(7u - lid.x, 7u)], uint(v_e43) | 1u);
    memoryBarrierShared();
    barrier();
    uint leader_e65 = wg_leader;
    memoryBarrierShared();
    barrier();
    memoryBarrierShared();
    barrier();
    uint _e69 = atomicAdd(counters.total, 1u);
    int _e72 = atomicAdd(counters.signed_sum, v_e43);
    int _e77 = atomicAdd(counters.signed_sum, -(int(lid.y)));
    uint _e80 = atomicMax(counters.max_seen, flat_e37);
    int _e83 = atomicMin(counters.min_seen, v_e43);
    uint _e91 = atomicAnd(counters.mask_and, ~(1u << ((lindex & 31u) & 31u)));
    uint _e101 = atomicOr(counters.mask_or, 1u << (((lid.z * 8u) + lid.x) & 31u));
    uint _e106 = atomicXor(counters.mask_xor, flat_e37 * 2654435761u);
    uint previous_e109 = atomicExchange(counters.last, flat_e37);
    uint _e116 = atomicAdd(counters.slots[min(_s_mod_uint(previous_e109, 16u), 15u)], 1u);
    int _e122 = atomicOr(signed_bins.value[min(_s_mod_uint(flat_e37, uint(signed_bins.value.length())), uint(signed_bins.value.length()) - 1u)], v_e43);
    int _e126 = atomicXor(signed_bins.value[0], int(leader_e65));
    int _e130 = atomicAnd(signed_bins.value[1], -2);
    const int _e135 = counters.signed_sum;
    int _e136 = atomicExchange(signed_bins.value[2], _e135);
    while (true) {
        uint _s_old1 = atomicCompSwap(lock.owner, 0u, flat_e37 + 1u);
        _atomic_compare_exchange_result_Uint_4_ r_e144 = _atomic_compare_exchange_result_Uint_4_(_s_old1, _s_old1 == 0u);
        const uint _e146 = tries;
        tries = _e146 + 1u;
        if (r_e144.exchanged) {
            const uint _e151 = lock.attempts;
            const uint _e152 = tries;
            lock.attempts = _e151 + _e152;
            lock.owner = 0u;
            break;
        }
        const uint _e157 = tries;
        if (!(_e157 >= 4u)) {
            local = r_e144.old_value == (flat_e37 + 1u);
        } else {
            local = true;
        }
        const bool _e168 = local;
        if (_e168) {
            break;
        }
    }
    memoryBarrierBuffer();
    barrier();
    memoryBarrierShared();
    barrier();
    if (lindex == 0u) {
        const uint total_e172 = wg_total;
        const int signed_e174 = wg_signed;
        uint _s_old2 = atomicCompSwap(wg_bins[0], 0u, total_e172);
        _atomic_compare_exchange_result_Uint_4_ cx_e178 = _atomic_compare_exchange_result_Uint_4_(_s_old2, _s_old2 == 0u);
        uint _e189 = atomicAdd(counters.slots[15], (total_e172 + uint(signed_e174)) + (cx_e178.exchanged ? 1u : 0u));
        int _s_old3 = atomicCompSwap(signed_bins.value[3], 0, signed_e174);
        _atomic_compare_exchange_result_Sint_4_ ci_e193 = _atomic_compare_exchange_result_Sint_4_(_s_old3, _s_old3 == 0);
        uint _e198 = atomicMax(counters.max_seen, uint(ci_e193.old_value));
        return;
    } else {
        return;
    }
}
