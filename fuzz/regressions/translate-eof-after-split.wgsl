// spec/001 "Splitting of Arrays", second example: `struct Pair { Texture2D a;
// Texture2D b; }; Pair gPairs[8];` splits into `gPairs_a`$and `gPairs_b`, each a
// binding array of 8 textures, and `gPairs[i].b` reads `gPairs_b[i]`. Vulkan: one
// binding each (0 and 1). D3D (`--registers compact`): t0..t7 and t8..t15, so the
// reflectd the// Linear blend skinning in a vertex shader: bone matrices in a read-only storage buffer
// (runtime array of mat4x4), per-mesh un offset of `b` is 8.

enable wgpu_binding_array;

struct Pair {
    a: texture_2d<f32>,
    b: texture_2d<f32>,
}

var gPairs: ia