// Nested @stride: `@stride(64) array<@stride(16) array<f32, 3>, 4>` in a uniform buffer
// (inner stride 16, inner size 48, outer stride 64) and a stride on an array of vec2 arrays.

struct Grid {
    cells: @stride(64) array<@stride(16) array<f32, 3>, 4>,
    offsets: @stride(32) array<@stride(16) array<vec2<f32>, 2>, 2>,
    scale: f32,
}

@group(0) @binding(0) var<uniform> grid: Grid;
@group(0) @binding(1) var<storage, read_write> out: array<f32, 12>;

@compute @workgroup_size(4, 3)
fn main(@builtin(local_invocation_id) id: vec3<u32>) {
    let o = grid.offsets[id.x % 2u][id.y % 2u];
    out[id.x * 3u + id.y] = grid.cells[id.x][id.y] * grid.scale + o.x - o.y;
}
