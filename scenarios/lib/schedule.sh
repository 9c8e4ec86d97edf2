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

# schedule_queries SCHEDULE_RATE : how many queries a spike schedule at that spike rate sends.
schedule_queries() {
	echo $(((OPT_warmup_len_ms * OPT_warmup_rate + OPT_baseline_len_ms * OPT_baseline_rate + OPT_spikes *
		(OPT_spike_len_ms * $1 + OPT_recovery_len_ms * OPT_baseline_rate)) / 1000))
}

# schedule_round_count N : a query-file size for N queries: whole hundred thousands, at most 2 million
# (the generator wraps around; the cache keys files by size, so few sizes means few files).
schedule_round_count() {
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
