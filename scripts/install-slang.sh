#!/usr/bin/env bash
# Install the Slang oracle (see ../shared/ORACLES.md, "Slang"): no package
# ships a `slangc` binary, but the PyPI wheel slangpy==0.43.1 contains the
# Slang 2026.12 compiler library. This script
#   1. downloads that wheel (pip download, no dependencies, the
#      manylinux_2_34 x86-64 CPython 3.11 build whatever the local Python is)
#      and extracts from it libslang-compiler.so.0.2026.12, the helper
#      libraries it loads by name from its own folder (glslang, which the
#      SPIR-V target uses; the GLSL module, for GLSL input) and slang.h with
#      the headers it includes, into $STRIDE_TOOLS/slang (default:
#      ~/.cache/stride-tools/slang);
#   2. builds tools/slang/stride-slangc.cpp into $STRIDE_TOOLS/slang/stride-slangc,
#      a slangc-like command line over that library (rpath $ORIGIN):
#        stride-slangc shader.slang -target spirv -entry main -stage compute \
#            -o out.spv -reflection-json refl.json
#   3. checks that it runs and compiles a shader.
# The tests find the binary there, or through $STRIDE_SLANGC.
# Idempotent: the download is skipped when the version stamp matches and the
# extracted files are present with the expected checksums, and the build when
# the binary is newer than its source and the version stamp (rewritten after
# every extraction). Needs network access only for the first run;
# STRIDE_SLANG_WHEEL=/path/to/the.whl uses a wheel already downloaded instead.
set -euo pipefail

PACKAGE=slangpy
VERSION=0.43.1
SLANG_VERSION=2026.12
WHEEL=$PACKAGE-$VERSION-cp311-cp311-manylinux_2_34_x86_64.whl
LIB=libslang-compiler.so.0.$SLANG_VERSION
STAMP="$PACKAGE==$VERSION slang $SLANG_VERSION"
# sha256 of the files taken from the wheel (paths inside slangpy/).
declare -A SHA256=(
    [$LIB]=195f1fbbf7342517aed3064657c8cfaaae5791065158189610253dce070c4678
    [libslang-glslang-$SLANG_VERSION.so]=d529bf64d39521d626cca4c1f74612b1b662e0b68829a5efd12fdb20306f0b69
    [libslang-glsl-module-$SLANG_VERSION.so]=f58610fe1fe5de85d6d33dc27ee10efe3963121b5bc790d4f1e0c94e881f037f
    [include/slang.h]=521e62dd34ea069ce1dee1442923146d4ca3a2bc2c18da11a00e4e17efac732e
    [include/slang-deprecated.h]=09a8b3fb65ba00daef1cc2462fad552c273db4472187ddf421224a190e0dcf47
    [include/slang-image-format-defs.h]=35ad9b68cfa889157b2bf4a4ef39263b4ad5f0f760ffee66aca03438e8363bcd
    [include/slang-user-config.h]=f834df2920d72a709647f354ea7f7a4586d0c9898ce66b36205407f1458d9fb6
)
FILES=("$LIB" "libslang-glslang-$SLANG_VERSION.so" "libslang-glsl-module-$SLANG_VERSION.so"
    include/slang.h include/slang-deprecated.h include/slang-image-format-defs.h
    include/slang-user-config.h)

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tools=${STRIDE_TOOLS:-$HOME/.cache/stride-tools}
dir=$tools/slang
src=$repo/tools/slang/stride-slangc.cpp
bin=$dir/stride-slangc

say() { echo "install-slang: $*"; }
die() {
    echo "install-slang: ERROR: $*" >&2
    exit 1
}

if [ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]; then
    die "only Linux x86-64 is supported (the wheel is $WHEEL); this is $(uname -s)-$(uname -m)"
fi
# The wheel is built for glibc 2.34 or later.
glibc=$(getconf GNU_LIBC_VERSION 2>/dev/null | awk '{print $2}')
if [ -n "$glibc" ] && [ "$(printf '%s\n2.34\n' "$glibc" | sort -V | head -n 1)" != 2.34 ]; then
    die "the Slang libraries need glibc 2.34 or later; this system has $glibc"
fi

if [ "$(id -u)" -eq 0 ]; then
    SUDO=()
elif command -v sudo >/dev/null 2>&1; then
    SUDO=(sudo)
else
    SUDO=()
fi

# apt_install PACKAGE...: install Debian packages (as install-oracles.sh does).
apt_install() {
    if ! command -v apt-get >/dev/null 2>&1; then
        die "apt-get not found; install these packages by hand: $*"
    fi
    if [ "$(id -u)" -ne 0 ] && [ "${#SUDO[@]}" -eq 0 ]; then
        die "not root and sudo is not available; cannot install: $*"
    fi
    say "installing $*"
    export DEBIAN_FRONTEND=noninteractive
    "${SUDO[@]}" apt-get update
    "${SUDO[@]}" apt-get install -y --no-install-recommends "$@"
}

# Whether every extracted file is present with its expected checksum.
files_ok() {
    local d=$1 f
    for f in "${FILES[@]}"; do
        [ -f "$d/$f" ] || return 1
        [ "$(sha256sum "$d/$f" | cut -d' ' -f1)" = "${SHA256[$f]}" ] || return 1
    done
}

