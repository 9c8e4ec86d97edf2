#!/bin/bash
# tests/reports/analysis.sh - allocspike-report's run-folder analysis on crafted timelines: the knee of a
# calibration ramp (a dip of one second is not capacity, the drain after the ramp is not part of it, a
# variant that never keeps up falls back to its peak), the calibration's decision over its passes, the
# harness windows and the one saturation
# rule, the warm-up check (also for a daemon without cache figures), and bad arguments (exit 2).
set -uo pipefail
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
source "$ALLOCSPIKE_SOURCE_DIR/tests/reports/crafted_timeline.sh"
R=$ALLOCSPIKE_BIN/allocspike-report
[[ -x $R ]] || skip "allocspike-report is not built yet"

# --- knee: 1 s windows of ten 100 ms rows; the rate rises 1000 qps a second up to 8000 ---
k=$TEST_TMP/knee
mkdir -p "$k"
crafted_header >"$k/timeline.csv"
{
	for ((i = 1; i <= 80; i++)); do
		t=$((i / 10)).$((i % 10))
		w=$(((i - 1) / 10))
		off=$((100 * (w + 1)))
		# steady: keeps up to 5000 qps, then answers 300 per row (3000 qps).
		steady=$off
		((off <= 500)) || steady=300
		# dip: one bad second at 3000 qps (window 2), else keeps up to 6000 qps.
		dip=$off
		((w != 2)) || dip=$((off / 2))
		((off <= 600)) || dip=100
		echo "t_s=$t variant=steady phase=calibrate offered=$off answered=$steady"
		echo "t_s=$t variant=dip phase=calibrate offered=$off answered=$dip"
		echo "t_s=$t variant=cold phase=calibrate offered=$off answered=$((off / 2))"
		echo "t_s=$t variant=_loadgen phase=calibrate cpu_user_s=0"
	done
	# The drain after the schedule: offered 0, late answers; not part of the ramp.
	for ((i = 81; i <= 90; i++)); do
		echo "t_s=$((i / 10)).$((i % 10)) variant=steady phase=calibrate offered=0 answered=900"
	done
} | crafted_rows >>"$k/timeline.csv"
out=$("$R" knee "$k")
check_eq "knee exits 0" 0 $?
v() { jq -r --arg v "$1" ".variants[] | select(.variant == \$v) | .$2" <<<"$out"; }
check_eq "variants in order, no harness row" "steady dip cold" "$(jq -r '[.variants[].variant] | join(" ")' <<<"$out")"
check_eq "steady: knee 5000" 5000 "$(v steady capacity_qps)"
check_eq "steady: peak answered, the drain's burst left out" 5000 "$(v steady peak_answered_qps)"
check_eq "steady: the top is the last window that offered (8000)" 8000 "$(v steady top_offered_qps)"
check_eq "steady: share at the top" 0.375 "$(v steady top_answered_share)"
check_eq "steady: not answering at the top" false "$(v steady still_answering_at_top)"
check_eq "dip: a second after a bad one does not count, later ones do" 6000 "$(v dip capacity_qps)"
check_eq "cold: no knee" 0 "$(v cold knee_qps)"
check_eq "cold: capacity falls back to its peak" 4000 "$(v cold capacity_qps)"
check_eq "cold: the fallback is said" true "$(v cold fallback)"
check_eq "the rule's share" 0.9 "$(jq .answered_share <<<"$out")"

# --- calibration: the decision over the passes (the knee folder as the first pass, then again as a
# second: the best capacity of both, the latest pass's folder) ---
cal=$TEST_TMP/calrun
mkdir -p "$cal/calibration/extend-1"
cp "$k/timeline.csv" "$cal/calibration/"
out=$("$R" calibration "$cal" --multiple 1.2 --extensions 3)
check_eq "calibration exits 0" 0 $?
check_eq "the slowest: cold, by its fallback capacity" "cold 4000" "$(jq -r '"\(.slowest) \(.capacity_of_slowest_qps)"' <<<"$out")"
check_eq "spikes at 1.2 x 4000" 4800 "$(jq .spike_rate_qps <<<"$out")"
check_eq "cold's capacity is a fallback" '["cold"]' "$(jq -c .fallbacks <<<"$out")"
check_eq "no ramp again: the slowest did not keep up at the top" "false false" "$(jq -r '"\(.extend) \(.at_extension_limit)"' <<<"$out")"
cp "$k/timeline.csv" "$cal/calibration/extend-1/"
out=$("$R" calibration "$cal" --multiple 1.2 --extensions 3)
check_eq "two passes, the folder the latest" "2 calibration/extend-1" "$(jq -r '"\(.passes) \(.variants.dip.folder)"' <<<"$out")"
check_eq "dip's capacity kept" 6000 "$(jq .variants.dip.capacity_qps <<<"$out")"
"$R" calibration "$TEST_TMP/none" --multiple 1.2 --extensions 3 >/dev/null 2>"$TEST_TMP/err"
check_eq "calibration of a run without passes: unreadable input" 2 $?
check "says no variant was sampled" grep -q "no variant was sampled" "$TEST_TMP/err"
"$R" calibration "$cal" --multiple 0 --extensions 3 >/dev/null 2>&1
check_eq "calibration with --multiple 0: usage" 2 $?

