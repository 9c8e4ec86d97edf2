# scenarios/lib/experiment.sh - the flow every load scenario shares (spike.sh, ramp.sh, steady.sh):
# options, programs, run folder, hierarchy, variants in parallel or one at a time, generator, and an
# end that always stops everything, checks nothing is left, finishes run.json and makes the report.
# A scenario defines scenario_usage, scenario_defaults (its OPTS_ARGS), scenario_query_count, scenario_plan (sets
# SC_SCHEDULE, may calibrate) and scenario_after, then calls experiment_main "$@".

for _m in common files options runjson events machine lifeline procs variants hierarchy queries schedule placement \
	loadgen calibrate harness warmup report clients dry_run; do
	# shellcheck source=/dev/null
	source "$(dirname "${BASH_SOURCE[0]}")/$_m.sh"
done
unset _m

SC_RUN=
SC_CTL_DIR=
SC_CTL_TMP=
SC_COMPLETED=0
SC_INTERRUPTED=
SC_EXITING=0
SC_FAIL_REASON=
SC_SCHEDULE=
SC_RUNNABLE=()

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

# experiment_setup_folder SCENARIO : stops what a killed run left, then the run folder (new, or an
# empty one of ours: docs/cli.md, "--out"), run.json, events.jsonl and the control-socket folder.
experiment_setup_folder() {
	local problem
	SC_RUN=${OPT_out:-$SC_ROOT/runs/$(date -u +%Y%m%d-%H%M%S)-$1}
	# Before this run writes anything: a killed run's folder may be this very path (deleted since),
	# and a run.json of this run there would be taken for the killed run's and marked failed.
	procs_clean_stale
	problem=$(files_outdir_make "$SC_RUN") || sc_die "the run folder: $problem"
	SC_RUN=$(realpath "$SC_RUN")
	# Everything the run creates here is new: nothing (no link) is followed out of the folder.
	mkdir -- "$SC_RUN/logs" || sc_die "cannot create $SC_RUN/logs"
	# Unix socket paths are limited to 108 bytes; deep run folders get their sockets in /tmp.
	if ((${#SC_RUN} > 60)); then
		SC_CTL_TMP=$(mktemp -d "${TMPDIR:-/tmp}/allocspike-ctl.XXXXXX")
		SC_CTL_DIR=$SC_CTL_TMP
	else
		SC_CTL_DIR=$SC_RUN/ctl
		mkdir -- "$SC_CTL_DIR" || sc_die "cannot create $SC_CTL_DIR"
	fi
	runjson_init "$SC_RUN/run.json" "$1" || sc_die "cannot write $SC_RUN/run.json"
	procs_register "$SC_RUN" || sc_die "cannot create $SC_RUN/processes.tsv"
	# The controller writes the events (its clock: events.sh).
	events_init "$SC_RUN/events.jsonl" || {
		procs_unregister
		sc_die "cannot create $SC_RUN/events.jsonl"
	}
	procs_record_stale
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

# experiment_on_exit : runs on every way out once the run folder exists.
experiment_on_exit() {
	local st=$? status reason='' leftovers report
	SC_EXITING=1
	# Nothing may cut the stop short and leave processes behind: a further signal only drops the
	# grace periods. (A SIGKILL still ends the script; then the processes die with it: lifeline.sh.)
	trap procs_hurry INT TERM HUP
	if ((SC_COMPLETED)); then
		status=completed
	elif [[ -n $SC_INTERRUPTED ]]; then
		status=interrupted
	else
		status=failed
		reason=${SC_FAIL_REASON:-exit status $st}
	fi
	procs_stop_all
	# Interrupted during the calibration or a cpu.sh pass: back to the run's own events first.
	while ((SC_EVENTS_PUSHED > 0)); do events_pop; done
	leftovers=$(procs_leftovers)
	if [[ -n $leftovers ]]; then
		sc_say "still running after the stop: $leftovers"
		events_add _scenario leftover "processes=$leftovers"
		[[ $status != completed ]] || {
			status=failed
			reason="processes left running: $leftovers"
		}
	fi
	case $status in
	interrupted) events_add _scenario interrupted "signal=SIG$SC_INTERRUPTED" ;;
	failed) events_add _scenario failed "reason=$reason" ;;
	esac
	events_close
	# With its controller (which writes the events); left over: the next run finds and stops them.
	[[ -n $leftovers ]] || procs_unregister
	# One line per upstream query: hundreds of MB over a default run; gzip -1 keeps it readable (zcat).
	[[ ! -s $SC_RUN/upstream-applied.log ]] || gzip -1 -f "$SC_RUN/upstream-applied.log" || true
	declare -F scenario_report >/dev/null || experiment_ensure_timeline "$SC_RUN"
	harness_scan "$SC_RUN"
	runjson_finish "$status" "$reason"
	sc_say "run $status: $SC_RUN"
	if declare -F scenario_report >/dev/null; then
		report=$(scenario_report "$SC_RUN") && echo "$report"
	elif report=$(report_make "$SC_RUN"); then
		echo "$report"
	fi
	[[ -z $SC_CTL_TMP ]] || rm -rf "$SC_CTL_TMP"
	[[ -n $SC_CTL_TMP ]] || rm -rf "$SC_RUN/ctl"
	case $status in
	completed) exit 0 ;;
	interrupted) exit 130 ;;
	*) exit 1 ;;
	esac
}

