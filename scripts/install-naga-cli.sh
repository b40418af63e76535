#!/usr/bin/env bash
# naga-cli, for scripts/bench-cli.sh only (not a test dependency): the
# version that matches the naga crate stride uses, built from crates.io into
# ~/.cache/stride-tools/naga-cli. Idempotent: nothing happens when that
# version is already there. Prints the binary's path.
set -euo pipefail
version="${NAGA_CLI_VERSION:-30.0.1}"
root="${NAGA_CLI_ROOT:-$HOME/.cache/stride-tools/naga-cli}"
bin="$root/bin/naga"
if [ -x "$bin" ] && [ "$(cat "$root/version" 2>/dev/null)" = "$version" ]; then
    echo "$bin"
    exit 0
fi
# Release build, as a user would install it; one job: the machine is shared.
cargo install naga-cli --locked --version "$version" --root "$root" -j 1 >&2 \
    || cargo install naga-cli --version "$version" --root "$root" -j 1 >&2
echo "$version" > "$root/version"
echo "$bin"
