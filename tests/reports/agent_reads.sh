#!/bin/bash
# tests/reports/agent_reads.sh - reads of an agent on another host (agents/NAME.jsonl) placed on the
# timeline (common/runfolder_agents.c): the minimal fixture with jemalloc's memory cells emptied, as
# a variant sampled remotely has them, and a crafted file of reads: each interval takes the last
# read whose start falls in it, an interval without one stays empty (a gap, never interpolated),
# the local sampler's cells are never overwritten, a file with a line that is no read is refused
# whole, named FILE:LINE, while the report still builds; summary.json "agents" counts the intervals
# (a last row cut short without a read not expected to hold one), names the host and
# the clock offsets; under 99 % a validity reason names the variant and its longest gap. Each
# variant's host: its agent's (the clock events' host), else run.json's row's, else the machine's.
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
REPORT=$ALLOCSPIKE_BIN/allocspike-report
command -v jq >/dev/null || skip "jq not installed"
[[ -x $REPORT ]] || skip "allocspike-report is not built"

fixture=$ALLOCSPIKE_SOURCE_DIR/tests/fixtures/run-minimal
run=$TEST_TMP/run
cp -r "$fixture" "$run"
# jemalloc's memory and resolver cells empty: the figures a local sampler would have filled
awk -F, -v OFS=, '
	NR == 1 { for (i = 1; i <= NF; i++) if ($i ~ /^(rss_kb|anon_kb|pss_kb|hwm_kb|cpu_user_s|cpu_sys_s|cache_entries|cache_bytes|inflight|upstream_queries|alloc_.*|live_bytes|inflight_max|live_bytes_max)$/) blank[i] = 1; print; next }
	$2 == "jemalloc" { for (i in blank) $i = "" }
	{ print }' "$fixture/timeline.csv" >"$run/timeline.csv"
# the schedule's start on CLOCK_REALTIME, as the generator records it, and the controller's clock
# measurements of the agent
S=1796300000
{
	cat "$fixture/events.jsonl"
	echo '{"t_s": -0.05, "variant": "_loadgen", "event": "started", "pid": 1000, "start_realtime": "'$S'.000000000"}'
	echo '{"t_s": 0.1, "variant": "jemalloc", "event": "clock", "offset_ms": 0.012, "rtt_ms": 0.031, "agent": "127.0.0.1:9110", "host": "t2-host"}'
	echo '{"t_s": 5.1, "variant": "jemalloc", "event": "clock", "offset_ms": -0.02, "rtt_ms": 0.05, "agent": "127.0.0.1:9110"}'
} >"$run/events.jsonl"
# read T ANON_KB: one read starting T s after the schedule's start (ns on CLOCK_REALTIME)
read_line() {
	local ns=$(( S * 1000000000 + $(awk -v t="$1" 'BEGIN { printf "%.0f", t * 1e9 }') ))
	echo "{\"seq\": 0, \"t_start_ns\": $ns, \"t_end_ns\": $((ns + 50000)), \"source\": \"stream\", \"up\": 1, \"rss_bytes\": $(($2 * 1024 + 2097152)), \"anon_bytes\": $(($2 * 1024)), \"cpu_user_s\": $1, \"cpu_sys_s\": 0.1, \"live_bytes\": 123456, \"inflight\": 7}"
}
mkdir "$run/agents"
{
	read_line 0.4 4100 # interval (0.0, 0.5]
	read_line 0.9 4200
	read_line 1.3 9000
	# (1.5, 2.0]: no read, the gap
	read_line 2.1 9999 # two in (2.0, 2.5]: the last one counts
	read_line 2.4 7000
	read_line 2.9 5000
	read_line 9.0 1 # after the timeline: nowhere
} >"$run/agents/jemalloc.jsonl"
# glibc was sampled locally too: its cells are never overwritten (a read in every interval)
for t in 0.4 0.9 1.4 1.9 2.4 2.9; do read_line $t 1; done >"$run/agents/glibc.jsonl"

