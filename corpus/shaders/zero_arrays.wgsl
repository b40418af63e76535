// Zero-valued array constructors (`array<T, N>()`) in every expression
// position: indexed dynamically and by a constant, nested arrays, arrays of
// structs and of matrices, bound by `let`, passed to a function, assigned and
// returned. HLSL writes the zero of an array it indexes as a helper's result.
struct Item {
    weight: f32,
    taps: array<f32, 3>,
}

@group(0) @binding(0) var<storage, read_write> out: array<f32>;

fn first(values: array<f32, 4>) -> f32 {
    return values[0];
}

fn cleared() -> array<vec2<f32>, 2> {
    return array<vec2<f32>, 2>();
}

@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i: u32) {
    var acc = array<f32, 4>()[i];
    acc += f32(array<i32, 2>()[1]);
    acc += array<array<f32, 4>, 2>()[i % 2u][i];
    acc += array<Item, 2>()[i % 2u].weight;
    acc += array<Item, 2>()[i % 2u].taps[i % 3u];
    acc += array<mat2x2<f32>, 3>()[i % 3u][1].y;
    let zero = array<u32, 4>();
    acc += f32(zero[i]);
    acc += first(array<f32, 4>());
    var local = array<f32, 4>(1.0, 2.0, 3.0, 4.0);
    local = array<f32, 4>();
    acc += local[i];
    acc += cleared()[i % 2u].x;
    out[i] = acc;
}
