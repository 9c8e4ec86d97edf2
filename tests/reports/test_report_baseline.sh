#!/usr/bin/env bash
# tests/reports/test_report_baseline.sh - new runs against a baseline (docs/compare.md): `compare
# --baseline` marks a difference inside the run-to-run spread "no change" and names the others;
# `check --baseline` reads baseline.NAME of the baseline run; `check` shows each condition with its
# values and PASS/FAIL, writes JUnit XML, and fails on a figure that is n/a unless --allow-missing.
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
source "$ALLOCSPIKE_SOURCE_DIR/tests/reports/known_run.sh"
source "$ALLOCSPIKE_SOURCE_DIR/tests/reports/expect.sh"
REPORT=$ALLOCSPIKE_BIN/allocspike-report
[[ -x $REPORT ]] || skip "allocspike-report is not built"
fix=$ALLOCSPIKE_SOURCE_DIR/tests/fixtures/run-minimal

# changed_run DIR AWK_CONDITION KB FACTOR : the fixture with glibc's anon_kb, on the rows where the
# condition holds, times FACTOR plus KB.
changed_run() {
	cp -r "$fix" "$1"
	awk -F, -v OFS=, -v kb="$3" -v f="$4" '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print; next }
		$c["variant"] == "glibc" && ('"$2"') { $c["anon_kb"] = sprintf("%.0f", $c["anon_kb"] * f + kb) }
		{ print }' "$fix/timeline.csv" >"$1/timeline.csv"
}
# glibc holds 3 MB more after its spike (its recovery rows): held after and left behind +3 MB
changed_run "$TEST_TMP/grown" '$c["phase"] == "recovery"' 3072 1
# glibc's memory 2 % higher on every row: inside the agreement rule (10 %, or 1 MB)
changed_run "$TEST_TMP/noise" 1 0 1.02

# --- compare a run with itself: no change in any figure
out=$("$REPORT" compare --baseline "$fix" "$fix" --out "$TEST_TMP/same.html" 2>"$TEST_TMP/same.err")
check_eq "compare --baseline exits 0" 0 "$?"
check_eq "it prints the page's path" "$TEST_TMP/same.html" "$out"
check "it writes compare.json beside the page" jq -e . "$TEST_TMP/same.json"
check "it writes compare.md beside the page" test -s "$TEST_TMP/same.md"
check_eq "the run against itself: every figure of every variant is no change" '["no change"]' \
	"$(jq -c '[.variants[][].runs[].change] | unique' "$TEST_TMP/same.json")"
check_eq "every figure is compared (2 variants, 9 figures)" "18 0" \
	"$(jq -r '"\(.compared) \(.changed)"' "$TEST_TMP/same.json")"
check "stderr says no change" grep -q '^No change: each of the 18 figures' "$TEST_TMP/same.err"
check "compare.md says no change" grep -qF '**No change: each of the 18 figures' "$TEST_TMP/same.md"
check "compare.md has glibc's held memory, baseline and new" grep -qxF \
	'| held after the spikes | 11.6 MB | 11.6 MB | 0 MB, no change |' "$TEST_TMP/same.md"
check "a figure n/a on both sides is no change" grep -qxF \
	'| peak trend per spike | n/a | n/a | no change |' "$TEST_TMP/same.md"
check "compare.md names the baseline at the top: its folder and start time" grep -qxF \
	"Baseline: \`$fix\` (1 run, started 2026-11-29T22:00:00Z)." "$TEST_TMP/same.md"
check "compare.html names the baseline at the top" grep -qF \
	"<p id=\"baseline\"><strong>Baseline:</strong> <code>$fix</code>, started 2026-11-29T22:00:00Z (run 1 below)" \
	"$TEST_TMP/same.html"
check_eq "compare.json has the baseline's start time" '["2026-11-29T22:00:00Z"]' \
	"$(jq -c .baseline.started "$TEST_TMP/same.json")"
# two identical runs without --baseline: the first is the baseline, and compare says so
"$REPORT" compare "$fix" "$fix" --out "$TEST_TMP/two.html" >/dev/null 2>"$TEST_TMP/two.err"
check_eq "compare of two identical runs exits 0" 0 "$?"
check "compare of two identical runs says no change" grep -q '^No change' "$TEST_TMP/two.err"

