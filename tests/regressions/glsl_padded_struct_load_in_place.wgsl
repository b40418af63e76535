// Reading a buffer struct whole whose GLSL storage differs from its value
// type (a variant struct with padding members holding an array of
// elements wrapped for their stride) must not copy the storage into a
// helper by value: `_s_load_S4_std430_s10240(S4_std430_s10240 x)` copied
// 10,240 bytes per element (39 wrapped `vec4<u32>` and the padding words)
// into each call, and lavapipe's compile of the probe (llvmpipe compiles
// at the first dispatch) ran past the execution test's 120-second fence,
// so the run-seeded batch's watchdog ended a CI run (seed
// 1795865214952525743, fresh #87, this module). The GLSL now rebuilds such
// a value in place, member by member; the module runs and checks in 0.4 s.
// The declarations are the generated module's.

@align(16) alias A0 = i32;
@align(16) alias A1 = f32;
@align(8) alias A2 = f32;
@align(64) alias A3 = vec4<u32>;
@align(8) alias A4 = i32;

struct S0 {
    @align(16) m0: @stride(16) array<f32, 1>,
    m1: i32,
    m2: A0,
}

struct S1 {
    @size(32) m0: vec2<f32>,
}

@size(76)
struct S2 {
    m0: vec2<f32>,
    @align(64) m1: A1,
}

struct S3 {
    @align(16) m0: S1,
    m1: S2,
    m2: A2,
    m3: mat4x3<f32>,
}

struct S4 {
    m0: vec2<f32>,
    m1: @stride(256) array<A3, 39>,
}

struct S5 {
    m0: vec4<f32>,
    m1: mat3x4<f32>,
    @align(64) m2: S3,
    @align(64) m3: @stride(10240) array<S4>,
}

struct S6 {
    @size(240) m0: @stride(64) array<vec3<f32>, 3>,
    @align(64) m1: vec3<u32>,
    m2: f32,
}

struct S7 {
    m0: u32,
    m1: vec4<f32>,
    @align(32) m2: vec4<f32>,
    m3: f32,
    @align(16) m4: A4,
    m5: @stride(448) array<S6>,
}

@group(0) @binding(0) var<uniform> gu: S0;
@group(0) @binding(1) var<storage, read> gs: S5;
@group(1) @binding(2) var<storage, read_write> gw: S7;

// The module's own entry point reads the same values whole.
@compute @workgroup_size(1)
fn main() {
    let s = gs.m3[1];
    let w = gw.m5[0];
    gw.m3 = s.m0.x + f32(s.m1[38].w) + w.m0[2].y + w.m2 + gu.m0[0];
}
