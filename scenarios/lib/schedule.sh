# scenarios/lib/schedule.sh - builds the schedule texts (docs/schedule.md) the scenarios run.

# schedule_spike RATE : warm-up, a baseline, then N x (spike, recovery at the baseline rate); with
# --clients each spike also raises the clients (a connection spike, lib/clients.sh).
# The rate never drops to zero: jemalloc purges only while the process allocates.
schedule_spike() {
	printf 'warmup:%s@%s,baseline:%s@%s,%s*(spike:%s@%s%s,recovery:%s@%s)' \
		"$OPT_warmup_len" "$OPT_warmup_rate" "$OPT_baseline_len" "$OPT_baseline_rate" \
		"$OPT_spikes" "$OPT_spike_len" "$1" "$(clients_phase_option)" "$OPT_recovery_len" "$OPT_baseline_rate"
}

# schedule_calibrate TOP : the resperf-style ramp from the baseline rate to TOP (calibrate.sh).
schedule_calibrate() {
	printf 'calibrate:%s@%s..%s' "$OPT_calibrate_len" "$OPT_baseline_rate" "$1"
}

# schedule_count SCHEDULE : how many queries SCHEDULE sends, as the generator counts them
# (allocspike-loadgen --plan, docs/loadgen.md); empty while the generator is not built.
schedule_count() {
	local loadgen
	loadgen=$(sc_program allocspike-loadgen)
	[[ -n $loadgen ]] || return 0
	"$loadgen" --plan --schedule "$1" | jq -r .queries
}

# schedule_round_count N : a query-file size for N queries: whole hundred thousands, at most 2 million
# (the generator wraps around; the cache keys files by size, so few sizes means few files). COUNT
# for an N not known (a dry run before the generator is built).
schedule_round_count() {
	[[ -n $1 ]] || {
		echo COUNT
		return 0
	}
	local n=$((($1 + 99999) / 100000 * 100000))
	((n >= 100000)) || n=100000
	((n <= 2000000)) || n=2000000
	echo "$n"
}

# schedule_ramp TOP : ramp.sh: a warm-up, then one linear ramp from the baseline rate to TOP.
schedule_ramp() {
	printf 'warmup:%s@%s,calibrate:%s@%s..%s' "$OPT_warmup_len" "$OPT_warmup_rate" \
		"$OPT_calibrate_len" "$OPT_baseline_rate" "$1"
}

# schedule_steady RATE : steady.sh: a warm-up, then RATE for --baseline-len.
schedule_steady() {
	printf 'warmup:%s@%s,baseline:%s@%s' "$OPT_warmup_len" "$OPT_warmup_rate" "$OPT_baseline_len" "$1"
}
