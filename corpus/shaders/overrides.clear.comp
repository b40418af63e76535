#version 450

layout(local_size_x = 32, local_size_y = 1, local_size_z = 1) in;

struct Tint {
    vec3 color;
    float strength;
};

const float PI = 3.1415927;
const float TAU = 6.2831855;
const vec2 GOLDEN = vec2(1.0, 1.618034);
const float[5] WEIGHTS = float[5](0.227027, 0.1945946, 0.1216216, 0.054054, 0.016216);
const ivec2[4] OFFSETS = ivec2[4](ivec2(0, 1), ivec2(1, 0), ivec2(0, -1), ivec2(-1, 0));
const Tint DEFAULT_TINT = Tint(vec3(1.0, 0.5, 0.25), 0.75);
const uint block_size = 64u;
const float gain = 1.5;
const bool use_tint = true;
const int bias = -3;
const float scale = 0.5;
const float threshold = 3.5;
const uint half_block = 32u;

layout(set = 0, binding = 1, std430) buffer samples_block {
    layout(offset = 0) vec4 value[];
} samples;

void main() {
    uvec3 gid_1 = gl_GlobalInvocationID;
    if (gid_1.x < uint(samples.value.length())) {
        samples.value[min(gid_1.x, uint(samples.value.length()) - 1u)] = vec4(-1.5);
        return;
    } else {
        return;
    }
}
