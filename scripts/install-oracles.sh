#!/usr/bin/env bash
# Install the external validators the oracle tests use (see tests/oracles.rs):
# spirv-val (spirv-tools), spirv-cross, glslangValidator (glslang-tools);
# and for the execution test (tests/exec.rs) a Vulkan driver: lavapipe
# (mesa-vulkan-drivers) and the Vulkan loader (libvulkan1).
# At the end, scripts/install-dxc.sh installs DXC for the HLSL tests and
# scripts/install-slang.sh the Slang compiler (each a download from PyPI plus
# a small wrapper build; see those scripts).
# Idempotent: packages already installed are left alone, and `apt-get update`
# runs only when something is missing.
set -euo pipefail

# gcc and g++ compile the host structs of --target c (tests/host.rs); make
# and ninja-build run the README's build recipes (tests/build_tools.rs).
packages=(glslang-tools spirv-tools spirv-cross mesa-vulkan-drivers libvulkan1 gcc g++ make ninja-build)

if [ "$(id -u)" -eq 0 ]; then
    SUDO=()
elif command -v sudo >/dev/null 2>&1; then
    SUDO=(sudo)
else
    SUDO=()
fi

missing=()
for pkg in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
        missing+=("$pkg")
    fi
done

if [ "${#missing[@]}" -gt 0 ]; then
    if ! command -v apt-get >/dev/null 2>&1; then
        echo "install-oracles: apt-get not found; install these packages by hand: ${missing[*]}" >&2
        exit 1
    fi
    if [ "$(id -u)" -ne 0 ] && [ "${#SUDO[@]}" -eq 0 ]; then
        echo "install-oracles: not root and sudo is not available; cannot install: ${missing[*]}" >&2
        exit 1
    fi
    echo "install-oracles: installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    "${SUDO[@]}" apt-get update
    "${SUDO[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
else
    echo "install-oracles: ${packages[*]} already installed"
fi

# Verify that every tool runs.
fail=0
check() {
    local name=$1
    shift
    if out=$("$@" 2>&1); then
        echo "install-oracles: ok: $name: $(printf '%s\n' "$out" | head -n 1)"
    else
        echo "install-oracles: FAILED: \`$*\`:" >&2
        printf '%s\n' "$out" >&2
        fail=1
    fi
}
check spirv-val spirv-val --version
check spirv-dis spirv-dis --version
check glslangValidator glslangValidator --version
# spirv-cross has no --version; --help exits non-zero on some versions, so
# check that it runs and prints its usage.
# (Capture first: with pipefail, `grep -q` closing the pipe early would make
# the pipeline fail at random.)
cross_usage=$(spirv-cross --help 2>&1 || true)
if command -v spirv-cross >/dev/null 2>&1 && grep -qi 'usage\|spirv-cross' <<<"$cross_usage"; then
    echo "install-oracles: ok: spirv-cross"
else
    echo "install-oracles: FAILED: spirv-cross does not run" >&2
    fail=1
fi
# Vulkan: the loader library and the lavapipe ICD (no vulkaninfo needed;
# tests/exec.rs loads libvulkan at run time and lists the devices itself).
if icd=$(ls /usr/share/vulkan/icd.d/lvp_icd*.json 2>/dev/null | head -n 1) && [ -n "$icd" ]; then
    echo "install-oracles: ok: lavapipe ICD: $icd"
else
    echo "install-oracles: FAILED: no lavapipe ICD under /usr/share/vulkan/icd.d/" >&2
    fail=1
fi
libs=$(ldconfig -p 2>/dev/null || true)
if grep -q 'libvulkan\.so\.1' <<<"$libs"; then
    echo "install-oracles: ok: libvulkan.so.1"
else
    echo "install-oracles: FAILED: libvulkan.so.1 not found by ldconfig" >&2
    fail=1
fi
# DXC (HLSL): libdxcompiler from PyPI plus the stride-dxc wrapper; prints its
# own `install-oracles: ok: stride-dxc ...` line.
if ! bash "$(dirname "${BASH_SOURCE[0]}")/install-dxc.sh"; then
    echo "install-oracles: FAILED: scripts/install-dxc.sh" >&2
    fail=1
fi
# Slang: libslang-compiler from PyPI's slangpy wheel plus the stride-slangc
# wrapper; prints its own `install-oracles: ok: stride-slangc ...` line.
if ! bash "$(dirname "${BASH_SOURCE[0]}")/install-slang.sh"; then
    echo "install-oracles: FAILED: scripts/install-slang.sh" >&2
    fail=1
fi
exit "$fail"
