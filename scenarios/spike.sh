#!/bin/bash
# scenarios/spike.sh - the main experiment: every chosen allocator variant in parallel against the
# simulated hierarchy, a warm-up to a steady cache, then repeated spikes over a baseline that never
# stops; ends with the report and prints its path. Options: spike.sh --help.
set -uo pipefail
SC_PROG=spike
source "$(dirname "${BASH_SOURCE[0]}")/lib/experiment.sh"
source "$(dirname "${BASH_SOURCE[0]}")/lib/spike_experiment.sh"

scenario_usage() {
	cat <<'USAGE'
usage: scenarios/spike.sh [options]
Runs the spike experiment (installs packages and builds what is missing first) and prints the path of
report.html. The run folder (docs/run-folder.md) keeps everything recorded, whatever happens.
Default: about ten minutes on two cores. --quick: about four minutes.
USAGE
}

scenario_options() { spike_options; echo clients tcp_share dot_share client_count spike_clients tcp_idle dry_run hosts token_file; }

scenario_defaults() { :; }

scenario_expected_s() { spike_expected_s; }

experiment_main "$@"
