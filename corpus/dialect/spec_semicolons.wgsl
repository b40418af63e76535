// spec/000's example A/B in the proposal's own syntax: `;` member separators, `};`,
// [[block]] (deprecation warning), `g : [[stride(24)]] array<A, 3>`, [[group(0), binding(0)]].

[[block]] struct A {
    u : f32;
    v : f32;
    w : vec2<f32>;
    x : f32;
};

[[block]] struct B {
    a : vec2<f32>;
    b : vec3<f32>;
    c : f32;
    d : f32;
    e : A;
    f : vec3<f32>;
    g : [[stride(24)]] array<A, 3>;
    h : f32;
};

[[group(0), binding(0)]]
var<storage> storage_buffer : B;

[[group(0), binding(1)]]
var<storage, read_write> sink : array<f32, 2>;

@compute @workgroup_size(1)
fn main() {
    sink[0] = storage_buffer.e.x + storage_buffer.g[2].w.y;
    sink[1] = storage_buffer.h;
}
