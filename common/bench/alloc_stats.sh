#!/bin/bash
# common/bench/alloc_stats.sh - what one control-socket `stats` call costs each resolver build
# (common/alloc_stats.c: the allocator's statistics, /proc/self/smaps for the resident heap, the
# JSON): the resolver resolves a few hundred names against the simulated hierarchy, then answers
# CALLS `stats` on one connection; its CPU time (user + system, /proc/PID/stat) over those calls,
# per call, and what that is at the generator's sampling every 1 s and every 100 ms. Not a test:
# prints a table. Timings on a shared machine vary; run it beside `uptime`.
#
# usage: common/bench/alloc_stats.sh [BUILD_DIR] [CALLS]   (default build/, 2000 calls)
set -euo pipefail
SRC=$(cd "$(dirname "$0")/../.." && pwd)
BIN=${1:-$SRC/build}/bin
CALLS=${2:-2000}
source "$SRC/scripts/bench-lib.sh"
bench_require python3
bench_workdir alloc-stats-bench
NET=127.56.99

"$BIN/allocspike-upstream" --port 0 --hierarchy-block "$NET.0/24" --no-latency --no-loss --seed 3 \
	--root-hints "$WORK/hints" --ready-file "$WORK/upstream.ready" >/dev/null 2>"$WORK/upstream.log" &
PIDS+=($!)
wait_ready "$WORK/upstream.ready" $!
hport=$(sed 's/.*://' "$WORK/upstream.ready")
for i in $(seq 1 400); do echo "www$i.site$((i % 97)).com A"; done >"$WORK/names"

# calls SOCKET N : N `stats` lines on one connection, each reply read before the next.
calls() {
	python3 - "$1" "$2" <<'PY'
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.connect(sys.argv[1])
f = s.makefile("rb")
for _ in range(int(sys.argv[2])):
    s.sendall(b"stats\n")
    f.readline()
PY
}

printf '%-10s %9s %12s %14s %16s\n' variant mappings "us per call" "CPU at 1 s" "CPU at 100 ms"
n=0
for resolver in "$BIN"/allocspike-resolver-*; do
	variant=${resolver##*allocspike-resolver-}
	n=$((n + 1))
	"$resolver" --listen "127.0.0.1:0" --root-hints "$WORK/hints" --upstream-port "$hport" \
		--upstream-source "$NET.250" --control "$WORK/$variant.ctl" \
		--ready-file "$WORK/$variant.ready" >/dev/null 2>"$WORK/$variant.log" &
	pid=$!
	PIDS+=("$pid")
	wait_ready "$WORK/$variant.ready" "$pid"
	addr=$(sed 's/^ready //' "$WORK/$variant.ready")
	python3 "$SRC/tests/resolver/dns_batch.py" "${addr%:*}" "${addr##*:}" <"$WORK/names" >/dev/null
	calls "$WORK/$variant.ctl" 20 # first calls: detection, page faults
	before=$(cpu_ticks "$pid")
	calls "$WORK/$variant.ctl" "$CALLS"
	after=$(cpu_ticks "$pid")
	awk -v v="$variant" -v m="$(wc -l <"/proc/$pid/maps")" -v t=$((after - before)) \
		-v hz="$(getconf CLK_TCK)" -v n="$CALLS" 'BEGIN {
		us = t / hz * 1e6 / n
		printf "%-10s %9d %12.0f %13.3f%% %15.2f%%\n", v, m, us, us / 1e4, us / 1e3 }'
	kill "$pid"
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
