#!/usr/bin/env bash
# Translate every corpus input with every target and every dialect or mode
# into one folder, so that a refactor can show its output is unchanged:
#
#   bash scripts/dump-corpus.sh BIN OUTDIR
#   bash scripts/dump-corpus.sh target/release/stride /tmp/before
#   ... change, rebuild ...
#   bash scripts/dump-corpus.sh target/release/stride /tmp/after
#   diff -r /tmp/before /tmp/after
#
# Every output file and the diagnostics of every run (no color) land under
# OUTDIR/<config>/<corpus folder>/. Line directives are off (the CLI's
# default, `auto`, names the input's path, which differs between checkouts).
set -euo pipefail
bin=${1:?usage: dump-corpus.sh BIN OUTDIR}
out=${2:?usage: dump-corpus.sh BIN OUTDIR}
cd "$(dirname "${BASH_SOURCE[0]}")/.."
rm -rf "$out"
configs=(
    "spirv|-t spirv"
    "spirv-strip|-t spirv --strip-names --spirv-version 1.0"
    "hlsl|-t hlsl"
    "hlsl-compact|-t hlsl --registers compact"
    "hlsl-sm62|-t hlsl --shader-model 6_2"
    "hlsl-sm51|-t hlsl --shader-model 5_1"
    "slang|-t slang"
    "slang-compact|-t slang --registers compact"
    "layout|-t layout --rules std140,std430,scalar,hlsl-cbuffer,hlsl-structured"
    "reflect|-t reflect"
)
for d in vulkan450 gl430 gl440 gl450 gl460 es310 es320; do
    configs+=("glsl-$d|-t glsl --glsl $d")
done
n=0
for cfg in "${configs[@]}"; do
    name=${cfg%%|*}
    args=${cfg#*|}
    for input in corpus/*/*.wgsl; do
        dir="$out/$name/$(basename "$(dirname "$input")")"
        stem=$(basename "$input" .wgsl)
        mkdir -p "$dir/$stem"
        # shellcheck disable=SC2086
        "$bin" $args --line-directives none --color never "$input" -o "$dir/$stem/" 2>"$dir/$stem/diagnostics.txt" \
            && echo 0 >"$dir/$stem/status" || echo $? >"$dir/$stem/status"
        n=$((n + 1))
    done
done
echo "dump-corpus: $n translations under $out"
