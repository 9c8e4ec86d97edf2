#!/bin/bash
# tests/controller/runfolder.sh - a served run's folder (docs/controller.md, "The run folder"):
# `outdir` (a new folder made with its parents; an empty one of ours taken; a link, a file, a
# folder not empty, a control character refused with why), `begin` (what a killed run left
# cleaned and told as stale_run, the folder, logs/, run.json running, processes.tsv with the
# owner and the controller, the run registered; refused when the folder is not new or empty, or
# begun twice), run.json changed at a path (keys, an index, a row selector, KEY=TEXT / KEY:=JSON
# fields; malformed paths, a row that is not there and bad JSON refused, the file unchanged), and
# `finish` (its status: a completed run with a process left is failed; interrupted and failed
# events; the header-only timeline.csv; run.json finished; unregistered).
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
RUN="$ALLOCSPIKE_BIN/allocspike-run"
cd "$TEST_TMP" || exit 1
export ALLOCSPIKE_STATE_DIR=$TEST_TMP/state

# --- outdir ---
"$RUN" outdir "$TEST_TMP/new/deeper" >out.txt
check_eq "outdir: a new folder is made, with its parents" 0 $?
check "there" test -d "$TEST_TMP/new/deeper"
"$RUN" outdir "$TEST_TMP/new/deeper/" >out.txt
check_eq "outdir: an empty folder of ours is taken" 0 $?
mkdir -p target && ln -s "$TEST_TMP/target" link
"$RUN" outdir "$TEST_TMP/link/" >out.txt
check_eq "outdir: a link (given with a trailing slash) is refused" 1 $?
check_eq "it says why" "$TEST_TMP/link is a symbolic link; give the folder itself" "$(cat out.txt)"
touch new/deeper/x
"$RUN" outdir --check "$TEST_TMP/new/deeper" >out.txt
check_eq "outdir --check: a folder not empty is refused" 1 $?
check "it says why" grep -q "deeper exists and is not empty; a run writes only into a new or empty folder" out.txt
"$RUN" outdir "$TEST_TMP/new/deeper/x" >out.txt
check "a file is not a folder" grep -q "deeper/x exists and is not a folder" out.txt
"$RUN" outdir "$TEST_TMP/a"$'\n'"b" >out.txt
check "a control character is refused" grep -q 'holds a control character' out.txt
check "and named as bash quotes it" grep -qF "/a\\nb'" out.txt
check "nothing made" test ! -e "$TEST_TMP/a"$'\n'"b"
if (($(id -u) == 0)); then
	mkdir theirs && chown nobody theirs
	"$RUN" outdir "$TEST_TMP/theirs" >out.txt
	check "a folder of another user is refused" grep -q "theirs is not owned by you (uid 0)" out.txt
fi
"$RUN" outdir >/dev/null 2>&1
check_eq "outdir without a folder: exit 2" 2 $?

# --- begin ---
sock=$TEST_TMP/ctl.sock
ask() { "$RUN" ask "$sock" "$@"; }
"$RUN" supervise --serve "$sock" --begin --out x >/dev/null 2>&1
check_eq "--begin with --out: exit 2" 2 $?
# A killed run: its owner gone, its run.json running.
killed=$(bash -c 'echo $$')
mkdir -p "$ALLOCSPIKE_STATE_DIR" old
printf '%s\n' "$TEST_TMP/old" >"$ALLOCSPIKE_STATE_DIR/$killed"
printf 'name\tpid\tstart_ticks\n_scenario\t%s\t1\n' "$killed" >old/processes.tsv
echo '{"format": 1, "status": "running"}' >old/run.json
me=$BASHPID
"$RUN" launch --parent "$me" -- "$RUN" supervise --serve "$sock" --begin 2>controller.err &
controller=$!
_test_pids+=("$controller")
ask begin "$me" spike "$TEST_TMP/new/deeper" >out.txt 2>err.txt
check_eq "begin in a folder not empty: exit 1" 1 $?
check "says why" grep -q "error: begin: the run folder: .*deeper exists and is not empty" err.txt
ask begin 1 spike "$TEST_TMP/r1" >/dev/null 2>err.txt
check "begin with an owner that is not a process: refused" grep -q "OWNER_PID" err.txt
check_eq "begin: its answer is the folder's real path" "ok $TEST_TMP/run" "$(ask begin "$me" spike "$TEST_TMP/sub/../run")"
check "logs/ made" test -d run/logs
check_eq "run.json running, its scenario" "running spike" "$(jq -r '"\(.status) \(.scenario)"' run/run.json)"
check_eq "processes.tsv: the owner, then the controller" "_scenario $me _controller $controller" \
	"$(awk -F'\t' 'NR > 1 { printf "%s%s %s", (NR > 2 ? " " : ""), $1, $2 }' run/processes.tsv)"
check_eq "registered, with its folder" "$TEST_TMP/run" "$(cat "$ALLOCSPIKE_STATE_DIR/$me" 2>/dev/null)"
check_eq "the killed run is marked failed" failed "$(jq -r .status old/run.json)"
check "and no longer registered" test ! -e "$ALLOCSPIKE_STATE_DIR/$killed"
ask begin "$me" spike "$TEST_TMP/run2" >/dev/null 2>err.txt
check "a second begin is refused" grep -q "has its run folder already" err.txt

