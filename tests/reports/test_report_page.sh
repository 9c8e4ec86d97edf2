#!/usr/bin/env bash
# tests/reports/test_report_page.sh - report.html holds the context, every variant, chart and table,
# references nothing outside itself; interrupted and malformed run folders; the comparison page.
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
source "$ALLOCSPIKE_SOURCE_DIR/tests/reports/known_run.sh"
REPORT=$ALLOCSPIKE_BIN/allocspike-report
command -v gnuplot >/dev/null || skip "gnuplot not installed (gnuplot-nox)"

# self_contained FILE : no src/href/url()/@import pointing anywhere but a data: URI or the page.
self_contained() {
	local bad
	bad=$( {
		grep -oiE '(src|href)[[:space:]]*=[[:space:]]*("[^"]*"|'"'"'[^'"'"']*'"'"'|[^[:space:]>]+)' "$1" |
			grep -viE '=[[:space:]]*["'"'"']?(data:|#)'
		grep -oiE 'url\([[:space:]]*["'"'"']?[^)]*\)' "$1" | grep -viE 'url\([[:space:]]*["'"'"']?(data:|#)'
		grep -oi '@import' "$1"
	})
	[[ -z $bad ]] || {
		echo "outside references in $1:" >&2
		echo "$bad" | head -5 >&2
		return 1
	}
}

# --- a complete run with known numbers ---
run=$TEST_TMP/known
known_run "$run"
check "report of the known run" "$REPORT" "$run"
P=$run/report.html
for text in 'Status: completed' '6.1.0-test-kernel' '<th>machine: cores</th><td>2</td>' \
	'transparent huge pages</th><td>never' 'parallel' \
	'warmup:2s@100,baseline:1s@100,3*(spike:2s@1000,recovery:2s@100)' \
	'latency_ms_median=25' 'loss=0.04' 'generated:seed=7' 'unique_names=4321' \
	'cache_size_bytes=16777216' 'program=allocspike-resolver' 'MALLOC_CONF=background_thread:true' \
	'libjemalloc.so.2'; do
	check "page holds context: $text" grep -qF -- "$text" "$P"
done
check "header line gives the context at a glance" grep -qE '<p class="context-line"[^>]*><strong>Machine</strong> 2 cores, kernel 6.1.0-test-kernel, THP never .*loss 0.04 .*alpha \(glibc\).*beta \(jemalloc\)</p>' "$P"
# A world that sets its own latency and loss: run.json has them null, the context line names the world.
inet=$TEST_TMP/known-internet
cp -r "$run" "$inet"
jq '.parameters.hierarchy |= (.world = "internet" | .latency_ms_median = null | .latency_ms_p99 = null | .loss = null)' \
	"$run/run.json" >"$inet/run.json"
check "report of the run in the internet world" "$REPORT" "$inet"
check "context line names the world, the loss it did not record as such" grep -qE '<strong>hierarchy</strong> internet world, a base RTT per server, loss set by the world, not recorded \(no upstream-applied-summary.tsv\) &middot;' "$inet/report.html"
check "lan's figures on the known run's line" grep -qE '<strong>hierarchy</strong> latency 25 ms median, 250 ms p99, loss 0.04 &middot;' "$P"
for v in alpha beta; do
	check "variant $v in the variants table" grep -qE "<tr><td><span class=\"swatch\"[^>]*></span>$v</td><td" "$P"
	check "variant $v has a column in the figure table" grep -qE "<th><span class=\"swatch\"[^>]*></span>$v</th>" "$P"
	check_eq "variant $v has a row per spike" 3 "$(grep -cE "<tr><td><span class=\"swatch\"[^>]*></span>$v</td><td>[0-9]+</td>" "$P")"
done
for c in chart-ranking chart-anon chart-beyond chart-rate chart-latency chart-cpu; do
	check "chart $c drawn inline" grep -qE "id=\"$c\"><h3 id=\"$c-title\">[^<]*</h3>(<div class=\"scroll\">)?<svg class=\"chart\"" <(tr -d '\n' <"$P")
