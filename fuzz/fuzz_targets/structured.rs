#![no_main]
//! Valid layout modules from the execution test's generator
//! (tests/exec/gen.rs), its choices read from the fuzz input, plus a
//! compute entry point that touches every buffer: through every target
//! (every GLSL dialect, HLSL register mode and shader model), each
//! translates or is refused with a span on a member; never internal.

use arbitrary::Unstructured;
use stride_fuzz::gen;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    let Ok(seed) = u.arbitrary::<u64>() else {
        return;
    };
    let Ok(tape) = u.arbitrary::<Vec<u8>>() else {
        return;
    };
    // One seed in five: the uniform under `uniform_buffer_standard_layout`.
    let standard = seed % 5 == 0;
    let g = gen::generate_with(gen::Rng::from_tape(seed, tape), 0, standard);
    let source = format!("{}{}", g.source, stride_fuzz::ENTRY);
    stride_fuzz::check_generated(&source);
});
