// Structs nested three levels deep, used both in a uniform buffer (every struct member
// 16-aligned and followed by roundUp(16, size) bytes) and in a storage buffer.

struct Material {
    albedo: vec3<f32>,
    roughness: f32,
}

struct Transform {
    model: mat4x4<f32>,
    normal: mat3x3<f32>,
}

struct Object {
    transform: Transform,
    material: Material,
    id: u32,
}

struct Frame {
    time: f32,
    object: Object,
    exposure: f32,
}

struct Tiny {
    flag: u32,
}

struct Record {
    a: Tiny,
    b: Tiny,
    pos: vec2<f32>,
    obj: Object,
}

@group(0) @binding(0) var<uniform> frame: Frame;
@group(0) @binding(1) var<storage, read_write> record: Record;

@compute @workgroup_size(1)
fn main() {
    let world = frame.object.transform.model * vec4<f32>(1.0, 2.0, 3.0, 1.0);
    record.pos = world.xy * frame.exposure + vec2<f32>(frame.time);
    record.a.flag = frame.object.id;
    record.b = Tiny(record.a.flag + 1u);
    record.obj = frame.object;
    record.obj.material.roughness = frame.object.material.roughness * 0.5;
}
