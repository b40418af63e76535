// Control flow in depth: switch on i32 and u32 with multi-value cases, default alone and
// combined with a case, default in the middle, nested switches; loop/continuing with
// break if, for with continue, while, nested loops with early break, early return from
// helper functions and from the entry point, short-circuit && and ||, and if/else chains.

struct Op {
    code: i32,
    arg: u32,
    value: f32,
}

struct Machine {
    acc: f32,
    steps: u32,
    trace: array<u32, 8>,
}

@group(0) @binding(0) var<storage, read> program: array<Op>;
@group(0) @binding(1) var<storage, read_write> machine: Machine;
@group(0) @binding(2) var<uniform> limits: vec4<u32>;

fn classify(v: f32) -> u32 {
    if v != v {
        return 0u;
    }
    if v < -1.0 {
        return 1u;
    } else if v < 0.0 {
        return 2u;
    } else if v == 0.0 {
        return 3u;
    }
    return 4u;
}

fn apply(code: i32, arg: u32, acc: f32, value: f32) -> f32 {
    switch code {
        case 0: {
            return acc + value;
        }
        case 1, 2: {
            if code == 2 {
                return acc - value;
            }
            return acc * value;
        }
        default: {
            return acc;
        }
        case 3: {
            switch arg {
                case 0u, 1u: {
                    return acc / max(value, 1e-6);
                }
                case 2u, default: {
                    return -acc;
                }
            }
        }
        case -1: {
            var r = acc;
            for (var k = 0u; k < arg && k < 16u; k++) {
                if (k & 1u) == 1u {
                    continue;
                }
                r = r * 0.5 + value;
            }
            return r;
        }
    }
}

@compute @workgroup_size(1)
fn main() {
    let count = min(arrayLength(&program), limits.x);
    if count == 0u {
        return;
    }
    var acc = 0.0;
    var pc = 0u;
    var steps = 0u;
    loop {
        if pc >= count {
            break;
        }
        let op = program[pc];
        acc = apply(op.code, op.arg, acc, op.value);
        machine.trace[steps % 8u] = classify(acc);
        steps++;
        continuing {
            pc = select(pc + 1u, op.arg, op.code == 4 && op.arg < pc);
            break if steps >= limits.y || (acc > 1e6 && op.code != 0);
        }
    }
    var outer = 0u;
    while outer < limits.z {
        var inner = 0u;
        loop {
            inner++;
            if inner > limits.w {
                break;
            }
            if (inner + outer) % 3u == 0u {
                continue;
            }
            acc += 1.0;
        }
        if acc > 1e7 {
            break;
        }
        outer++;
    }
    machine.acc = acc;
    machine.steps = steps;
}
