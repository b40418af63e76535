// Control flow and functions: pointer parameters (function and private pointers, pointers
// to array elements and to a struct member), for/while/loop with continuing and break if, switch.

struct State {
    value: vec4<f32>,
    steps: u32,
    mode: u32,
}

@group(0) @binding(0) var<storage, read_write> states: array<State>;
@group(0) @binding(1) var<uniform> mode_override: vec4<u32>;

var<private> rng_state: u32;

fn next_random(state: ptr<private, u32>) -> f32 {
    *state ^= *state << 13u;
    *state ^= *state >> 17u;
    *state ^= *state << 5u;
    return f32(*state) / 4294967296.0;
}

fn accumulate(acc: ptr<function, vec4<f32>>, v: vec4<f32>, weight: f32) {
    *acc += v * weight;
    (*acc).w = max((*acc).w, weight);
}

fn swap(a: ptr<function, f32>, b: ptr<function, f32>) {
    let t = *a;
    *a = *b;
    *b = t;
}

fn sort3(v: ptr<function, array<f32, 3>>) {
    if (*v)[0] > (*v)[1] {
        swap(&(*v)[0], &(*v)[1]);
    }
    if (*v)[1] > (*v)[2] {
        swap(&(*v)[1], &(*v)[2]);
    }
    if (*v)[0] > (*v)[1] {
        swap(&(*v)[0], &(*v)[1]);
    }
}

fn bump_steps(steps: ptr<function, u32>, by: u32) {
    *steps += by;
}

fn classify(x: f32) -> i32 {
    if x < 0.25 {
        return 0;
    } else if x < 0.5 {
        return 1;
    } else if x < 0.75 {
        return 2;
    }
    return 3;
}

@compute @workgroup_size(32)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x >= arrayLength(&states) {
        return;
    }
    rng_state = id.x * 1664525u + 1013904223u;
    var acc = vec4<f32>(0.0);
    var samples = array<f32, 3>(0.0, 0.0, 0.0);

    for (var i = 0u; i < 3u; i++) {
        samples[i] = next_random(&rng_state);
    }
    sort3(&samples);

    var n = 0u;
    while n < 8u {
        let r = next_random(&rng_state);
        n++;
        if r < 0.1 {
            continue;
        }
        switch classify(r) {
            case 0: {
                accumulate(&acc, vec4<f32>(1.0, 0.0, 0.0, 0.0), r);
            }
            case 1, 2: {
                accumulate(&acc, vec4<f32>(0.0, 1.0, 0.0, 0.0), samples[1]);
            }
            default: {
                accumulate(&acc, vec4<f32>(0.0, 0.0, 1.0, 0.0), samples[2]);
            }
        }
    }

    var k = 0u;
    loop {
        acc *= 0.5;
        continuing {
            k++;
            break if k >= states[id.x].mode + mode_override.x;
        }
    }

    var lo = samples[0];
    var hi = samples[2];
    swap(&lo, &hi);
    var state = states[id.x];
    state.value = acc + vec4<f32>(lo - hi);
    bump_steps(&state.steps, n + k);
    states[id.x] = state;
}
