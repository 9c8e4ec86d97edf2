#!/bin/bash
# tests/upstream/port53.sh - the hierarchy binds every server on port 53 (what kresd and unbound
# need, since they cannot change the upstream port) and writes root hints they can read.
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
command -v kdig >/dev/null || skip "kdig not installed (knot-dnsutils)"
[[ $(id -u) == 0 ]] || skip "binding port 53 needs root"
start_server up "$TEST_TMP/ready" "$ALLOCSPIKE_BIN/allocspike-upstream" --hierarchy-block 127.54.31.0/24 \
	--port 53 --no-latency --no-loss --root-hints "$TEST_TMP/hints" \
	--ready-file "$TEST_TMP/ready" >"$TEST_TMP/addr" || exit 1
check_eq "ready on port 53" "127.54.31.1:53" "$(cat "$TEST_TMP/addr")"
tld=$(kdig @127.54.31.1 +norec +time=2 com. NS | awk '/ADDITIONAL/ {on = 1; next} on && $4 == "A" {print $5; exit}')
check "the root refers to com. with glue" test -n "$tld"
check "a TLD server answers on 53" grep -q 'status: NOERROR' \
	<<<"$(kdig @"$tld" +norec +time=2 com. SOA)"
check_eq "root hints: four NS" 4 "$(grep -c $'^\.\t3600000\tIN\tNS\t' "$TEST_TMP/hints")"
check "root hints: addresses of the root servers" grep -q $'^a.root-servers.net.\t3600000\tIN\tA\t127.54.31.1$' "$TEST_TMP/hints"
finish
