# scenarios/lib/experiment.sh - the flow every load scenario shares (spike.sh, footprint.sh, ramp.sh,
# steady.sh, cpu.sh): options, programs, then the run handed to its controller (experiment_conduct),
# which carries out the scenario's steps from the run's options (run.json's context, rows,
# hierarchy, queries, variants in parallel or one at a time, generator, what the scenario does after;
# docs/controller.md "The steps") and an end that always stops everything, checks nothing is left,
# finishes run.json and makes the report.
# A scenario defines scenario_usage, scenario_options, scenario_defaults (its OPTS_ARGS), and may
# define scenario_expected_s and scenario_check, then calls experiment_main "$@".

for _m in common files procs options runjson events variants hierarchy schedule placement dry_run; do
	# shellcheck source=/dev/null
	source "$(dirname "${BASH_SOURCE[0]}")/$_m.sh"
done
unset _m

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

# experiment_conduct : the programs prepared (then the scenario's scenario_check, if any) and this
# process handed to the run's controller with exec (allocspike-run conduct: docs/controller.md, "A
# conducted run"). It begins the run (what killed runs left stopped, the folder made: docs/cli.md,
# "--out"), carries out the scenario's steps itself from the run's options ("The steps"), takes
# Ctrl-C, SIGTERM and SIGHUP (an interruption: exit 130), and whatever happens stops everything,
# finishes run.json and makes the report (SC_REPORT: run, or cpu).
experiment_conduct() {
	experiment_prepare_programs
	! declare -F scenario_check >/dev/null || scenario_check
	local expected run
	expected=$(experiment_expected_s)
	[[ -z $expected ]] || sc_say "this run takes about $(sc_seconds_text "${expected%% *}")"
	sc_need run allocspike-run "to run the run"
	exec "$run" conduct --scenario "$SC_PROG" --report "${SC_REPORT:-run}" \
		--out "${OPT_out:-$SC_ROOT/runs/$(date -u +%Y%m%d-%H%M%S)-$SC_PROG}" --root "$SC_ROOT" \
		--bin "$(sc_bin_dir)" --options "$OPTS_JSON" --given "$(hierarchy_given)"
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
	experiment_conduct
}
