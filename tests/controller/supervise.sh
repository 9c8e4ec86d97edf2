#!/bin/bash
# tests/controller/supervise.sh - allocspike-run supervise: a plan's processes started in order,
# each ready before the next, in its own process group; a crash recorded while the others go on;
# the stop in reverse start order, SIGKILL for one that ignores SIGTERM, what a process forked
# stopped with it; SIGINT and a second signal during the stop (the stop goes on, without grace);
# a SIGKILLed controller leaves none of its children, and the next run stops what is left of its
# groups, marks it failed and records it; a PID recorded with another start time is never
# signalled; the state folder refused when others can write in it; --dry-run; usage errors.
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
RUN="$ALLOCSPIKE_BIN/allocspike-run"
cd "$TEST_TMP" || exit 1
export ALLOCSPIKE_STATE_DIR=$TEST_TMP/state
# jqs FILTER FILE : whether jq's filter over FILE's lines (slurped) holds
jqs() { jq -se "$1" "$2" >/dev/null; }

# A server: writes its ready line, forks a helper into its group (its pid into FILE.child), waits.
server() { printf '["sh", "-c", "sleep 300 & echo $! >%s.child; echo ready 127.0.0.1:%s >%s; wait"]' "$1" "$2" "$1"; }

# usage errors
"$RUN" supervise --out x >/dev/null 2>err.txt
check_eq "no --plan: exit 2" 2 $?
check "no --plan: says so" grep -q -- '--plan and --out are required' err.txt
echo '{"processes": [{"name": "a", "log": "a.log", "cpus": "1-0", "argv": ["true"]}]}' >bad.json
"$RUN" supervise --plan bad.json --out x >/dev/null 2>err.txt
check_eq "a CPU list that is none: exit 2" 2 $?
check "names the file and the entry" grep -q 'bad.json: processes\[0\].cpus' err.txt
echo '{"processes": [{"name": "a", "log": "a", "argv": ["true"]}, {"name": "a", "log": "b", "argv": ["true"]}]}' >bad.json
"$RUN" supervise --plan bad.json --out x >/dev/null 2>err.txt
check_eq "a name twice: exit 2" 2 $?
check "says which" grep -q "processes\[1\].name: 'a' is named twice" err.txt
echo '{"processes": [{"name": "../a", "log": "a", "argv": ["true"]}]}' >bad.json
"$RUN" supervise --plan bad.json --out x >/dev/null 2>err.txt
check_eq "a name that is no identifier: exit 2" 2 $?
echo '{"duration": "5", "processes": [{"name": "a", "log": "a", "argv": ["true"]}]}' >bad.json
"$RUN" supervise --plan bad.json --out x >/dev/null 2>err.txt
check_eq "a duration without a unit: exit 2" 2 $?
printf '{"processes": [\n{"name": "a",,}]}\n' >bad.json
"$RUN" supervise --plan bad.json --out x >/dev/null 2>err.txt
check_eq "not JSON: exit 2" 2 $?
check "names the line" grep -q 'bad.json:2:' err.txt
check "nothing written on a usage error" test ! -e x

# The plan of a run: a server, then a second process that forks too and is pinned to CPU 0.
cat >plan.json <<PLAN
{"duration": "1s", "grace": "2s", "processes": [
  {"name": "_upstream", "log": "logs/upstream.log", "ready": {"file": "$TEST_TMP/up.ready", "timeout": "10s"},
   "argv": $(server "$TEST_TMP/up.ready" 5353)},
  {"name": "glibc", "log": "logs/glibc.log", "cpus": "0",
   "argv": ["sh", "-c", "sleep 300 & echo \$! >$TEST_TMP/glibc.child; grep Cpus_allowed_list /proc/self/status; wait"]}
]}
PLAN
"$RUN" supervise --plan plan.json --out dry --dry-run >dry.txt
check_eq "dry run: exit 0" 0 $?
check "dry run: each process, its command and readiness" \
	grep -q 'process 1: _upstream' dry.txt
check "dry run: the command" grep -q '  command sh -c sleep 300' dry.txt
check "dry run: readiness" grep -q "ready when $TEST_TMP/up.ready holds 'ready ADDR:PORT' (at most 10 s)" dry.txt
check "dry run: expected duration" grep -q 'expected duration: 1 s once every process is ready (at most 10 s starting, 4 s stopping)' dry.txt
check "dry run: starts and writes nothing" test ! -e dry -a ! -e up.ready
check "dry run: a relative log within the run folder" grep -q '  log dry/logs/upstream.log' dry.txt

