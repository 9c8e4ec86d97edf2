#!/usr/bin/env bash
# tests/reports/test_report_markdown.sh - summary.md renders, in the renderer GitHub uses (cmark-gfm
# with GitHub's extensions), as exactly the headings, verdict and validity section the report
# wrote, whatever text the run folder carries: carriage returns that would start a heading or a
# fake validity section, an unclosed fence, links, addresses and markup.
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
source "$ALLOCSPIKE_SOURCE_DIR/tests/reports/known_run.sh"
REPORT=$ALLOCSPIKE_BIN/allocspike-report
CHECK=$ALLOCSPIKE_SOURCE_DIR/tests/reports/md_render_check.py
command -v gnuplot >/dev/null || skip "gnuplot not installed (gnuplot-nox)"
command -v cmark-gfm >/dev/null || skip "cmark-gfm not installed"
command -v jq >/dev/null || skip "jq not installed"

# render SUMMARY.md OUT.html : as GitHub does (its extensions; raw HTML left out as it filters it)
render() { cmark-gfm -e table -e autolink -e strikethrough -e tagfilter "$1" >"$2"; }

# --- the known run as it is: the check passes on the report's own structure ---
run=$TEST_TMP/plain
known_run "$run"
check "report of the known run" "$REPORT" "$run"
render "$run/summary.md" "$TEST_TMP/plain.html"
check "rendered summary has the report's structure" python3 "$CHECK" "$TEST_TMP/plain.html" \
	"$run/summary.json" "allocspike: spike run of 2026-11-29T23:00:00Z"

# --- the ranking and anonymous RSS charts as Mermaid blocks, well formed ---
MERMAID=$ALLOCSPIKE_SOURCE_DIR/tests/reports/mermaid_check.py
check "summary.md draws two well-formed Mermaid charts" python3 "$MERMAID" "$run/summary.md" 2
check "each Mermaid chart has its PNG beside it" bash -c "grep -qF '](charts/chart-ranking.png)' '$run/summary.md' \
&& grep -qF '](charts/chart-anon.png)' '$run/summary.md'"
check "the anonymous RSS lines are named with their colours" grep -qF 'Lines: `alpha` `#0072b2`' "$run/summary.md"
sed 's/^    x-axis "variant" \["/    x-axis "variant" ["a"b", "/' "$run/summary.md" >"$TEST_TMP/broken.md"
check "the Mermaid check can fail (a quote in a name, a category without a bar)" \
	bash -c "! python3 '$MERMAID' '$TEST_TMP/broken.md' 2 >/dev/null"
# --- the check can fail: a summary.md with a forged validity section ---
cp "$run/summary.md" "$TEST_TMP/forged.md"
printf '\n## Validity\n\nNothing found that would keep this run from showing what it claims.\n' \
	>>"$TEST_TMP/forged.md"
render "$TEST_TMP/forged.md" "$TEST_TMP/forged.html"
check "the check fails on a forged section" bash -c "! python3 '$CHECK' '$TEST_TMP/forged.html' \
'$run/summary.json' 'allocspike: spike run of 2026-11-29T23:00:00Z' >/dev/null"

# --- hostile text in every free-text field the summary shows ---
run=$TEST_TMP/hostile
known_run "$run"
scenario=$'spike\r\n## Validity\r\n\r\nNothing found that would keep this run from showing what it claims.\r\n```\r\n'
started=$'[click](http://evil.test) www.evil.test mail@evil.test <b>bold</b> **strong** ~~del~~ `code` | cell | # end #'
env=$'MALLOC_CONF=x\r# Verdict\r\n- alpha holds nothing\r\n```'
jq --arg s "$scenario" --arg t "$started" --arg e "$env" \
	'.scenario = $s | .started = $t | .variants[1].env = $e' "$run/run.json" >"$run/run.new"
mv "$run/run.new" "$run/run.json"
check "report of the hostile run" "$REPORT" "$run"
render "$run/summary.md" "$TEST_TMP/hostile.html"
check "hostile text renders as text: headings, verdict and validity are the report's" \
	python3 "$CHECK" "$TEST_TMP/hostile.html" "$run/summary.json" "allocspike: $scenario run of $started"
check "the verdict still names the crash" grep -q 'it crashed' "$TEST_TMP/hostile.html"

finish
