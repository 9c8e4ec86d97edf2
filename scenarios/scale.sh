#!/bin/bash
# scenarios/scale.sh - the scale law: the spike experiment (spike.sh) at several spike heights, each
# a multiple of the knee calibrated once (per world), optionally in several worlds, one spike.sh run
# folder per step; then `allocspike-report scale` plots per variant the memory its allocator holds
# after the spikes against the peak requests in flight, with the fitted MB per 1,000 requests in
# flight. Options: scale.sh --help.
set -uo pipefail
SC_PROG=scale
source "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"
source "$(dirname "${BASH_SOURCE[0]}")/lib/lifeline.sh"
source "$(dirname "${BASH_SOURCE[0]}")/lib/options.sh"
source "$(dirname "${BASH_SOURCE[0]}")/lib/plan.sh"

# scenario_usage : --help's first lines; the option list is the controller's (allocspike-run options).
scenario_usage() {
	cat <<'USAGE'
usage: scenarios/scale.sh [options] [spike.sh options]
Runs spike.sh once per spike height (and world), each into its own run folder DIR/STEP, then writes
DIR/scale.html and DIR/scale.json (allocspike-report scale) and prints the page's path.
Before it starts (and with --list, on stderr) it says how many spike runs it makes and about how long
they take: spike.sh's estimate per run, a world's first step with its calibration unless --knee is given.
Any other option goes to every spike.sh run unchanged (spike.sh --help lists them), e.g. --quick,
--variants, --serial; the spike height is scale.sh's own (no --spike-rate, --spike-multiple or
--repeat). With the default --memory-layout heap the pile-up stops at unbound's request list (1,024
requests in flight), so the steps past the knee share one x; --memory-layout kresd has no such cap.
USAGE
}

scenario_options() { echo steps knee world out list; }

# scale.sh's own lines of the list, the options it refuses; every other option is handed back for
# spike.sh (OPTS_REST).
scenario_defaults() {
	local why="scale.sh sets the spike height (--steps, --knee) and makes one run per step" name
	OPTS_ARGS+=(--pass-rest --lists "steps world"
		--default world= --default-text "world=spike.sh's"
		--help-text "world=worlds to sweep, each passed to spike.sh as --world NAME"
		--help-text "out=the sweep's folder"
		--help-text "list=print the runs it would make, one a line (folder, then spike.sh's options), and stop")
	for name in spike_rate spike_multiple repeat; do
		OPTS_ARGS+=(--refuse "$name=$why")
	done
	# an agent takes one plan and ends with its run: the second step's run would find none
	OPTS_ARGS+=(--refuse "hosts=scale.sh makes one spike.sh run per step and an agent takes one plan (the second run would find no agents); run spike.sh --hosts itself")
}

