#version 450
#extension GL_ARB_gpu_shader_int64 : require

layout(local_size_x = 1, local_size_y = 1, local_size_z = 1) in;

layout(set = 0, binding = 0, std430) buffer wide_block {
    layout(offset = 0) double sum;
    layout(offset = 8) uint64_t count;
    layout(offset = 16) int64_t offset;
    layout(offset = 32) dvec2 center;
    layout(offset = 48) u64vec2 range;
    layout(offset = 64) i64vec3 deltas;
} wide;
layout(set = 0, binding = 1, std430) readonly buffer samples_block {
    layout(offset = 0) float value[];
} samples;

void main() {
    double sum = 0.0lf;
    uint64_t count = uint64_t(0);
    uint64_t lo = uint64_t(0);
    uint64_t hi = uint64_t(0);
    uint i = 0u;
    const double _e2 = wide.sum;
    sum = _e2;
    const uint64_t _e6 = wide.count;
    count = _e6;
    const uint64_t _e11 = wide.range.x;
    lo = _e11;
    const uint64_t _e16 = wide.range.y;
    hi = _e16;
    bool _s_loop_init1 = true;
    while (true) {
        if (!_s_loop_init1) {
            const uint _e50 = i;
            i = _e50 + 1u;
        }
        _s_loop_init1 = false;
        const uint _e20 = i;
        if (_e20 < uint(samples.value.length())) {
        } else {
            break;
        }
        {
            const uint _e25 = i;
            const float _e27 = samples.value[min(_e25, uint(samples.value.length()) - 1u)];
            const double v_e28 = double(_e27);
            const double _e30 = sum;
            sum = fma(v_e28, 2.0lf, _e30);
            const uint64_t _e32 = count;
            count = _e32 + 1ul;
            const uint _e36 = i;
            const float _e38 = samples.value[min(_e36, uint(samples.value.length()) - 1u)];
            const uint64_t bits_e40 = uint64_t(floatBitsToUint(_e38));
            const uint64_t _e41 = lo;
            lo = min(_e41, bits_e40 << (3u & 63u));
            const uint64_t _e45 = hi;
            hi = max(_e45, bits_e40 >> (1u & 63u));
        }
    }
    const double _e54 = sum;
    wide.sum = sqrt(abs(_e54));
    const uint64_t _e59 = count;
    wide.count = _e59;
    const uint64_t _e62 = lo;
    const uint64_t _e63 = hi;
    wide.range = u64vec2(_e62, _e63);
    const uint64_t _e67 = count;
    const int64_t _e76 = wide.offset;
    wide.offset = clamp(int64_t(_e67) - 5l, -100l, 100l) * _e76;
    const dvec2 _e82 = wide.center;
    const double _e83 = sum;
    const uint64_t _e84 = count;
    wide.center = (_e82 + dvec2(_e83 / double(max(_e84, 1ul)))) * 0.5lf;
    const i64vec3 _e97 = wide.deltas;
    const double _e99 = sum;
    wide.deltas = abs(_e97) - i64vec3(int64_t(clamp(float(_e99), -9223372036854775808.0, 9223371487098961920.0)), 1l, -1l);
    return;
}
