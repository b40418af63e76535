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

layout(location = 0) in vec4 _s_vary0;
layout(location = 1) flat in uint _s_vary1;
layout(location = 2) noperspective in vec2 _s_vary2;
layout(location = 3) noperspective centroid in float _s_vary3;
layout(location = 4) noperspective sample in float _s_vary4;
layout(location = 5) centroid in vec3 _s_vary5;
layout(location = 6) sample in vec2 _s_vary6;
layout(location = 7) flat in ivec2 _s_vary7;
layout(location = 0) out vec4 _s_frag0;
layout(location = 1) out uvec4 _s_frag1;

void main() {
    VsOut in_ = VsOut(gl_FragCoord, _s_vary0, _s_vary1, _s_vary2, _s_vary3, _s_vary4, _s_vary5, _s_vary6, _s_vary7);
    bool front = gl_FrontFacing;
    uint sample_ = uint(gl_SampleID);
    FsOut out_1 = FsOut(vec4(0.0), uvec4(0u), 0.0);
    const float side_e6 = front ? 1.0 : 0.25;
    out_1.color = vec4((in_.color.xyz * side_e6) + vec3(in_.edge, in_.sample_lin, in_.screen_uv.x), in_.color.w);
    const uint _e24 = frame.coverage_mask;
    out_1.ids = uvec4(in_.instance, sample_ ^ _e24, uint(in_.id.x), uint(in_.id.y));
    const float _e38 = frame.depth_bias;
    out_1.depth = clamp(((in_.clip.z + _e38) + (in_.sample_persp.x * 0.0)) + (in_.world.y * 0.0), 0.0, 1.0);
    const FsOut _e53 = out_1;
    _s_frag0 = _e53.color;
    _s_frag1 = _e53.ids;
    gl_FragDepth = _e53.depth;
    return;
}
