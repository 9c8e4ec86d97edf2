#!/bin/bash
# tests/resolver/overload.sh NET - the overload policies against a root that never answers (every
# upstream query waits 9 s, so nothing leaves on its own during the test):
# unbound's: of a burst larger than --request-list exactly the list's size is in flight, the rest
# counted as exceeded and dropped; past --jostle-timeout-ms new queries replace the list's second
# half (overwritten) and the rest are dropped. kresd's: every query admitted up to --max-inflight.
# The only timing assumptions: a burst of 60 datagrams arrives within 2 s, and 9 s is not reached.
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

# burst FIRST COUNT : COUNT distinct names (q<FIRST>.test ...) in one burst, answers not awaited.
burst() {
	python3 - "$NET.250" "$RPORT" "$1" "$2" <<'PY'
import socket, struct, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
first, count = int(sys.argv[3]), int(sys.argv[4])
for i in range(first, first + count):
    name = b"".join(bytes([len(l)]) + l for l in (b"q%d" % i, b"test")) + b"\0"
    s.sendto(struct.pack(">HHHHHH", i & 0xFFFF, 0x0100, 1, 0, 0, 0) + name + struct.pack(">HH", 1, 1),
             (sys.argv[1], int(sys.argv[2])))
PY
}

# stat KEY : one key of the last stats
stat() { jq -r ".$1" <<<"$STATS"; }

# wait_queries N : until the resolver has counted N queries (at most 10 s), then takes its stats.
wait_queries() {
	local i
	for ((i = 0; i < 100; i++)); do
		STATS=$(control_send "$RCTL" stats)
		(($(stat queries) >= $1)) && return 0
		sleep 0.1
	done
	echo "only $(stat queries) of $1 queries arrived"
}

# unbound's policy (the heap layout's default): a list of 20, jostle timeout 3 s.
start_resolver unbound --memory-layout heap --request-list 20 --jostle-timeout-ms 3000 || exit 1
burst 0 50
wait_queries 50
echo "after 50: $STATS"
check_eq "unbound: in flight is the list's size" 20 "$(stat inflight)"
check_eq "unbound: the list holds 20" 20 "$(stat request_list_current)"
check_eq "unbound: the rest exceeded" 30 "$(stat request_list_exceeded)"
check_eq "unbound: the rest dropped" 30 "$(stat dropped_overload)"
check_eq "unbound: nothing overwritten before the jostle timeout" 0 "$(stat request_list_overwritten)"
sleep 3.5
burst 100 15
wait_queries 65
echo "after 15 more past the jostle timeout: $STATS"
check_eq "unbound: the second half (10) overwritten" 10 "$(stat request_list_overwritten)"
check_eq "unbound: the 5 others exceeded" 35 "$(stat request_list_exceeded)"
check_eq "unbound: still the list's size in flight" 20 "$(stat inflight)"
check_eq "unbound: dropped counts exceeded only" 35 "$(stat dropped_overload)"

# The kresd layout defaults to kresd's policy: no list, the hard ceiling only.
start_resolver kresd --memory-layout kresd --request-list 20 --max-inflight 40 || exit 1
burst 0 60
wait_queries 60
echo "kresd: $STATS"
check_eq "kresd: admitted up to --max-inflight" 40 "$(stat inflight)"
check_eq "kresd: past it dropped" 20 "$(stat dropped_overload)"
check_eq "kresd: no list" 0 "$(stat request_list_current)"
check_eq "kresd: nothing exceeded" 0 "$(stat request_list_exceeded)"

# --overload-policy overrides the layout's: heap with kresd's policy admits all 50.
start_resolver heap_kresd --memory-layout heap --overload-policy kresd --request-list 20 || exit 1
burst 0 50
wait_queries 50
check_eq "heap with --overload-policy kresd: all in flight" 50 "$(stat inflight)"

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
