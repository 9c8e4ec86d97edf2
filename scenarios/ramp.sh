#!/bin/bash
# scenarios/ramp.sh - the capacity of each variant side by side: after a warm-up, one resperf-style
# linear ramp fed to every variant at once; a variant's capacity is the highest rate it still
# answered at 90 % (one-second windows), beside its peak answered rate. Same run folder as spike.sh, plus run.json's "capacity". Options: --help.
set -uo pipefail
SC_PROG=ramp
source "$(dirname "${BASH_SOURCE[0]}")/lib/experiment.sh"

scenario_usage() {
	cat <<USAGE
usage: scenarios/ramp.sh [options]
Ramps the rate from --baseline-rate to --rate (default $OPT_rate) over --calibrate-len (default
$OPT_calibrate_len) after a warm-up, and reports each variant's capacity (the highest rate it still
answered at 90 % over one-second windows, and its peak answered rate) side by side, in run.json
("capacity"), as \`calibrated\` events and on stderr. Prints the report's path.
USAGE
}

scenario_options() { echo "$OPTS_EXPERIMENT" rate baseline_rate warmup_rate warmup_len calibrate_len serial repeat; }

scenario_defaults() {
	OPTS_ARGS+=(--default calibrate_len=60s --default warmup_len=30s --default rate=10000
		--help-text 'rate=the top of the ramp' --help-text 'baseline_rate=the start of the ramp'
		--help-text 'calibrate_len=the ramp')
}

experiment_main "$@"
