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

experiment_main "$@"
