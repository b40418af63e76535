#!/usr/bin/env bash
# The full test command: install the oracles, then run every test (oracle
# tools required), the doc tests, rustfmt and clippy.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/install-oracles.sh

export STRIDE_REQUIRE_ORACLES=1
cargo test --all-targets
cargo test --doc

# Debug and release builds must give identical SPIR-V: the snapshots were
# written by the debug build the tests use; translate every corpus input
# again with a release build and compare bytes.
cargo build --release --quiet
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
cargo fmt --check
cargo clippy --all-targets -- -D warnings
echo "test.sh: all checks passed"
