// Runtime-sized arrays in storage: a bare runtime array, a struct whose last member is
// a runtime array after a header (offset rounded to the element alignment), and arrayLength.

struct Header {
    count: u32,
    scale: f32,
}

struct Vertices {
    header: Header,
    bounds_min: vec3<f32>,
    positions: array<vec3<f32>>,
}

struct Indices {
    first: u32,
    values: array<u32>,
}

@group(0) @binding(0) var<storage, read> raw: array<vec2<f32>>;
@group(0) @binding(1) var<storage, read_write> verts: Vertices;
@group(0) @binding(2) var<storage, read> indices: Indices;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let n = min(arrayLength(&verts.positions), arrayLength(&indices.values));
    if id.x >= n {
        return;
    }
    let src = raw[indices.values[id.x] % arrayLength(&raw)];
    verts.positions[id.x] = vec3<f32>(src * verts.header.scale, 0.0) + verts.bounds_min;
}
