//! `stride::translate_analysis`: several targets from one `stride::analyze`
//! give what one `stride::translate` per target gives.

mod common;

use stride::{Options, Target};

#[test]
fn every_target_from_one_analysis_equals_its_own_translation() {
    let mut compared = 0;
    for path in common::corpus_inputs() {
        let source = std::fs::read_to_string(&path).unwrap_or_default();
        let analysis = match stride::analyze(&source) {
            Ok(a) => a,
            Err(shared) => {
                // A shared error is each target's whole error.
                let alone = stride::translate(&source, &Options::default());
                assert_eq!(alone.err(), Some(shared), "{}", path.display());
                continue;
            }
        };
        for target in Target::ALL {
            let options = Options {
                target,
                ..Default::default()
            };
            let alone = stride::translate(&source, &options);
            let shared = stride::translate_analysis(&analysis, &options);
            let what = format!("{} {target}", path.display());
            match (alone, shared) {
                (Ok(a), Ok(s)) => {
                    assert_eq!(a.output, s.output, "{what}: output");
                    let mut warnings = analysis.warnings.clone();
                    warnings.extend(s.warnings);
                    assert_eq!(a.warnings, warnings, "{what}: warnings");
                }
                (Err(a), Err(s)) => {
                    let mut all = analysis.warnings.clone();
                    all.extend(s);
                    assert_eq!(a, all, "{what}: diagnostics");
                }
                (a, s) => panic!("{what}: alone {:?}, shared {:?}", a.is_ok(), s.is_ok()),
            }
            compared += 1;
        }
    }
    assert!(compared > 300, "{compared} translations compared");
}