mkdir -p "$dir"

# 1. The libraries and headers.
if [ "$(cat "$dir/VERSION" 2>/dev/null)" = "$STAMP" ] && files_ok "$dir"; then
    say "$PACKAGE==$VERSION files (Slang $SLANG_VERSION) already in $dir"
else
    tmp=$(mktemp -d "$dir/.download.XXXXXX")
    trap 'rm -rf "$tmp"' EXIT
    if [ -n "${STRIDE_SLANG_WHEEL:-}" ]; then
        wheel=$STRIDE_SLANG_WHEEL
        [ -f "$wheel" ] || die "STRIDE_SLANG_WHEEL=$wheel: no such file"
        say "using $wheel"
    else
        if ! python3 -m pip --version >/dev/null 2>&1; then
            apt_install python3-pip
        fi
        say "downloading $WHEEL (~92 MB) from PyPI"
        # --platform/--python-version/--abi pin the one wheel whose checksums
        # are above, whichever Python runs pip.
        if ! python3 -m pip download "$PACKAGE==$VERSION" --no-deps --only-binary=:all: \
            --platform manylinux_2_34_x86_64 --python-version 3.11 --implementation cp \
            --abi cp311 --disable-pip-version-check --timeout 60 --retries 2 \
            -d "$tmp/dl" >"$tmp/pip.log" 2>&1; then
            tail -n 20 "$tmp/pip.log" >&2
            die "could not download $PACKAGE==$VERSION from PyPI (no network, or PyPI unreachable?). The Slang oracle is NOT installed; the Slang oracle tests will skip (or fail under STRIDE_REQUIRE_ORACLES=1)."
        fi
        wheel=$tmp/dl/$WHEEL
        [ -f "$wheel" ] || die "pip did not leave $wheel (got: $(ls "$tmp/dl"))"
    fi
    # A wheel is a zip; Python's zipfile extracts the members we need (unzip
    # may not be installed).
    members=()
    for f in "${FILES[@]}"; do
        members+=("$PACKAGE/$f")
    done
    python3 - "$wheel" "$tmp" "${members[@]}" <<'EOF' || die "could not extract the Slang files from $wheel"
import sys, zipfile
wheel, dest, members = sys.argv[1], sys.argv[2], sys.argv[3:]
with zipfile.ZipFile(wheel) as z:
    for m in members:
        z.extract(m, dest)
EOF
    files_ok "$tmp/$PACKAGE" || die "checksum mismatch for the files extracted from $wheel"
    mkdir -p "$dir/include"
    for f in "${FILES[@]}"; do
        mv -f "$tmp/$PACKAGE/$f" "$dir/$f"
    done
    chmod 0644 "$dir"/include/*.h
    chmod 0755 "$dir"/*.so*
    # The library's SONAME is its file name, so the loader needs no other
    # name; the unversioned one is for linking with -lslang-compiler.
    ln -sfn "$LIB" "$dir/libslang-compiler.so"
    echo "$STAMP" >"$dir/VERSION"
    rm -rf "$tmp"
    trap - EXIT
    say "extracted Slang $SLANG_VERSION into $dir"
fi

# 2. The wrapper.
if [ -x "$bin" ] && [ "$bin" -nt "$src" ] && [ "$bin" -nt "$dir/VERSION" ]; then
    say "$bin is up to date"
else
    if ! command -v g++ >/dev/null 2>&1; then
        apt_install g++
    fi
    say "building $bin"
    g++ -std=c++17 -O1 -Wall -Wextra -I"$dir/include" "$src" -o "$bin.tmp" \
        -L"$dir" -l:"$LIB" -Wl,-rpath,'$ORIGIN' -ldl ||
        die "could not build $src"
    mv -f "$bin.tmp" "$bin"
fi

# 3. Check that it runs and compiles (printed like install-oracles.sh's checks):
# a packoffset member must come out at its offset in the reflection JSON.
if ! version=$("$bin" --version 2>&1); then
    echo "install-oracles: FAILED: \`$bin --version\`:" >&2
    printf '%s\n' "$version" >&2
    exit 1
fi
probe_dir=$(mktemp -d)
trap 'rm -rf "$probe_dir"' EXIT
cat >"$probe_dir/probe.slang" <<'EOF'
cbuffer P : register(b0) { float4 v : packoffset(c0); float f : packoffset(c1.y); };
RWStructuredBuffer<float> o : register(u1);
[numthreads(1, 1, 1)] void main() { o[0] = v.x + f; }
EOF
if ! out=$(cd "$probe_dir" && "$bin" probe.slang -target spirv -entry main -stage compute \
    -o probe.spv -reflection-json probe.json 2>&1) ||
    [ ! -s "$probe_dir/probe.spv" ] ||
    ! grep -q '"name": "f"' "$probe_dir/probe.json" ||
    ! grep -q '"offset": 20, "size": 4' "$probe_dir/probe.json"; then
    echo "install-oracles: FAILED: stride-slangc does not compile a test shader:" >&2
    printf '%s\n' "$out" >&2
    exit 1
fi
echo "install-oracles: ok: stride-slangc: ${version#stride-slangc: } (binary $bin)"
