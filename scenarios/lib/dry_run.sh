# scenarios/lib/dry_run.sh - --dry-run: the run's plan printed, nothing started, built or written:
# the rows, the schedules, the expected length, and every process the run starts as the
# controller's plan (allocspike-run supervise --dry-run, docs/controller.md), made by the same
# functions the launch uses. What is known only once the run starts is in capitals: RUN (the run
# folder), /CTL (its control folder, made at the start in the state folder), QUERIES (the generated
# query file), PORT (the hierarchy's port), ADDR and PID (a row's), R (a calibrated spike rate).

# dry_run_process NAME LOG CPUS READY_FILE ARGV... : one process of the plan as a JSON object.
dry_run_process() {
	local name=$1 log=$2 cpus=$3 ready=$4
	shift 4
	jq -cn --arg n "$name" --arg l "$log" --arg c "$cpus" --arg r "$ready" \
		'{name: $n, log: $l, cpus: $c, argv: $ARGS.positional}
		 + if $r == "" then {} else {ready: {file: $r}} end' --args -- "$@"
}

# experiment_dry_run : prints the plan of this run; exit status 0, or the controller's.
experiment_dry_run() {
	local rp name plan procs=() targets=() expected run_s tmp st=0
	sc_need rp allocspike-run "to print the run's plan"
	SC_RUN=${OPT_out:-RUN}
	SC_CTL_DIR=/CTL
	SC_QUERIES=${OPT_queries:-QUERIES}
	SC_UP_PID=PID
	echo "dry run of $SC_PROG: nothing is started or written"
	echo "rows: ${SC_VARIANTS[*]} ($([[ $OPT_serial == 1 ]] && echo "one at a time" || echo "in parallel"))"
	echo "CPUs: harness ${SC_CPUS_HARNESS:-any}, resolvers ${SC_CPUS_RESOLVERS:-any}"
	((OPT_repeat == 1)) || echo "repeats: $OPT_repeat runs as below into RUN/run-1..$OPT_repeat" \
		"(with R, the later runs spike at the first's), then a comparison page"
	# the scenario's schedules (scenario_dry_plan sets SC_SCHEDULE; without it: decided at the start)
	! declare -F scenario_dry_plan >/dev/null || scenario_dry_plan
	echo "schedule: ${SC_SCHEDULE:-decided at the start}"
	[[ -n $OPT_queries ]] || echo "queries: QUERIES, generated at the start (allocspike-querydata generate" \
		"--seed $OPT_query_seed --count ${OPT_query_count:-$(schedule_round_count "$(scenario_query_count)")})"
	# the whole run, then its calibration's part: the plan below is the measured run's
	expected=$(experiment_expected_s)
	[[ -z $expected ]] || echo "expected: about $(sc_seconds_text "${expected%% *}") in all"
	run_s=
	[[ -z $expected ]] || run_s=$((${expected%% *} - ${expected##* }))
	hierarchy_command "$SC_RUN"
	procs+=("$(dry_run_process _upstream logs/upstream.log "$SC_CPUS_HARNESS" /CTL/upstream.ready "${HIERARCHY_ARGV[@]}")")
	local dot= # a --clients run's DoT clients: over TLS once the row says where (ready-tls)
	! clients_on || dot=,dot=tcp
	for name in "${SC_VARIANTS[@]}"; do
		case ${V_KIND[$name]} in
		build | env)
			variant_command "$name" "$SC_RUN" "$SC_ROOT_HINTS" PORT
			procs+=("$(dry_run_process "$name" "logs/$name.log" "$SC_CPUS_RESOLVERS" "/CTL/$name.ready" "${VARIANT_ARGV[@]}")")
			targets+=("name=$name,addr=ADDR,pid=PID,control=/CTL/$name.sock$dot")
			;;
		*)
			echo "row $name (${V_KIND[$name]}): its command is made at the start by $(daemon_definition "$name")"
			targets+=("name=$name,addr=ADDR,pid=PID$dot")
			;;
		esac
	done
	loadgen_command "$SC_RUN" "${SC_SCHEDULE:-SCHEDULE}" "${targets[@]}"
	procs+=("$(dry_run_process _loadgen logs/loadgen.log "$SC_CPUS_HARNESS" "" "${LOADGEN_ARGV[@]}")")
	plan=$(printf '%s\n' "${procs[@]}" | jq -sc --arg d "${run_s}s" \
		'{processes: (.[:-1] + [.[-1] + {ends_run: true}])} + if $d == "s" then {} else {duration: $d} end')
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/allocspike-dry.XXXXXX") || sc_die "cannot make a temporary folder"
	printf '%s\n' "$plan" >"$tmp/plan.json"
	# the plan's paths are within the run folder, which a dry run neither makes nor touches
	"$rp" supervise --plan "$tmp/plan.json" --out "$SC_RUN" --dry-run || st=$?
	rm -rf -- "$tmp"
	return "$st"
}