opts_read "$@"
steps=$OPT_steps knee=$OPT_knee out=$OPT_out list=$OPT_list pass=("${OPTS_REST[@]}")
IFS=, read -r -a multiples <<<"$steps"
IFS=, read -r -a world_list <<<"$OPT_world"
((${#world_list[@]})) || world_list=('')
out=${out:-$SC_ROOT/runs/$(date -u +%Y%m%d-%H%M%S)-scale}

# scale_rate KNEE MULTIPLE : the spike height KNEE x MULTIPLE, truncated, the multiple read in
# thousandths by spike.sh's own option parser (allocspike-run options, as its --spike-multiple).
scale_rate() {
	local key name value milli=
	while IFS=$'\t' read -r key name value; do
		[[ $key != opt || $name != spike_multiple_milli ]] || milli=$value
	done < <("$OPTS_RUN" options --scenario spike --uses spike_multiple -- --spike-multiple "$2")
	[[ -n $milli ]] || sc_die "the multiple '$2' was not read (allocspike-run options)"
	echo $(($1 * milli / 1000))
}

# The plan: per world, per multiple, a folder name and spike.sh's height options; a step whose knee
# is still to be calibrated says so ("knee*M", resolved when its world's first step has run).
plan_dir=() plan_world=() plan_height=()
for w in "${world_list[@]}"; do
	first=1
	for m in "${multiples[@]}"; do
		plan_dir+=("${w:+$w-}x$m")
		plan_world+=("$w")
		if [[ -n $knee ]]; then
			plan_height+=("--spike-rate $(scale_rate "$knee" "$m")")
		elif ((first)); then
			plan_height+=("--spike-rate auto --spike-multiple $m")
		else
			plan_height+=("--spike-rate knee*$m")
		fi
		first=0
	done
done

# scale_args I : spike.sh's options for step I (its height may still read knee*M).
scale_args() {
	local i=$1
	# shellcheck disable=SC2206 # the height is words
	args=(${plan_height[i]})
	[[ -z ${plan_world[i]} ]] || args+=(--world "${plan_world[i]}")
	args+=(--out "$out/${plan_dir[i]}" "${pass[@]}")
}

# spike.sh judges the options passed on (a bad one fails here, before anything runs) and says how
# long a run takes: the first step of each world calibrates unless --knee is given.
plan_spike_say "${#plan_dir[@]}" $((${#knee} ? 0 : ${#world_list[@]})) "${pass[@]}" ${knee:+--spike-rate "$knee"}

if ((list)); then
	for i in "${!plan_dir[@]}"; do
		scale_args "$i"
		printf '%s' "${plan_dir[i]}"
		for a in "${args[@]}"; do
			# Plain words as they are (knee*M reads as meant), anything else quoted for the shell.
			if [[ $a =~ ^[A-Za-z0-9_./,:=*+-]+$ ]]; then printf ' %s' "$a"; else printf ' %q' "$a"; fi
		done
		printf '\n'
	done
	exit 0
fi
# --out's rule (docs/cli.md, checked by opts_read): a folder holding a sweep, or anything else, is
# refused; each step gets a new folder in it.
problem=$(sc_outdir "$out") || sc_die "the sweep's folder: $problem"
out=$(realpath "$out")

child=
trap '[[ -z $child ]] || kill -TERM "$child" 2>/dev/null; wait $child 2>/dev/null; exit 130' INT TERM HUP

runs=() failed=() world_knee='' no_build=()
for i in "${!plan_dir[@]}"; do
	((i == 0)) || [[ ${plan_world[i]} == "${plan_world[i - 1]}" ]] || world_knee=''
	if [[ ${plan_height[i]} == "--spike-rate knee*"* ]]; then
		[[ -n $world_knee ]] || sc_die "no knee for ${plan_dir[i]}: the calibrating step of its world found none"
		plan_height[i]="--spike-rate $(scale_rate "$world_knee" "${plan_height[i]#--spike-rate knee\*}")"
	fi
	scale_args "$i"
	dir=$out/${plan_dir[i]}
	sc_say "step $((i + 1)) of ${#plan_dir[@]}: ${plan_dir[i]} (${plan_height[i]})"
	lifeline_set # a killed sweep takes its spike.sh run (and so everything that started) with it
	"${LIFELINE[@]}" bash "$SC_ROOT/scenarios/spike.sh" "${args[@]}" "${no_build[@]}" >/dev/null &
	child=$!
	wait "$child" || {
		sc_say "the run in $dir ended with status $?; its figures may be missing"
		failed+=("${plan_dir[i]}")
	}
	child=
	no_build=(--no-build)
	[[ -f $dir/run.json ]] || continue
	runs+=("$dir")
	if [[ ${plan_height[i]} == *auto* ]]; then
		world_knee=$(jq -r '.calibration.capacity_of_slowest_qps // empty' "$dir/run.json")
		[[ -z $world_knee ]] || sc_say "knee${plan_world[i]:+ in ${plan_world[i]}}: $world_knee qps"
	fi
done

((${#runs[@]} >= 2)) || sc_die "fewer than two runs left a run folder: no line to fit (see $out)"
rp=$(sc_program allocspike-report)
[[ -n $rp ]] || sc_die "allocspike-report is missing: no scale page"
"$rp" scale "${runs[@]}" -o "$out/scale.html" >/dev/null || sc_die "allocspike-report scale failed"
# The lines on the terminal as well.
jq -r '.variant_order[] as $v | .variants[$v] | [$v,
	(.slope_mb_per_1000_inflight // "n/a"), (.r2 // "n/a"), (.points | length)]
	| map(if type == "number" then (. * 1000 | round / 1000 | tostring) else . end) | @tsv' \
	"$out/scale.json" |
	{
		printf 'variant\tMB/1000_in_flight\tR2\truns\n'
		cat
	} | awk -F'\t' '{ printf "%-22s %18s %7s %5s\n", $1, $2, $3, $4 }' >&2
echo "$out/scale.html"
((${#failed[@]} == 0)) || sc_die "steps that did not complete: ${failed[*]}"
exit 0
