#!/bin/bash
# tests/daemons/daemons_differential.sh - our resolver, PowerDNS Recursor and named against unbound on
# 10,000 distinct queries of the real DNS-OARC sample, all iterating the same simulated hierarchy
# (no latency, no loss): rcode and answer RRsets (TTL and order aside) must be equal. Every
# difference is listed; differences where either side answered from its own local data (AA:
# localhost., private reverse zones) are listed as "local" and do not fail the test. A daemon that
# is not installed is skipped (said so); our resolver and unbound are required.
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
source "$ALLOCSPIKE_SOURCE_DIR/scenarios/daemons/lib/run.sh"
source "$ALLOCSPIKE_SOURCE_DIR/tests/daemons/answers_lib.sh"
count=${DAEMONS_DIFFERENTIAL_COUNT:-10000}
queries=$(shared_querydata)
[[ -n $queries ]] || skip "the real sample ../shared/querydata is not beside the checkout"
command -v unbound >/dev/null || skip "unbound not installed (apt-get install unbound)"
resolver=$ALLOCSPIKE_BIN/allocspike-resolver-glibc
[[ -x $resolver ]] || skip "allocspike-resolver-glibc not built"
# DAEMONS_DIFFERENTIAL_HIERARCHY replaces the hierarchy's treatment, e.g. "--loss 0.03" for the
# scenario's latency and loss (slower: minutes); loss is deterministic per question and attempt.
read -ra treatment <<<"${DAEMONS_DIFFERENTIAL_HIERARCHY:---no-latency --no-loss}"
hierarchy_start --seed 11 "${treatment[@]}"

daemon_start unbound --listen 127.58.2.1:5300 --root-hints "$TEST_TMP/hints" --cache-size 256M \
	--workdir "$TEST_TMP/unbound" --build "$ALLOCSPIKE_BUILD_DIR" --upstream-source 127.0.1.1 ||
	{ echo "FAIL unbound did not start"; exit 1; }
_test_pids+=("$DAEMON_PID")
start_server resolver "$TEST_TMP/resolver.ready" "$resolver" --listen 127.58.2.2:0 \
	--root-hints "$TEST_TMP/hints" --upstream-port 53 --upstream-source 127.0.1.2 --cache-size 256M \
	--ready-file "$TEST_TMP/resolver.ready" >"$TEST_TMP/resolver.addr" || exit 1
ours=$(cat "$TEST_TMP/resolver.addr")

"$ALLOCSPIKE_BIN/allocspike-test-answers" -s 127.58.2.1:5300 -d "$queries" --count "$count" \
	--inflight 100 >"$TEST_TMP/unbound.answers" &
ask_unbound=$!
"$ALLOCSPIKE_BIN/allocspike-test-answers" -s "$ours" -d "$queries" --count "$count" \
	--inflight 100 >"$TEST_TMP/ours.answers"
wait "$ask_unbound"
echo "unbound: $(answers_rcodes "$TEST_TMP/unbound.answers")"
echo "ours:    $(answers_rcodes "$TEST_TMP/ours.answers")"
answers_compare "$TEST_TMP/unbound.answers" "$TEST_TMP/ours.answers" unbound ours
check_eq "queries compared" "$count" "$ANSWERS_COMPARED"
check_eq "unbound timeouts" 0 "$(grep -c $'\tTIMEOUT\t' "$TEST_TMP/unbound.answers")"
check_eq "answers of ours that differ from unbound's" 0 "$ANSWERS_DIFFERENT"

# The other daemons as shipped, one after the other (each iterates with a cold cache).
n=3
for row in pdns-recursor named; do
	command -v "$(daemon_executable "$row")" >/dev/null ||
		{ echo "skip $row: $(daemon_executable "$row") not installed"; continue; }
	listen=$(daemon_listen "$row" "127.58.2.$n:5300")
	daemon_start "$row" --listen "$listen" --root-hints "$TEST_TMP/hints" --cache-size 256M \
		--workdir "$TEST_TMP/$row" --build "$ALLOCSPIKE_BUILD_DIR" --upstream-source "127.0.1.$n" ||
		{ check "$row starts" false; continue; }
	_test_pids+=("$DAEMON_PID")
	"$ALLOCSPIKE_BIN/allocspike-test-answers" -s "$listen" -d "$queries" --count "$count" \
		--inflight 100 >"$TEST_TMP/$row.answers"
	daemon_stop "$DAEMON_PID"
	echo "$row: $(answers_rcodes "$TEST_TMP/$row.answers")"
	answers_compare "$TEST_TMP/unbound.answers" "$TEST_TMP/$row.answers" unbound "$row"
	check_eq "$row queries compared" "$count" "$ANSWERS_COMPARED"
	check_eq "answers of $row that differ from unbound's" 0 "$ANSWERS_DIFFERENT"
	n=$((n + 1))
done
finish
