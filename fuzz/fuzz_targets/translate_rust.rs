#![no_main]
//! `rust` through `stride::translate` (see stride_fuzz::fuzz_translate).
stride_fuzz::translate_target!(Rust);
