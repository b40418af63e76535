// gfx-rs/wgpu#4377: a member @align raises a struct's alignment to 32, so a member of
// that struct type inside another struct must land on a 32-byte boundary (offset 32, not 16).

struct Raised {
    @align(32) value: f32,
    other: f32,
}

struct Holder {
    head: vec4<f32>,
    raised: Raised,
    after: f32,
}

struct Holders {
    lead: u32,
    items: array<Raised, 3>,
}

@group(0) @binding(0) var<uniform> holder: Holder;
@group(0) @binding(1) var<storage, read_write> holders: Holders;

@compute @workgroup_size(1)
fn main() {
    holders.lead = u32(holder.head.x);
    holders.items[0] = holder.raised;
    holders.items[1].value = holder.after;
    holders.items[2].other = holder.raised.other + holder.head.w;
}
