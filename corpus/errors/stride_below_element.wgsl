// Expected error: `@stride(8) array<vec3<f32>, 4>`: stride 8 is below the element
// size 12.

struct Mesh {
    count: u32,
    normals: @stride(8) array<vec3<f32>, 4>,
}

@group(0) @binding(0) var<storage, read_write> mesh: Mesh;

@compute @workgroup_size(1)
fn main() {
    mesh.normals[0] = normalize(mesh.normals[1]);
}
