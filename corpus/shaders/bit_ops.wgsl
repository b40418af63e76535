// Integer and bit operations: countLeadingZeros, countOneBits, countTrailingZeros,
// extractBits and insertBits (signed and unsigned), firstLeadingBit, firstTrailingBit,
// reverseBits, shifts by large amounts, integer division and remainder (by zero, INT_MIN / -1),
// bitcast between f32, i32 and u32 vectors, and wrapping arithmetic.

struct Words {
    u: vec4<u32>,
    i: vec4<i32>,
    shift: u32,
    divisor: i32,
}

struct BitResults {
    counts: vec4<u32>,
    fields: vec4<u32>,
    sfields: vec4<i32>,
    bits: vec4<u32>,
    quotients: vec4<i32>,
    uquotients: vec4<u32>,
    floats: vec4<f32>,
}

@group(0) @binding(0) var<storage, read> words: array<Words>;
@group(0) @binding(1) var<storage, read_write> bit_results: array<BitResults>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let n = arrayLength(&words);
    if gid.x >= n {
        return;
    }
    let w = words[gid.x];
    var r: BitResults;
    r.counts = countLeadingZeros(w.u) + countOneBits(w.u) + countTrailingZeros(w.u)
        + vec4<u32>(countOneBits(bitcast<u32>(w.i.x)), bitcast<vec2<u32>>(countLeadingZeros(w.i.yz)), 0u);
    r.fields = extractBits(w.u, 4u, 8u) + insertBits(w.u, w.u.wzyx, w.shift & 31u, 5u);
    r.sfields = extractBits(w.i, 3u, 12u) + insertBits(w.i, vec4<i32>(-1), 8u, w.shift) + firstLeadingBit(w.i)
        + firstTrailingBit(w.i) + countTrailingZeros(w.i);
    r.bits = firstLeadingBit(w.u) + firstTrailingBit(w.u) + reverseBits(w.u) + (w.u << vec4<u32>(w.shift))
        + (w.u >> vec4<u32>(w.shift + 1u)) + ~w.u + (w.u ^ w.u.yzwx) + (w.u & vec4<u32>(0xff00ffu)) + (w.u | vec4<u32>(0x80000000u));
    let d = w.divisor;
    r.quotients = w.i / vec4<i32>(d) + w.i % vec4<i32>(d) + vec4<i32>(w.i.x / d, w.i.y % d, (w.i.z >> w.shift), -w.i.w);
    r.uquotients = w.u / w.u.yzwx + w.u % vec4<u32>(w.shift) + w.u * 2654435761u - w.u.zwxy;
    r.floats = bitcast<vec4<f32>>(w.u & vec4<u32>(0x3fffffffu)) + vec4<f32>(bitcast<f32>(w.i.x & 0x3fffffff), vec3<f32>(w.i.yzw));
    bit_results[gid.x] = r;
}
