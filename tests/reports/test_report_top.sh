#!/usr/bin/env bash
# tests/reports/test_report_top.sh - the top of the report and what a merge request gets: the
# validity box and check gating on it, traffic counted per query by send phase, true latency
# quantiles, a fixed colour per allocator, the advisor's figures, summary.md and the chart files.
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
source "$ALLOCSPIKE_SOURCE_DIR/tests/reports/known_run.sh"
source "$ALLOCSPIKE_SOURCE_DIR/tests/reports/attributed_run.sh"
REPORT=$ALLOCSPIKE_BIN/allocspike-report
command -v jq >/dev/null || skip "jq not installed"
command -v python3 >/dev/null || skip "python3 not installed"
j() { jq -c "$2" "$1/summary.json"; }

# --- validity: a clean run is valid; a non-steady warm-up shows the box and fails the gate ---
att=$TEST_TMP/attributed
attributed_run "$att"
check "report of the attributed run" "$REPORT" "$att"
check_eq "attributed run is valid" true "$(j "$att" .validity.valid)"
check "check passes 'not validity.valid' on a valid run" "$REPORT" check "$att" --fail-if 'not validity.valid'
check "the page says the run is valid" grep -q '<p class="ok" id="validity">' "$att/report.html"

nonsteady=$TEST_TMP/nonsteady
attributed_run "$nonsteady"
echo '{"t_s": -0.5, "variant": "glibc", "event": "warmup_not_steady", "cache_bytes": 100, "cap_bytes": 4194304}' \
	>>"$nonsteady/events.jsonl"
jq '.warmup = {"glibc": {"steady": false}, "jemalloc": {"steady": false}, "musl": {"steady": true}}' \
	"$nonsteady/run.json" >"$nonsteady/r" && mv "$nonsteady/r" "$nonsteady/run.json"
check "report of the non-steady run" "$REPORT" "$nonsteady"
check_eq "non-steady run is not valid" false "$(j "$nonsteady" .validity.valid)"
check_eq "its one reason, naming the variants from the event and run.json" \
	'[{"code":"warmup_not_steady","variants":["glibc","jemalloc"]}]' \
	"$(j "$nonsteady" '[.validity.reasons[]|{code,variants}]')"
check "the reason names its knob" grep -q 'warmup-len' <(j "$nonsteady" '.validity.reasons[0].knob')
"$REPORT" check "$nonsteady" --fail-if 'not validity.valid' >"$TEST_TMP/gate.out" 2>&1
check_eq "check --fail-if 'not validity.valid' fails on it" 1 "$?"
check "and says why" grep -q 'validity.valid is false' "$TEST_TMP/gate.out"
"$REPORT" check "$nonsteady" --fail-if 'validity.reason_count > 0' >/dev/null 2>&1
check_eq "check on validity.reason_count fails too" 1 "$?"
check "the page shows the validity box" grep -q '<div class="banner" id="validity">' "$nonsteady/report.html"
check "the box names the reason and its knob" grep -q 'warmup_not_steady</code>.*Knob:</em> raise --warmup-len' \
	<(tr -d '\n' <"$nonsteady/report.html")

# the known run: harness saturated (2 s), beta crashed, 3 spikes; calibration capped and spikes
# far over capacity added through run.json (alpha's capacity, the lowest, is only a bound)
known=$TEST_TMP/known
known_run "$known"
jq '.calibration = {"capacity_qps": {"alpha": 200, "beta": 5000}, "still_answering_at_top": {"alpha": true},
	"slowest": "alpha", "capacity_of_slowest_qps": 200, "spike_rate_qps": 1000}' "$known/run.json" >"$known/r" && mv "$known/r" "$known/run.json"
check "report of the known run" "$REPORT" "$known"
check_eq "known run's reasons" '["harness_saturated","spikes_over_capacity","calibration_capped","variant_crashed"]' \
	"$(j "$known" '[.validity.reasons[].code]')"
