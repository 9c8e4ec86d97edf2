# scenarios/lib/warmup.sh - checks that the warm-up brought every cache to a steady state before the
# spikes that count: a cache still filling raises every variant's peaks spike after spike, whatever
# the allocator. The run's controller decides and records (warmup-check: docs/controller.md, "The
# warm-up check and the capacities"): run.json's "warmup", a `warmup_not_steady` event per variant
# still filling, which the report can name.

# warmup_check RUN_DIR : RUN_DIR's timeline (rows of phase warmup); nothing when it has none.
warmup_check() {
	local w i
	procs_ask warmup-check "$1" || {
		sc_say "the warm-up was not checked (the reason is above)"
		return 0
	}
	read -r -a w <<<"$REPLY" # ok CAP [NAME BYTES]... (the caches still filling), or skipped
	for ((i = 2; i < ${#w[@]}; i += 2)); do
		sc_say "warm-up: ${w[i]}'s cache was still filling (${w[i + 1]} of ${w[1]} bytes); raise --warmup-len or --warmup-rate, or lower --cache-size"
	done
}
