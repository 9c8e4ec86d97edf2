#!/usr/bin/env bash
# tests/reports/test_report_check.sh - the regression gate passes and fails on the right figures.
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
source "$ALLOCSPIKE_SOURCE_DIR/tests/reports/known_run.sh"
REPORT=$ALLOCSPIKE_BIN/allocspike-report
run=$TEST_TMP/known
known_run "$run"
# known figures: peak growth first to last alpha 2, beta 0 MB (3 spikes: too few for a per-spike
# rate); mean given back alpha 0.77, beta 1; final anon alpha 22528, beta 10240 kB; beta crashed once; harness saturated 2 s; 3 spikes.

# gate WANT_RC EXPR... : check exits WANT_RC; its output is kept in $OUT.
gate() {
	local want=$1
	shift
	local args=() e
	for e in "$@"; do args+=(--fail-if "$e"); done
	OUT=$("$REPORT" check "$run" "${args[@]}" 2>&1)
	check_eq "check ${*} exits" "$want" "$?"
}

gate 1 'peak_growth_first_to_last_mb[alpha] > 0.5'
check "failure names the figure, variant and value" grep -qF 'peak_growth_first_to_last_mb[alpha] > 0.5: 2 > 0.5' <<<"$OUT"
check "failure is marked, with the condition and the value read" grep -qxF '✗ FAIL  peak_growth_first_to_last_mb[alpha] > 0.5  |  peak_growth_first_to_last_mb[alpha]=2' <<<"$OUT"
gate 0 'peak_growth_first_to_last_mb[alpha] > 2.5'
check "pass is marked, with the value read" grep -qxF '✓ PASS  peak_growth_first_to_last_mb[alpha] > 2.5  |  peak_growth_first_to_last_mb[alpha]=2' <<<"$OUT"
gate 0 'peak_growth_first_to_last_mb[beta] > 0.5'
gate 1 'any(peak_growth_first_to_last_mb) > 0.5'
check "a bare figure shows its value per variant" grep -qF '|  peak_growth_first_to_last_mb: alpha=2 beta=0' <<<"$OUT"
check "any() names the variant that failed" grep -qF 'any(peak_growth_first_to_last_mb) > 0.5 holds for alpha: 2 > 0.5' <<<"$OUT"
check "any() does not name a variant that passed" bash -c "! grep -q 'holds for beta' <<<'$OUT'"
gate 1 'peak_growth_first_to_last_mb > 0.5'
gate 0 'all(peak_growth_first_to_last_mb) > 0.5'
gate 1 'all(mean_given_back_share) > 0.7'
gate 0 'any(mean_given_back_share) < 0.5'
gate 1 'max(peak_growth_first_to_last_mb) - min(peak_growth_first_to_last_mb) >= 2'
gate 0 'max(peak_growth_first_to_last_mb) - min(peak_growth_first_to_last_mb) >= 2.01'
gate 1 'crash_count[beta] > 0 && spike_traffic.answered_share[alpha] < 0.99'
gate 0 'crash_count[alpha] > 0 or spike_traffic.answered_share[beta] < 0.99'
gate 1 'final_anon_kb[alpha] / 1024 > 2 * final_anon_kb[beta] / 1024'
gate 0 'not (final_anon_kb[beta] < 20000)'
gate 1 '!(final_anon_kb[beta] >= 20000)'
gate 0 'harness.saturated_s > 5'
gate 1 'spike_count == 3'
gate 1 'any(spike_traffic.lat_p99_ms) >= 60'
gate 1 'final_anon_kb[alpha] * 1024 > 0.00001'
check "large and small values without the exponent form (%g: 2.30687e+07 > 1e-05)" \
	grep -qF 'final_anon_kb[alpha] * 1024 > 0.00001: 23068672 > 0.00001' <<<"$OUT"
# two conditions: the run fails if either holds
gate 1 'peak_growth_first_to_last_mb[alpha] > 5' 'crash_count[beta] >= 1'
gate 0 'peak_growth_first_to_last_mb[alpha] > 5' 'crash_count[beta] >= 2'

