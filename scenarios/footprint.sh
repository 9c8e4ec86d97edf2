#!/bin/bash
# scenarios/footprint.sh - the spike experiment with every row's allocations counted by size: the
# live sampler (docs/daemons.md) is preloaded into our dynamic builds as it always is into daemons,
# and polled for its `size_classes` beside the generator's sampling. Ends with footprint.json and
# footprint.md in the run folder: per row and spike, live bytes per request in flight and the size
# mix at the peak against idle (`allocspike-report footprint`). Options: as spike.sh.
set -uo pipefail
SC_PROG=footprint
source "$(dirname "${BASH_SOURCE[0]}")/lib/experiment.sh"
source "$(dirname "${BASH_SOURCE[0]}")/lib/spike_experiment.sh"

FP_POLL_PERIOD_S=${FOOTPRINT_POLL_PERIOD_S:-0.5}

scenario_usage() {
	cat <<'USAGE'
usage: scenarios/footprint.sh [options]
The spike experiment (spike.sh, same options) with allocations counted by size class in every row:
daemons through their live sampler, our dynamic builds with the sampler preloaded (the static musl
build has none). Writes footprint.json and footprint.md (bytes per request in flight per spike, size
mix at peak and idle) into the run folder and prints the path of footprint.md.
USAGE
}

scenario_options() { spike_options; }

scenario_defaults() { :; }

scenario_query_count() { spike_query_count; }

# The sampler of our builds: its own socket, beside the resolver's control socket.
fp_sampler_socket() { echo "$SC_CTL_DIR/$1.sizes.sock"; }

# The measured run's rows with the sampler preloaded into our builds (their wrap names its socket),
# and the poller, a process of the run started once the rows answer and stopped after the schedule:
# the controller gives it a NAME=SAMPLER[,CONTROL] word per ready row (drive's during=).
scenario_plan() {
	spike_plan
	local sampler name run
	sampler="$(dirname "$(sc_bin_dir)")/lib/liballocspike-live-sampler.so"
	[[ -f $sampler ]] || sc_die "the live sampler is missing: $sampler"
	for name in "${SC_RUNNABLE[@]}"; do
		[[ ${V_KIND[$name]} == build || ${V_KIND[$name]} == env ]] || continue
		V_WRAP[$name]=$(printf '%s\n' env "LD_PRELOAD=$sampler" "ALLOCSPIKE_SAMPLER_SOCKET=$(fp_sampler_socket "$name")" \
			"ALLOCSPIKE_SAMPLER_ALLOCATOR=${V_ALLOC[$name]}")
	done
	sc_need run allocspike-run "for the size-class poller"
	SC_DRIVE_DURING=$(printf '%s\n' _footprint_poll "$SC_RUN/logs/footprint-poll.log" "$run" poll-sizes \
		"$SC_RUN/sizes" "$FP_POLL_PERIOD_S" 14400)
}

scenario_after() {
	# The poller's clock is the wall clock; the timeline's starts with the schedule.
	mkdir -p "$SC_RUN/sizes" && echo "$SC_DRIVE_ORIGIN" >"$SC_RUN/sizes/origin_unix_s"
	warmup_check "$SC_RUN"
	local report
	sc_need report allocspike-report "for footprint.json"
	"$report" footprint "$SC_RUN" || sc_die "allocspike-report footprint failed on $SC_RUN"
	echo "$SC_RUN/footprint.md"
}

experiment_main "$@"
