#!/usr/bin/env bash
# tests/reports/test_report_spikes_left.sh - the verdict ranks what the spikes left behind, not the
# level an allocator started from; it describes the growth's shape (a step, then level) rather than
# one line; a variant under 95 % answered in one spike is marked and makes the run invalid.
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
source "$ALLOCSPIKE_SOURCE_DIR/tests/reports/crafted_timeline.sh"
REPORT=$ALLOCSPIKE_BIN/allocspike-report
[[ -x $REPORT ]] || skip "allocspike-report is not built"
command -v jq >/dev/null || skip "jq not installed"
j() { jq -c "$2" "$1/summary.json"; }

# One-second rows: baseline t=1, then six times spike k at t=2k, its recovery at t=2k+1. Live bytes
# are 8 MB outside the spikes (15 MB in them); held memory (heap - live) before the first spike and
# after each recovery is given in MB:
#   high     started high (10 MB), then +0.2 MB a spike or less (Theil-Sen from spike 2: 0.15):
#            the spikes left 1 MB
#   stepper  started at 1 MB, 2 after spike 1, stepped up 4.5 MB at spike 2, then +0.1 a spike

# held_run DIR NAME=ALLOCATOR=HELD... : a run folder of those variants; HELD is the held memory in MB
# before the first spike and after each of the six recoveries, space-separated.
held_run() {
	local dir=$1 spec variants=() held=()
	shift
	mkdir -p "$dir"
	: >"$dir/events.jsonl"
	for spec in "$@"; do
		variants+=("{\"name\": \"${spec%%=*}\", \"allocator\": \"$(cut -d= -f2 <<<"$spec")\"}")
		held+=("${spec%%=*}=${spec##*=}")
	done
	echo "{\"format\": 1, \"status\": \"completed\", \"variants\": [$(IFS=,; echo "${variants[*]}")]}" >"$dir/run.json"
	{
		crafted_header
		printf '%s\n' "${held[@]}" | awk -F= '{
			v = $1
			split($2, h, " ")
			printf "t_s=1 variant=%s phase=baseline spike=0 sent=100 answered=100 anon_kb=%d live_bytes=%d alloc_heap_bytes=%d\n",
				v, (8 + h[1] + 3) * 1024, 8 * 1048576, (8 + h[1]) * 1048576
			for (k = 1; k <= 6; k++) {
				printf "t_s=%d variant=%s phase=spike spike=%d sent=1000 answered=1000 anon_kb=%d live_bytes=%d alloc_heap_bytes=%d\n",
					2 * k, v, k, (30 + 3) * 1024, 15 * 1048576, 30 * 1048576
				printf "t_s=%d variant=%s phase=recovery spike=%d sent=100 answered=100 anon_kb=%d live_bytes=%d alloc_heap_bytes=%d\n",
					2 * k + 1, v, k, (8 + h[k + 1] + 3) * 1024, 8 * 1048576, (8 + h[k + 1]) * 1048576
			}
		}' | crafted_rows | sort -t, -k1,1n
	} >"$dir/timeline.csv"
}

d=$TEST_TMP/run
held_run "$d" "high=tcmalloc=10 10.2 10.4 10.6 10.8 10.9 11" "stepper=glibc=1 2 6.5 6.6 6.7 6.8 6.9"
check "report of the crafted run" "$REPORT" "$d"
check_eq "the ranking is on what the spikes left: high (1 MB) before stepper (5.9 MB)" \
	'[["high",1,10,11],["stepper",5.9,1,6.9]]' \
	"$(j "$d" '[.verdict.ranking[]|[.variant,(.spikes_left_mb*10|round/10),.held_before_spikes_mb,(.held_after_spikes_mb*10|round/10)]]')"
check_eq "per variant: the level before the spikes and what they left" '[1,5.9,"allocator_held"]' \
	"$(j "$d" '.variants.stepper|[.held_before_spikes_mb,(.spikes_left_mb*10|round/10),.spikes_left_basis]')"
check "the sentence gives what was left beside the level it started from" \
	grep -q 'high (tcmalloc): the spikes left +1.0 MB held by its allocator beyond live memory (from 10.0 MB before the first spike to 11.0 MB after the last recovery), the least of 2' \
	<(j "$d" '.verdict.sentences[0]')
