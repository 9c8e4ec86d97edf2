#!/bin/bash
# tests/resolver/server_timing.sh - the resolver's server timing (resolver/infra.c) against the
# simulated hierarchy: a small world where a quarter of the second-level servers never answer and
# another quarter answer 30 times slower. After the first pass has met each dead server's first
# timeouts, a second pass of new names (same servers, new questions) sends far fewer queries to
# the dead servers per upstream query (their backed-off timeouts make every live server a better
# choice; past 4 timeouts they would be held down), and the slowest measured RTT is the slow
# servers'.
set -uo pipefail
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
NET=127.55.12
source "$ALLOCSPIKE_SOURCE_DIR/tests/resolver/world_lib.sh"
source "$ALLOCSPIKE_SOURCE_DIR/tests/resolver/hierarchy_lib.sh"

# Second-level servers: about 10 ms, slow ones x30 (about 300 ms); no loss, so every timeout is
# a dead server's.
world=(--hierarchy-block 127.55.112.0/20 --servers 2:2:8 --seed 1 --latency-ms 10,12 --loss 0
	--dead-share 0.25 --slow-share 0.25 --slow-factor 30)
"$UPSTREAM" "${world[@]}" --port 0 --print-world >"$TEST_TMP/world" || exit 1
dead=$(awk '$1 == "server" && $10 == 1 {print $3}' "$TEST_TMP/world" | paste -sd' ')
slow_alive=$(awk '$1 == "server" && $8 == 1 && $10 == 0' "$TEST_TMP/world" | wc -l)
check "the world has dead servers" test -n "$dead"
check "the world has a slow live server" test "$slow_alive" -ge 1

start_world upstream "${world[@]}" --applied-log "$TEST_TMP/applied.tsv" || exit 1
start_world_resolver resolver "$(resolver_binary)" "$NET.10" || exit 1

# dead_queries : UDP queries the dead servers have received so far (the log is flushed each second).
dead_queries() {
	sleep 1.2
	awk -v dead="$dead" 'BEGIN {n = split(dead, d, " "); for (i = 1; i <= n; i++) is[d[i]] = 1}
		NR > 1 && ($3 in is) {c++} END {print c + 0}' "$TEST_TMP/applied.tsv"
}

for i in $(seq 1 120); do echo "www.first$i.com A"; done >"$TEST_TMP/first"
for i in $(seq 1 120); do echo "www.second$i.com A"; done >"$TEST_TMP/second"
python3 "$ALLOCSPIKE_SOURCE_DIR/tests/resolver/dns_batch.py" "$RADDR" "$RPORT" <"$TEST_TMP/first" >"$TEST_TMP/first.out"
dead1=$(dead_queries)
up1=$(stat upstream_queries)
python3 "$ALLOCSPIKE_SOURCE_DIR/tests/resolver/dns_batch.py" "$RADDR" "$RPORT" <"$TEST_TMP/second" >"$TEST_TMP/second.out"
dead2=$(($(dead_queries) - dead1))
up2=$(($(stat upstream_queries) - up1))
echo "first pass: $dead1 of $up1 upstream queries to dead servers; second pass: $dead2 of $up2"

check "first pass met the dead servers" test "$dead1" -ge 4
# per upstream query, the second pass asks the dead servers at most half as often as the first
check "second pass avoids the dead servers" test $((dead2 * up1 * 2)) -le $((dead1 * up2))
check "names resolved despite the dead servers" \
	test "$(grep -c ' NOERROR ' "$TEST_TMP/second.out")" -ge 100
check "every server seen is in the table" test "$(stat infra_entries)" -ge "$(stat infra_measured)"
# The slow servers answer in about 300 ms, the others in about 10: the slowest smoothed RTT is a
# slow server's (a measured RTT cannot be shorter than the delay the hierarchy applied).
check "a slow server's RTT measured" test "$(stat infra_srtt_max_ms)" -ge 150
finish
