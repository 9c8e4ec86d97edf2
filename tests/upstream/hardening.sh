#!/bin/bash
# tests/upstream/hardening.sh - the hierarchy under idle and hostile clients: an idle TCP connection is
# closed after its 10 s timeout, the control socket is 0600 and bounds its lines, the applied logs.
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
command -v python3 >/dev/null || skip "python3 not installed (the test clients)"
U="$ALLOCSPIKE_BIN/allocspike-upstream"

umask 000
start_server up "$TEST_TMP/up.ready" "$U" --hierarchy-block 127.54.44.0/24 --port 0 --no-latency --no-loss \
	--ready-file "$TEST_TMP/up.ready" --control "$TEST_TMP/up.ctl" \
	--applied-summary "$TEST_TMP/summary.tsv" >"$TEST_TMP/up.addr" || exit 1
umask 022
ROOT=$(cat "$TEST_TMP/up.addr")
check_eq "control socket mode" 600 "$(stat -c %a "$TEST_TMP/up.ctl")"
check_eq "long control line refused" "error: line too long" \
	"$(control_send "$TEST_TMP/up.ctl" "$(head -c 600 /dev/zero | tr '\0' x)")"
check_eq "unknown command" "error: unknown command (try: stats, shutdown)" "$(control_send "$TEST_TMP/up.ctl" nope)"

# a TCP client that connects and says nothing is dropped after the idle timeout (10 s), not kept
closed=$(python3 - "${ROOT%:*}" "${ROOT##*:}" <<'PY'
import socket, sys, time
s = socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=5)
s.settimeout(25)
start = time.monotonic()
try:
    data = s.recv(10)
    print("closed" if data == b"" else "data", round(time.monotonic() - start))
except socket.timeout:
    print("open")
except ConnectionResetError:
    print("closed", round(time.monotonic() - start))
PY
)
echo "idle TCP connection: $closed (s)"
check "idle TCP connection closed by the server" grep -q '^closed' <<<"$closed"
check "not before the 10 s timeout" test "${closed#closed }" -ge 9

check_eq "stats still served" true "$(control_send "$TEST_TMP/up.ctl" stats | jq 'has("inflight")')"
check "no per-query log unless asked" test ! -e "$TEST_TMP/applied.log"
check_eq "shutdown" ok "$(control_send "$TEST_TMP/up.ctl" shutdown)"
wait "${_test_pids[-1]}"
check "summary written" test -s "$TEST_TMP/summary.tsv"
check "socket file removed at exit" test ! -e "$TEST_TMP/up.ctl"
finish
