#!/bin/bash
# tests/controller/collect.sh - allocspike-run collect against three agents reading one sleeping
# process (/proc figures only): the clock measured before and during the run into events.jsonl,
# an agent under libfaketime +250 ms placed on the controller's clock beside an honest one; an
# agent stopped for 1 s leaves a 1 s gap, not filled; an agent restarted on its record has what its
# stream missed filled from the record, nothing made up; the token: 401 without it, the collector
# naming the agent; a clock bound no round trip meets refuses; SIGINT ends with everything written;
# usage errors exit 2.
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
RUN="$ALLOCSPIKE_BIN/allocspike-run"
AGENT="$ALLOCSPIKE_BIN/allocspike-agent"
cd "$TEST_TMP" || exit 1
# jqs FILTER FILE: whether jq's filter over FILE's lines (slurped) holds
jqs() { jq -se "$1" "$2" >/dev/null; }

# usage errors
"$RUN" >/dev/null 2>err.txt
check_eq "no subcommand: exit 2" 2 $?
"$RUN" collect --out x >/dev/null 2>err.txt
check_eq "no --agent: exit 2" 2 $?
check "no --agent: says so" grep -q -- '--agent is required' err.txt
"$RUN" collect --agent 127.0.0.1:9 --out x >/dev/null 2>err.txt
check_eq "--agent without a name: exit 2" 2 $?
"$RUN" collect --agent ../a=127.0.0.1:9 --out x >/dev/null 2>err.txt
check_eq "a name that is no identifier: exit 2" 2 $?
"$RUN" collect --agent a=127.0.0.1:9 --agent a=127.0.0.1:8 --out x >/dev/null 2>err.txt
check_eq "a name twice: exit 2" 2 $?
"$RUN" collect --agent a=127.0.0.1:9 --out x --clock-bound 5 >/dev/null 2>err.txt
check_eq "a bound without a unit: exit 2" 2 $?
"$RUN" collect --agent a=nowhere --out x >/dev/null 2>err.txt
check_eq "an address that is none: exit 2" 2 $?
check "nothing written on a usage error" test ! -e x

# the token: a file only its owner reads
printf 'secret-token-1\n' >token
chmod 600 token
printf 'wrong-token\n' >wrong
chmod 600 wrong
printf 'secret-token-1\n' >open-token
chmod 644 open-token
"$AGENT" --pid 1 --token-file open-token >/dev/null 2>err.txt
check_eq "agent: a token others can read: exit 2" 2 $?
check "agent: says the mode" grep -q 'mode 0644 lets others read the token' err.txt
"$AGENT" --pid 1 --token-file . >/dev/null 2>err.txt
check_eq "agent: a token file that is no regular file: exit 2" 2 $?
check "agent: says so" grep -q 'not a regular file' err.txt
"$AGENT" --pid 1 --token-metrics >/dev/null 2>err.txt
check_eq "agent: --token-metrics without a token: exit 2" 2 $?
"$RUN" collect --agent a=127.0.0.1:9 --out x --token-file open-token >/dev/null 2>err.txt
check_eq "collector: a token others can read: exit 2" 2 $?

"$RUN" collect --agent a=127.0.0.1:9 --agent 'b=[::1]:10' --out dry --duration 5s --dry-run >dry.txt
check_eq "dry run: exit 0" 0 $?
check "dry run: names each agent and its file" grep -q 'agent b at \[::1\]:10: .* dry/agents/b.jsonl' dry.txt
check "dry run: contacts and writes nothing" test ! -e dry

"$RUN" collect --agent x=127.0.0.1:1 --out none >/dev/null 2>err.txt
check_eq "no agent there: exit 1" 1 $?
check "no agent there: named" grep -q 'agent x (127.0.0.1:1): connect' err.txt

# the target: a sleeping process, read from /proc only
lifeline_set
"${LIFELINE[@]}" sleep 300 &
_test_pids+=($!)
TARGET=$!
# start_agent NAME [PREFIX...]: an agent on TARGET with the token and record NAME.record; its address
# into NAME.addr (port from NAME.port when there is one: a restart keeps its address)
start_agent() {
	local name=$1 listen=127.0.0.1:0
	shift
	[[ -s $name.port ]] && listen=$(cat "$name.port")
	rm -f "$name.ready"
	start_server "$name" "$TEST_TMP/$name.ready" "$@" "$AGENT" --pid "$TARGET" --listen "$listen" \
		--interval 100ms --token-file token --record "$TEST_TMP/$name.record" \
		--ready-file "$TEST_TMP/$name.ready" --duration 120s >"$name.addr" || exit 1
	cp "$name.addr" "$name.port"
	AGENT_PIDS[$name]=${_test_pids[-1]}
}
declare -A AGENT_PIDS
start_agent a
start_agent c
# libfaketime preloaded through env (which execs, so the pid is the agent's); only where it preloads
FAKETIME_LIB=/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1
if [[ -r $FAKETIME_LIB ]] &&
	timeout 5 env LD_PRELOAD="$FAKETIME_LIB" FAKETIME=+0.25 "$AGENT" --version >/dev/null 2>&1; then
	start_agent b env LD_PRELOAD="$FAKETIME_LIB" FAKETIME=+0.25
	SKEW_MS=250
