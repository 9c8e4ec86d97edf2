#!/bin/bash
# tests/controller/hierarchy.sh - the simulated hierarchy made and started by the controller, and a
# scenario's --repeat (docs/controller.md, "The hierarchy", "The repeats"). hierarchy-argv: each
# world's latency and loss words (the flat world's latency 0 is --no-latency, a given --loss 0 in
# the internet world --no-loss), the applied log on request, the parameters run.json records,
# refused option values; the served `hierarchy` request with a stand-in upstream: its answer,
# parameters.hierarchy, the `ready` event, and the errors of one that exits first or writes no root
# hints; `repeat`: the first run's calibrated rate and query count passed on, a first run that
# records no spike rate or fails stops the repeats with the message, SIGTERM passed on (130).
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
RUN="$ALLOCSPIKE_BIN/allocspike-run"
cd "$TEST_TMP" || exit 1
export ALLOCSPIKE_STATE_DIR=$TEST_TMP/state

# options ARGS... : run.json's parameters.options of spike.sh with ARGS (the option parser's json line).
options() { "$RUN" options --scenario spike -- "$@" | sed -n 's/^json\t//p'; }
# words OPTIONS GIVEN : the hierarchy's command, its words joined by |.
words() {
	"$RUN" hierarchy-argv --options "$1" --given "$2" --upstream UP --dir RUN --ctl /CTL | paste -sd'|'
}
# world_words OPTIONS GIVEN : the words from --world on.
world_words() { words "$@" | sed 's/.*|--world|/--world|/'; }

# --- hierarchy-argv ---
check_eq "the command" "UP|--hierarchy-block|127.53.0.0/16|--port|0|--seed|1|--root-hints|RUN/root.hints|--control|/CTL/upstream.sock|--applied-summary|RUN/upstream-applied-summary.tsv|--stats-file|RUN/upstream-stats.json|--ready-file|/CTL/upstream.ready|--world|internet" \
	"$(words "$(options)" "")"
check_eq "internet: the world's own latency and loss" "--world|internet" "$(world_words "$(options)" "")"
check_eq "internet with --loss 0 given: --no-loss" "--world|internet|--no-loss" \
	"$(world_words "$(options --loss 0)" loss)"
check_eq "internet with --latency-ms given" "--world|internet|--latency-ms|30,300" \
	"$(world_words "$(options --latency-ms 30)" latency_ms)"
check_eq "lan: its latency and loss" "--world|lan|--latency-ms|20,200|--loss|0.03" \
	"$(world_words "$(options --world lan)" world)"
check_eq "flat with latency 0: --no-latency, its TLDs and no loss" "--world|flat|--flat-tlds|20|--no-latency|--no-loss" \
	"$(world_words "$(options --world flat --latency-ms 0)" world,latency_ms)"
check "the applied log on request" grep -q -- '--applied-log|RUN/upstream-applied.log|' <<<"$(words "$(options --applied-log)" applied_log)"
check_eq "the parameters: null where the world sets them" \
	'{"seed":1,"latency_ms_median":null,"latency_ms_p99":null,"loss":null,"block":"127.53.0.0/16","world":"internet"}' \
	"$("$RUN" hierarchy-argv --options "$(options)" --parameters)"
check_eq "the parameters of lan" \
	'{"seed":7,"latency_ms_median":20,"latency_ms_p99":200,"loss":0.03,"block":"127.53.0.0/16","world":"lan"}' \
	"$("$RUN" hierarchy-argv --options "$(options --world lan --seed 7)" --given world,seed --parameters | jq -c .)"
bad=$(options | jq -c '.loss = "2"')
"$RUN" hierarchy-argv --options "$bad" --parameters 2>err.txt
check_eq "a loss over 1: exit 2" 2 $?
check "says which value" grep -q -- "--loss: '2'" err.txt
"$RUN" hierarchy-argv --options "$(options | jq -c '.world = "moon"')" --parameters 2>err.txt
check "an unknown world: said" grep -q -- "--world: 'moon' is not lan, internet, hostile or flat" err.txt
"$RUN" hierarchy-argv --options "$(options | jq -c 'del(.seed)')" --parameters 2>err.txt
check "a missing option: said" grep -q "the run's options have no 'seed'" err.txt
"$RUN" hierarchy-argv --parameters 2>err.txt
check_eq "without --options: exit 2" 2 $?

# --- the served request ---
# A stand-in upstream: its root hints and ready line, as allocspike-upstream writes them; named
# up-exit.sh it exits first, up-nohints.sh writes no hints.
cat >up.sh <<'UP'
#!/bin/bash
echo "$*" >"$0.args"
while (($#)); do
	case $1 in --root-hints) hints=$2 ;; --ready-file) ready=$2 ;; esac
	shift
