#!/bin/bash
# tests/resolver/hardening.sh LAYOUT NET - the resolver's defences against hostile input: one query
# budget for a client request and all its glueless lookups (NXNS), UDP answers capped at 1232 bytes,
# TTL caps on fresh and cached answers, ANY and meta types, EDNS versions and malformed OPT records,
# the control socket's mode, limits and path check, and options that would weaken it refused.
set -uo pipefail
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
LAYOUT=${1:-heap}
NET=${2:-127.55.8}
source "$ALLOCSPIKE_SOURCE_DIR/tests/resolver/hierarchy_lib.sh"

# every query any responder of the hierarchy received so far
upstream_total() { cat "$TEST_TMP"/{root,tld,example,sub,glueless}.queries 2>/dev/null | wc -l; }
batch() { python3 "$ALLOCSPIKE_SOURCE_DIR/tests/resolver/dns_batch.py" "$RADDR" "$RPORT"; }

start_hierarchy "$NET" || exit 1
umask 000 # the control socket must come out 0600 whatever the umask
start_resolver resolver "$NET.10" --memory-layout "$LAYOUT" || exit 1
umask 022
check_eq "control socket mode" 600 "$(command stat -c %a "$RCTL")"
check "control socket is a socket" test -S "$RCTL"

# NXNS: a referral naming 64 glueless servers costs at most the 24-query budget in all
check_eq "warm: example.test. known" "$(printf '192.0.2.1\n192.0.2.2')" "$(answers www.example.test A)"
before=$(upstream_total)
up_before=$(stat upstream_queries)
out=$(ask www.nxns.test A)
check "NXNS: SERVFAIL" grep -q 'status: SERVFAIL' <<<"$out"
sleep 0.3 # the responders log as they answer; let the last lines land
spent=$(($(upstream_total) - before))
echo "NXNS referral cost $spent upstream queries ($(($(stat upstream_queries) - up_before)) counted by the resolver)"
check "NXNS: at most 24 upstream queries (got $spent)" test "$spent" -le 24
check "NXNS: resolver's own count within the budget" test $(($(stat upstream_queries) - up_before)) -le 24
looked_up=$(grep -o ' ns[0-9]*\.nx\.example\.test\. ' "$TEST_TMP/example.queries" | sort -u | wc -l)
check "NXNS: at most 3 of the 64 names looked up (got $looked_up)" test "$looked_up" -le 3
check_eq "NXNS: nothing left in flight" 0 "$(stat inflight)"

# UDP answers: a 4096-byte EDNS client gets TC for an answer over 1232 bytes; without EDNS 512
out=$(ask big1232.example.test TXT +bufsize=4096 +ignore)
check "over 1232 bytes: TC" grep -Eq 'Flags:.* tc' <<<"$out"
check "over 1232 bytes: no records" grep -q 'ANSWER: 0' <<<"$out"
check "over 1232 bytes: EDNS says 1232" grep -q 'UDP size: 1232' <<<"$out"
out=$(ask www.example.test A +bufsize=4096)
check "small answer: no TC" bash -c "! grep -Eq 'Flags:.* tc' <<<'$out'"

# TTL caps: the fresh answer is capped as the cached one is (86400), negative answers at 3600
check_eq "fresh answer TTL capped" 86400 "$(kdig @"$RADDR" -p "$RPORT" +time=4 +retry=0 +noall +answer ttl.example.test A | awk '{print $2}')"
ttl=$(kdig @"$RADDR" -p "$RPORT" +time=4 +retry=0 +noall +answer ttl.example.test A | awk '{print $2}')
check "cached answer TTL capped ($ttl)" test "$ttl" -le 86400 -a "$ttl" -gt 86000
soa_ttl() { kdig @"$RADDR" -p "$RPORT" +time=4 +retry=0 +noall +authority "$1" A | awk '$4 == "SOA" {print $2}'; }
check_eq "fresh negative TTL capped at 3600" 3600 "$(soa_ttl nxttl.example.test)"
ttl=$(soa_ttl nxttl.example.test)
check "cached negative TTL capped ($ttl)" test "$ttl" -le 3600 -a "$ttl" -gt 3500

# ANY: one synthesized HINFO (RFC 8482), no upstream query; meta types REFUSED and counted
before=$(upstream_total)
refused=$(stat answers_refused)
res=$(printf '%s\n' "www.example.test ANY" "unknown.example.test ANY" "www.example.test TYPE0" \
	"www.example.test TYPE41" "example.test TYPE252" "example.test TYPE251" "www.example.test TYPE250" \
	"www.example.test TYPE249" "www.example.test TYPE253" "www.example.test TYPE254" \
	"www.example.test TYPE128" | batch)
