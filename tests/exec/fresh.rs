//! The run-seeded batch of the execution test: modules of `gen.rs` from a
//! seed that changes with every run (so that CI keeps exploring), printed
//! with the results; a failing module is minimized before it is reported.

use std::sync::OnceLock;

/// Generated modules per target with the run's seed.
pub const COUNT: u64 = 100;

/// The run's seed and where it came from: `STRIDE_FUZZ_SEED` (decimal or
/// `0x` hex), else the CI run id (`GITHUB_RUN_ID` and its attempt,
/// `CI_PIPELINE_ID`, `BUILD_ID`), else the time. The same for every target
/// of one run.
pub fn seed() -> (u64, &'static str) {
    static SEED: OnceLock<(u64, &'static str)> = OnceLock::new();
    *SEED.get_or_init(|| {
        let var = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
        if let Some(v) = var("STRIDE_FUZZ_SEED") {
            let parsed = match v.strip_prefix("0x") {
                Some(hex) => u64::from_str_radix(hex, 16).ok(),
                None => v.parse().ok(),
            };
            if let Some(seed) = parsed {
                return (seed, "STRIDE_FUZZ_SEED");
            }
        }
        for name in ["GITHUB_RUN_ID", "CI_PIPELINE_ID", "BUILD_ID"] {
            if let Some(id) = var(name).and_then(|v| v.parse::<u64>().ok()) {
                let attempt = var("GITHUB_RUN_ATTEMPT")
                    .and_then(|v| v.parse::<u64>().ok())
                    .unwrap_or(0);
                return (id.wrapping_mul(0x9e37_79b9) ^ attempt, "the CI run id");
            }
        }
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        (nanos, "the time")
    })
}

/// `source` with member lines, then whole structs and aliases, dropped
/// while `fails` still holds; every candidate is tried once per pass until
/// a pass drops nothing, or until [`MINIMIZE_BUDGET`] is spent (then the
/// smallest module so far is returned, with a comment line saying so).
pub fn minimize(source: &str, fails: impl FnMut(&str) -> bool) -> String {
    minimize_within(source, MINIMIZE_BUDGET, fails)
}

/// How long minimizing one failing module may take: every try compiles and
/// runs a module, and a failure that makes each try slow (a dispatch that
/// times out, say) must not hold the test for an hour.
pub const MINIMIZE_BUDGET: std::time::Duration = std::time::Duration::from_secs(120);

/// [`minimize`] with an explicit time budget.
pub fn minimize_within(
    source: &str,
    budget: std::time::Duration,
    mut fails: impl FnMut(&str) -> bool,
) -> String {
    let start = std::time::Instant::now();
    let mut lines: Vec<String> = source.lines().map(str::to_string).collect();
    let mut tries = 0u32;
    loop {
        let mut dropped = false;
        let mut i = 0;
        while i < lines.len() {
            let Some(range) = droppable(&lines, i) else {
                i += 1;
                continue;
            };
            if start.elapsed() > budget {
                return format!(
                    "// minimization stopped after {tries} tries ({} s budget spent); smallest failing module so far:\n{}\n",
                    budget.as_secs(),
                    lines.join("\n")
                );
            }
            tries += 1;
            let mut candidate = lines.clone();
            candidate.drain(range);
            if fails(&(candidate.join("\n") + "\n")) {
                lines = candidate;
                dropped = true;
            } else {
                i += 1;
            }
        }
        if !dropped {
            return lines.join("\n") + "\n";
        }
    }
}

/// The lines from `i` that can go as one: a member, an alias, or a struct
/// (with the attribute line before it).
fn droppable(lines: &[String], i: usize) -> Option<std::ops::Range<usize>> {
    let line = lines[i].trim_start();
    if lines[i].starts_with("    ") && line.ends_with(',') {
        return Some(i..i + 1);
    }
    if line.contains("alias ") {
        return Some(i..i + 1);
    }
    let struct_at = if line.starts_with("struct ") {
        i
    } else if line.starts_with('@') && lines.get(i + 1)?.starts_with("struct ") {
        i + 1
    } else {
        return None;
    };
    let end = (struct_at..lines.len()).find(|&j| lines[j] == "}")?;
    Some(i..end + 1)
}

#[test]
fn minimize_drops_what_the_failure_does_not_need() {
    let source = "alias A0 = f32;\n\n@align(16)\nstruct S0 {\n    m0: f32,\n    m1: u32,\n}\nstruct S1 {\n    m0: S0,\n    m1: i32,\n}\n";
    let out = minimize(source, |s| s.contains("m1: i32"));
    assert_eq!(out, "\nstruct S1 {\n    m1: i32,\n}\n");
}

#[test]
fn minimize_stops_when_its_budget_is_spent() {
    let source = "struct S1 {\n    m0: f32,\n    m1: i32,\n}\n";
    let out = minimize_within(source, std::time::Duration::ZERO, |_| true);
    assert!(
        out.starts_with("// minimization stopped after 0 tries"),
        "{out}"
    );
    assert!(out.ends_with(source), "{out}");
}
