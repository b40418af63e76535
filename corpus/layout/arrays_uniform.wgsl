// Arrays in a uniform buffer, all with strides that are multiples of 16:
// vec4, vec3 (stride 16), mat2x2 (size 16), 16-byte structs, and nested vec4 arrays.

struct Pair {
    a: vec2<f32>,
    b: vec2<f32>,
}

struct ArrayBlock {
    colors: array<vec4<f32>, 4>,
    normals: array<vec3<f32>, 3>,
    rotations: array<mat2x2<f32>, 2>,
    pairs: array<Pair, 3>,
    table: array<array<vec4<u32>, 2>, 3>,
    count: u32,
}

@group(0) @binding(0) var<uniform> block: ArrayBlock;
@group(0) @binding(1) var<storage, read_write> out: vec4<f32>;

@compute @workgroup_size(1)
fn main() {
    var acc = vec4<f32>(0.0);
    for (var i = 0u; i < min(block.count, 3u); i++) {
        acc += block.colors[i] + vec4<f32>(block.normals[i], 0.0);
        acc += vec4<f32>(block.pairs[i].a, block.pairs[i].b);
        acc += vec4<f32>(block.table[i][1]);
    }
    acc.x += (block.rotations[1] * vec2<f32>(1.0, 0.0)).y;
    out = acc;
}
