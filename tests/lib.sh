# tests/lib.sh - the helpers every bash test sources: checks, skipping, readiness, cleanup.
# Programs come from $ALLOCSPIKE_BIN; every process a test starts is killed when it exits.

: "${ALLOCSPIKE_SOURCE_DIR:?run through ctest}"
: "${ALLOCSPIKE_BIN:?run through ctest}"
# shellcheck source=scenarios/lib/lifeline.sh
source "$ALLOCSPIKE_SOURCE_DIR/scenarios/lib/lifeline.sh"
TEST_NAME=$(basename "$0" .sh)
TEST_TMP=$(mktemp -d "${TMPDIR:-/tmp}/allocspike-$TEST_NAME.XXXXXX")
_test_failures=0
_test_checks=0
_test_pids=()

_test_cleanup() {
	local pid
	for pid in "${_test_pids[@]}"; do
		kill "$pid" 2>/dev/null || true
	done
	for pid in "${_test_pids[@]}"; do
		wait "$pid" 2>/dev/null || true
	done
	[[ -n "${KEEP_TEST_TMP:-}" ]] || rm -rf "$TEST_TMP"
}
trap _test_cleanup EXIT

# check DESCRIPTION COMMAND... : passes when COMMAND succeeds.
check() {
	local what=$1
	shift
	_test_checks=$((_test_checks + 1))
	if "$@"; then
		echo "ok   $what"
	else
		echo "FAIL $what (command: $*)"
		_test_failures=$((_test_failures + 1))
	fi
}

# check_eq DESCRIPTION EXPECTED ACTUAL
check_eq() {
	_test_checks=$((_test_checks + 1))
	if [[ "$2" == "$3" ]]; then
		echo "ok   $1 = $3"
	else
		echo "FAIL $1: expected '$2', got '$3'"
		_test_failures=$((_test_failures + 1))
	fi
}

# skip REASON : ends the test as skipped (ctest SKIP_RETURN_CODE 77).
skip() {
	echo "SKIP $TEST_NAME: $*"
	exit 77
}

# finish : exit status from the checks made; a test that checked nothing fails.
finish() {
	if ((_test_checks == 0)); then
		echo "FAIL $TEST_NAME made no check"
		exit 1
	fi
	echo "$TEST_NAME: $((_test_checks - _test_failures)) passed, $_test_failures failed"
	((_test_failures == 0))
}

# start_server NAME READY_FILE COMMAND... : starts COMMAND in the background with its log in
# $TEST_TMP/NAME.log and waits (at most 20 s) for its "ready ADDR:PORT" line; prints ADDR:PORT.
# Call it in the test's own shell, never inside $(...): a subshell would lose the pid and the cleanup
# would not stop the server. Redirect its output to a file to keep the address.
start_server() {
	local name=$1 ready=$2 LIFELINE
	shift 2
	lifeline_set # a test killed by ctest's timeout takes its servers with it
	"${LIFELINE[@]}" "$@" >"$TEST_TMP/$name.log" 2>&1 &
	_test_pids+=($!)
	local i
	for ((i = 0; i < 200; i++)); do
		if [[ -s "$ready" ]]; then
			sed -n 's/^ready //p' "$ready" | head -1
			return 0
		fi
		if ! kill -0 "$!" 2>/dev/null; then
			echo "FAIL $name exited before ready; its log:" >&2
			cat "$TEST_TMP/$name.log" >&2
			return 1
		fi
		sleep 0.1
	done
	echo "FAIL $name not ready within 20 s; its log:" >&2
	cat "$TEST_TMP/$name.log" >&2
	return 1
}

# plan_total_s : the seconds of the "about ... in all" a plan line on stdin says (tune.sh, scale.sh).
plan_total_s() {
	sed -n 's/.*: about \(.*\) in all$/\1/p' |
		awk '{ t = 0; for (i = 1; i < NF; i += 2) t += $i * ($(i + 1) == "h" ? 3600 : $(i + 1) == "min" ? 60 : 1); print t }'
}

# variants_rows : the data rows of variants.tsv (tab-separated), as the controller reads them.
variants_rows() { "$ALLOCSPIKE_BIN/allocspike-run" variants --table "$ALLOCSPIKE_SOURCE_DIR/variants.tsv"; }

# shared_querydata : path of the real DNS-OARC sample, or empty when ../shared is not beside the checkout.
shared_querydata() {
	local f="$ALLOCSPIKE_SOURCE_DIR/../shared/querydata/queryfile-example-10million-201202_head100k.xz"
	[[ -r "$f" ]] && echo "$f" || true
}

