#!/bin/bash
# tests/scenarios/modules.sh - the scenario modules on crafted input, no program but allocspike-report
# (which does the analysis) and the run's controller (which writes the events): durations and sizes, the calibration's knee and its
# extension past --calibrate-max, the harness and warm-up checks, events on the generator's clock,
# run.json updates, the variants table's errors.
set -uo pipefail
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
source "$ALLOCSPIKE_SOURCE_DIR/tests/scenarios/scenario_lib.sh"
source "$ALLOCSPIKE_SOURCE_DIR/tests/reports/crafted_timeline.sh"
SC_PROG=modules
source "$ALLOCSPIKE_SOURCE_DIR/scenarios/lib/experiment.sh"
opts_defaults
[[ -x $ALLOCSPIKE_BIN/allocspike-report && -x $ALLOCSPIKE_BIN/allocspike-loadgen ]] || skip "allocspike-report or allocspike-loadgen is not built yet"
[[ -x $ALLOCSPIKE_BIN/allocspike-run ]] || skip "allocspike-run is not built yet (it writes the events)"
# The run's controller, which writes the events, serves the whole test.
pr=$TEST_TMP/procs
served_begin modules "$pr" # its messages in TEST_TMP/controller.err

check_eq "query-file size rounds up" 300000 "$(schedule_round_count 200001)"
check_eq "query-file size at most 2 million" 2000000 "$(schedule_round_count 9000000)"
check_eq "spike schedule" "warmup:60s@600,baseline:20s@300,8*(spike:20s@3000,recovery:40s@300)" "$(schedule_make spike 3000)"
check_eq "queries of that schedule" $((60 * 600 + 20 * 300 + 8 * (20 * 3000 + 40 * 300))) "$(schedule_make spike 3000 --count)"
check_eq "its length" $((60 + 20 + 8 * (20 + 40))) "$(schedule_make spike 3000 --seconds)"
saved=$OPTS_JSON
OPTS_JSON=$(jq -c '.warmup_rate = "700" | .clients = "1" | .spike_clients = "900"' <<<"$OPTS_JSON")
check_eq "the schedule is made from the run's options (warm-up rate, a connection spike)" \
	"warmup:60s@700,baseline:20s@300,8*(spike:20s@3000/clients=900,recovery:40s@300)" "$(schedule_make spike 3000)"
OPTS_JSON=$saved
check_eq "the calibration ramp" "calibrate:20s@300..6000" "$(schedule_make calibrate 6000)"
check_eq "a spike run with auto: its schedules at --calibrate-max plus the overhead, then the ramp" \
	"$((60 + 20 + 8 * (20 + 40) + 35 + 20)) 20" "$(schedule_make --spike-expected)"
check_eq "its file holds the highest spike 3 extensions can ask (6000 x 8 x 0.8)" \
	$((60 * 600 + 20 * 300 + 8 * (20 * 38400 + 40 * 300))) "$(schedule_make --spike-queries 3)"
check "an unknown schedule is refused" bash -c '! "$0" schedule --options "{}" bogus 1 2>/dev/null' "$OPTS_RUN"

# A ramp over 10 one-second windows: a keeps up to 2000 qps then answers 1500, b keeps up throughout.
tl=$TEST_TMP/timeline.csv
crafted_header >"$tl"
for ((i = 1; i <= 100; i++)); do
	printf -v t '%d.%d' $((i / 10)) $((i % 10))
	w=$(((i - 1) / 10))
	off=$((100 * (w + 1)))                                # per 100 ms: 1000..10000 qps over the ramp
	a=$off
	((off <= 200)) || a=150
	cpu_up=0 # 0.95 of a core from t=5 to t=7
	((i <= 50 || i > 70)) || printf -v cpu_up '%d.%03d' $(((i - 50) * 95 / 1000)) $(((i - 50) * 95 % 1000))
	for v in a b; do
		echo "t_s=$t variant=$v phase=calibrate spike=0 offered=$off sent=$off answered=$([[ $v == a ]] && echo "$a" || echo "$off") timeouts=0 rss_kb=1000 anon_kb=800 hwm_kb=1000 cpu_user_s=0.1 cpu_sys_s=0.1"
	done
	echo "t_s=$t variant=_upstream phase=calibrate spike=0 rss_kb=1000 anon_kb=800 hwm_kb=1000 cpu_user_s=$cpu_up cpu_sys_s=0"