check_eq "over capacity: alpha at 5x its knee" '["alpha"]' "$(j "$known" '.validity.reasons[1].variants')"
check_eq "calibration capped: alpha" '["alpha"]' "$(j "$known" '.validity.reasons[2].variants')"
# a faster variant still answering at a top above the lowest capacity sets nothing
faster=$TEST_TMP/faster
known_run "$faster"
jq '.calibration = {"capacity_qps": {"alpha": 900, "beta": 5000}, "still_answering_at_top": {"beta": true},
	"slowest": "alpha", "capacity_of_slowest_qps": 900, "spike_rate_qps": 1000}' "$faster/run.json" >"$faster/r" && mv "$faster/r" "$faster/run.json"
"$REPORT" "$faster" >/dev/null
check_eq "beta's bound over alpha's capacity: not capped" '[]' \
	"$(j "$faster" '[.validity.reasons[] | select(.code == "calibration_capped")]')"
few=$TEST_TMP/few
known_run "$few"
awk -F, 'NR == 1 || $4 <= 1' "$known/timeline.csv" >"$few/timeline.csv"
"$REPORT" "$few" >/dev/null
check "one spike: too few to fit a trend" grep -q '"too_few_spikes"' <(j "$few" '[.validity.reasons[].code]')

# --- traffic per query by send phase: late answers count in the spike they were sent in ---
# Spike 1's timeline rows answer 900 of 1000 in its first second (100 time out there, by arrival);
# phases.csv says every query sent in spike 1 was answered, 50 of them after the spike ended.
check_eq "by arrival (timeline): spikes answered short" 0.98333 "$(j "$known" '.variants.alpha.spike_traffic.answered_share*100000|round/100000')"
check_eq "without phases.csv: counted by receive" '"timeline.csv receive"' \
	"$(j "$known" '.variants.alpha.traffic_by_send|"\(.source) \(.counted_by)"')"
late=$TEST_TMP/late
known_run "$late"
cat >"$late/phases.csv" <<'CSV'
variant,phase,spike,sent,answered,timeouts,pending,late_or_foreign,noerror,nxdomain,servfail,rcode_other,lat_p50_ms,lat_p90_ms,lat_p99_ms,lat_p999_ms,lat_max_ms
alpha,baseline,0,100,100,0,0,0,100,0,0,0,2.0,2.0,2.0,2.0,2.0
alpha,spike,1,2000,2000,0,0,0,1900,0,90,10,4.0,60.0,60.0,60.0,60.0
alpha,recovery,1,200,200,0,0,0,200,0,0,0,2.0,2.0,2.0,2.0,2.0
alpha,spike,2,2000,1990,10,0,3,1990,0,0,0,4.0,60.0,60.0,60.0,60.0
beta,spike,1,2000,1000,0,1000,0,1000,0,0,0,,,,,
CSV
# alpha's spike answers: 3000 at 4 ms, 990 at 60 ms (bucket edges as common/latency_hist.c makes them)
cat >"$late/latency_hist.csv" <<'CSV'
variant,phase,spike,upper_us,count
alpha,spike,1,4063.232,1500
alpha,spike,1,60817.408,500
alpha,spike,2,4063.232,1500
alpha,spike,2,60817.408,490
alpha,recovery,1,2031.616,200
CSV
check "report with phases.csv" "$REPORT" "$late"
check_eq "counted by send phase" '"phases.csv send"' \
	"$(j "$late" '.variants.alpha.traffic_by_send|"\(.source) \(.counted_by)"')"
check_eq "spikes: sent, answered, lost, late over both spikes" '[4000,3990,10,3]' \
	"$(j "$late" '.variants.alpha.traffic_by_send.phases.spike|[.sent,.answered,.lost,.late]')"
check_eq "late answers count as answered in spike 1" 1 \
	"$(j "$late" '.variants.alpha.traffic_by_send.instances[]|select(.phase=="spike" and .spike==1)|.answered_share')"
