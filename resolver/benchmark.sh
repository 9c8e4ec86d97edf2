#!/bin/bash
# resolver/benchmark.sh - cache-hit and cache-miss throughput and CPU per query of every built resolver
# variant in both memory layouts, side by side with kresd, against the simulated hierarchy with no
# latency or loss, measured with dnsperf; then the hottest functions (perf, software clock). Not a
# test: prints a table.
#
# usage: resolver/benchmark.sh [BUILD_DIR] [SECONDS]   (default build/, 5 s per measurement)
# Each resolver runs pinned to CPU 0 and dnsperf to CPU 1. CPU per query = the resolver's
# user+system time over the queries answered; it is the figure to compare (the achieved rate also
# depends on the generator and on what else runs on the machine).
# The hierarchy needs port 53 for kresd (which cannot change the upstream port); without port 53
# it runs on a free port and kresd is skipped. Environment: VARIANTS="glibc jemalloc" to choose,
# NO_KRESD=1, NO_PERF=1.
set -euo pipefail
SRC=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-$SRC/build}
SECS=${2:-5}
BIN=${ALLOCSPIKE_BIN:-$BUILD/bin}
source "$SRC/scripts/bench-lib.sh"
bench_require dnsperf kdig taskset
[[ -x $BIN/allocspike-upstream ]] || { echo "benchmark: $BIN/allocspike-upstream not built" >&2; exit 1; }
bench_workdir resolver-bench
trap 'echo "benchmark: failed at line $LINENO" >&2' ERR
BLOCK=127.55.192.0/20
LISTEN=127.55.0.20
SOURCE=127.55.0.21

hz=$(getconf CLK_TCK)

# The hierarchy: port 53 when it can be had, else a free port (kresd skipped).
start_hierarchy() {
	local port=$1
	"$BIN/allocspike-upstream" --block "$BLOCK" --port "$port" --no-latency --no-loss \
		--root-hints "$WORK/root.hints" --ready-file "$WORK/upstream.ready" >"$WORK/upstream.log" 2>&1 &
	UPID=$!
	wait_ready "$WORK/upstream.ready" "$UPID"
}
if start_hierarchy 53 2>/dev/null; then
	HPORT=53
else
	start_hierarchy 0
	HPORT=$(sed 's/.*://' "$WORK/upstream.ready")
	NO_KRESD=1
fi
PIDS+=("$UPID")
taskset -pc 1 "$UPID" >/dev/null

# Query sets: hits repeat 2000 names (warmed first); misses are unique names below 50 domains
# whose delegations are warmed, so each miss costs one query to a second-level server.
for i in $(seq 1 2000); do echo "www.site$i.com A"; done >"$WORK/hits"
for i in $(seq 0 49); do echo "dom$i.com A"; done >"$WORK/warm"
awk -v n=$((60000 * SECS)) 'BEGIN { for (i = 0; i < n; i++) printf "h%d.dom%d.com A\n", i, i % 50 }' >"$WORK/misses"

# measure NAME KIND FILE PID : one dnsperf run; prints "qps cpu_us_per_query"
measure() {
	local pid=$4 t0 t1 out completed qps
	t0=$(cpu_ticks "$pid")
	out=$(taskset -c 1 dnsperf -s "$LISTEN" -p "$RPORT" -d "$3" -l "$SECS" -q 2000 -t 2 2>&1 || true)
	t1=$(cpu_ticks "$pid")
	completed=$(awk '/Queries completed:/ {print $3}' <<<"$out")
	qps=$(awk '/Queries per second:/ {printf "%d", $4}' <<<"$out")
	awk -v c="$completed" -v d=$((t1 - t0)) -v hz="$hz" -v q="$qps" \
		'BEGIN { printf "%s %.1f\n", q, (c > 0 ? d / hz * 1e6 / c : 0) }'
}

