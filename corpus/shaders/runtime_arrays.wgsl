// Runtime-sized arrays: a bare runtime array of structs, a struct ending in a runtime array
// of vec3 and of arrays, arrayLength on both (also through a pointer), read-only and
// read_write storage, dynamic indexing (clamped) of nested runtime-array elements and a
// loop bounded by arrayLength.

struct Segment {
    start: vec3<f32>,
    len: f32,
    dir: vec3<f32>,
    id: u32,
}

struct Mesh {
    vertex_count: u32,
    scale: f32,
    positions: array<vec3<f32>>,
}

struct Grid {
    dims: vec2<u32>,
    cells: array<array<u32, 4>>,
}

@group(0) @binding(0) var<storage, read> segments: array<Segment>;
@group(0) @binding(1) var<storage, read_write> mesh: Mesh;
@group(0) @binding(2) var<storage, read_write> grid: Grid;
@group(0) @binding(3) var<storage, read_write> lengths: array<u32>;

fn clamp_index(i: u32, count: u32) -> u32 {
    return min(i, max(count, 1u) - 1u);
}

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let seg_count = arrayLength(&segments);
    let vert_count = arrayLength(&mesh.positions);
    let cell_count = arrayLength(&grid.cells);
    let i = gid.x;
    if i < vert_count {
        let s = segments[i % max(seg_count, 1u)];
        mesh.positions[i] = (s.start + s.dir * s.len) * mesh.scale;
        let c = i % max(cell_count, 1u);
        grid.cells[c][s.id % 4u] += 1u;
    }
    if i == 0u {
        mesh.vertex_count = vert_count;
        lengths[0] = seg_count;
        lengths[1] = cell_count;
        let list = &segments;
        var sum = 0.0;
        for (var k = 0u; k < arrayLength(list); k++) {
            sum += (*list)[k].len;
        }
        lengths[2] = bitcast<u32>(sum);
        lengths[3] = arrayLength(&lengths);
        grid.dims = vec2<u32>(cell_count, grid.cells[clamp_index(cell_count, cell_count)][3]);
    }
}
