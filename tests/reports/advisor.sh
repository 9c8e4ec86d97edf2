#!/usr/bin/env bash
# tests/reports/advisor.sh - the tuning advisor on crafted runs whose answer is known: the winner
# within the margin, the settings that did nothing (inside the run-to-run spread), the held-memory
# basis, advice.json for the gate, and the page.
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
REPORT=$ALLOCSPIKE_BIN/allocspike-report
[[ -x $REPORT ]] || skip "allocspike-report is not built"

# run DIR ROWS : a run folder with run.json and summary.json; ROWS are lines of
# "name kind base env held_MB growth_MB_per_spike peak_MB cpu_s_per_M p99_ms", held given as
# anon beyond the cache, (1 MB more) as attributed allocator-held memory and (10 MB more) as anon.
run() {
	local dir=$1
	mkdir -p "$dir"
	jq -Rn '[inputs | select(length > 0) | split(" ") | {name: .[0], kind: .[1], base: .[2], env: .[3],
		held: (.[4] | tonumber), growth: (.[5] | tonumber), peak: (.[6] | tonumber),
		cpu: (.[7] | tonumber), p99: (.[8] | tonumber)}]' <<<"$2" >"$dir/rows.json"
	jq '{format: 1, status: "completed", variants: map({name, kind, base, env, allocator: (.name | split("-")[0])})}' \
		"$dir/rows.json" >"$dir/run.json"
	jq '{format: 1, variant_order: map(.name), variants: (map({key: .name, value: {
		kind, env, allocator: (.name | split("-")[0]), note: "",
		spikes: [{spike: 1, end_beyond_cache_kb: 0, end_held_kb: 0, end_anon_kb: 0, peak_anon_kb: (.peak * 512)},
		         {spike: 2, end_beyond_cache_kb: (.held * 1024), end_held_kb: ((.held + 1) * 1024),
		          end_anon_kb: ((.held + 10) * 1024), peak_anon_kb: (.peak * 1024)}],
		recovery_growth_mb_per_spike: .growth,
		beyond_cache_growth_mb_per_spike: .growth, recovery_held_growth_mb_per_spike: (.growth + 1),
		cpu_s_per_million_answered: .cpu, spike_traffic: {lat_p99_ms: .p99}}}) | from_entries)}' \
		"$dir/rows.json" >"$dir/summary.json"
	rm "$dir/rows.json"
}

# Two repeats. glibc's held memory varies by 3 MB between them, so glibc-arena1 (1.5 MB more, the
# same CPU) is no different; glibc-mmap holds least, glibc-trim is within 1 MB of it and cheaper;
# glibc-pad is cheapest of all but holds far more. jemalloc's settings are all within the margin and
# none is cheaper beyond 5 %: the default wins; jemalloc-bg differs in nothing.
rows="glibc build - - 18.5 2 60 40 50
glibc-trim env glibc GLIBC_TUNABLES=x 5 0.1 45 44 51
glibc-mmap env glibc GLIBC_TUNABLES=y 4.5 0 44 60 52
glibc-arena1 env glibc GLIBC_TUNABLES=z 21.5 2 60 40.5 50
glibc-pad env glibc GLIBC_TUNABLES=w 12 1 55 39 50
jemalloc build - - 3 0 30 30 40
jemalloc-bg env jemalloc MALLOC_CONF=a 2.8 0 30 31 40
jemalloc-decay0 env jemalloc MALLOC_CONF=b 2.5 0 29 45 41
kresd-glibc preload kresd - 30 3 80 50 60
kresd-glibc-trim preload kresd GLIBC_TUNABLES=x 10 0 60 52 60"
run "$TEST_TMP/r1" "$rows"
run "$TEST_TMP/r2" "${rows/glibc build - - 18.5 2 60/glibc build - - 21.5 2 61}"

