#!/bin/bash
# tests/build/stdout_full.sh - a program whose standard output cannot be written (/dev/full) exits 1
# and says so on stderr (common/close_stdout.h), for every command of every program that writes to
# standard output; and every program the build installs has a command here.
set -uo pipefail
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
B=$ALLOCSPIKE_BIN

queries="$TEST_TMP/queries.txt"
"$B/allocspike-querydata" generate --seed 1 --count 50 --out "$queries" || exit 1
capture="$TEST_TMP/capture.pcap"
python3 "$ALLOCSPIKE_SOURCE_DIR/tests/querydata/make_capture.py" pcap ethernet "$capture" >/dev/null || exit 1

# PROGRAM ARGS... per line; the resolver's rows are added per variant built
commands=(
	"allocspike-querydata generate --seed 1 --count 50"
	"allocspike-querydata extend --count 100 QUERIES"
	"allocspike-querydata stats QUERIES"
	"allocspike-querydata stats --json QUERIES"
	"allocspike-querydata capture CAPTURE"
	"allocspike-querydata capture --json CAPTURE"
	"allocspike-querydata capture --plan - CAPTURE"
	"allocspike-querydata --help"
	"allocspike-upstream --print-world"
	"allocspike-upstream --mix QUERIES"
	"allocspike-upstream --help"
	"allocspike-loadgen --version"
	"allocspike-loadgen --version --json"
	"allocspike-loadgen --help"
	"allocspike-agent --version"
	"allocspike-agent --help"
	"allocspike-run --version"
	"allocspike-run --help"
	"allocspike-run collect --agent a=127.0.0.1:9 --out RUN --dry-run"
	"allocspike-test-responder --help"
	"allocspike-test-cli-parse number 5"
	"allocspike-report --help"
	"allocspike-report check RUN --list"
	"allocspike-report event alpha started"
	"allocspike-report merge --help"
)
for exe in "$B"/allocspike-resolver-*; do
	[[ -x $exe ]] || continue
	name=$(basename "$exe")
	commands+=("$name --version" "$name --version --json" "$name --help")
done

# PROGRAM ARGS... : fine into /dev/null (the command is right), status 1 and the reason on stderr
# into /dev/full. QUERIES in ARGS stands for the query file (a path may hold spaces), CAPTURE for a
# crafted capture, RUN for the
# fixture run folder.
check_full() {
	local cmd=$1 program=${1%% *} words i
	read -ra words <<<"$cmd"
	words[0]="$B/$program"
	for i in "${!words[@]}"; do
		[[ ${words[i]} == QUERIES ]] && words[i]=$queries
		[[ ${words[i]} == CAPTURE ]] && words[i]=$capture
		[[ ${words[i]} == RUN ]] && words[i]=$ALLOCSPIKE_SOURCE_DIR/tests/fixtures/run-minimal
	done
	"${words[@]}" >/dev/null 2>"$TEST_TMP/err"
	check_eq "$cmd >/dev/null: exit status" 0 "$?"
	"${words[@]}" >/dev/full 2>"$TEST_TMP/err"
	check_eq "$cmd >/dev/full: exit status" 1 "$?"
	# the resolver variants name themselves allocspike-resolver, as in their other messages
	[[ $program == allocspike-resolver-* ]] && program=allocspike-resolver
	check "$cmd >/dev/full: said on stderr" grep -q "^$program: cannot write standard output: " "$TEST_TMP/err"
}
for cmd in "${commands[@]}"; do
	check_full "$cmd"
done

# The daemons' output is their ready line: they serve, then exit 1 when stopped.
R=$(ls "$B"/allocspike-resolver-* | head -1)
"$R" --listen 127.59.2.1:0 --root 127.59.1.1 --ready-file "$TEST_TMP/resolver.ready" >/dev/full 2>"$TEST_TMP/resolver.err" &
rpid=$!
_test_pids+=("$rpid")
"$B/allocspike-upstream" --hierarchy-block 127.59.1.0/24 --port 0 --ready-file "$TEST_TMP/upstream.ready" >/dev/full 2>"$TEST_TMP/upstream.err" &
upid=$!
_test_pids+=("$upid")
for _ in $(seq 200); do
	[[ -s $TEST_TMP/resolver.ready && -s $TEST_TMP/upstream.ready ]] && break
	sleep 0.1
done
check "resolver ready with stdout on /dev/full" test -s "$TEST_TMP/resolver.ready"
check "hierarchy ready with stdout on /dev/full" test -s "$TEST_TMP/upstream.ready"
kill "$rpid" "$upid"
wait "$rpid"
check_eq "resolver, stopped: exit status" 1 "$?"
wait "$upid"
check_eq "hierarchy, stopped: exit status" 1 "$?"
check "resolver: said on stderr" grep -q "^allocspike-resolver: cannot write standard output: " "$TEST_TMP/resolver.err"
check "hierarchy: said on stderr" grep -q "^allocspike-upstream: cannot write standard output: " "$TEST_TMP/upstream.err"

# every program the build installs (install.sh's list) has a command above
for exe in "$B"/allocspike-*; do
	[[ -f $exe && -x $exe ]] || continue
	name=$(basename "$exe")
	case $name in allocspike-test-* | allocspike-bench-*) continue ;; esac
	check "$name has a command here" bash -c 'for c in "${@:2}"; do [[ ${c%% *} == "$1" ]] && exit 0; done; exit 1' _ "$name" "${commands[@]}"
done
finish
