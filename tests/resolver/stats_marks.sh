#!/bin/bash
# tests/resolver/stats_marks.sh NET - the stats' high-water marks (docs/resolver.md): a burst of
# distinct names against a root that never answers stays in flight until its requests give up
# (SERVFAIL); read after every answer came back, `inflight` is 0 but `inflight_max` counts the
# burst and `live_bytes_max` holds its memory; the next read starts over from what is there.
# The one timing assumption: the burst's datagrams arrive before its first request gives up
# (about a second); when a loaded machine took longer, the count check says so.
set -uo pipefail
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
NET=$1
BURST=20
RESPONDER="$ALLOCSPIKE_BIN/allocspike-test-responder"
[[ -x $RESPONDER ]] || skip "allocspike-test-responder not built"
RESOLVER=
for exe in "$ALLOCSPIKE_BIN/allocspike-resolver-glibc" "$ALLOCSPIKE_BIN"/allocspike-resolver-*; do
	[[ -x $exe ]] && { RESOLVER=$exe; break; }
done
[[ -n $RESOLVER ]] || skip "no allocspike-resolver built"
command -v jq >/dev/null || skip "jq not installed"

start_server root "$TEST_TMP/root.ready" "$RESPONDER" --listen "$NET.1:0" --silent \
	--ready-file "$TEST_TMP/root.ready" >"$TEST_TMP/root.addr" || exit 1
HPORT=$(sed 's/.*://' "$TEST_TMP/root.addr")
RCTL="$TEST_TMP/resolver.ctl"
start_server resolver "$TEST_TMP/resolver.ready" "$RESOLVER" --listen "$NET.250:0" \
	--root "$NET.1" --upstream-port "$HPORT" --upstream-timeout-min-ms 300 \
	--upstream-timeout-ms 300 --control "$RCTL" --ready-file "$TEST_TMP/resolver.ready" \
	>"$TEST_TMP/resolver.addr" || exit 1
RPORT=$(sed 's/.*://' "$TEST_TMP/resolver.addr")

# In one process: stats (starts the marks over), the burst, every answer awaited (at most 30 s)
# without reading stats, then two stats lines and "answers N".
OUT=$(python3 - "$NET.250" "$RPORT" "$RCTL" "$BURST" <<'PY'
import json, socket, struct, sys, time
addr, port, ctl, burst = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
def stats():
    c = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM); c.settimeout(5); c.connect(ctl)
    c.sendall(b"stats\n"); buf = b""
    while not buf.endswith(b"\n"):
        chunk = c.recv(65536)
        if not chunk: break
        buf += chunk
    c.close()
    return buf.decode().strip()
stats()
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for i in range(burst):
    name = b"\x03q%02d\x04test\x00" % i
    s.sendto(struct.pack(">HHHHHH", i, 0x0100, 1, 0, 0, 0) + name + struct.pack(">HH", 1, 1), (addr, port))
answers, end = set(), time.monotonic() + 30
while len(answers) < burst and time.monotonic() < end:
    s.settimeout(max(0.01, end - time.monotonic()))
    try:
        answers.add(struct.unpack(">H", s.recv(4096)[:2])[0])
    except socket.timeout:
        break
print(stats()); print(stats()); print("answers %d" % len(answers))
PY
)
stat() { sed -n "${1}p" <<<"$OUT" | jq -r ".$2"; }

check_eq "every query of the burst answered" "answers $BURST" "$(sed -n 3p <<<"$OUT")"
check_eq "nothing in flight at the read" 0 "$(stat 1 inflight)"
check_eq "the burst seen by inflight_max" "$BURST" "$(stat 1 inflight_max)"
check_eq "inflight_max starts over from what is in flight" 0 "$(stat 2 inflight_max)"
if [[ $(stat 1 live_bytes) == null ]]; then
	check_eq "no live_bytes_max without the counter (sanitizer build)" null "$(stat 1 live_bytes_max)"
else
	# Each request holds more than 1 kB (resolver/README.md: at least its 16 KiB first chunk
	# under kresd's layout, several kB under the heap layout).
	check "live_bytes_max holds the burst's memory" \
		test "$(stat 1 live_bytes_max)" -ge $(($(stat 1 live_bytes) + BURST * 1024))
	check "live_bytes_max starts over from what is live" \
		test "$(stat 2 live_bytes_max)" -lt $(($(stat 1 live_bytes) + BURST * 1024))
fi
finish
