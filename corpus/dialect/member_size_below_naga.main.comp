#version 450

layout(local_size_x = 1, local_size_y = 1, local_size_z = 1) in;

struct S1_ {
    float a;
    float b;
};

layout(set = 0, binding = 0, std430) buffer h_block {
    uint _s_words[];
} h;

void main() {
    const float _e5 = uintBitsToFloat(h._s_words[8]);
    h._s_words[10] = floatBitsToUint(_e5);
    return;
}