done
check_eq "six inline SVG charts (the ranking at the top)" 6 "$(grep -c '<svg class="chart"' "$P")"
check "chart legends name the variants" grep -q '<text>alpha</text>' "$P"
check "spike shading drawn" grep -q "fill = 'rgb(220, 230, 242)'" "$P"
check "harness saturation drawn in the CPU chart" grep -q "fill = 'rgb(208,   0,   0)' fill-opacity" "$P"
check "per-spike table" grep -q 'id="spike-table"' "$P"
check "peak of spike 3 in the table (32768 kB = 32.0 MB)" grep -q '<td>32.0</td>' "$P"
check "figure table" grep -q 'id="figure-table"' "$P"
check "findings on the page" grep -qF "alpha&#39;s peaks: 3 spikes, too few for a trend: 30.0, 31.0 and 32.0 MB." "$P"
check "crash listed" grep -q 'id="crash-table"' "$P"
check "harness saturation listed" grep -q 'id="harness-table"' "$P"
check "print styles" grep -q '@media print' "$P"
check "narrow-window viewport" grep -q 'name="viewport"' "$P"
check "page references nothing outside itself" self_contained "$P"
check "page names no outside address at all" bash -c "! grep -qiE 'https?:|ftp:|//www' '$P'"
check "SVG ids made unique per chart" bash -c "! grep -o \"id='[^']*'\" '$P' | sort | uniq -d | grep -q ."

# the self-containment check itself catches outside references
printf '<img src="x.png"><a href="http://example.invalid/">x</a>' >"$TEST_TMP/bad.html"
has_outside_refs() { ! self_contained "$1" 2>/dev/null; }
check "outside-reference check can fail" has_outside_refs "$TEST_TMP/bad.html"

# --- an interrupted run: status interrupted, last lines cut mid-write ---
run=$TEST_TMP/interrupted
known_run "$run" interrupted
printf '16,alpha,recovery,3,100,10' >>"$run/timeline.csv"
echo '{"t_s": 15.8, "variant": "_scenario", "event": "interrupted", "signal": "SIGINT"}' >>"$run/events.jsonl"
printf '{"t_s": 15.9, "variant": "_scenario", "ev' >>"$run/events.jsonl"
check "report of an interrupted run" "$REPORT" "$run"
P=$run/report.html
check "page says interrupted" grep -q 'This run was interrupted before it finished' "$P"
check "page says a line was cut" grep -q 'cut off mid-write' "$P"
check "page says when and how it was stopped" grep -q 'Stopped at 15.8 s (signal SIGINT)' "$P"
check "interrupted page still has charts" grep -q '<svg class="chart"' "$P"
check_eq "summary status" interrupted "$(jq -r .run.status "$run/summary.json")"
check_eq "summary marks the cut timeline" true "$(jq -r .run.timeline_truncated "$run/summary.json")"
check "findings say it did not complete" grep -q 'did not complete (status \\"interrupted\\")' "$run/summary.json"

# a run stopped during its first spike: no end-of-recovery values, no crash
run=$TEST_TMP/early
known_run "$run" interrupted
head -n 21 "$run/timeline.csv" >"$run/t" && mv "$run/t" "$run/timeline.csv" # up to t=5
check "report of a run stopped in a spike" "$REPORT" "$run"
check_eq "no end value for an unfinished spike" null "$(jq -c '.variants.alpha.spikes[0].end_anon_kb' "$run/summary.json")"

# a run that says "completed" but whose timeline stops early (t=10 of 15 s) is flagged
run=$TEST_TMP/short
known_run "$run"
head -n 41 "$run/timeline.csv" >"$run/t" && mv "$run/t" "$run/timeline.csv"
check "report of a short run" "$REPORT" "$run"
check "page says the timeline is short" grep -q "The timeline covers 10.0 s of the schedule&#39;s 15.0 s" "$run/report.html"
check "short run gets the warning banner" grep -q '<div class="banner" id="status">' "$run/report.html"

