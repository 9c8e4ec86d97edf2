#!/usr/bin/env bash
# tests/reports/test_report_readback.sh - what reading back a quick spike run found wrong, each on a
# crafted run folder: a variant that never started (its `failed` event) is a validity reason and a
# finding with the event's reason; saturation seen by one event lasts at least its window, not
# "0.0 s"; a latency of seconds prints fixed-point, not "1.8e+03"; a spike missing from the
# timeline keeps the grid's columns by spike number on the page and in summary.md.
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
source "$ALLOCSPIKE_SOURCE_DIR/tests/reports/known_run.sh"
source "$ALLOCSPIKE_SOURCE_DIR/tests/reports/expect.sh"
REPORT=$ALLOCSPIKE_BIN/allocspike-report
command -v jq >/dev/null || skip "jq not installed"

# grid_row FILE NAME : the spike grid's row of NAME on a page, one cell a line.
grid_row() {
	sed -n '/<table id="spike-grid">/,/<\/table>/p' "$1" | grep -F "$2</td>" |
		grep -o '<td>[^<]*\(<span class="muted">n/a</span>\)\?</td>'
}
# no_exponent FILE : no number in exponent form ("1.8e+03") outside the charts (gnuplot's SVG).
no_exponent() {
	! sed '/<svg/,/<\/svg>/d' "$1" | grep -nE '[0-9]e[+-][0-9]{2}'
}
# grid_head FILE : the spike grid's column heads on a page, one a line.
grid_head() {
	sed -n '/<table id="spike-grid">/,/<\/table>/p' "$1" | grep -o '<th>[^<]*</th>' |
		sed 's/<[^>]*>//g'
}

# --- the fixture, with a third variant the scenario refused to start, one harness_saturated
# event and no saturated window in the timeline, and glibc's spike answers taking 1.8 s ---
run=$TEST_TMP/fixture
cp -r "$ALLOCSPIKE_SOURCE_DIR/tests/fixtures/run-minimal" "$run"
jq '.variants += [.variants[0] + {name: "musl", libc: "musl", note: "musl build"}]' \
	"$ALLOCSPIKE_SOURCE_DIR/tests/fixtures/run-minimal/run.json" >"$run/run.json"
cat >>"$run/events.jsonl" <<'EOF'
{"t_s": -1.3, "variant": "musl", "event": "failed", "reason": "missing build/bin/allocspike-resolver-musl"}
{"t_s": 1.5, "variant": "_loadgen", "event": "harness_saturated", "cpu_share": 0.6}
EOF
# 1811939.328 us is a bucket's upper edge (2^30 ns + 22 x 2^25 ns): its middle is 1795.162112 ms.
awk -F, -v OFS=, '$1 == "glibc" && $2 == "spike" && $4 + 0 > 40000 { next }
	$1 == "glibc" && $2 == "spike" && $4 + 0 > 20000 { $4 = "1811939.328"; $5 = 100 } { print }' \
	"$ALLOCSPIKE_SOURCE_DIR/tests/fixtures/run-minimal/latency_hist.csv" >"$run/latency_hist.csv"
"$REPORT" "$run" >/dev/null
S=$run/summary.json
expect "$S" '.validity.reasons | map(select(.code == "variant_not_run")) | length' 1
expect "$S" '.validity.reasons[] | select(.code == "variant_not_run") | .variants' '["musl"]'
expect "$S" '.validity.reasons[] | select(.code == "variant_not_run") | .why' \
	'{"musl":"missing build/bin/allocspike-resolver-musl"}'
expect "$S" '.validity.valid' false
expect "$S" '.run.stop_event' null # the variant's failure is not the run's end
expect "$S" '.harness.saturated_s' 0
expect "$S" '.variants.glibc.traffic_by_send.phases.spike.lat_p99_ms' 1795.162112
expect_done
check "findings: musl did not run, and why" \
	jq -e '.findings | index("musl did not run: missing build/bin/allocspike-resolver-musl.")' "$S"
check "findings: no 'No variant crashed' while one never ran" \
	jq -e '.findings | index("No variant crashed.") == null' "$S"
