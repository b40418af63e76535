#version 450

layout(local_size_x = 1, local_size_y = 1, local_size_z = 1) in;

layout(set = 0, binding = 0, std430) buffer out_block {
    layout(offset = 0) float value[];
} out_;

void bump(inout float x) {
    const float _e1 = x;
    x = _e1 + 1.0;
    return;
}

void bump_first(inout float[2] v) {
    bump(v[0]);
    return;
}

void main() {
    float[2] s = float[2](0.0, 0.0);
    const float _e2 = out_.value[0];
    const float _e5 = out_.value[1];
    s = float[2](_e2, _e5);
    bump_first(s);
    const float _e11 = s[0];
    out_.value[0] = _e11;
    return;
}
