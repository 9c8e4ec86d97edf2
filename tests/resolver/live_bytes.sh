#!/bin/bash
# tests/resolver/live_bytes.sh VARIANT NET [ALLOC_TOLERANCE_PCT] - the live-bytes counter of one
# resolver build against the simulated hierarchy (no latency, no loss, fixed seed): after each of
# three batches of the same deterministic names, `stats` carries live_bytes and the alloc object;
# with a tolerance, live_bytes agrees with the allocator's own allocated bytes read in the same
# `stats` call (the same instant) within it, where the allocator counts them. Prints "live_bytes N" per batch for cross-checks.
set -uo pipefail
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
VARIANT=$1 NET=$2 TOLERANCE=${3:-}
RESOLVER="$ALLOCSPIKE_BIN/allocspike-resolver-$VARIANT"
[[ -x $RESOLVER ]] || skip "allocspike-resolver-$VARIANT not built"
[[ $ALLOCSPIKE_SANITIZE != 1 ]] || skip "no live-bytes counter in the sanitizer build"
source "$ALLOCSPIKE_SOURCE_DIR/tests/resolver/world_lib.sh"

start_world upstream --hierarchy-block "$NET.0/24" --no-latency --no-loss --seed 11 || exit 1
start_world_resolver resolver "$RESOLVER" "$NET.250" --upstream-source "$NET.250" || exit 1

for batch in 1 2 3; do
	for i in $(seq $(((batch - 1) * 150 + 1)) $((batch * 150))); do
		echo "www$i.site$((i % 97)).com A"
		echo "mail$i.site$((i % 89)).net MX"
	done >"$TEST_TMP/names$batch"
	python3 "$ALLOCSPIKE_SOURCE_DIR/tests/resolver/dns_batch.py" "$RADDR" "$RPORT" \
		<"$TEST_TMP/names$batch" >"$TEST_TMP/answers$batch"
	stats=$(control_send "$RCTL" stats)
	live=$(jq -r .live_bytes <<<"$stats")
	# what the allocator counts as held by the program: jemalloc counts its thread cache as allocated
	allocated=$(jq -r '.alloc.allocated_bytes as $a | if $a == null then null else $a - (.alloc.own.tcache_bytes // 0) end' <<<"$stats")
	echo "batch $batch: live_bytes $live live_blocks $(jq -r .live_blocks <<<"$stats")" \
		"allocator says allocated $allocated heap $(jq -r .alloc.heap_bytes <<<"$stats")"
	echo "live_bytes $live"
	check "batch $batch: live_bytes is a positive number" test "$live" -gt 0
	check "batch $batch: the alloc object names $VARIANT's allocator" \
		test "$(jq -r .alloc.allocator <<<"$stats")" != null
	if [[ $allocated == null ]]; then
		echo "batch $batch: the allocator counts no allocated bytes: no comparison"
	elif [[ -n $TOLERANCE ]]; then
		check "batch $batch: live_bytes within $TOLERANCE % of the allocator's allocated ($live vs $allocated)" \
			python3 -c "import sys; l, a = int(sys.argv[1]), int(sys.argv[2]); sys.exit(abs(l - a) > a * $TOLERANCE / 100)" \
			"$live" "$allocated"
	fi
done
finish