check "findings: no variant that ran crashed" jq -e '.findings | index("No variant that ran crashed.")' "$S"
check "verdict: musl did not run, and why (not 'no spike with a recovery')" \
	jq -e '.verdict.sentences | map(select(startswith("musl"))) | .[0] | endswith("did not run (missing build/bin/allocspike-resolver-musl).")' "$S"
check "validity names the reason" \
	jq -e '.validity.reasons[] | select(.code == "variant_not_run") | .text | contains("musl (missing build/bin/allocspike-resolver-musl)")' "$S"
# one event: saturated for at least its one-second window
check "validity: saturation lasted a window" \
	jq -e '.validity.reasons[] | select(.code == "harness_saturated") | .text | contains("0.5 core for 1.0 s (1 saturation events)")' "$S"
check "findings: saturation lasted a window" \
	jq -e 'any(.findings[]; contains("saturated (1.0 s of intervals over 0.5 core, 1 harness_saturated events)"))' "$S"
check "summary.md lists variant_not_run" grep -q '^| `variant_not_run` | Not run: musl' "$run/summary.md"
check "summary.md: p99 1795 ms fixed-point" grep -q '^| glibc | 1000 | 98.0 % | .* | 1.49 | 1795 |$' "$run/summary.md"
check "summary.md: no number in exponent form" no_exponent "$run/summary.md"
check "report.html: p99 1795 ms fixed-point" grep -q '<td>1795</td>' "$run/report.html"
check "report.html: no number in exponent form" no_exponent "$run/report.html"
check_eq "page grid: musl's row keeps the column" '<td>n/a / n/a</td>' \
	"$(grid_row "$run/report.html" musl)"
check "summary.md grid: musl's row keeps the column" grep -qx '| musl | n/a / n/a |' "$run/summary.md"

# --- the known run without spike 2 (no row carries it): the grid's columns are spikes 1 and 3 ---
run=$TEST_TMP/gap
known_run "$run"
awk -F, '$4 != 2' "$run/timeline.csv" >"$run/t" && mv "$run/t" "$run/timeline.csv"
"$REPORT" "$run" >/dev/null
S=$run/summary.json
expect "$S" '.spike_count' 2
expect "$S" '[.variants.alpha.spikes[].spike]' '[1,3]'
expect_done
check_eq "page grid: columns by spike number" "variant spike 1 spike 3" "$(grid_head "$run/report.html" | xargs)"
check_eq "page grid: alpha's spikes 1 and 3" "<td>30.0 / 20.0</td> <td>32.0 / 22.0</td>" \
	"$(grid_row "$run/report.html" alpha | xargs -d '\n')"
check "summary.md grid: columns by spike number" grep -qx '| variant | spike 1 | spike 3 |' "$run/summary.md"
check "summary.md grid: alpha's spikes 1 and 3" grep -qx '| alpha | 30.0 / 20.0 | 32.0 / 22.0 |' "$run/summary.md"
check "summary.md lint and grid check" python3 "$ALLOCSPIKE_SOURCE_DIR/tests/reports/md_check.py" \
	"$run/summary.md" "$S"

# The page's traffic figures are by the phase a query was sent in: answers to spike queries that
# arrive in the baseline after it (counted by arrival, 110 % of the baseline's sent) stay the spike's.
late=$TEST_TMP/late
cp -r "$ALLOCSPIKE_SOURCE_DIR/tests/fixtures/run-minimal" "$late"
awk -F, -v OFS=, '$2 == "glibc" && $3 == "baseline" { $7 = int($6 * 1.1) } { print }' \
	"$ALLOCSPIKE_SOURCE_DIR/tests/fixtures/run-minimal/timeline.csv" >"$late/timeline.csv"
"$REPORT" "$late" >/dev/null
check "late answers: counted by arrival the baseline exceeds 100 %" \
	jq -e '.variants.glibc.baseline_traffic.answered_per_offered_by_arrival > 1' "$late/summary.json"
check "late answers: the one answered share (old name too) is by send phase, 100 %" \
	jq -e '.variants.glibc.baseline_traffic.answered_share == 1' "$late/summary.json"
check "late answers: the page gives the baseline's queries 100.0 %, by send phase" grep -q \
	'<tr><td>answered share of queries sent at baseline</td><td>100.0%</td>' "$late/report.html"

finish
