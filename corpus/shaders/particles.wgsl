// Particle simulation: a compute pass integrating particles in a read_write storage
// buffer (vec3 + f32 pairs), simulation parameters in a uniform, an atomic alive counter.

struct Particle {
    position: vec3<f32>,
    age: f32,
    velocity: vec3<f32>,
    lifetime: f32,
    color: vec4<f32>,
}

struct SimParams {
    gravity: vec3<f32>,
    dt: f32,
    emitter: vec3<f32>,
    drag: f32,
    bounds_min: vec3<f32>,
    seed: u32,
    bounds_max: vec3<f32>,
    restitution: f32,
}

struct Stats {
    alive: atomic<u32>,
    respawned: atomic<u32>,
}

@group(0) @binding(0) var<uniform> params: SimParams;
@group(0) @binding(1) var<storage, read_write> particles: array<Particle>;
@group(0) @binding(2) var<storage, read_write> stats: Stats;

fn hash(x: u32) -> u32 {
    var h = x * 747796405u + 2891336453u;
    h = ((h >> ((h >> 28u) + 4u)) ^ h) * 277803737u;
    return (h >> 22u) ^ h;
}

fn rand01(x: u32) -> f32 {
    return f32(hash(x) & 0xffffffu) / 16777216.0;
}

@compute @workgroup_size(64)
fn simulate(@builtin(global_invocation_id) id: vec3<u32>) {
    let i = id.x;
    if i >= arrayLength(&particles) {
        return;
    }
    var p = particles[i];
    p.age += params.dt;
    if p.age >= p.lifetime {
        let s = params.seed ^ (i * 9781u);
        p.position = params.emitter;
        p.velocity = vec3<f32>(rand01(s) - 0.5, 1.0 + rand01(s + 1u), rand01(s + 2u) - 0.5) * 4.0;
        p.age = 0.0;
        p.lifetime = 1.0 + 3.0 * rand01(s + 3u);
        atomicAdd(&stats.respawned, 1u);
    }
    p.velocity = (p.velocity + params.gravity * params.dt) * (1.0 - params.drag * params.dt);
    p.position += p.velocity * params.dt;
    for (var axis = 0; axis < 3; axis++) {
        if p.position[axis] < params.bounds_min[axis] || p.position[axis] > params.bounds_max[axis] {
            p.position[axis] = clamp(p.position[axis], params.bounds_min[axis], params.bounds_max[axis]);
            p.velocity[axis] = -p.velocity[axis] * params.restitution;
        }
    }
    let t = p.age / p.lifetime;
    p.color = vec4<f32>(mix(vec3<f32>(1.0, 0.8, 0.3), vec3<f32>(0.6, 0.1, 0.05), t), 1.0 - t);
    particles[i] = p;
    atomicAdd(&stats.alive, 1u);
}