# control_send SOCKET COMMAND : one line command to a Unix control socket (resolver, hierarchy);
# prints the reply line. Waits at most 5 s for it.
control_send() {
	python3 - "$1" "$2" <<'PY'
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.settimeout(5)
s.connect(sys.argv[1])
s.sendall((sys.argv[2] + "\n").encode())
buf = b""
while not buf.endswith(b"\n"):
    chunk = s.recv(65536)
    if not chunk:
        break
    buf += chunk
print(buf.decode().strip())
PY
}

# stand_in_loadgen FILE LEAD_S STATUS : FILE, a stand-in allocspike-loadgen for a served run's
# generate or drive: its words into args-loadgen beside FILE's folder, a `started` line appended to
# its --out's events.jsonl (its schedule starting LEAD_S seconds from now, at .25 s), then exit
# STATUS after a second, or, given the schedule "hold", never.
stand_in_loadgen() {
	cat >"$1" <<SH
#!/bin/bash
printf '%s\n' "\$@" >"\${0%/*}/../args-loadgen"
while ((\$#)); do
	case \$1 in
	--out) out=\$2 ;;
	--schedule) schedule=\$2 ;;
	esac
	shift
done
printf '{"variant": "_loadgen", "event": "started", "start_realtime": "%s.250000000"}\n' \
	"\$((\$(date +%s) + $2))" >>"\$out/events.jsonl"
[[ \$schedule == hold ]] && exec sleep 300
sleep 1
exit $3
SH
	chmod +x "$1"
}

