// Dialect @size/@align on type aliases: `@size(16) alias RGBX = vec3<f32>;` (size only),
// an @align-only alias (alignment changes, size stays 4), and an alias of a @stride array.

@size(16) alias RGBX = vec3<f32>;
@align(16) alias Scalar16 = f32;
alias Row = @stride(16) array<f32, 4>;

struct Palette {
    base: RGBX,
    base_weight: f32,
    count: u32,
    key: Scalar16,
    weight: f32,
    colors: array<RGBX, 3>,
    @align(16) rows: array<Row, 2>,
}

@group(0) @binding(0) var<uniform> palette: Palette;
@group(0) @binding(1) var<storage, read_write> out: array<vec4<f32>, 4>;

@compute @workgroup_size(1)
fn main() {
    out[0] = vec4<f32>(palette.base, palette.base_weight);
    for (var i = 0u; i < min(palette.count, 3u); i++) {
        out[i + 1u] = vec4<f32>(palette.colors[i], palette.rows[i % 2u][i] + palette.key * palette.weight);
    }
}
