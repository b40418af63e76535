#version 450

layout(local_size_x = 1, local_size_y = 1, local_size_z = 1) in;

layout(set = 0, binding = 0, std140) uniform padded_block {
    layout(offset = 0) float weights[4];
    layout(offset = 64) float bias;
} padded;
layout(set = 0, binding = 1, std430) buffer dense_block {
    layout(offset = 0) float weights[4];
    layout(offset = 16) float defaults[4];
    layout(offset = 32) float bias;
} dense;

void main() {
    uint i = 0u;
    bool _s_loop_init1 = true;
    while (true) {
        if (!_s_loop_init1) {
            const uint _e28 = i;
            i = _e28 + 1u;
        }
        _s_loop_init1 = false;
        const uint _e2 = i;
        if (_e2 < 4u) {
        } else {
            break;
        }
        {
            const uint _e7 = i;
            const uint _e11 = i;
            const float _e13 = padded.weights[min(_e11, 3u)];
            dense.weights[min(_e7, 3u)] = _e13;
            const uint _e16 = i;
            const uint _e21 = i;
            const float _e24 = padded.weights[min(3u - _e21, 3u)];
            dense.defaults[min(_e16, 3u)] = _e24 * 0.5;
        }
    }
    const float _e34 = padded.bias;
    dense.bias = _e34;
    return;
}
