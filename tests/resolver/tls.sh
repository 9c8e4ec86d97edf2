#!/bin/bash
# tests/resolver/tls.sh NET - the resolver's DNS over TLS (--tls-listen, resolver/tls.c under
# resolver/stream.c): kdig +tls answered, handshakes and resumption counted, a client sending
# garbage instead of a ClientHello counted as a failed handshake while the resolver goes on, bad
# certificate and key files refused at start, the memory TLS connections hold seen by the live-bytes
# counter and in tcp_conn_bytes.
set -uo pipefail
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
NET=${1:-127.55.47}
source "$ALLOCSPIKE_SOURCE_DIR/tests/resolver/hierarchy_lib.sh"
command -v openssl >/dev/null || skip "openssl not installed"
# the musl variant is built without TLS: --tls-listen refused as a usage error, naming why
MUSL="$ALLOCSPIKE_BIN/allocspike-resolver-musl"
if [[ -x $MUSL ]]; then
	out=$(timeout 10 "$MUSL" --listen "$NET.11:0" --root "$NET.1" --tls-listen "$NET.11:0" 2>&1)
	check_eq "musl: --tls-listen refused with exit 2" 2 $?
	check "musl: the reason said" grep -q "musl variant is linked fully static and Debian's GnuTLS is built for glibc" <<<"$out"
	check_eq "musl: --version --json says no TLS" false "$("$MUSL" --version --json | jq .tls)"
fi
RES=$(resolver_binary) || skip "no resolver variant built"
"$RES" --version --json | jq -e '.tls == true' >/dev/null || skip "this variant has no TLS"
cd "$TEST_TMP"

# A self-signed certificate made now (ECDSA P-256), and a second key that is not its.
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout key.pem \
	-out cert.pem -days 2 -subj /CN=allocspike-test 2>/dev/null || { echo "FAIL openssl req"; exit 1; }
openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:prime256v1 -out other.pem 2>/dev/null
echo "not a certificate" >junk.pem

# refused at start: exit 1 naming the files (cannot start), 2 for options that do not go together
refused() { # EXPECTED_STATUS ARGS... : runs the resolver, prints its stderr, and "(exit N, ...)"
	local want=$1 #                    when the status is not the one expected
	shift
	timeout 10 "$RES" --listen "$NET.11:0" --root "$NET.1" "$@" 2>&1 >/dev/null
	local rc=$?
	[[ $rc == "$want" ]] || echo "(exit $rc, expected $want)"
}
right_exit() { ! grep -q '(exit' <<<"$1"; }
out=$(refused 1 --tls-listen "$NET.11:0" --tls-cert nonexistent.pem --tls-key key.pem)
check "missing certificate: refused, naming the file" grep -q 'cannot start: --tls-cert nonexistent.pem' <<<"$out"
check "missing certificate: exit 1" right_exit "$out"
out=$(refused 1 --tls-listen "$NET.11:0" --tls-cert junk.pem --tls-key key.pem)
check "not PEM: refused, naming the file" grep -q 'cannot start: --tls-cert junk.pem' <<<"$out"
check "not PEM: exit 1" right_exit "$out"
out=$(refused 1 --tls-listen "$NET.11:0" --tls-cert cert.pem --tls-key other.pem)
check "key not the certificate's: refused" grep -q 'cannot start: --tls-cert cert.pem --tls-key other.pem' <<<"$out"
check "key not the certificate's: exit 1" right_exit "$out"
out=$(refused 2 --tls-listen "$NET.11:0")
check "--tls-listen without a certificate: usage error" grep -q 'needs --tls-cert FILE and --tls-key FILE' <<<"$out"
check "--tls-listen without a certificate: exit 2" right_exit "$out"
out=$(refused 2 --tls-cert cert.pem --tls-key key.pem)
check "--tls-cert alone: usage error" grep -q 'options of --tls-listen' <<<"$out"
check "--tls-cert alone: exit 2" right_exit "$out"

start_hierarchy "$NET" || exit 1
start_resolver resolver "$NET.10" --upstream-source "$NET.10" --tls-listen "$NET.10:0" \
	--tls-cert cert.pem --tls-key key.pem || exit 1
TLSPORT=$(sed -n "s/^ready-tls $NET.10://p" resolver.ready)
check "ready-tls line" test -n "$TLSPORT"
dot() { kdig @"$RADDR" -p "$TLSPORT" +tls +time=4 +retry=0 "$@" 2>&1; }
tls_client() { python3 "$ALLOCSPIKE_SOURCE_DIR/tests/resolver/tls_client.py" "$RADDR" "$TLSPORT" "$@"; }

