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

layout(set = 0, binding = 0, std430) readonly buffer vertices_block {
    layout(offset = 0) Vertex value[];
} vertices;
layout(set = 0, binding = 1, std140) uniform frame_block {
    layout(offset = 0) mat4 view_proj;
    layout(offset = 64) vec4 instance_offset;
    layout(offset = 80) float depth_bias;
    layout(offset = 84) uint coverage_mask;
} frame;

layout(location = 0) in vec3 _s_attr0;
invariant gl_Position;
layout(location = 0) out vec4 _s_vary0;
layout(location = 1) flat out uint _s_vary1;
layout(location = 2) noperspective out vec2 _s_vary2;
layout(location = 3) noperspective centroid out float _s_vary3;
layout(location = 4) noperspective sample out float _s_vary4;
layout(location = 5) centroid out vec3 _s_vary5;
layout(location = 6) sample out vec2 _s_vary6;
layout(location = 7) flat out ivec2 _s_vary7;

uint _s_mod_uint(uint a, uint b) {
    return a % (b == 0u ? 1u : b);
}

void main() {
    uint vi = uint(gl_VertexIndex);
    uint ii = uint(gl_InstanceIndex);
    vec3 offset = _s_attr0;
    VsOut out_ = VsOut(vec4(0.0), vec4(0.0), 0u, vec2(0.0), 0.0, 0.0, vec3(0.0), vec2(0.0), ivec2(0));
    const Vertex v_e5 = vertices.value[min(vi, uint(vertices.value.length()) - 1u)];
    const vec4 _e12 = frame.instance_offset;
    const vec3 world_e16 = (v_e5.position.xyz + offset) + (_e12.xyz * float(ii));
    const mat4 _e20 = frame.view_proj;
    out_.clip = _e20 * vec4(world_e16, 1.0);
    out_.color = v_e5.color;
    out_.instance = ii;
    const vec4 _e29 = out_.clip;
    const float _e33 = out_.clip.w;
    out_.screen_uv = ((_e29.xy / vec2(_e33)) * 0.5) + vec2(0.5);
    out_.edge = float(_s_mod_uint(vi, 3u));
    out_.sample_lin = v_e5.color.w;
    out_.world = world_e16;
    out_.sample_persp = world_e16.xz;
    out_.id = ivec2(int(vi), -int(ii));
    const VsOut _e56 = out_;
    gl_Position = _e56.clip;
    gl_Position.y = -gl_Position.y;
    _s_vary0 = _e56.color;
    _s_vary1 = _e56.instance;
    _s_vary2 = _e56.screen_uv;
    _s_vary3 = _e56.edge;
    _s_vary4 = _e56.sample_lin;
    _s_vary5 = _e56.world;
    _s_vary6 = _e56.sample_persp;
    _s_vary7 = _e56.id;
    return;
}
