#!/bin/bash
# tests/controller/serve.sh - allocspike-run supervise --serve and ask: a served run's requests
# (docs/controller.md, "A served run"). A malformed or unknown request, a request naming no process
# of the run: a clear error, exit 1, the controller goes on; start (its row in processes.tsv, its
# own process group, spaces in a word), ready (the address; a process that exits first; a timeout),
# wait-any (bounded; the first exit; not blocking a stop meanwhile), stop (SIGKILL after the grace
# for one that ignores SIGTERM, what it forked gone too, requested: true), stop-all, leftovers; the
# controller SIGKILLed: every child dies with it. The events (docs/controller.md, "The events'
# clock"): kept before the origin and written with negative t_s, the controller's own started and
# exited, a pushed file and back, refusals (no file yet, a file there or a link, a bad origin or field).
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
RUN="$ALLOCSPIKE_BIN/allocspike-run"
cd "$TEST_TMP" || exit 1
export ALLOCSPIKE_STATE_DIR=$TEST_TMP/state
ask() { "$RUN" ask "$SOCK" "$@"; }

# serve DIR : a run folder registered for this shell, and its controller serving on $SOCK.
serve() {
	local me=$BASHPID
	mkdir -p "$1"
	"$RUN" register --owner "$me" "$1" || return 1
	SOCK=$1/run.sock
	"$RUN" launch --parent "$me" -- "$RUN" supervise --serve "$SOCK" --out "$1" 2>"$1/controller.err" &
	CONTROLLER=$!
	_test_pids+=("$CONTROLLER")
}

"$RUN" supervise --serve x.sock >/dev/null 2>err.txt
check_eq "--serve without --out: exit 2" 2 $?
"$RUN" supervise --serve x.sock --out no-such-run 2>err.txt
check_eq "a run folder without processes.tsv: exit 1" 1 $?
check "says which file" grep -q 'no-such-run/processes.tsv' err.txt
"$RUN" ask 2>err.txt
check_eq "ask without a request: exit 2" 2 $?
"$RUN" ask "$TEST_TMP/none.sock" stats 2>err.txt
check_eq "ask with nothing listening: exit 1" 1 $?
check "names the socket" grep -q 'none.sock' err.txt

serve "$TEST_TMP/run"
out=$(ask stats)
check_eq "stats of an empty run" '{"started":0,"running":0}' "$out"
check "the controller's row in processes.tsv" grep -q "^_controller	$CONTROLLER	" run/processes.tsv

ask frobnicate 2>err.txt
check_eq "an unknown request: exit 1" 1 $?
check "says what the requests are" grep -q "unknown request or wrong number of words: 'frobnicate' (requests: start" err.txt
out=$(python3 -c '
import socket, sys
s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); s.sendall(b"start %zz\n"); print(s.recv(4096).decode().strip())' "$SOCK")
check "a malformed word: an error" grep -q '^error: malformed request' <<<"$out"
ask start a a.log "" 2>err.txt
check_eq "start without a command: exit 1" 1 $?
check "says the form" grep -q 'start NAME LOG CPUS \[READY_FILE TIMEOUT\] -- COMMAND... is expected' err.txt
ask start ../a a.log "" -- true 2>err.txt
check_eq "a name that is no identifier: exit 1" 1 $?
ask start a a.log 1-0 -- true 2>err.txt
check "a CPU list that is none: said" grep -q "CPUS: '1-0' is not a CPU list" err.txt
ask ready nobody 2>err.txt
check_eq "ready of an unknown name: exit 1" 1 $?
check "names it" grep -q "no process 'nobody' in this run" err.txt
ask stop 1s nobody 2>err.txt
check_eq "stop of an unknown name: exit 1" 1 $?
ask wait-any 1s nobody 2>err.txt
check_eq "wait-any of an unknown name: exit 1" 1 $?

# A server that forks a helper into its group and ignores SIGTERM; its words with a space.
mkdir -p "$TEST_TMP/with space"
# shellcheck disable=SC2016 # $1, $2 and $! are the inner shell's
reply=$(ask start srv "$TEST_TMP/with space/srv.log" 0 "$TEST_TMP/srv.ready" 10s -- \
	sh -c 'trap "" TERM; sleep 300 & echo $! >"$1.child"; echo "ready 127.0.0.1:5353" >"$1"; echo "arg: $2"; wait' \
	sh "$TEST_TMP/srv.ready" "two words")
check_eq "start: exit 0" 0 $?
read -r _ srv_pid srv_start <<<"$reply"
check_eq "start answers ok PID START_TICKS" "ok $srv_pid $(start_ticks "$srv_pid")" "$reply"
check "its row in processes.tsv" grep -q "^srv	$srv_pid	$srv_start\$" run/processes.tsv
check_eq "its own process group" "$srv_pid" "$(ps -o pgid= -p "$srv_pid" | tr -d ' ')"
check_eq "the controller's child" "$CONTROLLER" "$(ps -o ppid= -p "$srv_pid" | tr -d ' ')"
check_eq "ready: its address" "ok 127.0.0.1:5353" "$(ask ready srv)"
check "the words reached it whole" grep -q '^arg: two words$' "$TEST_TMP/with space/srv.log"
check_eq "pinned to CPU 0" 0 "$(taskset -cp "$srv_pid" | sed 's/.*: //')"
ask start srv x.log "" -- true 2>err.txt
check "a second start of a running name is refused" grep -q 'srv is running' err.txt