echo "$res"
hinfo="13:$(printf '\x07RFC8482\x00' | od -An -tx1 | tr -d ' \n')"
check_eq "ANY: HINFO RFC8482" "www.example.test ANY NOERROR $hinfo" "$(sed -n 1p <<<"$res")"
check_eq "ANY for any name: same" "unknown.example.test ANY NOERROR $hinfo" "$(sed -n 2p <<<"$res")"
check_eq "meta types: all REFUSED" 9 "$(awk '$3 == "REFUSED"' <<<"$res" | wc -l)"
check_eq "meta types: counted" $((refused + 9)) "$(stat answers_refused)"
sleep 0.3
check_eq "ANY and meta types: no upstream query" "$before" "$(upstream_total)"
check_eq "ANY: TTL" 3600 "$(kdig @"$RADDR" -p "$RPORT" +time=4 +retry=0 +noall +answer www.example.test ANY | awk '{print $2}')"

# EDNS (RFC 6891): a version other than 0 gets BADVERS (header rcode 0, extended rcode 1 in our OPT,
# version 0); two OPT records or an OPT not owned by the root get FORMERR; nothing is asked upstream
edns_probe() { # prints "RCODE EXTENDED VERSION OPTS" per case (EXTENDED and VERSION "-" without OPT)
	python3 - "$RADDR" "$RPORT" <<'PY'
import socket, struct, sys
def query(qid, opts):
    q = struct.pack(">HHHHHH", qid, 0x0100, 1, 0, 0, len(opts))
    q += b"\x03www\x07example\x04test\x00" + struct.pack(">HH", 1, 1)
    for owner, ttl in opts:
        q += owner + struct.pack(">HHIH", 41, 1232, ttl, 0)
    return q
def skip_name(p, pos):
    while p[pos] and p[pos] & 0xC0 != 0xC0:
        pos += p[pos] + 1
    return pos + (2 if p[pos] & 0xC0 else 1)
cases = [[(b"\0", 0x00010000)], [(b"\0", 0), (b"\0", 0)], [(b"\x03com\0", 0)], [(b"\0", 0)]]
for i, opts in enumerate(cases):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.settimeout(4)
    s.sendto(query(1000 + i, opts), (sys.argv[1], int(sys.argv[2])))
    try:
        p = s.recv(4096)
    except socket.timeout:
        print("TIMEOUT - - 0"); continue
    qd, an, ns, ar = struct.unpack(">HHHH", p[4:12])
    pos = skip_name(p, 12) + 4
    ext = ver = "-"
    for _ in range(an + ns + ar):
        pos = skip_name(p, pos)
        rtype, _, ttl, rdlen = struct.unpack(">HHIH", p[pos:pos + 10])
        if rtype == 41:
            ext, ver = ttl >> 24, (ttl >> 16) & 0xFF
        pos += 10 + rdlen
    print(p[3] & 0xF, ext, ver, ar)
    s.close()
PY
}
before=$(upstream_total)
queries=$(stat queries)
res=$(edns_probe)
echo "$res"
check_eq "EDNS version 1: BADVERS (rcode 0, extended 1, our version 0, one OPT)" "0 1 0 1" "$(sed -n 1p <<<"$res")"
check_eq "two OPT records: FORMERR without OPT" "1 - - 0" "$(sed -n 2p <<<"$res")"
check_eq "OPT owned by com.: FORMERR without OPT" "1 - - 0" "$(sed -n 3p <<<"$res")"
check_eq "EDNS version 0: answered (NOERROR, version 0)" "0 0 0 1" "$(sed -n 4p <<<"$res")"
check_eq "EDNS: the four counted as queries" $((queries + 4)) "$(stat queries)"
sleep 0.3
check_eq "EDNS errors: no upstream query" "$before" "$(upstream_total)"

# control socket: a line past 512 bytes, the 17th connection, a NUL byte: error lines, still serving
long=$(head -c 600 /dev/zero | tr '\0' x)
check_eq "long line refused" "error: line too long" "$(control "$long")"
check "NUL in a line refused" bash -c "python3 - '$RCTL' <<'PY' | grep -q 'error: NUL'
import socket, sys
s = socket.socket(socket.AF_UNIX); s.settimeout(5); s.connect(sys.argv[1])
s.sendall(b'stats\x00shutdown\n'); print(s.recv(100).decode())
PY"
over=$(python3 - "$RCTL" <<'PY'
import socket, sys, time
held = []
for _ in range(16):
    s = socket.socket(socket.AF_UNIX); s.settimeout(5); s.connect(sys.argv[1]); held.append(s)
time.sleep(0.2)
s = socket.socket(socket.AF_UNIX); s.settimeout(5); s.connect(sys.argv[1])
print(s.recv(100).decode().strip())
PY
)
check_eq "17th connection refused" "error: too many control connections" "$over"
check "stats after the connections closed" jq -e 'has("queries")' <<<"$(control stats)"