done | crafted_rows >>"$tl"
caps=$("$ALLOCSPIKE_BIN/allocspike-report" knee "$TEST_TMP")
check_eq "knee of a (last rate it kept up with)" 2000 "$(jq '.variants[] | select(.variant == "a") | .capacity_qps' <<<"$caps")"
check_eq "peak answered of a" 2000 "$(jq '.variants[] | select(.variant == "a") | .peak_answered_qps' <<<"$caps")"
check_eq "b kept up to the top of the ramp" 10000 "$(jq '.variants[] | select(.variant == "b") | .capacity_qps' <<<"$caps")"
check_eq "b still answering at the top" true "$(jq '.variants[] | select(.variant == "b") | .still_answering_at_top' <<<"$caps")"

# Events before the schedule starts wait for its origin and get negative t_s.
run=$TEST_TMP/run
mkdir -p "$run"
cp "$tl" "$run/timeline.csv"
procs_ask runjson "$run/run.json" modules
procs_ask events "$run/events.jsonl"
procs_ask event glibc started pid:=42
check_eq "nothing written before the origin" 0 "$(grep -c . "$run/events.jsonl")"
procs_ask origin "$(awk -v n="${EPOCHREALTIME/,/.}" 'BEGIN { printf "%.6f", n + 5 }')"
check "pending event written with a negative t_s" jq_true -s '.[0].t_s < -4 and .[0].pid == 42' "$run/events.jsonl"
events_push "$run/sub.jsonl"
procs_ask event x ready 'addr=1.2.3.4:5'
events_pop
check "pushed folder got its event" jq_true -s '.[0].addr == "1.2.3.4:5"' "$run/sub.jsonl"
procs_ask event glibc exited code:=0
check_eq "back to the first file" 2 "$(grep -c . "$run/events.jsonl")"

# The hierarchy at 95 % of a core and more for two seconds: one harness_saturated event.
procs_ask harness-scan "$run" "$ALLOCSPIKE_BIN/allocspike-report"
check_eq "harness_saturated events" 1 "$(grep -c '"harness_saturated"' "$run/events.jsonl")"
check "event says 2 s" jq_true -s 'map(select(.event == "harness_saturated"))[0] | .duration_s == 2 and .variant == "_upstream"' "$run/events.jsonl"
check "CPU share recorded" jq_true '.parameters.harness_cpu._upstream.cpu_share_max > 0.9' "$run/run.json"

# The hierarchy's world: internet (the default) sets its own latency and loss; lan is given ours, and
# an option given explicitly is passed in any world; one argument a line (hierarchy-argv, the
# controller's builder of the start). run.json records null where the world set it.
hier_world() {
	"$OPTS_RUN" hierarchy-argv --options "$OPTS_JSON" --given "$(hierarchy_given)" --upstream UP \
		--dir RUN --ctl /CTL | sed -n '/^--world$/,$p' | paste -sd "|"
}
hier_params() { "$OPTS_RUN" hierarchy-argv --options "$OPTS_JSON" --given "$(hierarchy_given)" --parameters; }
check_eq "default world: only --world" "--world|internet" "$(hier_world)"
check "run.json's parameters: world, and null latency and loss" jq_true \
	'.world == "internet" and .latency_ms_median == null and .loss == null' <(hier_params)
check_eq "lan: its latency and loss" "--world|lan|--latency-ms|20,200|--loss|0.03" "$(opts_defaults --world lan && hier_world)"
check "run.json's parameters: lan's latency and loss" jq_true \
	'.latency_ms_median == 20 and .latency_ms_p99 == 200 and .loss == 0.03' <(opts_defaults --world lan && hier_params)
check_eq "internet with --loss 0" "--world|internet|--no-loss" "$(opts_defaults --loss 0 && hier_world)"

procs_ask runjson-finish failed "because"
check "run.json finished" jq_true '.status == "failed" and .failure == "because" and .ended != null' "$run/run.json"
check "no temporary file left" test ! -e "$run/run.json.tmp"