out=$TEST_TMP/advice
mkdir -p "$out"
page=$("$REPORT" advise "$TEST_TMP/r1" "$TEST_TMP/r2" -o "$out" 2>"$TEST_TMP/advise.err")
check_eq "advise exits 0" 0 "$?"
check_eq "it prints the page's path" "$out/advisor.html" "$page"
A=$out/advice.json
g() { jq -r --arg g "$1" ".groups[] | select(.name == \$g) | $2" "$A"; }
check_eq "glibc: the lowest held memory" glibc-mmap "$(g glibc .lowest)"
check_eq "glibc: the cheapest within the margin wins" glibc-trim "$(g glibc .recommended)"
check_eq "glibc: what did nothing (inside glibc's 3 MB spread)" '["glibc-arena1"]' "$(g glibc '.does_nothing | tojson')"
check_eq "jemalloc: the default wins a tie on CPU" jemalloc "$(g jemalloc .recommended)"
check_eq "jemalloc: what did nothing" '["jemalloc-bg"]' "$(g jemalloc '.does_nothing | tojson')"
# A daemon's rows group by daemon and preloaded library, named after the row without settings.
check_eq "kresd: its settings are one group named after the default" kresd-glibc \
	"$(jq -r '.groups[] | select(.reference == "kresd-glibc") | .label' "$A")"
check_eq "kresd: the setting that keeps memory down wins" kresd-glibc-trim \
	"$(jq -r '.groups[] | select(.reference == "kresd-glibc") | .recommended' "$A")"
check_eq "three groups" 3 "$(jq '.groups | length' "$A")"
check "the sentence names the winner and the margin" \
	grep -qF "glibc: the cheapest setting within 1.0 MB of the lowest held memory (5.5 MB, glibc-mmap) is glibc-trim" <<<"$(g glibc .sentence)"
check "the sentence says the default is enough" grep -qF "jemalloc: no setting is needed" <<<"$(g jemalloc .sentence)"
check "the sentence lists what did nothing" grep -qF "beyond the run-to-run spread: glibc-arena1." <<<"$(g glibc .sentence)"
check "repeats: no floors warning" bash -c "! grep -qF 'One run each' <<<'$(g glibc .sentence)'"
check "the sentences are printed" grep -qF "glibc-trim" "$TEST_TMP/advise.err"
# Every run has attributed figures: held memory is allocator-held (1 MB above beyond-cache here).
check_eq "basis: allocator-held" allocator_held "$(jq -r .held_basis "$A")"
check_eq "median over the repeats" 21 "$(jq -r '.variants.glibc.held_after_spikes_mb' "$A")"
check_eq "spread over the repeats" 3 "$(jq -r '.variants.glibc.held_after_spikes_mb_spread' "$A")"
check_eq "growth per spike, attributed" 3 "$(jq -r '.variants.glibc.held_growth_mb_per_spike' "$A")"
check_eq "peak over the spikes" 60.5 "$(jq -r '.variants.glibc.peak_anon_mb' "$A")"
check_eq "one run has no spread" null "$(jq -r '.variants["glibc-trim"].cpu_s_per_million_answered_spread' \
	<(jq '.variants["glibc-trim"].cpu_s_per_million_answered_spread = null' "$A"))"
check_eq "Pareto: glibc-pad (cheapest) is on the front" true "$(jq -r '.variants["glibc-pad"].pareto' "$A")"
check_eq "Pareto: glibc is not" false "$(jq -r '.variants.glibc.pareto' "$A")"

# The gate reads the advisor's folder.
"$REPORT" check "$out" --fail-if 'held_after_spikes_mb[glibc-trim] > 10' >/dev/null
check_eq "gate passes on an advisor figure" 0 "$?"
"$REPORT" check "$out" --fail-if 'held_after_spikes_mb[glibc-trim] > 4' >"$TEST_TMP/gate.out"
check_eq "gate fails on an advisor figure" 1 "$?"
check "the failure names the figure" grep -qF "held_after_spikes_mb[glibc-trim] > 4: 6 > 4" "$TEST_TMP/gate.out"

check "the page has the sentence" grep -qF "is glibc-trim" "$page"
check "the page has a Pareto chart per group" test "$(grep -c '<svg class="chart" id="pareto' "$page")" -eq 3
check "the page has no outside reference" bash -c "! grep -qE 'src=|href=|url\\(|@import' '$page'"

