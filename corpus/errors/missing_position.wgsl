// Expected error from naga's validator: the vertex entry point returns no
// @builtin(position), which every vertex shader must write.

@group(0) @binding(0) var<uniform> scale: vec4<f32>;

@vertex
fn vs_main(@location(0) position: vec3<f32>) -> @location(0) vec4<f32> {
    return vec4<f32>(position, 1.0) * scale;
}
