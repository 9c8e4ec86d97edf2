#!/bin/bash
# tests/daemons/daemons_hierarchy.sh - kresd and unbound iterate the simulated hierarchy (latency on,
# no loss) through their daemon definitions and resolve 500 names of the real sample (or generated
# names when it is absent); kresd's answers equal unbound's, except where one answers from local data.
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
source "$ALLOCSPIKE_SOURCE_DIR/scenarios/daemons/lib/run.sh"
source "$ALLOCSPIKE_SOURCE_DIR/tests/daemons/answers_lib.sh"
command -v kresd >/dev/null || skip "kresd not installed (apt-get install knot-resolver)"
command -v unbound >/dev/null || skip "unbound not installed (apt-get install unbound)"
hierarchy_start --seed 3 --no-loss

queries=$(shared_querydata)
if [[ -z $queries ]]; then
	queries=$TEST_TMP/queries.txt
	"$ALLOCSPIKE_BIN/allocspike-querydata" generate --seed 3 --count 2000 -o "$queries" ||
		skip "neither the shared sample nor allocspike-querydata is available"
fi

for row in unbound kresd-glibc kresd-jemalloc; do
	n=$((${n:-0} + 1))
	daemon_start "$row" --listen "127.58.2.$n:5300" --root-hints "$TEST_TMP/hints" --cache-size 32M \
		--workdir "$TEST_TMP/$row" --build "$ALLOCSPIKE_BUILD_DIR" --upstream-source "127.0.1.$n" || {
		check "$row starts" false
		continue
	}
	_test_pids+=("$DAEMON_PID")
	"$ALLOCSPIKE_BIN/allocspike-test-answers" -s "127.58.2.$n:5300" -d "$queries" --count 500 \
		--inflight 50 >"$TEST_TMP/$row.answers"
	echo "$row: $(answers_rcodes "$TEST_TMP/$row.answers")"
	check_eq "$row answered every query" 0 "$(grep -c $'\tTIMEOUT\t' "$TEST_TMP/$row.answers")"
	check "$row resolved most names (NOERROR)" \
		test "$(grep -c $'\tNOERROR\t' "$TEST_TMP/$row.answers")" -ge 300
	daemon_stop "$DAEMON_PID"
done
for row in kresd-glibc kresd-jemalloc; do
	[[ -s $TEST_TMP/$row.answers && -s $TEST_TMP/unbound.answers ]] || continue
	answers_compare "$TEST_TMP/unbound.answers" "$TEST_TMP/$row.answers" unbound "$row"
	check_eq "$row compared answers" 500 "$ANSWERS_COMPARED"
	check_eq "$row answers that differ from unbound's" 0 "$ANSWERS_DIFFERENT"
done
finish
