#!/bin/bash
# tests/loadgen/tcp_resolver.sh - the generator over TCP against our resolver (resolver/stream.c)
# over the test hierarchy: pipelined queries answered out of order (a slow name behind cache hits)
# all matched with their rcodes, one connection as the resolver counts it; a big answer truncated
# over UDP and fetched again over TCP with --tc-retry.
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
NET=127.56.21
source "$ALLOCSPIKE_SOURCE_DIR/tests/resolver/hierarchy_lib.sh"
LG="$ALLOCSPIKE_BIN/allocspike-loadgen"
resolver_binary >/dev/null || skip "no resolver variant built"
cd "$TEST_TMP"
# upstream timeouts above slow.example.test's 400 ms delay, so it is answered, not retried
start_hierarchy "$NET" || exit 1
start_resolver resolver "$NET.10" --upstream-source "$NET.10" \
	--upstream-timeout-min-ms 2500 --upstream-timeout-ms 4000 || exit 1
target="name=resolver,addr=$RADDR:$RPORT"

# one client, one connection: the slow name first, then names answered at once, pipelined; the
# answers come back out of order and each is matched by its ID
printf 'slow.example.test A\nwww.example.test A\nnx.example.test A\nwww.example.test MX\n' >q.txt
timeout 30 "$LG" -d q.txt -Q 40 -l 0.5 -m tcp --clients 1 --target "$target" --out run1 >out1.txt 2>err1.txt
check_eq "pipelined: exit status" 0 $?
check "pipelined: all answered" grep -q 'Queries completed:    20 (100.00%)' out1.txt
check "pipelined: rcodes" grep -q 'Response codes:       NOERROR 15 (75.00%), NXDOMAIN 5 (25.00%)' out1.txt
check "pipelined: none foreign or unexpected" bash -c "! grep -q 'Late or foreign\|Unexpected' out1.txt"
check_eq "pipelined: one connection, as the resolver counts it" "1 1" \
	"$(jq -r 'select(.event == "summary") | .tcp.connects' run1/events.jsonl) $(stat tcp_accepted)"

# a big answer (about 1.7 KB): TC over UDP without EDNS; --tc-retry fetches it whole over TCP
for i in 1 2 3 4 5; do echo "big1232.example.test TXT"; echo "www.example.test A"; done >tc.txt
timeout 30 "$LG" -d tc.txt -Q 20 -l 0.5 --tc-retry --target "$target" >out2.txt 2>err2.txt
check_eq "truncated: exit status" 0 $?
check "truncated: all answered" grep -q 'Queries completed:    10 (100.00%)' out2.txt
check "truncated: retried over TCP" grep -q 'Truncated (TC):       5 (retried over TCP: 5)' out2.txt
check "truncated: the whole answers over TCP" grep -q 'TCP:                  sent 0, retried after TC 5, answered 5' out2.txt
check "truncated: big answers received" awk '/Average packet size/ { exit !($NF > 500) }' out2.txt
finish
