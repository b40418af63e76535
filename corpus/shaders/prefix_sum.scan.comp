#version 450

layout(local_size_x = 128, local_size_y = 1, local_size_z = 1) in;

const uint BLOCK = 256u;

layout(set = 0, binding = 0, std140) uniform info_block {
    layout(offset = 0) uint element_count;
    layout(offset = 4) uint block_count;
} info;
layout(set = 0, binding = 1, std430) readonly buffer input_block {
    layout(offset = 0) uint value[];
} input_;
layout(set = 0, binding = 2, std430) buffer output_block {
    layout(offset = 0) uint value[];
} output_;
layout(set = 0, binding = 3, std430) buffer block_sums_block {
    layout(offset = 0) uint value[];
} block_sums;

shared uint[256] temp;

void main() {
    if (gl_LocalInvocationIndex == 0u) {
        for (uint _s_z0 = 0u; _s_z0 < 256u; _s_z0++) {
            temp[_s_z0] = 0u;
        }
    }
    barrier();
    uvec3 wg = gl_WorkGroupID;
    uvec3 lid = gl_LocalInvocationID;
    uint offset = 1u;
    uint d = 128u;
    uint d_1 = 1u;
    const uint t_e2 = lid.x;
    const uint base_e5 = wg.x * BLOCK;
    const uint a_e8 = base_e5 + (2u * t_e2);
    const uint b_e10 = a_e8 + 1u;
    const uint _e18 = input_.value[min(a_e8, uint(input_.value.length()) - 1u)];
    const uint _e21 = info.element_count;
    temp[min(2u * t_e2, 255u)] = (a_e8 < _e21) ? _e18 : 0u;
    const uint _e33 = input_.value[min(b_e10, uint(input_.value.length()) - 1u)];
    const uint _e36 = info.element_count;
    temp[min((2u * t_e2) + 1u, 255u)] = (b_e10 < _e36) ? _e33 : 0u;
    bool _s_loop_init1 = true;
    while (true) {
        if (!_s_loop_init1) {
            const uint _e74 = d;
            d = _e74 >> (1u & 31u);
        }
        _s_loop_init1 = false;
        const uint _e43 = d;
        if (_e43 > 0u) {
        } else {
            break;
        }
        {
            memoryBarrierShared();
            barrier();
            const uint _e46 = d;
            if (t_e2 < _e46) {
                const uint _e48 = offset;
                const uint ai_e55 = (_e48 * ((2u * t_e2) + 1u)) - 1u;
                const uint _e56 = offset;
                const uint bi_e63 = (_e56 * ((2u * t_e2) + 2u)) - 1u;
                const uint _e66 = temp[min(bi_e63, 255u)];
                const uint _e69 = temp[min(ai_e55, 255u)];
                temp[min(bi_e63, 255u)] = _e66 + _e69;
            }
            const uint _e71 = offset;
            offset = _e71 << (1u & 31u);
        }
    }
    if (t_e2 == 0u) {
        const uint _e84 = temp[255];
        block_sums.value[min(wg.x, uint(block_sums.value.length()) - 1u)] = _e84;
        temp[255] = 0u;
    }
    bool _s_loop_init2 = true;
    while (true) {
        if (!_s_loop_init2) {
            const uint _e126 = d_1;
            d_1 = _e126 << (1u & 31u);
        }
        _s_loop_init2 = false;
        const uint _e90 = d_1;
        if (_e90 < BLOCK) {
        } else {
            break;
        }
        {
            const uint _e93 = offset;
            offset = _e93 >> (1u & 31u);
            memoryBarrierShared();
            barrier();
            const uint _e96 = d_1;
            if (t_e2 < _e96) {
                const uint _e98 = offset;
                const uint ai_e105 = (_e98 * ((2u * t_e2) + 1u)) - 1u;
                const uint _e106 = offset;
                const uint bi_e113 = (_e106 * ((2u * t_e2) + 2u)) - 1u;
                const uint left_e116 = temp[min(ai_e105, 255u)];
                const uint _e121 = temp[min(bi_e113, 255u)];
                temp[min(ai_e105, 255u)] = _e121;
                const uint _e124 = temp[min(bi_e113, 255u)];
                temp[min(bi_e113, 255u)] = _e124 + left_e116;
            }
        }
    }
    memoryBarrierShared();
    barrier();
    const uint _e131 = info.element_count;
    if (a_e8 < _e131) {
        const uint _e139 = temp[min(2u * t_e2, 255u)];
        output_.value[min(a_e8, uint(output_.value.length()) - 1u)] = _e139;
    }
    const uint _e142 = info.element_count;
    if (b_e10 < _e142) {
        const uint _e152 = temp[min((2u * t_e2) + 1u, 255u)];
        output_.value[min(b_e10, uint(output_.value.length()) - 1u)] = _e152;
        return;
    } else {
        return;
    }
}
