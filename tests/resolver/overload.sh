#!/bin/bash
# tests/resolver/overload.sh NET [lists|glueless|marks] - the overload policies against a root that never answers (every
# upstream query waits 9 s, so nothing leaves on its own during the test):
# unbound's: of a burst larger than --request-list exactly the list's size is in flight, the rest
# counted as exceeded and dropped; past --jostle-timeout-ms new queries replace the list's second
# half (overwritten) and the rest are dropped, also while they wait on a glueless lookup. kresd's:
# every query admitted up to --max-inflight.
# The only timing assumptions: a burst of 60 datagrams arrives within the 1.5 s jostle timeout, and
# the first requests are still in flight when the second burst arrives (a request gives up after
# 10 s in all): when a loaded machine took longer, the jostling checks say so and are not judged.
# PART lists (default): the policies' counts; glueless: the replaced request waiting on a lookup
# (its checks hold however slow the machine, so it also runs in the sanitizer build); marks: the
# stats' high-water marks (docs/resolver.md) see a burst that gave up (300 ms upstream timeouts)
# before the read, and the next read starts them over.
set -uo pipefail
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
NET=$1 PART=${2:-lists}
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
# distinct names (q<FIRST>.$ZONE, ...; ZONE defaults to test) in one burst without awaiting answers, then waits (at most
# 10 s) until the resolver has counted every query sent so far and prints its stats on a line,
# then "elapsed_ms N" since the first burst.
# overload_python ARGS... : python3 runs its stdin with ARGS (the resolver's address, port and
# control socket first) after these helpers: stats(), the resolver's `stats` as a dict;
# send(s, i, zone), the A query for q<i>.ZONE (ID i) from socket s.
OVERLOAD_PY_HELPERS=$(
	cat <<'PY'
import json, socket, struct, sys, time
addr, port, ctl = sys.argv[1], int(sys.argv[2]), sys.argv[3]
def stats():
    c = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM); c.settimeout(5); c.connect(ctl)
    c.sendall(b"stats\n"); buf = b""
    while not buf.endswith(b"\n"):
        chunk = c.recv(65536)
        if not chunk: break
        buf += chunk
    c.close()
    return json.loads(buf)
def send(s, i, zone):
    name = b"".join(bytes([len(l)]) + l for l in [b"q%d" % i] + zone) + b"\0"
    s.sendto(struct.pack(">HHHHHH", i & 0xFFFF, 0x0100, 1, 0, 0, 0) + name + struct.pack(">HH", 1, 1), (addr, port))
PY
)
overload_python() {
	python3 -c "$OVERLOAD_PY_HELPERS
$(cat)" "$@"
}