else
	echo "note: libfaketime is not installed or not preloadable here; agent b's clock is not skewed"
	start_agent b
	SKEW_MS=0
fi

# the token: required where it must be, checked
base_a="http://$(cat a.addr)"
code() { curl -s -o /dev/null -w '%{http_code}' "$@"; }
check_eq "no token: /samples 401" 401 "$(code "$base_a/samples")"
check_eq "no token: /record 401" 401 "$(code "$base_a/record")"
check_eq "no token: /time 401" 401 "$(code "$base_a/time")"
check_eq "a wrong token: 401" 401 "$(code -H 'Authorization: Bearer wrong-token' "$base_a/time")"
check_eq "the token's beginning: 401" 401 "$(code -H 'Authorization: Bearer secret-token-' "$base_a/time")"
check_eq "the token and more: 401" 401 "$(code -H 'Authorization: Bearer secret-token-12' "$base_a/time")"
check_eq "the token in another scheme: 401" 401 "$(code -H 'Authorization: Basic secret-token-1' "$base_a/time")"
check_eq "the token: /time answered" 200 "$(code -H 'Authorization: Bearer secret-token-1' "$base_a/time")"
check_eq "/metrics stays open" 200 "$(code "$base_a/metrics")"
curl -sf -H 'Authorization: Bearer secret-token-1' "$base_a/record?from=1" >from1.jsonl
check "/record from a sequence number" jqs '.[0].seq == 1 and (map(.seq) == [range(1; length + 1)])' from1.jsonl
check_eq "/record?from=NOTANUMBER: 400" 400 \
	"$(code -H 'Authorization: Bearer secret-token-1' "$base_a/record?from=x")"
# --token-metrics: /metrics closed too
start_server m "$TEST_TMP/m.ready" "$AGENT" --pid "$TARGET" --listen 127.0.0.1:0 --token-file token \
	--token-metrics --duration 60s --ready-file "$TEST_TMP/m.ready" >m.addr || exit 1
check_eq "--token-metrics: /metrics 401 without it" 401 "$(code "http://$(cat m.addr)/metrics")"
check_eq "--token-metrics: /metrics with it" 200 \
	"$(code -H 'Authorization: Bearer secret-token-1' "http://$(cat m.addr)/metrics")"
"$RUN" collect --agent a="$(cat a.addr)" --out refused-token >/dev/null 2>err.txt
check_eq "collector without the token: exit 1" 1 $?
check "collector without the token: names the agent and the 401" grep -q "agent a ($(cat a.addr)): .*401" err.txt
"$RUN" collect --agent a="$(cat a.addr)" --out refused-token2 --token-file wrong >/dev/null 2>err.txt
check_eq "collector with a wrong token: exit 1" 1 $?

# a bound no round trip meets refuses the run, naming the agent
"$RUN" collect --agent a="$(cat a.addr)" --agent c="$(cat c.addr)" --out refused --clock-bound 0.001ms \
	--token-file token >/dev/null 2>err.txt
check_eq "an impossible clock bound: exit 1" 1 $?
check "the refusal names the agent" grep -q "agent a ($(cat a.addr)): offset .* over the bound .*refused" err.txt
check "the refusal is in events.jsonl" jqs 'any(.[]; .event == "failed" and .variant == "_controller")' refused/events.jsonl
check "nothing collected, no file made" test ! -e refused/agents

# the collection: a stopped for 1 s, c restarted on its record
lifeline_set
"${LIFELINE[@]}" "$RUN" collect --agent a="$(cat a.addr)" --agent b="$(cat b.addr)" \
	--agent c="$(cat c.addr)" --out run --duration 6s --clock-every 1s --token-file token \
	>collect.out 2>collect.err &
COLLECT=$!
_test_pids+=("$COLLECT")
sleep 1.5
kill -STOP "${AGENT_PIDS[a]}"
sleep 1
kill -CONT "${AGENT_PIDS[a]}"
sleep 0.5
kill "${AGENT_PIDS[c]}"
wait "${AGENT_PIDS[c]}"
sleep 0.3
start_agent c
wait "$COLLECT"
check_eq "the collection: exit 0" 0 $?
cat collect.err

