#!/usr/bin/env bash
# The command line against naga-cli, side by side in one run (issue 22's
# performance target). Not a test: run it by hand on a quiet machine.
#
#   bash scripts/bench-cli.sh [STRIDE_BIN [NAGA_BIN]]
#
# STRIDE_BIN defaults to target/release/stride (build it first with
# `cargo build --release`); NAGA_BIN to what scripts/install-naga-cli.sh
# installs (it is run when the binary is missing). REPS_A, REPS_B, REPS_C
# set the repetitions of each part (default 5, 3, 101); BENCH_DIR where the
# outputs go (default /dev/shm).
#
# The two tools' runs are interleaved (stride, naga, stride, naga, ...) and
# each part reports the median of its repetitions, so that load from
# elsewhere on the machine hits both alike.
#
# (a) corpus/**/*.wgsl that naga-cli accepts: stride -t spirv,glsl,hlsl over
#     all of them in one process, against one naga-cli call per file that
#     writes the same three outputs (naga-cli writes one GLSL entry point per
#     call; stride writes every entry point).
# (b) a tree of 1,500 files (the accepted corpus copied into folders):
#     stride, every target (spirv, glsl, hlsl, slang, layout, reflect, c,
#     rust) in one process, against one naga-cli call per file writing
#     SPIR-V, HLSL and GLSL; (b2) the same, SPIR-V only on both sides.
# (c) one small file, one target (SPIR-V), the whole process: stride
#     against naga-cli, many times.
set -euo pipefail
cd "$(dirname "$0")/.."
stride="$(realpath "${1:-target/release/stride}")"
naga="${2:-$HOME/.cache/stride-tools/naga-cli/bin/naga}"
[ -x "$naga" ] || naga="$(bash scripts/install-naga-cli.sh)"
naga="$(realpath "$naga")"
reps_a="${REPS_A:-5}"
reps_b="${REPS_B:-3}"
reps_c="${REPS_C:-101}"
[ -x "$stride" ] || { echo "no stride binary at $stride: cargo build --release" >&2; exit 2; }

# The outputs go to memory (/dev/shm) where there is one, so that the disk's
# cost of creating a file (about 0.9 ms on the VM these figures come from,
# more than a small shader's translation) does not swamp both tools; set
# BENCH_DIR to time a disk instead.
base="${BENCH_DIR:-/dev/shm}"
{ [ -d "$base" ] && [ -w "$base" ]; } || base="${TMPDIR:-/tmp}"
work="$(mktemp -d "$base/stride-bench-cli.XXXXXX")"
trap 'rm -rf "$work"' EXIT

# Both tools run from copies in the work directory: on the VMs these
# figures come from, where an executable lies moved its one-file time by
# about a millisecond (stride's same bytes: 6.1 ms from /tmp, 7.6 ms from
# the checkout), enough to turn part (c) either way.
mkdir -p "$work/bin"
cp "$stride" "$work/bin/stride"
cp "$naga" "$work/bin/naga"
stride_path="$stride"
naga_path="$naga"
stride="$work/bin/stride"
naga="$work/bin/naga"

now() { date +%s%N; }

# median of the numbers (nanoseconds) on standard input, in milliseconds
median_ms() {
    sort -n | awk '{ v[NR] = $1 } END {
        m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2;
        printf "%.1f", m / 1e6 }'
}

ratio() { awk -v s="$1" -v n="$2" 'BEGIN { printf "%.2f", s / n }'; }

# The first entry point of each corpus file and naga-cli's GLSL extension
# for its stage, by path below corpus/ ("" when it has none). Worked out
# once, before any timing.
declare -A entry_of
while IFS=$'\t' read -r file entry; do
    entry_of["${file#corpus/}"]="$entry"
