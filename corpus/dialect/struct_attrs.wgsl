// Dialect @align/@size on struct declarations: @align(16) only, @size(64) only, and
// @align(32) @size(48) together, nested in a uniform struct and in a storage array.

@align(16)
struct Particle {
    pos: vec2<f32>,
    mass: f32,
}

@size(64)
struct Block {
    id: u32,
    value: f32,
}

@align(32) @size(48)
struct Both {
    v: vec3<f32>,
}

struct Uses {
    p: Particle,
    b: Block,
    both: Both,
    tail: u32,
}

@group(0) @binding(0) var<uniform> uses: Uses;
@group(0) @binding(1) var<storage, read_write> boths: array<Both, 2>;

@compute @workgroup_size(1)
fn main() {
    boths[0].v = vec3<f32>(uses.p.pos, uses.p.mass);
    boths[1].v = uses.both.v * uses.b.value + vec3<f32>(f32(uses.b.id + uses.tail));
}
