#!/bin/bash
# scenarios/cpu.sh - the CPU cost of each allocator: every variant, one at a time, gets the same fixed
# number of queries against the same hierarchy; instructions are counted under valgrind's callgrind
# (repeatable on a noisy machine), with the share spent inside the allocator, and task-clock is read
# from `perf stat`. Writes RUN/cpu.json and RUN/cpu.md (its own small report) and prints cpu.md's path.
set -uo pipefail
SC_PROG=cpu
source "$(dirname "${BASH_SOURCE[0]}")/lib/experiment.sh"

scenario_usage() {
	cat <<USAGE
usage: scenarios/cpu.sh [options]
Each variant in turn (fresh process, cold cache) answers --count queries (default $OPT_count) sent at
--rate (default $OPT_rate qps; callgrind slows the resolver about 50 times), first under callgrind,
then under perf stat. Defaults: the $OPT_world world, upstream latency ${OPT_latency_ms%%,*} ms, no loss
(the same work for every variant). Prints the path of cpu.md, a table of instructions per query,
the allocator's share and CPU time per query.
USAGE
}

scenario_options() { echo "$OPTS_EXPERIMENT" rate count tools; }

# callgrind slows a resolver's start about 50 times too
SC_READY_TIMEOUT=120

scenario_defaults() {
	# lan: one latency for every server: the work does not hang on which servers a name meets
	OPTS_ARGS+=(--default world=lan --default latency_ms=5,20 --default loss=0 --default rate=200
		--default count=6000 --quick-default count=1000 --default serial=1
		--help-text 'rate=the rate the queries are sent at' --help-text 'quick=1000 queries instead of --count')
}

# What counts as allocator code, the figures and cpu.md are allocspike-report cpu's (from the
# allocator registry, docs/architecture.md "Allocator adapters"), made by the run's controller once
# the run ends (SC_REPORT=cpu), from callgrind's profiles listed with callgrind_annotate.
SC_REPORT=cpu

# scenario_check : the tools the passes run under are installed (after the packages' step).
scenario_check() {
	[[ $OPT_tools != *callgrind* ]] || command -v valgrind >/dev/null || sc_die "valgrind is not installed (scripts/install-packages.sh)"
	[[ $OPT_tools != *perf* ]] || command -v perf >/dev/null || sc_die "perf is not installed (package linux-perf)"
}

# cpu_pass TOOL : every runnable build or env row under TOOL, one at a time (drive's serial: each a
# fresh process on a clock of its own), into RUN/TOOL/.
cpu_pass() {
	local tool=$1 dir=$SC_RUN/$1 name rows=()
	mkdir -p "$dir/logs"
	# perf stat writes its count only when its child exits: the controller stops the resolver, not
	# perf, and waits for perf (at most 15 s). The generator samples perf's child (row-targets).
	SC_DRIVE_STOP_CHILD=
	[[ $tool != perf ]] || SC_DRIVE_STOP_CHILD=15s
	for name in "${SC_RUNNABLE[@]}"; do
		if [[ ${V_KIND[$name]} != build && ${V_KIND[$name]} != env ]]; then
			sc_say "$tool: $name is a daemon row; cpu.sh measures our own resolver builds only"
			continue
		fi
		case $tool in
		callgrind)
			V_WRAP[$name]=$(printf '%s\n' valgrind --tool=callgrind "--callgrind-out-file=$dir/$name.callgrind.out" --dump-instr=no)
			;;
		perf)
			V_WRAP[$name]=$(printf '%s\n' perf stat -e task-clock -x , -o "$dir/$name.perf.csv" --)
			;;
		esac
		rows+=("$name")
	done
	((${#rows[@]} > 0)) || return 0
	sc_say "$tool: ${rows[*]}, one at a time"
	events_push "$dir/events.jsonl"
	experiment_drive_group "$dir" "$SC_SCHEDULE" "${rows[@]}" || sc_say "$tool: no row ran (see $dir/logs/)"
	events_pop
	for name in "${rows[@]}"; do V_WRAP[$name]=; done
}

scenario_query_count() { echo "$OPT_count"; }

scenario_plan() {
	SC_SCHEDULE=$(printf 'baseline:%sms@%s' $((OPT_count * 1000 / OPT_rate)) "$OPT_rate")
	SC_PARAMETERS=("count:=$OPT_count" "tools=$OPT_tools")
}

# scenario_drive : a pass per tool, each over every build or env row one at a time.
scenario_drive() {
	local tool tools
	IFS=, read -r -a tools <<<"$OPT_tools"
	for tool in "${tools[@]}"; do
		cpu_pass "$tool"
	done
}

experiment_main "$@"
