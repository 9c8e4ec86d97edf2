#!/bin/bash
# tests/reports/agent_run.sh - end to end on loopback: our resolver over the test hierarchy sampled
# only by allocspike-agent (the generator's target has no pid: no local memory), the reads collected
# by allocspike-run collect, the generator started at the same instant (--start-at), then
# allocspike-report: the agent's reads fill the variant's memory in at least 99 % of its intervals
# and the context names the agent and its clock offsets. A tiny, bounded load (20 qps for 3 s).
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
NET=127.56.47
source "$ALLOCSPIKE_SOURCE_DIR/tests/resolver/hierarchy_lib.sh"
AGENT="$ALLOCSPIKE_BIN/allocspike-agent"
RUN="$ALLOCSPIKE_BIN/allocspike-run"
LG="$ALLOCSPIKE_BIN/allocspike-loadgen"
REPORT="$ALLOCSPIKE_BIN/allocspike-report"
resolver_binary >/dev/null || skip "no resolver variant built"
for p in "$AGENT" "$RUN" "$LG" "$REPORT"; do [[ -x $p ]] || skip "$p is not built"; done
cd "$TEST_TMP" || exit 1

start_hierarchy "$NET" || exit 1
start_resolver resolver "$NET.10" --upstream-source "$NET.10" || exit 1
# two reads per timeline interval: a read's start drifting across an interval's edge by a few ms
# then still leaves one in each
start_server agent "$TEST_TMP/agent.ready" "$AGENT" --pid "$RPID" --control "$RCTL" \
	--listen 127.0.0.1:0 --interval 50ms --duration 60s --record "$TEST_TMP/record.jsonl" \
	--ready-file "$TEST_TMP/agent.ready" >agent.addr || exit 1

printf 'www.example.test A\nnx.example.test A\nwww.example.test AAAA\n' >queries.txt
start=$(($(date +%s) + 2))
"$RUN" collect --agent "glibc=$(cat agent.addr)" --out run --duration 7s --clock-every 1s \
	>collect.out 2>collect.err &
collector=$!
_test_pids+=("$collector")
for _ in $(seq 50); do [[ -e run/timeline.csv ]] && break; sleep 0.05; done
timeout 30 "$LG" -d queries.txt --schedule "baseline:3s@20" \
	--target "name=glibc,addr=$RADDR:$RPORT" --out run --start-at "$start" --no-progress \
	>lg.out 2>lg.err
check_eq "generator: exit status" 0 $?
wait "$collector"
check_eq "collector: exit status" 0 $?
check "the generator recorded the schedule's start" \
	jq -se '[.[] | select(.variant == "_loadgen" and .event == "started")][0].start_realtime | test("^[0-9]+\\.[0-9]{9}$")' run/events.jsonl
check "the generator's rows have no memory of their own" \
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "anon_kb") c = i; next } $2 == "glibc" && $c != "" { exit 1 }' run/timeline.csv
# run.json as a scenario writes it, for the one variant
jq --arg s "baseline:3s@20" '.variants |= map(select(.name == "glibc"))
	| .parameters.interval_ms = 100 | .parameters.schedule = $s | .status = "completed"' \
	"$ALLOCSPIKE_SOURCE_DIR/tests/fixtures/run-minimal/run.json" >run/run.json

"$REPORT" run >/dev/null 2>report.err
check_eq "report: exit status" 0 $?
S=run/summary.json
rows=$(awk -F, '$2 == "glibc"' run/timeline.csv | wc -l)
check "the timeline has the schedule's intervals" test "$rows" -ge 30
check_eq "every interval expected" "$rows" "$(jq -r .agents.glibc.intervals $S)"
check "reads in at least 99 % of the intervals" jq -e '.agents.glibc.share >= 0.99' $S
check "no validity reason for missing reads" jq -e '[.validity.reasons[].code] | index("agent_reads_missing") == null' $S
check "the variant's memory is the agent's" jq -e '.variants.glibc.max_anon_kb > 0 and .variants.glibc.max_rss_kb > 0' $S
check "the clock measured and named" jq -e '.agents.glibc.clock.measurements >= 2 and .agents.glibc.host != null' $S
# the agent's --host label (by default this machine's name) reaches the collector's clock events
check_eq "the variant's host: its agent's label, as the collector saw it" "$(uname -n)" "$(jq -r .variants.glibc.host $S)"
check "every clock event names the agent's host" jq -se "[.[] | select(.event == \"clock\")] | length >= 2 and all(.host == \"$(uname -n)\")" run/events.jsonl
check "page: the agent in the context" grep -q 'agent of glibc' run/report.html
check "summary.md: the agent under Hosts" grep -A3 '^## Hosts' run/summary.md | grep -q -- '- agent of glibc: .*host'
echo "agent reads: $(jq -c ".agents.glibc | {intervals, intervals_with_read, longest_gap, clock}" $S)"
finish
