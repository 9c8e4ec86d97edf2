#!/bin/bash
# scenarios/daemons/lib/row.sh - one preload or external row started as a program, for a caller that
# is not a scenario: allocspike-agent starts a daemon row on its own host with it (docs/agent.md,
# "Starting a row"). The steps are daemon_start's (run.sh): the definition's prepare, the preloads,
# the daemon under a lifeline, its probe until it answers, the allocator check, the sampler's sidecar;
# then READY_FILE gets "ready LISTEN", "ready-tls ADDR" where it serves DNS over TLS (a definition that
# cannot drops the --tls-* options) and "pid PID" (the daemon's, which the caller samples), and this
# script waits for the daemon and ends with it; SIGTERM stops it.
# Usage: row.sh NAME --ready-file F [--remote yes] and daemon_start's options (--listen, --root-hints,
# --cache-size, --workdir, --build, --variants, --upstream-source, --sampler, --tls-*). --remote yes:
# the caller was given an address off loopback to serve on (an agent on its own host), so the
# definition takes one (ALLOCSPIKE_DAEMON_REMOTE, definition.sh).
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/run.sh"
# shellcheck source=scenarios/lib/files.sh
source "$(dirname "${BASH_SOURCE[0]}")/../../lib/files.sh"

name=${1:?usage: row.sh NAME --ready-file F [daemon_start options]}
shift
ready= listen= args=()
while (($# >= 2)); do
	case $1 in
	--ready-file) ready=$2 ;;
	--remote) [[ $2 != yes ]] || export ALLOCSPIKE_DAEMON_REMOTE=1 ;;
	--listen) listen=$2 args+=("$1" "$2") ;;
	*) args+=("$1" "$2") ;;
	esac
	shift 2
done
[[ $# == 0 && -n $ready && -n $listen ]] || {
	echo "row.sh: options go in pairs, and --ready-file and --listen are required" >&2
	exit 2
}
DAEMON_PID=
trap '[[ -z $DAEMON_PID ]] || daemon_stop "$DAEMON_PID"; exit 143' TERM INT
daemon_start "$name" "${args[@]}" || exit 1
tls=
[[ -z $DAEMON_TLS_LISTEN ]] || tls="ready-tls $DAEMON_TLS_LISTEN"$'\n'
# written beside and renamed: the caller never reads half of it
files_replace "$ready" printf 'ready %s\n%spid %s\n' "$listen" "$tls" "$DAEMON_PID" || {
	daemon_stop "$DAEMON_PID"
	exit 1
}
wait "$DAEMON_PID"