# --- a share is judged in percentage points (reports/spread.h), not within 10 % of its median:
# glibc answered 98 % of its spike queries in the fixture, 93 % here (5 points, 5.2 % relative:
# "no change" by the relative rule), 97 % in the other (1 point: no change)
share_run() {
	cp -r "$fix" "$1"
	sed -i "s/^glibc,spike,1,1000,980,20,0,0,784,196,/glibc,spike,1,1000,$2,$((1000 - $2)),0,0,$2,0,/" "$1/phases.csv"
}
share_run "$TEST_TMP/lossy" 930
share_run "$TEST_TMP/near" 970
"$REPORT" compare --baseline "$fix" "$TEST_TMP/lossy" "$TEST_TMP/near" --out "$TEST_TMP/share.html" >/dev/null 2>&1
k='traffic_by_send.phases.spike.answered_share'
check_eq "5 points fewer answered is a change, for the worse" '["lower","worse"]' \
	"$(jq -c --arg k "$k" '.variants.glibc[$k].runs[0] | [.change, .direction]' "$TEST_TMP/share.json")"
check_eq "1 point fewer is no change" '"no change"' \
	"$(jq -c --arg k "$k" '.variants.glibc[$k].runs[1].change' "$TEST_TMP/share.json")"
check "the rule says how a share is judged" grep -qF 'a share within 2 percentage points, whatever its ratio' \
	"$TEST_TMP/share.md"

# --- a change beyond the rule is named, with its direction; noise inside it is not
"$REPORT" compare --baseline "$fix" "$TEST_TMP/grown" "$TEST_TMP/noise" --out "$TEST_TMP/cmp.html" \
	>/dev/null 2>"$TEST_TMP/cmp.err"
check_eq "compare --baseline OLD NEW NEW exits 0" 0 "$?"
j=$TEST_TMP/cmp.json
expect "$j" '.variants.glibc.held_after_spikes_mb.runs[0].change' '"higher"'
expect "$j" '.variants.glibc.held_after_spikes_mb.runs[0].direction' '"worse"'
expect "$j" '.variants.glibc.held_after_spikes_mb.runs[0].difference' 3
expect "$j" '.variants.glibc.held_after_spikes_mb.runs[0].basis' '"agreement rule"'
expect "$j" '.variants.glibc.spikes_left_mb.runs[0].change' '"higher"'
expect "$j" '.variants.glibc.held_before_spikes_mb.runs[0].change' '"no change"'
expect "$j" '[.variants.jemalloc[].runs[].change] | unique' '["no change"]'
expect "$j" '[.variants.glibc[].runs[1].change] | unique' '["no change"]'
expect "$j" '.changed' 2
expect "$j" '.compared' 36
expect "$j" '.baseline.dirs' "[\"$fix\"]"
expect "$j" '[.runs[].label]' "[\"$TEST_TMP/grown\", \"$TEST_TMP/noise\"]"
expect_done
check "stderr names the change" grep -qF '2 of 36 figures changed: glibc left behind by the spikes (run 1) +3 MB, higher (worse); glibc held after the spikes (run 1) +3 MB, higher (worse).' "$TEST_TMP/cmp.err"
check "compare.md: baseline, each new run and the difference" grep -qxF \
	'| held after the spikes | 11.6 MB | 14.6 MB | +3 MB, higher (worse) | 11.8 MB | +0.234 MB, no change |' "$TEST_TMP/cmp.md"

