#version 450

layout(local_size_x = 4, local_size_y = 1, local_size_z = 1) in;

struct Item {
    float weight;
    float[3] taps;
};

layout(set = 0, binding = 0, std430) buffer out_block {
    layout(offset = 0) float value[];
} out_;

uint _s_mod_uint(uint a, uint b) {
    return a % (b == 0u ? 1u : b);
}

float first(float[4] values) {
    return values[0];
}

vec2[2] cleared() {
    return vec2[2](vec2(0.0), vec2(0.0));
}

void main() {
    uint i = gl_LocalInvocationIndex;
    float acc = 0.0;
    float[4] local = float[4](1.0, 2.0, 3.0, 4.0);
    acc = float[4](0.0, 0.0, 0.0, 0.0)[min(i, 3u)];
    const float _e4 = acc;
    acc = _e4 + 0.0;
    const float _e7 = acc;
    acc = _e7 + float[2][4](float[4](0.0, 0.0, 0.0, 0.0), float[4](0.0, 0.0, 0.0, 0.0))[min(_s_mod_uint(i, 2u), 1u)][min(i, 3u)];
    const float _e14 = acc;
    acc = _e14 + Item[2](Item(0.0, float[3](0.0, 0.0, 0.0)), Item(0.0, float[3](0.0, 0.0, 0.0)))[min(_s_mod_uint(i, 2u), 1u)].weight;
    const float _e21 = acc;
    acc = _e21 + Item[2](Item(0.0, float[3](0.0, 0.0, 0.0)), Item(0.0, float[3](0.0, 0.0, 0.0)))[min(_s_mod_uint(i, 2u), 1u)].taps[min(_s_mod_uint(i, 3u), 2u)];
    const float _e31 = acc;
    acc = _e31 + mat2[3](mat2(0.0), mat2(0.0), mat2(0.0))[min(_s_mod_uint(i, 3u), 2u)][1].y;
    const float _e40 = acc;
    acc = _e40 + float(uint[4](0u, 0u, 0u, 0u)[min(i, 3u)]);
    const float _e44 = acc;
    float _e46 = first(float[4](0.0, 0.0, 0.0, 0.0));
    acc = _e44 + _e46;
    local = float[4](0.0, 0.0, 0.0, 0.0);
    const float _e55 = acc;
    const float _e57 = local[min(i, 3u)];
    acc = _e55 + _e57;
    const float _e59 = acc;
    vec2[2] _e60 = cleared();
    acc = _e59 + _e60[min(_s_mod_uint(i, 2u), 1u)].x;
    const float _e68 = acc;
    out_.value[min(i, uint(out_.value.length()) - 1u)] = _e68;
    return;
}
