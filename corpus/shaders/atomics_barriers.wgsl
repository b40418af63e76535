// Atomics and barriers: every atomic builtin (load, store, add, sub, max, min, and, or, xor,
// exchange, compareExchangeWeak) on atomic<u32> and atomic<i32> in storage and workgroup
// memory, atomics in struct members and arrays, workgroupBarrier, storageBarrier,
// workgroupUniformLoad, and the compute builtins local_invocation_id/index,
// global_invocation_id, workgroup_id and num_workgroups.

struct Counters {
    total: atomic<u32>,
    signed_sum: atomic<i32>,
    max_seen: atomic<u32>,
    min_seen: atomic<i32>,
    mask_and: atomic<u32>,
    mask_or: atomic<u32>,
    mask_xor: atomic<u32>,
    last: atomic<u32>,
    slots: array<atomic<u32>, 16>,
}

struct Lock {
    owner: atomic<u32>,
    attempts: u32,
}

@group(0) @binding(0) var<storage, read_write> counters: Counters;
@group(0) @binding(1) var<storage, read_write> lock: Lock;
@group(0) @binding(2) var<storage, read_write> signed_bins: array<atomic<i32>>;
@group(0) @binding(3) var<storage, read> values: array<i32>;

var<workgroup> wg_total: atomic<u32>;
var<workgroup> wg_signed: atomic<i32>;
var<workgroup> wg_bins: array<atomic<u32>, 8>;
var<workgroup> wg_leader: u32;

@compute @workgroup_size(8, 4, 2)
fn main(
    @builtin(local_invocation_id) lid: vec3<u32>,
    @builtin(local_invocation_index) lindex: u32,
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) nwg: vec3<u32>,
) {
    if lindex == 0u {
        atomicStore(&wg_total, 0u);
        atomicStore(&wg_signed, 0);
        wg_leader = wid.x + wid.y * nwg.x + wid.z * nwg.x * nwg.y;
    }
    workgroupBarrier();

    let flat = gid.x + gid.y * nwg.x * 8u + gid.z * nwg.x * nwg.y * 32u;
    let v = values[flat % arrayLength(&values)];
    atomicAdd(&wg_total, 1u);
    atomicSub(&wg_signed, v);
    atomicMax(&wg_bins[lid.x], u32(abs(v)));
    atomicMin(&wg_bins[7u - lid.x], u32(v) | 1u);
    let leader = workgroupUniformLoad(&wg_leader);
    workgroupBarrier();

    atomicAdd(&counters.total, 1u);
    atomicAdd(&counters.signed_sum, v);
    atomicSub(&counters.signed_sum, i32(lid.y));
    atomicMax(&counters.max_seen, flat);
    atomicMin(&counters.min_seen, v);
    atomicAnd(&counters.mask_and, ~(1u << (lindex & 31u)));
    atomicOr(&counters.mask_or, 1u << (lid.z * 8u + lid.x));
    atomicXor(&counters.mask_xor, flat * 2654435761u);
    let previous = atomicExchange(&counters.last, flat);
    atomicAdd(&counters.slots[previous % 16u], 1u);
    atomicOr(&signed_bins[flat % arrayLength(&signed_bins)], v);
    atomicXor(&signed_bins[0], i32(leader));
    atomicAnd(&signed_bins[1], -2);
    atomicExchange(&signed_bins[2], atomicLoad(&counters.signed_sum));

    // A spin-free try-lock with compareExchangeWeak.
    var tries = 0u;
    loop {
        let r = atomicCompareExchangeWeak(&lock.owner, 0u, flat + 1u);
        tries++;
        if r.exchanged {
            lock.attempts += tries;
            atomicStore(&lock.owner, 0u);
            break;
        }
        if tries >= 4u || r.old_value == flat + 1u {
            break;
        }
    }
    storageBarrier();

    workgroupBarrier();
    if lindex == 0u {
        let total = atomicLoad(&wg_total);
        let signed = atomicLoad(&wg_signed);
        let cx = atomicCompareExchangeWeak(&wg_bins[0], 0u, total);
        atomicAdd(&counters.slots[15], total + u32(signed) + select(0u, 1u, cx.exchanged));
        let ci = atomicCompareExchangeWeak(&signed_bins[3], 0, signed);
        atomicMax(&counters.max_seen, bitcast<u32>(ci.old_value));
    }
}
