// Uniform arrays of structs that hold 3-component f16 vectors (as a matrix's
// columns or as vectors). Loaded whole, NVIDIA's Vulkan driver (580.x) read
// their third components wrong when DXC's or Slang's code copied the
// cbuffer array whole and rebuilt it in a loop; stride's HLSL now reads
// each element straight from the cbuffer (docs/targets.md). The execution
// test runs this module on the machine's driver.
enable f16;

struct Columns {
    tag: vec4<u32>,
    m: mat2x3<f16>,
}

struct Vectors {
    tag: vec4<u32>,
    a: vec3<f16>,
    b: vec3<f16>,
}

struct Block {
    columns: array<Columns, 18>,
    vectors: array<Vectors, 18>,
}

@group(0) @binding(0) var<uniform> block: Block;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;

@compute @workgroup_size(1)
fn main() {
    let b = block;
    out[0] = f32(b.columns[17].m[1].z) + f32(b.vectors[17].b.z);
}