"$REPORT" "$run" >/dev/null 2>"$TEST_TMP/err.txt"
check_eq "report: exit status" 0 $?
check_eq "no warning" "" "$(cat "$TEST_TMP/err.txt")"
S_JSON=$run/summary.json
v() { jq -r ".variants.jemalloc.$1" "$S_JSON"; }
a() { jq -r ".agents.jemalloc$1" "$S_JSON"; }
check_eq "filled: the highest anon is a read's (the last of its interval, not 9999)" "9000 1.5" "$(v max_anon_kb) $(v max_anon_t_s)"
check_eq "filled: the final anon and RSS" "5000 7048" "$(v final_anon_kb) $(v final_rss_kb)"
check_eq "filled: CPU (user time 0.4 s at the first read, 2.9 s at the last)" 2.5 "$(v cpu_s)"
check_eq "the gap left empty: not the fixture's 11000 at 2.0, nothing made up" 9000 "$(jq -r '[.variants.jemalloc.spikes[0].peak_anon_kb] | .[0]' "$S_JSON")"
check_eq "glibc's local cells kept (the fixture's highest)" 12000 "$(jq -r .variants.glibc.max_anon_kb "$S_JSON")"
check_eq "intervals with a read, of" "5 6" "$(a .intervals_with_read) $(a .intervals)"
check_eq "reads counted (placed or not)" 7 "$(a .reads)"
check_eq "the longest gap: where and how long" "1.5 0.5" "$(a .longest_gap.start_s) $(a .longest_gap.length_s)"
check_eq "the host" 127.0.0.1:9110 "$(a .host)"
check_eq "clock offsets: range and count" "-0.02 0.012 2" "$(a .clock.offset_ms_min) $(a .clock.offset_ms_max) $(a .clock.measurements)"
check_eq "validity: the reason names jemalloc only" '["jemalloc"]' "$(jq -c '.validity.reasons[] | select(.code == "agent_reads_missing") | .variants' "$S_JSON")"
check "validity: the text says the share and the longest gap" grep -q 'jemalloc 83.3 % (longest gap 0.5 s from t=1.500 s)' <<<"$(jq -r '.validity.reasons[] | select(.code == "agent_reads_missing") | .text' "$S_JSON")"
check_eq "validity: jemalloc not valid" false "$(jq -r .validity.variants.jemalloc.valid "$S_JSON")"
check "page: the agent in the context, its host and address" grep -q 'agent of jemalloc.*host t2-host (agent at 127.0.0.1:9110)' "$run/report.html"
check "page: the amber reason" grep -q 'under 99 % of the intervals of jemalloc' "$run/report.html"

# each variant's host: jemalloc's its agent's (the clock event's host), glibc's its run.json row's;
# two hosts, so summary.md's Hosts and the page's context name each
check_eq "hosts: jemalloc on its agent's host, glibc on run.json's" "t2-host fixture-host" "$(v host) $(jq -r .variants.glibc.host "$S_JSON")"
check_eq "hosts: the run's hosts" '["fixture-host","t2-host"]' "$(jq -c .hosts "$S_JSON")"
check "hosts: the agent's text names its host and address" grep -q 'host t2-host (agent at 127.0.0.1:9110); reads in' <<<"$(a .text)"
check "summary.md: each variant's host" grep -q '^- jemalloc ran on t2-host$' "$run/summary.md"
check "summary.md: glibc's too" grep -q '^- glibc ran on fixture-host$' "$run/summary.md"
check "page: each variant's host in the context" grep -q '<th>host of glibc</th><td>fixture-host' "$run/report.html"
# an older run.json without the rows' hosts: the machine's name stands for them; without that
# either, none is known (null), and a run on one host says nothing of hosts
cp "$run/run.json" "$TEST_TMP/run.json"
jq 'del(.variants[].host)' "$TEST_TMP/run.json" >"$run/run.json"
"$REPORT" "$run" >/dev/null 2>&1
check_eq "no host in run.json's rows: the machine's" "t2-host fixture-host" "$(v host) $(jq -r .variants.glibc.host "$S_JSON")"
jq 'del(.variants[].host) | del(.machine.hostname)' "$TEST_TMP/run.json" >"$run/run.json"
"$REPORT" "$run" >/dev/null 2>&1
check_eq "no host at all: null, the run's hosts the agent's" 'null ["t2-host"]' "$(jq -r .variants.glibc.host "$S_JSON") $(jq -c .hosts "$S_JSON")"
check "one known host: summary.md names no variant's host" bash -c "! grep -q 'ran on' '$run/summary.md'"
check "one known host: nor does the page" bash -c "! grep -q '<th>host of' '$run/report.html'"
cp "$TEST_TMP/run.json" "$run/run.json"
"$REPORT" "$run" >/dev/null 2>&1