# ready: a process that exits first; one that never is ready
check_eq "ready of one that exits first: its exit" "exited quick $(ask start quick quick.log "" -- sh -c 'exit 3' | cut -d' ' -f2) code=3 requested=false" \
	"$(ask ready quick "$TEST_TMP/quick.ready" 5s)"
ask start slow slow.log "" -- sleep 300 >/dev/null
check_eq "ready of one that never is: timeout" timeout "$(ask ready slow "$TEST_TMP/slow.ready" 0.5s)"

# wait-any: bounded; held while a stop is answered and an exit reaped
check_eq "wait-any: timeout" timeout "$(ask wait-any 0.3s srv slow)"
ask wait-any 30s srv slow >waited.txt &
waiter=$!
sleep 0.3
reply=$(ask stop 1s srv)
check "stop: the exit, asked for" grep -q "^ok srv $srv_pid signal=9 requested=true\$" <<<"$reply"
check "what it forked is gone too" wait_until 5 gone "$(cat "$TEST_TMP/srv.ready.child")"
check "the waiting request was answered with that exit" wait_until 5 grep -q "^exited srv $srv_pid signal=9 requested=true\$" waited.txt
wait "$waiter"
check_eq "wait-any answers an exit that came before at once" "exited srv $srv_pid signal=9 requested=true" "$(ask wait-any 10s srv)"
ask asked slow >/dev/null
kill -TERM "$(awk '$1 == "slow" { print $2 }' run/processes.tsv)"
check_eq "asked: its exit is no crash" "exited slow $(awk '$1 == "slow" { print $2 }' run/processes.tsv) signal=15 requested=true" \
	"$(ask wait-any 10s slow)"

# stop-all and leftovers; the name used again once it ended
reply=$(ask start srv srv2.log "" -- sleep 300)
srv2=$(cut -d' ' -f2 <<<"$reply")
ask start other other.log "" -- sleep 300 >/dev/null
reply=$(ask stop-all)
check "stop-all: every exit" grep -q "srv $srv2 signal=15 requested=true other [0-9]* signal=15 requested=true" <<<"$reply"
check_eq "leftovers: none" ok "$(ask leftovers)"
check_eq "stats" '{"started":5,"running":0}' "$(ask stats)"
# stop-child: the wrapper's child alone gets SIGTERM (perf stat writes its count when its child
# exits), the wrapper is waited for and ends by itself, its exit asked for.
reply=$(ask start wrap wrap.log "" -- sh -c 'sleep 300; echo "the wrapper goes on" >&2')
wrap=$(cut -d' ' -f2 <<<"$reply")
wait_until 5 pgrep -P "$wrap" >/dev/null
check_eq "stop-child: the wrapper's own exit" "ok wrap $wrap code=0 requested=true" "$(ask stop-child 10s wrap)"
check "the wrapper was not signalled: it went on after its child" grep -q "the wrapper goes on" wrap.log
check_eq "shutdown" ok "$(ask shutdown)"
check "the controller ends" wait_until 5 gone "$CONTROLLER"

# The events and their clock: pending before the origin, then written with negative t_s; the
# controller's own started and exited among them; a pushed file and back; refusals said.
serve "$TEST_TMP/run4"
ev=run4/events.jsonl
ask event glibc started pid:=42 2>err.txt
check_eq "an event before any events file: exit 1" 1 $?
check "says to ask events first" grep -q 'no events file (ask `events FILE` first)' err.txt
check_eq "events FILE" ok "$(ask events "$TEST_TMP/$ev")"
ln -s "$TEST_TMP/elsewhere.jsonl" run4/link.jsonl
for f in "$TEST_TMP/$ev" "$TEST_TMP/run4/link.jsonl"; do
	ask events "$f" 2>err.txt
	st=$?
	check_eq "events of a file that is there ($(basename "$f")): exit 1" 1 "$st"
	check "names it" grep -q "events: $f: " err.txt