# One run without attributed figures: every setting falls back to anon RSS beyond the cache.
jq '.variants.glibc.spikes[1].end_held_kb = null' "$TEST_TMP/r2/summary.json" >"$TEST_TMP/s" &&
	mv "$TEST_TMP/s" "$TEST_TMP/r2/summary.json"
"$REPORT" advise "$TEST_TMP/r1" "$TEST_TMP/r2" -o "$out" >/dev/null 2>&1
check_eq "basis: anon beyond the cache" anon_beyond_cache "$(jq -r .held_basis "$A")"
check_eq "fallback figure" 20 "$(jq -r '.variants.glibc.held_after_spikes_mb' "$A")"
check_eq "the winner does not depend on the basis here" glibc-trim "$(g glibc .recommended)"

# A row without its cache figure (a daemon): anon RSS for every setting.
jq '.variants["kresd-glibc"].spikes[1].end_beyond_cache_kb = null' "$TEST_TMP/r1/summary.json" >"$TEST_TMP/s" &&
	mv "$TEST_TMP/s" "$TEST_TMP/r1/summary.json"
"$REPORT" advise "$TEST_TMP/r1" "$TEST_TMP/r2" -o "$out" >/dev/null 2>&1
check_eq "basis: anon RSS" anon "$(jq -r .held_basis "$A")"
check_eq "anon figure" 30 "$(jq -r '.variants.glibc.held_after_spikes_mb' "$A")"

# A single run: only the floors judge; glibc-arena1 is now 3 MB above glibc and does something.
"$REPORT" advise "$TEST_TMP/r1" -o "$out" >/dev/null 2>&1
check_eq "one run: nothing did nothing in glibc" '[]' "$(g glibc '.does_nothing | tojson')"
check "one run: the sentence says the floors judged" grep -qF "One run each" <<<"$(g glibc .sentence)"

# Runs that load the machine differently move every row together: tcmalloc's default holds 4 MB in
# one run and 11 MB in the other. Each setting is judged against the default of its own run:
# tcmalloc-same follows the default and does nothing; tcmalloc-less is 3 MB below it in both runs
# and wins, although 3 MB is inside the default's 7 MB spread between runs.
run "$TEST_TMP/p1" "tcmalloc build - - 4 0 20 30 40
tcmalloc-same env tcmalloc TCMALLOC_X=1 4.2 0 20 30 40
tcmalloc-less env tcmalloc TCMALLOC_X=2 1 0 17 30 40"
run "$TEST_TMP/p2" "tcmalloc build - - 11 0 27 30 40
tcmalloc-same env tcmalloc TCMALLOC_X=1 10.9 0 27 30 40
tcmalloc-less env tcmalloc TCMALLOC_X=2 8 0 24 30 40"
"$REPORT" advise "$TEST_TMP/p1" "$TEST_TMP/p2" -o "$out" >/dev/null 2>&1
check_eq "paired: the setting below its run's default wins" tcmalloc-less "$(g tcmalloc .recommended)"
check_eq "paired: the one that follows the default did nothing" '["tcmalloc-same"]' "$(g tcmalloc '.does_nothing | tojson')"
check_eq "paired: its difference from the default" -3 "$(jq -r '.variants["tcmalloc-less"].vs_default_same_run.held_after_spikes_mb' "$A")"
check "paired: the sentence says so" grep -qF "compared with the default measured in the same run" <<<"$(g tcmalloc .sentence)"

# Bad input.
"$REPORT" advise "$TEST_TMP/nowhere" -o "$out" 2>"$TEST_TMP/err" >/dev/null
check_eq "a missing run is bad input" 2 "$?"
check "the error names it" grep -qF "$TEST_TMP/nowhere" "$TEST_TMP/err"
"$REPORT" advise "$TEST_TMP/r1" --margin-mb lots 2>"$TEST_TMP/err" >/dev/null
check_eq "a bad margin is bad input" 2 "$?"
finish
