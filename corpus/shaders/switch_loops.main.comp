#version 450

layout(local_size_x = 1, local_size_y = 1, local_size_z = 1) in;

struct Op {
    int code;
    uint arg;
    float value;
};

layout(set = 0, binding = 0, std430) readonly buffer program_block {
    layout(offset = 0) Op value[];
} program;
layout(set = 0, binding = 1, std430) buffer machine_block {
    layout(offset = 0) float acc;
    layout(offset = 4) uint steps;
    layout(offset = 8) uint trace[8];
} machine;
layout(set = 0, binding = 2, std140) uniform limits_block {
    layout(offset = 0) uvec4 value;
} limits;

uint _s_mod_uint(uint a, uint b) {
    return a % (b == 0u ? 1u : b);
}

uint classify(float v) {
    if (v != v) {
        return 0u;
    }
    if (v < (-1.0)) {
        return 1u;
    } else {
        if (v < 0.0) {
            return 2u;
        } else {
            if (v == 0.0) {
                return 3u;
            }
        }
    }
    return 4u;
}

float apply(int code, uint arg, float acc_1, float value) {
    float r = 0.0;
    uint k = 0u;
    bool local_3 = false;
    switch (code) {
        case 0:
        {
            return acc_1 + value;
        }
        case 1:
        case 2:
        {
            if (code == 2) {
                return acc_1 - value;
            }
            return acc_1 * value;
        }
        default:
        {
            return acc_1;
        }
        case 3:
        {
            switch (arg) {
                case 0u:
                case 1u:
                {
                    return acc_1 / max(value, 1e-6);
                }
                case 2u:
                default:
                {
                    return -acc_1;
                }
            }
        }
        break;
        case (-1):
        {
            r = acc_1;
            bool _s_loop_init1 = true;
            while (true) {
                if (!_s_loop_init1) {
                    const uint _e35 = k;
                    k = _e35 + 1u;
                }
                _s_loop_init1 = false;
                const uint _e16 = k;
                if (_e16 < arg) {
                    const uint _e20 = k;
                    local_3 = _e20 < 16u;
                } else {
                    local_3 = false;
                }
                const bool _e24 = local_3;
                if (_e24) {
                } else {
                    break;
                }
                {
                    const uint _e25 = k;
                    if ((_e25 & 1u) == 1u) {
                        continue;
                    }
                    const float _e30 = r;
                    r = (_e30 * 0.5) + value;
                }
            }
            const float _e37 = r;
            return _e37;
        }
    }
}

void main() {
    float acc = 0.0;
    uint pc = 0u;
    uint steps = 0u;
    bool local = false;
    bool local_1 = false;
    bool local_2 = false;
    uint outer = 0u;
    uint inner = 0u;
    const uint _e4 = limits.value.x;
    const uint count_e5 = min(uint(program.value.length()), _e4);
    if (count_e5 == 0u) {
        return;
    }
    Op op_e19;
    bool _s_loop_init1 = true;
    while (true) {
        if (!_s_loop_init1) {
            const uint _e36 = pc;
            if (op_e19.code == 4) {
                const uint _e46 = pc;
                local = op_e19.arg < _e46;
            } else {
                local = false;
            }
            const bool _e49 = local;
            pc = _e49 ? op_e19.arg : (_e36 + 1u);
            const uint _e51 = steps;
            const uint _e54 = limits.value.y;
            if (!(_e51 >= _e54)) {
                const float _e59 = acc;
                if (_e59 > 1000000.0) {
                    local_2 = op_e19.code != 0;
                } else {
                    local_2 = false;
                }
                const bool _e68 = local_2;
                local_1 = _e68;
            } else {
                local_1 = true;
            }
            const bool _e70 = local_1;
            if (_e70) {
                break;
            }
        }
        _s_loop_init1 = false;
        const uint _e14 = pc;
        if (_e14 >= count_e5) {
            break;
        }
        const uint _e17 = pc;
        op_e19 = program.value[min(_e17, uint(program.value.length()) - 1u)];
        const float _e22 = acc;
        float _e24 = apply(op_e19.code, op_e19.arg, _e22, op_e19.value);
        acc = _e24;
        const uint _e27 = steps;
        const float _e31 = acc;
        uint _e32 = classify(_e31);
        machine.trace[min(_s_mod_uint(_e27, 8u), 7u)] = _e32;
        const uint _e34 = steps;
        steps = _e34 + 1u;
    }
    while (true) {
        const uint _e73 = outer;
        const uint _e76 = limits.value.z;
        if (_e73 < _e76) {
        } else {
            break;
        }
        {
            inner = 0u;
            while (true) {
                const uint _e81 = inner;
                inner = _e81 + 1u;
                const uint _e83 = inner;
                const uint _e86 = limits.value.w;
                if (_e83 > _e86) {
                    break;
                }
                const uint _e88 = inner;
                const uint _e89 = outer;
                if (_s_mod_uint(_e88 + _e89, 3u) == 0u) {
                    continue;
                }
                const float _e95 = acc;
                acc = _e95 + 1.0;
            }
            const float _e98 = acc;
            if (_e98 > 10000000.0) {
                break;
            }
            const uint _e102 = outer;
            outer = _e102 + 1u;
        }
    }
    const float _e106 = acc;
    machine.acc = _e106;
    const uint _e109 = steps;
    machine.steps = _e109;
    return;
}