check_eq "the shape: a step at spike 2, then a robust trend" '[2,4.5,0.1,"level"]' \
	"$(j "$d" '.variants.stepper.spikes_left_shape|[.step_spike,(.step_mb*10|round/10),(.trend_mb_per_spike*100|round/100),.trend]')"
check "a step then a plateau says so" grep -q 'stepper (glibc): .*; the first spike left +1.0 MB, spike 2 +4.5 MB, then level (+0.10 MB per spike)' \
	<(j "$d" '.verdict.sentences[1]')
check "no step: what the first spike left, then level" grep -q '; the first spike left +0.2 MB, then level (+0.15 MB per spike)' \
	<(j "$d" '.verdict.sentences[0]')
check "the page holds the sentences" grep -q 'spike 2 +4.5 MB, then level' "$d/summary.md"
# One per-spike rate per quantity: the peaks' rate is the trend the findings state; the old names
# are aliases of it, kept one release, and the page shows only the trend.
check_eq "the old names of the peaks' rates are their robust trends" true \
	"$(j "$d" '.variants.stepper|.peak_growth_mb_per_spike == .peaks_shape.trend_mb_per_spike and .peak_held_growth_mb_per_spike == .peaks_shape.held_trend_mb_per_spike and .peak_live_growth_mb_per_spike == .peaks_shape.live_trend_mb_per_spike and .peak_growth_mb_per_spike != null')"
list=$("$REPORT" check "$d" --list)
for a in peak_growth_mb_per_spike=trend_mb_per_spike peak_live_growth_mb_per_spike=live_trend_mb_per_spike \
	peak_held_growth_mb_per_spike=held_trend_mb_per_spike; do
	check "check --list marks ${a%%=*} an alias" grep -qx "# alias: ${a%%=*} = peaks_shape.${a#*=}" <<<"$list"
done
check "the page's figures show the peaks' trend" grep -qF '<td>peak trend (MB/spike, from spike 2)</td>' "$d/report.html"
check "and no second rate of the peaks" bash -c '! grep -qE "peak growth \(MB/spike|growth at peaks \(MB/spike" "$1"' _ "$d/report.html"

# Three spikes: too few for a trend, each spike's value shown instead.
few=$TEST_TMP/few
mkdir -p "$few"
cp "$d/run.json" "$d/events.jsonl" "$few/"
awk -F, 'NR == 1 || $4 <= 3' "$d/timeline.csv" >"$few/timeline.csv"
check "report of the three-spike run" "$REPORT" "$few"
check "too few spikes: what each left, no slope" \
	grep -q 'stepper (glibc): .*; 3 spikes, too few for a trend (5 or more): they left +1.0, +4.5 and +0.1 MB' \
	<(j "$few" '.verdict.sentences[1]')
check_eq "and no trend in summary.json" '[null,null]' "$(j "$few" '.variants.stepper.spikes_left_shape|[.trend_mb_per_spike,.trend]')"
check_eq "nor a per-spike rate of any quantity" '[null,null,null]' \
	"$(j "$few" '.variants.stepper|[.peak_growth_mb_per_spike,.recovery_held_growth_mb_per_spike,.peak_live_growth_mb_per_spike]')"

