// Expected error, not a panic: `@stride(4096) array<vec4<f32>, 2000000>` is 8192000000 bytes;
// naga sees a 32 MB array, so only stride's checked layout arithmetic can catch it.

struct Pages {
    count: u32,
    pages: @stride(4096) array<vec4<f32>, 2000000>,
}

@group(0) @binding(0) var<storage, read_write> pages: Pages;

@compute @workgroup_size(1)
fn main() {
    pages.pages[pages.count] = vec4<f32>(1.0);
}
