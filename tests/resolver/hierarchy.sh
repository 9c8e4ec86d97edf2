#!/bin/bash
# tests/resolver/hierarchy.sh - both memory layouts against the simulated hierarchy (allocspike-upstream,
# no latency, no loss): a few hundred real query names all resolve (no SERVFAIL), both layouts give the
# same answers, and a second pass comes wholly from the cache (no upstream query).
set -uo pipefail
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
NET=127.55.5
UPSTREAM="$ALLOCSPIKE_BIN/allocspike-upstream"
[[ -x $UPSTREAM ]] || skip "allocspike-upstream not built"
source "$ALLOCSPIKE_SOURCE_DIR/tests/resolver/hierarchy_lib.sh"

start_server upstream "$TEST_TMP/upstream.ready" "$UPSTREAM" --hierarchy-block 127.55.32.0/20 --port 0 \
	--no-latency --no-loss --root-hints "$TEST_TMP/root.hints" \
	--ready-file "$TEST_TMP/upstream.ready" >"$TEST_TMP/upstream.addr" || exit 1
HPORT=$(sed 's/.*://' "$TEST_TMP/upstream.addr")

# Names: the head of the DNS-OARC sample when shared/ is beside the checkout, else made-up ones.
sample=$(shared_querydata)
if [[ -n $sample ]]; then
	xz -dc "$sample" | awk '$2 == "A" || $2 == "AAAA" || $2 == "MX" || $2 == "TXT" {print $1, $2}' |
		awk '!seen[$0]++' | head -300 >"$TEST_TMP/names"
else
	for i in $(seq 1 300); do echo "www.site$i.com A"; done >"$TEST_TMP/names"
fi

# resolve_all FILE : "name type rcode rr..." per question (dns_batch.py)
resolve_all() {
	python3 "$ALLOCSPIKE_SOURCE_DIR/tests/resolver/dns_batch.py" "$RADDR" "$RPORT" <"$1"
}

for layout in heap kresd; do
	RCTL="$TEST_TMP/$layout.ctl"
	start_server "resolver-$layout" "$TEST_TMP/$layout.ready" "$(resolver_binary)" --listen "$NET.10:0" \
		--root-hints "$TEST_TMP/root.hints" --upstream-port "$HPORT" --memory-layout "$layout" \
		--control "$RCTL" --ready-file "$TEST_TMP/$layout.ready" >"$TEST_TMP/$layout.addr" || exit 1
	RPID=${_test_pids[-1]}
	RADDR=$NET.10
	RPORT=$(sed 's/.*://' "$TEST_TMP/$layout.addr")
	resolve_all "$TEST_TMP/names" >"$TEST_TMP/$layout.first"
	hits=$(stat cache_hits)
	resolve_all "$TEST_TMP/names" >"$TEST_TMP/$layout.second"
	n=$(wc -l <"$TEST_TMP/names")
	check_eq "$layout: every name answered" 0 "$(grep -c -E ' (SERVFAIL|TIMEOUT)' "$TEST_TMP/$layout.first")"
	check "$layout: mostly positive answers" test "$(grep -c ' NOERROR [^ ]' "$TEST_TMP/$layout.first")" -gt $((n / 2))
	# a few short TTLs may expire between the passes: allow 5% misses
	check "$layout: second pass from the cache" test $(($(stat cache_hits) - hits)) -ge $((n * 95 / 100))
	check_eq "$layout: second pass, same answers" "" "$(diff "$TEST_TMP/$layout.first" "$TEST_TMP/$layout.second")"
	kill -TERM "$RPID"
	wait "$RPID"
	check_eq "$layout: SIGTERM exit status" 0 "$?"
done
check_eq "both layouts give the same answers" "" "$(diff "$TEST_TMP/heap.first" "$TEST_TMP/kresd.first")"

# With heavy loss and latency, requests wait for timeouts and retries: they must all end (inflight
# back to 0), timeouts are counted, and most names still resolve.
start_server lossy "$TEST_TMP/lossy.ready" "$UPSTREAM" --hierarchy-block 127.55.80.0/20 --port 0 --seed 7 \
	--loss 0.25 --latency-ms 20,150 --root-hints "$TEST_TMP/lossy.hints" \
	--ready-file "$TEST_TMP/lossy.ready" >"$TEST_TMP/lossy.addr" || exit 1
RCTL="$TEST_TMP/lossy.ctl"
start_server resolver-lossy "$TEST_TMP/rl.ready" "$(resolver_binary)" --listen "$NET.11:0" \
	--root-hints "$TEST_TMP/lossy.hints" --upstream-port "$(sed 's/.*://' "$TEST_TMP/lossy.addr")" \
	--upstream-timeout-ms 200 --memory-layout kresd --control "$RCTL" \
	--ready-file "$TEST_TMP/rl.ready" >"$TEST_TMP/rl.addr" || exit 1
RADDR=$NET.11
RPORT=$(sed 's/.*://' "$TEST_TMP/rl.addr")
head -100 "$TEST_TMP/names" >"$TEST_TMP/names100"
resolve_all "$TEST_TMP/names100" >"$TEST_TMP/lossy.out"
for i in $(seq 1 100); do
	[[ "$(stat inflight)" == 0 ]] && break
	sleep 0.1
done
check_eq "lossy: every request ended" 0 "$(stat inflight)"
check "lossy: timeouts counted" test "$(stat upstream_timeouts)" -gt 0
check "lossy: most names resolved" test "$(grep -c -E ' (NOERROR|NXDOMAIN)' "$TEST_TMP/lossy.out")" -ge 80
finish