# bad expressions and figures that are not there: exit 2 with where and what
gate 2 'peak_growth_mb_per_spike[gamma] > 1'
check "names the unknown variant" grep -q 'no variant "gamma"' <<<"$OUT"
gate 2 'bogus_figure > 1'
check "names the unknown figure" grep -q 'unknown figure "bogus_figure"' <<<"$OUT"
gate 2 'peak_growth_mb_per_spike[alpha] >'
check "says the column" grep -q 'column 34' <<<"$OUT"
gate 2 'peak_growth_mb_per_spike[alpha]'
check "a number is not a condition" grep -q 'condition' <<<"$OUT"
# a figure that is n/a for a variant fails the condition, naming the variant (docs/check.md)
gate 1 'anon_over_cache[beta] > 1'
check "a figure the variant lacks is named" grep -qxF '  anon_over_cache is n/a for beta' <<<"$OUT"
check "and shown as n/a" grep -qF '|  anon_over_cache[beta]=n/a' <<<"$OUT"
gate 1 'any(anon_over_cache) > 1000'
check "a bare figure n/a for one variant names it" grep -qF 'anon_over_cache is n/a for beta' <<<"$OUT"
check "and not the variant that has it" bash -c '! grep -q "n/a for alpha" <<<"$1"' _ "$OUT"
gate 2 'max(anon_over_cache) > 1 +'
"$REPORT" check "$run" 2>/dev/null
check_eq "check without --fail-if exits 2" 2 "$?"
"$REPORT" check "$TEST_TMP/none" --fail-if 'spike_count > 1' 2>/dev/null
check_eq "check of a missing run exits 2" 2 "$?"

# errors point at the fault with a caret and suggest the closest name
gate 2 'peak_grwth_mb_per_spike > 5'
check "a misspelt figure: did you mean" grep -qF 'unknown figure "peak_grwth_mb_per_spike" (did you mean "peak_growth_mb_per_spike"?)' <<<"$OUT"
check "the expression is shown" grep -qxF '  peak_grwth_mb_per_spike > 5' <<<"$OUT"
check "the caret is under the name" grep -qx '  ^' <<<"$OUT"
gate 2 'crash_count[alpah] > 0'
check "a misspelt variant: did you mean" grep -qF 'no variant "alpah" in this run (did you mean "alpha"?)' <<<"$OUT"
check "the caret is under the variant" grep -qxF "$(printf '  %12s^' '')" <<<"$OUT"
gate 2 'spike_count > 1 +'
check "a syntax error: caret at the end" grep -qxF "$(printf '  %17s^' '')" <<<"$OUT"
gate 2 'completely_unrelated_thing > 1'
check "no suggestion when nothing is close" bash -c '! grep -q "did you mean" <<<"$1"' _ "$OUT"
# truths are conditions: run validity
gate 0 'not run.complete'
gate 1 'run.complete'
gate 1 'run.complete and spike_count == 3'
gate 0 'run.timeline_truncated'

# --list: every figure a condition can test, checked against the summary it is computed from
"$REPORT" "$run" >/dev/null 2>&1
list=$("$REPORT" check "$run" --list)
check_eq "--list exits 0" 0 $?
want=$(jq -r '[.variants[] | paths(type == "number" or type == "boolean" or type == "null") as $p
	| if $p[0] == "spikes" then ["spikes", (getpath(["spikes", $p[1], "spike"]) | tostring)] + $p[2:] else $p end
	| select(all(.[]; type == "string")) | join(".")] | unique[]' "$run/summary.json")
got=$(grep -v '^#' <<<"$list" | sort -u)
check "--list has every variant figure of summary.json ($(comm -23 <(sort -u <<<"$want") <(echo "$got") | head -3 | tr '\n' ' '))" \
	bash -c '! comm -23 <(sort -u <<<"$1") <(echo "$2") | grep -q .' _ "$want" "$got"
check "--list has per-spike figures" grep -qx 'spikes.2.peak_anon_kb' <<<"$list"
check "--list has run validity" grep -qx 'run.complete' <<<"$list"
check "--list has run figures" grep -qx 'spike_count' <<<"$list"
check "--list has nested run figures" grep -qx 'harness.saturated_s' <<<"$list"
run_want=$(jq -r '[del(.variants, .findings) | paths(type == "number" or type == "boolean" or type == "null") as $p
	| select(all($p[]; type == "string")) | $p | join(".")] | unique[]' "$run/summary.json")
check "--list has every run figure of summary.json" bash -c '! comm -23 <(sort -u <<<"$1") <(echo "$2") | grep -q .' _ "$run_want" "$got"
check "every listed name can be tested" bash -c '
	while read -r name; do
		! "$1" check "$2" --fail-if "$name == -1" 2>&1 | grep -q "unknown figure" || { echo "$name unknown"; exit 1; }
	done < <(grep -v "^#" <<<"$3")' _ "$REPORT" "$run" "$list"
"$REPORT" check "$run" --list --fail-if 'spike_count > 1' >/dev/null 2>&1
check_eq "--list with --fail-if is a usage error" 2 $?

# the fixture has one spike: no growth fit, so a gate on it fails as n/a
run=$ALLOCSPIKE_SOURCE_DIR/tests/fixtures/run-minimal
gate 1 'peak_growth_mb_per_spike[glibc] > 5'
gate 1 'any(mean_given_back_share) < 0.2'
check "fixture: glibc kept its memory" grep -q 'holds for glibc' <<<"$OUT"
finish