# --- run.json at a path ---
ask runjson-set .variants '[{"name": "glibc"}, {"name": "jemalloc"}]' >/dev/null
ask runjson-set .parameters.hierarchy.port 5353 >/dev/null
check_eq "a missing object on the way is made" 5353 "$(jq .parameters.hierarchy.port run/run.json)"
ask runjson-set '.variants[name=jemalloc].version' '{"v": 2}' >/dev/null
check_eq "a row selector" '{"v":2}' "$(jq -c '.variants[1].version' run/run.json)"
ask runjson-set '.variants[0].version' null >/dev/null
ask runjson-fields '.variants[name=glibc]' 'command=a "b" c' 'slots:=[1,2]' >/dev/null
check_eq "fields: TEXT as a string, JSON as a value, the row's other keys kept" \
	'{"name":"glibc","version":null,"command":"a \"b\" c","slots":[1,2]}' "$(jq -c '.variants[0]' run/run.json)"
ask runjson-fields .queryfile path=q.txt 'generated:={"count": 3}' >/dev/null
check_eq "fields on null: an object made" '{"path":"q.txt","generated":{"count":3}}' "$(jq -c .queryfile run/run.json)"
before=$(cat run/run.json)
for bad in 'machine' '.a.' '.a..b' '.a[' '.a[]' '.a b' '.variants[name=none].x' '.variants[7]' '.status.x' ''; do
	ask runjson-set "$bad" 1 >/dev/null 2>err.txt
	check_eq "a malformed or missing path is refused: '$bad'" 1 $?
	check "with a reason" grep -q "error: runjson-set: PATH" err.txt
done
ask runjson-set .x 'not json' >/dev/null 2>err.txt
check "JSON that does not parse is refused" grep -q "error: runjson-set: JSON" err.txt
ask runjson-fields .x 'novalue' >/dev/null 2>err.txt
check "a field that is not KEY=TEXT or KEY:=JSON is refused" grep -q "not KEY=TEXT or KEY:=JSON" err.txt
check_eq "run.json unchanged by the refusals" "$before" "$(cat run/run.json)"
ask runjson-finish ended >/dev/null 2>err.txt
check "runjson-finish: an unknown status is refused" grep -q "STATUS" err.txt

# --- finish ---
ask finish finished >/dev/null 2>err.txt
check "finish: an unknown status is refused" grep -q "error: finish: STATUS" err.txt
ask finish completed colour=blue >/dev/null 2>err.txt
check "finish: an unknown word is refused" grep -q "none of reason=TEXT" err.txt
ask event _scenario before >/dev/null
read -r _ sleeper _ < <(ask start sleeper "$TEST_TMP/run/logs/sleeper.log" "" -- sleep 100)
check_eq "finish: a completed run, its process stopped: completed" "ok completed" "$(ask finish completed)"
check "the process is gone" bash -c '! kill -0 "$1" 2>/dev/null' _ "$sleeper"
check "its exit recorded, as asked" jq_true -s 'any(.[]; .event == "exited" and .variant == "sleeper")' run/events.jsonl
check "its run.json: completed, ended" jq_true '.status == "completed" and .ended != null and (has("failure") | not)' run/run.json
check "the pending events written" jq_true -s 'any(.[]; .event == "before")' run/events.jsonl
check "the header-only timeline.csv" test "$(wc -l <run/timeline.csv)" -eq 1
check_eq "its header is the generator's" "$(head -n 1 "$ALLOCSPIKE_SOURCE_DIR/tests/fixtures/run-minimal/timeline.csv")" "$(cat run/timeline.csv)"
check "unregistered" test ! -e "$ALLOCSPIKE_STATE_DIR/$me"
ask shutdown >/dev/null
wait "$controller"
check_eq "the controller ends when asked" 0 $?

# Interrupted and failed runs: their events, their status; timeline=no: no timeline.csv.
finished() { # STATUS WORDS... : a new run begun and finished; its answer in answer.txt (not run
	# in $(...): the controller's parent must be this shell)
	local dir=$TEST_TMP/fin-$2
	"$RUN" launch --parent "$me" -- "$RUN" supervise --serve "$sock" --begin 2>>controller.err &
	controller=$!
	_test_pids+=("$controller")
	ask begin "$me" spike "$dir" >/dev/null
	ask "$@" >answer.txt
	ask shutdown >/dev/null
	wait "$controller"
}
finished finish interrupted signal=SIGINT timeline=no
check_eq "interrupted: its answer" "ok interrupted" "$(cat answer.txt)"
check "its event" jq_true -s 'any(.[]; .event == "interrupted" and .signal == "SIGINT")' fin-interrupted/events.jsonl
check_eq "its run.json" interrupted "$(jq -r .status fin-interrupted/run.json)"
check "timeline=no: no timeline.csv" test ! -e fin-interrupted/timeline.csv
finished finish failed "reason=it broke"
check_eq "failed: its answer" "ok failed" "$(cat answer.txt)"
check "its event" jq_true -s 'any(.[]; .event == "failed" and .reason == "it broke")' fin-failed/events.jsonl
check_eq "its run.json" "failed it broke" "$(jq -r '"\(.status) \(.failure)"' fin-failed/run.json)"
finish
