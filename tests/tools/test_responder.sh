#!/bin/bash
# tests/tools/test_responder.sh - the test responder answers from fixtures, logs, stays silent, counts.
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
command -v kdig >/dev/null || skip "kdig not installed (knot-dnsutils)"
R="$ALLOCSPIKE_BIN/allocspike-test-responder"
FIX="$ALLOCSPIKE_SOURCE_DIR/tests/tools/test_fixture.txt"

# start_server runs in this shell (not in $(...)) so that its pid is recorded for the cleanup
start_server responder "$TEST_TMP/ready" "$R" --listen 127.54.200.1:0 --fixture "$FIX" \
	--log "$TEST_TMP/q.log" --ready-file "$TEST_TMP/ready" >"$TEST_TMP/addr" || exit 1
addr=$(cat "$TEST_TMP/addr")
ip=${addr%:*} port=${addr##*:}
dig_() { kdig @"$ip" -p "$port" +norec +time=2 +retry=0 "$@"; }

out=$(dig_ www.example.com A)
check "A answer" grep -q '192.0.2.2' <<<"$out"
check "aa flag" grep -q 'Flags: qr aa;' <<<"$out"
check "planted out-of-bailiwick additional" grep -q 'www.victim.test' <<<"$out"
check "NXDOMAIN with SOA" grep -q 'status: NXDOMAIN' <<<"$(dig_ nx.example.com AAAA)"
check "TC over UDP" grep -q 'Flags: qr aa tc;' <<<"$(dig_ +ignore big.example.com TXT)"
check "TCP answer" grep -q 'via tcp' <<<"$(dig_ +tcp big.example.com TXT)"
check "no fixture: REFUSED" grep -q 'status: REFUSED' <<<"$(dig_ unknown.example.com A)"
check "drop: no answer" bash -c "! kdig @$ip -p $port +norec +time=1 +retry=0 dropped.example.com A | grep -q status:"
check "wrong id rejected by kdig" bash -c "! kdig @$ip -p $port +norec +time=1 +retry=0 spoof.example.com A | grep -q 192.0.2.7"
start=$(date +%s%N)
check "delayed answer" grep -q '192.0.2.9' <<<"$(dig_ slow.example.com A)"
check "delay applied (>= 250 ms)" test $((($(date +%s%N) - start) / 1000000)) -ge 250
printf 'garbage' >/dev/udp/"$ip"/"$port"
sleep 0.2
check "query logged" grep -q " www.example.com. A udp$" "$TEST_TMP/q.log"
check "tcp query logged" grep -q " big.example.com. TXT tcp$" "$TEST_TMP/q.log"
check "malformed logged" grep -q " MALFORMED " "$TEST_TMP/q.log"
check_eq "log columns" 6 "$(head -1 "$TEST_TMP/q.log" | wc -w)"

# silent + count mode
start_server silent "$TEST_TMP/ready2" "$R" --listen 127.54.200.2:0 --silent \
	--count-file "$TEST_TMP/count" --ready-file "$TEST_TMP/ready2" >"$TEST_TMP/addr2" || exit 1
addr2=$(cat "$TEST_TMP/addr2")
pid2=${_test_pids[-1]}
kpids=()
for i in $(seq 1 20); do
	kdig @"${addr2%:*}" -p "${addr2##*:}" +norec +time=1 +retry=0 "q$i.example." A >/dev/null 2>&1 &
	kpids+=($!)
done
wait "${kpids[@]}"
kill -TERM "$pid2"
wait "$pid2" 2>/dev/null
check "silent: count file written" test -s "$TEST_TMP/count"
check_eq "silent: queries counted" 20 "$(awk '{s += $2} END {print s}' "$TEST_TMP/count")"

# bad fixture: clear error with file:line
printf 'query a. A\nbogus 1\n' >"$TEST_TMP/bad.txt"
"$R" --listen 127.54.200.3:0 --fixture "$TEST_TMP/bad.txt" 2>"$TEST_TMP/bad.err"
check "bad fixture exits 2" test $? -eq 2
check "bad fixture names file:line" grep -q "bad.txt:2: unknown keyword 'bogus'" "$TEST_TMP/bad.err"
finish
