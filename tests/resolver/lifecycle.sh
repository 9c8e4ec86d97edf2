#!/bin/bash
# tests/resolver/lifecycle.sh LAYOUT NET - what depends on time passing: TTL countdown and expiry,
# coalescing of identical in-flight questions, the --max-inflight limit, `shutdown` on the control socket.
set -uo pipefail
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
LAYOUT=${1:-heap}
NET=${2:-127.55.3}
source "$ALLOCSPIKE_SOURCE_DIR/tests/resolver/hierarchy_lib.sh"

start_hierarchy "$NET" || exit 1
# The fixture servers answer at once, so the timeout learnt for them would be the 50 ms floor:
# raising the floor keeps the answers delayed on purpose waited for.
start_resolver resolver "$NET.10" --memory-layout "$LAYOUT" --upstream-timeout-ms 3000 \
	--upstream-timeout-min-ms 3000 || exit 1

ttl_of() { kdig @"$RADDR" -p "$RPORT" +time=4 +retry=0 +noall +answer "$1" "$2" | awk 'NR == 1 {print $2}'; }

# TTL counts down in cached answers; an expired entry is fetched again
check_eq "short TTL answer" "192.0.2.77" "$(answers short.example.test A)"
check_eq "fresh TTL" 300 "$(ttl_of www.example.test A)"
sleep 2.2
check_eq "short TTL refetched" "192.0.2.77" "$(answers short.example.test A)"
check_eq "expired entry asked upstream again" 2 "$(logged example short.example.test. A)"
ttl=$(ttl_of www.example.test A)
check "TTL counted down ($ttl)" test "$ttl" -lt 300 -a "$ttl" -ge 290
check_eq "unexpired entry not asked again" 1 "$(logged example www.example.test. A)"

# identical questions in flight share one resolution (the server delays this answer 400 ms)
pids=()
for i in 1 2 3 4 5; do
	answers slow.example.test A >"$TEST_TMP/slow.$i" &
	pids+=($!)
done
wait "${pids[@]}"
for i in 1 2 3 4 5; do
	check_eq "coalesced client $i answered" "192.0.2.9" "$(cat "$TEST_TMP/slow.$i")"
done
check_eq "one upstream query for five clients" 1 "$(logged example slow.example.test. A)"

# past --max-inflight new resolutions are dropped and counted (the server delays slow-a 5 s)
start_resolver limited "$NET.11" --memory-layout "$LAYOUT" --upstream-timeout-ms 8000 \
	--upstream-timeout-min-ms 8000 --max-inflight 1 || exit 1
check_eq "limited: warm the cache" "$(printf '192.0.2.1\n192.0.2.2')" "$(answers www.example.test A)"
answers slow-a.example.test A >/dev/null &
for i in $(seq 1 100); do
	[[ "$(stat inflight)" == 1 ]] && break
	sleep 0.05
done
check_eq "one request in flight" 1 "$(stat inflight)"
check "over the limit: no answer" bash -c "! kdig @$RADDR -p $RPORT +time=1 +retry=0 slow-b.example.test A | grep -q status:"
check_eq "overload counted" 1 "$(stat dropped_overload)"
check_eq "cache hits still served at the limit" "$(printf '192.0.2.1\n192.0.2.2')" "$(answers www.example.test A)"

# `shutdown` on the control socket stops it cleanly
check_eq "shutdown reply" ok "$(control shutdown)"
wait "$RPID"
check_eq "exit status after shutdown" 0 "$?"
finish
