#!/bin/bash
# tests/agent/start_row.sh - allocspike-agent --start ROW: the agent starts a build row of
# variants.tsv on its own host (the resolver beside it in its bin folder, the row's environment, the
# launch options and the run's resolver options after --), waits for its ready file and samples it
# as with --pid; the resolver is the agent's child in a process group of its own, stopped with the
# agent (SIGTERM) and killed when the agent is (its death signal). An unknown row, a daemon row
# without root hints (tests/agent/start_daemon.sh starts one) and --start beside --pid are refused
# (exit 2). `allocspike-run variants --command` prints the same
# command from the same builder (common/variant_command.c), environment first.
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
NET=127.56.57
source "$ALLOCSPIKE_SOURCE_DIR/tests/resolver/hierarchy_lib.sh"
AGENT="$ALLOCSPIKE_BIN/allocspike-agent"
RUN="$ALLOCSPIKE_BIN/allocspike-run"
[[ -x $ALLOCSPIKE_BIN/allocspike-resolver-glibc ]] || skip "allocspike-resolver-glibc is not built"
for p in "$AGENT" "$RUN"; do [[ -x $p ]] || skip "$p is not built"; done
command -v curl >/dev/null || skip "curl not installed"
cd "$TEST_TMP" || exit 1
T=$TEST_TMP/variants.tsv
{
	printf 'name\tkind\tallocator\tlibc\tlibrary\tbase\tenv\tdefault\tnote\n'
	printf 'glibc\tbuild\tglibc\tglibc\t-\t-\t-\tyes\tthe build row\n'
	printf 'glibc-trim\tenv\tglibc\tglibc\t-\tglibc\tGLIBC_TUNABLES=glibc.malloc.trim_threshold=131072 MALLOC_ARENA_MAX=2\tno\tan env row\n'
	printf 'kresd\texternal\tjemalloc\tglibc\t-\tkresd\t-\tno\ta daemon\n'
} >"$T"

# the builder, as the scenarios read it: environment words, "--", the command
check_eq "variants --command: an env row's environment, then its base's binary and the options" \
	"GLIBC_TUNABLES=glibc.malloc.trim_threshold=131072
MALLOC_ARENA_MAX=2
--
$ALLOCSPIKE_BIN/allocspike-resolver-glibc
--listen
127.0.0.1:0
--upstream-port
53
--cache-size
1048576
--control
c.sock" \
	"$("$RUN" variants --table "$T" --command glibc-trim --listen 127.0.0.1:0 --upstream-port 53 --control c.sock -- --cache-size 1048576)"
"$RUN" variants --table "$T" --command kresd >out.txt 2>err.txt
check_eq "variants --command of a daemon row: exit 2" 2 $?
check "says whose it is to start" grep -q "variant 'kresd' is of kind external: its daemon is started by its definition" err.txt
"$RUN" variants --table "$T" --listen 127.0.0.1:0 >out.txt 2>err.txt
check_eq "a launch option without --command: exit 2" 2 $?

# refused before anything runs
agent_start() { "$AGENT" --start "$1" --variants-table "$T" --control "$TEST_TMP/x.ctl" "${@:2}" >out.txt 2>err.txt; }
agent_start nope
check_eq "--start of a row not in the table: exit 2" 2 $?
check "names the row and the table" grep -q "no variant 'nope' in $T" err.txt
agent_start kresd
check_eq "--start of a daemon row without the hierarchy's root hints: exit 2" 2 $?
check "says a daemon needs them (start_daemon.sh starts one)" grep -q "row kresd is a daemon: it needs the hierarchy's root hints" err.txt
agent_start glibc --pid 1
check_eq "--start with --pid: exit 2" 2 $?
"$AGENT" --start glibc --control x.ctl >/dev/null 2>err.txt
check_eq "--start without --variants-table: exit 2" 2 $?
check "nothing was started" test ! -e "$TEST_TMP/x.ctl.ready"

start_hierarchy "$NET" || exit 1
# start_agent NAME : the agent starting the env row (its environment must reach the resolver)
start_agent() {
	start_server "$1" "$TEST_TMP/$1.ready" "$AGENT" --start glibc-trim --variants-table "$T" \
		--resolver-listen "$NET.10:0" --upstream-port "$HPORT" --upstream-source "$NET.10" \
		--control "$TEST_TMP/$1-row.ctl" --listen 127.0.0.1:0 --interval 50ms --variant glibc-trim \
		--duration 60s --ready-file "$TEST_TMP/$1.ready" -- --root "$NET.1" --upstream-timeout-ms 700 >"$1.addr"
}
start_agent agent1 || exit 1
APID=${_test_pids[-1]}
RPID=$(pgrep -P "$APID")
RADDR=$NET.10
RPORT=$(sed -n 's/^ready .*://p' "$TEST_TMP/agent1-row.ctl.ready")
check "the row is the agent's child" test -n "$RPID"
check_eq "in a process group of its own" "$RPID" "$(ps -o pgid= -p "$RPID" | tr -d ' ')"
check_eq "the row's binary, beside the agent" "$ALLOCSPIKE_BIN/allocspike-resolver-glibc" "$(readlink "/proc/$RPID/exe")"
check "the row's environment" grep -qz '^MALLOC_ARENA_MAX=2$' "/proc/$RPID/environ"
check "the run's options passed on" grep -qz -- '^--upstream-timeout-ms$' "/proc/$RPID/cmdline"
check_eq "it answers through the hierarchy" NOERROR "$(ask www.example.test A | sed -n 's/.*status: \([A-Z]*\).*/\1/p')"
sleep 0.3
curl -sf "http://$(cat agent1.addr)/metrics" -o m.txt
check "the agent samples it: up" grep -q '^allocspike_target_up{.*} 1$' m.txt
check "its counters come from the row's socket" awk '/^allocspike_upstream_queries_total\{/ { n = $NF } END { exit !(n >= 1) }' m.txt
kill -TERM "$APID"
wait "$APID"
check_eq "the agent ends on SIGTERM: exit 0" 0 $?
check "and the row with it" bash -c "! kill -0 $RPID 2>/dev/null"

start_agent agent2 || exit 1
APID=${_test_pids[-1]}
RPID=$(pgrep -P "$APID")
kill -KILL "$APID"
wait "$APID" 2>/dev/null
for ((i = 0; i < 50; i++)); do kill -0 "$RPID" 2>/dev/null || break; sleep 0.1; done
check "the agent SIGKILLed: its row killed too (the death signal)" bash -c "! kill -0 $RPID 2>/dev/null"
finish