# the control path: a stale socket is replaced, anything else is left alone and start fails
R=$(resolver_binary)
printf 'keep me\n' >"$TEST_TMP/not-a-socket"
timeout 10 "$R" --listen "$NET.11:0" --root "$NET.1" --control "$TEST_TMP/not-a-socket" 2>"$TEST_TMP/bad.err"
check_eq "control path is a file: cannot start, exit 1" 1 "$?"
check "control path is a file: said so" grep -q "not-a-socket: exists and is not a socket" "$TEST_TMP/bad.err"
check_eq "control path is a file: untouched" "keep me" "$(cat "$TEST_TMP/not-a-socket")"
ln -s "$TEST_TMP/not-a-socket" "$TEST_TMP/link"
timeout 10 "$R" --listen "$NET.11:0" --root "$NET.1" --control "$TEST_TMP/link" 2>/dev/null
check_eq "control path is a symlink: cannot start, exit 1" 1 "$?"
check "control path is a symlink: kept" test -L "$TEST_TMP/link"
U="$ALLOCSPIKE_BIN/allocspike-upstream"
timeout 10 "$U" --hierarchy-block 127.55.10.0/24 --port 0 --control "$TEST_TMP/not-a-socket" 2>"$TEST_TMP/bad.err" >/dev/null
check "hierarchy: control path is a file: refused" grep -q "exists and is not a socket" "$TEST_TMP/bad.err"
check_eq "hierarchy: file untouched" "keep me" "$(cat "$TEST_TMP/not-a-socket")"
python3 -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$TEST_TMP/stale.ctl"
start_resolver stale "$NET.12" --control "$TEST_TMP/stale.ctl" || exit 1
check "stale socket replaced" jq -e 'has("queries")' <<<"$(control stats "$TEST_TMP/stale.ctl")"

# options that would weaken it are refused, naming the option
bad_option() { # DESCRIPTION EXPECTED_TEXT ARGS...
	local what=$1 text=$2
	shift 2
	timeout 10 "$R" --listen "$NET.13:0" --root "$NET.1" "$@" 2>"$TEST_TMP/opt.err"
	check_eq "$what: exit 2" 2 "$?"
	check "$what: message" grep -qF -- "$text" "$TEST_TMP/opt.err"
}
bad_option "fixed upstream source port" "--upstream-source 127.0.0.1:5353: give an address only" --upstream-source 127.0.0.1:5353
bad_option "fixed upstream source port (IPv6)" "--upstream-source [::1]:53: give an address only" --upstream-source '[::1]:53'
bad_option "UDP size below 512" "--max-udp-size: '100' is out of range" --max-udp-size 100
bad_option "negative TTL cap 0" "--max-negative-ttl: '0' is out of range" --max-negative-ttl 0
bad_option "allow prefix too long" "--allow '192.0.2.0/33': prefix length must be 0..32" --allow 192.0.2.0/33
bad_option "allow not an address" "--allow 'example.com' is not ADDR" --allow example.com
start_resolver allowed "$NET.14" --allow 192.0.2.0/24 --allow 2001:db8::/32 --allow 198.51.100.1 \
	--max-udp-size 4096 --max-ttl 1000 --max-negative-ttl 60 --upstream-source "$NET.14:0" || exit 1
check "good --allow list: loopback still answered" grep -q 'status: NOERROR' <<<"$(ask www.example.test A)"
check_eq "--max-ttl on a fresh answer" 1000 "$(kdig @"$RADDR" -p "$RPORT" +time=4 +retry=0 +noall +answer ttl.example.test A | awk '{print $2}')"
check_eq "--max-negative-ttl" 60 "$(soa_ttl nxttl.example.test)"
out=$(ask big1232.example.test TXT +bufsize=4096 +ignore)
check "--max-udp-size 4096: the 1.7 KB answer fits" bash -c "! grep -Eq 'Flags:.* tc' <<<'$out' && grep -q 'ANSWER: 8' <<<'$out'"
finish