done
check "the link was not followed" test ! -e "$TEST_TMP/elsewhere.jsonl"
ask event glibc started pid:=42 >/dev/null
p=$(ask start p p.log "" -- sleep 300 | cut -d' ' -f2)
check_eq "nothing written before the origin" 0 "$(wc -l <"$ev")"
ask origin soon 2>err.txt
check_eq "an origin that is no time: exit 1" 1 $?
check "names the word" grep -q "origin: UNIX_S: 'soon' is not a wall-clock time" err.txt
ask event v e nokey 2>err.txt
check "a field that is no KEY=TEXT or KEY:=JSON: said" grep -q "event: not KEY=TEXT or KEY:=JSON: 'nokey'" err.txt
ask event v e 't_s:=1' 2>err.txt
check "t_s as a field: refused" grep -q "t_s, variant, event and unix_s are set by their own arguments" err.txt
# a minute ahead: the steps until the checks may take seconds on a loaded machine
check_eq "origin in 60 s" ok "$(ask origin "$(($(date +%s) + 60)).25")"
check_eq "the pending events written" 2 "$(wc -l <"$ev")"
check "negative t_s, in their order, t_s first, unix_s kept" jq_true -s --argjson p "$p" \
	'.[0].pid == 42 and .[1].event == "started" and .[1].variant == "p" and .[1].pid == $p and
	 all(.[]; .t_s < -40 and .t_s > -61 and (keys_unsorted[0] == "t_s") and .unix_s > 1e9)' "$ev"
check_eq "events-push" ok "$(ask events-push "$TEST_TMP/run4/sub.jsonl")"
ask event x ready addr=1.2.3.4:5 >/dev/null
ask stop 1s p >/dev/null
check_eq "the pushed file waits for its own origin" 0 "$(wc -l <run4/sub.jsonl)"
check_eq "events-pop" ok "$(ask events-pop)"
check "the pushed file got its events, the exit the controller's" jq_true -s --argjson p "$p" \
	'length == 2 and .[0].addr == "1.2.3.4:5" and .[1].event == "exited" and .[1].pid == $p and
	 .[1].signal == 15 and .[1].signal_name == "TERM" and .[1].requested == true' run4/sub.jsonl
ask event glibc exited code:=0 >/dev/null
check "back to the first file, on its clock" jq_true -s 'length == 3 and .[2].t_s < -40' "$ev"
ask events-pop 2>err.txt
check "a pop with nothing pushed: said" grep -q 'events-pop: no file is pushed' err.txt
ask origin-clear >/dev/null
ask event late one >/dev/null
check_eq "after origin-clear, pending again" 3 "$(wc -l <"$ev")"
ask events-close >/dev/null
check "events-close writes it (against now)" jq_true -s 'length == 4 and .[3].event == "one" and .[3].t_s <= 0' "$ev"
check "every line one JSON object" jq_true -s 'all(.[]; type == "object")' "$ev"
# origin-from: the origin is the start_realtime of the `started` line a generator appends.
gen=$TEST_TMP/run4/gen.jsonl
ask events-push "$gen" >/dev/null
ask event glibc ready addr=x >/dev/null
t0=$(($(date +%s) + 60))
# shellcheck disable=SC2016 # the inner shell's words
ask start _loadgen gen.log "" -- sh -c 'sleep 0.3
	printf "{\"variant\": \"_loadgen\", \"event\": \"started\", \"start_realtime\": \"%s.500000000\"}\n" "$1" >>"$2"
	sleep 300' sh "$t0" "$gen" >/dev/null
check_eq "origin-from: the generator's start_realtime" "ok $t0.500000" "$(ask origin-from _loadgen 10s)"
check "the pending events on its clock, after its line" jq_true -s \
	'length == 3 and .[1].event == "ready" and .[2].event == "started" and
	 .[1].t_s < -40 and .[1].t_s > -62 and .[2].t_s < -40' "$gen"
ask stop 1s _loadgen >/dev/null
ask origin-clear >/dev/null
ask start _loadgen gen2.log "" -- true >/dev/null
check_eq "origin-from of one that ends saying nothing: now" "ok now" "$(ask origin-from _loadgen 10s)"
ask origin-from nobody 1s 2>err.txt
check "origin-from of an unknown name: said" grep -q "no process 'nobody' in this run" err.txt
ask events-pop >/dev/null
check_eq "shutdown" ok "$(ask shutdown)"
check "the controller ends" wait_until 5 gone "$CONTROLLER"

# The controller SIGKILLed: every child dies with it.
serve "$TEST_TMP/run2"
a=$(ask start a a.log "" -- sleep 300 | cut -d' ' -f2)
b=$(ask start b b.log "" -- sh -c 'trap "" TERM; sleep 300' | cut -d' ' -f2)
kill -KILL "$CONTROLLER"
check "its children die with it" wait_until 5 eval "gone $a && gone $b"
ask stats 2>err.txt
check_eq "a request to a gone controller: exit 1" 1 $?

# The script that started it gone: the controller goes, and its children with it.
bash -c '
	RUN=$1 dir=$2
	mkdir -p "$dir"
	"$RUN" register --owner $$ "$dir"
	"$RUN" launch --parent $$ -- "$RUN" supervise --serve "$dir/run.sock" --out "$dir" &
	"$RUN" ask "$dir/run.sock" start c c.log "" -- sleep 300 | cut -d" " -f2 >"$dir/c.pid"
	kill -KILL $$' sh "$RUN" "$TEST_TMP/run3"
check "its owner SIGKILLed: the child of its controller dies too" wait_until 5 gone "$(cat run3/c.pid)"
finish
