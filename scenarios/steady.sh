#!/bin/bash
# scenarios/steady.sh - constant load for soak runs: a warm-up, then one rate for a long time, every
# variant fed the same stream. Same run folder as spike.sh. Options: --help.
set -uo pipefail
SC_PROG=steady
source "$(dirname "${BASH_SOURCE[0]}")/lib/experiment.sh"

scenario_usage() {
	cat <<USAGE
usage: scenarios/steady.sh [options]
After a warm-up, sends --rate queries per second (default: --baseline-rate) to every variant for
--baseline-len (default $OPT_baseline_len). Prints the report's path.
USAGE
}

scenario_options() { echo "$OPTS_EXPERIMENT" rate baseline_rate warmup_rate warmup_len baseline_len serial repeat; }

scenario_defaults() {
	OPTS_ARGS+=(--default baseline_len=10m --help-text 'rate=the constant rate after the warm-up'
		--default-text rate=--baseline-rate --help-text 'baseline_len=how long the constant rate runs')
}

experiment_main "$@"
