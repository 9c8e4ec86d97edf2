#!/usr/bin/env bash
# tests/reports/test_report_render.sh - report.html rendered by headless Chromium: charts not blank.
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
source "$ALLOCSPIKE_SOURCE_DIR/tests/reports/known_run.sh"
REPORT=$ALLOCSPIKE_BIN/allocspike-report
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
[[ -n $CHROMIUM ]] || skip "chromium not installed"
command -v gnuplot >/dev/null || skip "gnuplot not installed (gnuplot-nox)"
command -v python3 >/dev/null || skip "python3 not installed"

run=$TEST_TMP/known
known_run "$run"
check "report made" "$REPORT" "$run"
# shot PAGE PNG WIDTH HEIGHT : a screenshot by headless Chromium with no network and a fresh profile.
shot() {
	rm -rf "$TEST_TMP/profile"
	timeout 90 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$TEST_TMP/profile" --hide-scrollbars --screenshot="$2" \
		--window-size="$3,$4" "file://$1" >"$TEST_TMP/chromium.log" 2>&1
	[[ -s $2 ]] || {
		tail -5 "$TEST_TMP/chromium.log"
		return 1
	}
}
# spike shading dce6f2 (reports/chart_gnuplot.c SPIKE_SHADE); line colours of the first variants: 0072b2, d55e00
check "chromium renders the page" shot "$run/report.html" "$TEST_TMP/wide.png" 1200 4000
check "chart areas are not blank (wide window)" python3 "$ALLOCSPIKE_SOURCE_DIR/tests/reports/png_charts.py" \
	"$TEST_TMP/wide.png" 5 dce6f2 0072b2 d55e00
# a narrow window (a phone, a side panel): the charts shrink with it and still show
check "chromium renders the page narrow" shot "$run/report.html" "$TEST_TMP/narrow.png" 420 4600
check "chart areas are not blank (narrow window)" python3 "$ALLOCSPIKE_SOURCE_DIR/tests/reports/png_charts.py" \
	"$TEST_TMP/narrow.png" 5 dce6f2 0072b2 d55e00
# the "why" panels of a run with memory attribution (tests/reports/attributed_run.sh): each panel's
# largest kind of held memory is the one its allocator was made to keep
source "$ALLOCSPIKE_SOURCE_DIR/tests/reports/attributed_run.sh"
attributed_run "$TEST_TMP/attributed"
check "report of the attributed run made" "$REPORT" "$TEST_TMP/attributed"
check "chromium renders the attributed page" shot "$TEST_TMP/attributed/report.html" "$TEST_TMP/why.png" 800 6200
# layer colours: reports/colours.c LAYER_COLOURS and UNSPLIT_COLOUR; forbidden in the panels, the
# allocator colours (reports/colours.c ALLOCATOR_COLOURS)
python3 "$ALLOCSPIKE_SOURCE_DIR/tests/reports/png_layers.py" "$TEST_TMP/why.png" live=332288 \
	returnable=ddaa33 fragmented=882255 other=225555 unsplit=cc6677 \
	-0072b2 -d55e00 -009e73 -cc79a7 -e69f00 -56b4e9 >"$TEST_TMP/layers.txt"
cat "$TEST_TMP/layers.txt"
# px PANEL LAYER : pixels of that layer in that panel (panels in page order: glibc, jemalloc,
# tcmalloc, musl, filling; kresd has none)
px() { awk -v p="$1" -v l="$2" '$1 == "panel" && $2 == p && $3 == l { print $4 }' "$TEST_TMP/layers.txt"; }
check_eq "five panels drawn (kresd has no live bytes)" "panels 5" "$(tail -1 "$TEST_TMP/layers.txt")"
check "glibc panel: mostly free chunks below the top" test "$(px 0 fragmented)" -gt $((3 * $(px 0 returnable)))
check "jemalloc panel: mostly dirty pages" test "$(px 1 returnable)" -gt $((3 * $(px 1 fragmented)))
check "tcmalloc panel: mostly the page heap" test "$(px 2 returnable)" -gt $((3 * $(px 2 fragmented)))
check "musl panel: one unsplit layer" test "$(px 3 unsplit)" -gt 1000 -a "$(px 3 returnable)" -eq 0 -a "$(px 3 fragmented)" -eq 0
check "filling panel: live memory, little held" test "$(px 4 live)" -gt $((10 * ($(px 4 returnable) + $(px 4 fragmented))))
check "live bytes drawn in every panel" test "$(px 0 live)" -gt 10000 -a "$(px 3 live)" -gt 10000
check "no panel shows an allocator's colour" test "$(awk '$3 == "forbidden" { s += $4 } END { print s + 0 }' "$TEST_TMP/layers.txt")" -eq 0
# the panels share one y scale: the same axis, so a layer of the same height is as tall in each
# (glibc's and musl's live bytes are the same series, t=1..15)
check "live bytes as tall in glibc's panel as in musl's" test "$(px 0 live)" -ge $(($(px 3 live) * 95 / 100)) \
	-a "$(px 0 live)" -le $(($(px 3 live) * 105 / 100))
