#version 450

struct Vertex {
    vec4 position;
    vec4 color;
};
struct VsOut {
    vec4 clip;
    vec4 color;
    uint instance;
    vec2 screen_uv;
    float edge;
    float sample_lin;
    vec3 world;
    vec2 sample_persp;
    ivec2 id;
};
struct FsOut {
    vec4 color;
    uvec4 ids;
    float depth;
};

layout(set = 0, binding = 1, std140) uniform frame_block {
    layout(offset = 0) mat4 view_proj;
    layout(offset = 64) vec4 instance_offset;
    layout(offset = 80) float depth_bias;
    layout(offset = 84) uint coverage_mask;
} frame;

layout(location = 3) noperspective centroid in float _s_vary3;

void main() {
    vec4 pos = gl_FragCoord;
    float edge = _s_vary3;
    if (edge < 0.01) {
        discard;
    }
    const float _e7 = frame.depth_bias;
    float _s_v1 = pos.z * (1.0 - _e7);
    gl_FragDepth = _s_v1;
    return;
}