check_eq "kdig +tls" "$(printf '192.0.2.1\n192.0.2.2')" "$(dot +short www.example.test A | sort)"
check "kdig +tls: NXDOMAIN" grep -q 'status: NXDOMAIN' <<<"$(dot nx.example.test A)"
check "kdig +tls: TLS 1.3" grep -q 'TLS1.3' <<<"$(dot www.example.test A)"
check "UDP still served" grep -q '192.0.2.1' <<<"$(answers www.example.test A)"
check_eq "handshakes counted" 3 "$(stat tls_handshakes)"
check_eq "no failures" 0 "$(stat tls_handshake_failures)"
check_eq "TLS connections count in tcp_accepted" 3 "$(stat tcp_accepted)"

# Resumption: a client's second connection offers the first one's session ticket
check_eq "second connection resumed" "$(printf 'NOERROR\nNOERROR\nresumed')" "$(tls_client resume)"
check_eq "resumed counted" 1 "$(stat tls_resumed)"
check_eq "both handshakes counted" 5 "$(stat tls_handshakes)"

# garbage instead of a ClientHello: closed, counted as a failed handshake, the resolver goes on
check_eq "garbage: closed" closed "$(tls_client garbage)"
check_eq "garbage: a failed handshake" 1 "$(stat tls_handshake_failures)"
check_eq "after the garbage: still answering" "192.0.2.44" "$(dot +short a.b.sub.example.test A)"

# Memory: 40 TLS connections held open raise live bytes and tcp_conn_bytes by more than 40 plain
# TCP connections do (GnuTLS allocates through the process's malloc, so the counter sees it).
hold() { # KIND PORT : holds 40 connections; prints "LIVE_RISE CONN_BYTES OPEN TLS_OPEN" meanwhile
	local base s i pid
	base=$(stat live_bytes)
	python3 "$ALLOCSPIKE_SOURCE_DIR/tests/resolver/tls_client.py" "$RADDR" "$2" hold "$1" 40 3 >"hold-$1.out" &
	pid=$!
	for ((i = 0; i < 50; i++)); do
		grep -q ready "hold-$1.out" 2>/dev/null && break
		sleep 0.1
	done
	sleep 0.3 # the last handshake's end reaches the resolver
	s=$(control stats)
	if [[ $base == null ]]; then
		echo "null $(jq -r '"\(.tcp_conn_bytes) \(.tcp_open) \(.tls_open)"' <<<"$s")"
	else
		echo "$(($(jq -r .live_bytes <<<"$s") - base)) $(jq -r '"\(.tcp_conn_bytes) \(.tcp_open) \(.tls_open)"' <<<"$s")"
	fi
	wait "$pid"
}
read -r tcp_live tcp_bytes tcp_open tcp_tls <<<"$(hold tcp "$RPORT")"
read -r tls_live tls_bytes tls_open tls_tls <<<"$(hold tls "$TLSPORT")"
check_eq "40 TCP connections open" "40 0" "$tcp_open $tcp_tls"
check_eq "40 TLS connections open" "40 40" "$tls_open $tls_tls"
echo "tcp_conn_bytes: 40 TCP $tcp_bytes, 40 TLS $tls_bytes; live bytes up by $tcp_live and $tls_live"
# the sanitizer build has no live-bytes counter: a connection then counts as its record alone
if [[ $tls_live != null ]]; then
	check "a TLS connection holds more than a TCP one" test "$tls_bytes" -gt "$tcp_bytes"
	check "live bytes rise with open TLS connections" test "$tls_live" -gt "$tcp_live"
	check "tcp_conn_bytes within live bytes' rise" test "$tls_bytes" -le $((tls_live * 3 / 2))
fi
sleep 1
check_eq "all closed" "0 0" "$(control stats | jq -r '"\(.tcp_open) \(.tls_open)"')"
check "stats: TLS keys after TCP's" grep -q '"tcp_closed_by_client":[0-9]*,"tls_open":[0-9]*,"tls_handshakes":[0-9]*,"tls_handshake_failures":[0-9]*,"tls_resumed":[0-9]*' <<<"$(control stats)"
kill -TERM "$RPID"
wait "$RPID"
check_eq "stops cleanly" 0 $?
finish
