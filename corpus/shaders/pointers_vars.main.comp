#version 450

layout(local_size_x = 32, local_size_y = 1, local_size_z = 1) in;

struct Body {
    vec3 pos;
    float mass;
    vec3 vel;
    uint flags;
};

layout(set = 0, binding = 0, std430) buffer bodies_block {
    layout(offset = 0) Body value[];
} bodies;
layout(set = 0, binding = 1, std140) uniform world_block {
    layout(offset = 0) vec3 gravity;
    layout(offset = 12) float dt;
    layout(offset = 16) vec4 bounds[2];
} world;

uint step_count = 0u;
float[4] scratch = float[4](0.0, 0.0, 0.0, 0.0);
Body last_body = Body(vec3(0.0), 0.0, vec3(0.0), 0u);
shared Body[32] shared_bodies;
shared vec3 shared_sum;

uint _s_mod_uint(uint a, uint b) {
    return a % (b == 0u ? 1u : b);
}

void integrate(inout Body b_1, float dt) {
    const vec3 _e3 = b_1.vel;
    const vec3 _e6 = world.gravity;
    b_1.vel = _e3 + (_e6 * dt);
    const vec3 _e10 = b_1.pos;
    const vec3 _e12 = b_1.vel;
    b_1.pos = _e10 + (_e12 * dt);
    const uint _e16 = b_1.flags;
    b_1.flags = _e16 | 1u;
    return;
}

bool clamp_to_bounds(inout vec3 pos, vec3 lo, vec3 hi) {
    const vec3 before_e3 = pos;
    const vec3 _e4 = pos;
    pos = clamp(_e4, lo, hi);
    const vec3 _e6 = pos;
    return any(notEqual(before_e3, _e6));
}

void count_step(inout uint counter) {
    const uint _e1 = counter;
    counter = _e1 + 1u;
    return;
}

void push_scratch(inout float[4] slots, uint i, float v) {
    slots[min(_s_mod_uint(i, 4u), 3u)] = v;
    return;
}

void main() {
    if (gl_LocalInvocationIndex == 0u) {
        for (uint _s_z0 = 0u; _s_z0 < 32u; _s_z0++) {
            shared_bodies[_s_z0] = Body(vec3(0.0), 0.0, vec3(0.0), 0u);
        }
        shared_sum = vec3(0.0);
    }
    barrier();
    uvec3 gid = gl_GlobalInvocationID;
    uint li = gl_LocalInvocationIndex;
    Body b = Body(vec3(0.0), 0.0, vec3(0.0), 0u);
    vec4[2] local_copy = vec4[2](vec4(0.0), vec4(0.0));
    bool hit = false;
    uint s = 0u;
    bool local = false;
    const uint n_e3 = uint(bodies.value.length());
    const uint i_e7 = min(gid.x, n_e3 - 1u);
    const Body _e10 = bodies.value[min(i_e7, uint(bodies.value.length()) - 1u)];
    b = _e10;
    const vec4[2] _e14 = world.bounds;
    local_copy = _e14;
    bool _s_loop_init1 = true;
    while (true) {
        if (!_s_loop_init1) {
            const uint _e49 = s;
            s = _e49 + 1u;
        }
        _s_loop_init1 = false;
        const uint _e21 = s;
        if (_e21 < 4u) {
        } else {
            break;
        }
        {
            const float _e26 = world.dt;
            integrate(b, _e26 * 0.25);
            const vec4 _e30 = local_copy[0];
            const vec4 _e33 = local_copy[1];
            bool _e35 = clamp_to_bounds(b.pos, _e30.xyz, _e33.xyz);
            if (!_e35) {
                const bool _e39 = hit;
                local = _e39;
            } else {
                local = true;
            }
            const bool _e41 = local;
            hit = _e41;
            count_step(step_count);
            const uint _e44 = s;
            const float _e47 = b.pos.y;
            push_scratch(scratch, _e44, _e47);
        }
    }
    const bool _e51 = hit;
    if (_e51) {
        const vec3 _e54 = b.vel;
        b.vel = (-_e54) * 0.5;
    }
    const Body _e59 = b;
    last_body = _e59;
    const Body _e62 = b;
    shared_bodies[min(li, 31u)] = _e62;
    if (li == 0u) {
        shared_sum = vec3(0.0);
    }
    memoryBarrierShared();
    barrier();
    const vec3 _e69 = shared_sum;
    const vec3 _e77 = shared_bodies[min(_s_mod_uint(li + 1u, 32u), 31u)].pos;
    const float _e79 = shared_bodies[min(li, 31u)].mass;
    shared_sum = _e69 + (_e77 * _e79);
    memoryBarrierShared();
    barrier();
    const uint _e84 = step_count;
    const float _e87 = scratch[3];
    b.flags = _e84 + uint(_e87 > 0.0);
    const float _e94 = bodies.value[min(i_e7, uint(bodies.value.length()) - 1u)].mass;
    const vec3 _e96 = shared_sum;
    b.mass = _e94 + (length(_e96) * 0.0);
    const Body _e101 = b;
    bodies.value[min(i_e7, uint(bodies.value.length()) - 1u)] = _e101;
    const float _e104 = bodies.value[min(i_e7, uint(bodies.value.length()) - 1u)].vel.x;
    const float _e108 = last_body.vel.y;
    bodies.value[min(i_e7, uint(bodies.value.length()) - 1u)].vel.x = _e104 + _e108;
    return;
}