# Warm-up: a cache at its cap is steady, one still filling is not.
wl=$TEST_TMP/warm
mkdir -p "$wl"
crafted_header >"$wl/timeline.csv"
for ((i = 1; i <= 50; i++)); do
	echo "t_s=$i variant=full phase=warmup spike=0 offered=1 answered=1 anon_kb=1 cache_entries=$((i * 10)) cache_bytes=1048576"
	echo "t_s=$i variant=filling phase=warmup spike=0 offered=1 answered=1 anon_kb=1 cache_entries=$((i * 100)) cache_bytes=$((i * 1000))"
done | crafted_rows >>"$wl/timeline.csv"
procs_ask runjson "$wl/run.json" modules
procs_ask events "$wl/events.jsonl"
procs_ask origin "${EPOCHREALTIME/,/.}"
procs_ask runjson-fields .parameters.resolver cache_size_bytes:=1048576
procs_ask warmup-check "$wl" >/dev/null
check "full cache is steady" jq_true '.warmup.full.steady == true' "$wl/run.json"
check "filling cache is not" jq_true '.warmup.filling.steady == false' "$wl/run.json"
check "warmup_not_steady event" grep -q '"variant": "filling", "event": "warmup_not_steady"' "$wl/events.jsonl"

# The variants table: a short row is reported with its file and line.
printf '# c\nname\tkind\tallocator\tlibc\tlibrary\tbase\tenv\tdefault\tnote\nx\tbuild\tglibc\n' >"$TEST_TMP/v.tsv"
err=$( (variants_load "$TEST_TMP/v.tsv") 2>&1)
check "short row named with file:line" grep -q "v.tsv:3: 3 columns" <<<"$err"
(variants_load "$ALLOCSPIKE_SOURCE_DIR/variants.tsv" && variants_select "" && echo "${SC_VARIANTS[*]}") >"$TEST_TMP/sel" 2>&1
check "the real table loads; default rows chosen" grep -q glibc "$TEST_TMP/sel"
# Events with names and values holding quotes, backslashes and newlines stay one valid line each.
ev=$TEST_TMP/escape
mkdir -p "$ev"
procs_ask events "$ev/events.jsonl"
odd=$'say "hi"\\ and\nbye\ttab'
procs_ask event 'v"1\' failed "reason=$odd" 'count:=3' 'list:=["a"]'
procs_ask origin "${EPOCHREALTIME/,/.}"
procs_ask event 'v"1\' ready "addr=$odd"
check_eq "two lines" 2 "$(wc -l <"$ev/events.jsonl")"
check "every line parses" jq_true -s 'length == 2' "$ev/events.jsonl"
check "the pending one got t_s first" jq_true -s '.[0] | keys_unsorted[0] == "t_s" and .t_s <= 0' "$ev/events.jsonl"
check_eq "variant read back" 'v"1\' "$(jq -rs '.[0].variant' "$ev/events.jsonl")"
check_eq "reason read back" "$odd" "$(jq -rs '.[0].reason' "$ev/events.jsonl")"
check_eq "addr read back" "$odd" "$(jq -rs '.[1].addr' "$ev/events.jsonl")"
check "KEY:=JSON stays a value" jq_true -s '.[0].count == 3 and .[0].list == ["a"]' "$ev/events.jsonl"
check "a bad KEY:=JSON is refused" bash -c '! "$1" event v e "n:=not json" 2>/dev/null' _ "$ALLOCSPIKE_BIN/allocspike-report"
check "a reserved key is refused" bash -c '! "$1" event v e "t_s=1" 2>/dev/null' _ "$ALLOCSPIKE_BIN/allocspike-report"

