#!/usr/bin/env bash
# tests/reports/test_report_summary.sh - every figure of summary.json, for the fixture and for a run
# folder with known numbers, against values worked out by hand here.
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
source "$ALLOCSPIKE_SOURCE_DIR/tests/reports/known_run.sh"
source "$ALLOCSPIKE_SOURCE_DIR/tests/reports/expect.sh"
REPORT=$ALLOCSPIKE_BIN/allocspike-report
command -v jq >/dev/null || skip "jq not installed"

# --- the fixture (tests/fixtures/run-minimal, 0.5 s intervals) ---
run=$TEST_TMP/fixture
cp -r "$ALLOCSPIKE_SOURCE_DIR/tests/fixtures/run-minimal" "$run"
out=$("$REPORT" "$run")
check_eq "report prints the page's path" "$run/report.html" "$out"
S=$run/summary.json
expect "$S" .run.status '"completed"'
expect "$S" .run.complete true
expect "$S" .spike_count 1
expect "$S" .run.schedule_duration_s 3 # baseline, spike and recovery of 1 s each
expect "$S" .interval_s 0.5
expect "$S" .variant_order '["glibc","jemalloc"]'
expect "$S" '.phases|map([.phase,.spike,.from_s,.to_s])' '[["baseline",0,0,1],["spike",1,1,2],["recovery",1,2,3]]'
# glibc: anon 4000 before the spike (t=1.0), 12000 at its peak (t=2.0) and at the end (t=3.0).
expect "$S" '.variants.glibc.spikes[0].before_anon_kb' 4000
expect "$S" '.variants.glibc.spikes[0].peak_anon_kb' 12000
expect "$S" '.variants.glibc.spikes[0].peak_rss_kb' 14000
expect "$S" '.variants.glibc.spikes[0].end_anon_kb' 12000
expect "$S" '.variants.glibc.spikes[0].given_back_share' 0
# jemalloc: 4200 -> 11000 -> 4500 gives back 6500/6800 of the growth.
expect "$S" '.variants.jemalloc.spikes[0].before_anon_kb' 4200
expect "$S" '.variants.jemalloc.spikes[0].peak_anon_kb' 11000
expect "$S" '.variants.jemalloc.spikes[0].end_anon_kb' 4500
expect "$S" '.variants.jemalloc.spikes[0].end_rss_kb' 6500
expect "$S" '.variants.jemalloc.spikes[0].given_back_share' "$(calc '6500/6800')"
expect "$S" '.variants.jemalloc.mean_given_back_share' "$(calc '6500/6800')"
# one spike: no per-spike rate
expect "$S" '.variants.glibc.peak_growth_mb_per_spike' null
expect "$S" '.variants.glibc.recovery_growth_mb_per_spike' null
expect "$S" '.variants.glibc.final_anon_kb' 12000
expect "$S" '.variants.jemalloc.final_anon_kb' 4500
expect "$S" '.variants.jemalloc.max_anon_kb' 11000
expect "$S" '.variants.jemalloc.max_rss_kb' 13000
expect "$S" '.variants.glibc.warmup_end_anon_kb' null
# CPU: cumulative 0.07 s at the first row, 0.42 s at the last; answers after the first row:
# 50 + 490 + 490 + 50 + 50 = 1130.
expect "$S" '.variants.glibc.cpu_s' 0.35
expect "$S" '.variants.glibc.answered' 1130
expect "$S" '.variants.glibc.cpu_s_per_million_answered' "$(calc '0.35/1130*1000000')"
expect "$S" '.variants.glibc.spike_traffic.answered_share' 0.98
expect "$S" '.variants.glibc.spike_traffic.timeouts' 20
expect "$S" '.variants.glibc.baseline_traffic.answered_share' 1
# the intervals' medians under their own names; the old names are the one definition, the
# quantiles of the answers by send phase from their histograms (reports/README.md, "Aliases")
expect "$S" '.variants.glibc.baseline_traffic.lat_p99_ms_of_intervals' 45
expect "$S" '.variants.glibc.spike_traffic.lat_p50_ms_of_intervals' 1.5
# (the fixture's latency_hist.csv: the spike's 50th percentile in the bucket of 1.491 ms, the
# baseline phase's 99th in that of 20.185 ms)
expect "$S" '.variants.glibc.spike_traffic.lat_p50_ms' 1.490944
expect "$S" '.variants.glibc.baseline_traffic.lat_p99_ms' 20.185088
expect "$S" '.variants.glibc.spike_traffic.answered_per_offered_by_arrival' 0.98
# final row: anon 12000 kB = 12288000 B; cache_bytes 120000; allocated 6000000.
expect "$S" '.variants.glibc.anon_over_cache' 102.4
expect "$S" '.variants.glibc.anon_over_allocated' 2.048
expect "$S" '.variants.glibc.beyond_cache_final_kb' "$(calc '12000 - 120000/1024')"
expect "$S" '.variants.jemalloc.anon_over_cache' 38.4
expect "$S" '.variants.glibc.crash_count' 0
# _loadgen: 0.02 s more CPU every 0.5 s is 0.04 core, far below saturation.
expect "$S" '.harness.max_cpu_share._loadgen' 0.04
expect "$S" '.harness.saturated_s' 0
expect "$S" '.harness.saturated_periods' '[]'
expect_done
check "findings say jemalloc gave back, per spike" grep -qF 'jemalloc gave back to the system what each spike added (96 %' "$S"
check "findings say glibc kept it" grep -qF 'glibc kept what the spikes added (gave back 0 %' "$S"