# a serial run: each variant's pass restarts the clock (harness rows appear in every pass)
run=$TEST_TMP/serial
known_run "$run"
{
	head -n 1 "$run/timeline.csv"
	grep -E '^[0-9.]+,(alpha|_loadgen|_upstream),' "$run/timeline.csv"
	grep -E '^[0-9.]+,(beta|_loadgen|_upstream),' "$run/timeline.csv"
} >"$run/t" && mv "$run/t" "$run/timeline.csv"
check "report of a serial run" "$REPORT" "$run"
check_eq "serial: alpha's peak growth as in parallel" 2 "$(jq '.variants.alpha.peak_growth_first_to_last_mb' "$run/summary.json")"
check_eq "serial: one saturated stretch per pass" 2 "$(jq '.harness.saturated_periods|length' "$run/summary.json")"
check_eq "serial: six charts" 6 "$(grep -c '<svg class="chart"' "$run/report.html")"

# a long run: its lines are thinned for the page, but a one-interval peak still shows
run=$TEST_TMP/long
known_run "$run"
{
	head -n 1 "$run/timeline.csv"
	for ((i = 1; i <= 6000; i++)); do
		known_row "$i" alpha baseline 0 10 10 0 1 2 3 20000 $((i == 4321 ? 81920 : 10240)) "$i" 0 - -
	done
} >"$run/t" && mv "$run/t" "$run/timeline.csv"
check "report of a long run" "$REPORT" "$run"
check "the single 80 MB interval reaches the chart" grep -q '<text> 80</text>' "$run/report.html"
check "long-run page stays small (thinned lines)" test "$(stat -c %s "$run/report.html")" -lt 300000

# --- malformed and missing files: exit 2, message naming file and line, no page ---
run=$TEST_TMP/malformed
known_run "$run"
sed -i '7s/,10240,/,10x40,/' "$run/timeline.csv"
err=$("$REPORT" "$run" 2>&1 >/dev/null)
rc=$?
check_eq "malformed timeline exits 2" 2 "$rc"
check "error names timeline.csv:7 and the column" grep -q "timeline.csv:7: column \"anon_kb\"" <<<"$err"
check "no page for a malformed run" test ! -e "$run/report.html"
known_run "$run"
sed -i '3s/.*/{"t_s": 9.0, "variant": "_loadgen"/' "$run/events.jsonl"
err=$("$REPORT" "$run" 2>&1 >/dev/null)
check "error names events.jsonl:3" grep -q "events.jsonl:3:" <<<"$err"
known_run "$run"
printf '{"status": "completed",\n "format": 1,,\n}' >"$run/run.json"
err=$("$REPORT" "$run" 2>&1 >/dev/null)
check "error names run.json:2" grep -q "run.json:2:" <<<"$err"
rm -f "$run/run.json"
err=$("$REPORT" "$run" 2>&1 >/dev/null)
check "missing run.json named" grep -q "run.json" <<<"$err"
"$REPORT" "$TEST_TMP/nonexistent" 2>/dev/null
check_eq "missing folder exits 2" 2 "$?"

# --- without gnuplot the page is still made, and says why it has no charts ---
run=$TEST_TMP/nognuplot
known_run "$run"
ALLOCSPIKE_GNUPLOT=/nonexistent/gnuplot "$REPORT" "$run" >/dev/null 2>&1
check "page made without gnuplot" grep -q 'Charts could not be drawn' "$run/report.html"

# --- compare: runs side by side, variant by variant, with the spread of repeats ---
known_run "$TEST_TMP/rep1"
known_run "$TEST_TMP/rep2"
sed -i 's/,32768,/,33792,/' "$TEST_TMP/rep2/timeline.csv" # alpha's third peak 1 MB higher
out=$(cd "$TEST_TMP" && "$REPORT" compare rep1 rep2 "$ALLOCSPIKE_SOURCE_DIR/tests/fixtures/run-minimal" -o cmp.html)
check_eq "compare prints its page" cmp.html "$out"
C=$TEST_TMP/cmp.html
for v in alpha beta glibc jemalloc; do
	check "compare has variant $v" grep -qE "<h2 id=\"variant-[0-9]+\">$v</h2>" "$C"
