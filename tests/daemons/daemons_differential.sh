#!/bin/bash
# tests/daemons/daemons_differential.sh - our resolver against unbound on 10,000 distinct queries of
# the real DNS-OARC sample, both iterating the same simulated hierarchy (no latency, no loss): rcode
# and answer RRsets (TTL and order aside) must be equal. Every difference is listed; differences
# where unbound answered from its own local data (AA: localhost., private reverse zones) are listed
# as "local" and do not fail the test.
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
finish
