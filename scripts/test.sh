#!/usr/bin/env bash
# The full test command: install the oracles, then run every test (oracle
# tools required), the doc tests, rustfmt and clippy.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# Each phase prints how long it took, so a slow CI run shows where.
began=$SECONDS
phase_start=$SECONDS
phase() {
    echo "test.sh: $1 took $((SECONDS - phase_start)) s (total $((SECONDS - began)) s)"
    phase_start=$SECONDS
}

bash scripts/install-oracles.sh
phase "installing the oracles"

export STRIDE_REQUIRE_ORACLES=1
cargo test --all-targets --no-run
phase "building the tests"
cargo test --all-targets
phase "running the tests"
cargo test --doc
phase "the doc tests"

# Debug and release builds must give identical SPIR-V: the snapshots were
# written by the debug build the tests use; translate every corpus input
# again with a release build and compare bytes.
cargo build --release --quiet
phase "the release build"
release_bin="${CARGO_TARGET_DIR:-target}/release/stride"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
compared=0
differ=0
for input in corpus/*/*.wgsl; do
    expected="${input%.wgsl}.spv"
    [ -f "$expected" ] || continue
    if ! "$release_bin" "$input" -o "$tmp/out.spv" 2>/dev/null || ! cmp -s "$tmp/out.spv" "$expected"; then
        echo "release build output differs from the snapshot: $input" >&2
        differ=$((differ + 1))
    fi
    compared=$((compared + 1))
done
echo "release-vs-debug SPIR-V: $compared modules compared, $differ differ"
if [ "$differ" -ne 0 ] || [ "$compared" -eq 0 ]; then
    exit 1
fi
phase "the release-vs-debug comparison"
cargo fmt --check
cargo clippy --all-targets -- -D warnings
phase "fmt and clippy"
echo "test.sh: all checks passed"