# every table of the page fits a 1400 px window (no sideways scrolling): a copy of the page with
# a script that measures each table as laid out, read back with --dump-dom
# fit PAGE WIDTH : every table of PAGE fits a window WIDTH px wide
fit() {
	python3 "$ALLOCSPIKE_SOURCE_DIR/tests/reports/page_fit.py" inject "$1" "$TEST_TMP/fit.html" || return 1
	rm -rf "$TEST_TMP/profile"
	timeout 90 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$TEST_TMP/profile" --window-size="$2,1200" --dump-dom \
		"file://$TEST_TMP/fit.html" >"$TEST_TMP/fit.dom" 2>"$TEST_TMP/chromium.log"
	python3 "$ALLOCSPIKE_SOURCE_DIR/tests/reports/page_fit.py" check "$TEST_TMP/fit.dom"
}
check "every table of the attributed run fits 1400 px" fit "$TEST_TMP/attributed/report.html" 1400
check "every table of the known run fits 1400 px" fit "$run/report.html" 1400
fit_fails() { ! fit "$@" >/dev/null; }
check "the fit check can fail (a 600 px window)" fit_fails "$TEST_TMP/attributed/report.html" 600
# the new charts as Chromium shows them: the ranking's bars in each allocator's colour (glibc
# 0072b2, jemalloc d55e00), the latency CDF of the spikes (a run with phases.csv and histograms),
# the chart files written for a merge request
late=$TEST_TMP/late
known_run "$late"
printf '%s\n' 'variant,phase,spike,upper_us,count' 'alpha,spike,1,4063.232,1500' 'alpha,spike,1,60817.408,500' \
	'beta,spike,1,2031.616,1000' >"$late/latency_hist.csv"
printf '%s\n' 'variant,phase,spike,sent,answered,timeouts,pending,late_or_foreign,noerror,nxdomain,servfail,rcode_other,lat_p50_ms,lat_p90_ms,lat_p99_ms,lat_p999_ms,lat_max_ms' \
	'alpha,spike,1,2000,2000,0,0,0,2000,0,0,0,4,60,60,60,60' 'beta,spike,1,1000,1000,0,0,0,1000,0,0,0,2,2,2,2,2' >"$late/phases.csv"
check "report of the run with histograms" "$REPORT" "$late"
# the attributed run ranks what the spikes left: glibc and tcmalloc 11-13 MB (blue, green); musl's
# spikes left nothing, so its bar has no height
check "chromium renders the ranking chart file" shot "$TEST_TMP/attributed/charts/chart-ranking.svg" "$TEST_TMP/ranking.png" 900 240
check "ranking bars in each allocator's colour" python3 "$ALLOCSPIKE_SOURCE_DIR/tests/reports/png_colours.py" \
	"$TEST_TMP/ranking.png" 0072b2=3000 009e73=3000
check "chromium renders the latency CDF file" shot "$late/charts/chart-cdf-spike.svg" "$TEST_TMP/cdf.png" 900 380
check "CDF lines drawn for both variants" python3 "$ALLOCSPIKE_SOURCE_DIR/tests/reports/png_colours.py" \
	"$TEST_TMP/cdf.png" 0072b2=200 d55e00=200
check "chromium renders the page with the new charts" shot "$late/report.html" "$TEST_TMP/late.png" 1200 1400
check "the page's ranking bar is drawn" python3 "$ALLOCSPIKE_SOURCE_DIR/tests/reports/png_colours.py" \
	"$TEST_TMP/late.png" 0072b2=3000
# the checker can fail: the CDF has no bar of solid colour
check "colour checker can fail" bash -c "! python3 '$ALLOCSPIKE_SOURCE_DIR/tests/reports/png_colours.py' '$TEST_TMP/cdf.png' 0072b2=50000 >/dev/null"
# the checker can fail: a page made without gnuplot has no chart area
known_run "$TEST_TMP/nocharts"
ALLOCSPIKE_GNUPLOT=/nonexistent/gnuplot "$REPORT" "$TEST_TMP/nocharts" >/dev/null 2>&1
shot "$TEST_TMP/nocharts/report.html" "$TEST_TMP/nocharts.png" 1200 3000
check "checker fails on a page without charts" bash -c "! python3 '$ALLOCSPIKE_SOURCE_DIR/tests/reports/png_charts.py' '$TEST_TMP/nocharts.png' 4 dce6f2 0072b2 d55e00 >/dev/null"
[[ -n ${KEEP_SCREENSHOTS:-} ]] && cp "$TEST_TMP"/*.png "$KEEP_SCREENSHOTS"/
finish
