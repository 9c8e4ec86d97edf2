# scenarios/lib/options.sh - the scenarios' options, read from the controller. `allocspike-run
# options` (controller/scenario_options.c) holds the one table of options, parses the command line,
# applies --quick, checks every value (docs/cli.md) and prints --help; this reads its lines into
# OPT_<name> (durations also as OPT_<name>_ms, sizes as OPT_<name>_bytes, numbers in thousandths
# as OPT_<name>_milli), OPT_SET[<name>] for what
# the user gave, OPTS_JSON (run.json's parameters.options), and OPTS_REST: the arguments that
# are not the scenario's, for spike.sh (tune.sh, scale.sh: --pass-rest). A scenario lists its
# options (scenario_options), may add its defaults and texts to OPTS_ARGS in scenario_defaults
# (--default NAME=VALUE, --help-text NAME=TEXT, --default-text NAME=TEXT, --quick-default
# NAME=VALUE, --lists LIST, --refuse NAME=WHY, --one-of A,B, --pass-rest), and calls opts_read "$@".

declare -A OPT_SET=()
OPTS_ARGS=()
OPTS_REST=()
OPTS_JSON=

# The options every run of experiment.sh reads (its scenarios add their own in scenario_options).
OPTS_EXPERIMENT='variants queries query_count query_seed seed world flat_tlds latency_ms loss hierarchy_block applied_log
cache_size max_inflight memory_layout timeout_ms out cpu_placement interval_ms quick no_build'

# opts_uses NAME : true when the running scenario takes option NAME (scenario_options lists them).
OPTS_USED=
opts_uses() {
	[[ -n $OPTS_USED ]] || OPTS_USED=" $(echo $(scenario_options)) "
	[[ $OPTS_USED == *" $1 "* ]]
}

# opts_fail TEXT : a bad flag found here (not by the controller): the reason and the usage, exit 2.
opts_fail() {
	printf '%s: %s\n' "$SC_PROG" "$*" >&2
	printf 'usage: scenarios/%s.sh [options]   (--help lists them)\n' "$SC_PROG" >&2
	exit 2
}

# opts_load LINES : the controller's lines into OPT_*, OPT_SET and OPTS_JSON; at `help`, the
# scenario's first lines (scenario_usage), the controller's option list, exit 0.
opts_load() {
	local key name value
	while IFS=$'\t' read -r key name value; do
		case $key in
		opt) printf -v "OPT_$name" '%s' "$value" ;;
		set) OPT_SET[$name]=1 ;;
		json) OPTS_JSON=$name ;;
		rest) OPTS_REST+=("$name") ;;
		help)
			scenario_usage
			cat
			exit 0
			;;
		esac
	done <<<"$1"
}

# opts_controller : the controller's path; a checkout with nothing built builds first (the option
# table is the controller's, so even --help needs it).
opts_controller() {
	[[ " $* " != *" --no-build "* ]] || OPT_no_build=1
	sc_build_missing allocspike-run
	sc_need OPTS_RUN allocspike-run "to read the scenario's options$( ((!${OPT_no_build:-0})) || echo '; --no-build builds nothing')"
}

# opts_read ARGS... : the scenario's options parsed and checked; a bad one exits 2 (its message is
# the controller's), --help prints the usage and exits 0. --out is checked here (files.sh), except
# in the run's steps, where it is the run's folder already.
opts_read() {
	local out problem
	! declare -F scenario_defaults >/dev/null || scenario_defaults
	opts_controller "$@"
	out=$("$OPTS_RUN" options --scenario "$SC_PROG" --uses "$(scenario_options)" \
		--default-text "out=$SC_ROOT/runs/<UTC YYYYmmdd-HHMMSS>-$SC_PROG" "${OPTS_ARGS[@]}" -- "$@") || exit
	opts_load "$out"
	if opts_uses out && [[ -n $OPT_out && -z ${SC_PROCS_SOCKET:-} ]]; then
		problem=$(sc_outdir --check "$OPT_out") || opts_fail "--out: $problem"
	fi
}

# opts_defaults [ARGS...] : every option's value as a run with ARGS has it, for modules used
# without a scenario (tests).
opts_defaults() {
	opts_controller
	opts_load "$("$OPTS_RUN" options --scenario "$SC_PROG" -- "$@")"
}