# --- harness: _upstream at 0.6 core for 3 s (saturated by the one rule: > 0.5), at 0.45 for 2 s
# (not); _loadgen at 0.9 (its own events come from the generator, none here); a clock restart. ---
h=$TEST_TMP/harness
mkdir -p "$h"
crafted_header >"$h/timeline.csv"
{
	cu=0 cl=0 # CPU in ms
	for ((i = 1; i <= 100; i++)); do
		t=$((i / 10)).$((i % 10))
		if ((i > 20 && i <= 50)); then d=60; elif ((i > 60 && i <= 80)); then d=45; else d=10; fi
		cu=$((cu + d)) cl=$((cl + 90))
		printf 't_s=%s variant=_upstream phase=baseline cpu_user_s=%d.%03d cpu_sys_s=0\n' "$t" $((cu / 1000)) $((cu % 1000))
		printf 't_s=%s variant=_loadgen phase=baseline cpu_user_s=%d.%03d cpu_sys_s=0\n' "$t" $((cl / 1000)) $((cl % 1000))
		echo "t_s=$t variant=glibc phase=baseline cpu_user_s=5 cpu_sys_s=0"
	done
} | crafted_rows >>"$h/timeline.csv"
out=$("$R" harness "$h")
check_eq "harness exits 0" 0 $?
check_eq "one stretch" 1 "$(jq '.saturated | length' <<<"$out")"
check_eq "from window 2 for 3 s" "2 3 _upstream harness_saturated" \
	"$(jq -r '.saturated[0] | "\(.t_s) \(.duration_s) \(.variant) \(.event)"' <<<"$out")"
check_eq "its share" 0.6 "$(jq '.saturated[0].cpu_share' <<<"$out")"
check_eq "the generator's max share" 0.9 "$(jq '.cpu._loadgen.cpu_share_max' <<<"$out")"
check_eq "no variant in cpu" null "$(jq '.cpu.glibc' <<<"$out")"
check_eq "threshold = the report's" 0.5 "$(jq .threshold_cores <<<"$out")"

# --- warm-up: our build (cache figures), a daemon with entries only, one with neither ---
wu=$TEST_TMP/warm
mkdir -p "$wu"
crafted_header >"$wu/timeline.csv"
{
	for ((i = 1; i <= 50; i++)); do
		echo "t_s=$i variant=build phase=warmup cache_entries=$((1000 + i)) cache_bytes=$((i * 1000)) anon_kb=5000"
		echo "t_s=$i variant=kresd phase=warmup cache_entries=$((i * 100)) anon_kb=9000"
		echo "t_s=$i variant=bare phase=warmup anon_kb=$((9000 + i))"
		echo "t_s=$i variant=_upstream phase=warmup anon_kb=100"
	done
	echo "t_s=51 variant=bare phase=baseline anon_kb=99999"
} | crafted_rows >>"$wu/timeline.csv"
out=$("$R" warmup "$wu" --cap-bytes 1048576)
check_eq "warmup exits 0" 0 $?
check_eq "three variants" "bare build kresd" "$(jq -r 'keys | join(" ")' <<<"$out")"
check_eq "build: entries stopped growing, steady" true "$(jq .build.steady <<<"$out")"
check_eq "build: share of cap" "0.0477" "$(jq '.build.share_of_cap * 10000 | round / 10000' <<<"$out")"
check_eq "kresd: entries still growing" false "$(jq .kresd.steady <<<"$out")"
check_eq "kresd: no bytes, no share" "null null" "$(jq -r '"\(.kresd.cache_bytes_end) \(.kresd.share_of_cap)"' <<<"$out")"
check_eq "bare: judged on anon_kb, warm-up rows only" "anon_kb true" "$(jq -r '"\(.bare.growth_basis) \(.bare.steady)"' <<<"$out")"

# --- bad input ---
"$R" knee >/dev/null 2>&1
check_eq "knee without a folder: usage" 2 $?
"$R" warmup "$wu" --cap-bytes lots >/dev/null 2>&1
check_eq "warmup with a bad cap: usage" 2 $?
"$R" knee "$TEST_TMP/none" >/dev/null 2>"$TEST_TMP/err"
check_eq "knee of a missing folder: unreadable input" 2 $?
check "names the file" grep -q "none/timeline.csv" "$TEST_TMP/err"
"$R" event v e "bad" >/dev/null 2>&1
check_eq "event field without =: usage" 2 $?
finish
