#!/usr/bin/env bash
# The full test command: install the oracles, then run every test (oracle
# tools required), the doc tests, rustfmt and clippy.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/install-oracles.sh

export STRIDE_REQUIRE_ORACLES=1
cargo test --all-targets
cargo test --doc
cargo fmt --check
cargo clippy --all-targets -- -D warnings
echo "test.sh: all checks passed"
