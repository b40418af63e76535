// Pointers and variables in every address space that allows them: function, private and
// workgroup variables (with and without initializers, arrays and structs), pointer
// parameters into function and private memory, let-bound pointers (workgroup ones too) to members and elements, pointers
// into storage and uniform buffers through let, whole-struct and whole-array copies.

struct Body {
    pos: vec3<f32>,
    mass: f32,
    vel: vec3<f32>,
    flags: u32,
}

struct World {
    gravity: vec3<f32>,
    dt: f32,
    bounds: array<vec4<f32>, 2>,
}

@group(0) @binding(0) var<storage, read_write> bodies: array<Body>;
@group(0) @binding(1) var<uniform> world: World;

var<private> step_count: u32 = 0u;
var<private> scratch: array<f32, 4>;
var<private> last_body: Body;
var<workgroup> shared_bodies: array<Body, 32>;
var<workgroup> shared_sum: vec3<f32>;

fn integrate(b: ptr<function, Body>, dt: f32) {
    (*b).vel += world.gravity * dt;
    (*b).pos += (*b).vel * dt;
    let flags = &(*b).flags;
    *flags |= 1u;
}

fn clamp_to_bounds(pos: ptr<function, vec3<f32>>, lo: vec3<f32>, hi: vec3<f32>) -> bool {
    let before = *pos;
    *pos = clamp(*pos, lo, hi);
    return any(before != *pos);
}

fn count_step(counter: ptr<private, u32>) {
    *counter += 1u;
}

fn push_scratch(slots: ptr<private, array<f32, 4>>, i: u32, v: f32) {
    (*slots)[i % 4u] = v;
}

@compute @workgroup_size(32)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(local_invocation_index) li: u32) {
    let n = arrayLength(&bodies);
    let i = min(gid.x, n - 1u);
    let stored = &bodies[i];
    var b: Body = *stored;
    var local_copy = world.bounds;
    let lo_ptr = &local_copy[0];
    var hit = false;
    for (var s = 0u; s < 4u; s++) {
        integrate(&b, world.dt * 0.25);
        hit = clamp_to_bounds(&b.pos, (*lo_ptr).xyz, local_copy[1].xyz) || hit;
        count_step(&step_count);
        push_scratch(&scratch, s, b.pos.y);
    }
    if hit {
        b.vel = -b.vel * 0.5;
    }
    last_body = b;
    let slot = &shared_bodies[li];
    *slot = b;
    if li == 0u {
        shared_sum = vec3<f32>(0.0);
    }
    workgroupBarrier();
    let sum = &shared_sum;
    *sum += shared_bodies[(li + 1u) % 32u].pos * (*slot).mass;
    workgroupBarrier();
    b.flags = step_count + u32(scratch[3] > 0.0);
    let mass_ptr = &(*stored).mass;
    b.mass = *mass_ptr + length(shared_sum) * 0.0;
    *stored = b;
    (*stored).vel.x += last_body.vel.y;
}
