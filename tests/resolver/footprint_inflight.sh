#!/bin/bash
# tests/resolver/footprint_inflight.sh LAYOUT NET MIN_BYTES MAX_BYTES - what one request in flight
# holds: the simulated hierarchy answers second-level queries only after about 3 s, so a burst of
# distinct names stays in flight; the live bytes added, divided by the requests in flight
# (`stats`), must lie between MIN_BYTES (the layout's first chunk, resolver/README.md) and
# MAX_BYTES. Prints "bytes_per_request N".
set -uo pipefail
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
LAYOUT=$1 NET=$2 MIN=$3 MAX=$4
RESOLVER="$ALLOCSPIKE_BIN/allocspike-resolver-glibc"
[[ -x $RESOLVER ]] || skip "allocspike-resolver-glibc not built"
[[ $ALLOCSPIKE_SANITIZE != 1 ]] || skip "no live-bytes counter in the sanitizer build"
source "$ALLOCSPIKE_SOURCE_DIR/tests/resolver/world_lib.sh"

start_world upstream --hierarchy-block "$NET.0/24" --seed 11 --tier root:0:0:0 --tier tld:0:0:0 \
	--tier sld:3000:3200:0 --dead-share 0 || exit 1
start_world_resolver resolver "$RESOLVER" "$NET.250" --memory-layout "$LAYOUT" \
	--upstream-source "$NET.250" || exit 1

before=$(control_send "$RCTL" stats)
# 400 distinct names in one burst, answers not awaited (the client socket closes at once).
python3 - "$RADDR" "$RPORT" <<'PY'
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
