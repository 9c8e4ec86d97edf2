#!/bin/bash
# tests/scenarios/scale.sh - scenarios/scale.sh: usage, bad options refused with status 2 before
# anything runs, the dry listing, and the sweep's flow with a stand-in spike.sh (the first step
# calibrates, the others get the knee times their multiple, one run folder per step, then the scale
# page). The stand-in keeps it seconds long; allocspike-report must be built for the last part.
set -uo pipefail
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
SCALE=$ALLOCSPIKE_SOURCE_DIR/scenarios/scale.sh

out=$(bash "$SCALE" --help 2>&1)
check_eq "--help status" 0 $?
check "--help lists --steps" grep -q -- '--steps' <<<"$out"
check "--help lists --world" grep -q -- '--world' <<<"$out"

for bad in "--steps 0" "--steps x" "--steps 1,,2" "--knee 0" "--knee x" "--spike-rate 5000" \
	"--spike-multiple 2" "--repeat 2" "--world a;b" "--no-such-flag" "--knee"; do
	# shellcheck disable=SC2086 # the flags are words
	bash "$SCALE" $bad --out "$TEST_TMP/bad" >/dev/null 2>&1
	check_eq "'$bad' status" 2 $?
done
check "no folder for bad options" test ! -e "$TEST_TMP/bad"
# the refusals and checks are the controller's (allocspike-run options), with their reasons
for opt in --spike-rate --spike-multiple --repeat; do
	check "$opt: not taken, said why" grep -qF -- "scale: $opt is not taken: scale.sh sets the spike height" \
		<<<"$(bash "$SCALE" "$opt" 2 2>&1 >/dev/null)"
done
check "--hosts: not taken, said why" grep -qF -- "scale: --hosts is not taken: scale.sh makes one spike.sh run per step and an agent takes one plan" \
	<<<"$(bash "$SCALE" --hosts "$TEST_TMP/any.hosts" --out "$TEST_TMP/bad" 2>&1 >/dev/null)"
bash "$SCALE" --hosts "$TEST_TMP/any.hosts" --out "$TEST_TMP/bad" >/dev/null 2>&1
check_eq "'--hosts' status" 2 $?
check "no folder for --hosts" test ! -e "$TEST_TMP/bad"
check "a bad step named" grep -qF -- "--steps: 'x' is not a number above 0" <<<"$(bash "$SCALE" --steps 1,x 2>&1 >/dev/null)"
check "a bad world in the list named" grep -qF -- "--world: 'nope' is not lan" <<<"$(bash "$SCALE" --world lan,nope 2>&1 >/dev/null)"
check_eq "--list: spike.sh's options passed on in order, --name=value as two words" \
	"x1 --spike-rate 1000 --out $TEST_TMP/s/x1 --spike-len 9s --variants glibc" \
	"$(bash "$SCALE" --steps 1 --spike-len=9s --knee 1000 --variants glibc --list --out "$TEST_TMP/s")"

plan=$(bash "$SCALE" --quick --steps 0.5,1 --list --out "$TEST_TMP/sweep")
check_eq "--list: the runs it would make" \
	"x0.5 --spike-rate auto --spike-multiple 0.5 --out $TEST_TMP/sweep/x0.5 --quick
x1 --spike-rate knee*1 --out $TEST_TMP/sweep/x1 --quick" "$plan"
check "--list makes nothing" test ! -e "$TEST_TMP/sweep"
check_eq "--list: the default steps" "x0.5 x1 x1.5 x2 x3" \
	"$(bash "$SCALE" --list --out "$TEST_TMP/s" | cut -d' ' -f1 | paste -sd' ')"
check_eq "--list with --knee: every height known" \
	"--spike-rate 2000 --spike-rate 6000" \
	"$(bash "$SCALE" --knee 4000 --steps 0.5,1.5 --list --out "$TEST_TMP/s" | cut -d' ' -f2,3 | paste -sd' ')"
plan=$(bash "$SCALE" --world lan,internet --steps 1,2 --list --out "$TEST_TMP/s")
check_eq "--list with worlds: each world calibrates once" \
	"lan-x1 --spike-rate auto --spike-multiple 1 --world lan --out $TEST_TMP/s/lan-x1
lan-x2 --spike-rate knee*2 --world lan --out $TEST_TMP/s/lan-x2
internet-x1 --spike-rate auto --spike-multiple 1 --world internet --out $TEST_TMP/s/internet-x1
internet-x2 --spike-rate knee*2 --world internet --out $TEST_TMP/s/internet-x2" "$plan"