done
[[ $0 != *-exit.sh ]] || exit 3
[[ $0 == *-nohints.sh ]] || echo ". 3600 IN NS a.root." >"$hints"
echo "ready 127.0.0.1:5399" >"$ready"
exec sleep 60
UP
chmod +x up.sh
ln -s up.sh up-exit.sh
ln -s up.sh up-nohints.sh
sock=$TEST_TMP/ctl/run.sock
ask() { "$RUN" ask "$sock" "$@"; }
serve_begin "$sock" spike "$TEST_TMP/run"
ask hierarchy "$TEST_TMP/up.sh" "" 0 2>err.txt
check_eq "before the options are recorded: exit 1" 1 $?
check "says so" grep -q "error: hierarchy: no options (run.json's parameters.options)" err.txt
ask runjson-set .parameters '{"options": '"$(options --world flat --latency-ms 0)"'}' >/dev/null
out=$(ask hierarchy "$TEST_TMP/up.sh" "" 0 given=world,latency_ms)
pid=$(awk '$1 == "_upstream" { print $2 }' run/processes.tsv)
check_eq "the answer: port, _upstream's pid, root hints" "ok 5399 $pid $TEST_TMP/run/root.hints" "$out"
check "parameters.hierarchy recorded" jq_true \
	'.parameters.hierarchy == {"seed": 1, "latency_ms_median": 0, "latency_ms_p99": 0, "loss": 0, "block": "127.53.0.0/16", "world": "flat", "port": 5399}' run/run.json
check "started with --no-latency" grep -q -- '--world flat --flat-tlds 20 --no-latency --no-loss$' up.sh.args
ask origin >/dev/null
check "the ready event" jq_true -s --argjson pid "$pid" \
	'map(select(.variant == "_upstream" and .event == "ready"))[0] | .addr == "127.0.0.1:5399" and .pid == $pid' run/events.jsonl
ask hierarchy "$TEST_TMP/up.sh" "" 0 2>err.txt
check_eq "a second start while it runs: exit 1" 1 $?
ask stop 1s _upstream >/dev/null
ask hierarchy "$TEST_TMP/up-exit.sh" "" 0 2>err.txt
check_eq "one that exits first: exit 1" 1 $?
check "said with its exit and log" \
	grep -q "error: hierarchy: it exited before it was ready (_upstream [0-9]* code=3 requested=false; see $TEST_TMP/run/logs/upstream.log)" err.txt
rm -f run/root.hints
ask hierarchy "$TEST_TMP/up-nohints.sh" "" 0 2>err.txt
check "one that writes no root hints: said" grep -q "error: hierarchy: it wrote no root hints to $TEST_TMP/run/root.hints" err.txt
ask stop 1s _upstream >/dev/null
ask hierarchy "$TEST_TMP/up.sh" "" 0 given=x y 2>err.txt
check "a request with a word too many: its form said" grep -q "hierarchy UPSTREAM CPUS PORT \[given=NAME,...\] is expected" err.txt
ask shutdown >/dev/null

# --- repeat ---
# A stand-in scenario: writes run.json into its --out with the spike rate it was given (a new one,
# 2000 + 1000 per call, when "calibrating" with none), its query count, the repeat object; exit
# status STATUS of the file status (0 when missing).
cat >scenario.sh <<'SC'
#!/bin/bash
echo "$*" >>"$CALLS"
rate= count=77 out=
while (($#)); do
	case $1 in --out) out=$2 ;; --spike-rate) rate=$2 ;; --query-count) count=$2 ;; esac
	shift
done
mkdir -p "$out"
if [[ -z $rate && -z ${NORATE:-} ]]; then
	n=$(cat "$CALLS.calibrated" 2>/dev/null || echo 0)
	echo $((n + 1)) >"$CALLS.calibrated"
	rate=$((2000 + 1000 * n))
fi
jq -n --argjson rate "${rate:-null}" --argjson count "$count" --argjson repeat "$ALLOCSPIKE_REPEAT" \
	'{parameters: {spike_rate_qps: $rate, repeat: $repeat}, queryfile: {generated: {count: $count}}}' >"$out/run.json"
if [[ -n ${SLEEP:-} ]]; then
	trap 'kill $!; exit 143' TERM
	sleep "$SLEEP" &
	wait $!
fi
exit "${STATUS:-0}"
SC
cat >report.sh <<'REP'
#!/bin/bash
echo "$*" >"$CALLS.compare"
echo "the page"
REP
chmod +x scenario.sh report.sh
export CALLS=$TEST_TMP/calls
page=$("$RUN" repeat --runs 3 --out "$TEST_TMP/x3" --scenario spike --report "$TEST_TMP/report.sh" \
	--calibrated --same-queries -- "$TEST_TMP/scenario.sh" --quick 2>err.txt)
