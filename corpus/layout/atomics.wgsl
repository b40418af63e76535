// Atomics in storage: atomic<u32> and atomic<i32> members of a struct, a fixed array of
// atomics after a vec4, and a runtime array of atomics.

struct Counters {
    total: atomic<u32>,
    balance: atomic<i32>,
    bounds: vec4<f32>,
    buckets: array<atomic<u32>, 8>,
    max_seen: atomic<u32>,
}

@group(0) @binding(0) var<storage, read_write> counters: Counters;
@group(0) @binding(1) var<storage, read_write> flags: array<atomic<u32>>;
@group(0) @binding(2) var<storage, read> values: array<f32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x >= arrayLength(&values) {
        return;
    }
    let v = values[id.x];
    atomicAdd(&counters.total, 1u);
    atomicSub(&counters.balance, select(1, -1, v < 0.0));
    let t = clamp((v - counters.bounds.x) / max(counters.bounds.y - counters.bounds.x, 1e-6), 0.0, 0.999);
    atomicAdd(&counters.buckets[u32(t * 8.0)], 1u);
    atomicMax(&counters.max_seen, bitcast<u32>(abs(v)));
    atomicOr(&flags[id.x / 32u], 1u << (id.x % 32u));
    let old = atomicCompareExchangeWeak(&counters.max_seen, 0u, 1u);
    if old.exchanged {
        atomicStore(&flags[0], atomicLoad(&counters.total));
    }
}
