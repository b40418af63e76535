#!/usr/bin/env bash
# Install the DXC oracle for the HLSL tests (see ../shared/ORACLES.md, "HLSL:
# DXC"): no package ships a `dxc` binary, but the PyPI source package
# compushady==0.17.5 contains a prebuilt Linux libdxcompiler (DXC 1.7). This
# script
#   1. downloads that source package (pip download, no dependencies) and
#      extracts libdxcompiler_x86_64.so.3.7, dxcapi.h and WinAdapter.h into
#      $STRIDE_TOOLS/dxc (default: ~/.cache/stride-tools/dxc);
#   2. builds tools/dxc/stride-dxc.cpp into $STRIDE_TOOLS/dxc/stride-dxc, a
#      small dxc-like command line over that library:
#        stride-dxc -T cs_6_0 -E main -Fc - file.hlsl
#   3. checks that it runs and compiles a shader.
# The tests find the binary there, or through $STRIDE_DXC.
# Idempotent: the download is skipped when the extracted files are present
# with the expected checksums, and the build when the binary is newer than its
# source. Needs network access only for the first run.
set -euo pipefail

PACKAGE=compushady
VERSION=0.17.5
LIB=libdxcompiler_x86_64.so.3.7
# sha256 of the three files inside compushady-0.17.5.tar.gz.
declare -A SHA256=(
    [$LIB]=fb549976da7abff1ee56bdfa4f5ab156b95e971d4270b5b4447b61682d105809
    [dxcapi.h]=9c83ad503b9341e68426a867860c5053ff8ce2bfbb23d7b2c8c68ec18cc33101
    [WinAdapter.h]=6f9c7c2f8a1c7a4a09734a844ead3501e2e32b108931b682f521565f857f3474
)
FILES=("$LIB" dxcapi.h WinAdapter.h)

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tools=${STRIDE_TOOLS:-$HOME/.cache/stride-tools}
dir=$tools/dxc
src=$repo/tools/dxc/stride-dxc.cpp
bin=$dir/stride-dxc

say() { echo "install-dxc: $*"; }
die() {
    echo "install-dxc: ERROR: $*" >&2
    exit 1
}

if [ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]; then
    die "only Linux x86-64 is supported (the package's library is $LIB); this is $(uname -s)-$(uname -m)"
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

# 1. The library and its headers.
if files_ok "$dir"; then
    say "$PACKAGE==$VERSION files already in $dir"
else
    if ! python3 -m pip --version >/dev/null 2>&1; then
        apt_install python3-pip
    fi
    tmp=$(mktemp -d "$dir/.download.XXXXXX")
    trap 'rm -rf "$tmp"' EXIT
    say "downloading $PACKAGE==$VERSION (source package, ~67 MB) from PyPI"
    # --no-binary: the source package is the one that carries the Linux
    # library. pip prepares its metadata in an isolated build environment,
    # which also needs PyPI.
    if ! python3 -m pip download "$PACKAGE==$VERSION" --no-deps --no-binary "$PACKAGE" \
        --disable-pip-version-check --timeout 60 --retries 2 -d "$tmp/dl" >"$tmp/pip.log" 2>&1; then
        tail -n 20 "$tmp/pip.log" >&2
        die "could not download $PACKAGE==$VERSION from PyPI (no network, or PyPI unreachable?). The DXC oracle is NOT installed; the HLSL oracle tests will skip (or fail under STRIDE_REQUIRE_ORACLES=1)."
    fi
    archive=$tmp/dl/$PACKAGE-$VERSION.tar.gz
    [ -f "$archive" ] || die "pip did not leave $archive (got: $(ls "$tmp/dl"))"
    members=()
    for f in "${FILES[@]}"; do
        members+=("$PACKAGE-$VERSION/$PACKAGE/backends/$f")
    done
    tar -xzf "$archive" -C "$tmp" --no-same-owner --strip-components=3 "${members[@]}" ||
        die "could not extract ${FILES[*]} from $archive"
    files_ok "$tmp" || die "checksum mismatch for the files extracted from $archive"
    for f in "${FILES[@]}"; do
        mv -f "$tmp/$f" "$dir/$f"
    done
    chmod 0644 "$dir/dxcapi.h" "$dir/WinAdapter.h"
    chmod 0755 "$dir/$LIB"
    rm -rf "$tmp"
    trap - EXIT
    say "extracted ${FILES[*]} into $dir"
fi

# 2. The wrapper.
if [ -x "$bin" ] && [ "$bin" -nt "$src" ] && [ "$bin" -nt "$dir/dxcapi.h" ] &&
    [ "$bin" -nt "$dir/WinAdapter.h" ]; then
    say "$bin is up to date"
else
    if ! command -v g++ >/dev/null 2>&1; then
        apt_install g++
    fi
    say "building $bin"
    g++ -std=c++17 -fms-extensions -O1 -Wall -Wextra -I"$dir" "$src" -o "$bin.tmp" -ldl ||
        die "could not build $src"
    mv -f "$bin.tmp" "$bin"
fi

# 3. Check that it runs and compiles (printed like install-oracles.sh's checks).
if ! version=$("$bin" --version 2>&1); then
    echo "install-oracles: FAILED: \`$bin --version\`:" >&2
    printf '%s\n' "$version" >&2
    exit 1
fi
probe='cbuffer P : register(b0) { float4 v : packoffset(c0); float f : packoffset(c1.y); };
RWStructuredBuffer<float> o : register(u0);
[numthreads(1, 1, 1)] void main() { o[0] = v.x + f; }'
if ! out=$(printf '%s\n' "$probe" | "$bin" -T cs_6_0 -E main -Fc - - 2>&1) ||
    ! grep -q 'float f; *; Offset: *20' <<<"$out"; then
    echo "install-oracles: FAILED: stride-dxc does not compile a test shader:" >&2
    printf '%s\n' "$out" >&2
    exit 1
fi
echo "install-oracles: ok: stride-dxc: ${version#stride-dxc: } (binary $bin)"
