#!/usr/bin/env bash
# tests/reports/compare_spread.sh - `compare` states how far repeats lie apart, per variant and spike:
# three copies of the attributed run (tests/reports/attributed_run.sh), the second with 1.3 times and
# the third with 0.8 times the requests in flight and every memory figure (as when CPU scheduling lets
# more or fewer requests pile up at a peak). The raw allocator-held memory then spreads by 50 % and is
# flagged; held memory per 1,000 requests in flight at the highest peak so far, and as a share of
# the allocator's highest footprint so far, are the same in every run and agree.
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
source "$ALLOCSPIKE_SOURCE_DIR/tests/reports/known_run.sh"
source "$ALLOCSPIKE_SOURCE_DIR/tests/reports/attributed_run.sh"
REPORT=$ALLOCSPIKE_BIN/allocspike-report
[[ -x $REPORT ]] || skip "allocspike-report is not built"

# scaled_run DIR FACTOR : the attributed run with in-flight requests and memory times FACTOR.
scaled_run() {
	attributed_run "$1"
	awk -F, -v OFS=, -v f="$2" '
		NR == 1 { for (i = 1; i <= NF; i++) if ($i ~ /^(inflight|live_bytes|alloc_heap_bytes|anon_kb|rss_kb|alloc_free_(trimmable|fragmented)_bytes)$/) s[i] = 1; print; next }
		{ for (i in s) if ($i != "") $i = sprintf("%.0f", $i * f); print }' \
		"$1/timeline.csv" >"$1/t" && mv "$1/t" "$1/timeline.csv"
}
scaled_run "$TEST_TMP/r1" 1
scaled_run "$TEST_TMP/r2" 1.3
scaled_run "$TEST_TMP/r3" 0.8
"$REPORT" compare "$TEST_TMP/r1" "$TEST_TMP/r2" "$TEST_TMP/r3" --out "$TEST_TMP/cmp.html" >/dev/null 2>"$TEST_TMP/err"
check_eq "compare exits 0" 0 $?
page=$TEST_TMP/cmp.html
check "in flight at glibc's first peak: 1040 times each run's factor, spread 50 %" grep -qF \
	'<tr><td>spike 1: requests in flight at the peak</td><td>1040</td><td>1352</td><td>832</td>' "$page"
# glibc after spike 1's recovery: 12 MB held (15.6 and 9.6 in the scaled runs): min 9.6, median 12,
# max 15.6, spread 6 / 12 = 50 %, flagged
row=$(grep -o '<tr><td>spike 1: allocator-held after recovery (MB)</td>.*</tr>' "$page" | head -1)
check_eq "raw held: each run, min, median, max, spread flagged" \
	'<tr><td>spike 1: allocator-held after recovery (MB)</td><td>12.0</td><td>15.6</td><td>9.6</td><td>9.6</td><td>12.0</td><td>15.6</td><td><strong style="color:#b00020">50.0% &gt; 10%</strong></td></tr>' \
	"$row"
# per 1,000 in flight at the highest peak so far: 12 / 1.04 = 11.54 in every run, spread 0 %
row=$(grep -o '<tr><td>spike 1: held per 1,000 of those (MB)</td>.*</tr>' "$page" | head -1)
check "held per 1,000 in flight agrees, not flagged" grep -q \
	'<td>11.54</td><td>11.54</td><td>0.0%</td></tr>' <<<"${row}"
# as a share of the highest footprint so far (22 MB): 54.5 % in every run; a share's spread is in
# percentage points (reports/spread.h)
row=$(grep -o '<tr><td>spike 1: held as a share of that footprint</td>.*</tr>' "$page" | head -1)
check "held as a share of the highest footprint agrees, not flagged" grep -q \
	'<td>54.5%</td><td>54.5%</td><td>0.0 points</td></tr>' <<<"${row}"
# moved along the line through all 9 spikes (12.5 MB per 1,000) to spike 1's median pile-up (1040):
# 12.0, 11.7, 12.2 MB, spread 4.2 %, not flagged
row=$(grep -o '<tr><td>spike 1: allocator-held after recovery at the spike&#39;s median pile-up (MB)</td>.*</tr>' "$page" | head -1)
check_eq "held at the median pile-up agrees" \
	'<tr><td>spike 1: allocator-held after recovery at the spike&#39;s median pile-up (MB)</td><td>12.0</td><td>11.7</td><td>12.2</td><td>11.7</td><td>12.0</td><td>12.2</td><td>4.2%</td></tr>' \
	"$(sed 's/<\/tr>.*/<\/tr>/' <<<"$row")"
check "the caption states the line" grep -q \
	'fitted through all 9 spikes of the runs, held = 0.00 MB + 12.50 MB per 1,000 of the most requests in flight at any peak so far (R&sup2; 0.91)' "$page"
check "the caption counts the spikes that agree" grep -q \
	'allocator-held after recovery (MB) 0 of 3; requests in flight at the peak 0 of 3; most in flight at any peak so far 0 of 3; held per 1,000 of those (MB) 3 of 3; allocator&#39;s highest footprint so far (MB) 0 of 3; held as a share of that footprint 3 of 3; allocator-held after recovery at the spike&#39;s median pile-up (MB) 3 of 3' "$page"
check "a daemon without live bytes has no spread to state" \
	grep -q 'spike 3: held as a share of that footprint</td><td><span class="muted">n/a</span>' "$page"
check "glibc gets the chart of held memory per 1,000 in flight over the spikes" grep -q 'id="chart-spk-0"' "$page"
check_eq "kresd (no live bytes, the sixth variant) gets none" 0 "$(grep -c 'id="chart-spk-5"' "$page")"
check "every chart drawn or the page says why" test "$(grep -c '<svg class="chart"' "$page")" -eq 11 -o -n "$(grep -l 'Charts could not be drawn' "$page")"
# Two runs that agree: nothing flagged.
"$REPORT" compare "$TEST_TMP/r1" "$TEST_TMP/r1" --out "$TEST_TMP/same.html" >/dev/null 2>&1
check_eq "the same run twice: no spread over 10 %" 0 "$(grep -c '&gt; 10%' "$TEST_TMP/same.html")"
finish
