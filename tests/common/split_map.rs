//! The split's source-map invariant, shared by the `front` fuzz target
//! (fuzz/src/lib.rs includes this file) and tests/fuzz_regressions.rs.

use stride::front::split::Split;

/// Every line break of the split source `s` maps inside the original
/// `source`: the panic message names the first that does not.
pub fn assert_map_inside(source: &str, s: &Split) {
    for (at, _) in s.standard.match_indices('\n') {
        let mapped = s.map.span(&(at..at + 1));
        assert!(
            mapped.start <= mapped.end && mapped.end <= source.len(),
            "{at} maps to {mapped:?}, outside the {} bytes of the source",
            source.len()
        );
    }
}
