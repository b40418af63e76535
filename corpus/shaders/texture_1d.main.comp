#version 450
#extension GL_EXT_samplerless_texture_functions : require

layout(local_size_x = 1, local_size_y = 1, local_size_z = 1) in;

layout(set = 0, binding = 0) uniform texture1D t;
layout(set = 0, binding = 1) uniform sampler s;
layout(set = 0, binding = 2, r32f) uniform image1D st;
layout(set = 0, binding = 3, std430) buffer out_block {
    layout(offset = 0) vec4 value[];
} out_;

void main() {
    uvec3 id = gl_GlobalInvocationID;
    const float x_e4 = float(id.x) / 8.0;
    const vec4 _e10 = textureLod(sampler1D(t, s), x_e4, 0.0);
    out_.value[0] = _e10;
    const vec4 _e17 = texelFetch(t, clamp(int(id.x), 0, textureSize(t, 0) - 1), 0);
    out_.value[1] = _e17;
    out_.value[2] = vec4(float(uint(textureSize(t, 0))), float(uint(textureSize(t, 1))), float(uint(imageSize(st))), 0.0);
    const vec4 v_e34 = imageLoad(st, clamp(int(id.x), 0, imageSize(st) - 1));
    imageStore(st, int(id.x), v_e34 + vec4(1.0));
    return;
}
