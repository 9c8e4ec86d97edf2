#!/bin/bash
# tests/agent/agent.sh - allocspike-agent beside our resolver over the test hierarchy: /metrics in
# the Prometheus text format with the run, host and variant labels; the figures are the ones /proc
# and the control socket give at the same moment; reads go on at the interval; the target ending
# turns allocspike_target_up to 0 while the agent keeps serving; a real Prometheus (Debian's)
# scrapes it when installed; /samples streams the reads the record keeps, a stopped agent leaves a
# gap, the record converts to OpenMetrics that promtool imports whole; the clock exchange measures
# a faked offset; bad options exit 2, a missing target 1.
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
NET=127.56.31
source "$ALLOCSPIKE_SOURCE_DIR/tests/resolver/hierarchy_lib.sh"
AGENT="$ALLOCSPIKE_BIN/allocspike-agent"
CHECK="$ALLOCSPIKE_SOURCE_DIR/tests/agent/exposition_check.py"
resolver_binary >/dev/null || skip "no resolver variant built"
cd "$TEST_TMP"

# usage errors
"$AGENT" >/dev/null 2>err.txt
check_eq "no --pid: exit 2" 2 $?
check "no --pid: says so" grep -q -- '--pid is required' err.txt
"$AGENT" --pid 1 --interval 5ms >/dev/null 2>err.txt
check_eq "an interval under 10 ms: exit 2" 2 $?
"$AGENT" --pid 1 --listen 127.0.0.1:notaport >/dev/null 2>err.txt
check_eq "a bad --listen: exit 2" 2 $?
"$AGENT" --pid 4194303 --listen 127.0.0.1:0 >/dev/null 2>err.txt
check_eq "no such process: exit 1" 1 $?
check "no such process: named" grep -q -- '--pid 4194303' err.txt

start_hierarchy "$NET" || exit 1
start_resolver resolver "$NET.10" --upstream-source "$NET.10" || exit 1
start_server agent "$TEST_TMP/agent.ready" "$AGENT" --pid "$RPID" --control "$RCTL" \
	--listen 127.0.0.1:0 --run 'r"1' --host h1 --variant glibc --interval 100ms \
	--ready-file "$TEST_TMP/agent.ready" --record "$TEST_TMP/record.jsonl" >agent.addr || exit 1
AGENT_PID=${_test_pids[-1]}
URL="http://$(cat agent.addr)/metrics"
for n in www.example.test nx.example.test www.example.test; do ask "$n" A >/dev/null; done
sleep 0.3 # a read after the queries

# scrape NAME: the body into NAME.txt, its checked samples into NAME.samples
scrape() {
	curl -sf "$URL" -o "$1.txt" && python3 "$CHECK" "$1.txt" >"$1.samples"
}
# value NAME METRIC: the value of METRIC's one series in scrape NAME
value() { awk -v m="$2" 'index($0, m "{") == 1 { print $NF }' "$1.samples"; }

check "the exposition is valid" scrape s1
labels='{run="r\"1",host="h1",variant="glibc"'
check "every series carries the run (escaped), host and variant" bash -c '! grep -vF -- "$1" s1.samples' _ "$labels"
check "the content type is the text format's" bash -c \
	"curl -sI '$URL' | grep -qi '^Content-Type: text/plain; version=0.0.4'"
check_eq "the target is up" 1 "$(value s1 allocspike_target_up)"
rss_proc=$(awk '/^VmRSS:/ { print $2 * 1024 }' "/proc/$RPID/status")
check "resident memory as /proc says (within 10 %)" awk -v a="$(value s1 allocspike_resident_memory_bytes)" \
	-v b="$rss_proc" 'BEGIN { exit !(a > 0 && a > b * 0.9 && a < b * 1.1) }'
live_ctl=$(stat live_bytes)
if [[ $live_ctl == null ]]; then
	# the sanitizer build counts no live bytes and has no allocator figures of its own
	check "no live bytes from the resolver: none served" bash -c "! grep -q '^allocspike_live_bytes{' s1.samples"
