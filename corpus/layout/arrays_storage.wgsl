// Fixed-size arrays in storage: scalar (stride 4), vec3 (stride 16), vec2 (stride 8),
// matCx2 elements, and nested arrays (array of arrays, strides 12 and 48).

struct Arrays {
    scalars: array<f32, 5>,
    counts: array<u32, 3>,
    dirs: array<vec3<f32>, 3>,
    uvs: array<vec2<f32>, 4>,
    rotations: array<mat2x2<f32>, 2>,
    grid: array<array<f32, 3>, 4>,
    cube: array<array<array<i32, 2>, 2>, 2>,
}

@group(0) @binding(0) var<storage, read_write> arrays: Arrays;

@compute @workgroup_size(1)
fn main() {
    var total = 0.0;
    for (var i = 0u; i < 5u; i++) {
        total += arrays.scalars[i];
    }
    for (var r = 0u; r < 4u; r++) {
        for (var c = 0u; c < 3u; c++) {
            arrays.grid[r][c] = total + f32(r * 3u + c);
        }
    }
    arrays.cube[1][0][1] = i32(arrays.counts[2]);
    arrays.dirs[2] = normalize(arrays.dirs[0] + arrays.dirs[1]);
    arrays.uvs[3] = arrays.rotations[1] * arrays.uvs[0];
}
