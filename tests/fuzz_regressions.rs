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

/// naga's end-of-input error in a module whose resource struct made the
/// split run (`translate_slang` found it): every target's diagnostics lie
/// inside the source, on char boundaries, and no output comes with them.
#[test]
fn end_of_input_error_stays_inside_the_source() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/regressions");
    let bytes = std::fs::read(dir.join("translate-eof-after-split.wgsl")).unwrap_or_default();
    let source = String::from_utf8_lossy(&bytes);
    assert!(!source.is_empty());
    for target in stride::Target::ALL {
        let options = stride::Options {
            target,
            ..Default::default()
        };
        let Err(diagnostics) = stride::translate(&source, &options) else {
            panic!("{target}: the truncated input translated");
        };
        assert!(diagnostics.has_errors(), "{target}");
        for d in diagnostics.iter() {
            for l in &d.labels {
                assert!(
                    l.span.end <= source.len()
                        && l.span.start <= l.span.end
                        && source.is_char_boundary(l.span.start)
                        && source.is_char_boundary(l.span.end),
                    "{target}: span {:?} of `{}` outside the {}-byte source",
                    l.span,
                    d.message,
                    source.len()
                );
            }
        }
    }
}

/// A resource struct holding itself twice (`front` found it: out of
/// memory, the split following the struct into itself 2^32 times): the
/// split reports it, at once, with its span inside the source.
#[test]
fn a_struct_holding_itself_is_reported_by_the_split() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/regressions");
    let bytes = std::fs::read(dir.join("front-split-self-nesting.wgsl")).unwrap_or_default();
    let source = String::from_utf8_lossy(&bytes);
    assert!(!source.is_empty());
    let scanned = scan::scan(&source).unwrap();
    let mut lowered = dialect::lower(&source, &scanned).unwrap();
    let standard = std::mem::take(&mut lowered.standard);
    let Err(errors) = split::split(&source, &scanned, standard, &mut lowered.annotations) else {
        panic!("the split accepted a struct that holds itself");
    };
    let first = errors.iter().next().expect("an error");
    assert!(
        first.message.contains("contains itself"),
        "{}",
        first.message
    );
    let span = first.labels[0].span.clone();
    assert!(span.end <= source.len() && source.is_char_boundary(span.start));
    assert_eq!(&source[span], "Detail");
}