bursts() {
	overload_python "$NET.250" "$RPORT" "$RCTL" "${ZONE:-test}" "$@" <<'PY'
zone = [l.encode() for l in sys.argv[4].split(".")]
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
sent, t0 = 0, None
for step in sys.argv[5:]:
    first, count, pause = (step.split(":") + ["0"])[:3]
    time.sleep(float(pause))
    t0 = t0 or time.monotonic()
    for i in range(int(first), int(first) + int(count)):
        send(s, i, zone)
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

if [[ $PART == marks ]]; then
	# stats (starts the marks over), 20 distinct names, every answer (SERVFAIL) awaited without
	# reading stats, then two stats lines and "answers N". The one timing assumption: the burst
	# arrives before its first request gives up (about a second); if not, the count check says so.
	BURST=20
	start_resolver marks --upstream-timeout-min-ms 300 --upstream-timeout-ms 300 || exit 1
	OUT=$(overload_python "$NET.250" "$RPORT" "$RCTL" "$BURST" <<'PY'
burst = int(sys.argv[4])
stats()
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for i in range(burst):
    send(s, i, [b"test"])
answers, end = set(), time.monotonic() + 30
while len(answers) < burst and time.monotonic() < end:
    s.settimeout(max(0.01, end - time.monotonic()))
    try:
        answers.add(struct.unpack(">H", s.recv(4096)[:2])[0])
    except socket.timeout:
        break
for st in (stats(), stats()):
    print(json.dumps(st, separators=(",", ":")))
print("answers %d" % len(answers))
PY
)
	echo "$OUT"
	check_eq "marks: every query of the burst answered" "answers $BURST" "$(sed -n 3p <<<"$OUT")"
	check_eq "marks: nothing in flight at the read" 0 "$(stat 1 inflight)"
	check_eq "marks: the burst seen by inflight_max" "$BURST" "$(stat 1 inflight_max)"
	check_eq "marks: inflight_max starts over from what is in flight" 0 "$(stat 2 inflight_max)"
	if [[ $(stat 1 live_bytes) == null ]]; then
		check_eq "marks: no live_bytes_max without the counter (sanitizer build)" null "$(stat 1 live_bytes_max)"
	else
		# Each request holds more than 1 kB (resolver/README.md, "Memory layouts").
		check "marks: live_bytes_max holds the burst's memory" \
			test "$(stat 1 live_bytes_max)" -ge $(($(stat 1 live_bytes) + BURST * 1024))
		check "marks: live_bytes_max starts over from what is live" \
			test "$(stat 2 live_bytes_max)" -lt $(($(stat 1 live_bytes) + BURST * 1024))
	fi
fi

if [[ $PART == lists ]]; then
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

fi

if [[ $PART == glueless ]]; then
	# A replaced request that waits on a glueless name server's lookup: the lookup carries on without
	# it and, when it fails, resumes nobody (a freed parent would be touched; MALLOC_PERTURB_ makes
	# that likelier to crash, though a new request reusing the memory can hide it). The TLD refers
	# q*.glueless.test to ns.hosting.test without glue and never answers for ns.hosting.test itself;
	# each try waits 3 s, two tries.
	printf '%s\n' 'query * *' "authority test. 3600 IN NS ns.test." "additional ns.test. 3600 IN A $NET.4" \
		>"$TEST_TMP/groot.txt"
	printf '%s\n' 'query ns.hosting.test. *' 'drop' '' 'query * *' \
		'authority glueless.test. 3600 IN NS ns.hosting.test.' >"$TEST_TMP/gtld.txt"
	start_server groot "$TEST_TMP/groot.ready" "$RESPONDER" --listen "$NET.3:0" --fixture "$TEST_TMP/groot.txt" \
		--ready-file "$TEST_TMP/groot.ready" >"$TEST_TMP/groot.addr" || exit 1
	GPORT=$(sed 's/.*://' "$TEST_TMP/groot.addr")
	start_server gtld "$TEST_TMP/gtld.ready" "$RESPONDER" --listen "$NET.4:$GPORT" --fixture "$TEST_TMP/gtld.txt" \
		--ready-file "$TEST_TMP/gtld.ready" >/dev/null || exit 1
	RCTL="$TEST_TMP/glueless.ctl"
	start_server glueless "$TEST_TMP/glueless.ready" env MALLOC_PERTURB_=165 "$RESOLVER" --listen "$NET.250:0" \
		--root "$NET.3" --upstream-port "$GPORT" --upstream-timeout-min-ms 3000 --upstream-timeout-ms 3000 \
		--request-list 4 --jostle-timeout-ms 1500 --control "$RCTL" --ready-file "$TEST_TMP/glueless.ready" \
		>"$TEST_TMP/glueless.addr" || exit 1
	GPID=${_test_pids[-1]}
	RPORT=$(sed 's/.*://' "$TEST_TMP/glueless.addr")
	OUT=$(ZONE=glueless.test bursts 0:4 10:2:2)
	echo "$OUT"
	elapsed_ms=$(sed -n 's/^elapsed_ms //p' <<<"$OUT")
	if ((elapsed_ms < 5000)); then
		check_eq "glueless: the list's second half (2) replaced while waiting on lookups" 2 \
			"$(stat 2 request_list_overwritten)"
	else
		echo "note: the machine took $elapsed_ms ms, the lookups may have failed first: not judged"
fi
for ((i = 0; i < 200; i++)); do
	last=$(control_send "$RCTL" stats) || break
	[[ $(jq -r .inflight <<<"$last") == 0 ]] && break
	sleep 0.1
done
echo "glueless, at the end: $last"
check "glueless: the resolver survived the lookups of replaced requests" kill -0 "$GPID"
check_eq "glueless: nothing left in flight" 0 "$(jq -r .inflight <<<"$last")"
check_eq "glueless: nothing left on the list" 0 "$(jq -r .request_list_current <<<"$last")"
if ((elapsed_ms < 5000)); then
	check_eq "glueless: the replaced requests' clients got no answer, the 4 others SERVFAIL" 4 \
		"$(jq -r '.answers_servfail + .answers_noerror' <<<"$last")"
fi

fi

if [[ $PART == lists ]]; then
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

	# --version --json states the policy the options beside it give (what run.json records).
	overload_of() { "$RESOLVER" "$@" --version --json | jq -c .overload; }
	check_eq "--version --json: the heap layout's default" \
		'{"jostle_timeout_ms":200,"policy":"unbound","request_list":1024}' "$(overload_of)"
	check_eq "--version --json: the kresd layout's, no list" \
		'{"jostle_timeout_ms":null,"policy":"kresd","request_list":null}' \
		"$(overload_of --memory-layout kresd --request-list 20)"
	check_eq "--version --json: the options given" \
		'{"jostle_timeout_ms":1500,"policy":"unbound","request_list":20}' \
		"$(overload_of --memory-layout kresd --overload-policy unbound --request-list 20 --jostle-timeout-ms 1.5s)"
fi
finish