"$RUN" supervise --plan plan.json --out run >out.txt 2>err.txt
check_eq "a run: exit 0" 0 $?
ev=run/events.jsonl
check "started in plan order, each with its pid" jqs '[.[] | select(.event == "started") | .variant] == ["_upstream", "glibc"]' "$ev"
check "the server ready with its address" jqs 'any(.[]; .variant == "_upstream" and .event == "ready" and .addr == "127.0.0.1:5353")' "$ev"
check "stopped in reverse start order, both asked" \
	jqs '[.[] | select(.event == "exited") | [.variant, .requested, .signal]] == [["glibc", true, 15], ["_upstream", true, 15]]' "$ev"
check "ended" jqs 'last | .variant == "_controller" and .event == "ended"' "$ev"
check_eq "processes.tsv: header, the controller, both processes" "name _controller _upstream glibc" \
	"$(cut -f1 run/processes.tsv | paste -sd' ')"
check "processes.tsv: the pids of the started events" test "$(awk -F'\t' 'NR > 2 { print $2 }' run/processes.tsv | paste -sd' ')" \
	== "$(jq -r 'select(.event == "started") | .pid' "$ev" | paste -sd' ')"
check "pinned to CPU 0" grep -q 'Cpus_allowed_list:[[:space:]]*0$' run/logs/glibc.log
check "what each process forked is gone too" gone "$(cat up.ready.child)"
check "  (both)" gone "$(cat glibc.child)"
check "the run is no longer registered" test -z "$(ls -A state)"

# A crash is recorded while the other runs on; one that ignores SIGTERM is killed after the grace.
cat >crash.json <<PLAN
{"duration": "2s", "grace": "0.5s", "processes": [
  {"name": "stubborn", "log": "stubborn.log", "argv": ["sh", "-c", "trap '' TERM; while :; do sleep 0.1; done"]},
  {"name": "victim", "log": "victim.log", "argv": ["sh", "-c", "sleep 0.5; kill -KILL \$\$"]}
]}
PLAN
"$RUN" supervise --plan crash.json --out crash >out.txt 2>err.txt
check_eq "a crash: the run still ends well" 0 $?
check "the crash: exited by SIGKILL, not asked" \
	jqs 'any(.[]; .variant == "victim" and .event == "exited" and .signal == 9 and .signal_name == "KILL" and .requested == false)' crash/events.jsonl
check "said on stderr" grep -q 'victim (pid [0-9]*) exited by signal KILL' err.txt
check "the other ran to the end, then ignored SIGTERM and was killed" \
	jqs 'any(.[]; .variant == "stubborn" and .event == "exited" and .signal == 9 and .requested == true)' crash/events.jsonl
check "said so" grep -q 'stubborn (pid [0-9]*) ignored SIGTERM for 0.5s; killing it' err.txt

# SIGINT, then SIGTERM during the stop: the stop goes on without its grace (60 s), exit 130.
cat >intr.json <<PLAN
{"grace": "60s", "processes": [
  {"name": "_upstream", "log": "up.log", "ready": {"file": "$TEST_TMP/intr.ready"}, "argv": $(server "$TEST_TMP/intr.ready" 1)},
  {"name": "stubborn", "log": "stubborn.log", "argv": ["sh", "-c", "trap '' TERM; while :; do sleep 0.1; done"]}
]}
PLAN
# intr_start DIR : the plan above run into DIR, in the background (ctl), once both processes started.
intr_start() {
	rm -f "$TEST_TMP/intr.ready"
	"$RUN" supervise --plan intr.json --out "$1" >out.txt 2>err.txt &
	ctl=$!
	_test_pids+=("$ctl")
	wait_until 20 eval "[[ \$(jq -s '[.[] | select(.event == \"started\")] | length' $1/events.jsonl 2>/dev/null) == 2 ]]"
}
# intr_ended WHAT : the run ended within 10 s of the second signal (not after the 60 s grace),
# interrupted, and said the hurry.
intr_ended() {
	wait_until 10 gone "$ctl"
	check "$1: the second signal did not wait out the 60 s grace" gone "$ctl"
	wait "$ctl"
	check_eq "$1: exit 130" 130 $?
	check "$1: said the hurry" grep -q 'signal during the stop: killing what is left at once' err.txt
}
intr_start intr
kill -INT "$ctl"
# the second signal once the stop has begun (it said so), not after a time that a loaded machine
# may not give it
wait_until 10 grep -q 'interrupted by SIGINT: stopping every process' err.txt
kill -TERM "$ctl"
intr_ended "SIGTERM during the stop"
check "interrupted event names SIGINT" jqs 'any(.[]; .event == "interrupted" and .signal == "SIGINT")' intr/events.jsonl
check "every exit recorded" jqs '[.[] | select(.event == "exited")] | length == 2' intr/events.jsonl
check "what the server forked is gone" gone "$(cat intr.ready.child)"

