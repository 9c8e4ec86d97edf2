#!/usr/bin/env bash
# tests/reports/advisor.sh - the tuning advisor on crafted raw runs whose answer is known: the
# winner within the margin, the settings that did nothing (inside the run-to-run spread), the
# held-memory basis, the gate over the runs' advice, and the page.
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
REPORT=$ALLOCSPIKE_BIN/allocspike-report
[[ -x $REPORT ]] || skip "allocspike-report is not built"

source "$ALLOCSPIKE_SOURCE_DIR/tests/reports/crafted_timeline.sh"

# run DIR ROWS : a raw run folder (run.json, events.jsonl, timeline.csv: advise computes every
# figure from them, as the report does); ROWS are lines of
# "name kind base env held_MB growth_MB_per_spike peak_MB cpu_s_per_M p99_ms". One-second rows:
# baseline, then five spikes each with its recovery (five: the fewest a per-spike rate is given
# for). At the end of the last recovery the allocator holds held_MB + 1 beyond 8 MB of live bytes
# (allocator-held), anon RSS is held_MB beyond a 10 MB cache; each recovery before it is
# growth_MB_per_spike lower than the next. The last spike peaks at peak_MB of anon RSS (the others
# at half), the spikes' p99 is p99_ms, and 1,000,000 answers cost cpu_s_per_M.
run() {
	local dir=$1
	mkdir -p "$dir"
	: >"$dir/events.jsonl"
	jq -Rn '{format: 1, status: "completed", variants: [inputs | select(length > 0) | split(" ")
		| {name: .[0], kind: .[1], base: .[2], env: .[3], allocator: (.[0] | split("-")[0])}]}' \
		<<<"$2" >"$dir/run.json"
	{
		crafted_header
		awk 'NF {
			name = $1; held = $5; growth = $6; peak = $7; cpu = $8; p99 = $9; n = 5; last = 2 * n + 1
			phase[1] = "baseline"; spike[1] = 0; anon[1] = 12 * 1024; heap[1] = 9
			for (k = 1; k <= n; k++) {
				phase[2 * k] = "spike"; spike[2 * k] = k; heap[2 * k] = 9
				anon[2 * k] = k == n ? peak * 1024 : peak * 512
				phase[2 * k + 1] = "recovery"; spike[2 * k + 1] = k
				anon[2 * k + 1] = (held - growth * (n - k) + 10) * 1024
				heap[2 * k + 1] = held - growth * (n - k) + 9
			}
			for (t = 1; t <= last; t++)
				printf "t_s=%d variant=%s phase=%s spike=%s offered=100000 sent=100000 answered=100000 " \
					"lat_p99_ms=%s rss_kb=%d anon_kb=%d cpu_user_s=%s cpu_sys_s=0 cache_bytes=%d " \
					"live_bytes=%d alloc_heap_bytes=%d\n", t, name, phase[t], spike[t],
					phase[t] == "spike" ? p99 : 1, anon[t] + 2048, anon[t], cpu * (t - 1) / (last - 1),
					10 * 1048576, 8 * 1048576, heap[t] * 1048576
		}' <<<"$2" | crafted_rows
	} >"$dir/timeline.csv"
}

# blank COLUMN VARIANT FILE : the variant's cells of COLUMN emptied (not recorded) in timeline FILE.
blank() {
	awk -F, -v OFS=, -v col="$1" -v v="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == col) c = i }
		NR > 1 && $2 == v { $c = "" } { print }' "$3" >"$3.new" && mv "$3.new" "$3"
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
check_eq "growth per spike, attributed" 2 "$(jq -r '.variants.glibc.held_growth_mb_per_spike' "$A")"
check_eq "peak over the spikes" 60.5 "$(jq -r '.variants.glibc.peak_anon_mb' "$A")"
check_eq "one run has no spread" null "$(jq -r '.variants["glibc-trim"].cpu_s_per_million_answered_spread' \
	<(jq '.variants["glibc-trim"].cpu_s_per_million_answered_spread = null' "$A"))"
check_eq "Pareto: glibc-pad (cheapest) is on the front" true "$(jq -r '.variants["glibc-pad"].pareto' "$A")"
check_eq "Pareto: glibc is not" false "$(jq -r '.variants.glibc.pareto' "$A")"

# The gate computes the advice over the runs themselves; the advisor's folder (advice.json, no
# run.json) is not a run.
"$REPORT" check "$TEST_TMP/r1" "$TEST_TMP/r2" --fail-if 'held_after_spikes_mb[glibc-trim] > 10' >/dev/null
check_eq "gate passes on an advisor figure" 0 "$?"
"$REPORT" check "$TEST_TMP/r1" "$TEST_TMP/r2" --fail-if 'held_after_spikes_mb[glibc-trim] > 4' >"$TEST_TMP/gate.out"
check_eq "gate fails on an advisor figure" 1 "$?"
"$REPORT" check "$out" --fail-if 'held_after_spikes_mb[glibc-trim] > 4' >/dev/null 2>"$TEST_TMP/err"
check_eq "the advisor's folder is not gated on its advice.json" 2 "$?"
check "the refusal names run.json" grep -qF "$out/run.json" "$TEST_TMP/err"
check "the failure names the figure" grep -qF "held_after_spikes_mb[glibc-trim] > 4: 6 > 4" "$TEST_TMP/gate.out"

check "the page has the sentence" grep -qF "is glibc-trim" "$page"
check "the page has a Pareto chart per group" test "$(grep -c '<svg class="chart" id="pareto' "$page")" -eq 3
check "the page has no outside reference" bash -c "! grep -qE 'src=|href=|url\\(|@import' '$page'"

# One run without attributed figures: every setting falls back to anon RSS beyond the cache.
blank alloc_heap_bytes glibc "$TEST_TMP/r2/timeline.csv"
"$REPORT" advise "$TEST_TMP/r1" "$TEST_TMP/r2" -o "$out" >/dev/null 2>&1
check_eq "basis: anon beyond the cache" anon_beyond_cache "$(jq -r .held_basis "$A")"
check_eq "fallback figure" 20 "$(jq -r '.variants.glibc.held_after_spikes_mb' "$A")"
check_eq "the winner does not depend on the basis here" glibc-trim "$(g glibc .recommended)"

# A row without its cache figure (a daemon): anon RSS for every setting.
blank cache_bytes kresd-glibc "$TEST_TMP/r1/timeline.csv"
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
