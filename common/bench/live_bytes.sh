#!/bin/bash
# common/bench/live_bytes.sh - what the live-bytes counter (common/live_bytes.c) costs per call,
# per allocator: the same malloc/free loop built without and with the counter (dynamic
# interposition for the glibc-world allocators, --wrap for musl), best of 3 runs each, in ns per
# malloc+free pair and per call. Not a test: prints a table. Timings on a shared machine vary;
# compare the columns of one run.
#
# usage: common/bench/live_bytes.sh [PAIRS]   (default 5,000,000)
set -euo pipefail
SRC=$(cd "$(dirname "$0")/../.." && pwd)
PAIRS=${1:-5000000}
source "$SRC/scripts/bench-lib.sh"
bench_require cc
bench_workdir live-bytes-bench
BENCH=$SRC/common/bench/live_bytes_bench.c
COUNTER=$SRC/common/live_bytes.c
WRAP="-Wl,--wrap=malloc,--wrap=free,--wrap=realloc,--wrap=aligned_alloc" # as cmake/AllocspikeVariants.cmake

# best NS_PROGRAM : the lowest of three runs (ns per pair).
best() {
	local i v b=
	for i in 1 2 3; do
		v=$("$@" "$PAIRS")
		[[ -z $b ]] || [[ $(awk -v a="$v" -v b="$b" 'BEGIN { print (a < b) }') == 1 ]] && b=$v
	done
	echo "$b"
}

printf '%-10s %14s %14s %12s %14s\n' allocator "plain ns/pair" "counted ns/pair" "extra ns/pair" "extra ns/call"
row() {
	local name=$1 plain=$2 counted=$3
	awk -v n="$name" -v p="$plain" -v c="$counted" \
		'BEGIN { printf "%-10s %14.2f %14.2f %12.2f %14.2f\n", n, p, c, c - p, (c - p) / 2 }'
}
for alloc in glibc:- jemalloc:jemalloc tcmalloc:tcmalloc_minimal mimalloc:mimalloc; do
	name=${alloc%%:*} lib=${alloc#*:}
	libs=()
	[[ $lib == - ]] || libs=(-Wl,--no-as-needed "-l$lib")
	cc -O2 -o "$WORK/plain-$name" "$BENCH" "${libs[@]}" 2>/dev/null || { echo "$name: cannot link $lib, skipped"; continue; }
	cc -O2 -I"$SRC/common" -o "$WORK/counted-$name" "$BENCH" "$COUNTER" "${libs[@]}" -ldl
	row "$name" "$(best "$WORK/plain-$name")" "$(best "$WORK/counted-$name")"
done
if command -v musl-gcc >/dev/null; then
	musl-gcc -O2 -static -o "$WORK/plain-musl" "$BENCH"
	musl-gcc -O2 -static -DLIVE_BYTES_WRAP -I"$SRC/common" -o "$WORK/counted-musl" "$BENCH" "$COUNTER" $WRAP
	row musl "$(best "$WORK/plain-musl")" "$(best "$WORK/counted-musl")"
fi