done < <(find corpus -name '*.wgsl' -print0 | xargs -0 perl -0777 -ne '
    my %ext = (compute => "comp", vertex => "vert", fragment => "frag");
    my $entry = /@(compute|vertex|fragment)\b[^{]*?\bfn\s+(\w+)/s ? "$2 $ext{$1}" : "";
    print "$ARGV\t$entry\n"')

# naga-cli writing SPIR-V, HLSL and (when the file has an entry point)
# GLSL for one file into $2, in one call. naga-cli's GLSL writer needs the
# entry point (--entry-point) and takes the stage from the output's
# extension; with --entry-point, its SPIR-V and HLSL hold that entry point
# only (less work than stride's, which hold every one). Files of the
# 1,500-file tree are looked up by their path below copyNN/.
naga_three() {
    local file="$1" out="$2" base rel entry
    base="$(basename "$file" .wgsl)"
    rel="${file#corpus/}"
    rel="${rel#"$work"/tree/copy*/}"
    entry="${entry_of[$rel]:-}"
    if [ -n "$entry" ]; then
        "$naga" --entry-point "${entry% *}" "$file" \
            "$out/$base.spv" "$out/$base.hlsl" "$out/$base.${entry#* }" >/dev/null 2>&1
    else
        "$naga" "$file" "$out/$base.spv" "$out/$base.hlsl" >/dev/null 2>&1
    fi
}

# The corpus files both tools accept (naga-cli for its three outputs,
# stride for spirv, glsl and hlsl).
mkdir -p "$work/probe"
accepted=()
while IFS= read -r file; do
    if naga_three "$file" "$work/probe" \
        && "$stride" -t spirv,glsl,hlsl "$file" -o "$work/probe/" >/dev/null 2>&1; then
        accepted+=("$file")
    fi
done < <(find corpus -name '*.wgsl' | LC_ALL=C sort)
total="$(find corpus -name '*.wgsl' | wc -l)"
echo "corpus: ${#accepted[@]} of $total files accepted by both tools"
echo "stride:    $stride_path"
echo "naga-cli:  $naga_path ($("$naga" --version 2>/dev/null || echo '?'))"
echo "machine:   $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "outputs:   $work ($(df --output=fstype "$work" | tail -1))"
echo

# Time "$1_stride" and "$1_naga" (shell functions) $2 times, interleaved;
# the medians go to the variables <part>_s and <part>_n.
pair() {
    local part="$1" reps="$2" t0 t1 t2
    : >"$work/$part.stride"
    : >"$work/$part.naga"
    for _ in $(seq "$reps"); do
        rm -rf "${work:?}/$part"; mkdir -p "$work/$part/s" "$work/$part/n"
        t0=$(now)
        "${part}_stride" "$work/$part/s"
        t1=$(now)
        "${part}_naga" "$work/$part/n"
        t2=$(now)
        echo $((t1 - t0)) >>"$work/$part.stride"
        echo $((t2 - t1)) >>"$work/$part.naga"
    done
    printf -v "${part}_s" '%s' "$(median_ms <"$work/$part.stride")"
    printf -v "${part}_n" '%s' "$(median_ms <"$work/$part.naga")"
}

# (a)
a_stride() { "$stride" -t spirv,glsl,hlsl "${accepted[@]}" -o "$1/" >/dev/null 2>&1; }
a_naga() { local file; for file in "${accepted[@]}"; do naga_three "$file" "$1"; done; }
pair a "$reps_a"

# (b)
tree="$work/tree"
copies=$(((1500 + ${#accepted[@]} - 1) / ${#accepted[@]}))
n=0
for c in $(seq -w 1 "$copies"); do
    for file in "${accepted[@]}"; do
        [ "$n" -lt 1500 ] || break
        dir="$tree/copy$c/$(dirname "${file#corpus/}")"
        mkdir -p "$dir"
        cp "$file" "$dir/"
        n=$((n + 1))
    done
done
mapfile -t tree_files < <(find "$tree" -name '*.wgsl' | LC_ALL=C sort)
b_stride() { "$stride" -t spirv,glsl,hlsl,slang,layout,reflect,c,rust "$tree" -o "$1/" >/dev/null 2>&1; }
b_naga() {
    local file i=0
    for file in "${tree_files[@]}"; do
        i=$((i + 1))
        mkdir -p "$1/$i"
        naga_three "$file" "$1/$i"
    done
}
pair b "$reps_b"

# (b2) the same tree, SPIR-V only (issue 22's first measurement): one
# process against one naga-cli call per file.
b2_stride() { "$stride" -t spirv "$tree" -o "$1/" >/dev/null 2>&1; }
b2_naga() {
    local file i=0
    for file in "${tree_files[@]}"; do
        i=$((i + 1))
        "$naga" "$file" "$1/$i.spv" >/dev/null 2>&1
    done
}
pair b2 "$reps_b"

# (c)
small="corpus/shaders/particles.wgsl"
[ -f "$small" ] || small="${accepted[0]}"
c_stride() { "$stride" -t spirv "$small" -o "$1/out.spv" >/dev/null 2>&1; }
c_naga() { "$naga" "$small" "$1/out.spv" >/dev/null 2>&1; }
pair c "$reps_c"

printf '%-58s %10s %10s %8s %s\n' "part" "stride ms" "naga ms" "ratio" "target"
printf '%-58s %10s %10s %8s %s\n' \
    "(a) corpus, spirv+glsl+hlsl, ${#accepted[@]} files (median of $reps_a)" "$a_s" "$a_n" "$(ratio "$a_s" "$a_n")x" "<= 0.6x"
printf '%-58s %10s %10s %8s %s\n' \
    "(b) ${#tree_files[@]}-file tree, every target (median of $reps_b)" "$b_s" "$b_n" "$(ratio "$b_s" "$b_n")x" "<= 0.1x (10x faster)"
printf '%-58s %10s %10s %8s %s\n' \
    "(b2) the same tree, spirv only (median of $reps_b)" "$b2_s" "$b2_n" "$(ratio "$b2_s" "$b2_n")x" ""
printf '%-58s %10s %10s %8s %s\n' \
    "(c) $(basename "$small"), spirv, whole process (median of $reps_c)" "$c_s" "$c_n" "$(ratio "$c_s" "$c_n")x" "<= 1.0x"
echo "machine after: load average $(cut -d' ' -f1-3 /proc/loadavg)"
