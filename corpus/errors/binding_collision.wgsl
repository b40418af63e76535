// Two resources on one binding, both used by `main`: an error at both.
@group(0) @binding(0) var color: texture_2d<f32>;
@group(0) @binding(0) var normal: texture_2d<f32>;

@fragment
fn main(@builtin(position) p: vec4<f32>) -> @location(0) vec4<f32> {
    let at = vec2<i32>(p.xy);
    return textureLoad(color, at, 0) + textureLoad(normal, at, 0);
}
