#version 450

layout(local_size_x = 128, local_size_y = 1, local_size_z = 1) in;

const uint BLOCK = 256u;

layout(set = 0, binding = 0, std140) uniform info_block {
    layout(offset = 0) uint element_count;
    layout(offset = 4) uint block_count;
} info;
layout(set = 0, binding = 2, std430) buffer output_block {
    layout(offset = 0) uint value[];
} output_;
layout(set = 0, binding = 3, std430) buffer block_sums_block {
    layout(offset = 0) uint value[];
} block_sums;

void main() {
    uvec3 wg_1 = gl_WorkGroupID;
    uvec3 lid_1 = gl_LocalInvocationID;
    bool local = false;
    uint carry = 0u;
    uint i = 0u;
    if (!(wg_1.x == 0u)) {
        const uint _e11 = info.block_count;
        local = wg_1.x >= _e11;
    } else {
        local = true;
    }
    const bool _e14 = local;
    if (_e14) {
        return;
    }
    bool _s_loop_init1 = true;
    while (true) {
        if (!_s_loop_init1) {
            const uint _e29 = i;
            i = _e29 + 1u;
        }
        _s_loop_init1 = false;
        const uint _e19 = i;
        if (_e19 < wg_1.x) {
        } else {
            break;
        }
        {
            const uint _e22 = carry;
            const uint _e24 = i;
            const uint _e26 = block_sums.value[min(_e24, uint(block_sums.value.length()) - 1u)];
            carry = _e22 + _e26;
        }
    }
    const uint a_e37 = (wg_1.x * BLOCK) + (2u * lid_1.x);
    const uint _e40 = info.element_count;
    if (a_e37 < _e40) {
        const uint _e44 = output_.value[min(a_e37, uint(output_.value.length()) - 1u)];
        const uint _e45 = carry;
        output_.value[min(a_e37, uint(output_.value.length()) - 1u)] = _e44 + _e45;
    }
    const uint _e51 = info.element_count;
    if ((a_e37 + 1u) < _e51) {
        const uint _e57 = output_.value[min(a_e37 + 1u, uint(output_.value.length()) - 1u)];
        const uint _e58 = carry;
        output_.value[min(a_e37 + 1u, uint(output_.value.length()) - 1u)] = _e57 + _e58;
        return;
    } else {
        return;
    }
}
