#!/bin/bash
# tests/resolver/tcp.sh LAYOUT NET - the resolver's TCP clients (resolver/stream.c, RFC 7766): kdig
# +tcp, pipelined queries answered out of order, big answers truncated over UDP and whole over TCP,
# the idle timeout (and a pending query keeping a connection open past it), bad length prefixes,
# garbage and slow-loris clients closed and counted, the connection limit's policy, the memory
# per open connection, --no-tcp.
set -uo pipefail
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
LAYOUT=${1:-heap}
NET=${2:-127.55.45}
source "$ALLOCSPIKE_SOURCE_DIR/tests/resolver/hierarchy_lib.sh"

# A 400 ms idle timeout keeps the test short; upstream timeouts above the fixtures' delays (slow:
# 400 ms, slow-c: 1000 ms, slow-b: 1500 ms) so that a slow name is answered, not retried.
start_hierarchy "$NET" || exit 1
start_resolver resolver "$NET.10" --memory-layout "$LAYOUT" --upstream-source "$NET.10" \
	--upstream-timeout-min-ms 2500 --upstream-timeout-ms 4000 --tcp-idle-timeout 400 || exit 1
FIRST_PID=$RPID
tcp() { python3 "$ALLOCSPIKE_SOURCE_DIR/tests/resolver/tcp_client.py" "$RADDR" "$RPORT" "$@"; }
# stopped: SIGTERM ends it cleanly (exit 0; in the sanitizer build also no leak or memory error)
stops_cleanly() {
	kill -TERM "$1"
	wait "$1"
}
lacks() { ! grep -q "$1" <<<"$2"; }

# kdig over TCP, on the UDP address and port
check_eq "kdig +tcp" "$(printf '192.0.2.1\n192.0.2.2')" "$(ask www.example.test A +tcp +short | sort)"
check "kdig +tcp: NXDOMAIN" grep -q 'status: NXDOMAIN' <<<"$(ask nx.example.test A +tcp)"
check_eq "accepted counted" 2 "$(stat tcp_accepted)"

# Pipelining: a slow name first (its server waits 400 ms), then two cache hits, all in one write on
# one connection: the hits come back first, each under its own ID (RFC 7766 §7).
answers www.example.test A >/dev/null
order=$(tcp pipeline slow.example.test/A www.example.test/A nx.example.test/A)
check_eq "answers in the order they resolved" "2 NOERROR 2 -
3 NXDOMAIN 0 -
1 NOERROR 1 -" "$order"
# a client that ends its side once it has asked still gets every answer (slow-c: 1 s away)
check_eq "half-closed client answered" "2 NOERROR 2 -
1 NOERROR 1 -" "$(tcp pipeline-end slow-c.example.test/A www.example.test/A)"

# A big answer (8 x 200-byte TXT, about 1.7 KB): TC over UDP (over the 1232-byte cap, and over 512
# without EDNS), whole over TCP, and kdig's own retry over TCP after TC gets it all.
out=$(ask big1232.example.test TXT +ignore)
check "UDP with EDNS: TC" grep -q 'Flags: qr tc' <<<"$out"
check "UDP with EDNS: no records" grep -q 'ANSWER: 0' <<<"$out"
out=$(ask big1232.example.test TXT +ignore +noedns)
check "UDP without EDNS: TC" grep -q 'Flags: qr tc' <<<"$out"
check "UDP without EDNS: within 512 bytes" grep -q 'Received [0-9]\{2,3\} B' <<<"$out"
out=$(ask big1232.example.test TXT +tcp)
check "TCP: no TC" lacks 'Flags: qr tc' "$out"
check "TCP: all 8 records" grep -q 'ANSWER: 8' <<<"$out"
check "truncated then retried over TCP" grep -q 'ANSWER: 8' <<<"$(ask big1232.example.test TXT)"
check_eq "TCP without EDNS: all 8 records" "1 NOERROR 8 -" "$(tcp pipeline big1232.example.test/TXT)"

# The idle timeout closes a connection with nothing to do...
closed=$(stat tcp_closed_idle)
check_eq "idle connections closed" 2 "$(tcp idle 2 1.5)"
check "idle closes counted" test "$(stat tcp_closed_idle)" -ge $((closed + 2))
# ...but not one whose query is still being resolved (slow-b's server waits 1.5 s)
check_eq "pending query keeps the connection" "1 NOERROR 1 -" "$(tcp pipeline slow-b.example.test/A)"