# The plan's length, said before anything starts (on stderr, so --list's runs stay one a line);
# without allocspike-loadgen spike.sh cannot tell how long a run takes.
if [[ -x $ALLOCSPIKE_BIN/allocspike-loadgen ]]; then
	line=$(bash "$SCALE" --list --out "$TEST_TMP/s" 2>&1 >/dev/null)
	check "--list: the runs and how long they take" \
		grep -qE '^scale: 5 spike runs, 1 of them calibrating first \(about [0-9]+ min [0-9]+ s\), .* about [0-9 hmins]+ in all$' <<<"$line"
	total=$(plan_total_s <<<"$line")
	check "more spikes, a longer sweep" test "$(bash "$SCALE" --list --spikes 12 --out "$TEST_TMP/s" 2>&1 >/dev/null | plan_total_s)" -gt "$total"
	check "shorter spikes, a shorter sweep" test "$(bash "$SCALE" --list --spike-len 5s --out "$TEST_TMP/s" 2>&1 >/dev/null | plan_total_s)" -lt "$total"
	check "each world's first step calibrates" grep -qE '^scale: 4 spike runs, 2 of them calibrating first ' \
		<<<"$(bash "$SCALE" --list --world lan,internet --steps 1,2 --out "$TEST_TMP/s" 2>&1 >/dev/null)"
	check "none with --knee" grep -qE '^scale: 2 spike runs of about .* each: about .* in all$' \
		<<<"$(bash "$SCALE" --list --knee 3000 --steps 1,2 --out "$TEST_TMP/s" 2>&1 >/dev/null)"
fi

[[ -x $ALLOCSPIKE_BIN/allocspike-report ]] || skip "allocspike-report is not built (the sweep's flow needs it)"

# The stand-in spike.sh: records its options (one line per run), writes a run folder whose knee is
# 4000 qps when it calibrates, and a timeline with no rows.
root=$TEST_TMP/root
mkdir -p "$root/scenarios/lib"
cp "$ALLOCSPIKE_SOURCE_DIR"/scenarios/lib/*.sh "$root/scenarios/lib/"
cat >"$root/scenarios/spike.sh" <<EOF
#!/bin/bash
[[ -z \${SC_PLAN_ONLY:-} ]] || { echo 60 0; exit 0; }
[[ " \$* " == *" --help "* ]] && exit 0
echo "\$*" >>"$TEST_TMP/calls"
rate='' multiple=1 dir=''
while ((\$#)); do
	case \$1 in
	--spike-rate) rate=\$2; shift ;;
	--spike-multiple) multiple=\$2; shift ;;
	--out) dir=\$2; shift ;;
	esac
	shift
done
mkdir -p "\$dir"
calibration=null
if [[ \$rate == auto ]]; then
	calibration='{"capacity_of_slowest_qps": 4000}'
	rate=\$(awk -v m="\$multiple" 'BEGIN { printf "%d", 4000 * m }')
fi
jq -n --argjson rate "\$rate" --argjson c "\$calibration" '{format: 1, status: "completed",
	parameters: {spike_rate_qps: \$rate, interval_ms: 1000}, variants: [], calibration: \$c}' >"\$dir/run.json"
: >"\$dir/events.jsonl"
head -n 1 "$ALLOCSPIKE_SOURCE_DIR/tests/fixtures/run-minimal/timeline.csv" >"\$dir/timeline.csv"
EOF
cp "$SCALE" "$root/scenarios/scale.sh"

page=$(SC_ROOT=$root bash "$root/scenarios/scale.sh" --steps 0.5,1,2 --out "$TEST_TMP/run" --variants glibc 2>"$TEST_TMP/err")
check_eq "the sweep exits 0" 0 $?
check_eq "it prints the page's path" "$TEST_TMP/run/scale.html" "$page"
check "the page is written" test -s "$TEST_TMP/run/scale.html"
check "scale.json beside it" test -s "$TEST_TMP/run/scale.json"
check_eq "three runs, one spike.sh call each" 3 "$(wc -l <"$TEST_TMP/calls")"
check_eq "the first step calibrates" \
	"--spike-rate auto --spike-multiple 0.5 --out $TEST_TMP/run/x0.5 --variants glibc" "$(sed -n 1p "$TEST_TMP/calls")"
check_eq "the next steps get the knee (4000 qps) times their multiple, without building again" \
	"--spike-rate 4000 --out $TEST_TMP/run/x1 --variants glibc --no-build
--spike-rate 8000 --out $TEST_TMP/run/x2 --variants glibc --no-build" "$(sed -n 2,3p "$TEST_TMP/calls")"
check_eq "the report lists the runs in order" "2000 4000 8000" \
	"$(jq -r '[.runs[].spike_rate_qps] | map(tostring) | join(" ")' "$TEST_TMP/run/scale.json")"
check "it says the knee it found" grep -q "knee: 4000 qps" "$TEST_TMP/err"
SC_ROOT=$root bash "$root/scenarios/scale.sh" --steps 0.5,1 --out "$TEST_TMP/run" >/dev/null 2>&1
check_eq "a folder that holds a sweep is refused" 2 $?
finish
