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

experiment_main "$@"