# Bad input closes the connection and is counted: a length prefix shorter than a DNS header, a
# message that is no query, a message trickled slower than the timeout (slow loris), a partial
# length prefix held past it.
bad=$(stat tcp_closed_bad)
malformed=$(stat dropped_malformed)
check_eq "5-byte message: closed" closed "$(tcp send 00050102030405)"
check_eq "garbage message: closed" closed "$(tcp send 0014$(printf 'ff%.0s' {1..20}))"
check_eq "bad closes counted" $((bad + 2)) "$(stat tcp_closed_bad)"
check_eq "garbage counted as malformed" $((malformed + 1)) "$(stat dropped_malformed)"
slow=$(stat tcp_closed_slow)
check_eq "slow loris (a byte every 150 ms): closed" closed "$(tcp trickle www.example.test/A 0.15)"
check_eq "half a length prefix held: closed" closed "$(tcp send 00)"
check_eq "slow closes counted" $((slow + 2)) "$(stat tcp_closed_slow)"
check_eq "still answering" "192.0.2.44" "$(ask a.b.sub.example.test A +tcp +short)"

# the stats keys of docs/resolver.md, TCP's at the end
check "stats: TCP keys" grep -q '"tcp_open":.*"tcp_conn_bytes":.*"tcp_accepted":.*"tcp_refused":.*"tcp_closed_idle":.*"tcp_closed_for_room":.*"tcp_closed_bad":.*"tcp_closed_slow":.*"tcp_closed_by_client":' <<<"$(control stats)"

# A resolver with room for 3 connections and the default idle timeout (10 s, longer than the test
# holds them).
start_resolver limited "$NET.12" --memory-layout "$LAYOUT" --upstream-source "$NET.12" \
	--upstream-timeout-min-ms 2500 --upstream-timeout-ms 4000 --tcp-max-connections 3 || exit 1

# Memory per open connection: what `stats` says the open ones hold, beside the live bytes.
python3 - "$RADDR" "$RPORT" "$RCTL" >"$TEST_TMP/conn_bytes" <<'PY' &
import json, socket, sys, time
def stats():
    s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[3]); s.sendall(b"stats\n")
    buf = b""
    while not buf.endswith(b"\n"):
        buf += s.recv(65536)
    return json.loads(buf)
before = stats()
conns = [socket.create_connection((sys.argv[1], int(sys.argv[2]))) for _ in range(3)]
time.sleep(0.2)
held = stats()
live = held["live_bytes"] - before["live_bytes"] if held["live_bytes"] is not None else 0
print(held["tcp_open"], held["tcp_conn_bytes"], live)
PY
wait $!
read -r open conn_bytes live_delta <"$TEST_TMP/conn_bytes"
check_eq "open connections" 3 "$open"
check "bytes held per connection reported" test "$conn_bytes" -gt 0
echo "info: 3 open TCP connections hold $conn_bytes bytes ($((conn_bytes / 3)) each); live bytes grew $live_delta"

# The limit (3 here): a new connection closes the one idle longest; when every connection has a
# query in flight, the new one is refused.
room=$(stat tcp_closed_for_room)
refused=$(stat tcp_refused)
tcp hold 4 >"$TEST_TMP/hold_idle"
check_eq "at the limit: the oldest idle one closed" "1 closed
2 open
3 open
4 open" "$(cat "$TEST_TMP/hold_idle")"
check "closed for room counted" test "$(stat tcp_closed_for_room)" -gt "$room"
tcp hold 4 slow-a.example.test/A >"$TEST_TMP/hold_busy"
check_eq "at the limit with all busy: the new one refused" "1 open
2 open
3 open
4 closed" "$(cat "$TEST_TMP/hold_busy")"
check_eq "refused counted" $((refused + 1)) "$(stat tcp_refused)"

# shutdown with connections open and queries in flight (the limited one's slow-a) frees everything
tcp hold 1 slow-a.example.test/A >/dev/null &
hold_pid=$!
sleep 0.5
check "limited resolver stops cleanly with a query in flight" stops_cleanly "$RPID"
wait "$hold_pid"
check "first resolver stops cleanly" stops_cleanly "$FIRST_PID"

# --no-tcp: UDP only
start_resolver udponly "$NET.11" --memory-layout "$LAYOUT" --upstream-source "$NET.11" --no-tcp || exit 1
check_eq "--no-tcp: UDP answers" "192.0.2.44" "$(answers a.b.sub.example.test A)"
check "--no-tcp: TCP refused" bash -c "! kdig @$RADDR -p $RPORT +tcp +time=2 +retry=0 www.example.test A | grep -q 'status:'"
check_eq "--no-tcp: no connection table" 0 "$(stat tcp_open)"

# bad option values: exit 2 naming the option
"$(resolver_binary)" --listen "$NET.13:0" --root "$NET.1" --tcp-max-connections 0 2>"$TEST_TMP/bad.err"
check_eq "bad --tcp-max-connections: exit 2" 2 "$?"
check "bad option named" grep -q -- "--tcp-max-connections" "$TEST_TMP/bad.err"
finish
