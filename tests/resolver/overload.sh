#!/bin/bash
# tests/resolver/overload.sh NET - the overload policies against a root that never answers (every
# upstream query waits 9 s, so nothing leaves on its own during the test):
# unbound's: of a burst larger than --request-list exactly the list's size is in flight, the rest
# counted as exceeded and dropped; past --jostle-timeout-ms new queries replace the list's second
# half (overwritten) and the rest are dropped. kresd's: every query admitted up to --max-inflight.
# The only timing assumptions: a burst of 60 datagrams arrives within the 1.5 s jostle timeout, and
# the first requests are still in flight when the second burst arrives (a request gives up after
# 10 s in all): when a loaded machine took longer, the jostling checks say so and are not judged.
set -uo pipefail
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
NET=$1
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

# start_resolver NAME ARGS... : a resolver over the silent root; sets RPORT and RCTL.
start_resolver() {
	local name=$1
	shift
	RCTL="$TEST_TMP/$name.ctl"
	start_server "$name" "$TEST_TMP/$name.ready" "$RESOLVER" --listen "$NET.250:0" \
		--root "$NET.1" --upstream-port "$HPORT" --upstream-timeout-min-ms 9000 \
		--upstream-timeout-ms 9000 --control "$RCTL" --ready-file "$TEST_TMP/$name.ready" \
		"$@" >"$TEST_TMP/$name.addr" || return 1
	RPORT=$(sed 's/.*://' "$TEST_TMP/$name.addr")
}

# bursts FIRST:COUNT[:PAUSE_S]... : in one process (the checks must not wait for interpreters to
# start on a loaded machine): per step, sleeps PAUSE_S after the previous step, sends COUNT
# distinct names (q<FIRST>.test, ...) in one burst without awaiting answers, then waits (at most
# 10 s) until the resolver has counted every query sent so far and prints its stats on a line,
# then "elapsed_ms N" since the first burst.
bursts() {
	python3 - "$NET.250" "$RPORT" "$RCTL" "$@" <<'PY'
import json, socket, struct, sys, time
addr, port, ctl = sys.argv[1], int(sys.argv[2]), sys.argv[3]
def stats():
    c = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM); c.settimeout(5); c.connect(ctl)
    c.sendall(b"stats\n"); buf = b""
    while not buf.endswith(b"\n"):
        chunk = c.recv(65536)
        if not chunk: break
        buf += chunk
    return json.loads(buf)
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
sent, t0 = 0, None
for step in sys.argv[4:]:
    first, count, pause = (step.split(":") + ["0"])[:3]
    time.sleep(float(pause))
    t0 = t0 or time.monotonic()
    for i in range(int(first), int(first) + int(count)):
        name = b"".join(bytes([len(l)]) + l for l in (b"q%d" % i, b"test")) + b"\0"
        s.sendto(struct.pack(">HHHHHH", i & 0xFFFF, 0x0100, 1, 0, 0, 0) + name + struct.pack(">HH", 1, 1), (addr, port))
    sent += int(count)
    end = time.monotonic() + 10
    while (st := stats())["queries"] < sent and time.monotonic() < end:
        time.sleep(0.05)
    print(json.dumps(st, separators=(",", ":")))
print("elapsed_ms %d" % ((time.monotonic() - t0) * 1000))
PY
}

# stat LINE KEY : one key of the stats printed on line LINE of $OUT
stat() { sed -n "${1}p" <<<"$OUT" | jq -r ".$2"; }

# unbound's policy (the heap layout's default): a list of 20, jostle timeout 1.5 s; 50 names, then
# 15 more 2 s later.
start_resolver unbound --memory-layout heap --request-list 20 --jostle-timeout-ms 1500 || exit 1
OUT=$(bursts 0:50 100:15:2)
echo "$OUT"
check_eq "unbound: in flight is the list's size" 20 "$(stat 1 inflight)"
check_eq "unbound: the list holds 20" 20 "$(stat 1 request_list_current)"
check_eq "unbound: the rest exceeded" 30 "$(stat 1 request_list_exceeded)"
check_eq "unbound: the rest dropped" 30 "$(stat 1 dropped_overload)"
check_eq "unbound: nothing overwritten before the jostle timeout" 0 "$(stat 1 request_list_overwritten)"
elapsed_ms=$(sed -n 's/^elapsed_ms //p' <<<"$OUT")
if ((elapsed_ms < 9000)); then
	check_eq "unbound: the second half (10) overwritten" 10 "$(stat 2 request_list_overwritten)"
	check_eq "unbound: the 5 others exceeded" 35 "$(stat 2 request_list_exceeded)"
	check_eq "unbound: still the list's size in flight" 20 "$(stat 2 inflight)"
	check_eq "unbound: dropped counts exceeded only" 35 "$(stat 2 dropped_overload)"
else
	echo "note: the machine took $elapsed_ms ms, the first requests may have given up: jostling not judged"
fi

# The kresd layout defaults to kresd's policy: no list, the hard ceiling only.
start_resolver kresd --memory-layout kresd --request-list 20 --max-inflight 40 || exit 1
OUT=$(bursts 0:60)
echo "kresd: $OUT"
check_eq "kresd: admitted up to --max-inflight" 40 "$(stat 1 inflight)"
check_eq "kresd: past it dropped" 20 "$(stat 1 dropped_overload)"
check_eq "kresd: no list" 0 "$(stat 1 request_list_current)"
check_eq "kresd: nothing exceeded" 0 "$(stat 1 request_list_exceeded)"

# --overload-policy overrides the layout's: heap with kresd's policy admits all 50.
start_resolver heap_kresd --memory-layout heap --overload-policy kresd --request-list 20 || exit 1
OUT=$(bursts 0:50)
check_eq "heap with --overload-policy kresd: all in flight" 50 "$(stat 1 inflight)"

# Bad values are usage errors naming the option.
for bad in "--overload-policy flat" "--request-list 0" "--jostle-timeout-ms -1"; do
	# shellcheck disable=SC2086
	out=$("$RESOLVER" --listen "$NET.250:0" --root "$NET.1" $bad 2>&1)
	status=$?
	check_eq "$bad exits 2" 2 "$status"
	check "$bad names the option ($out)" grep -q -- "${bad%% *}" <<<"$out"
done
"$RESOLVER" --help | grep -q -- "--overload-policy unbound|kresd"
check "--help names the policies" test $? -eq 0
finish
