#version 450

layout(local_size_x = 1, local_size_y = 1, local_size_z = 1) in;

struct S1_ {
    float a;
    float b;
};
struct _atomic_compare_exchange_result_Sint_4_ {
    int old_value;
    bool exchanged;
};

layout(set = 0, binding = 0, std430) buffer p_block {
    uint _s_words[];
} p;

void main() {
    const float _e5 = uintBitsToFloat(p._s_words[8]);
    p._s_words[10] = floatBitsToUint(_e5);
    int old_e9 = int(atomicAdd(p._s_words[11], uint(-3)));
    int _s_old1 = int(atomicCompSwap(p._s_words[11], uint(old_e9), uint(7)));
    _atomic_compare_exchange_result_Sint_4_ x_e13 = _atomic_compare_exchange_result_Sint_4_(_s_old1, _s_old1 == old_e9);
    int _e17 = int(atomicAdd(p._s_words[11], -(uint(2))));
    uint _e21 = atomicOr(p._s_words[12], 2u);
    uint _s_cur2 = atomicOr(p._s_words[11], 0u);
    while (true) {
        uint _s_seen3 = atomicCompSwap(p._s_words[11], _s_cur2, uint(max(int(_s_cur2), -1)));
        if (_s_seen3 == _s_cur2) { break; }
        _s_cur2 = _s_seen3;
    }
    int hi_e25 = int(_s_cur2);
    uint _s_cur4 = atomicOr(p._s_words[11], 0u);
    while (true) {
        uint _s_seen5 = atomicCompSwap(p._s_words[11], _s_cur4, uint(min(int(_s_cur4), hi_e25)));
        if (_s_seen5 == _s_cur4) { break; }
        _s_cur4 = _s_seen5;
    }
    int lo_e28 = int(_s_cur4);
    int _e31 = int(atomicExchange(p._s_words[11], uint(lo_e28)));
    if (x_e13.exchanged) {
        float _s_v6 = float(x_e13.old_value);
        p._s_words[0] = floatBitsToUint(_s_v6);
        return;
    } else {
        return;
    }
}
