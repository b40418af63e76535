#version 450

layout(local_size_x = 32, local_size_y = 1, local_size_z = 1) in;

struct State {
    vec4 value;
    uint steps;
    uint mode;
};

layout(set = 0, binding = 0, std430) buffer states_block {
    layout(offset = 0) State value[];
} states;
layout(set = 0, binding = 1, std140) uniform mode_override_block {
    layout(offset = 0) uvec4 value;
} mode_override;

uint rng_state = 0u;

float next_random(inout uint state_1) {
    const uint _e1 = state_1;
    const uint _e2 = state_1;
    state_1 = _e1 ^ (_e2 << (13u & 31u));
    const uint _e6 = state_1;
    const uint _e7 = state_1;
    state_1 = _e6 ^ (_e7 >> (17u & 31u));
    const uint _e11 = state_1;
    const uint _e12 = state_1;
    state_1 = _e11 ^ (_e12 << (5u & 31u));
    const uint _e16 = state_1;
    return float(_e16) / 4294967300.0;
}

void accumulate(inout vec4 acc_1, vec4 v, float weight) {
    const vec4 _e3 = acc_1;
    acc_1 = _e3 + (v * weight);
    const float _e8 = acc_1.w;
    acc_1.w = max(_e8, weight);
    return;
}

void swap(inout float a, inout float b) {
    const float t_e2 = a;
    const float _e3 = b;
    a = _e3;
    b = t_e2;
    return;
}

void sort3_(inout float[3] v_1) {
    const float _e2 = v_1[0];
    const float _e4 = v_1[1];
    if (_e2 > _e4) {
        swap(v_1[0], v_1[1]);
    }
    const float _e9 = v_1[1];
    const float _e11 = v_1[2];
    if (_e9 > _e11) {
        swap(v_1[1], v_1[2]);
    }
    const float _e16 = v_1[0];
    const float _e18 = v_1[1];
    if (_e16 > _e18) {
        swap(v_1[0], v_1[1]);
        return;
    } else {
        return;
    }
}

void bump_steps(inout uint steps, uint by) {
    const uint _e2 = steps;
    steps = _e2 + by;
    return;
}

int classify(float x) {
    if (x < 0.25) {
        return 0;
    } else {
        if (x < 0.5) {
            return 1;
        } else {
            if (x < 0.75) {
                return 2;
            }
        }
    }
    return 3;
}

void main() {
    uvec3 id = gl_GlobalInvocationID;
    vec4 acc = vec4(0.0);
    float[3] samples = float[3](0.0, 0.0, 0.0);
    uint i = 0u;
    uint n = 0u;
    uint k = 0u;
    float lo = 0.0;
    float hi = 0.0;
    State state = State(vec4(0.0), 0u, 0u);
    if (id.x >= uint(states.value.length())) {
        return;
    }
    rng_state = (id.x * 1664525u) + 1013904223u;
    bool _s_loop_init1 = true;
    while (true) {
        if (!_s_loop_init1) {
            const uint _e29 = i;
            i = _e29 + 1u;
        }
        _s_loop_init1 = false;
        const uint _e21 = i;
        if (_e21 < 3u) {
        } else {
            break;
        }
        {
            const uint _e24 = i;
            float _e27 = next_random(rng_state);
            samples[min(_e24, 2u)] = _e27;
        }
    }
    sort3_(samples);
    while (true) {
        const uint _e33 = n;
        if (_e33 < 8u) {
        } else {
            break;
        }
        {
            float r_e37 = next_random(rng_state);
            const uint _e39 = n;
            n = _e39 + 1u;
            if (r_e37 < 0.1) {
                continue;
            }
            int _e43 = classify(r_e37);
            switch (_e43) {
                case 0:
                {
                    accumulate(acc, vec4(1.0, 0.0, 0.0, 0.0), r_e37);
                }
                break;
                case 1:
                case 2:
                {
                    const float _e55 = samples[1];
                    accumulate(acc, vec4(0.0, 1.0, 0.0, 0.0), _e55);
                }
                break;
                default:
                {
                    const float _e62 = samples[2];
                    accumulate(acc, vec4(0.0, 0.0, 1.0, 0.0), _e62);
                }
                break;
            }
        }
    }
    bool _s_loop_init2 = true;
    while (true) {
        if (!_s_loop_init2) {
            const uint _e69 = k;
            k = _e69 + 1u;
            const uint _e71 = k;
            const uint _e76 = states.value[min(id.x, uint(states.value.length()) - 1u)].mode;
            const uint _e79 = mode_override.value.x;
            if (_e71 >= (_e76 + _e79)) {
                break;
            }
        }
        _s_loop_init2 = false;
        const vec4 _e65 = acc;
        acc = _e65 * 0.5;
    }
    const float _e83 = samples[0];
    lo = _e83;
    const float _e86 = samples[2];
    hi = _e86;
    swap(lo, hi);
    const State _e91 = states.value[min(id.x, uint(states.value.length()) - 1u)];
    state = _e91;
    const vec4 _e94 = acc;
    const float _e95 = lo;
    const float _e96 = hi;
    state.value = _e94 + vec4(_e95 - _e96);
    const uint _e101 = n;
    const uint _e102 = k;
    bump_steps(state.steps, _e101 + _e102);
    const State _e107 = state;
    states.value[min(id.x, uint(states.value.length()) - 1u)] = _e107;
    return;
}