# SIGINT and SIGTERM at once (a second Ctrl-C that comes before the stop has begun): the second still
# drops the grace.
intr_start intr2
kill -INT "$ctl"
kill -TERM "$ctl"
intr_ended "two signals at once"

# The controller SIGKILLed: its children die with it (the death signal); what they forked is left
# until the next run, which stops it, records the killed run and marks it failed.
cat >killed.json <<PLAN
{"processes": [{"name": "_upstream", "log": "up.log", "ready": {"file": "$TEST_TMP/k.ready"}, "argv": $(server "$TEST_TMP/k.ready" 2)}]}
PLAN
"$RUN" supervise --plan killed.json --out killed >out.txt 2>err.txt &
ctl=$!
_test_pids+=("$ctl")
ready() { [[ -s k.ready.child ]] && grep -q ready k.ready; }
wait_until 20 ready
echo '{"status": "running"}' >killed/run.json
leader=$(jq -r 'select(.event == "started") | .pid' killed/events.jsonl)
helper=$(cat k.ready.child)
_test_pids+=("$helper")
check "the run is registered" test -s "state/$ctl"
kill -KILL "$ctl"
wait "$ctl" 2>/dev/null
wait_until 5 gone "$leader"
check "the killed controller's child died with it" gone "$leader"
# Planted in the killed run's processes.tsv: a live process with its real start time (left as a
# daemon ignoring its parent's death would be), and one recorded with another (its PID reused).
plant_leftovers killed/processes.tsv
"$RUN" supervise --plan crash.json --out next >out.txt 2>err.txt
check_eq "the next run: exit 0" 0 $?
check "it stopped what the killed run's server forked" gone "$helper"
check "  and the planted process" gone "$planted"
check "a process recorded with another start time is left alone" alive "$reused"
check "stale_run names the killed run and what was stopped" \
	jq -se --arg r "$TEST_TMP/killed" --arg h "_upstream:$helper" --arg p "_planted:$planted" \
	'any(.[]; .event == "stale_run" and .run == $r and (.stopped | index($h)) and (.stopped | index($p)))' next/events.jsonl
check "stale_run does not list the reused pid" \
	jqs "all(.[]; .event != \"stale_run\" or (.stopped | index(\"_reused:$reused\") | not))" next/events.jsonl
check_eq "the killed run is marked failed" failed "$(jq -r .status killed/run.json)"
check "the killed run is no longer registered" test ! -e "state/$ctl"

# A run in progress (its controller alive) is left alone by clean-stale.
rm -f k.ready k.ready.child
"$RUN" supervise --plan killed.json --out live >/dev/null 2>&1 &
ctl=$!
_test_pids+=("$ctl")
wait_until 20 ready
"$RUN" clean-stale >stale.txt 2>err.txt
check_eq "clean-stale: exit 0" 0 $?
check "clean-stale: a live run is not stale" test ! -s stale.txt
check "  its process still runs" alive "$(cat k.ready.child)"
kill -TERM "$ctl"
wait "$ctl"
check_eq "SIGTERM: exit 130" 130 $?

# allocspike-run stop and leftovers, for processes a scenario started (not the controller's children).
setsid sh -c "trap '' TERM; sleep 300 & echo \$! >stub.child; while :; do sleep 0.1; done" </dev/null >/dev/null 2>&1 &
stub=$!
setsid sleep 300 </dev/null >/dev/null 2>&1 &
other=$!
_test_pids+=("$stub" "$other")
wait_until 5 test -s stub.child
stub_child=$(cat stub.child)
_test_pids+=("$stub_child")
"$RUN" stop "stub:$stub:x" >/dev/null 2>err.txt
check_eq "stop: a target that is none: exit 2" 2 $?
check "stop: says the form" grep -q "'stub:$stub:x' is not NAME:PID:START_TICKS" err.txt
"$RUN" stop --grace 0.2s "other:$other:$(($(start_ticks "$other") + 1))" 2>err.txt
check_eq "stop: exit 0" 0 $?
check "stop: a PID recorded with another start time is not signalled" alive "$other"
check "stop: says so" grep -q "other: pid $other is no longer the process the run started; not signalled" err.txt
check_eq "leftovers: a live process" "stub:$stub" "$("$RUN" leftovers "stub:$stub:$(start_ticks "$stub")")"
# --run: what processes.tsv records (a run whose controller is gone), the owners' rows left out.
mkdir -p lrun
printf 'name\tpid\tstart_ticks\n_scenario\t%s\t%s\nstub\t%s\t%s\nother\t%s\t%s\n' "$$" "$(start_ticks $$)" \
	"$stub" "$(start_ticks "$stub")" "$other" "$(($(start_ticks "$other") + 1))" >lrun/processes.tsv
