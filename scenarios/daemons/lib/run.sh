# scenarios/daemons/lib/run.sh - the one launch path of the preload and external rows of variants.tsv
# (docs/daemons.md), for the scenarios (scenarios/lib/variants.sh) and the tests alike, in steps:
# daemon_command (prepare through the row's definition, LD_PRELOAD from its `library` cell plus the
# sampler and the allocator probe, the row's env), daemon_wait_ready (the definition's probe, at most
# DAEMON_READY_TIMEOUT_S), daemon_check_allocator (refusal when the probe names another allocator).
# daemon_start chains them for a test, daemon_stop ends it. Sourced (bash).

DAEMON_RUN_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=scenarios/lib/lifeline.sh
source "$DAEMON_RUN_DIR/../../lib/lifeline.sh"
# shellcheck source=scenarios/daemons/lib/sampler.sh
source "$DAEMON_RUN_DIR/sampler.sh"
# shellcheck source=scenarios/lib/variants_table.sh
source "$DAEMON_RUN_DIR/../../lib/variants_table.sh"

# A daemon's first start writes its configuration and opens its cache; on a loaded 2-core machine
# with four variants starting together that took kresd well over 15 s. The one limit, for scenarios
# and tests alike.
DAEMON_READY_TIMEOUT_S=30
DAEMON_PROBE_INTERVAL_S=0.2

# daemon_definition NAME : the daemon definition a preload or external row runs.
daemon_definition() { echo "$DAEMON_RUN_DIR/../${V_BASE[$1]}.sh"; }

# daemon_command NAME WORKDIR LISTEN HINTS CACHE_BYTES UPSTREAM_SOURCE BUILD_DIR [SAMPLER_SOCKET]
# For a row of the table read (variants_table_read): runs the definition's prepare (with the row's env,
# so a row can set a definition's knob) and sets DAEMON_WORDS (the command, one word an element),
# DAEMON_ENV (env(1) assignments: the row's env, LD_PRELOAD, the probe and the sampler's) and
# DAEMON_ALLOC_JSON (where the probe writes). UPSTREAM_SOURCE may be empty. DAEMON_TLS (an array,
# empty by default) is passed to prepare as it is: --tls-listen ADDR:PORT --tls-cert F --tls-key F
# for DNS over TLS. On failure says why on stderr, sets DAEMON_FAILURE to a short reason and returns 1.
daemon_command() {
	local name=$1 workdir=$2 listen=$3 hints=$4 cache=$5 source=$6 build=$7 sampler=${8:-}
	local def cmd ld_preload library=-
	DAEMON_FAILURE=
	DAEMON_WORDS=()
	DAEMON_ENV=()
	case ${V_KIND[$name]:-} in
	preload) library=${V_LIB[$name]} ;;
	external) ;;
	*)
		DAEMON_FAILURE="row $name is not a preload or external row"
		echo "daemon_command: $DAEMON_FAILURE" >&2
		return 1
		;;
	esac
	def=$(daemon_definition "$name")
	if [[ ! -x $def ]]; then
		DAEMON_FAILURE="no daemon definition $def"
		echo "daemon_command: row $name: $DAEMON_FAILURE" >&2
		return 1
	fi
	mkdir -p "$workdir"
	[[ ${V_ENV[$name]} == - ]] || read -r -a DAEMON_ENV <<<"${V_ENV[$name]}"
	if ! cmd=$(env "${DAEMON_ENV[@]}" "$def" prepare --workdir "$workdir" --listen "$listen" \
		--root-hints "$hints" --cache-size "$cache" ${source:+--upstream-source "$source"} \
		${DAEMON_TLS[@]+"${DAEMON_TLS[@]}"}); then
		DAEMON_FAILURE="daemon definition prepare failed"
		return 1
	fi
	if ! ld_preload=$("$DAEMON_RUN_DIR/preload.sh" ld-preload ${sampler:+--sampler} --build "$build" "$library"); then
		DAEMON_FAILURE="preload library not found"
		return 1
	fi
	DAEMON_ALLOC_JSON=$workdir/alloc.json
	rm -f "$DAEMON_ALLOC_JSON"
	DAEMON_ENV+=("LD_PRELOAD=$ld_preload" "ALLOCSPIKE_ALLOC_PROBE=$DAEMON_ALLOC_JSON")
	[[ -z $sampler ]] ||
		mapfile -t -O "${#DAEMON_ENV[@]}" DAEMON_ENV < <(sampler_env "$sampler" "$workdir" "${V_ALLOC[$name]}")
	# The definition prints one argument a line (docs/daemons.md).
	mapfile -t DAEMON_WORDS <<<"$cmd"
}

# daemon_tls_problem NAME : nothing, status 0, when the row's definition serves DNS over TLS
# (prepare takes --tls-listen); else why not, status 1.
daemon_tls_problem() { "$(daemon_definition "$1")" tls; }

