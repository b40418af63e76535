// Work-efficient (Blelloch) exclusive prefix sum over 256 elements per workgroup:
// workgroup memory, up-sweep/down-sweep loops with barriers, and per-block totals.

const BLOCK: u32 = 256u;

struct ScanInfo {
    element_count: u32,
    block_count: u32,
}

@group(0) @binding(0) var<uniform> info: ScanInfo;
@group(0) @binding(1) var<storage, read> input: array<u32>;
@group(0) @binding(2) var<storage, read_write> output: array<u32>;
@group(0) @binding(3) var<storage, read_write> block_sums: array<u32>;

var<workgroup> temp: array<u32, 256>;

@compute @workgroup_size(128)
fn scan(
    @builtin(workgroup_id) wg: vec3<u32>,
    @builtin(local_invocation_id) lid: vec3<u32>,
) {
    let t = lid.x;
    let base = wg.x * BLOCK;
    let a = base + 2u * t;
    let b = a + 1u;
    temp[2u * t] = select(0u, input[a], a < info.element_count);
    temp[2u * t + 1u] = select(0u, input[b], b < info.element_count);

    var offset = 1u;
    for (var d = BLOCK >> 1u; d > 0u; d >>= 1u) {
        workgroupBarrier();
        if t < d {
            let ai = offset * (2u * t + 1u) - 1u;
            let bi = offset * (2u * t + 2u) - 1u;
            temp[bi] += temp[ai];
        }
        offset <<= 1u;
    }

    if t == 0u {
        block_sums[wg.x] = temp[BLOCK - 1u];
        temp[BLOCK - 1u] = 0u;
    }

    for (var d = 1u; d < BLOCK; d <<= 1u) {
        offset >>= 1u;
        workgroupBarrier();
        if t < d {
            let ai = offset * (2u * t + 1u) - 1u;
            let bi = offset * (2u * t + 2u) - 1u;
            let left = temp[ai];
            temp[ai] = temp[bi];
            temp[bi] += left;
        }
    }
    workgroupBarrier();

    if a < info.element_count {
        output[a] = temp[2u * t];
    }
    if b < info.element_count {
        output[b] = temp[2u * t + 1u];
    }
}

@compute @workgroup_size(128)
fn add_block_sums(
    @builtin(workgroup_id) wg: vec3<u32>,
    @builtin(local_invocation_id) lid: vec3<u32>,
) {
    if wg.x == 0u || wg.x >= info.block_count {
        return;
    }
    var carry = 0u;
    for (var i = 0u; i < wg.x; i++) {
        carry += block_sums[i];
    }
    let a = wg.x * BLOCK + 2u * lid.x;
    if a < info.element_count {
        output[a] += carry;
    }
    if a + 1u < info.element_count {
        output[a + 1u] += carry;
    }
}
