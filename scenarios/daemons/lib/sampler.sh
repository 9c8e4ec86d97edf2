# scenarios/daemons/lib/sampler.sh - the runner's side of the live sampler (preload/live_sampler.c):
# the daemon's environment, and the sidecar that keeps the daemon's own figures fresh for it.
# Sourced by scenarios/daemons/lib/run.sh and scenarios/lib/variants.sh; see docs/daemons.md.

# shellcheck source=scenarios/lib/files.sh
source "$(dirname "${BASH_SOURCE[0]}")/../../lib/files.sh"

# Seconds between two `<base>.sh stats` calls: each costs about 0.1 s of CPU (a shell, the daemon's
# control tool, allocspike-run), so every second would take a tenth of a core per daemon.
SAMPLER_SIDECAR_PERIOD_S=2

# sampler_env SOCKET WORKDIR ALLOCATOR : the environment words (one a line) for a daemon started
# with `preload.sh ld-preload --sampler`: where to serve `stats`, the sidecar's file, and the
# row's allocator (the probe checks it), whose statistics the sampler reads.
sampler_env() {
	printf '%s\n' "ALLOCSPIKE_SAMPLER_SOCKET=$1" "ALLOCSPIKE_SAMPLER_DAEMON_STATS=$2/daemon-stats.json" \
		"ALLOCSPIKE_SAMPLER_ALLOCATOR=$3"
}

# sampler_sidecar DEF WORKDIR PID BUILD : in the background while PID lives,
# `DEF stats --workdir WORKDIR --build BUILD` into WORKDIR/daemon-stats.json (replaced whole, so the sampler never reads half a line) every
# SAMPLER_SIDECAR_PERIOD_S; failures are appended to WORKDIR/daemon-stats.err. It ends by itself
# within a period of the daemon's end.
sampler_sidecar() {
	local def=$1 workdir=$2 pid=$3 build=$4
	(
		while kill -0 "$pid" 2>/dev/null; do
			files_replace "$workdir/daemon-stats.json" "$def" stats --workdir "$workdir" --build "$build" 2>>"$workdir/daemon-stats.err"
			sleep "$SAMPLER_SIDECAR_PERIOD_S"
		done
	) </dev/null >/dev/null 2>&1 &
}