check_eq "repeat 3: exit 0" 0 $?
check_eq "prints the comparison's page" "$TEST_TMP/x3/compare.html" "$page"
check_eq "one calibration" 1 "$(cat "$CALLS.calibrated")"
check_eq "the runs' command lines" \
	"--quick --repeat 1 --out $TEST_TMP/x3/run-1|--quick --repeat 1 --out $TEST_TMP/x3/run-2 --no-build --spike-rate 2000 --query-count 77|--quick --repeat 1 --out $TEST_TMP/x3/run-3 --no-build --spike-rate 2000 --query-count 77" \
	"$(paste -sd'|' "$CALLS")"
check_eq "each run's repeat object" \
	'{"run":1,"of":3,"spike_rate_from":null} {"run":2,"of":3,"spike_rate_from":"run-1"} {"run":3,"of":3,"spike_rate_from":"run-1"}' \
	"$(for i in 1 2 3; do jq -c .parameters.repeat "x3/run-$i/run.json"; done | paste -sd' ')"
check_eq "the comparison of the three" "compare $TEST_TMP/x3/run-1 $TEST_TMP/x3/run-2 $TEST_TMP/x3/run-3 -o $TEST_TMP/x3/compare.html" \
	"$(cat "$CALLS.compare")"
check "the messages" grep -q "^spike: repeats 2 to 3 spike at repeat 1's calibrated 2000 qps$" err.txt
rm -f "$CALLS"*
"$RUN" repeat --runs 12 --out "$TEST_TMP/x12" --scenario spike --report "$TEST_TMP/report.sh" \
	-- "$TEST_TMP/scenario.sh" >/dev/null 2>err.txt
check_eq "more runs than words: exit 0" 0 $?
check_eq "the comparison of the twelve" "compare $(printf "$TEST_TMP/x12/run-%d " {1..12})-o $TEST_TMP/x12/compare.html" \
	"$(cat "$CALLS.compare")"
"$RUN" repeat --runs 1 --out "$TEST_TMP/noreport" --scenario spike --report "$TEST_TMP/none" \
	-- "$TEST_TMP/scenario.sh" >/dev/null 2>err.txt
check_eq "no report program: exit 1" 1 $?
check "says so" grep -q "^spike: error: allocspike-report is missing: no comparison of the repeats$" err.txt
rm -f "$CALLS"*
NORATE=1 "$RUN" repeat --runs 3 --out "$TEST_TMP/norate" --scenario spike --report "$TEST_TMP/report.sh" \
	--calibrated -- "$TEST_TMP/scenario.sh" >/dev/null 2>err.txt
check_eq "a first run that records no spike rate: exit 1" 1 $?
check "stops the repeats with the message" \
	grep -q "^spike: error: repeat 1 recorded no spike rate ($TEST_TMP/norate/run-1/run.json); stopping the repeats$" err.txt
check_eq "after one run" 1 "$(wc -l <"$CALLS")"
rm -f "$CALLS"*
STATUS=3 "$RUN" repeat --runs 2 --out "$TEST_TMP/fails" --scenario spike --report "$TEST_TMP/report.sh" \
	-- "$TEST_TMP/scenario.sh" >/dev/null 2>err.txt
check_eq "a run that fails: exit 1" 1 $?
check "says which and its status" grep -q "^spike: error: repeat 1 ended with status 3; stopping the repeats$" err.txt
check "no comparison" test ! -e "$CALLS.compare"
"$RUN" repeat --runs 2 --out "$TEST_TMP/x3" --scenario spike -- "$TEST_TMP/scenario.sh" 2>err.txt
check_eq "a folder not empty: exit 1" 1 $?
check "says why" grep -q "^spike: error: the folder of the repeats: .*x3 exists and is not empty" err.txt
"$RUN" repeat --runs 0 --out "$TEST_TMP/zero" -- "$TEST_TMP/scenario.sh" 2>err.txt
check_eq "--runs 0: exit 2" 2 $?
rm -f "$CALLS"*
SLEEP=30 "$RUN" repeat --runs 2 --out "$TEST_TMP/term" --scenario spike -- "$TEST_TMP/scenario.sh" 2>err.txt &
repeat=$!
for ((i = 0; i < 100; i++)); do [[ -e term/run-1/run.json ]] && break; sleep 0.05; done
kill -TERM "$repeat"
wait "$repeat"
check_eq "SIGTERM: passed on, exit 130" 130 $?
check "its run did not go on" test ! -e "$TEST_TMP/term/run-2"
finish