# experiment_ensure_timeline DIR : a run stopped before the generator started still gets a (header-only)
# timeline.csv, so that the report can say what happened. The header is the fixture's, which the
# generator's own tests keep equal to common/timeline_columns.h.
experiment_ensure_timeline() {
	local fixture=$SC_ROOT/tests/fixtures/run-minimal/timeline.csv
	[[ ! -e $1/timeline.csv && -r $fixture ]] || return 0
	head -n 1 "$fixture" >"$1/timeline.csv"
}

# experiment_check_variants : keeps the rows that can run (program present, allocator as named),
# records their version reports in run.json; the others are recorded as failed and skipped.
experiment_check_variants() {
	local name missing versions=()
	SC_RUNNABLE=()
	for name in "${SC_VARIANTS[@]}"; do
		missing=$(variants_missing "$name")
		if [[ -n $missing ]]; then
			sc_say "variant $name cannot run: missing $missing"
			events_add "$name" failed "reason=missing $missing"
		else
			V_VERSION[$name]=$(variants_version "$name")
			variants_check_allocator "$name" && SC_RUNNABLE+=("$name")
		fi
		versions+=("${V_VERSION[$name]:-null}")
	done
	# The controller's rows, each given its binary's report in its place.
	runjson_set .variants "$(printf '%s\n' "${versions[@]}" | jq -c -s --argjson rows "$(variants_rows_json)" \
		'[$rows, .] | transpose | map(.[0] + {version: .[1]})')"
	((${#SC_RUNNABLE[@]} > 0)) || sc_die "none of the chosen variants can run (${SC_VARIANTS[*]}); see above"
}

# experiment_parameters : what the run used, in run.json's parameters.
experiment_parameters() {
	# the controller wrote MEDIAN,P99; null where the world sets them (docs/upstream.md, "Worlds")
	local median=null p99=null loss=null
	if hierarchy_sets latency_ms; then
		median=${OPT_latency_ms%%,*} p99=${OPT_latency_ms#*,}
	fi
	! hierarchy_sets loss || loss=$OPT_loss
	runjson_update '.parameters = {
			schedule: null,
			mode: (if $serial == "1" then "serial" else "parallel" end),
			hierarchy: {seed: $seed, latency_ms_median: $median, latency_ms_p99: $p99, loss: $loss,
				block: $block, world: $world},
			resolver: {cache_size_bytes: $cache, max_inflight: $inflight, memory_layout: $layout},
			cpu_placement: $placement,
			interval_ms: $interval,
			options: $options}' \
		--arg serial "$OPT_serial" --argjson seed "$OPT_seed" --argjson median "$median" --argjson p99 "$p99" \
		--argjson loss "$loss" --arg block "$OPT_hierarchy_block" --arg world "$OPT_world" \
		--argjson cache "$OPT_cache_size_bytes" --argjson inflight "$OPT_max_inflight" \
		--arg layout "$OPT_memory_layout" --argjson placement "$(placement_json)" \
		--argjson interval "$OPT_interval_ms" --argjson options "$OPTS_JSON"
	experiment_record_repeat
}

# experiment_programs : the harness programs' paths and, where they answer it, --version --json.
experiment_programs() {
	local p path v out='{}'
	for p in allocspike-upstream allocspike-loadgen allocspike-querydata allocspike-report; do
		path=$(sc_program "$p")
		v=null
		[[ -z $path ]] || v=$(timeout 5 "$path" --version --json 2>/dev/null </dev/null | jq -c . 2>/dev/null) || v=null
		[[ -n $v ]] || v=null
		out=$(jq -c --arg p "$p" --arg path "$path" --argjson v "$v" '.[$p] = {path: $path, version: $v}' <<<"$out")
	done
	runjson_set .programs "$out"
}

# experiment_drive DIR SCHEDULE : one schedule over the runnable variants, all at once or, with
# --serial, one after the other (each a fresh process and the same schedule from t=0).
experiment_drive() {
	local dir=$1 schedule=$2 name ran=0
	mkdir -p "$dir/logs"
	if ((OPT_serial)); then
		for name in "${SC_RUNNABLE[@]}"; do
			events_origin_clear
			experiment_drive_group "$dir" "$schedule" "$name" && ran=1
		done
		((ran)) || sc_die "no variant became ready (see $dir/logs/)"
	else
		experiment_drive_group "$dir" "$schedule" "${SC_RUNNABLE[@]}" ||
			sc_die "no variant became ready (see $dir/logs/)"
	fi
}

# experiment_drive_group DIR SCHEDULE NAMES... : starts the named variants together, waits until each
# is ready (one that fails is recorded and left out), runs the generator, stops them.
experiment_drive_group() {
	local dir=$1 schedule=$2 name started=() ready=()
	shift 2
	local uport=$SC_UP_PORT
	for name in "$@"; do
		variant_launch "$name" "$dir" "$SC_ROOT_HINTS" "$uport" "$SC_CPUS_RESOLVERS" && started+=("$name")
	done
	for name in "${started[@]}"; do
		if variant_wait_ready "$name"; then
			ready+=("$name")
		else
			sc_say "variant $name did not become ready (see $dir/logs/$name.log); the run goes on without it"
			procs_stop 1 "$name"
		fi
	done
	((${#ready[@]} > 0)) || return 1
	! declare -F scenario_ready >/dev/null || scenario_ready "${ready[@]}"
	loadgen_run "$dir" "$schedule" "${ready[@]}"
	for name in "${ready[@]}"; do
		! declare -F scenario_stop_variant >/dev/null || scenario_stop_variant "$name"
	done
	procs_stop 15 "${ready[@]}"
	((SC_LOADGEN_STATUS == 0)) ||
		sc_die "the generator exited with status $SC_LOADGEN_STATUS (see $dir/logs/loadgen.log)"
	return 0
}

# experiment_repeat ARGS... : --repeat N: the same run N times into OUT/run-1..N, then a comparison.
# The runs share one spike height: with --spike-rate auto only the first calibrates, and every later
# run is given the first's rate (and replays the first's query file), so that the repeats differ by
# noise and not by their schedule or queries. Each
# run records which repeat it is and where its rate came from (run.json parameters.repeat).
experiment_repeat() {
	local out=${OPT_out:-$SC_ROOT/runs/$(date -u +%Y%m%d-%H%M%S)-$SC_PROG-x$OPT_repeat} i runs=() child st=0 LIFELINE
	local rate_from=null rate count problem
	# The folder of the repeats follows --out's rule; each run gets a new one in it (run-1, ...).
	problem=$(files_outdir_make "$out") || sc_die "the folder of the repeats: $problem"
	trap '[[ -z ${child:-} ]] || kill -TERM "$child" 2>/dev/null; wait "${child:-}" 2>/dev/null; exit 130' INT TERM HUP
	for ((i = 1; i <= OPT_repeat; i++)); do
		sc_say "repeat $i of $OPT_repeat"
		lifeline_set # a killed parent takes the repeat (and so everything it started) with it
		ALLOCSPIKE_REPEAT=$(jq -cn --argjson run "$i" --argjson of "$OPT_repeat" --argjson from "$rate_from" \
			'{run: $run, of: $of, spike_rate_from: $from}') \
			"${LIFELINE[@]}" bash "$0" "$@" --repeat 1 --out "$out/run-$i" &
		child=$!
		wait "$child" || st=$?
		child=
		runs+=("$out/run-$i")
		((st == 0)) || sc_die "repeat $i ended with status $st; stopping the repeats"
		set -- "$@" --no-build
		if ((i == 1)) && opts_uses spike_rate && [[ $OPT_spike_rate == auto ]]; then
			rate=$(jq -r '.parameters.spike_rate_qps // empty' "$out/run-1/run.json" 2>/dev/null)
			sc_is_uint "$rate" || sc_die "repeat 1 recorded no spike rate ($out/run-1/run.json); stopping the repeats"
			sc_say "repeats 2 to $OPT_repeat spike at repeat 1's calibrated $rate qps"
			set -- "$@" --spike-rate "$rate"
			rate_from='"run-1"'
		fi
		# The default query file's length follows the spike rate (auto: the highest the calibration
		# could ask for); the later repeats replay the very file of the first.
		if ((i == 1)) && [[ -z $OPT_queries && -z $OPT_query_count ]]; then
			count=$(jq -r '.queryfile.generated.count // empty' "$out/run-1/run.json" 2>/dev/null)
			! sc_is_uint "$count" || set -- "$@" --query-count "$count"
		fi
	done
	local rp
	rp=$(sc_program allocspike-report)
	[[ -n $rp ]] || sc_die "allocspike-report is missing: no comparison of the repeats"
	out=$(realpath "$out")
	"$rp" compare "${runs[@]}" -o "$out/compare.html" >/dev/null || sc_die "allocspike-report compare failed"
	echo "$out/compare.html"
	exit 0
}

# experiment_record_repeat : in a run started by experiment_repeat, which repeat it is (run.json
# parameters.repeat: run, of, spike_rate_from: the folder whose calibration set its spike rate, null
# for a run that calibrated or was given its rate).
experiment_record_repeat() {
	[[ -n ${ALLOCSPIKE_REPEAT:-} ]] || return 0
	runjson_update '.parameters.repeat = $r' --argjson r "$ALLOCSPIKE_REPEAT"
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
	local nofile
	nofile=$(machine_raise_nofile)
	ulimit -n "$nofile" 2>/dev/null || true
	runjson_set .machine "$(machine_json "$nofile")"
	experiment_parameters
	experiment_programs
	experiment_check_variants
	local port=0
	if variants_need_port53; then
		port=53
		sc_say "a daemon variant is chosen: the hierarchy listens on port 53"
	fi
	hierarchy_start "$SC_RUN" "$SC_CPUS_HARNESS" "$port"
	runjson_update '.parameters.hierarchy.port = $p' --argjson p "$SC_UP_PORT"
	# here, not in the $(...) below, so that a generator missing ends the run with its name
	local loadgen
	sc_need loadgen allocspike-loadgen "to count the schedule's queries and send them"
	queries_prepare "$SC_RUN" "${OPT_query_count:-$(schedule_round_count "$(scenario_query_count)")}"
	scenario_plan
	runjson_update '.parameters.schedule = $s' --arg s "$SC_SCHEDULE"
	sc_say "run folder $SC_RUN; variants ${SC_RUNNABLE[*]}; $([[ $OPT_serial == 1 ]] && echo serial || echo parallel)"
	experiment_drive "$SC_RUN" "$SC_SCHEDULE"
	scenario_after
	SC_COMPLETED=1
	exit 0
}