for n in a b c; do
	# (c's measurements while it restarts fail: clock_failed)
	check "agent $n: clock measured before and during the run (every 1 s)" jqs \
		"[.[] | select(.variant == \"$n\" and (.event == \"clock\" or .event == \"clock_failed\"))] | length >= 5 and
		 ([.[] | select(.variant == \"$n\" and .event == \"clock\" and .within_bound)] | length >= 3)" run/events.jsonl
done
check "agent b: measured ${SKEW_MS} ms ahead (within 5 ms)" jqs \
	"[.[] | select(.variant == \"b\" and .event == \"clock\") | .offset_ms - $SKEW_MS | fabs < 5] | all" run/events.jsonl
check "agent a: measured 0 ms ahead (within 1 ms)" jqs \
	'[.[] | select(.variant == "a" and .event == "clock") | .offset_ms | fabs < 1] | all' run/events.jsonl

# placed times: b's reads begin and end with a's (both streams open and close together: within an
# interval, with room for a late read, well under the skew), though its own clock is SKEW_MS ahead;
# each read placed by the offset measured (within the bound)
check "agent b placed on our clock beside agent a" python3 -c '
import json, sys
def times(n, key):
    t = [json.loads(l)[key] / 1e6 for l in open("run/agents/%s.jsonl" % n)]
    return t[0], t[-1]
a, b, braw = times("a", "t_start_ns"), times("b", "t_start_ns"), times("b", "agent_t_start_ns")
skew = float(sys.argv[1])
ok = all(abs(x - y) <= 150 for x, y in zip(a, b))
ok = ok and all(abs(r - p - skew) < 5 for r, p in zip(braw, b))
print("a", a, "b", b, "b raw", braw)
sys.exit(not ok)' "$SKEW_MS"

# gaps (seconds between placed reads) and sources
py_gaps='
import json, sys
rows = [json.loads(l) for l in open("run/agents/%s.jsonl" % sys.argv[1])]
t = [r["t_start_ns"] / 1e9 for r in rows]
gaps = sorted(b - a for a, b in zip(t, t[1:]))
print("reads", len(rows), "largest gaps", gaps[-3:], "record", sum(r["source"] == "record" for r in rows))
'
check "agent a stopped 1 s: a 1 s gap, the others at the interval" python3 -c "$py_gaps
sys.exit(not (sum(g >= 0.9 for g in gaps) == 1 and gaps[-1] < 1.5 and gaps[len(gaps) // 2] < 0.2))" a
check "agent a: the gap not filled (its stream never dropped)" python3 -c "$py_gaps
sys.exit(not all(r['source'] == 'stream' for r in rows))" a
check "agent c: its stream dropped" jqs 'any(.[]; .variant == "c" and .event == "stream_dropped")' run/events.jsonl
check "agent c: reads filled from its record" python3 -c "$py_gaps
sys.exit(not any(r['source'] == 'record' for r in rows))" c
check "agent c: every read it made during the run is there, each once, none made up" python3 -c '
import json
rows = [json.loads(l) for l in open("run/agents/c.jsonl")]
rec = {}
for l in open("c.record"):
    r = json.loads(l)
    rec[r["seq"]] = r["t_start_ns"]
seqs = [r["seq"] for r in rows]
lo, hi = min(seqs), max(seqs)
want = [s for s in sorted(rec) if lo <= s <= hi]
ok = seqs == want and all(rec[r["seq"]] == r["agent_t_start_ns"] for r in rows)
print("collected", len(seqs), "record in the window", len(want))
raise SystemExit(not ok)'
check "agent c: the record numbers on across the restart (seq: the line index)" python3 -c '
import json
raise SystemExit(not all(json.loads(l)["seq"] == i for i, l in enumerate(open("c.record"))))'
check "every agent's collection said in events.jsonl" jqs \
	'[.[] | select(.event == "collected")] | length == 3' run/events.jsonl

# SIGINT: ends cleanly with what was read written
lifeline_set
"${LIFELINE[@]}" "$RUN" collect --agent a="$(cat a.addr)" --out interrupted --token-file token \
	>/dev/null 2>int.err &
COLLECT=$!
_test_pids+=("$COLLECT")
sleep 1.5
kill -INT "$COLLECT"
wait "$COLLECT"
check_eq "SIGINT: exit 0" 0 $?
check "SIGINT: the reads written" bash -c '[[ $(wc -l <interrupted/agents/a.jsonl) -ge 5 ]]'
check "SIGINT: said in events.jsonl" jqs 'any(.[]; .event == "interrupted")' interrupted/events.jsonl
finish