# --- repeats: a folder of repeats (run-1..N) carries its spread; a difference inside it is no change
mkdir -p "$TEST_TMP/reps"
cp -r "$fix" "$TEST_TMP/reps/run-1"
cp -r "$TEST_TMP/grown" "$TEST_TMP/reps/run-2"
"$REPORT" compare --baseline "$TEST_TMP/reps" "$TEST_TMP/grown" --out "$TEST_TMP/rep.html" >/dev/null 2>&1
check_eq "compare --baseline of a folder of repeats exits 0" 0 "$?"
j=$TEST_TMP/rep.json
expect "$j" '.baseline.dirs | length' 2
expect "$j" '.variants.glibc.held_after_spikes_mb.baseline.runs' 2
expect "$j" '.variants.glibc.held_after_spikes_mb.baseline.spread' 3
expect "$j" '.variants.glibc.held_after_spikes_mb.runs[0].difference' 1.5
expect "$j" '.variants.glibc.held_after_spikes_mb.runs[0].basis' '"repeats"'
expect "$j" '.variants.glibc.held_after_spikes_mb.runs[0].change' '"no change"'
expect_done

# check of a folder of repeats gates on the advice over its runs: the median of 11.6 and 14.6 MB
OUT=$("$REPORT" check "$TEST_TMP/reps" --fail-if 'held_after_spikes_mb[glibc] > 13' 2>&1)
check_eq "check of a folder of repeats: the median of its runs" 1 "$?"
check "the median is shown" grep -qF 'held_after_spikes_mb[glibc] > 13: 13.1043 > 13' <<<"$OUT"

# --- compare's usage and input errors: exit 2, saying what
"$REPORT" compare --baseline "$fix" --out "$TEST_TMP/x.html" >/dev/null 2>"$TEST_TMP/err"
check_eq "compare --baseline without a new run exits 2" 2 "$?"
check "and says to give the new runs" grep -qF 'give the new runs after --baseline OLD' "$TEST_TMP/err"
"$REPORT" compare --baseline "$TEST_TMP/none" "$fix" --out "$TEST_TMP/x.html" >/dev/null 2>"$TEST_TMP/err"
check_eq "compare with a missing baseline exits 2" 2 "$?"
check "names the missing folder" grep -qF "$TEST_TMP/none/run.json" "$TEST_TMP/err"
check "and says it is the baseline" grep -qF 'the baseline (--baseline) cannot be read' "$TEST_TMP/err"
check "nothing written" test ! -e "$TEST_TMP/x.html"

# --- check --baseline: baseline.NAME reads the same figure of the baseline run
cond='held_after_spikes_mb > baseline.held_after_spikes_mb * 1.1'
OUT=$("$REPORT" check "$TEST_TMP/grown" --baseline "$fix" --fail-if "$cond" 2>&1)
check_eq "check --baseline: 3 MB more than the baseline fails" 1 "$?"
check "the condition, FAIL and the values per variant" grep -qxF \
	"✗ FAIL  $cond  |  held_after_spikes_mb: glibc=14.6043 jemalloc=4.28009; baseline.held_after_spikes_mb: glibc=11.6043 jemalloc=4.28009" <<<"$OUT"
check "names the variant that failed" grep -qF "$cond holds for glibc: 14.6043 > 12.7647" <<<"$OUT"
OUT=$("$REPORT" check "$TEST_TMP/noise" --baseline "$fix" --fail-if "$cond" 2>&1)
check_eq "check --baseline: 2 % more passes" 0 "$?"
check "PASS with the values" grep -qF "✓ PASS  $cond  |" <<<"$OUT"
"$REPORT" check "$fix" --baseline "$fix" --fail-if 'spikes_left_mb[glibc] != baseline.spikes_left_mb[glibc]' \
	--fail-if 'spike_count != baseline.spike_count' >/dev/null 2>&1
check_eq "check --baseline: one variant's and the run's figures against themselves pass" 0 "$?"
# a variant missing from the baseline, a baseline that cannot be read, no baseline: exit 2
known_run "$TEST_TMP/known"
OUT=$("$REPORT" check "$fix" --baseline "$TEST_TMP/known" --fail-if "$cond" 2>&1)
check_eq "a variant missing from the baseline exits 2" 2 "$?"
check "and is named" grep -qF 'variant "glibc" is not in the baseline run' <<<"$OUT"
OUT=$("$REPORT" check "$fix" --baseline "$TEST_TMP/none" --fail-if "$cond" 2>&1)
check_eq "a missing baseline folder exits 2" 2 "$?"
check "names the folder" grep -qF "$TEST_TMP/none/run.json" <<<"$OUT"
check "says it is the baseline" grep -qF 'the baseline (--baseline) cannot be read' <<<"$OUT"
OUT=$("$REPORT" check "$fix" --fail-if "$cond" 2>&1)
check_eq "baseline.NAME without --baseline exits 2" 2 "$?"
check "says to give --baseline" grep -qF 'is a figure of the baseline: give --baseline RUN_DIR' <<<"$OUT"
"$REPORT" check "$fix" --list --baseline "$fix" >/dev/null 2>&1
check_eq "--list with --baseline is a usage error" 2 "$?"