# --- the known run (tests/reports/known_run.sh) ---
run=$TEST_TMP/known
known_run "$run"
"$REPORT" "$run" >/dev/null
S=$run/summary.json
expect "$S" .spike_count 3
expect "$S" .run.schedule_duration_s 15
expect "$S" .run.schedule_spikes 3
expect "$S" .run.last_t_s 15
expect "$S" .interval_s 1
expect "$S" '.phases|map([.phase,.spike,.from_s,.to_s])' \
	'[["warmup",0,0,2],["baseline",0,2,3],["spike",1,3,5],["recovery",1,5,7],["spike",2,7,9],["recovery",2,9,11],["spike",3,11,13],["recovery",3,13,15]]'
expect "$S" '.variant_order' '["alpha","beta"]'
# alpha: anon (kB) before / peak / end of recovery per spike:
#   spike 1: 10240 (t=3) / 30720 (t=5) / 20480 (t=7): gave back 10240/20480 = 0.5
#   spike 2: 20480 / 31744 / 21504: 10240/11264;  spike 3: 21504 / 32768 / 22528: 10240/11264
expect "$S" '.variants.alpha.spikes|map(.before_anon_kb)' '[10240,20480,21504]'
expect "$S" '.variants.alpha.spikes|map(.peak_anon_kb)' '[30720,31744,32768]'
expect "$S" '.variants.alpha.spikes|map(.peak_t_s)' '[5,9,13]'
expect "$S" '.variants.alpha.spikes|map(.peak_rss_kb)' '[40720,41744,42768]'
expect "$S" '.variants.alpha.spikes|map(.end_anon_kb)' '[20480,21504,22528]'
expect "$S" '.variants.alpha.spikes|map(.end_t_s)' '[7,11,15]'
expect "$S" '.variants.alpha.spikes|map([.from_s,.to_s])' '[[3,5],[7,9],[11,13]]'
expect "$S" '.variants.alpha.spikes[0].given_back_share' 0.5
expect "$S" '.variants.alpha.spikes[1].given_back_share' "$(calc '10240/11264')"
expect "$S" '.variants.alpha.spikes[2].given_back_share' "$(calc '10240/11264')"
expect "$S" '.variants.alpha.mean_given_back_share' "$(calc '(0.5 + 2*10240/11264)/3')"
# peaks 30, 31, 32 MB and recovery levels 20, 21, 22 MB: 2 MB first to last; three spikes are too
# few for a per-spike rate (reports/README.md "Per-spike rate"), not a line through three points.
expect "$S" '.variants.alpha.peak_growth_mb_per_spike' null
expect "$S" '.variants.alpha.peak_growth_first_to_last_mb' 2
expect "$S" '.variants.alpha.recovery_growth_mb_per_spike' null
expect "$S" '.variants.alpha.recovery_growth_first_to_last_mb' 2
# beyond cache at recovery ends: 20480-1024, 21504-1536, 22528-2048 = 19, 19.5, 20 MB.
expect "$S" '.variants.alpha.spikes|map(.end_beyond_cache_kb)' '[19456,19968,20480]'
expect "$S" '.variants.alpha.beyond_cache_growth_mb_per_spike' null
expect "$S" '.variants.alpha.beyond_cache_growth_first_to_last_mb' 1
expect "$S" '.variants.alpha.final_anon_kb' 22528
expect "$S" '.variants.alpha.final_rss_kb' 32528
expect "$S" '.variants.alpha.max_anon_kb' 32768
expect "$S" '.variants.alpha.max_anon_t_s' 13
expect "$S" '.variants.alpha.warmup_end_anon_kb' 10240
# CPU after warm-up: 3.6 - 1.1 = 2.5 s; answered t=3..15: 100 + 900 + 5*1000 + 6*100 = 6600.
expect "$S" '.variants.alpha.cpu_s' 2.5
expect "$S" '.variants.alpha.answered' 6600
expect "$S" '.variants.alpha.cpu_s_per_million_answered' "$(calc '2.5/6600*1000000')"
# spikes: 6000 offered, 5900 answered; interval p50s 4 (weights 900,1000,1000) and 6 (1000 x3):
# half of 5900 is reached only within the 6s, so the weighted median is 6; p99 likewise 60.
expect "$S" '.variants.alpha.spike_traffic.offered' 6000
expect "$S" '.variants.alpha.spike_traffic.answered' 5900
expect "$S" '.variants.alpha.spike_traffic.timeouts' 100
expect "$S" '.variants.alpha.spike_traffic.answered_share' "$(calc '5900/6000')"
expect "$S" '.variants.alpha.spike_traffic.lat_p50_ms' 6
expect "$S" '.variants.alpha.spike_traffic.lat_p90_ms' 8
expect "$S" '.variants.alpha.spike_traffic.lat_p99_ms' 60
expect "$S" '.variants.alpha.spike_traffic.lat_p99_max_ms' 60
# baseline = baseline and recovery rows (warm-up p99 of 10 left out): 7 intervals.
expect "$S" '.variants.alpha.baseline_traffic.intervals' 7
expect "$S" '.variants.alpha.baseline_traffic.offered' 700
expect "$S" '.variants.alpha.baseline_traffic.answered_share' 1
expect "$S" '.variants.alpha.baseline_traffic.lat_p50_ms' 2
expect "$S" '.variants.alpha.baseline_traffic.lat_p99_ms' 12
expect "$S" '.variants.alpha.baseline_traffic.lat_p99_max_ms' 12
# final row: 22528 kB = 23068672 B over 2 MiB cache = 11, over 4 MiB allocated = 5.5.
expect "$S" '.variants.alpha.anon_over_cache' 11
expect "$S" '.variants.alpha.anon_over_allocated' 5.5
expect "$S" '.variants.alpha.final_cache_bytes' 2097152
expect "$S" '.variants.alpha.beyond_cache_final_kb' 20480
expect "$S" '.variants.alpha.crash_count' 0
expect "$S" '.variants.alpha.kind' '"build"'
# beta gives everything back (10240 -> 30720 -> 10240 each time) and reports no resolver stats.
expect "$S" '.variants.beta.spikes|map(.given_back_share)' '[1,1,1]'
expect "$S" '.variants.beta.peak_growth_mb_per_spike' null
expect "$S" '.variants.beta.recovery_growth_mb_per_spike' null
expect "$S" '.variants.beta.peak_growth_first_to_last_mb' 0
expect "$S" '.variants.beta.anon_over_cache' null
expect "$S" '.variants.beta.anon_over_allocated' null
expect "$S" '.variants.beta.beyond_cache_final_kb' null
expect "$S" '.variants.beta.spike_traffic.lat_p99_ms' null
expect "$S" '.variants.beta.spike_traffic.answered_share' 1
# beta's CPU: 0.2 s per second, 3.0 - 0.4 = 2.6 s over 6700 answers.
expect "$S" '.variants.beta.cpu_s_per_million_answered' "$(calc '2.6/6700*1000000')"
expect "$S" '.variants.beta.crash_count' 1
expect "$S" '.variants.beta.crashes' '[{"event":"exited","signal":11,"t_s":15.2}]'
# _loadgen: 0.8 and 0.6 core from t=8 to t=10, 0.1 otherwise; _upstream 0.05.
expect "$S" '.harness.saturated_periods' '[{"from_s":8,"max_cpu_share":0.8,"target":"_loadgen","to_s":10}]'
expect "$S" '.harness.saturated_s' 2
expect "$S" '.harness.max_cpu_share._upstream' 0.05
expect "$S" '.harness.saturated_events' '[{"cpu_share":0.8,"t_s":9,"variant":"_loadgen"}]'
expect_done
# three spikes: too few for a trend of the peaks (the verdict's rule), each peak said instead
check "findings: alpha's peaks, each spike's" grep -qF "alpha's peaks: 3 spikes, too few for a trend: 30.0, 31.0 and 32.0 MB." "$S"
check "findings: beta's peaks, each spike's" grep -qF "beta's peaks: 3 spikes, too few for a trend: 30.0, 30.0 and 30.0 MB." "$S"
check "findings: beta crashed" grep -q 'beta crashed at 15.2 s (signal 11)' "$S"
check "findings: harness saturated" grep -q 'harness itself was saturated' "$S"
# --- a spike that added under 1 MiB: its given-back share would be noise, so it is null ---
run=$TEST_TMP/tiny
cp -r "$ALLOCSPIKE_SOURCE_DIR/tests/fixtures/run-minimal" "$run"
# jemalloc's anon RSS becomes 4500 kB in the spike (t=1.5, 2.0) and 4300 in the recovery: a peak
# 300 kB over its 4200 before.
awk -F, -v OFS=, '$2 == "jemalloc" && $3 == "spike" { $17 = 4500 }
	$2 == "jemalloc" && $3 == "recovery" { $17 = 4300 } { print }' \
	"$ALLOCSPIKE_SOURCE_DIR/tests/fixtures/run-minimal/timeline.csv" >"$run/timeline.csv"
"$REPORT" "$run" >/dev/null
S=$run/summary.json
expect "$S" '.variants.jemalloc.spikes[0].peak_anon_kb' 4500
expect "$S" '.variants.jemalloc.spikes[0].given_back_share' null
expect "$S" '.variants.glibc.spikes[0].given_back_share' 0
expect_done

# --- harness CPU is judged over windows of at least 1 s: one busy 0.5 s interval (0.84 of a core)
# is 0.44 over its window, not saturation ---
run=$TEST_TMP/burst
cp -r "$ALLOCSPIKE_SOURCE_DIR/tests/fixtures/run-minimal" "$run"
awk -F, -v OFS=, '$2 == "_loadgen" && $1 >= 1.5 { $20 = $20 + 0.4 } { print }' \
	"$ALLOCSPIKE_SOURCE_DIR/tests/fixtures/run-minimal/timeline.csv" >"$run/timeline.csv"
"$REPORT" "$run" >/dev/null
S=$run/summary.json
expect "$S" '.harness.saturated_s' 0
expect "$S" '.harness.max_cpu_share._loadgen' 0.44
expect_done

finish