check_eq "rcodes of spike 1 split its answers" '[1900,0,90,10]' \
	"$(j "$late" '.variants.alpha.traffic_by_send.instances[]|select(.phase=="spike" and .spike==1)|[.noerror,.nxdomain,.servfail,.rcode_other]')"
check_eq "pending counted, not lost" '[1000,0,0.5]' \
	"$(j "$late" '.variants.beta.traffic_by_send.phases.spike|[.pending,.lost,.answered_share]')"
check_eq "true p50 and p99 of the merged histograms (middle of the bucket)" '[4.030464,60.29312]' \
	"$(j "$late" '.variants.alpha.traffic_by_send.phases.spike|[.lat_p50_ms,.lat_p99_ms]')"
check_eq "the advisor's p99 in spikes is the true quantile" 60.29312 "$(j "$late" '.variants.alpha.advisor.spike_lat_p99_ms')"
check "no 'answered only' finding for alpha (late is not lost)" bash -c "! jq -r '.findings[]' '$late/summary.json' | grep -q '^alpha answered only'"
check "beta's pending queries are named" grep -q 'beta answered only 50.0% of the queries sent in spikes (0 lost, 1000 still pending)' \
	<(jq -r '.findings[]' "$late/summary.json")
check "traffic table on the page" grep -q '<table id="traffic-table">' "$late/report.html"
check "the page states the bucket precision" grep -q 'within 1.6 % of the true value' "$late/report.html"
check "latency CDF charts for spikes and recoveries" grep -q 'id="chart-cdf-recovery"' "$late/report.html"
check "the spike CDF is drawn" grep -qE 'id="chart-cdf-spike"><h3[^>]*>[^<]*</h3><div class="scroll"><svg' <(tr -d '\n' <"$late/report.html")

# a bad cell in phases.csv is an error naming the file, line and column (exit 2)
bad=$TEST_TMP/badphases
known_run "$bad"
cp "$late/phases.csv" "$bad/phases.csv"
sed -i '3s/,2000,2000,/,2000,lots,/' "$bad/phases.csv"
"$REPORT" "$bad" >/dev/null 2>"$TEST_TMP/bad.err"
check_eq "bad phases.csv: exit 2" 2 "$?"
check "the error names file, line and column" grep -q 'phases.csv:3: column "answered": "lots" is not a number' "$TEST_TMP/bad.err"

# RSS far above anon RSS (a daemon's mapped cache file) is explained, not left to puzzle over
filebacked=$TEST_TMP/filebacked
known_run "$filebacked"
awk -F, -v OFS=, 'NR > 1 && $2 == "beta" { $16 = $17 * 4 } 1' "$known/timeline.csv" >"$filebacked/timeline.csv"
"$REPORT" "$filebacked" >/dev/null
check "file-backed memory explained" grep -q "^beta's peak RSS (120 MB) is far above its anonymous RSS (30 MB): the 90 MB between are file-backed" \
	<(jq -r '.findings[]' "$filebacked/summary.json")
check "not for a variant whose RSS is mostly anon" bash -c "! jq -r '.findings[]' '$filebacked/summary.json' | grep -q \"^alpha's peak RSS\""

