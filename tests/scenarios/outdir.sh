#!/bin/bash
# tests/scenarios/outdir.sh - --out is a new folder or an empty one of the user's (docs/cli.md,
# "--out"): a folder prepared in advance (links named like the files a run writes), a link, a folder
# of another user, a path with a control character are refused with status 2 before anything is
# written, by spike.sh, its --repeat, tune.sh and scale.sh; an empty folder still works; the files a
# run creates in its folder are created new (a link there is never followed). No program runs: the
# programs folder holds only the controller (it reads variants.tsv), so an accepted run fails at once
# (no variant can run).
set -uo pipefail
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
source "$ALLOCSPIKE_SOURCE_DIR/tests/scenarios/scenario_lib.sh"
S=$ALLOCSPIKE_SOURCE_DIR/scenarios
[[ -x $ALLOCSPIKE_BIN/allocspike-run ]] || skip "allocspike-run is not built (it reads variants.tsv)"
mkdir -p "$TEST_TMP/no-programs"
ln -s "$ALLOCSPIKE_BIN/allocspike-run" "$TEST_TMP/no-programs/"
export ALLOCSPIKE_BIN=$TEST_TMP/no-programs
outside=$TEST_TMP/outside
mkdir -p "$outside/logs"
echo precious >"$outside/file"

# A folder prepared with links named like the files a run writes, pointing out of it (each to a file
# of its own: events.jsonl and its pending file on one file made the run of old loop for ever).
prepared=$TEST_TMP/prepared
mkdir -p "$prepared"
for f in run.json.tmp events.jsonl events.jsonl.pending processes.tsv; do
	echo precious >"$outside/$f"
	ln -s "$outside/$f" "$prepared/$f"
done
ln -s "$outside/logs" "$prepared/logs"
ln -s "$outside/new-file" "$prepared/run.json"
# untouched : every file outside as it was, nothing created there.
untouched() {
	local f
	for f in file run.json.tmp events.jsonl events.jsonl.pending processes.tsv; do
		[[ $(cat "$outside/$f") == precious ]] || return 1
	done
	[[ ! -e $outside/new-file && -z $(ls -A "$outside/logs") ]]
}
# spike.sh OPTIONS... : status and stderr (in $TEST_TMP/err) of spike.sh given OPTIONS.
spike() { bash "$S/spike.sh" --no-build --variants glibc "$@" >/dev/null 2>"$TEST_TMP/err"; }

spike --out "$prepared"
check_eq "a prepared folder: status 2" 2 $?
check "the message says it is not empty" grep -q "prepared exists and is not empty" "$TEST_TMP/err"
check "nothing written or created through its links" untouched
spike --repeat 2 --out "$prepared"
check_eq "--repeat into it: status 2" 2 $?
check "tune.sh refuses it (2)" bash -c '"$@" >/dev/null 2>&1; (($? == 2))' _ bash "$S/tune.sh" --variants glibc --out "$prepared"
check "scale.sh refuses it (2)" bash -c '"$@" >/dev/null 2>&1; (($? == 2))' _ bash "$S/scale.sh" --out "$prepared"
check "still nothing written or created through its links" untouched

# A link to an empty folder, with and without a trailing slash.
mkdir -p "$TEST_TMP/empty-target"
ln -s "$TEST_TMP/empty-target" "$TEST_TMP/link"
spike --out "$TEST_TMP/link"
check_eq "a link: status 2" 2 $?
check "the message says it is a link" grep -q "is a symbolic link" "$TEST_TMP/err"
spike --out "$TEST_TMP/link/"
check_eq "a link written with a trailing slash: status 2" 2 $?
check "nothing written in its target" test -z "$(ls -A "$TEST_TMP/empty-target")"

# A control character in the path: refused, nothing created.
spike --out "$TEST_TMP/a"$'\n'"b"
check_eq "a newline in --out: status 2" 2 $?
check "the message says why" grep -q "control character" "$TEST_TMP/err"
check "nothing created" test ! -e "$TEST_TMP/a"$'\n'"b"
spike --out "$TEST_TMP/tab"$'\t'
check_eq "a tab in --out: status 2" 2 $?
check "tune.sh refuses a newline (2)" bash -c '"$@" >/dev/null 2>&1; (($? == 2))' _ bash "$S/tune.sh" --variants glibc --out "$TEST_TMP/t"$'\n'
check "scale.sh refuses a newline (2)" bash -c '"$@" >/dev/null 2>&1; (($? == 2))' _ bash "$S/scale.sh" --out "$TEST_TMP/s"$'\n'

# A folder of another user (only root can make one to test with).
if (($(id -u) == 0)); then
	mkdir -p "$TEST_TMP/theirs"
	chown nobody "$TEST_TMP/theirs"
	spike --out "$TEST_TMP/theirs"
	check_eq "a folder of another user: status 2" 2 $?
	check "the message says whose it is not" grep -q "is not owned by you" "$TEST_TMP/err"
else
	echo "note: not root, a folder of another user not checked"
fi

# What works today still works: an empty folder of ours, and a new one.
mkdir -p "$TEST_TMP/empty"
spike --out "$TEST_TMP/empty"
check_eq "an empty folder is taken (the run fails: no program)" 1 $?
check_eq "its run.json" failed "$(jq -r .status "$TEST_TMP/empty/run.json" 2>/dev/null)"
spike --out "$TEST_TMP/new/deeper"
check_eq "a new folder is made (the run fails: no program)" 1 $?
check "its run.json" test -f "$TEST_TMP/new/deeper/run.json"
spike --out "$TEST_TMP/new/deeper"
check_eq "a folder that holds a run: status 2" 2 $?

# Inside the folder, files are created new: a link planted where one goes fails the creation (the
# run's controller makes them: here its events file).
SC_PROG=outdir
source "$S/lib/experiment.sh"
served_begin outdir "$TEST_TMP/controller"
ln -s "$outside/file" "$TEST_TMP/planted"
check "a new file refuses a link" bash -c '! "$@" >/dev/null 2>&1' _ "$ALLOCSPIKE_BIN/allocspike-run" ask "$SC_PROCS_SOCKET" events "$TEST_TMP/planted"
ln -s "$outside/nothing-yet" "$TEST_TMP/dangling"
check "a new file refuses a dangling link" bash -c '! "$@" >/dev/null 2>&1' _ "$ALLOCSPIKE_BIN/allocspike-run" ask "$SC_PROCS_SOCKET" events "$TEST_TMP/dangling"
check "and creates nothing through it" test ! -e "$outside/nothing-yet"
check "a new file is created" procs_ask events "$TEST_TMP/fresh"
check "there" test -f "$TEST_TMP/fresh" -a ! -L "$TEST_TMP/fresh"
check_eq "the target is untouched" precious "$(cat "$outside/file")"
served_end
finish
