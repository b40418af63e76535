#version 450

layout(local_size_x = 1, local_size_y = 1, local_size_z = 1) in;

layout(set = 0, binding = 0, std140) uniform globals_block {
    layout(offset = 0) float time;
    layout(offset = 4) uint frame;
    layout(offset = 8) vec2 resolution;
} globals;
layout(set = 0, binding = 1, std430) buffer out_block {
    layout(offset = 0) vec4 value;
} out_;

void main() {
    const vec2 _e3 = globals.resolution;
    const float _e6 = globals.time;
    const uint _e9 = globals.frame;
    out_.value = vec4(_e3, _e6, float(_e9));
    return;
}
