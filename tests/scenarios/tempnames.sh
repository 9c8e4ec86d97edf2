#!/bin/bash
# tests/scenarios/tempnames.sh - no predictable temporary names in the shell of scenarios/ and
# scripts/: no FILE.tmp or $$ names in the source; run.json is replaced through a mktemp file beside
# it (a link planted at the old run.json.tmp is never written through), with the mode a new file
# gets; the fixed-name state folder under /tmp is refused when another user could write in it.
set -uo pipefail
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
SC_PROG=tempnames
source "$ALLOCSPIKE_SOURCE_DIR/scenarios/lib/experiment.sh"

# The source: a temporary name is made by mktemp, never from .tmp or the shell's pid.
hits=$(cd "$ALLOCSPIKE_SOURCE_DIR" && grep -rnE --include='*.sh' '\.tmp\b|(^|[^\\])\$\$([^{]|$)' scenarios scripts |
	grep -vE '^[^:]+:[0-9]+:[[:space:]]*#')
check_eq "no .tmp or \$\$ names in scenarios/ and scripts/" "" "$hits"

# run.json: a link where the old temporary name was is left alone, run.json stays a file of its own.
run=$TEST_TMP/run
mkdir -p "$run"
echo precious >"$TEST_TMP/outside"
ln -s "$TEST_TMP/outside" "$run/run.json.tmp"
served_begin tempnames "$TEST_TMP/controller" # it writes run.json
procs_ask runjson "$run/run.json" tempnames
runjson_set .machine '{"cores": 2}'
check_eq "the link's target is untouched" precious "$(cat "$TEST_TMP/outside")"
check "run.json is a file, not the link" test -f "$run/run.json" -a ! -L "$run/run.json"
check_eq "run.json has the update" 2 "$(jq .machine.cores "$run/run.json")"
check_eq "no temporary file left" "run.json run.json.tmp" "$(ls -A "$run" | paste -sd' ')"
check_eq "run.json's mode is a new file's under the umask" "$(printf '%o' $((0666 & ~8#$(umask))))" \
	"$(stat -c %a "$run/run.json")"
check "a failed update leaves run.json as it was" bash -c '! (source "$1"; files_replace "$2" false)' _ \
	"$ALLOCSPIKE_SOURCE_DIR/scenarios/lib/files.sh" "$run/run.json"
check_eq "and no temporary file" "run.json run.json.tmp" "$(ls -A "$run" | paste -sd' ')"

# The state folder of running scenarios: a fixed name under /tmp, so it must be ours alone.
state_dir() { (unset ALLOCSPIKE_STATE_DIR XDG_RUNTIME_DIR && TMPDIR=$1 "$ALLOCSPIKE_BIN/allocspike-run" state-dir 2>/dev/null); }
t=$TEST_TMP/t1
mkdir -p "$t"
check_eq "made new: used" "$t/allocspike-$(id -u)/runs" "$(state_dir "$t")"
t=$TEST_TMP/t2
mkdir -p -m 0777 "$t/allocspike-$(id -u)"
chmod 0777 "$t/allocspike-$(id -u)"
check "refused when others can write in its allocspike-UID folder" test -z "$(state_dir "$t")"
t=$TEST_TMP/t3
mkdir -p "$t" "$TEST_TMP/elsewhere"
ln -s "$TEST_TMP/elsewhere" "$t/allocspike-$(id -u)"
check "refused when its allocspike-UID folder is a link" test -z "$(state_dir "$t")"
served_end
finish
