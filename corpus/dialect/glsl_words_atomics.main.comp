#version 450

layout(local_size_x = 1, local_size_y = 1, local_size_z = 1) in;

struct S1_ {
    float a;
    float b;
};
struct S2_ {
    S1_ m0_;
    float after;
};
struct _atomic_compare_exchange_result_Sint_4_ {
    int old_value;
    bool exchanged;
};

layout(set = 0, binding = 0, std430) buffer p_block {
    uint _s_words[];
} p;

void main() {
    const float _e9 = uintBitsToFloat(p._s_words[8]);
    p._s_words[10] = floatBitsToUint(_e9);
    int old_e13 = int(atomicAdd(p._s_words[16], uint(-3)));
    int _s_old1 = int(atomicCompSwap(p._s_words[16], uint(old_e13), uint(7)));
    _atomic_compare_exchange_result_Sint_4_ x_e17 = _atomic_compare_exchange_result_Sint_4_(_s_old1, _s_old1 == old_e13);
    int _e21 = int(atomicAdd(p._s_words[16], -(uint(2))));
    uint _e25 = atomicOr(p._s_words[17], 2u);
    uint _s_cur2 = atomicOr(p._s_words[16], 0u);
    while (true) {
        uint _s_seen3 = atomicCompSwap(p._s_words[16], _s_cur2, uint(max(int(_s_cur2), -1)));
        if (_s_seen3 == _s_cur2) { break; }
        _s_cur2 = _s_seen3;
    }
    int hi_e29 = int(_s_cur2);
    uint _s_cur4 = atomicOr(p._s_words[16], 0u);
    while (true) {
        uint _s_seen5 = atomicCompSwap(p._s_words[16], _s_cur4, uint(min(int(_s_cur4), hi_e29)));
        if (_s_seen5 == _s_cur4) { break; }
        _s_cur4 = _s_seen5;
    }
    int lo_e32 = int(_s_cur4);
    int _e35 = int(atomicExchange(p._s_words[16], uint(lo_e32)));
    if (x_e17.exchanged) {
        float _s_v6 = float(x_e17.old_value);
        p._s_words[0] = floatBitsToUint(_s_v6);
        return;
    } else {
        return;
    }
}
