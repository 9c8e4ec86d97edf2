# scenarios/lib/experiment.sh - the flow every load scenario shares (spike.sh, ramp.sh, steady.sh):
# options, programs, run folder, hierarchy, variants in parallel or one at a time, generator, and an
# end that always stops everything, checks nothing is left, finishes run.json and makes the report.
# A scenario defines scenario_usage, scenario_defaults (its OPTS_ARGS), scenario_query_count, scenario_plan (sets
# SC_SCHEDULE, may calibrate) and scenario_after, then calls experiment_main "$@".

for _m in common files options runjson events procs variants hierarchy queries schedule \
	placement warmup report clients dry_run; do
	# shellcheck source=/dev/null
	source "$(dirname "${BASH_SOURCE[0]}")/$_m.sh"
done
unset _m

SC_RUN=
SC_CTL_DIR=
SC_COMPLETED=0
SC_INTERRUPTED=
SC_EXITING=0
SC_FAIL_REASON=
SC_SCHEDULE=
SC_RUNNABLE=()
# drive's options beside V_WRAP (docs/controller.md, "One schedule over rows: drive"): a process run
# while the generator runs (NAME, LOG, COMMAND, one a line), and a grace for stopping each row
# through its wrapper's child; then the last schedule's t_s = 0 (wall-clock seconds)
SC_DRIVE_DURING=
SC_DRIVE_STOP_CHILD=
SC_DRIVE_ORIGIN=
SC_DRIVE_WORDS=()

# experiment_prepare_programs : installs missing packages and builds what is missing, unless the
# programs come from elsewhere ($ALLOCSPIKE_BIN, --no-build).
experiment_prepare_programs() {
	[[ -z ${ALLOCSPIKE_BIN:-} ]] && ((!OPT_no_build)) && sc_source_tree || return 0
	"$SC_ROOT/scripts/install-packages.sh" >&2 || sc_die "installing packages failed (scripts/install-packages.sh)"
	local need=(allocspike-upstream allocspike-loadgen allocspike-report allocspike-run) name
	[[ -n $OPT_queries ]] || need+=(allocspike-querydata)
	for name in "${SC_VARIANTS[@]}"; do
		[[ ${V_KIND[$name]} != build && ${V_KIND[$name]} != env ]] || need+=("$(variants_program "$name")")
	done
	sc_build_missing "${need[@]}"
}

# experiment_setup_folder SCENARIO : the run's controller begins the run (procs_begin): what a
# killed run left stopped, then the run folder (new, or an empty one of ours: docs/cli.md, "--out"),
# run.json, processes.tsv and events.jsonl.
experiment_setup_folder() {
	SC_RUN=${OPT_out:-$SC_ROOT/runs/$(date -u +%Y%m%d-%H%M%S)-$1}
	procs_begin "$1" "$SC_RUN" || {
		procs_end
		sc_die "the run could not begin in $SC_RUN (see above)"
	}
}

# experiment_traps : from here on, every way out goes through experiment_on_exit; Ctrl-C, SIGTERM
# and SIGHUP (a closed terminal or SSH session) are interruptions.
experiment_traps() {
	trap 'experiment_on_signal INT' INT
	trap 'experiment_on_signal TERM' TERM
	trap 'experiment_on_signal HUP' HUP
	trap experiment_on_exit EXIT
}

# experiment_on_signal NAME : Ctrl-C, SIGTERM or SIGHUP: the EXIT trap stops everything and reports.
experiment_on_signal() {
	# Already on the way out: exiting again from inside the EXIT trap would cut the stop short.
	if ((SC_EXITING)); then
		procs_hurry
		return
	fi
	SC_INTERRUPTED=$1
	sc_say "interrupted by SIG$1: stopping every process of the run"
	exit $((128 + $(kill -l "$1")))
}

