#!/bin/bash
# scenarios/spike.sh - the main experiment: every chosen allocator variant in parallel against the
# simulated hierarchy, a warm-up to a steady cache, then repeated spikes over a baseline that never
# stops; ends with the report and prints its path. Options: spike.sh --help.
set -uo pipefail
SC_PROG=spike
source "$(dirname "${BASH_SOURCE[0]}")/lib/experiment.sh"

scenario_usage() {
	cat <<'USAGE'
usage: scenarios/spike.sh [options]
Runs the spike experiment (installs packages and builds what is missing first) and prints the path of
report.html. The run folder (docs/run-folder.md) keeps everything recorded, whatever happens.
Default: about ten minutes on two cores. --quick: at most two minutes.
USAGE
}

scenario_options() {
	echo "$OPTS_EXPERIMENT" spikes spike_rate spike_multiple baseline_rate warmup_rate warmup_len baseline_len spike_len \
		recovery_len calibrate_len calibrate_max world serial repeat
}

scenario_defaults() { :; }

# With `auto`, the file must cover the highest spike the calibration can ask for.
scenario_query_count() {
	if [[ $OPT_spike_rate == auto ]]; then
		schedule_queries "$(awk -v c="$(calibrate_highest_top)" -v m="$OPT_spike_multiple" 'BEGIN { printf "%d", c * m }')"
	else
		schedule_queries "$OPT_spike_rate"
	fi
}

scenario_plan() {
	[[ $OPT_spike_rate != auto ]] || calibrate_run "$SC_RUN"
	SC_SCHEDULE=$(schedule_spike "$OPT_spike_rate")
	runjson_update '.parameters.spike_rate_qps = $r' --argjson r "$OPT_spike_rate"
}

scenario_after() { warmup_check "$SC_RUN"; }

experiment_main "$@"
