// Standard WGSL member attributes: @align raising a member's offset, @size adding tail
// space, both together, and their use to make a struct legal in a uniform buffer.

struct Inner {
    value: f32,
}

struct Attributed {
    @align(16) first: f32,
    @size(12) second: f32,
    @align(8) third: vec2<f32>,
    @align(32) @size(64) fourth: vec4<f32>,
    @align(16) @size(16) inner: Inner,
    @size(16) inner_tail: f32,
    last: u32,
}

struct Packed {
    a: u32,
    @size(8) b: u32,
    @align(64) c: vec3<f32>,
    d: f32,
}

@group(0) @binding(0) var<uniform> attributed: Attributed;
@group(0) @binding(1) var<storage, read_write> packed: Packed;

@compute @workgroup_size(1)
fn main() {
    packed.a = attributed.last;
    packed.b = u32(attributed.first + attributed.second);
    packed.c = vec3<f32>(attributed.third, attributed.fourth.w);
    packed.d = attributed.inner.value + attributed.inner_tail;
}
