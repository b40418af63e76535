#version 450

struct FullscreenOut {
    vec4 clip;
    vec2 uv;
};

layout(set = 0, binding = 0) uniform texture2D source;
layout(set = 0, binding = 1) uniform sampler linear_sampler;
layout(set = 0, binding = 2, std140) uniform blur_block {
    layout(offset = 0) vec2 direction;
    layout(offset = 8) vec2 texel_size;
    layout(offset = 16) vec4 weights[2];
    layout(offset = 48) uint radius;
} blur;

layout(location = 0) in vec2 _s_vary0;
layout(location = 0) out vec4 _s_frag0;

uint _s_div_uint(uint a, uint b) {
    return a / (b == 0u ? 1u : b);
}

uint _s_mod_uint(uint a, uint b) {
    return a % (b == 0u ? 1u : b);
}

float weight(uint i_1) {
    const float _e9 = blur.weights[min(_s_div_uint(i_1, 4u), 1u)][min(_s_mod_uint(i_1, 4u), 3u)];
    return _e9;
}

void main() {
    FullscreenOut in_ = FullscreenOut(gl_FragCoord, _s_vary0);
    vec4 sum = vec4(0.0);
    uint i = 1u;
    const vec2 _e3 = blur.direction;
    const vec2 _e6 = blur.texel_size;
    const vec2 step_e7 = _e3 * _e6;
    const vec4 _e12 = textureLod(sampler2D(source, linear_sampler), in_.uv, 0.0);
    float _e14 = weight(0u);
    sum = _e12 * _e14;
    bool _s_loop_init1 = true;
    while (true) {
        if (!_s_loop_init1) {
            const uint _e52 = i;
            i = _e52 + 1u;
        }
        _s_loop_init1 = false;
        const uint _e19 = i;
        const uint _e22 = blur.radius;
        if (_e19 <= min(_e22, 7u)) {
        } else {
            break;
        }
        {
            const uint _e26 = i;
            const vec2 offset_e28 = step_e7 * float(_e26);
            const vec4 _e29 = sum;
            const vec4 _e35 = textureLod(sampler2D(source, linear_sampler), in_.uv + offset_e28, 0.0);
            const uint _e36 = i;
            float _e37 = weight(_e36);
            sum = _e29 + (_e35 * _e37);
            const vec4 _e40 = sum;
            const vec4 _e46 = textureLod(sampler2D(source, linear_sampler), in_.uv - offset_e28, 0.0);
            const uint _e47 = i;
            float _e48 = weight(_e47);
            sum = _e40 + (_e46 * _e48);
        }
    }
    const vec4 _e54 = sum;
    _s_frag0 = _e54;
    return;
}