# daemon_alive PID : true while PID runs (a zombie not yet reaped counts as gone).
daemon_alive() {
	local stat
	stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
	stat=${stat##*) }
	[[ ${stat%% *} != Z && ${stat%% *} != X ]]
}

# daemon_wait_ready NAME PID LISTEN : polls the row's probe until the daemon answers on LISTEN.
# Returns 0 once it does, 1 when it exited first, 2 after DAEMON_READY_TIMEOUT_S.
daemon_wait_ready() {
	local name=$1 pid=$2 listen=$3 def deadline=$((SECONDS + DAEMON_READY_TIMEOUT_S))
	def=$(daemon_definition "$name")
	while ((SECONDS < deadline)); do
		daemon_alive "$pid" || return 1
		"$def" probe "$listen" >/dev/null 2>&1 && return 0
		sleep "$DAEMON_PROBE_INTERVAL_S"
	done
	return 2
}

# daemon_check_allocator NAME BUILD_DIR TABLE : refuses (1, saying why on stderr) a daemon whose
# allocator probe does not show the row's allocator serving malloc, free and mallocx: it would
# measure another allocator under the row's name. The judgement is the controller's
# (`allocspike-run rows-check --row`, the one a served run's row-ready makes).
daemon_check_allocator() {
	local verdict
	if [[ ! -s $DAEMON_ALLOC_JSON ]]; then
		echo "daemon_check_allocator: $DAEMON_ALLOC_JSON missing: the allocator probe was not loaded (LD_PRELOAD not applied?)" >&2
		return 1
	fi
	verdict=$("$2/bin/allocspike-run" rows-check --table "$3" --row "$1" \
		--version-json "$(<"$DAEMON_ALLOC_JSON")") && return 0
	# 'failed NAME REASON MESSAGE': the message, for the person
	echo "daemon_check_allocator: ${verdict##*$'\t'}" >&2
	return 1
}

# daemon_start NAME --listen A:P --root-hints F --cache-size S --workdir D --build B
#              [--upstream-source ADDR] [--variants FILE] [--sampler SOCKET]
#              [--tls-listen ADDR:PORT --tls-cert FILE --tls-key FILE]
# For tests: the steps above, the daemon in the background (stdout+stderr appended to D/daemon.log)
# under a lifeline. Sets DAEMON_PID, DAEMON_ALLOC_JSON and DAEMON_TLS_LISTEN (the DNS over TLS address,
# empty when the definition serves none: then the --tls-* options are dropped, said on stderr). With --sampler, the live sampler serves
# `stats` on SOCKET and a sidecar keeps the daemon's own figures fresh for it (sampler.sh).
# On failure prints why on stderr, stops what it started and returns 1.
daemon_start() {
	local name=$1
	shift
	local listen= hints= cache= workdir= build= source= variants=$DAEMON_RUN_DIR/../../../variants.tsv sampler=
	local DAEMON_TLS=()
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
		--tls-listen | --tls-cert | --tls-key) DAEMON_TLS+=("$1" "$2") ;;
		*)
			echo "daemon_start: unknown option $1" >&2
			return 1
			;;
		esac
		shift 2
	done
	variants_table_read "$variants" "$build/bin/allocspike-run" || {
		echo "daemon_start: $VARIANTS_TABLE_ERROR" >&2
		return 1
	}
	if [[ -z ${V_KIND[$name]:-} ]]; then
		echo "daemon_start: no row '$name' in the variants table" >&2
		return 1
	fi
	# a definition that cannot serve DNS over TLS runs without it: its DoT clients speak plain TCP
	local why
	if ((${#DAEMON_TLS[@]})) && ! why=$(daemon_tls_problem "$name"); then
		echo "variant $name: no DNS over TLS ($why); its DoT clients speak plain TCP" >&2
		DAEMON_TLS=()
	fi
	DAEMON_TLS_LISTEN=${DAEMON_TLS[1]:-}
	daemon_command "$name" "$workdir" "$listen" "$hints" "$cache" "$source" "$build" "$sampler" || return 1
	local LIFELINE
	lifeline_set
	"${LIFELINE[@]}" env "${DAEMON_ENV[@]}" "${DAEMON_WORDS[@]}" >>"$workdir/daemon.log" 2>&1 &
	DAEMON_PID=$!
	local st=0
	daemon_wait_ready "$name" "$DAEMON_PID" "$listen" || st=$?
	if ((st == 1)); then
		echo "daemon_start: $name exited before answering; its log ($workdir/daemon.log):" >&2
		tail -20 "$workdir/daemon.log" >&2
		return 1
	elif ((st == 2)); then
		echo "daemon_start: $name did not answer on $listen within $DAEMON_READY_TIMEOUT_S s" >&2
		daemon_stop "$DAEMON_PID"
		return 1
	fi
	if ! daemon_check_allocator "$name" "$build" "$variants"; then
		echo "daemon_start: refusing $name" >&2
		daemon_stop "$DAEMON_PID"
		return 1
	fi
	[[ -z $sampler ]] || sampler_sidecar "$(daemon_definition "$name")" "$workdir" "$DAEMON_PID" "$build"
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
