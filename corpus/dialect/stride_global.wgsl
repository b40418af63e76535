// Dialect @stride in global variable types: a uniform `@stride(16) array<f32, 8>` (legal in
// uniform thanks to the stride), and runtime-sized storage arrays with strides 32 and 8.

@group(0) @binding(0) var<uniform> weights: @stride(16) array<f32, 8>;
@group(0) @binding(1) var<storage, read> samples: @stride(32) array<vec3<f32>>;
@group(0) @binding(2) var<storage, read_write> result: @stride(8) array<f32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x >= arrayLength(&result) {
        return;
    }
    let s = samples[id.x % arrayLength(&samples)];
    result[id.x] = dot(s, vec3<f32>(weights[0], weights[1], weights[2])) + weights[id.x % 8u];
}