else
	check "live bytes as the control socket says (within 10 %)" awk -v a="$(value s1 allocspike_live_bytes)" \
		-v b="$live_ctl" 'BEGIN { exit !(a > 0 && a > b * 0.9 && a < b * 1.1) }'
	check "the allocator's heap" awk -v a="$(value s1 allocspike_allocator_heap_bytes)" 'BEGIN { exit !(a > 0) }'
fi
check "upstream queries counted" awk -v a="$(value s1 allocspike_upstream_queries_total)" 'BEGIN { exit !(a >= 2) }'
check_eq "CPU by mode" 2 "$(grep -c '^allocspike_cpu_seconds_total{.*mode="\(user\|system\)"}' s1.samples)"
t=$(value s1 allocspike_sample_start_timestamp_seconds)
check "the read's time is the agent's realtime clock" awk -v t="$t" -v now="$(date +%s.%N)" \
	'BEGIN { exit !(t > now - 60 && t <= now) }'

# reads go on between scrapes (at least two more in the time of several intervals)
r1=$(value s1 allocspike_agent_samples_total)
sleep 1
scrape s2
check "reads go on at the interval" awk -v a="$r1" -v b="$(value s2 allocspike_agent_samples_total)" 'BEGIN { exit !(b >= a + 2) }'
check_eq "the control socket answered every read" 0 "$(value s2 allocspike_agent_control_failures_total)"

check_eq "another path: 404" 404 "$(curl -s -o /dev/null -w '%{http_code}' "${URL%/metrics}/other")"
check "a POST is refused" bash -c "code=\$(curl -s -o /dev/null -w '%{http_code}' -X POST '$URL'); [[ \$code == 405 || \$code == 501 ]]"

# a real Prometheus scrapes it (Debian's, when installed: scripts/packages.txt)
if command -v prometheus >/dev/null; then
	port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	cat >prom.yml <<YML
global: {scrape_interval: 1s, scrape_timeout: 900ms}
scrape_configs:
  - job_name: allocspike
    static_configs: [{targets: ["$(cat agent.addr)"]}]
YML
	lifeline_set
	"${LIFELINE[@]}" prometheus --config.file=prom.yml --storage.tsdb.path=tsdb \
		--web.listen-address="127.0.0.1:$port" >prom.log 2>&1 &
	_test_pids+=($!)
	q="http://127.0.0.1:$port/api/v1/query?query=allocspike_resident_memory_bytes"
	for ((i = 0; i < 300; i++)); do
		curl -sf "$q" -o prom.json && [[ $(jq '.data.result | length' prom.json) -ge 1 ]] && break
		sleep 0.1
	done
	check_eq "Prometheus stored the resident memory with the agent's labels" '"glibc h1"' \
		"$(jq -c '.data.result[0].metric | "\(.variant) \(.host)"' prom.json 2>/dev/null)"
	check "Prometheus stored a positive value" jq -e '.data.result[0].value[1] | tonumber > 0' prom.json
	check_eq "Prometheus saw the target up" 1 \
		"$(curl -sf "http://127.0.0.1:$port/api/v1/query?query=allocspike_target_up" | jq -r '.data.result[0].value[1]')"
else
	echo "note: prometheus is not installed; the scrape by a real Prometheus is not checked"
fi

