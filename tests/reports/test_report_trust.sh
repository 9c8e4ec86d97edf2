#!/usr/bin/env bash
# tests/reports/test_report_trust.sh - a run folder is untrusted input (docs/run-folder.md, "Trust"):
# nothing in it, nor in its path, reaches gnuplot as a command; no output is written through a link
# planted in it; a charts/ that is not a folder is an error that names it.
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
source "$ALLOCSPIKE_SOURCE_DIR/tests/reports/known_run.sh"
REPORT=$ALLOCSPIKE_BIN/allocspike-report
command -v gnuplot >/dev/null || skip "gnuplot not installed (gnuplot-nox)"
command -v jq >/dev/null || skip "jq not installed"

# --- a folder whose path holds a newline and a gnuplot command ---
pwned=$TEST_TMP/pwned
# gnuplot's "set output" opens the path at once: "a" must be a file it can write for the old writer's
# script to go on to the line that runs the command
evil=$TEST_TMP/$'a\nsystem "touch '"$pwned"$'"\n#'
: >"$TEST_TMP/a"
mkdir -p "$evil"
known_run "$evil/run"
check "report of a run whose path holds gnuplot commands" "$REPORT" "$evil/run"
check "the command in the path did not run" test ! -e "$pwned"
check "its charts were drawn all the same" grep -q '<svg' "$evil/run/charts/chart-anon.svg"
check "and inlined in the page" grep -q '<svg class="chart" role="img" aria-labelledby="chart-anon-title"' "$evil/run/report.html"

# --- a variant name and a crash label carrying gnuplot commands ---
rm -f "$pwned"
run=$TEST_TMP/names
known_run "$run"
name=$'x\nsystem "touch '"$pwned"$'"\n#'
jq --arg n "$name" '.variants[1].name = $n' "$run/run.json" >"$run/run.json.new"
mv "$run/run.json.new" "$run/run.json"
jq -c --arg n "$name" 'if .variant == "beta" then .variant = $n else . end' "$run/events.jsonl" \
	>"$run/events.new"
mv "$run/events.new" "$run/events.jsonl"
"$REPORT" "$run" >"$TEST_TMP/names.out" 2>&1
check "a variant name with gnuplot commands ran nothing" test ! -e "$pwned"

# --- links planted where the report writes ---
run=$TEST_TMP/links
known_run "$run"
echo precious >"$TEST_TMP/victim"
mkdir "$run/charts"
ln -s "$TEST_TMP/victim" "$run/charts/chart-anon.svg"
ln -s "$TEST_TMP/victim" "$run/summary.md"
rc=0
"$REPORT" "$run" >"$TEST_TMP/links.out" 2>&1 || rc=$?
check_eq "a link in the way: the report fails (writing failed)" 1 "$rc"
check_eq "the link's target is untouched" precious "$(cat "$TEST_TMP/victim")"
check "the chart link is still a link" test -L "$run/charts/chart-anon.svg"
check "the summary link is still a link" test -L "$run/summary.md"
check "the chart link is named" grep -qF "charts/chart-anon.svg: is a symbolic link" "$TEST_TMP/links.out"
check "the summary link is named" grep -qF "summary.md: is a symbolic link" "$TEST_TMP/links.out"
check "the other charts were written" grep -q '<svg' "$run/charts/chart-rate.svg"
check "the page was written" test -s "$run/report.html"

# --- charts/ that is not a folder ---
run=$TEST_TMP/charts-file
known_run "$run"
: >"$run/charts"
rc=0
"$REPORT" "$run" >"$TEST_TMP/charts-file.out" 2>&1 || rc=$?
check_eq "charts/ a regular file: the report fails" 1 "$rc"
check "and names it" grep -qF "$run/charts: is not a folder" "$TEST_TMP/charts-file.out"

run=$TEST_TMP/charts-link
known_run "$run"
mkdir "$TEST_TMP/elsewhere"
ln -s "$TEST_TMP/elsewhere" "$run/charts"
rc=0
"$REPORT" "$run" >"$TEST_TMP/charts-link.out" 2>&1 || rc=$?
check_eq "charts/ a link to another folder: the report fails" 1 "$rc"
check "and names it" grep -qF "$run/charts: is not a folder" "$TEST_TMP/charts-link.out"
check_eq "nothing was written into the other folder" "" "$(ls -A "$TEST_TMP/elsewhere")"

finish
