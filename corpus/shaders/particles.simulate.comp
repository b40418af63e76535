#version 450

layout(local_size_x = 64, local_size_y = 1, local_size_z = 1) in;

struct Particle {
    vec3 position;
    float age;
    vec3 velocity;
    float lifetime;
    vec4 color;
};

layout(set = 0, binding = 0, std140) uniform params_block {
    layout(offset = 0) vec3 gravity;
    layout(offset = 12) float dt;
    layout(offset = 16) vec3 emitter;
    layout(offset = 28) float drag;
    layout(offset = 32) vec3 bounds_min;
    layout(offset = 44) uint seed;
    layout(offset = 48) vec3 bounds_max;
    layout(offset = 60) float restitution;
} params;
layout(set = 0, binding = 1, std430) buffer particles_block {
    layout(offset = 0) Particle value[];
} particles;
layout(set = 0, binding = 2, std430) buffer stats_block {
    layout(offset = 0) uint alive;
    layout(offset = 4) uint respawned;
} stats;

uint hash(uint x) {
    uint h = 0u;
    h = (x * 747796405u) + 2891336453u;
    const uint _e6 = h;
    const uint _e7 = h;
    const uint _e13 = h;
    h = ((_e6 >> (((_e7 >> (28u & 31u)) + 4u) & 31u)) ^ _e13) * 277803737u;
    const uint _e17 = h;
    const uint _e20 = h;
    return (_e17 >> (22u & 31u)) ^ _e20;
}

float rand01_(uint x_1) {
    uint _e1 = hash(x_1);
    return float(_e1 & 16777215u) / 16777216.0;
}

void main() {
    uvec3 id = gl_GlobalInvocationID;
    Particle p = Particle(vec3(0.0), 0.0, vec3(0.0), 0.0, vec4(0.0));
    int axis = 0;
    bool local = false;
    const uint i_e1 = id.x;
    if (i_e1 >= uint(particles.value.length())) {
        return;
    }
    const Particle _e7 = particles.value[min(i_e1, uint(particles.value.length()) - 1u)];
    p = _e7;
    const float _e10 = p.age;
    const float _e13 = params.dt;
    p.age = _e10 + _e13;
    const float _e16 = p.age;
    const float _e18 = p.lifetime;
    if (_e16 >= _e18) {
        const uint _e22 = params.seed;
        const uint s_e25 = _e22 ^ (i_e1 * 9781u);
        const vec3 _e29 = params.emitter;
        p.position = _e29;
        float _e31 = rand01_(s_e25);
        float _e36 = rand01_(s_e25 + 1u);
        float _e41 = rand01_(s_e25 + 2u);
        p.velocity = vec3(_e31 - 0.5, 1.0 + _e36, _e41 - 0.5) * 4.0;
        p.age = 0.0;
        float _e52 = rand01_(s_e25 + 3u);
        p.lifetime = 1.0 + (3.0 * _e52);
        uint _e60 = atomicAdd(stats.respawned, 1u);
    }
    const vec3 _e63 = p.velocity;
    const vec3 _e66 = params.gravity;
    const float _e69 = params.dt;
    const float _e74 = params.drag;
    const float _e77 = params.dt;
    p.velocity = (_e63 + (_e66 * _e69)) * (1.0 - (_e74 * _e77));
    const vec3 _e83 = p.position;
    const vec3 _e85 = p.velocity;
    const float _e88 = params.dt;
    p.position = _e83 + (_e85 * _e88);
    bool _s_loop_init1 = true;
    while (true) {
        if (!_s_loop_init1) {
            const int _e152 = axis;
            axis = _e152 + 1;
        }
        _s_loop_init1 = false;
        const int _e93 = axis;
        if (_e93 < 3) {
        } else {
            break;
        }
        {
            const int _e97 = axis;
            const float _e99 = p.position[min(uint(_e97), 2u)];
            const int _e102 = axis;
            const float _e104 = params.bounds_min[min(uint(_e102), 2u)];
            if (!(_e99 < _e104)) {
                const int _e110 = axis;
                const float _e112 = p.position[min(uint(_e110), 2u)];
                const int _e115 = axis;
                const float _e117 = params.bounds_max[min(uint(_e115), 2u)];
                local = _e112 > _e117;
            } else {
                local = true;
            }
            const bool _e120 = local;
            if (_e120) {
                const int _e122 = axis;
                const int _e125 = axis;
                const float _e127 = p.position[min(uint(_e125), 2u)];
                const int _e130 = axis;
                const float _e132 = params.bounds_min[min(uint(_e130), 2u)];
                const int _e135 = axis;
                const float _e137 = params.bounds_max[min(uint(_e135), 2u)];
                p.position[min(uint(_e122), 2u)] = clamp(_e127, _e132, _e137);
                const int _e140 = axis;
                const int _e143 = axis;
                const float _e145 = p.velocity[min(uint(_e143), 2u)];
                const float _e149 = params.restitution;
                p.velocity[min(uint(_e140), 2u)] = (-_e145) * _e149;
            }
        }
    }
    const float _e155 = p.age;
    const float _e157 = p.lifetime;
    const float t_e158 = _e155 / _e157;
    p.color = vec4(mix(vec3(1.0, 0.8, 0.3), vec3(0.6, 0.1, 0.05), t_e158), 1.0 - t_e158);
    const Particle _e174 = p;
    particles.value[min(i_e1, uint(particles.value.length()) - 1u)] = _e174;
    uint _e178 = atomicAdd(stats.alive, 1u);
    return;
}
