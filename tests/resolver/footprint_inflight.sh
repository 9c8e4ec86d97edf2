#!/bin/bash
# tests/resolver/footprint_inflight.sh LAYOUT NET MIN_BYTES MAX_BYTES - what one request in flight
# holds: the simulated hierarchy answers second-level queries only after about 3 s, so a burst of
# distinct names stays in flight; the live bytes added, divided by the requests in flight
# (`stats`), must lie between MIN_BYTES (the layout's first chunk, resolver/README.md) and
# MAX_BYTES. Prints "bytes_per_request N".
set -uo pipefail
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
LAYOUT=$1 NET=$2 MIN=$3 MAX=$4
UPSTREAM="$ALLOCSPIKE_BIN/allocspike-upstream"
RESOLVER="$ALLOCSPIKE_BIN/allocspike-resolver-glibc"
[[ -x $UPSTREAM ]] || skip "allocspike-upstream not built"
[[ -x $RESOLVER ]] || skip "allocspike-resolver-glibc not built"
command -v jq >/dev/null || skip "jq not installed"
[[ $ALLOCSPIKE_SANITIZE != 1 ]] || skip "no live-bytes counter in the sanitizer build"

start_server upstream "$TEST_TMP/upstream.ready" "$UPSTREAM" --hierarchy-block "$NET.0/24" --port 0 \
	--seed 11 --tier root:0:0:0 --tier tld:0:0:0 --tier sld:3000:3200:0 --dead-share 0 \
	--root-hints "$TEST_TMP/root.hints" --ready-file "$TEST_TMP/upstream.ready" \
	>"$TEST_TMP/upstream.addr" || exit 1
RCTL="$TEST_TMP/resolver.ctl"
start_server resolver "$TEST_TMP/resolver.ready" "$RESOLVER" --listen "$NET.250:0" \
	--memory-layout "$LAYOUT" --root-hints "$TEST_TMP/root.hints" \
	--upstream-port "$(sed 's/.*://' "$TEST_TMP/upstream.addr")" --upstream-source "$NET.250" \
	--control "$RCTL" --ready-file "$TEST_TMP/resolver.ready" >"$TEST_TMP/resolver.addr" || exit 1
RPORT=$(sed 's/.*://' "$TEST_TMP/resolver.addr")

before=$(control_send "$RCTL" stats)
# 400 distinct names in one burst, answers not awaited (the client socket closes at once).
python3 - "$NET.250" "$RPORT" <<'PY'
import socket, struct, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for i in range(400):
    name = b"".join(bytes([len(l)]) + l for l in (b"w%d" % i, b"site%d" % (i % 97), b"com")) + b"\0"
    s.sendto(struct.pack(">HHHHHH", i, 0x0100, 1, 0, 0, 0) + name + struct.pack(">HH", 1, 1),
             (sys.argv[1], int(sys.argv[2])))
PY
sleep 1
during=$(control_send "$RCTL" stats)
inflight=$(jq -r .inflight <<<"$during")
added=$(($(jq -r .live_bytes <<<"$during") - $(jq -r .live_bytes <<<"$before")))
echo "inflight $inflight live bytes added $added"
check "most of the burst is in flight ($inflight)" test "$inflight" -ge 200
per=$((added / (inflight > 0 ? inflight : 1)))
echo "bytes_per_request $per"
check "a request in flight holds at least $MIN bytes ($per)" test "$per" -ge "$MIN"
check "a request in flight holds at most $MAX bytes ($per)" test "$per" -le "$MAX"
finish
