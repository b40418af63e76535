// Luminance histogram: workgroup-shared atomic bins, workgroupBarrier, then one global
// atomicAdd per bin into a storage buffer; image read with textureLoad.

const BIN_COUNT: u32 = 64u;

struct HistogramParams {
    min_log_lum: f32,
    inv_log_lum_range: f32,
    width: u32,
    height: u32,
}

@group(0) @binding(0) var hdr_image: texture_2d<f32>;
@group(0) @binding(1) var<uniform> params: HistogramParams;
@group(0) @binding(2) var<storage, read_write> histogram: array<atomic<u32>, 64>;

var<workgroup> local_bins: array<atomic<u32>, 64>;

fn bin_of(color: vec3<f32>) -> u32 {
    let lum = dot(color, vec3<f32>(0.2126, 0.7152, 0.0722));
    if lum < 1e-4 {
        return 0u;
    }
    let t = clamp((log2(lum) - params.min_log_lum) * params.inv_log_lum_range, 0.0, 1.0);
    return u32(t * f32(BIN_COUNT - 2u)) + 1u;
}

@compute @workgroup_size(8, 8)
fn build(
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(local_invocation_index) lid: u32,
) {
    atomicStore(&local_bins[lid], 0u);
    workgroupBarrier();
    if gid.x < params.width && gid.y < params.height {
        let c = textureLoad(hdr_image, vec2<u32>(gid.xy), 0).rgb;
        atomicAdd(&local_bins[bin_of(c)], 1u);
    }
    workgroupBarrier();
    let count = atomicLoad(&local_bins[lid]);
    if count > 0u {
        atomicAdd(&histogram[lid], count);
    }
}