# One spike under 95 % answered (by send phase, phases.csv), 99 % over all spikes: marked in the
# verdict and a validity reason that fails the gate.
# phases_run DIR [VARIANT:SPIKE=ANSWERED...] : DIR, the run of $d with a phases.csv: high and
# stepper sent 1000 queries in each of the six spikes and answered all, but where a word says.
phases_run() {
	local dir=$1 v k a w
	shift
	mkdir -p "$dir"
	cp "$d/run.json" "$d/events.jsonl" "$d/timeline.csv" "$dir/"
	{
		echo "variant,phase,spike,sent,answered,timeouts,pending,late_or_foreign,noerror,nxdomain,servfail,rcode_other,lat_p50_ms,lat_p90_ms,lat_p99_ms,lat_p999_ms,lat_max_ms"
		for v in high stepper; do
			echo "$v,baseline,0,100,100,0,0,0,100,0,0,0,1,2,3,4,5"
			for k in 1 2 3 4 5 6; do
				a=1000
				for w; do [[ ${w%%=*} != "$v:$k" ]] || a=${w#*=}; done
				echo "$v,spike,$k,1000,$a,$((1000 - a)),0,0,$a,0,0,0,1,2,3,4,5"
				echo "$v,recovery,$k,100,100,0,0,0,100,0,0,0,1,2,3,4,5"
			done
		done
	} >"$dir/phases.csv"
}

cap=$TEST_TMP/capacity
phases_run "$cap" high:3=940
check "report of the run with one spike over capacity" "$REPORT" "$cap"
check_eq "over all spikes it answered 99 %" 0.99 "$(j "$cap" '.variants.high.traffic_by_send.phases.spike.answered_share')"
check_eq "the reason names the variant and the spike" '[["high"],{"high":[{"answered_share":0.94,"spike":3}]}]' \
	"$(j "$cap" '.validity.reasons[]|select(.code == "spike_under_answered")|[.variants,.spikes]')"
check_eq "the run is not valid" false "$(j "$cap" .validity.valid)"
"$REPORT" check "$cap" --fail-if 'not validity.valid' >/dev/null 2>&1
check_eq "check --fail-if 'not validity.valid' fails" 1 "$?"
check "the page says which variants the run is valid for, in amber" grep -qF \
	'<p class="amber" id="validity-variants">Per variant: valid for stepper; high over its capacity.</p>' "$cap/report.html"
check "summary.md says it as a warning" bash -c "grep -A1 -xF '> [!WARNING]' '$cap/summary.md' |
	grep -qxF '> Per variant: valid for stepper; high over its capacity.'"
check "the verdict marks the variant and the spike" grep -q '^"high (tcmalloc): .*; over capacity in spike 3 (94.0 % answered)' \
	<(j "$cap" '.verdict.sentences[0]')
check "not the variant that answered every spike" bash -c "! jq -r '.verdict.sentences[1]' '$cap/summary.json' | grep -q 'over capacity'"
# A spike every variant lost together (both under 95 % in spike 4), beside one only high lost
# (spike 3): spike 4 is the machine's, said once for the run; spike 3 stays high's own.
mach=$TEST_TMP/machine
phases_run "$mach" high:3=940 high:4=900 stepper:4=930
check "report of the run with a spike every variant lost" "$REPORT" "$mach"
check_eq "lost by all: both variants, spike 4 each" \
	'[["high","stepper"],{"high":[{"answered_share":0.9,"spike":4}],"stepper":[{"answered_share":0.93,"spike":4}]}]' \
	"$(j "$mach" '.validity.reasons[]|select(.code == "spikes_lost_by_all")|[.variants,.spikes]')"
check "lost by all: said once, as the machine's" grep -q '^"Every variant answered under 95 % of the queries sent in spike 4 (90.0-93.0 % answered): running side by side they fell behind together' \
	<(j "$mach" '[.validity.reasons[]|select(.code == "spikes_lost_by_all")|.text][0]')
check_eq "over its capacity: high in spike 3 only" '[["high"],{"high":[{"answered_share":0.94,"spike":3}]}]' \
	"$(j "$mach" '.validity.reasons[]|select(.code == "spike_under_answered")|[.variants,.spikes]')"
check "high's verdict: over capacity in spike 3, not 4" grep -q '; over capacity in spike 3 (94.0 % answered);' \
	<(j "$mach" '.verdict.sentences[0]')
check "stepper's verdict: not over capacity" bash -c "! jq -r '.verdict.sentences[1]' '$mach/summary.json' | grep -q 'over capacity'"
check "the per-variant words" grep -qF 'valid for no variant; high behind with the machine, over its capacity; stepper behind with the machine' \
	<(j "$mach" '.validity.variants_text')
check "every number true" python3 "$ALLOCSPIKE_SOURCE_DIR/tests/reports/truth_check.py" "$mach"
# In a serial run the variants ran spike 4 apart: each lost it on its own.
jq '.parameters.mode = "serial"' "$mach/run.json" >"$mach/run.json.new" && mv "$mach/run.json.new" "$mach/run.json"
check "report of the same run, serial" "$REPORT" "$mach"
check_eq "serial: no spike lost by all" 0 "$(j "$mach" '[.validity.reasons[]|select(.code == "spikes_lost_by_all")]|length')"
check_eq "serial: spike 4 each variant's own" '{"high":[3,4],"stepper":[4]}' \
	"$(j "$mach" '.validity.reasons[]|select(.code == "spike_under_answered")|.spikes|map_values(map(.spike))')"
# Side by side again (the fixture's run.json names no mode: a run that does not say ran so), and
# high keeps up in spike 3: one reason for every variant, said once.
phases_run "$mach" high:4=900 stepper:4=930
check "report of the run only the machine fell behind in" "$REPORT" "$mach"
check_eq "the per-variant words, once for all" '"valid for no variant; every variant behind with the machine"' \
	"$(j "$mach" '.validity.variants_text')"
check "every number true there too" python3 "$ALLOCSPIKE_SOURCE_DIR/tests/reports/truth_check.py" "$mach"

# Ties: an order inside the run-to-run spread (within 10 %, or 1 MB: reports/spread.h) is noise,
# so variants that close share their place. a and b left 1.0 and 1.6 MB, c 5.9.
ties=$TEST_TMP/ties
held_run "$ties" "a=jemalloc=1 1.2 1.4 1.6 1.8 1.9 2" "b=mallocng=1 1.2 1.4 1.6 1.8 2.2 2.6" \
	"c=glibc=1 2 6.5 6.6 6.7 6.8 6.9"
check "report of the run with a tie" "$REPORT" "$ties"
check_eq "a and b share the first place, c is third" '[["a",1],["b",1],["c",3]]' \
	"$(j "$ties" '[.verdict.ranking[]|[.variant,.place]]')"
check "a's sentence: the least, tied with b" grep -q 'a (jemalloc): .*, the least of 3, tied with b (no difference beyond the run-to-run spread, 10 % or 1 MB)' \
	<(j "$ties" '.verdict.sentences[0]')
check "b's sentence: the least too, tied with a" grep -q 'b (mallocng): .*, the least of 3, tied with a (' \
	<(j "$ties" '.verdict.sentences[1]')
check "c's sentence: the most, no tie" bash -c "grep -q 'c (glibc): .*, the most of 3;' <(jq -c '.verdict.sentences[2]' '$ties/summary.json') && ! grep -q tied <(jq -c '.verdict.sentences[2]' '$ties/summary.json')"

# Ties are pairwise, not chained from a group's first: a, b and c left 0.0, 0.6 and 1.2 MB; a and
# c are apart beyond the rule, b within it of both. Chained, b read "the least" and c "the most"
# 0.6 MB apart; now c's place counts only a, the one clearly below it.
chain=$TEST_TMP/chain
held_run "$chain" "a=jemalloc=1 1 1 1 1 1 1" "b=mallocng=1 1.1 1.2 1.3 1.4 1.5 1.6" \
	"c=glibc=1 1.2 1.4 1.6 1.8 2 2.2"
check "report of the run with a chain of ties" "$REPORT" "$chain"
check_eq "a and b first, c second (only a is clearly below it)" '[["a",1],["b",1],["c",2]]' \
	"$(j "$chain" '[.verdict.ranking[]|[.variant,.place]]')"
check "b is tied with a and c" grep -q 'b (mallocng): .*, the least of 3, tied with a and c (' \
	<(j "$chain" '.verdict.sentences[1]')
check "c is 2nd, tied with b only" grep -q 'c (glibc): .*, 2nd from the least of 3, tied with b (' \
	<(j "$chain" '.verdict.sentences[2]')
check "nobody reads 'the most' 0.6 MB from 'the least'" bash -c "! jq -r '.verdict.sentences[]' '$chain/summary.json' | grep -q 'the most'"

# Given back per spike, not a mean no spike had: keeper's first spike leaves 11 MB of its 22 MB
# part, the five after it give back nearly all of theirs.
keep=$TEST_TMP/keeper
held_run "$keep" "keeper=glibc=1 12 12.2 12.4 12.5 12.6 12.7"
check "report of the keeper run" "$REPORT" "$keep"
check "the sentence counts the spikes that gave back, with their range" \
	grep -q '; its allocator gave back to the system what a spike freed in 5 of 6 spikes (48-99 % of each spike.s allocator part)' \
	<(j "$keep" '.verdict.sentences[0]')

finish
