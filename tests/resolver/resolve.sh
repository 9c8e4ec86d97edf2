#!/bin/bash
# tests/resolver/resolve.sh LAYOUT NET - iterative resolution over a hierarchy of test responders:
# depths, CNAME chains, NXDOMAIN/NODATA with SOA, glueless delegation, cache hits by counters,
# bailiwick, spoofed and malformed upstream replies, TCP after TC, malformed clients, SIGTERM.
set -uo pipefail
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
LAYOUT=${1:-heap}
NET=${2:-127.55.1}
source "$ALLOCSPIKE_SOURCE_DIR/tests/resolver/hierarchy_lib.sh"

start_hierarchy "$NET" || exit 1
start_resolver resolver "$NET.10" --memory-layout "$LAYOUT" --upstream-source "$NET.10" \
	--listen '[::1]:0' || exit 1

# one ready line per listen address, the first for the first --listen; IPv6 served too
check_eq "ready lines" 2 "$(grep -c '^ready ' "$TEST_TMP/resolver.ready")"
v6=$(sed -n 's/^ready \[::1\]://p' "$TEST_TMP/resolver.ready")
check "IPv6 listener answers" grep -q 'status: NOERROR' <<<"$(kdig @::1 -p "$v6" +time=4 +retry=0 www.example.test A)"

# names at several depths resolve to what the authoritative servers hold
check_eq "www.example.test A" "$(printf '192.0.2.1\n192.0.2.2')" "$(answers www.example.test A)"
check_eq "a.b.sub.example.test A (4 servers deep)" "192.0.2.44" "$(answers a.b.sub.example.test A)"
check_eq "glueless delegation" "198.51.100.5" "$(answers www.glueless.test A)"
check_eq "queries leave from --upstream-source" 0 "$(grep -vc " $NET.10:" "$TEST_TMP/root.queries")"
check_eq "glueless NS address was resolved" 1 "$(logged example ns.hosting.test. A)"

# CNAME chains: inside one zone, and into a zone another server holds
out=$(ask alias.example.test A)
check "in-zone chain: CNAMEs" grep -q 'alias.example.test.*CNAME.*c2.example.test' <<<"$out"
check "in-zone chain: final A" grep -q 'www.example.test.*A.*192.0.2.2' <<<"$out"
out=$(ask ext.example.test A)
check "cross-server chain: CNAME" grep -q 'ext.example.test.*CNAME.*a.b.sub.example.test' <<<"$out"
check "cross-server chain: final A" grep -q 'a.b.sub.example.test.*A.*192.0.2.44' <<<"$out"

# negative answers carry the SOA
out=$(ask nx.example.test A)
check "NXDOMAIN" grep -q 'status: NXDOMAIN' <<<"$out"
check "NXDOMAIN has SOA" grep -q 'example.test.*SOA' <<<"$out"
out=$(ask www.example.test MX)
check "NODATA is NOERROR" grep -q 'status: NOERROR' <<<"$out"
check "NODATA has no answer" grep -q 'ANSWER: 0' <<<"$out"
check "NODATA has SOA" grep -q 'example.test.*SOA' <<<"$out"

# a second query comes from the cache: no upstream query (counters and the responder's log)
up=$(stat upstream_queries)
hits=$(stat cache_hits)
check_eq "cached www again" "$(printf '192.0.2.1\n192.0.2.2')" "$(answers www.example.test A)"
check "cached NXDOMAIN again" grep -q 'status: NXDOMAIN' <<<"$(ask nx.example.test TXT)"
check "cached NODATA again" grep -q 'ANSWER: 0' <<<"$(ask www.example.test MX)"
check_eq "no upstream query for cached answers" "$up" "$(stat upstream_queries)"
check_eq "cache hits counted" $((hits + 3)) "$(stat cache_hits)"
check_eq "example server asked www once" 1 "$(logged example www.example.test. A)"
check_eq "NXDOMAIN covers every type (RFC 2308)" 1 "$(($(logged example nx.example.test. A) + $(logged example nx.example.test. TXT)))"

# closest zone cut: a new name in example.test. starts at its server, not at the root
root_before=$(wc -l <"$TEST_TMP/root.queries")
answers c2.example.test MX >/dev/null
check_eq "known zone cut: root not asked" "$root_before" "$(wc -l <"$TEST_TMP/root.queries")"