check_eq "leftovers --run: the rows of processes.tsv, the owner's and a reused PID's left out" \
	"stub:$stub" "$("$RUN" leftovers --run lrun)"
"$RUN" leftovers --run nowhere 2>err.txt
check_eq "leftovers --run: no processes.tsv: exit 1" 1 $?
check "leftovers --run: says so" grep -q "nowhere/processes.tsv cannot be read" err.txt
"$RUN" stop --grace 60s "stub:$stub:$(start_ticks "$stub")" 2>err.txt &
stopper=$!
_test_pids+=("$stopper")
sleep 0.5
kill -TERM "$stopper"
wait_until 10 gone "$stopper"
check "stop: a signal during the grace ends the wait (the stop goes on)" gone "$stopper"
wait "$stopper"
check_eq "stop: exit 0 after the signal" 0 $?
wait "$stub" 2>/dev/null
check "stop: the process that ignored SIGTERM is gone" gone "$stub"
check "stop: what it forked too" gone "$stub_child"
check_eq "leftovers: nothing of it" "" "$("$RUN" leftovers "stub:$stub:1")"

# launch: a scenario's process in its own group, pinned, killed when its parent dies.
bash -c 'echo $$ >launcher.pid; "$0" launch --parent $$ --cpus 0 -- sh -c "echo \$\$ >launched.pid; echo parent=\$ALLOCSPIKE_PARENT_PID; grep Cpus_allowed_list /proc/self/status; exec sleep 300" >launch.out 2>&1 & wait' "$RUN" &
_test_pids+=($!)
wait_until 5 test -s launched.pid
launched=$(cat launched.pid)
_test_pids+=("$launched")
check_eq "launch: execs in place, in its own process group" "$launched" "$(awk '{ sub(/.*\) /, ""); print $3 }' "/proc/$launched/stat")"
check "launch: ALLOCSPIKE_PARENT_PID is its parent" grep -q "^parent=$(cat launcher.pid)$" launch.out
check "launch: pinned" grep -q 'Cpus_allowed_list:[[:space:]]*0$' launch.out
kill -KILL "$(cat launcher.pid)"
wait_until 5 gone "$launched"
check "launch: killed when its parent is" gone "$launched"
"$RUN" launch --parent 999999 -- true 2>err.txt
check_eq "launch: a parent that is not ours: exit 125" 125 $?
"$RUN" launch --parent $$ --cpus x -- true 2>err.txt
check_eq "launch: a CPU list that is none: exit 2" 2 $?

# register and unregister: a scenario's run (its script the owner).
mkdir reg
"$RUN" register --owner $$ reg
check_eq "register: exit 0" 0 $?
check_eq "register: processes.tsv with the script's row and start time" \
	"$(printf 'name\tpid\tstart_ticks\n_scenario\t%s\t%s' $$ "$(start_ticks $$)")" "$(cat reg/processes.tsv)"
check_eq "register: the run registered" "$TEST_TMP/reg" "$(cat "state/$$")"
"$RUN" register --owner $$ reg 2>err.txt
check_eq "register: a folder with a processes.tsv is refused" 1 $?
"$RUN" register reg 2>err.txt
check_eq "register: no --owner: exit 2" 2 $?
"$RUN" unregister --owner $$
check "unregister: the entry is gone" test ! -e "state/$$"

# The state folder: ours alone.
check_eq "state-dir: \$ALLOCSPIKE_STATE_DIR" "$ALLOCSPIKE_STATE_DIR" "$("$RUN" state-dir)"
t=$TEST_TMP/t
mkdir -p -m 0777 "$t/allocspike-$(id -u)"
chmod 0777 "$t/allocspike-$(id -u)"
(unset ALLOCSPIKE_STATE_DIR XDG_RUNTIME_DIR && TMPDIR=$t "$RUN" state-dir) >/dev/null 2>err.txt
check_eq "state-dir: refused when others can write in its allocspike-UID folder" 1 $?
t=$TEST_TMP/t2
mkdir -p "$t"
check_eq "state-dir: made new under TMPDIR" "$t/allocspike-$(id -u)/runs" \
	"$(unset ALLOCSPIKE_STATE_DIR XDG_RUNTIME_DIR && TMPDIR=$t "$RUN" state-dir)"
finish
