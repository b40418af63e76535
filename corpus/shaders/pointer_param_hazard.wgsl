// naga 30 hazard repro: a pointer parameter re-borrowed as `&(*v)[0]` and passed to another
// function makes naga's SPIR-V writer panic ("Expression [N] is not cached!").

@group(0) @binding(0) var<storage, read_write> out: array<f32>;

fn bump(x: ptr<function, f32>) {
    *x += 1.0;
}

fn bump_first(v: ptr<function, array<f32, 2>>) {
    bump(&(*v)[0]);
}

@compute @workgroup_size(1)
fn main() {
    var s = array<f32, 2>(out[0], out[1]);
    bump_first(&s);
    out[0] = s[0];
}