# Calibration past --calibrate-max: the controller's `calibrate` drives stand-in rows, its
# generator a stand-in writing the ramp that a variant of the given capacity gives (all answered up
# to it, 8 % of it above). Fast (15000 qps) and faster (40000 qps): the ramp is extended (6000,
# 12000, 24000) until fast stops keeping up.
stand=$TEST_TMP/stand
mkdir -p "$stand/bin"
stand_in_ramp_loadgen "$stand/bin/lg"
printf '%s\n' fast=15000 faster=40000 >"$stand/capacities"
# calrun DIR : a run.json and events in DIR, the run's options (the ramp's schedule is made from
# them) and the rows in it.
calrun() {
	mkdir -p "$1"
	procs_ask runjson "$1/run.json" modules
	procs_ask events "$1/events.jsonl"
	procs_ask runjson-set .parameters.options "$OPTS_JSON"
	procs_ask runjson-set .variants '[{"name":"fast"},{"name":"faster"}]'
}
cr=$TEST_TMP/calrun
calrun "$cr"
standin_calibrate "$cr" "$stand" "$stand/bin/lg" "$stand/queries" fast faster 2>"$TEST_TMP/cal.err"
knee=$(jq '.calibration.capacity_of_slowest_qps' "$cr/run.json")
check "knee found above 6000, past the first extension (12000) and at most 15000: $knee" test "$knee" -gt 12000 -a "$knee" -le 15000
check_eq "slowest" fast "$(jq -r .calibration.slowest "$cr/run.json")"
check_eq "ramps: 6000, then 12000 and 24000" "6000 12000 24000" "$(sed 's/.*\.\.//' "$stand/schedules" | tr '\n' ' ' | sed 's/ $//')"
check_eq "passes recorded" '["calibration","calibration/extend-1","calibration/extend-2"]' "$(jq -c '[.calibration.passes[].folder]' "$cr/run.json")"
check_eq "spikes at the knee x 1.2" "$(awk -v k="$knee" 'BEGIN { printf "%d", k * 1.2 }')" "${CALIBRATED:-}"
check "each pass kept its folder" test -s "$cr/calibration/extend-2/timeline.csv"
# Bounded: a variant that never stops keeping up ends after 3 extensions (the spike steps').
: >"$stand/schedules"
printf '%s\n' fast=10000000 faster=10000000 >"$stand/capacities"
cr2=$TEST_TMP/calrun2
calrun "$cr2"
standin_calibrate "$cr2" "$stand" "$stand/bin/lg" "$stand/queries" fast faster 2>"$TEST_TMP/cal2.err"
check_eq "at most 1 + 3 extensions ramps" 4 "$(wc -l <"$stand/schedules")"
check "said so (by the run's controller)" grep -q "capacity is at least" "$TEST_TMP/controller.err"
# The script's own line in processes.tsv carries its start time, so a later run sees it running and
# leaves it alone (a start time of another process made later runs kill live ones).
read -r _ spid sstart < <(awk -F'\t' '$1 == "_scenario"' "$pr/processes.tsv")
check_eq "the script's pid" "$BASHPID" "$spid"
check_eq "its start time: a later run takes it for running" "$(start_ticks "$spid")" "$sstart"

# Our resolver's row in run.json: the overload policy the run's options give it (here the kresd
# layout's), as its --version --json states it, and the launched command runs with the same one.
resolver_row=$(scenario_built_variants 1)
if [[ -n $resolver_row ]]; then
	ov=$TEST_TMP/overload
	mkdir -p "$ov/logs"
	procs_ask runjson "$ov/run.json" modules
	procs_ask events "$ov/events.jsonl"
	settings=(--cache-size "$OPT_cache_size_bytes" --max-inflight "$OPT_max_inflight" --memory-layout kresd)
	sources=("$ALLOCSPIKE_SOURCE_DIR/variants.tsv" "$ALLOCSPIKE_BIN" "$ALLOCSPIKE_SOURCE_DIR/scenarios/daemons")
	procs_ask rows-check "${sources[@]}" "$resolver_row" -- "${settings[@]}" >/dev/null
	recorded=$(jq -c '.variants[0].version.overload' "$ov/run.json")
	check_eq "run.json: the kresd layout's policy, no list" \
		'{"jostle_timeout_ms":null,"policy":"kresd","request_list":null}' "$recorded"
	check_eq "the fixture's row has the same keys" "$(jq -c 'keys' <<<"$recorded")" \
		"$(jq -c '.variants[0].version.overload | keys' "$ALLOCSPIKE_SOURCE_DIR/tests/fixtures/run-minimal/run.json")"
	# the command row-start starts, from the same builder (allocspike-run row-command)
	words=("${sources[@]}" "$resolver_row" "$ov/hints" 53 "" -- "${settings[@]}")
	mapfile -t argv < <("$OPTS_RUN" row-command "$resolver_row" "$ov" "$ov" "${words[@]}")
	check_eq "the launched command's policy is the recorded one" "$recorded" \
		"$("${argv[@]}" --version --json | jq -c .overload)"
else
	echo "note: no resolver built, its run.json row not checked"
fi
served_end
finish