# experiment_on_exit : runs on every way out once the run folder exists: the controller ends the run
# (procs_finish), then the report.
experiment_on_exit() {
	local st=$? end=() report
	SC_EXITING=1
	# Nothing may cut the stop short and leave processes behind: a further signal only drops the
	# grace periods. (A SIGKILL still ends the script; then the processes die with its controller: procs.sh.)
	trap procs_hurry INT TERM HUP
	if ((SC_COMPLETED)); then
		end=(completed)
	elif [[ -n $SC_INTERRUPTED ]]; then
		end=(interrupted "signal=SIG$SC_INTERRUPTED")
	else
		end=(failed "reason=${SC_FAIL_REASON:-exit status $st}")
	fi
	# a scenario with its own report does without the header-only timeline.csv
	! declare -F scenario_report >/dev/null || end+=(timeline=no)
	procs_finish "${end[@]}"
	sc_say "run $SC_PROCS_STATUS: $SC_RUN"
	if declare -F scenario_report >/dev/null; then
		report=$(scenario_report "$SC_RUN") && echo "$report"
	elif report=$(report_make "$SC_RUN"); then
		echo "$report"
	fi
	case $SC_PROCS_STATUS in
	completed) exit 0 ;;
	interrupted) exit 130 ;;
	*) exit 1 ;;
	esac
}

