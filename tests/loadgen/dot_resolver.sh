#!/bin/bash
# tests/loadgen/dot_resolver.sh - the generator over DNS over TLS (-m dot, --dot-share; loadgen/
# tls_client.c under loadgen/tcp_client.c) against our resolver's --tls-listen: pipelined queries
# answered out of order and matched, handshakes as many as the resolver counts, reconnections
# resumed on both sides (or not, with --tls-resume no), --tls-ca verification, the mixed transports'
# summary lines, and bad options refused.
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
NET=127.56.22
source "$ALLOCSPIKE_SOURCE_DIR/tests/resolver/hierarchy_lib.sh"
LG="$ALLOCSPIKE_BIN/allocspike-loadgen"
command -v openssl >/dev/null || skip "openssl not installed"
RES=$(resolver_binary) || skip "no resolver variant built"
"$RES" --version --json | jq -e '.tls == true' >/dev/null || skip "this variant has no TLS"
cd "$TEST_TMP"
newcert() { # NAME : NAME.pem and NAME.key, self-signed (ECDSA P-256)
	openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout "$1.key" \
		-out "$1.pem" -days 2 -subj "/CN=$1" 2>/dev/null
}
newcert server && newcert stranger || { echo "FAIL openssl req"; exit 1; }

# upstream timeouts above slow.example.test's 400 ms delay, so it is answered, not retried
start_hierarchy "$NET" || exit 1
start_resolver resolver "$NET.10" --upstream-source "$NET.10" --upstream-timeout-min-ms 2500 \
	--upstream-timeout-ms 4000 --tls-listen "$NET.10:0" --tls-cert server.pem --tls-key server.key || exit 1
TLSPORT=$(sed -n "s/^ready-tls $NET.10://p" resolver.ready)
target="name=resolver,addr=$RADDR:$TLSPORT"
summary() { jq -r "select(.event == \"summary\") | $2" "$1/events.jsonl"; }

# one client, one connection: the slow name first, then names answered at once, pipelined; the
# answers come back out of order and each is matched by its ID
printf 'slow.example.test A\nwww.example.test A\nnx.example.test A\nwww.example.test MX\n' >q.txt
timeout 30 "$LG" -d q.txt -Q 40 -l 0.5 -m dot --clients 1 --target "$target" --out run1 >out1.txt 2>err1.txt
check_eq "pipelined: exit status" 0 $?
check "pipelined: all answered" grep -q 'Queries completed:    20 (100.00%)' out1.txt
check "pipelined: rcodes" grep -q 'Response codes:       NOERROR 15 (75.00%), NXDOMAIN 5 (25.00%)' out1.txt
check "pipelined: all over DoT" grep -q 'DoT:                  sent 20, retried after TC 0, answered 20' out1.txt
check "pipelined: no TCP lines" bash -c "! grep -q '^  TCP' out1.txt"
check "pipelined: one handshake" grep -q 'DoT handshakes:       1, failures 0, resumed 0' out1.txt
check_eq "pipelined: handshakes as the resolver counts them" "1 1 1" \
	"$(summary run1 .dot.connects) $(summary run1 .dot.handshakes) $(stat tls_handshakes)"

# Reconnections: one client idle longer than --tcp-idle between queries connects again each time,
# resuming its last session; the resolver counts the same handshakes and resumptions.
before_hs=$(stat tls_handshakes) before_res=$(stat tls_resumed)
timeout 30 "$LG" -d q.txt -Q 2 -l 2.4 -m dot --clients 1 --tcp-idle 0.2 --target "$target" --out run2 >out2.txt 2>err2.txt
check_eq "resumption: exit status" 0 $?
hs=$(summary run2 .dot.handshakes) res=$(summary run2 .dot.resumed)
check "resumption: a handshake per connection" test "$hs" -ge 3 -a "$hs" = "$(summary run2 .dot.connects)"
check_eq "resumption: every reconnection resumed" $((hs - 1)) "$res"
check_eq "resumption: the resolver counts the same" "$hs $res" \
	"$(($(stat tls_handshakes) - before_hs)) $(($(stat tls_resumed) - before_res))"
timeout 30 "$LG" -d q.txt -Q 2 -l 2.4 -m dot --clients 1 --tcp-idle 0.2 --tls-resume no --target "$target" --out run3 >out3.txt 2>err3.txt
check_eq "--tls-resume no: exit status" 0 $?
check "--tls-resume no: reconnected" test "$(summary run3 .dot.handshakes)" -ge 3
check_eq "--tls-resume no: nothing resumed" 0 "$(summary run3 .dot.resumed)"

# --tls-ca: the server's certificate verified; a CA it does not chain to fails every handshake
timeout 30 "$LG" -d q.txt -Q 20 -l 0.5 -m dot --clients 2 --tls-ca server.pem --target "$target" --out run4 >out4.txt 2>err4.txt
check "--tls-ca of the server: all answered" grep -q 'Queries completed:    10 (100.00%)' out4.txt
failures=$(stat tls_handshake_failures)
timeout 30 "$LG" -d q.txt -Q 20 -l 0.5 -t 1 -m dot --clients 2 --tls-ca stranger.pem --target "$target" --out run5 >out5.txt 2>err5.txt
check_eq "--tls-ca of a stranger: exit status" 0 $?
check "--tls-ca of a stranger: nothing answered" grep -q 'Queries completed:    0 ' out5.txt
check "--tls-ca of a stranger: handshakes failed" test "$(summary run5 .dot.handshake_failures)" -ge 2
check_eq "--tls-ca of a stranger: no handshake ended well" 0 "$(summary run5 .dot.handshakes)"
check_eq "--tls-ca of a stranger: not counted as resets" 0 "$(summary run5 .dot.resets)"
check "--tls-ca of a stranger: the resolver saw them fail" test "$(stat tls_handshake_failures)" -gt "$failures"

# Mixed: of 4 clients one over TCP and two over DoT (against the UDP/TCP port: DoT there fails)
tcp_target="name=resolver,addr=$RADDR:$RPORT"
printf 'www.example.test A\n' >w.txt
timeout 30 "$LG" -d w.txt -Q 40 -l 0.5 --clients 4 --tcp-share 0.25 --dot-share 0.5 \
	--target "$target" --out run6 >out6.txt 2>err6.txt
check "mixed: UDP line" grep -q 'UDP:                  sent 5, answered 0' out6.txt
check "mixed: TCP line" grep -q 'TCP:                  sent 5, ' out6.txt
check "mixed: DoT line" grep -q 'DoT:                  sent 10, retried after TC 0, answered 10' out6.txt
check_eq "mixed: DoT clients' connections" 2 "$(summary run6 .dot.handshakes)"

# options refused (usage: exit 2), an unreadable --tls-ca (exit 1)
lg() { timeout 10 "$LG" -d w.txt -Q 10 -l 0.2 --target "$tcp_target" "$@" >/dev/null 2>err.txt; echo $?; }
check_eq "-m dot with --dot-share: exit 2" 2 "$(lg -m dot --dot-share 0.5)"
check_eq "shares over 1: exit 2" 2 "$(lg --tcp-share 0.6 --dot-share 0.6)"
check "shares over 1: said" grep -q 'add up to more than 1' err.txt
check_eq "--tls-resume maybe: exit 2" 2 "$(lg -m dot --tls-resume maybe)"
check_eq "--tls-ca missing: exit 1" 1 "$(lg -m dot --tls-ca nonexistent.pem)"
check "--tls-ca missing: named" grep -q -- '--tls-ca nonexistent.pem' err.txt
finish
