# tests/reports/known_run.sh - sourced by the report tests: writes run folders whose figures are
# known by hand (the expected values are worked out in test_report_summary.sh).

# known_row T VARIANT PHASE SPIKE OFFERED ANSWERED TIMEOUTS P50 P90 P99 RSS ANON CPU_USER CPU_SYS CACHE ALLOC
# One timeline.csv row in the contract's column order; "-" writes an empty cell.
known_row() {
	local c=("$@") i
	for i in "${!c[@]}"; do [[ ${c[$i]} == - ]] && c[$i]=""; done
	local sent=${c[4]} noerror=${c[5]} zero=0
	[[ -z ${c[4]} ]] && zero=""
	# t_s,variant,phase,spike,offered,sent,answered,timeouts,noerror,nxdomain,servfail,rcode_other,
	# lat_p50_ms,lat_p90_ms,lat_p99_ms,rss_kb,anon_kb,pss_kb,hwm_kb,cpu_user_s,cpu_sys_s,
	# cache_entries,cache_bytes,inflight,upstream_queries,alloc_allocated_bytes,alloc_resident_bytes
	echo "${c[0]},${c[1]},${c[2]},${c[3]},${c[4]},$sent,${c[5]},${c[6]},$noerror,$zero,$zero,$zero,${c[7]},${c[8]},${c[9]},${c[10]},${c[11]},,,${c[12]},${c[13]},,${c[14]},,,${c[15]},"
}

# known_phase T : sets phase and spike of second T of the known schedule (below).
known_phase() {
	if (($1 <= 2)); then
		phase=warmup spike=0
	elif (($1 == 3)); then
		phase=baseline spike=0
	else
		spike=$((($1 - 4) / 4 + 1))
		((($1 - 4) % 4 < 2)) && phase=spike || phase=recovery
	fi
}

# known_run DIR [STATUS] : the run with known numbers. 1 s intervals; warm-up t=1..2, baseline t=3,
# then three times (spike 2 s, recovery 2 s): spike k covers t=4k..4k+1, its recovery t=4k+2..4k+3.
# alpha keeps part of each spike and its peaks climb 1 MB a spike; beta gives everything back and
# crashes at the end; _loadgen is saturated from t=8 to t=10.
known_run() {
	local dir=$1 status=${2:-completed}
	mkdir -p "$dir"
	cat >"$dir/run.json" <<EOF
{"format": 1, "status": "$status", "scenario": "spike", "started": "2026-11-29T23:00:00Z",
 "ended": null,
 "parameters": {"schedule": "warmup:2s@100,baseline:1s@100,3*(spike:2s@1000,recovery:2s@100)",
   "mode": "parallel", "interval_ms": 1000,
   "hierarchy": {"seed": 7, "latency_ms_median": 25, "latency_ms_p99": 250, "loss": 0.04},
   "resolver": {"cache_size_bytes": 16777216, "max_inflight": 1000, "memory_layout": "heap"},
   "cpu_placement": {"resolvers": "0-1", "harness": "0"}},
 "variants": [
   {"name": "alpha", "kind": "build", "allocator": "glibc", "libc": "glibc", "library": "-",
    "base": "-", "env": "-", "note": "keeps memory",
    "version": {"program": "allocspike-resolver", "allocator": "glibc", "allocator_version": "2.36"}},
   {"name": "beta", "kind": "preload", "allocator": "jemalloc", "libc": "glibc",
    "library": "libjemalloc.so.2", "base": "kresd", "env": "MALLOC_CONF=background_thread:true",
    "note": "gives memory back", "version": {"program": "kresd", "allocator": "jemalloc"}}],
 "machine": {"cores": 2, "memory_kb": 8388608, "kernel": "6.1.0-test-kernel", "thp": "never",
   "open_files_limit": 65536},
 "queryfile": {"path": "generated:seed=7", "stats": {"queries": 123456, "unique_names": 4321}},
 "calibration": null}
EOF
	cat >"$dir/events.jsonl" <<'EOF'
{"t_s": -1.0, "variant": "alpha", "event": "started", "pid": 11}
{"t_s": -1.0, "variant": "beta", "event": "started", "pid": 12}
{"t_s": 9.0, "variant": "_loadgen", "event": "harness_saturated", "cpu_share": 0.8}
{"t_s": 15.2, "variant": "beta", "event": "exited", "signal": 11}
{"t_s": 15.3, "variant": "alpha", "event": "exited", "signal": 15, "signal_name": "TERM", "requested": true}
{"t_s": 15.4, "variant": "_upstream", "event": "exited", "code": 1, "requested": true}
EOF
	local t phase spike off ans to p50 p90 p99 cache
	# cumulative CPU seconds at t=1..15 (index 0 unused)
	local cpu_alpha=(- 1.0 1.1 1.2 1.5 1.8 1.9 2.0 2.3 2.6 2.7 2.8 3.1 3.4 3.5 3.6)
	local cpu_loadgen=(- 0.1 0.2 0.3 0.4 0.5 0.6 0.7 0.8 1.6 2.2 2.3 2.4 2.5 2.6 2.7)
	local cpu_upstream=(- 0.05 0.10 0.15 0.20 0.25 0.30 0.35 0.40 0.45 0.50 0.55 0.60 0.65 0.70 0.75)
	local anon_alpha=(- 10000 10240 10240 20000 30720 25000 20480 28000 31744 26000 21504 29000 32768 27000 22528)
	local anon_beta=(- 10240 10240 10240 20000 30720 15000 10240 20000 30720 15000 10240 20000 30720 15000 10240)
	{
		echo "t_s,variant,phase,spike,offered,sent,answered,timeouts,noerror,nxdomain,servfail,rcode_other,lat_p50_ms,lat_p90_ms,lat_p99_ms,rss_kb,anon_kb,pss_kb,hwm_kb,cpu_user_s,cpu_sys_s,cache_entries,cache_bytes,inflight,upstream_queries,alloc_allocated_bytes,alloc_resident_bytes"
		for t in $(seq 1 15); do
			known_phase "$t"
			if [[ $phase == spike ]]; then
				off=1000 ans=1000 to=0 p90=8
				((t == 4)) && ans=900 to=100
				((t % 2 == 0)) && p50=4 p99=40 || p50=6 p99=60
			elif [[ $phase == warmup ]]; then
				off=100 ans=100 to=0 p50=2 p90=5 p99=10
			else
				off=100 ans=100 to=0 p50=2 p90=5 p99=12
			fi
			((t <= 7)) && cache=1048576 || { ((t <= 11)) && cache=1572864 || cache=2097152; }
			known_row "$t" alpha "$phase" "$spike" "$off" "$ans" "$to" "$p50" "$p90" "$p99" \
				$((anon_alpha[t] + 10000)) "${anon_alpha[t]}" \
				"${cpu_alpha[t]}" 0 \
				"$cache" $((t == 15 ? 4194304 : 2097152))
			known_row "$t" beta "$phase" "$spike" "$off" "$off" 0 - - - \
				$((anon_beta[t] + 5000)) "${anon_beta[t]}" "$(awk "BEGIN{printf \"%.1f\", 0.2 * $t}")" - - -
			# harness rows carry only process columns
			known_row "$t" _loadgen "$phase" "$spike" - - - - - - 3000 1000 "${cpu_loadgen[t]}" 0 - -
			known_row "$t" _upstream "$phase" "$spike" - - - - - - 4000 2000 "${cpu_upstream[t]}" 0 - -
		done
	} >"$dir/timeline.csv"
}
