#![no_main]
//! Arbitrary bytes (as UTF-8 where valid) through stride's own front end:
//! scan, dialect lowering and the resource-struct split (naga's parser is
//! not run). No panic; every diagnostic span inside the source and on a
//! char boundary.

use stride::front::{dialect, scan, split};
use stride_fuzz::{check_diagnostics, text};

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let source = text(data);
    let scanned = match scan::scan(&source) {
        Ok(s) => s,
        Err(d) => return check_diagnostics(&source, d.iter()),
    };
    let mut lowered = match dialect::lower(&source, &scanned) {
        Ok(l) => l,
        Err(d) => return check_diagnostics(&source, d.iter()),
    };
    check_diagnostics(&source, lowered.warnings.iter());
    let standard = std::mem::take(&mut lowered.standard);
    // The dialect only blanks text: the standard source keeps every offset.
    assert_eq!(
        standard.len(),
        source.len(),
        "the lowered source moved offsets"
    );
    match split::split(&source, &scanned, standard, &mut lowered.annotations) {
        Ok(s) => {
            // Every line break of the split source maps into the original.
            stride_fuzz::split_map::assert_map_inside(&source, &s);
        }
        Err(d) => check_diagnostics(&source, d.iter()),
    }
});
