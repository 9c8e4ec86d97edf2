#!/bin/bash
# tests/scenarios/modules.sh - the scenario modules on crafted input, no program needed: durations and
# sizes, the calibration's knee, the harness and warm-up checks, events on the generator's clock,
# run.json updates, the variants table's errors.
set -uo pipefail
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
source "$ALLOCSPIKE_SOURCE_DIR/tests/scenarios/scenario_lib.sh"
SC_PROG=modules
source "$ALLOCSPIKE_SOURCE_DIR/scenarios/lib/experiment.sh"
opts_defaults

check_eq "500ms" 500 "$(sc_duration_ms 500ms)"
check_eq "20s" 20000 "$(sc_duration_ms 20s)"
check_eq "2m" 120000 "$(sc_duration_ms 2m)"
check_eq "1.5m (the schedule's grammar)" 90000 "$(sc_duration_ms 1.5m)"
check_eq "a bare number needs a unit" "" "$(sc_duration_ms 7)"
check_eq "a bare number where the option names its unit" 7 "$(sc_duration_ms 7 1)"
check_eq "bad duration" "" "$(sc_duration_ms 3x)"
check_eq "4M" 4194304 "$(sc_size_bytes 4M)"
check_eq "512k" 524288 "$(sc_size_bytes 512k)"
check_eq "bad size" "" "$(sc_size_bytes lots)"
check_eq "query-file size rounds up" 300000 "$(schedule_round_count 200001)"
check_eq "query-file size at most 2 million" 2000000 "$(schedule_round_count 9000000)"
OPT_warmup_rate=600
check_eq "spike schedule" "warmup:60s@600,baseline:20s@300,8*(spike:20s@3000,recovery:40s@300)" "$(schedule_spike 3000)"
check_eq "queries of that schedule" $((60 * 600 + 20 * 300 + 8 * (20 * 3000 + 40 * 300))) "$(schedule_queries 3000)"

# A ramp over 10 one-second windows: a keeps up to 2000 qps then answers 1500, b keeps up throughout.
tl=$TEST_TMP/timeline.csv
head -n 1 "$ALLOCSPIKE_SOURCE_DIR/tests/fixtures/run-minimal/timeline.csv" >"$tl"
for ((i = 1; i <= 100; i++)); do
	t=$(awk -v i="$i" 'BEGIN { printf "%.1f", i / 10 }')
	w=$(((i - 1) / 10))
	off=$((100 * (w + 1)))                                # per 100 ms: 1000..10000 qps over the ramp
	a=$off
	((off <= 200)) || a=150
	cpu_up=$(awk -v i="$i" 'BEGIN { print (i > 50 && i <= 70) ? (i - 50) * 0.095 : 0 }')
	printf '%s,a,calibrate,0,%d,%d,%d,0,,,,,,,,1000,800,,1000,0.1,0.1,,,,,,\n' "$t" "$off" "$off" "$a" >>"$tl"
	printf '%s,b,calibrate,0,%d,%d,%d,0,,,,,,,,1000,800,,1000,0.1,0.1,,,,,,\n' "$t" "$off" "$off" "$off" >>"$tl"
	printf '%s,_upstream,calibrate,0,,,,,,,,,,,,1000,800,,1000,%s,0,,,,,,\n' "$t" "$cpu_up" >>"$tl"
done
caps=$(calibrate_capacities "$tl")
check_eq "knee of a (last rate it kept up with)" 2000 "$(awk '$1 == "a" { print $2 }' <<<"$caps")"
check_eq "peak answered of a" 2000 "$(awk '$1 == "a" { print $3 }' <<<"$caps")"
check_eq "b kept up to the top of the ramp" 10000 "$(awk '$1 == "b" { print $2 }' <<<"$caps")"
check_eq "b still answering at the top" 1.000 "$(awk '$1 == "b" { print $4 }' <<<"$caps")"

# Events before the schedule starts wait for its origin and get negative t_s.
run=$TEST_TMP/run
mkdir -p "$run"
cp "$tl" "$run/timeline.csv"
runjson_init "$run/run.json" modules
events_init "$run/events.jsonl"
events_add glibc started pid=42
check_eq "nothing written before the origin" 0 "$(grep -c . "$run/events.jsonl")"
events_origin_set "$(awk -v n="$(sc_now)" 'BEGIN { printf "%.6f", n + 5 }')"
check "pending event written with a negative t_s" jq_true -s '.[0].t_s < -4 and .[0].pid == 42' "$run/events.jsonl"
events_push "$run/sub.jsonl"
events_add x ready 'addr="1.2.3.4:5"'
events_pop
check "pushed folder got its event" jq_true -s '.[0].addr == "1.2.3.4:5"' "$run/sub.jsonl"
events_add glibc exited code=0
check_eq "back to the first file" 2 "$(grep -c . "$run/events.jsonl")"

# The hierarchy at 95 % of a core and more for two seconds: one harness_saturated event.
harness_scan "$run"
check_eq "harness_saturated events" 1 "$(grep -c '"harness_saturated"' "$run/events.jsonl")"
check "event says 2 s" jq_true -s 'map(select(.event == "harness_saturated"))[0] | .duration_s == 2 and .variant == "_upstream"' "$run/events.jsonl"
check "CPU share recorded" jq_true '.parameters.harness_cpu._upstream.cpu_share_max > 0.9' "$run/run.json"

runjson_finish failed "because"
check "run.json finished" jq_true '.status == "failed" and .failure == "because" and .ended != null' "$run/run.json"
check "no temporary file left" test ! -e "$run/run.json.tmp"

# Warm-up: a cache at its cap is steady, one still filling is not.
wl=$TEST_TMP/warm
mkdir -p "$wl"
head -n 1 "$tl" >"$wl/timeline.csv"
for ((i = 1; i <= 50; i++)); do
	printf '%s,full,warmup,0,1,1,1,0,,,,,,,,1,1,,1,0,0,%d,%d,,,,\n' "$i" $((i * 10)) 1048576 >>"$wl/timeline.csv"
	printf '%s,filling,warmup,0,1,1,1,0,,,,,,,,1,1,,1,0,0,%d,%d,,,,\n' "$i" $((i * 100)) $((i * 1000)) >>"$wl/timeline.csv"
done
runjson_init "$wl/run.json" modules
events_init "$wl/events.jsonl"
events_origin_set "$(sc_now)"
OPT_cache_size=1M
warmup_check "$wl" 2>/dev/null
check "full cache is steady" jq_true '.warmup.full.steady == true' "$wl/run.json"
check "filling cache is not" jq_true '.warmup.filling.steady == false' "$wl/run.json"
check "warmup_not_steady event" grep -q '"variant": "filling", "event": "warmup_not_steady"' "$wl/events.jsonl"

# The variants table: a short row is reported with its file and line.
printf '# c\nname\tkind\tallocator\tlibc\tlibrary\tbase\tenv\tdefault\tnote\nx\tbuild\tglibc\n' >"$TEST_TMP/v.tsv"
err=$( (variants_load "$TEST_TMP/v.tsv") 2>&1)
check "short row named with file:line" grep -q "v.tsv:3: 3 columns" <<<"$err"
(variants_load "$ALLOCSPIKE_SOURCE_DIR/variants.tsv" && variants_select "" && echo "${SC_VARIANTS[*]}") >"$TEST_TMP/sel" 2>&1
check "the real table loads; default rows chosen" grep -q glibc "$TEST_TMP/sel"
finish
