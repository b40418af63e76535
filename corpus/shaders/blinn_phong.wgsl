// Blinn-Phong lighting: vertex + fragment entry points, camera and per-object uniforms,
// an array of point lights in a uniform buffer, and a diffuse texture.

struct Camera {
    view_proj: mat4x4<f32>,
    position: vec3<f32>,
    time: f32,
}

struct Object {
    model: mat4x4<f32>,
    normal_matrix: mat3x3<f32>,
    shininess: f32,
    specular: f32,
}

struct PointLight {
    position: vec3<f32>,
    radius: f32,
    color: vec3<f32>,
    intensity: f32,
}

struct Lights {
    ambient: vec3<f32>,
    count: u32,
    items: array<PointLight, 8>,
}

@group(0) @binding(0) var<uniform> camera: Camera;
@group(0) @binding(1) var<uniform> lights: Lights;
@group(1) @binding(0) var<uniform> object: Object;
@group(1) @binding(1) var diffuse_tex: texture_2d<f32>;
@group(1) @binding(2) var diffuse_sampler: sampler;

struct VertexIn {
    @location(0) position: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) uv: vec2<f32>,
}

struct VertexOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) world_pos: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) uv: vec2<f32>,
}

@vertex
fn vs_main(in: VertexIn) -> VertexOut {
    let world = object.model * vec4<f32>(in.position, 1.0);
    var out: VertexOut;
    out.clip = camera.view_proj * world;
    out.world_pos = world.xyz;
    out.normal = normalize(object.normal_matrix * in.normal);
    out.uv = in.uv;
    return out;
}

fn attenuation(distance: f32, radius: f32) -> f32 {
    let x = clamp(1.0 - (distance / radius) * (distance / radius), 0.0, 1.0);
    return x * x / (distance * distance + 1.0);
}

@fragment
fn fs_main(in: VertexOut) -> @location(0) vec4<f32> {
    let base = textureSample(diffuse_tex, diffuse_sampler, in.uv);
    let n = normalize(in.normal);
    let v = normalize(camera.position - in.world_pos);
    var color = lights.ambient * base.rgb;
    for (var i = 0u; i < min(lights.count, 8u); i++) {
        let light = lights.items[i];
        let to_light = light.position - in.world_pos;
        let dist = length(to_light);
        let l = to_light / dist;
        let h = normalize(l + v);
        let diffuse = max(dot(n, l), 0.0);
        let spec = pow(max(dot(n, h), 0.0), object.shininess) * object.specular;
        let att = attenuation(dist, light.radius) * light.intensity;
        color += (base.rgb * diffuse + vec3<f32>(spec)) * light.color * att;
    }
    return vec4<f32>(color, base.a);
}
