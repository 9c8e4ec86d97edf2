# scripts/bench-lib.sh - what every benchmark script shares: tool checks, a work folder whose
# servers are stopped on exit, readiness, and a process's CPU ticks. Sourced, never run.

# bench_require TOOL... : stops the benchmark naming the first tool that is missing.
bench_require() {
	local tool
	for tool in "$@"; do
		command -v "$tool" >/dev/null || { echo "benchmark: $tool not installed" >&2; exit 1; }
	done
}

# bench_workdir NAME : creates $WORK; every pid appended to PIDS is stopped, and $WORK removed, on exit.
bench_workdir() {
	WORK=$(mktemp -d "${TMPDIR:-/tmp}/allocspike-$1.XXXXXX")
	PIDS=()
	trap bench_cleanup EXIT
}
bench_cleanup() {
	local p
	for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
	for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null || true; done
	rm -rf "$WORK"
}

# wait_ready FILE PID : waits (at most 20 s) for a server's ready file while the server lives.
wait_ready() {
	local i
	for ((i = 0; i < 200; i++)); do
		[[ -s $1 ]] && return 0
		kill -0 "$2" 2>/dev/null || { echo "benchmark: a server exited, see $WORK" >&2; return 1; }
		sleep 0.1
	done
	echo "benchmark: server not ready" >&2
	return 1
}

# cpu_ticks PID : user + system clock ticks the process has used so far.
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
