#!/bin/bash
# tests/loadgen/tcp.sh - queries over TCP (docs/loadgen.md, "Clients and transports"): -m tcp answers
# counted, one connection per client; --tcp-share splits the clients the same way every run; idle
# connections closed and opened again; pipelined answers out of order matched by ID; a truncated UDP
# answer retried over TCP and timed from its first send; a server that resets or dies mid-connection
# counted, the run still ending on time; a server that never answers fills the connection's bound
# and the rest is dropped at send while the pacing goes on; bad usage exits 2.
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
LG="$ALLOCSPIKE_BIN/allocspike-loadgen"
RESP="$ALLOCSPIKE_BIN/allocspike-test-responder"
MISBEHAVE="$ALLOCSPIKE_SOURCE_DIR/tests/loadgen/tcp_responder.py"
NET=127.56.20
cd "$TEST_TMP"
cat >answers.txt <<'FIX'
query big.example.com. TXT udp
flags tc
delay 300
query big.example.com. TXT tcp
answer big.example.com. 60 IN TXT "the whole answer, over TCP"
query * *
answer x. 60 IN A 192.0.2.1
FIX
for i in $(seq 1 20); do echo "t$i.example.com A"; done >q.txt
start_server r r.ready "$RESP" --listen "$NET.1:0" --fixture answers.txt --log r.queries --ready-file r.ready >r.addr || exit 1
addr=$(cat r.addr)
# the "summary" event of a run folder's events.jsonl
summary() { jq -c "select(.event == \"summary\") | $2" "$1/events.jsonl"; }

# every query over TCP, 10 clients: all answered, one connection each, the responder saw TCP only
timeout 30 "$LG" -d q.txt -Q 50 -l 2 -m tcp --clients 10 --target "name=a,addr=$addr" --out run1 >out1.txt 2>err1.txt
check_eq "-m tcp: exit status" 0 $?
check "-m tcp: all answered" grep -q 'Queries completed:    100 (100.00%)' out1.txt
check "-m tcp: the transports apart" grep -q 'TCP:                  sent 100, retried after TC 0, answered 100' out1.txt
check "-m tcp: no UDP" grep -q 'UDP:                  sent 0, answered 0' out1.txt
check "-m tcp: one connection per client" grep -q 'TCP connections:      opened 10, connect failures 0' out1.txt
check_eq "-m tcp: the responder saw TCP only" 100 "$(grep -c ' tcp$' r.queries)"
check_eq "-m tcp: from 10 source ports" 10 "$(awk '{ print $2 }' r.queries | sort -u | wc -l)"
check_eq "-m tcp: summary event" '{"sent":100,"answered":100,"connects":10}' \
	"$(summary run1 '.tcp | {sent, answered, connects}')"
check "-m tcp: TCP latency reported" grep -q 'TCP Latency p50/p90/p99 (s):' out1.txt

# --tcp-share: 3 of 10 clients over TCP, so 30 of 100 queries; the same ones in a second run
for run in 2 3; do
	: >r.queries
	timeout 30 "$LG" -d q.txt -Q 50 -l 2 --tcp-share 0.3 --clients 10 --target "name=a,addr=$addr" >out$run.txt 2>err$run.txt
	check_eq "--tcp-share 0.3 (run $run): exit status" 0 $?
	awk '{ print $4, $6 }' r.queries | sort >split$run.txt
done
check_eq "--tcp-share 0.3: TCP queries" 30 "$(grep -c ' tcp$' split2.txt)"
check_eq "--tcp-share 0.3: UDP queries" 70 "$(grep -c ' udp$' split2.txt)"
check "--tcp-share 0.3: all answered" grep -q 'Queries completed:    100 (100.00%)' out2.txt
check "--tcp-share 0.3: 3 connections" grep -q 'TCP connections:      opened 3,' out2.txt
check "--tcp-share: the same queries over TCP every run" cmp -s split2.txt split3.txt

# --tcp-idle: a silent second closes both clients' connections (idle after 200 ms), and the
# queries after it open new ones
timeout 30 "$LG" -d q.txt --schedule 'baseline:1s@20,zero:1s,baseline:1s@20' -m tcp --clients 2 --tcp-idle 200ms \
	--target "name=a,addr=$addr" --out run4 >out4.txt 2>err4.txt
check_eq "--tcp-idle: exit status" 0 $?
check "--tcp-idle: all answered" grep -q 'Queries completed:    40 (100.00%)' out4.txt
check "--tcp-idle: closed when idle, opened again" \
	test "$(summary run4 '.tcp.closed_idle')" -ge 2 -a "$(summary run4 '.tcp.connects')" -ge 4

# pipelining: a server answering each pair of queries in reverse order; every answer matched by ID
start_server reorder reorder.ready python3 "$MISBEHAVE" "$NET.2" reorder.ready reverse >reorder.addr || exit 1
timeout 30 "$LG" -d q.txt -Q 40 -l 1 -m tcp --clients 1 --target "name=a,addr=$(cat reorder.addr)" >out5.txt 2>err5.txt
check_eq "out of order: exit status" 0 $?
check "out of order: answers came reversed" test "$(grep -c reversed "$TEST_TMP/reorder.log")" -ge 10
check "out of order: all matched" grep -q 'Queries completed:    40 (100.00%)' out5.txt
check "out of order: none foreign or unexpected" bash -c "! grep -q 'Late or foreign\|Unexpected' out5.txt"

