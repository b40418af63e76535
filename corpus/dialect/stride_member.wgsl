// Dialect @stride on the array type of a struct member: `g: @stride(32) array<A, 3>`
// gives stride 32 (size 96) instead of the default 24, keeping the element alignment 8.

struct A {
    w: vec2<f32>,
    x: f32,
}

struct Holder {
    head: u32,
    g: @stride(32) array<A, 3>,
    tail: f32,
    dense: @stride(12) array<f32, 2>,
}

@group(0) @binding(0) var<storage, read_write> holder: Holder;

@compute @workgroup_size(1)
fn main() {
    for (var i = 0u; i < 3u; i++) {
        holder.g[i].x = holder.g[i].w.x + holder.g[i].w.y + f32(holder.head);
    }
    holder.tail = holder.dense[0] + holder.dense[1];
}