# the agent's clock during the run: measurements within the bound and steady give no reason; one
# known only beyond the bound, one that failed, or an offset that moved more than an interval (the
# fixture's 500 ms) between two measurements each make agent_clock_unbounded, naming the variant,
# its host, the time and the figure
check_eq "clock within the bound: no agent_clock_unbounded" 0 "$(jq '[.validity.reasons[] | select(.code == "agent_clock_unbounded")] | length' "$S_JSON")"
cp "$run/events.jsonl" "$TEST_TMP/events.jsonl"
clock_reason() { jq -c '.validity.reasons[] | select(.code == "agent_clock_unbounded")' "$S_JSON"; }
clock_case() { # NAME EVENT_LINE: the fixture's events and that line, then the report
	{ cat "$TEST_TMP/events.jsonl"; echo "$2"; } >"$run/events.jsonl"
	"$REPORT" "$run" >/dev/null 2>&1
	check_eq "$1: the reason names jemalloc only" '["jemalloc"]' "$(clock_reason | jq -c .variants)"
	check_eq "$1: jemalloc not valid, glibc still" "false true" "$(jq -r '"\(.validity.variants.jemalloc.valid) \(.validity.variants.glibc.valid)"' "$S_JSON")"
	! command -v python3 >/dev/null ||
		check "$1: the truth checker finds the figures said" python3 "$ALLOCSPIKE_SOURCE_DIR/tests/reports/truth_check.py" "$run"
}
clock_case "beyond the bound" '{"t_s": 3.2, "variant": "jemalloc", "event": "clock", "offset_ms": 0.3, "rtt_ms": 14, "exchanges": 8, "bound_ms": 5, "within_bound": false, "agent": "127.0.0.1:9110", "host": "t2-host"}'
check "beyond the bound: host, time and figure said" grep -qF 'jemalloc on t2-host at t=3.200 s: offset known only within +-7.000 ms, over the bound of 5.000 ms (1 of its 3 measurements)' <<<"$(clock_reason | jq -r .text)"
check_eq "beyond the bound: its figures in the reason" '{"bound_ms":5,"count":1,"host":"t2-host","kind":"uncertainty","measurements":3,"t_s":3.2,"uncertainty_ms":7}' "$(clock_reason | jq -cS .clocks.jemalloc)"
check "beyond the bound: the page says it" grep -q 'offset known only within +-7.000 ms' "$run/report.html"
clock_case "a failed measurement" '{"t_s": 4.0, "variant": "jemalloc", "event": "clock_failed", "reason": "connect: Connection refused", "agent": "127.0.0.1:9110"}'
check "a failed measurement: said with its reason" grep -qF 'jemalloc on t2-host at t=4.000 s: the measurement failed (connect: Connection refused) (1 of its 3 measurements)' <<<"$(clock_reason | jq -r .text)"
clock_case "an offset that moved more than an interval" '{"t_s": 6.0, "variant": "jemalloc", "event": "clock", "offset_ms": 650.5, "rtt_ms": 0.04, "exchanges": 8, "bound_ms": 5, "within_bound": true, "agent": "127.0.0.1:9110", "host": "t2-host"}'
check "moved: from, to and the interval said" grep -qF 'jemalloc on t2-host at t=6.000 s: offset moved 650.520 ms (from -0.020 to 650.500 ms), more than one interval (500 ms)' <<<"$(clock_reason | jq -r .text)"
{ cat "$TEST_TMP/events.jsonl"; echo '{"t_s": 6.0, "variant": "jemalloc", "event": "clock", "offset_ms": 400, "rtt_ms": 0.04, "bound_ms": 5, "within_bound": true, "agent": "127.0.0.1:9110"}'; } >"$run/events.jsonl"
"$REPORT" "$run" >/dev/null 2>&1
check_eq "moved less than an interval: no reason" "" "$(clock_reason)"
cp "$TEST_TMP/events.jsonl" "$run/events.jsonl"
"$REPORT" "$run" >/dev/null 2>&1

