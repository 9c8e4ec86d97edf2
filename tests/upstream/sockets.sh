#!/bin/bash
# tests/upstream/sockets.sh - the hierarchy's UDP socket model: one socket serves every server
# address and each reply leaves from the address its query went to (with and without delay); a
# query to a loopback address that is no server gets no answer and is counted (not_server); when
# the shared socket cannot be bound (the port taken on one loopback address) the hierarchy says so
# once and serves from one socket per address, replies from the same addresses; --udp-sockets
# per-address asks for that model (for queries routed in from another device: tests/multihost).
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
command -v python3 >/dev/null || skip "python3 not installed (the test client)"
command -v jq >/dev/null || skip "jq not installed"
U="$ALLOCSPIKE_BIN/allocspike-upstream"
B=127.54.48
# root .1-.4, TLD .5-.28, second level .29-.124 (the default plan); no loss, no dead or slow server
SERVERS="$B.1 $B.3 $B.7 $B.20 $B.29 $B.77 $B.124"

# ask PORT WAIT_S ADDR... : one query (com. NS, no RD) to each ADDR from one unconnected socket;
# prints "ADDR SOURCE:PORT" per ADDR, the source of its reply, or "ADDR none" after WAIT_S.
ask() {
	python3 - "$@" <<'PY'
import socket, struct, sys, time
port, wait, addrs = int(sys.argv[1]), float(sys.argv[2]), sys.argv[3:]
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind(("127.0.0.1", 0))
q = struct.pack(">HHHH", 1, 0, 0, 0) + b"\3com\0" + struct.pack(">HH", 2, 1)
for i, a in enumerate(addrs):
    s.sendto(struct.pack(">HH", i, 0) + q, (a, port))
got = {}
end = time.monotonic() + wait
while len(got) < len(addrs) and time.monotonic() < end:
    s.settimeout(max(0.01, end - time.monotonic()))
    try:
        data, src = s.recvfrom(65536)
    except socket.timeout:
        break
    got[struct.unpack(">H", data[:2])[0]] = "%s:%d" % src
for i, a in enumerate(addrs):
    print(a, got.get(i, "none"))
PY
}

# expected PORT ADDR... : what ask prints when every ADDR answers from itself
expected() {
	local port=$1 a
	shift
	for a in "$@"; do echo "$a $a:$port"; done
}

# stat CTL KEY : one field of the hierarchy's stats
stat() { control_send "$1" stats | jq -r ".$2"; }

