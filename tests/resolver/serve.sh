#!/bin/bash
# tests/resolver/serve.sh - scenarios/serve.sh starts the hierarchy and a variant, says how to query
# it, answers, and stops both on SIGTERM (as on Ctrl-C).
set -uo pipefail
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
[[ -x $ALLOCSPIKE_BIN/allocspike-upstream ]] || skip "allocspike-upstream not built"
command -v kdig >/dev/null || skip "kdig not installed (knot-dnsutils)"
variant=
for exe in "$ALLOCSPIKE_BIN"/allocspike-resolver-*; do
	[[ -x $exe ]] && { variant=${exe##*/allocspike-resolver-}; break; }
done
[[ -n $variant ]] || skip "no resolver variant built"

"$ALLOCSPIKE_SOURCE_DIR/scenarios/serve.sh" --variant "$variant" --port 0 --listen-addr 127.55.6.10 \
	--hierarchy-block 127.55.48.0/20 --no-latency --no-loss >"$TEST_TMP/serve.out" 2>&1 &
serve_pid=$!
_test_pids+=("$serve_pid")
for ((i = 0; i < 200; i++)); do
	grep -q '^Ctrl-C' "$TEST_TMP/serve.out" && break
	kill -0 "$serve_pid" 2>/dev/null || break
	sleep 0.1
done
cat "$TEST_TMP/serve.out"
addr=$(sed -n 's/^resolver: .* on \([0-9.]*:[0-9]*\),.*/\1/p' "$TEST_TMP/serve.out")
check "prints where the resolver listens" test -n "$addr"
check "prints how to query it" grep -q "kdig @127.55.6.10 -p ${addr##*:} " "$TEST_TMP/serve.out"
check "answers" grep -q 'status: NOERROR' <<<"$(kdig @"${addr%:*}" -p "${addr##*:}" +time=4 +retry=0 www.example.com A)"
kill -TERM "$serve_pid"
wait "$serve_pid"
check_eq "exit status after SIGTERM" 0 "$?"
check "resolver stopped" bash -c "! pgrep -f '[a]llocspike-resolver-$variant --listen 127.55.6.10:0' >/dev/null"
check "hierarchy stopped" bash -c "! pgrep -f '[a]llocspike-upstream --hierarchy-block 127.55.48.0/20' >/dev/null"
finish
