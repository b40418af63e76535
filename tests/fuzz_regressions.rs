//! Inputs the fuzz targets found (fuzz/regressions/), checked as the
//! `front` target checks them.

#[path = "common/split_map.rs"]
mod split_map;

use stride::front::{dialect, scan, split};

/// Every line break of the split source maps inside the original.
#[test]
fn split_map_stays_inside_the_source() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/regressions");
    let bytes = std::fs::read(dir.join("front-split-map-end.wgsl")).unwrap();
    let source = String::from_utf8_lossy(&bytes);
    let scanned = scan::scan(&source).unwrap();
    let mut lowered = dialect::lower(&source, &scanned).unwrap();
    let standard = std::mem::take(&mut lowered.standard);
    let s = split::split(&source, &scanned, standard, &mut lowered.annotations).unwrap();
    split_map::assert_map_inside(&source, &s);
}