# hot PID FILE : the ten hottest symbols while dnsperf sends FILE
hot() {
	local pid=$1
	[[ -n ${NO_PERF:-} ]] || ! command -v perf >/dev/null && return 0
	perf record -q -e cpu-clock -F 2000 -g -p "$pid" -o "$WORK/perf.data" -- sleep "$SECS" >/dev/null 2>&1 &
	local perf_pid=$!
	taskset -c 1 dnsperf -s "$LISTEN" -p "$RPORT" -d "$2" -l "$SECS" -q 2000 >/dev/null 2>&1 || true
	wait "$perf_pid" 2>/dev/null || true
	perf report -i "$WORK/perf.data" --stdio --no-children --sort symbol 2>/dev/null |
		grep -E '^ +[0-9.]+%' | sed 's/^/    /' | awk 'NR <= 10' || true
}

# run_one LABEL CMD... : start, warm, measure hits and misses
ROWS=()
run_one() {
	local label=$1
	shift
	rm -f "$WORK/r.ready"
	taskset -c 0 "$@" >"$WORK/${label////-}.log" 2>&1 &
	local pid=$!
	PIDS+=("$pid")
	if [[ -n ${PROBE:-} ]]; then
		local i
		for ((i = 0; i < 100; i++)); do
			kdig @"$LISTEN" -p "$RPORT" +time=1 +retry=0 localhost A >/dev/null 2>&1 && break
			sleep 0.2
		done
	else
		wait_ready "$WORK/r.ready" "$pid"
		RPORT=$(sed -n 's/^ready .*://p' "$WORK/r.ready" | head -1)
	fi
	taskset -c 1 dnsperf -s "$LISTEN" -p "$RPORT" -d "$WORK/warm" -n 1 -q 50 >/dev/null 2>&1
	taskset -c 1 dnsperf -s "$LISTEN" -p "$RPORT" -d "$WORK/hits" -n 1 -q 200 >/dev/null 2>&1
	local hit miss
	hit=$(measure "$label" hit "$WORK/hits" "$pid")
	miss=$(measure "$label" miss "$WORK/misses" "$pid")
	local hq=${hit% *} hc=${hit#* } mq=${miss% *} mc=${miss#* }
	ROWS+=("$(printf '%-22s %10s %10s %10s %10s' "$label" "$hq" "$hc" "$mq" "$mc")")
	if [[ ${PERF_FOR:-glibc/heap} == *"$label"* ]]; then
		echo "hottest functions, $label, cache misses:" >>"$WORK/hot.txt"
		awk -v n=$((60000 * SECS)) 'BEGIN { for (i = 0; i < n; i++) printf "p%d.dom%d.com A\n", i, i % 50 }' >"$WORK/misses2"
		hot "$pid" "$WORK/misses2" >>"$WORK/hot.txt"
		echo "hottest functions, $label, cache hits:" >>"$WORK/hot.txt"
		hot "$pid" "$WORK/hits" >>"$WORK/hot.txt"
	fi
	kill "$pid"
	wait "$pid" 2>/dev/null || true
}

variants=${VARIANTS:-}
if [[ -z $variants ]]; then
	for exe in "$BIN"/allocspike-resolver-*; do variants+=" ${exe##*/allocspike-resolver-}"; done
fi
for v in $variants; do
	for layout in heap kresd; do
		run_one "$v/$layout" "$BIN/allocspike-resolver-$v" --listen "$LISTEN:0" \
			--root-hints "$WORK/root.hints" --upstream-port "$HPORT" --upstream-source "$SOURCE" \
			--memory-layout "$layout" --cache-size 256M --ready-file "$WORK/r.ready"
	done
done
if [[ -z ${NO_KRESD:-} ]] && command -v kresd >/dev/null; then
	RPORT=5355
	cmd=$("$SRC/scenarios/daemons/kresd.sh" prepare --workdir "$WORK/kresd" --listen "$LISTEN:$RPORT" \
		--root-hints "$WORK/root.hints" --cache-size 256M --upstream-source "$SOURCE")
	# shellcheck disable=SC2086
	PROBE=1 run_one kresd $cmd
fi

printf '\nresolver benchmark: hierarchy without latency or loss, %s s per run, resolver on CPU 0, dnsperf on CPU 1\n' "$SECS"
printf '%-22s %10s %10s %10s %10s\n' "variant/layout" "hit qps" "hit us/q" "miss qps" "miss us/q"
printf '%s\n' "${ROWS[@]}"
[[ -s $WORK/hot.txt ]] && { echo; cat "$WORK/hot.txt"; }
