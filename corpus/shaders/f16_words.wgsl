// f16 in buffers the OpenGL dialects declare as their 32-bit words (they have no 16-bit
// storage): an array<f16, 5> of 2-byte stride loaded and stored whole, f16 members in both
// halves of a word next to an atomic<u32> and an i32, a nested struct, a vector component
// written through a dynamic index, a uniform mat2x4<f16> loaded whole, and a
// runtime-sized array of vec3<f16> whose length comes from the bound buffer.
enable f16;

struct Inner {
    h: f16,
    k: i32,
    v: vec3<f16>,
    tail: f16,
}

struct Data {
    count: atomic<u32>,
    lo: f16,
    hi: f16,
    halves: array<f16, 5>,
    inner: Inner,
    n: i32,
    values: array<vec3<f16>>,
}

struct Params {
    weights: mat2x4<f16>,
    scale: f16,
}

@group(0) @binding(0) var<storage, read_write> data: Data;
@group(0) @binding(1) var<uniform> params: Params;

@compute @workgroup_size(8)
fn main(@builtin(local_invocation_index) i: u32) {
    let w = params.weights;
    var halves = data.halves;
    halves[i % 5u] = halves[i % 5u] * params.scale + w[i % 2u][i % 4u];
    if i == 0u {
        data.halves = halves;
        data.lo = data.hi - data.lo;
        var inner = data.inner;
        inner.v[i % 3u] = inner.tail;
        inner.k = inner.k + data.n;
        data.inner = inner;
    }
    atomicAdd(&data.count, 1u);
    let n = arrayLength(&data.values);
    if i < n {
        let v = data.values[i];
        data.values[i] = v.zyx * data.inner.h;
        data.values[i][i % 3u] = f16(atomicLoad(&data.count));
    }
}