# shellcheck disable=SC2086 # SERVERS: a list of words
for mode in "no delay" "delayed"; do
	flags=(--no-latency)
	[[ $mode == delayed ]] && flags=(--latency-ms "20,60" --slow-share 0)
	name=${mode// /_}
	start_server "$name" "$TEST_TMP/$name.ready" "$U" --hierarchy-block "$B.0/24" --port 0 \
		"${flags[@]}" --no-loss --dead-share 0 --control "$TEST_TMP/$name.ctl" \
		--ready-file "$TEST_TMP/$name.ready" >"$TEST_TMP/$name.addr" || exit 1
	port=$(sed 's/.*://' "$TEST_TMP/$name.addr")
	check_eq "$mode: one UDP socket for all servers" shared "$(stat "$TEST_TMP/$name.ctl" udp_sockets)"
	check_eq "$mode: each reply from the address asked" "$(expected "$port" $SERVERS)" \
		"$(ask "$port" 5 $SERVERS)"
	check_eq "$mode: no answer from a block address that is no server, nor from outside the block" \
		"$B.200 none
127.54.49.9 none" "$(ask "$port" 1 "$B.200" 127.54.49.9)"
	check_eq "$mode: both counted as not_server" 2 "$(stat "$TEST_TMP/$name.ctl" not_server)"
	check_eq "$mode: and not as queries" "$(wc -w <<<"$SERVERS")" "$(stat "$TEST_TMP/$name.ctl" queries)"
done
# Polling: while delayed replies wait, the wheel's tick reads the socket; each reply still leaves
# no earlier than its query's arrival plus the delay the hierarchy applied to it (--applied-log).
# Bursts of one query to each server, 3 ms apart, unique names so the log matches each reply.
start_server polled "$TEST_TMP/polled.ready" "$U" --hierarchy-block "$B.0/24" --port 0 \
	--latency-ms "20,60" --slow-share 0 --no-loss --dead-share 0 --control "$TEST_TMP/polled.ctl" \
	--applied-log "$TEST_TMP/polled.applied" --ready-file "$TEST_TMP/polled.ready" \
	>"$TEST_TMP/polled.addr" || exit 1
port=$(sed 's/.*://' "$TEST_TMP/polled.addr")
# shellcheck disable=SC2086
python3 - "$port" $SERVERS >"$TEST_TMP/polled.rtt" <<'PY'
import socket, struct, sys, time
port, addrs = int(sys.argv[1]), sys.argv[2:]
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind(("127.0.0.1", 0))
s.setblocking(False)
sent, got = {}, {}
qid = 0
for burst in range(40):
    for a in addrs:
        name = b"p%d" % qid
        q = struct.pack(">HHHHHH", qid, 0, 1, 0, 0, 0) + bytes([len(name)]) + name + b"\3com\0" + struct.pack(">HH", 2, 1)
        sent[qid] = (a, name.decode() + ".com.", time.monotonic())
        s.sendto(q, (a, port))
        qid += 1
    end = time.monotonic() + 0.003
    while time.monotonic() < end:
        try:
            data, src = s.recvfrom(65536)
            got[struct.unpack(">H", data[:2])[0]] = (src[0], time.monotonic())
        except BlockingIOError:
            time.sleep(0.0005)
end = time.monotonic() + 3
s.setblocking(True)
while len(got) < len(sent) and time.monotonic() < end:
    s.settimeout(max(0.01, end - time.monotonic()))
    try:
        data, src = s.recvfrom(65536)
    except socket.timeout:
        break
    got[struct.unpack(">H", data[:2])[0]] = (src[0], time.monotonic())
for i, (a, name, t0) in sent.items():
    src, t1 = got.get(i, ("none", t0))
    print(name, a, src, "%.3f" % ((t1 - t0) * 1000), sep="\t")
PY
sleep 1.5 # the applied log is flushed every second
check_eq "polled: every query answered" 280 "$(awk '$3 != "none"' "$TEST_TMP/polled.rtt" | wc -l)"
check_eq "polled: each reply from the address asked" 0 "$(awk '$2 != $3' "$TEST_TMP/polled.rtt" | wc -l)"
check "polled: the tick read queries" test "$(stat "$TEST_TMP/polled.ctl" udp_reads.polled.queries)" -gt 0
# the wheel's slots are whole milliseconds from the arrival's millisecond: at most 1 ms early
check_eq "polled: no reply before its query's arrival plus its delay (all 280 matched)" \
	"matched 280" "$(awk -F'\t' '
	NR == FNR {if ($8 == "answer") delay[$5] = $9; next}
	$1 in delay {n++; if ($4 < delay[$1] - 1) print $1, "rtt", $4, "delay", delay[$1]}
	END {print "matched", n + 0}' "$TEST_TMP/polled.applied" "$TEST_TMP/polled.rtt")"
check_eq "polled: the applied log has every query" 280 "$(awk -F'\t' '$8 == "answer"' "$TEST_TMP/polled.applied" | wc -l)"

check "two hierarchies on one block, each on its own port" test "$(cat "$TEST_TMP/no_delay.addr")" != \
	"$(cat "$TEST_TMP/delayed.addr")"

# the fallback: another program holds a loopback address (no server's) at the port asked for
F=127.54.49
start_server holder "$TEST_TMP/holder.ready" python3 -c '
import socket, sys, time
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind((sys.argv[1], 0))
open(sys.argv[2], "w").write("ready %s:%d\n" % s.getsockname())
time.sleep(120)' "$F.250" "$TEST_TMP/holder.ready" >"$TEST_TMP/holder.addr" || exit 1
port=$(sed 's/.*://' "$TEST_TMP/holder.addr")
start_server fallback "$TEST_TMP/fallback.ready" "$U" --hierarchy-block "$F.0/24" --port "$port" \
	--no-latency --no-loss --dead-share 0 --control "$TEST_TMP/fallback.ctl" \
	--ready-file "$TEST_TMP/fallback.ready" >/dev/null || exit 1
check_eq "port taken on one address: one socket per address" per-address \
	"$(stat "$TEST_TMP/fallback.ctl" udp_sockets)"
check_eq "said once on stderr" 1 "$(grep -c 'one UDP socket per server address instead' "$TEST_TMP/fallback.log")"
check "with the reason" grep -q "0.0.0.0:$port on lo: Address already in use" "$TEST_TMP/fallback.log"
# shellcheck disable=SC2086
check_eq "per-address sockets: each reply from the address asked" \
	"$(expected "$port" ${SERVERS//$B/$F})" "$(ask "$port" 5 ${SERVERS//$B/$F})"

# asked for: one socket per address from the start, nothing said
P=127.54.50
start_server asked "$TEST_TMP/asked.ready" "$U" --hierarchy-block "$P.0/24" --port 0 --udp-sockets per-address \
	--no-latency --no-loss --dead-share 0 --control "$TEST_TMP/asked.ctl" \
	--ready-file "$TEST_TMP/asked.ready" >"$TEST_TMP/asked.addr" || exit 1
port=$(sed 's/.*://' "$TEST_TMP/asked.addr")
check_eq "--udp-sockets per-address: one socket per address" per-address "$(stat "$TEST_TMP/asked.ctl" udp_sockets)"
check_eq "--udp-sockets per-address: no fallback said" 0 "$(grep -c 'instead' "$TEST_TMP/asked.log")"
# shellcheck disable=SC2086
check_eq "--udp-sockets per-address: each reply from the address asked" \
	"$(expected "$port" ${SERVERS//$B/$P})" "$(ask "$port" 5 ${SERVERS//$B/$P})"
"$U" --udp-sockets many --port 0 >/dev/null 2>"$TEST_TMP/usage.err"
check_eq "--udp-sockets: an unknown model exits 2" 2 $?
check "--udp-sockets: names the option and the value" grep -q "^--udp-sockets: 'many'" "$TEST_TMP/usage.err"
finish
