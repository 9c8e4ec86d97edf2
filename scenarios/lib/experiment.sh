# scenarios/lib/experiment.sh - the flow every load scenario shares (spike.sh, ramp.sh, steady.sh):
# options, programs, then the run handed to its controller (experiment_conduct), which runs the
# steps (run.json's context, rows, hierarchy, queries, variants in parallel or one at a time,
# generator) and an end that always stops everything, checks nothing is left, finishes run.json and
# makes the report.
# A scenario defines scenario_usage, scenario_defaults (its OPTS_ARGS), scenario_query_count,
# scenario_plan (sets SC_SCHEDULE, may calibrate), and may define scenario_drive (in place of one
# drive of every row: cpu.sh's passes) and scenario_after, then calls experiment_main "$@".

for _m in common files procs options runjson events variants hierarchy queries schedule \
	placement warmup clients dry_run; do
	# shellcheck source=/dev/null
	source "$(dirname "${BASH_SOURCE[0]}")/$_m.sh"
done
unset _m

# The run's folder and its control folder, which the controller made (in the steps: procs.sh)
SC_RUN=${ALLOCSPIKE_RUN_DIR:-}
SC_CTL_DIR=${SC_PROCS_SOCKET%/*}
SC_SCHEDULE=
SC_PARAMETERS=() # run.json's parameters beside the schedule a scenario records (KEY=TEXT, KEY:=JSON)
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

# experiment_conduct ARGS... : in the scenario's own process, the programs prepared (then the
# scenario's scenario_check, if any) and the process handed to the run's controller with exec
# (allocspike-run conduct: docs/controller.md, "A conducted run"). It begins the run (what killed
# runs left stopped, the folder made: docs/cli.md, "--out"), runs this script again with ARGS as the
# run's steps, takes Ctrl-C, SIGTERM and SIGHUP (an interruption: exit 130), and whatever happens
# stops everything, finishes run.json and makes the report (SC_REPORT: run, or cpu). In the steps,
# nothing.
experiment_conduct() {
	[[ -z $SC_PROCS_SOCKET ]] || return 0
	experiment_prepare_programs
	! declare -F scenario_check >/dev/null || scenario_check
	local expected run
	expected=$(experiment_expected_s)
	[[ -z $expected ]] || sc_say "this run takes about $(sc_seconds_text "${expected%% *}")"
	sc_need run allocspike-run "to run the run"
	exec "$run" conduct --scenario "$SC_PROG" --report "${SC_REPORT:-run}" \
		--out "${OPT_out:-$SC_ROOT/runs/$(date -u +%Y%m%d-%H%M%S)-$SC_PROG}" -- bash "$0" "$@"
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

# experiment_drive_words NAMES... : the rows' settings given to the controller (rows-setup), then
# into SC_DRIVE_WORDS the words of a `drive` (or `calibrate`) over the named variants after its
# DIR SCHEDULE: the generator, the query file, the CPUs, the ready timeout and the options (V_WRAP
# before a build or env row, the during process, stop-child, serial under --serial; with --hosts
# place= alone).
experiment_drive_words() {
	local name lg settings=()
	sc_need lg allocspike-loadgen "to send the queries and sample the processes"
	mapfile -t settings < <(variants_rows_settings "$SC_ROOT_HINTS" "$SC_UP_PORT")
	procs_ask rows-setup "${settings[@]}" >/dev/null || sc_die "the controller refused the rows' settings (see above)"
	SC_DRIVE_WORDS=("$lg" "$SC_QUERIES" "$SC_CPUS_HARNESS" "$SC_CPUS_RESOLVERS" "${SC_READY_TIMEOUT}s")
	# spike.sh --hosts: the rows run on their hosts' agents, placed by the controller's `place`
	if [[ -n ${OPT_hosts:-} ]]; then
		SC_DRIVE_WORDS+=("place=$(spike_place_words)")
		return
	fi
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
	((status == 0)) || sc_die "the generator exited with status $status (see $dir/logs/loadgen.log${OPT_hosts:+ and place.log})"
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
	experiment_conduct "$@"
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
	runjson_fields .parameters "schedule=$SC_SCHEDULE" "${SC_PARAMETERS[@]}"
	sc_say "run folder $SC_RUN; variants ${SC_RUNNABLE[*]}; $([[ $OPT_serial == 1 ]] && echo serial || echo parallel)"
	if declare -F scenario_drive >/dev/null; then
		scenario_drive
	else
		experiment_drive_group "$SC_RUN" "$SC_SCHEDULE" "${SC_RUNNABLE[@]}" || sc_die "no variant became ready (see $SC_RUN/logs/)"
	fi
	! declare -F scenario_after >/dev/null || scenario_after
	exit 0
}