done
check "compare names run 3" grep -q 'run 3' "$C"
check "compare marks a variant absent from a run" grep -q 'absent' "$C"
# alpha's peak growth first to last: 2 and 3 MB -> mean 2.5, range 2 to 3
check "compare shows the mean of repeats" grep -q '<td>peak growth, first to last spike (MB)</td><td>+2.00</td><td>+3.00</td><td><span class="muted">absent</span></td><td>+2.50</td>' "$C"
check "compare shows the range of repeats" grep -q '<td>+2.00 &ndash; +3.00</td>' "$C"
check_eq "compare charts, one per variant" 4 "$(grep -c '<svg class="chart"' "$C")"
check "compare page references nothing outside itself" self_contained "$C"
"$REPORT" compare 2>/dev/null
check_eq "compare without runs exits 2" 2 "$?"
(cd "$TEST_TMP" && "$REPORT" compare rep1 --out one.html >/dev/null 2>"$TEST_TMP/one.err")
check_eq "compare with one run exits 2" 2 "$?"
check "compare with one run says two are needed" grep -q "two or more run folders" "$TEST_TMP/one.err"
check "compare with one run writes nothing" test ! -e "$TEST_TMP/one.html"
mkdir -p "$TEST_TMP/cwd"
(cd "$TEST_TMP/cwd" && "$REPORT" compare ../rep1 ../rep2 >/dev/null 2>"$TEST_TMP/noout.err")
check_eq "compare without --out exits 0" 0 "$?"
check_eq "compare without --out writes compare.html, .json and .md in the current folder" \
	"compare.html compare.json compare.md" "$(cd "$TEST_TMP/cwd" && echo *)"
out=$(cd "$TEST_TMP" && "$REPORT" compare rep1 rep2 --out "$TEST_TMP/there.html" 2>/dev/null)
check "compare writes where --out says" test -s "$TEST_TMP/there.html"
(cd "$TEST_TMP" && "$REPORT" compare rep1 rep2 --output old.html >/dev/null 2>"$TEST_TMP/old.err")
check "the old --output still works" test -s "$TEST_TMP/old.html"
check "the old --output warns" grep -q "warning: --output is now --out" "$TEST_TMP/old.err"

# --- charts a reader can compare, and the terms the sentences use explained ---
source "$ALLOCSPIKE_SOURCE_DIR/tests/reports/attributed_run.sh"
attr=$TEST_TMP/attributed
attributed_run "$attr"
check "report of the attributed run" "$REPORT" "$attr"
check "each chart file draws its title and axis titles with units; why and latency panels share a y axis" \
	python3 "$ALLOCSPIKE_SOURCE_DIR/tests/reports/chart_files_check.py" "$attr"
for axis in 'memory (MB)' 'anonymous RSS (MB)' 'rate (queries/s)' 'latency (ms)' 'CPU (cores)' \
	'time since the schedule started (s)'; do
	check "an axis reads: $axis" grep -qF -- "$axis" "$attr/report.html"
done
check "the rate chart draws the offered rate" grep -qF '>offered<' "$attr/charts/chart-rate.svg"
# glibc's finding names its top chunk: linked to the glossary at the foot of the page
AP=$attr/report.html
check "a finding links its term to the glossary" grep -qF '<a class="term" href="#term-top-chunk">top chunk</a>' "$AP"
missing=$(grep -o 'href="#term-[a-z-]*"' "$AP" | sort -u | sed 's/href="#//; s/"$//' |
	while read -r id; do grep -qF "id=\"$id\"" "$AP" || echo "$id"; done)
check_eq "every term link has its anchor" "" "$missing"
check "the glossary is in the navigation" grep -qF '<a href="#glossary">Terms</a>' "$AP"
undocumented=$(grep -o '<dt id="term-[a-z-]*"' "$AP" | sed 's/<dt id="term-//; s/"$//' |
	while read -r slug; do grep -qF "(\`$slug\`)" "$ALLOCSPIKE_SOURCE_DIR/docs/glossary.md" || echo "$slug"; done)
check_eq "every term of the page is in docs/glossary.md" "" "$undocumented"
finish
