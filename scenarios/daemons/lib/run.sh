# scenarios/daemons/lib/run.sh - starts one preload/external row of variants.tsv as a background daemon:
# prepare through its definition, LD_PRELOAD from its `library` cell plus the allocator probe, the
# row's env, readiness by the definition's probe, and refusal when the probe names another allocator.
# Sourced by scenarios and tests (bash). See docs/daemons.md.

DAEMON_RUN_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=scenarios/lib/lifeline.sh
source "$DAEMON_RUN_DIR/../../lib/lifeline.sh"
# shellcheck source=scenarios/daemons/lib/sampler.sh
source "$DAEMON_RUN_DIR/sampler.sh"

# daemon_row NAME [VARIANTS_FILE] : prints the row's 9 tab-separated cells, or fails.
daemon_row() {
	local file=${2:-$DAEMON_RUN_DIR/../../../variants.tsv}
	awk -F'\t' -v n="$1" '!/^#/ && $1 == n { print; found = 1 } END { exit !found }' "$file"
}

# daemon_start NAME --listen A:P --root-hints F --cache-size S --workdir D --build B
#              [--upstream-source ADDR] [--variants FILE] [--sampler SOCKET]
# Starts the daemon (stdout+stderr appended to D/daemon.log), waits at most 15 s for its probe,
# and checks which allocator serves malloc (D/alloc.json). Sets DAEMON_PID and DAEMON_ALLOC_JSON.
# With --sampler, the live sampler is preloaded first and serves `stats` on SOCKET, and a sidecar
# keeps the daemon's own figures fresh for it (sampler.sh).
# On failure prints why on stderr, stops what it started and returns 1.
daemon_start() {
	local name=$1
	shift
	local listen= hints= cache= workdir= build= source= variants= sampler=
	while (($#)); do
		case $1 in
		--listen) listen=$2 ;;
		--root-hints) hints=$2 ;;
		--cache-size) cache=$2 ;;
		--workdir) workdir=$2 ;;
		--build) build=$2 ;;
		--upstream-source) source=$2 ;;
		--variants) variants=$2 ;;
		--sampler) sampler=$2 ;;
		*)
			echo "daemon_start: unknown option $1" >&2
			return 1
			;;
		esac
		shift 2
	done
	local row kind allocator library base envcell
	row=$(daemon_row "$name" $variants) || {
		echo "daemon_start: no row '$name' in the variants table" >&2
		return 1
	}
	IFS=$'\t' read -r _ kind allocator _ library base envcell _ _ <<<"$row"
	if [[ $kind != preload && $kind != external ]]; then
		echo "daemon_start: row $name is of kind $kind, not preload or external" >&2
		return 1
	fi
	local def=$DAEMON_RUN_DIR/../$base.sh cmd ld_preload
	[[ -x $def ]] || {
		echo "daemon_start: row $name: no daemon definition $def" >&2
		return 1
	}
	mkdir -p "$workdir"
	local -a env_words=()
	[[ $envcell == - ]] || read -ra env_words <<<"$envcell"
	# prepare runs with the row's env too, so a row can set a definition's knob (thread count).
	cmd=$(env "${env_words[@]}" "$def" prepare --workdir "$workdir" --listen "$listen" \
		--root-hints "$hints" --cache-size "$cache" ${source:+--upstream-source "$source"}) || return 1
	ld_preload=$("$DAEMON_RUN_DIR/preload.sh" ld-preload ${sampler:+--sampler} --build "$build" "$library") ||
		return 1
	[[ -z $sampler ]] || mapfile -t -O "${#env_words[@]}" env_words < <(sampler_env "$sampler" "$workdir" "$allocator")
	DAEMON_ALLOC_JSON=$workdir/alloc.json
	rm -f "$DAEMON_ALLOC_JSON"
	local -a words
	mapfile -t words <<<"$cmd"
	local LIFELINE
	lifeline_set
	"${LIFELINE[@]}" env "${env_words[@]}" LD_PRELOAD="$ld_preload" ALLOCSPIKE_ALLOC_PROBE="$DAEMON_ALLOC_JSON" \
		"${words[@]}" >>"$workdir/daemon.log" 2>&1 &
	DAEMON_PID=$!
	local i
	for ((i = 0; i < 150; i++)); do
		if ! kill -0 "$DAEMON_PID" 2>/dev/null; then
			echo "daemon_start: $name exited before answering; its log ($workdir/daemon.log):" >&2
			tail -20 "$workdir/daemon.log" >&2
			return 1
		fi
		"$def" probe "$listen" && break
		sleep 0.1
	done
	if ((i == 150)); then
		echo "daemon_start: $name did not answer on $listen within 15 s" >&2
		daemon_stop "$DAEMON_PID"
		return 1
	fi
	if ! "$DAEMON_RUN_DIR/preload.sh" check --probe "$DAEMON_ALLOC_JSON" --allocator "$allocator"; then
		echo "daemon_start: refusing $name" >&2
		daemon_stop "$DAEMON_PID"
		return 1
	fi
	[[ -z $sampler ]] || sampler_sidecar "$def" "$workdir" "$DAEMON_PID"
}

# daemon_stop PID : SIGTERM, then SIGKILL after 10 s; returns the daemon's exit status.
daemon_stop() {
	local pid=$1 i
	kill -TERM "$pid" 2>/dev/null || return 0
	for ((i = 0; i < 100; i++)); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	kill -KILL "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null
}