# truncation: the UDP answer (300 ms late) has TC; --tc-retry asks again over TCP, by the same
# client, and the TCP answer counts, timed from the first send
for i in $(seq 1 10); do echo "big.example.com TXT"; echo "s$i.example.com A"; done >tc.txt
: >r.queries
timeout 30 "$LG" -d tc.txt -Q 20 -l 1 --tc-retry --target "name=a,addr=$addr" --out run6 >out6.txt 2>err6.txt
check_eq "--tc-retry: exit status" 0 $?
check "--tc-retry: all answered" grep -q 'Queries completed:    20 (100.00%)' out6.txt
check "--tc-retry: truncated, retried" grep -q 'Truncated (TC):       10 (retried over TCP: 10)' out6.txt
check "--tc-retry: TCP answered the retries" grep -q 'TCP:                  sent 0, retried after TC 10, answered 10' out6.txt
check_eq "--tc-retry: the responder saw each big one twice" "10 udp
10 tcp" "$(awk '$4 == "big.example.com." { print $6 }' r.queries | sort -r | uniq -c | awk '{ print $1, $2 }')"
check "--tc-retry: timed from the first send (the UDP answer's 300 ms included)" \
	jq -e 'select(.event == "summary") | .tcp.lat_p50_ms >= 290' run6/events.jsonl >/dev/null
timeout 30 "$LG" -d tc.txt -Q 20 -l 1 --target "name=a,addr=$addr" >out7.txt 2>err7.txt
check "without --tc-retry: TC answers count" grep -q 'Queries completed:    20 (100.00%)' out7.txt
check "without --tc-retry: counted as truncated" grep -q 'Truncated (TC):       10 (retried over TCP: 0)' out7.txt
check "without --tc-retry: no TCP" bash -c "! grep -q 'TCP connections' out7.txt"

# a server resetting every connection after 5 answers: resets counted, the rest time out, the
# client connects again
start_server resetter resetter.ready python3 "$MISBEHAVE" "$NET.3" resetter.ready reset-after 5 >resetter.addr || exit 1
timeout 30 "$LG" -d q.txt -Q 20 -l 2 -m tcp --clients 1 --timeout-ms 300 \
	--target "name=a,addr=$(cat resetter.addr)" --out run8 >out8.txt 2>err8.txt
check_eq "resets: exit status" 0 $?
check "resets: counted" test "$(summary run8 '.tcp.resets')" -ge 2
check "resets: connected again" test "$(summary run8 '.tcp.connects')" -ge 3
check "resets: answers before them counted" test "$(summary run8 '.answered')" -ge 10
check "resets: the queries they took time out" test "$(summary run8 '.timeouts')" -ge 2

# the server killed mid-run (SIGKILL): closed connections and refused reconnects counted, the run
# ends at its schedule's end plus the timeout
start_server victim victim.ready "$RESP" --listen "$NET.4:0" --fixture answers.txt --log victim.queries --ready-file victim.ready >victim.addr || exit 1
victim=${_test_pids[-1]}
timeout 30 "$LG" -d q.txt -Q 50 -l 3 -m tcp --clients 5 --timeout-ms 500 \
	--target "name=a,addr=$(cat victim.addr)" --out run9 >out9.txt 2>err9.txt &
lg=$!
_test_pids+=($lg)
for ((i = 0; i < 100; i++)); do
	[[ $(grep -c . victim.queries 2>/dev/null) -ge 25 ]] && break
	sleep 0.05
done
kill -KILL "$victim"
wait "$victim" 2>/dev/null # reaped here, without the shell's "Killed" line
wait "$lg"
check_eq "server killed: exit status (not the 30 s timeout)" 0 $?
check "server killed: connections lost counted" \
	test $(($(summary run9 '.tcp.closed_by_server') + $(summary run9 '.tcp.resets'))) -ge 1
check "server killed: refused reconnects counted" test "$(summary run9 '.tcp.connect_failures')" -ge 1
check "server killed: answered before" test "$(summary run9 '.answered')" -ge 25
check "server killed: the rest lost" grep -q 'Queries lost:         [1-9]' out9.txt

# a server that never answers: the connection takes 1024 queries in flight, the rest are not sent
# (counted), and the pacing goes on unhindered (open loop)
start_server mute mute.ready "$RESP" --listen "$NET.5:0" --silent --ready-file mute.ready >mute.addr || exit 1
timeout 30 "$LG" -d q.txt -Q 2000 -l 1 -m tcp --clients 1 --timeout-ms 2000 \
	--target "name=a,addr=$(cat mute.addr)" --out run10 >out10.txt 2>err10.txt
check_eq "silent server: exit status" 0 $?
check_eq "silent server: in flight at most 1024, the rest dropped at send" "1024 976" \
	"$(jq -r 'select(.event == "summary") | "\(.sent) \(.tcp.dropped)"' run10/events.jsonl)"
check "silent server: every query offered on time" grep -q 'Queries offered:      2000 (100.00% of scheduled)' out10.txt
check "silent server: not sent counted" grep -q "Queries not sent:     976 (refused by the socket, or a TCP connection's bound)" out10.txt

# bad usage: exit 2 and a clear message
fails() {
	local pattern=$1
	shift
	"$LG" "$@" >/dev/null 2>err.txt
	check_eq "usage: $* exits" 2 $?
	check "usage: says '$pattern'" grep -q -F -e "$pattern" err.txt
}
fails "--tcp-share: '2' is out of range (0 to 1)" -d q.txt -Q 5 -s 127.0.0.1 --tcp-share 2
fails "-m/--transport: 'doh' is not a transport (udp, tcp or dot)" -d q.txt -Q 5 -s 127.0.0.1 -m doh
fails "-m/--transport and --tcp-share or --dot-share do not mix" -d q.txt -Q 5 -s 127.0.0.1 -m tcp --tcp-share 0.5
fails "--clients: '0' is out of range" -d q.txt -Q 5 -s 127.0.0.1 --clients 0
fails "--tc-retry needs the query file in memory" -d q.txt -Q 5 -s 127.0.0.1 --tc-retry --queries-memory-mb 0
finish