# a last row cut short (the generator's, at its exit: 10 ms after the one before, under half the
# 500 ms interval) without a read is not expected to hold one; with a read it counts
cp "$run/timeline.csv" "$TEST_TMP/timeline.csv"
awk -F, -v OFS=, '{ print } $1 == "3.0" && $2 != "_loadgen" { $1 = "3.01"; print }' \
	"$TEST_TMP/timeline.csv" >"$run/timeline.csv"
"$REPORT" "$run" >/dev/null 2>&1
check_eq "a short last row without a read: not expected" "5 6" "$(a .intervals_with_read) $(a .intervals)"
check_eq "a short last row without a read: no gap of its own" "1.5 0.5" "$(a .longest_gap.start_s) $(a .longest_gap.length_s)"
cp "$run/agents/jemalloc.jsonl" "$TEST_TMP/jemalloc.jsonl"
read_line 3.005 5000 >>"$run/agents/jemalloc.jsonl"
"$REPORT" "$run" >/dev/null 2>&1
check_eq "a short last row with a read: counted" "6 7" "$(a .intervals_with_read) $(a .intervals)"
cp "$TEST_TMP/jemalloc.jsonl" "$run/agents/jemalloc.jsonl"
cp "$TEST_TMP/timeline.csv" "$run/timeline.csv"

# a line that is no read: the file is refused whole (as every damaged run-folder file), named
# FILE:LINE; the variant has no memory figures, a validity reason says so, the report still builds
cp "$run/agents/jemalloc.jsonl" "$TEST_TMP/jemalloc.jsonl"
echo '{"seq": 9, "t_start_ns": "soon", "anon_bytes": 1}' >>"$run/agents/jemalloc.jsonl"
"$REPORT" "$run" >/dev/null 2>"$TEST_TMP/err.txt"
check_eq "a damaged file: exit status" 0 $?
check "a damaged file: named FILE:LINE, refused" grep -q 'warning: agents/jemalloc.jsonl:8: t_start_ns .*; the file is refused' "$TEST_TMP/err.txt"
check_eq "a damaged file: no interval filled" 0 "$(a .intervals_with_read)"
check_eq "a damaged file: no memory figure from it" null "$(v max_anon_kb)"
check_eq "a damaged file: the validity reason names jemalloc" '["jemalloc"]' "$(jq -c '.validity.reasons[] | select(.code == "agent_reads_missing") | .variants' "$S_JSON")"
cp "$TEST_TMP/jemalloc.jsonl" "$run/agents/jemalloc.jsonl"

# a FIFO in the file's place is not waited on: said, the report still built
mv "$run/agents/glibc.jsonl" "$TEST_TMP/glibc.jsonl"
mkfifo "$run/agents/glibc.jsonl"
timeout 20 "$REPORT" "$run" >/dev/null 2>"$TEST_TMP/err.txt"
check_eq "a FIFO: exit status" 0 $?
check "a FIFO: said" grep -q 'agents/glibc.jsonl: cannot open: not a regular file' "$TEST_TMP/err.txt"
rm "$run/agents/glibc.jsonl"

# no start to place the reads by: said, nothing placed, the report still built
grep -v '"_loadgen", "event": "started"' "$run/events.jsonl" >"$TEST_TMP/ev" && mv "$TEST_TMP/ev" "$run/events.jsonl"
"$REPORT" "$run" >/dev/null 2>"$TEST_TMP/err.txt"
check_eq "no start_realtime: exit status" 0 $?
check "no start_realtime: said" grep -q 'agents/jemalloc.jsonl: the run records no start_realtime' "$TEST_TMP/err.txt"
check_eq "no start_realtime: no interval filled" 0 "$(a .intervals_with_read)"

# without agents/ the summary has no "agents" key
rm -rf "$run/agents"
"$REPORT" "$run" >/dev/null 2>&1
check_eq "no agents/: no agents key" false "$(jq 'has("agents")' "$S_JSON")"
finish
