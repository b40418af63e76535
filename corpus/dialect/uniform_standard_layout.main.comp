#version 450

layout(local_size_x = 1, local_size_y = 1, local_size_z = 1) in;

struct Pair {
    float a;
    uint b;
};
struct Params {
    Pair[3] pairs;
    float scale;
    Pair inner;
    float[5] weights;
    vec2 tail;
};

layout(set = 0, binding = 0, std140) uniform params_block {
    uvec4 _s_words[4];
} params;
layout(set = 0, binding = 1, std430) buffer result_block {
    layout(offset = 0) float value[];
} result;

Pair _s_load_params_Pair(uint o) {
    return Pair(uintBitsToFloat(params._s_words[o >> 4u][(o >> 2u) & 3u]), params._s_words[(4u + o) >> 4u][((4u + o) >> 2u) & 3u]);
}

Pair[3] _s_load_params_Pair_a3_s8(uint o) {
    Pair r[3];
    for (uint i = 0u; i < 3u; ++i) {
        r[i] = _s_load_params_Pair(o + 8u * i);
    }
    return r;
}

float[5] _s_load_params_float_a5_s4(uint o) {
    float r[5];
    for (uint i = 0u; i < 5u; ++i) {
        r[i] = uintBitsToFloat(params._s_words[(o + 4u * i) >> 4u][((o + 4u * i) >> 2u) & 3u]);
    }
    return r;
}

Params _s_load_params_Params(uint o) {
    return Params(_s_load_params_Pair_a3_s8(o), uintBitsToFloat(params._s_words[(24u + o) >> 4u][((24u + o) >> 2u) & 3u]), _s_load_params_Pair(28u + o), _s_load_params_float_a5_s4(36u + o), uintBitsToFloat(uvec2(params._s_words[(56u + o) >> 4u][((56u + o) >> 2u) & 3u], params._s_words[(60u + o) >> 4u][((60u + o) >> 2u) & 3u])));
}

void main() {
    float sum = 0.0;
    uint i = 0u;
    uint i_1 = 0u;
    const Params whole_e1 = _s_load_params_Params(0u);
    const float _e4 = uintBitsToFloat(params._s_words[1].z);
    const uint _e8 = params._s_words[2].x;
    const float _e14 = uintBitsToFloat(params._s_words[3].w);
    sum = (_e4 + float(_e8)) + _e14;
    bool _s_loop_init1 = true;
    while (true) {
        if (!_s_loop_init1) {
            const uint _e37 = i;
            i = _e37 + 1u;
        }
        _s_loop_init1 = false;
        const uint _e19 = i;
        if (_e19 < 3u) {
        } else {
            break;
        }
        {
            const float _e22 = sum;
            const uint _e25 = i;
            const float _e28 = uintBitsToFloat(params._s_words[8u * min(_e25, 2u) >> 4u][(8u * min(_e25, 2u) >> 2u) & 3u]);
            const uint _e30 = i;
            sum = _e22 + (_e28 + float(whole_e1.pairs[min(_e30, 2u)].b));
        }
    }
    bool _s_loop_init2 = true;
    while (true) {
        if (!_s_loop_init2) {
            const uint _e52 = i_1;
            i_1 = _e52 + 1u;
        }
        _s_loop_init2 = false;
        const uint _e41 = i_1;
        if (_e41 < 5u) {
        } else {
            break;
        }
        {
            const float _e44 = sum;
            const uint _e47 = i_1;
            const float _e49 = uintBitsToFloat(params._s_words[(36u + 4u * min(_e47, 4u)) >> 4u][((36u + 4u * min(_e47, 4u)) >> 2u) & 3u]);
            sum = _e44 + _e49;
        }
    }
    const float _e56 = sum;
    result.value[0] = _e56;
    return;
}