# bailiwick: the A for www.victim.test planted by example.test's server was not cached
check_eq "planted record ignored" "192.0.2.99" "$(answers www.victim.test A)"
check_eq "victim's own server was asked" 1 "$(logged sub www.victim.test. A)"

# truncated upstream answer: retried over TCP; EDNS toward the client
out=$(ask big.example.test TXT +edns)
check "TC upstream: TCP answer" grep -q '"via tcp"' <<<"$out"
check "EDNS in the answer" grep -q 'EDNS PSEUDOSECTION' <<<"$out"
check "no EDNS without EDNS" bash -c "! kdig @$RADDR -p $RPORT +noedns +time=3 +retry=0 www.example.test A | grep -q 'EDNS PSEUDOSECTION'"

# spoofed replies (wrong ID, wrong question) and a malformed reply are ignored. Their timeouts count
# against example.test's server (the infrastructure cache backs off from it, resolver/README.md,
# "Server timing"), so they come after the checks that need that server to answer.
out=$(ask spoof.example.test A)
check "wrong ID: not accepted" bash -c "! grep -q 192.0.2.7 <<<'$out'"
check "wrong ID: SERVFAIL after retries" grep -q 'status: SERVFAIL' <<<"$out"
out=$(ask wrongq.example.test A)
check "wrong question: not accepted" bash -c "! grep -q 192.0.2.8 <<<'$out'"
check "malformed reply: SERVFAIL" grep -q 'status: SERVFAIL' <<<"$(ask bad.example.test A)"
check "timeouts counted" test "$(stat upstream_timeouts)" -ge 4

# malformed client packets are dropped and counted; the resolver keeps answering
printf 'garbage' >/dev/udp/"$RADDR"/"$RPORT"
printf '\x12\x34\x01\x00\x00\x01\x00\x00\x00\x00\x00\x00\xc0\x0c\x00\x01\x00\x01' >/dev/udp/"$RADDR"/"$RPORT"
check_eq "still answering" "192.0.2.44" "$(answers a.b.sub.example.test A)"
check_eq "malformed counted" 2 "$(stat dropped_malformed)"

# the stats object has exactly the keys of docs/resolver.md
keys=$(control stats | jq -r 'keys_unsorted | join(",")')
check_eq "stats keys" "queries,answers_noerror,answers_nxdomain,answers_servfail,answers_refused,cache_hits,cache_misses,cache_entries,cache_bytes,inflight,inflight_max,upstream_queries,upstream_timeouts,dropped_malformed,dropped_overload,alloc_allocated_bytes,alloc_resident_bytes,live_bytes,live_blocks,live_bytes_max,alloc,infra_entries,infra_measured,infra_held_down,infra_srtt_max_ms,request_list_current,request_list_exceeded,request_list_overwritten,tcp_open,tcp_conn_bytes,tcp_accepted,tcp_refused,tcp_closed_idle,tcp_closed_for_room,tcp_closed_bad,tcp_closed_slow,tcp_closed_by_client,tls_open,tls_handshakes,tls_handshake_failures,tls_resumed" "$keys"
check "cache_bytes counted" test "$(stat cache_bytes)" -gt 0
check "answers counted" test "$(stat answers_nxdomain)" -ge 2

# SIGTERM: clean exit
kill -TERM "$RPID"
wait "$RPID"
check_eq "SIGTERM exit status" 0 "$?"
check "stop line logged" grep -q 'stopped;' "$TEST_TMP/resolver.log"

# bad input: a clear error naming where it was, exit 2
printf '. 3600 IN NS a.root.\na.root. 3600 IN A not-an-address\n' >"$TEST_TMP/bad.hints"
"$(resolver_binary)" --listen "$NET.10:0" --root-hints "$TEST_TMP/bad.hints" 2>"$TEST_TMP/bad.err"
check_eq "bad hints: exit 2" 2 "$?"
check "bad hints: file:line" grep -q "bad.hints:2: " "$TEST_TMP/bad.err"
"$(resolver_binary)" --listen "$NET.10:0" --root "$NET.1" --cache-size 12X 2>"$TEST_TMP/bad.err"
check_eq "bad option: exit 2" 2 "$?"
check "bad option named" grep -q -- "--cache-size: '12X' is not a size" "$TEST_TMP/bad.err"
finish