# experiment_check_variants : keeps the rows that can run (program present, allocator and settings as
# the row names), their version reports recorded in run.json; the others are said, recorded as
# failed and skipped (the controller's rows-check).
experiment_check_variants() {
	local settings=()
	mapfile -t settings < <(variants_resolver_settings)
	procs_ask rows-check "$SC_VARIANTS_TABLE" "$(sc_bin_dir)" "$DAEMON_RUN_DIR/.." "$(
		IFS=,
		echo "${SC_VARIANTS[*]}"
	)" -- "${settings[@]}" || sc_die "the run's controller could not check the rows (see above)"
	read -r -a SC_RUNNABLE <<<"${REPLY#ok}"
	((${#SC_RUNNABLE[@]} > 0)) || sc_die "none of the chosen variants can run (${SC_VARIANTS[*]}); see above"
}

# experiment_record_context : run.json's machine (with the open-files limit the controller raised
# for the run's processes), parameters (parameters.hierarchy is recorded by the hierarchy's start, from parameters.options;
# in a run started by experiment_repeat, which repeat it is) and programs: the controller's
# `parameters` (docs/controller.md, "The run's parameters").
experiment_record_context() {
	procs_ask parameters "$OPTS_JSON" "$(sc_bin_dir)" ${ALLOCSPIKE_REPEAT:+"$ALLOCSPIKE_REPEAT"} ||
		sc_die "the run's controller could not record the run's parameters: $REPLY"
}

# experiment_drive DIR SCHEDULE : one schedule over the runnable variants, all at once or, with
# --serial, one after the other (each a fresh process and the same schedule from t=0).
experiment_drive() {
	experiment_drive_group "$1" "$2" "${SC_RUNNABLE[@]}" || sc_die "no variant became ready (see $1/logs/)"
}

# experiment_drive_words NAMES... : the rows' settings given to the controller (rows-setup), then
# into SC_DRIVE_WORDS the words of a `drive` (or `calibrate`) over the named variants after its
# DIR SCHEDULE: the generator, the query file, the CPUs, the ready timeout and the options (V_WRAP
# before a build or env row, the during process, stop-child, serial under --serial).
experiment_drive_words() {
	local name lg settings=()
	sc_need lg allocspike-loadgen "to send the queries and sample the processes"
	mapfile -t settings < <(variants_rows_settings "$SC_ROOT_HINTS" "$SC_UP_PORT")
	procs_ask rows-setup "${settings[@]}" >/dev/null || sc_die "the controller refused the rows' settings (see above)"
	SC_DRIVE_WORDS=("$lg" "$SC_QUERIES" "$SC_CPUS_HARNESS" "$SC_CPUS_RESOLVERS" "${SC_READY_TIMEOUT}s")
	for name in "$@"; do
		[[ -z ${V_WRAP[$name]:-} ]] || SC_DRIVE_WORDS+=("wrap=$name:${V_WRAP[$name]}")
	done
	[[ -z $SC_DRIVE_DURING ]] || SC_DRIVE_WORDS+=("during=$SC_DRIVE_DURING")
	[[ -z $SC_DRIVE_STOP_CHILD ]] || SC_DRIVE_WORDS+=("stop-child=$SC_DRIVE_STOP_CHILD")
	((!${OPT_serial:-0})) || SC_DRIVE_WORDS+=(serial)
}

# experiment_drive_group DIR SCHEDULE NAMES... : the controller's `drive` (docs/controller.md, "One
# schedule over rows: drive"): the named variants started together, or with --serial one at a time
# on a new clock each, those that became ready driven by the generator (one that fails is
# recorded, stopped and left out), then stopped. Fails when none became ready.
experiment_drive_group() {
	local dir=$1 schedule=$2 status
	shift 2
	experiment_drive_words "$@"
	procs_ask drive "$dir" "$schedule" "${SC_DRIVE_WORDS[@]}" -- "$@" || sc_die "the run's controller could not drive $* (see above)"
	[[ $REPLY == ok\ * ]] || return 1
	read -r _ SC_DRIVE_ORIGIN status _ <<<"$REPLY"
	((status == 0)) || sc_die "the generator exited with status $status (see $dir/logs/loadgen.log)"
}

# experiment_repeat ARGS... : --repeat N: the same run N times into OUT/run-1..N, then a comparison
# (allocspike-run repeat, docs/controller.md "The repeats"): with --spike-rate auto only the first
# calibrates and the later runs are given its rate and replay its query file.
experiment_repeat() {
	local args=(--runs "$OPT_repeat" --scenario "$SC_PROG" --report "$(sc_bin_dir)/allocspike-report"
		--out "${OPT_out:-$SC_ROOT/runs/$(date -u +%Y%m%d-%H%M%S)-$SC_PROG-x$OPT_repeat}")
	! opts_uses spike_rate || [[ $OPT_spike_rate != auto ]] || args+=(--calibrated)
	[[ -n $OPT_queries || -n $OPT_query_count ]] || args+=(--same-queries)
	exec "$OPTS_RUN" repeat "${args[@]}" -- bash "$0" "$@"
}

# experiment_expected_s : the seconds a run of this scenario is expected to take, then the part of
# them its calibration takes (its scenario_expected_s); empty when the scenario does not say or
# cannot tell yet.
experiment_expected_s() {
	declare -F scenario_expected_s >/dev/null || return 0
	scenario_expected_s
}

# experiment_main ARGS... : the whole scenario.
experiment_main() {
	opts_read "$@"
	# tune.sh and scale.sh ask whether the options they pass on are good, and how long a run with
	# them takes, before they run anything (scenarios/lib/plan.sh)
	if [[ -n ${SC_PLAN_ONLY:-} ]]; then
		experiment_expected_s
		exit 0
	fi
	((OPT_repeat == 1 || OPT_dry_run)) || experiment_repeat "$@"
	variants_load "$SC_ROOT/variants.tsv"
	variants_select "$OPT_variants"
	placement_choose "$OPT_cpu_placement"
	if ((OPT_dry_run)); then
		experiment_dry_run
		exit
	fi
	experiment_prepare_programs
	local expected
	expected=$(experiment_expected_s)
	[[ -z $expected ]] || sc_say "this run takes about $(sc_seconds_text "${expected%% *}")"
	experiment_setup_folder "$SC_PROG"
	experiment_traps
	experiment_record_context
	experiment_check_variants
	local port=0
	if variants_need_port53; then
		port=53
		sc_say "a daemon variant is chosen: the hierarchy listens on port 53"
	fi
	hierarchy_start "$SC_RUN" "$SC_CPUS_HARNESS" "$port"
	# here, not in the $(...) below, so that a generator missing ends the run with its name
	local loadgen
	sc_need loadgen allocspike-loadgen "to count the schedule's queries and send them"
	queries_prepare "$SC_RUN" "${OPT_query_count:-$(schedule_round_count "$(scenario_query_count)")}"
	scenario_plan
	runjson_fields .parameters "schedule=$SC_SCHEDULE"
	sc_say "run folder $SC_RUN; variants ${SC_RUNNABLE[*]}; $([[ $OPT_serial == 1 ]] && echo serial || echo parallel)"
	experiment_drive "$SC_RUN" "$SC_SCHEDULE"
	scenario_after
	SC_COMPLETED=1
	exit 0
}