# /samples streams every read as it is made, the lines the record holds
timeout 1 curl -sN "${URL%/metrics}/samples" >stream.jsonl
check "the stream: reads, one JSON line each, in time order" python3 -c '
import json, sys
t = [json.loads(l)["t_start_ns"] for l in open(sys.argv[1])]
sys.exit(not (len(t) >= 3 and t == sorted(t)))' stream.jsonl
check "the stream's lines are in the record" bash -c 'grep -qxF -- "$(sed -n 2p stream.jsonl)" record.jsonl'
# a stopped agent leaves a gap in the record, not reads made up for it afterwards
kill -STOP "$AGENT_PID"
sleep 1
kill -CONT "$AGENT_PID"
sleep 0.5
check "a gap stays a gap" python3 -c '
import json, sys
t = [json.loads(l)["t_start_ns"] / 1e9 for l in open(sys.argv[1])]
gaps = [b - a for a, b in zip(t, t[1:])]
sys.exit(not (max(gaps) >= 0.9 and sorted(gaps)[len(gaps) // 2] < 0.2))' record.jsonl
cp record.jsonl snapshot.jsonl # the agent goes on appending
"$AGENT" openmetrics snapshot.jsonl --run r1 --host h1 --variant glibc >record.om
check_eq "the record as OpenMetrics" 0 $?
check "OpenMetrics ends in # EOF, counters named without _total in TYPE" bash -c \
	"tail -1 record.om | grep -qx '# EOF' && grep -qx '# TYPE allocspike_cpu_seconds counter' record.om"
printf '{"t_start_ns": 1}\nnot json\n' >bad.jsonl
"$AGENT" openmetrics bad.jsonl >/dev/null 2>err.txt
check_eq "a record that is not one: exit 1" 1 $?
check "naming the line" grep -q 'bad.jsonl: line 2: not a read' err.txt
if command -v promtool >/dev/null; then
	want=$(python3 -c '
import json, sys
print(sum(len(json.loads(l)) - 3 for l in open(sys.argv[1])))' snapshot.jsonl)
	promtool tsdb create-blocks-from openmetrics record.om blocks >promtool.txt 2>&1
	check_eq "promtool imports the record" 0 $?
	check_eq "every figure of every read, as a sample" "$want" \
		"$(awk 'length($1) == 26 && $1 ~ /^[0-9A-Z]+$/ { s += $(NF - 3) } END { print s + 0 }' promtool.txt)"
fi

# the clock exchange: our agent is 0 ms off; one under faketime +250 ms is measured 250 ms off
# (half the best round trip is the bound, well under a millisecond on loopback)
"$AGENT" clock "$(cat agent.addr)" >clock.json
check_eq "clock: exit 0 within the bound" 0 $?
check "clock: our own agent within 1 ms" jq -e '(.offset_ms | fabs) < 1 and .exchanges == 8' clock.json
"$AGENT" clock "$(cat agent.addr)" --bound 0ms >/dev/null 2>err.txt
check_eq "clock: a bound no round trip meets refuses (exit 1)" 1 $?
check "clock: the refusal names the agent" grep -qF "agent $(cat agent.addr): offset" err.txt
# libfaketime preloaded through env, which execs: the test's cleanup stops the agent itself (not
# faketime, which forks and would leave it running); not under a sanitizer runtime that refuses
# a library preloaded before it
FAKETIME_LIB=/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1
if [[ -r $FAKETIME_LIB ]] &&
	timeout 5 env LD_PRELOAD="$FAKETIME_LIB" FAKETIME=+0.25 "$AGENT" --version >/dev/null 2>&1; then
	start_server skewed "$TEST_TMP/skewed.ready" env LD_PRELOAD="$FAKETIME_LIB" FAKETIME=+0.25 \
		"$AGENT" --pid "$RPID" --listen 127.0.0.1:0 --duration 60s \
		--ready-file "$TEST_TMP/skewed.ready" >skewed.addr || exit 1
	"$AGENT" clock "$(cat skewed.addr)" --count 20 >skewed.json
	check_eq "clock: the skewed agent measured" 0 $?
	check "clock: 250 ms ahead (within 5 ms)" jq -e '(.offset_ms - 250 | fabs) < 5' skewed.json
else
	echo "note: libfaketime is not installed or not preloadable here; the skewed clock is not checked"
fi
"$AGENT" clock 127.0.0.1:1 >/dev/null 2>err.txt
check_eq "clock: no agent there: exit 1" 1 $?

# the target ends: the agent keeps serving, with the target down and no figures of it
kill "$RPID"
for ((i = 0; i < 50; i++)); do
	scrape s3 && [[ $(value s3 allocspike_target_up) == 0 ]] && break
	sleep 0.1
done
check_eq "the target ended: up 0" 0 "$(value s3 allocspike_target_up)"
check "and no figure of it" bash -c "! grep -q '^allocspike_live_bytes\|^allocspike_resident' s3.samples"
kill "$AGENT_PID"
wait "$AGENT_PID"
check_eq "SIGTERM: the agent exits 0" 0 $?
check "and says what it did" grep -q 'reads ([0-9]* without control answer.*), [0-9]* scrapes' agent.log
finish
