#!/bin/bash
# tests/daemons/daemons_hierarchy.sh - kresd, unbound, PowerDNS Recursor and named iterate the simulated
# hierarchy (latency on, no loss) through their daemon definitions and resolve 500 names of the real
# sample (or generated names when it is absent); the others' answers equal unbound's, except where
# one answers from local data. While they resolve, a definition's stats command (where it has one)
# must show queries in flight.
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

# stats_max_inflight BASE WORKDIR PID : polls the definition's stats every 0.2 s while PID runs
# and prints the highest in-flight count seen, or "-" when the definition has no stats.
stats_max_inflight() {
	local def=$ALLOCSPIKE_SOURCE_DIR/scenarios/daemons/$1.sh max=- out
	while kill -0 "$3" 2>/dev/null; do
		out=$("$def" stats --workdir "$2" --build "$ALLOCSPIKE_BUILD_DIR" 2>/dev/null) || break
		out=$(jq -r '.inflight' <<<"$out")
		[[ $max != - && $out -le $max ]] || max=$out
		sleep 0.2
	done
	echo "$max"
}

rows=(unbound kresd-glibc kresd-jemalloc)
for base in pdns-recursor named; do
	command -v "$(daemon_executable "$base")" >/dev/null && rows+=("$base") ||
		echo "skip $base: $(daemon_executable "$base") not installed"
done
for row in "${rows[@]}"; do
	n=$((${n:-0} + 1))
	variants_table_read "$ALLOCSPIKE_SOURCE_DIR/variants.tsv"
	base=${V_BASE[$row]}
	listen=$(daemon_listen "$base" "127.58.2.$n:5300")
	daemon_start "$row" --listen "$listen" --root-hints "$TEST_TMP/hints" --cache-size 32M \
		--workdir "$TEST_TMP/$row" --build "$ALLOCSPIKE_BUILD_DIR" --upstream-source "127.0.1.$n" || {
		check "$row starts" false
		continue
	}
	_test_pids+=("$DAEMON_PID")
	"$ALLOCSPIKE_BIN/allocspike-test-answers" -s "$listen" -d "$queries" --count 500 \
		--inflight 50 >"$TEST_TMP/$row.answers" &
	asking=$!
	max_inflight=$(stats_max_inflight "$base" "$TEST_TMP/$row" "$asking")
	wait "$asking"
	echo "$row: $(answers_rcodes "$TEST_TMP/$row.answers"), most in flight by its stats: $max_inflight"
	if [[ $base == pdns-recursor || $base == named ]]; then
		check "$row stats show queries in flight while resolving (max $max_inflight)" \
			test "$max_inflight" != - -a "$max_inflight" -gt 0
	fi
	check_eq "$row answered every query" 0 "$(grep -c $'\tTIMEOUT\t' "$TEST_TMP/$row.answers")"
	check "$row resolved most names (NOERROR)" \
		test "$(grep -c $'\tNOERROR\t' "$TEST_TMP/$row.answers")" -ge 300
	daemon_stop "$DAEMON_PID"
done
for row in "${rows[@]:1}"; do
	[[ -s $TEST_TMP/$row.answers && -s $TEST_TMP/unbound.answers ]] || continue
	answers_compare "$TEST_TMP/unbound.answers" "$TEST_TMP/$row.answers" unbound "$row"
	check_eq "$row compared answers" 500 "$ANSWERS_COMPARED"
	check_eq "$row answers that differ from unbound's" 0 "$ANSWERS_DIFFERENT"
done
finish