# stand_in_rows DIR NAMES... : DIR/v.tsv, a variants table of build rows NAMES, their stand-in
# resolvers in DIR/bin (each keeps its environment in DIR/env-NAME, says it is ready at the address
# in DIR/addr-NAME, else 127.0.0.1:5353, unless DIR/never-ready-NAME exists, then sleeps), and the
# words of a served run's `rows-setup` of them printed one a line.
stand_in_rows() {
	local dir=$1 name
	shift
	mkdir -p "$dir/bin" "$dir/daemons/lib"
	touch "$dir/hints"
	printf 'name\tkind\tallocator\tlibc\tlibrary\tbase\tenv\tdefault\tnote\n' >"$dir/v.tsv"
	for name in "$@"; do
		printf '%s\tbuild\tglibc\tglibc\t-\t-\t-\tyes\tn\n' "$name" >>"$dir/v.tsv"
		cat >"$dir/bin/allocspike-resolver-$name" <<'SH'
#!/bin/bash
name=${0##*-} home=${0%/bin/*} addr=127.0.0.1:5353
env >"$home/env-$name"
[[ ! -e $home/addr-$name ]] || addr=$(<"$home/addr-$name")
while (($#)); do
	[[ $1 != --ready-file ]] || ready=$2
	shift
done
[[ -e $home/never-ready-$name ]] || printf 'ready %s\n' "$addr" >"$ready"
exec sleep 300
SH
		chmod +x "$dir/bin/allocspike-resolver-$name"
	done
	local IFS=,
	printf '%s\n' "$dir/v.tsv" "$dir/bin" "$dir/daemons" "$*" "$dir/hints" 5300 "" -- --cache-size 1M
}

# stand_in_ramp_loadgen FILE : FILE, a stand-in allocspike-loadgen for a calibration's ramp: the
# timeline a row of the capacity in capacities beside FILE's folder (NAME=QPS lines) gives over the
# ramp of its --schedule (all answered up to it, 8 % of it above) appended to its --out's (serial:
# the rows one after another), a `started` line to its events, its schedule to schedules there.
stand_in_ramp_loadgen() {
	cat >"$1" <<'SH'
#!/bin/bash
source "$ALLOCSPIKE_SOURCE_DIR/tests/reports/crafted_timeline.sh"
home=${0%/*}/.. names=()
while (($#)); do
	case $1 in --out) out=$2 ;; --schedule) schedule=$2 ;; --target) names+=("${2%%,*}") ;; esac
	shift
done
echo "$schedule" >>"$home/schedules"
printf '{"variant": "_loadgen", "event": "started", "start_realtime": "%s.250000000"}\n' "$(date +%s)" >>"$out/events.jsonl"
declare -A cap
while IFS== read -r n c; do cap[$n]=$c; done <"$home/capacities"
top=${schedule##*..}
[[ -s $out/timeline.csv ]] || crafted_header >"$out/timeline.csv"
for ((i = 1; i <= 100; i++)); do
	rate=$((300 + (top - 300) * i / 100))
	off=$((rate / 10))
	for n in "${names[@]}"; do
		n=${n#name=} ans=$off
		((rate <= cap[$n])) || ans=$((cap[$n] * 8 / 100))
		echo "t_s=$((i / 10)).$((i % 10)) variant=$n phase=calibrate spike=0 offered=$off sent=$off answered=$ans"
	done
done | crafted_rows >>"$out/timeline.csv"
SH
	chmod +x "$1"
}

# serve_begin SOCKET SCENARIO DIR : a served run's controller (supervise --serve, dying with this
# shell, its stderr appended to TEST_TMP/controller.err) listening at SOCKET, asked to begin the run in DIR.
serve_begin() {
	local run=$ALLOCSPIKE_BIN/allocspike-run me=$BASHPID i
	mkdir -p "$(dirname "$1")"
	"$run" launch --parent "$me" -- "$run" supervise --serve "$1" --begin 2>>"$TEST_TMP/controller.err" &
	_test_pids+=("$!")
	for ((i = 0; i < 100; i++)); do [[ -S $1 ]] && break; sleep 0.05; done
	"$run" ask "$1" begin "$me" "$2" "$3" >/dev/null
}

# alive PID : PID runs (a zombie waiting to be reaped counts as gone); gone PID : it does not.
alive() { kill -0 "$1" 2>/dev/null && [[ $(awk '{ sub(/.*\) /, ""); print $1 }' "/proc/$1/stat" 2>/dev/null) != Z ]]; }
gone() { ! alive "$1"; }

# wait_until SECONDS COMMAND... : polls COMMAND every 0.1 s until it holds, at most SECONDS.
wait_until() {
	local i limit=$1
	shift
	for ((i = 0; i < limit * 10; i++)); do
		"$@" && return 0
		sleep 0.1
	done
	return 1
}

# jq_true [jq options] FILTER FILE : true when FILTER gives true on FILE (quiet, for check).
jq_true() { jq -e "$@" >/dev/null 2>&1; }

# start_ticks PID : when PID started (clock ticks after boot, /proc/PID/stat field 22).
start_ticks() { awk '{ sub(/.*\) /, ""); print $20 }' "/proc/$1/stat"; }

# plant_leftovers PROCESSES_TSV : two live processes appended to a run's processes.tsv, as a killed
# run leaves them: _planted with its real start time (a daemon that ignored its parent's death),
# _reused recorded with another (its PID reused since: never to be signalled). Sets $planted and
# $reused; both are stopped when the test ends.
plant_leftovers() {
	setsid sleep 300 </dev/null >/dev/null 2>&1 &
	planted=$!
	setsid sleep 300 </dev/null >/dev/null 2>&1 &
	reused=$!
	_test_pids+=("$planted" "$reused")
	sleep 0.2
	printf '_planted\t%s\t%s\n_reused\t%s\t%s\n' "$planted" "$(start_ticks "$planted")" \
		"$reused" "$(($(start_ticks "$reused") - 1))" >>"$1"
}

# served_controller_test : RUN, the built allocspike-run (the test skipped without it), and the test
# in TEST_TMP with the runs it serves registered in a state folder of its own.
served_controller_test() {
	RUN=$ALLOCSPIKE_BIN/allocspike-run
	[[ -x $RUN ]] || skip "allocspike-run is not built"
	cd "$TEST_TMP" || exit 1
	export ALLOCSPIKE_STATE_DIR=$TEST_TMP/state
}

# served_begin NAME DIR : for a test that calls the scenarios' modules without a scenario (with
# scenarios/lib/procs.sh sourced): a served controller of its own (serve_begin), which procs_ask
# reaches, its run begun in DIR with this shell as the run's owner. served_end finishes it.
served_begin() {
	SC_PROCS_SOCKET=$(mktemp -d "${TMPDIR:-/tmp}/allocspike-test.XXXXXX")/run.sock || return 1
	serve_begin "$SC_PROCS_SOCKET" "$1" "$2"
}

# served_end : the run finished (completed, no timeline.csv made) and its controller ended.
served_end() {
	procs_ask finish completed timeline=no
	procs_ask shutdown
	rm -rf -- "${SC_PROCS_SOCKET%/*}"
}