# --- one colour per allocator, whatever the order of the variants ---
swapped=$TEST_TMP/swapped
known_run "$swapped"
jq '.variants |= reverse' "$swapped/run.json" >"$swapped/r" && mv "$swapped/r" "$swapped/run.json"
"$REPORT" "$swapped" >/dev/null
check_eq "the variant order differs" '["beta","alpha"]' "$(j "$swapped" .variant_order)"
check_eq "jemalloc's colour (beta) is the same in both reports" "$(j "$known" .variants.beta.colour)" "$(j "$swapped" .variants.beta.colour)"
check_eq "glibc's colour (alpha) is the same in both reports" "$(j "$known" .variants.alpha.colour)" "$(j "$swapped" .variants.alpha.colour)"
check_eq "jemalloc is vermillion" '"#d55e00"' "$(j "$swapped" .variants.beta.colour)"
check "the anon chart draws beta in jemalloc's colour" grep -qE "stroke='rgb\(213, +94, +0\)'" "$swapped/charts/chart-anon.svg"
check "harness rows in grey in the CPU chart" grep -qE "stroke='rgb\( *85, +85, +85\)'" "$known/charts/chart-cpu.svg"
# tuning rows of one allocator: shades of it, the default row keeps the colour itself
check_eq "attributed run: kresd (jemalloc, no env) has jemalloc's colour, the tuning row a shade" \
	'["#d55e00",true]' "$(j "$att" '[.variants.kresd.colour, (.variants.jemalloc.colour != "#d55e00")]')"

# --- the advisor's figures per variant, for check ---
# three spikes: too few for a per-spike rate, so the advisor's growth is n/a and a gate on it fails
# (naming the variant) unless --allow-missing
check_eq "advisor figures in summary.json" '[22,null,32,"anon"]' \
	"$(j "$known" '.variants.alpha.advisor|[.held_after_spikes_mb,.held_growth_mb_per_spike,.peak_anon_mb,.held_basis]')"
"$REPORT" check "$known" --fail-if 'advisor.held_after_spikes_mb[alpha] > 20' >/dev/null 2>&1
check_eq "check gates on an advisor figure" 1 "$?"
check "the verdict ranks on allocator-held memory where attributed" grep -q '"allocator_held"' <(j "$att" .verdict.held_basis)
check_eq "ranking, lowest first" '["musl","filling","jemalloc","tcmalloc","glibc"]' "$(j "$att" '[.verdict.ranking[].variant]')"
check "a sentence per variant" test "$(j "$att" '.verdict.sentences|length')" -eq "$(j "$att" '.variant_order|length')"

# --- summary.md and the chart files ---
for run in "$known" "$late" "$att" "$nonsteady"; do
	check "$(basename "$run"): summary.md lints and its grid matches summary.json" \
		python3 "$ALLOCSPIKE_SOURCE_DIR/tests/reports/md_check.py" "$run/summary.md" "$run/summary.json"
done
check "summary.md holds the verdict" grep -q '^- alpha (glibc): the spikes left +11.0 MB of anonymous RSS beyond its cache (from 9.0 MB before the first spike to 20.0 MB after the last recovery)' "$known/summary.md"
check "a variant without the ranking's figure says why it is not ranked" grep -q '^- beta .*(not ranked: no cache\\_bytes reported)' "$known/summary.md"
check "summary.md holds the validity reasons" grep -q '^| `variant_crashed` |' "$known/summary.md"
sed 's/^| alpha | 30.0/| alpha | 29.0/' "$known/summary.md" >"$TEST_TMP/bad.md"
check "the grid check can fail" bash -c "! python3 '$ALLOCSPIKE_SOURCE_DIR/tests/reports/md_check.py' '$TEST_TMP/bad.md' '$known/summary.json' >/dev/null"
printf '# a\n\n### skipped\n\n| x | y |\n| --- |\n' >"$TEST_TMP/lint.md"
check "the lint can fail" bash -c "! python3 '$ALLOCSPIKE_SOURCE_DIR/tests/reports/md_check.py' '$TEST_TMP/lint.md' '$known/summary.json' >/dev/null"
if command -v gnuplot >/dev/null; then
	for c in chart-ranking chart-anon chart-cpu; do
		check "$c.svg written" grep -q '<svg' "$known/charts/$c.svg"
		check "$c.png written" bash -c "head -c 8 '$known/charts/$c.png' | od -An -tx1 | grep -q '89 50 4e 47 0d 0a 1a 0a'"
	done
	check "summary.md links the chart files" grep -q '(charts/chart-anon.png)' "$known/summary.md"
fi
finish
