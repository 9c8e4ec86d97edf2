#!/bin/bash
# tests/resolver/hierarchy.sh - both memory layouts against the simulated hierarchy (allocspike-upstream,
# no latency, no loss): a few hundred real query names all resolve (no SERVFAIL), both layouts give the
# same answers, and a second pass comes wholly from the cache (no upstream query).
set -uo pipefail
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
NET=127.55.5
source "$ALLOCSPIKE_SOURCE_DIR/tests/resolver/world_lib.sh"
source "$ALLOCSPIKE_SOURCE_DIR/tests/resolver/hierarchy_lib.sh"

start_world upstream --hierarchy-block 127.55.32.0/20 --no-latency --no-loss || exit 1

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
	start_world_resolver "$layout" "$(resolver_binary)" "$NET.10" --memory-layout "$layout" || exit 1
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
start_world lossy --hierarchy-block 127.55.80.0/20 --seed 7 --loss 0.25 --latency-ms 20,150 || exit 1
start_world_resolver resolver-lossy "$(resolver_binary)" "$NET.11" --upstream-timeout-ms 200 \
	--memory-layout kresd || exit 1
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