# --- n/a: the fixture has one spike, so no peak growth fit
OUT=$("$REPORT" check "$fix" --fail-if 'peak_growth_mb_per_spike > 5' 2>&1)
check_eq "a condition over an n/a figure fails" 1 "$?"
check "naming each variant" grep -qxF '  peak_growth_mb_per_spike is n/a for jemalloc' <<<"$OUT"
OUT=$("$REPORT" check "$fix" --allow-missing --fail-if 'peak_growth_mb_per_spike > 5' 2>&1)
check_eq "with --allow-missing it passes" 0 "$?"
check "marked as not decided" grep -qF '(n/a for every variant: not decided, --allow-missing)' <<<"$OUT"
OUT=$("$REPORT" check "$TEST_TMP/known" --allow-missing --fail-if 'any(anon_over_cache) > 1' 2>&1)
check_eq "--allow-missing: the variants that have the figure decide" 1 "$?"
check "the variant that has it is named" grep -qF 'holds for alpha' <<<"$OUT"

# --- --junit: one testcase per condition, a failure per failed one, valid XML
"$REPORT" check "$fix" --junit "$TEST_TMP/j.xml" --fail-if 'any(mean_given_back_share) < 0.2' \
	--fail-if 'spike_count > 5' --fail-if 'peak_growth_mb_per_spike > 5' \
	--fail-if 'final_anon_kb[glibc] < 1 && "x" > 1' >/dev/null 2>&1
check_eq "check --junit with an expression error exits 2" 2 "$?"
check "the condition that cannot be evaluated is an error in the XML" grep -qF '<testsuite name="allocspike-report check" tests="4" failures="2" errors="1"' "$TEST_TMP/j.xml"
"$REPORT" check "$TEST_TMP/grown" --baseline "$fix" --junit "$TEST_TMP/j.xml" \
	--fail-if 'any(mean_given_back_share) < 0.2' --fail-if 'spike_count > 5' \
	--fail-if 'peak_growth_mb_per_spike > 5' --fail-if "$cond" >/dev/null 2>&1
check_eq "check --junit exits 1 when conditions fail" 1 "$?"
junit=$(python3 - "$TEST_TMP/j.xml" <<'EOF'
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
suites = root.findall("testsuite")
cases = root.findall("testsuite/testcase")
fails = root.findall("testsuite/testcase/failure")
print(root.tag, len(suites), len(cases), len(fails), suites[0].get("failures"), suites[0].get("tests"))
print(cases[0].get("name"))
print(fails[-1].text.splitlines()[0])
EOF
)
check_eq "JUnit XML: one suite, four cases, three failures" "testsuites 1 4 3 3 4" "$(sed -n 1p <<<"$junit")"
check_eq "the case is named by its condition (escaped and read back)" 'any(mean_given_back_share) < 0.2' "$(sed -n 2p <<<"$junit")"
check_eq "a failure carries the values" 'held_after_spikes_mb: glibc=14.6043 jemalloc=4.28009; baseline.held_after_spikes_mb: glibc=11.6043 jemalloc=4.28009' \
	"$(sed -n 3p <<<"$junit")"
check "n/a is a failure naming the variant" grep -qF 'peak_growth_mb_per_spike is n/a for glibc' "$TEST_TMP/j.xml"
"$REPORT" check "$fix" --junit "$TEST_TMP" --fail-if 'spike_count > 5' >/dev/null 2>"$TEST_TMP/err"
check_eq "--junit to a folder: writing fails, exit 1" 1 "$?"
check "and says so" grep -qF "$TEST_TMP" "$TEST_TMP/err"
finish
