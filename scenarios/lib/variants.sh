# scenarios/lib/variants.sh - the variants table (variants.tsv, docs/variants.md) and the ONE loop
# that runs any row: build (its own binary), env (the base row's binary with the row's environment),
# preload and external (a daemon definition in scenarios/daemons/<base>.sh, see docs/variants.md).

# shellcheck source=scenarios/lib/variants_table.sh
source "$(dirname "${BASH_SOURCE[0]}")/variants_table.sh"
# shellcheck source=scenarios/daemons/lib/run.sh
source "$(dirname "${BASH_SOURCE[0]}")/../daemons/lib/run.sh"

SC_VARIANTS=()     # the rows this run uses
SC_VARIANTS_RUN=   # the controller that reads the table
SC_VARIANTS_TABLE= # and the table read
declare -A V_PID=() V_ADDR=() V_CONTROL=() V_INDEX=() V_VERSION=() V_CMD=() V_WORKDIR=() V_LOG=()
# V_WRAP: build/env rows: a command put before the binary, one argument a line (cpu.sh: valgrind, perf stat)
declare -A V_WRAP=() V_SAMPLE_PID=()
declare -A V_DAEMON_PROBE=() # daemon rows: the allocator probe's file
SC_READY_TIMEOUT=30      # seconds a build or env row has to print its ready line

# variants_load FILE : reads the table through the controller (built first where the scenario builds:
# sc_build_missing); a malformed row stops the run with FILE:LINE.
variants_load() {
	sc_build_missing allocspike-run
	sc_need SC_VARIANTS_RUN allocspike-run "to read variants.tsv$( ((!${OPT_no_build:-0})) || echo '; --no-build builds nothing')"
	SC_VARIANTS_TABLE=$1
	variants_table_read "$1" "$SC_VARIANTS_RUN" || sc_die "$VARIANTS_TABLE_ERROR"
}

# variants_select LIST : sets SC_VARIANTS from "a,b,c", or the default rows when LIST is empty, as
# the controller chooses them (allocspike-run variants --select).
variants_select() {
	local out name i
	out=$("$SC_VARIANTS_RUN" variants --table "$SC_VARIANTS_TABLE" --select "$1" 2>&1) ||
		opts_fail "--variants: ${out#allocspike-run variants: --select: }"
	SC_VARIANTS=()
	while IFS=$'\t' read -r name _; do SC_VARIANTS+=("$name"); done <<<"$out"
	for i in "${!SC_VARIANTS[@]}"; do
		# Each variant sends upstream from its own 127.0.1.N, so the hierarchy counts them apart.
		V_INDEX[${SC_VARIANTS[i]}]=$((i + 1))
	done
}

# variants_rows_check : which chosen rows can run, and run.json's rows (allocspike-run rows-check:
# each build or env binary asked its --version --json with the row's environment and the run's
# resolver settings, so the report is of the allocator and overload policy the row runs with).
variants_rows_check() {
	local settings=()
	mapfile -t settings < <(variants_resolver_settings)
	"$SC_VARIANTS_RUN" rows-check --table "$SC_VARIANTS_TABLE" --select "$(
		IFS=,
		echo "${SC_VARIANTS[*]}"
	)" --bin-dir "$(sc_bin_dir)" --daemons-dir "$DAEMON_RUN_DIR/.." -- "${settings[@]}"
}

# variants_need_port53 : true when a chosen row is a daemon, which cannot change its upstream port.
variants_need_port53() {
	local name
	for name in "${SC_VARIANTS[@]}"; do
		[[ ${V_KIND[$name]} == build || ${V_KIND[$name]} == env ]] || return 0
	done
	return 1
}

# variants_program NAME : the resolver program a build or env row runs (an env row its base's).
variants_program() { echo "allocspike-resolver-$([[ ${V_KIND[$1]} == env ]] && echo "${V_BASE[$1]}" || echo "$1")"; }

# variants_resolver_settings : the run's options to our resolver, one a line: the same for its launch
# and its --version --json, so the overload policy that reports is the one the resolver runs with.
variants_resolver_settings() {
	printf '%s\n' --cache-size "$OPT_cache_size_bytes" --max-inflight "$OPT_max_inflight" \
		--memory-layout "$OPT_memory_layout"
}

# variants_check_allocator NAME : refuses a row whose report (V_VERSION) names another allocator than
# the row, or allocator settings other than its env cell asks for (allocspike-run rows-check --row).
variants_check_allocator() {
	local name=$1 line reason message
	[[ ${V_VERSION[$name]:-null} != null ]] || return 0
	line=$("$SC_VARIANTS_RUN" rows-check --table "$SC_VARIANTS_TABLE" --row "$name" \
		--version-json "${V_VERSION[$name]}") && return 0
	IFS=$'\t' read -r _ _ reason message <<<"$line"
	sc_say "${message:-variant $name: its allocator could not be checked; not run}"
	events_add "$name" failed "reason=${reason:-allocator not checked}"
	return 1
}

# variant_command NAME HINTS UPSTREAM_PORT : a build or env row's command: VARIANT_CMD, the resolver
# and its options (run.json's `command`), and VARIANT_ARGV, what is started: env(1) with the row's
# environment, its wrapper (perf stat), then VARIANT_CMD. The launch and --dry-run both use it. The
# environment and the command come from the controller's one builder (allocspike-run variants
# --command, common/variant_command.c), the one allocspike-agent --start runs a row with.
variant_command() {
	local name=$1 hints=$2 uport=$3 words=() wrap=() settings=() tls=() i
	mapfile -t settings < <(variants_resolver_settings)
	mapfile -t tls < <(clients_resolver_args "$name") # --clients: DNS over TLS
	mapfile -t words < <("$SC_VARIANTS_RUN" variants --table "$SC_VARIANTS_TABLE" --command "$name" \
		--bin-dir "$(sc_bin_dir)" --listen 127.0.0.1:0 --root-hints "$hints" --upstream-port "$uport" \
		--upstream-source "127.0.1.${V_INDEX[$name]}" --control "$SC_CTL_DIR/$name.sock" \
		--ready-file "$SC_CTL_DIR/$name.ready" -- "${settings[@]}" "${tls[@]}")
	for ((i = 0; i < ${#words[@]}; i++)); do [[ ${words[i]} != -- ]] || break; done
	((i < ${#words[@]})) || sc_die "variant $name: allocspike-run variants --command gave no command"
	VARIANT_CMD=("${words[@]:i+1}")
	[[ -z ${V_WRAP[$name]:-} ]] || mapfile -t wrap <<<"${V_WRAP[$name]}"
	VARIANT_ARGV=(env "${words[@]:0:i}" "${wrap[@]}" "${VARIANT_CMD[@]}")
}

# variant_launch NAME RUN_DIR HINTS UPSTREAM_PORT CPUS : starts one row of any kind (the one loop);
# sets V_PID (the PID the controller answered: the generator samples it, a daemon's probe and sampler
# watch it). Readiness is waited for separately so that all variants start together.
variant_launch() {
	local name=$1 dir=$2 hints=$3 uport=$4 cpus=$5
	local log="$dir/logs/$name.log"
	V_LOG[$name]=$log
	rm -f "$SC_CTL_DIR/$name.ready" "$SC_CTL_DIR/$name.sock"
	case ${V_KIND[$name]} in
	build | env)
		V_CONTROL[$name]=$SC_CTL_DIR/$name.sock
		variant_command "$name" "$hints" "$uport"
		V_CMD[$name]="${VARIANT_CMD[*]}" # for run.json, to read; never split again
		procs_start "$name" "$log" "$cpus" "${VARIANT_ARGV[@]}"
		;;
	preload | external)
		local port workdir
		port=$(ports_pick_free) || sc_die "no free port found on 127.0.0.1 for $name"
		workdir="$dir/daemons/$name"
		V_WORKDIR[$name]=$workdir
		# The live sampler preloaded first serves `stats` like our builds (docs/daemons.md).
		V_CONTROL[$name]=$SC_CTL_DIR/$name.sock
		V_ADDR[$name]=127.0.0.1:$port
		local DAEMON_TLS=()
		clients_daemon_tls "$name" # --clients: DNS over TLS where the definition serves it
		# The one launch path of daemon rows (scenarios/daemons/lib/run.sh), as the tests use it.
		if ! daemon_command "$name" "$workdir" "${V_ADDR[$name]}" "$hints" "$OPT_cache_size_bytes" \
			"127.0.1.${V_INDEX[$name]}" "$(dirname "$(sc_bin_dir)")" "${V_CONTROL[$name]}" 2>>"$log"; then
			sc_say "variant $name: $DAEMON_FAILURE (see logs/$name.log)"
			events_add "$name" failed "reason=$DAEMON_FAILURE"
			return 1
		fi
		V_DAEMON_PROBE[$name]=$DAEMON_ALLOC_JSON
		V_CMD[$name]="${DAEMON_WORDS[*]}"
		procs_start "$name" "$log" "$cpus" env "${DAEMON_ENV[@]}" "${DAEMON_WORDS[@]}"
		;;
	esac
	V_PID[$name]=$SC_LAST_PID
	# run.json's rows were written before any launch: the command, known now, joins its row.
	runjson_fields ".variants[name=$name]" "command=${V_CMD[$name]}"
}

# variant_wait_ready NAME : waits (bounded) until the row answers; records `ready` with its address.
variant_wait_ready() {
	local name=$1 addr pid=${V_PID[$1]}
	case ${V_KIND[$name]} in
	build | env)
		addr=$(procs_wait_ready "$name" "$SC_CTL_DIR/$name.ready" "$SC_READY_TIMEOUT") || return 1
		V_ADDR[$name]=$addr
		clients_ready "$name" "$SC_CTL_DIR/$name.ready"
		;;
	*)
		local st=0
		daemon_wait_ready "$name" "$pid" "${V_ADDR[$name]}" || st=$?
		if ((st == 1)); then
			procs_reap "$name"
			return 1
		elif ((st == 2)); then
			sc_say "$name did not answer within $DAEMON_READY_TIMEOUT_S s"
			return 1
		fi
		# Refuse a daemon whose preload did not take: it would measure another allocator.
		local probe=${V_DAEMON_PROBE[$name]}
		if ! DAEMON_ALLOC_JSON=$probe daemon_check_allocator "$name" >>"${V_LOG[$name]}" 2>&1; then
			sc_say "variant $name: malloc is not served by ${V_ALLOC[$name]} (see ${V_LOG[$name]}); not run"
			events_add "$name" failed "reason=preload did not take"
			return 1
		fi
		sampler_sidecar "$(daemon_definition "$name")" "${V_WORKDIR[$name]}" "$pid"
		V_VERSION[$name]=$(jq -c . "$probe" 2>/dev/null || echo null)
		runjson_set ".variants[name=$name].version" "${V_VERSION[$name]}"
		# The row's settings, as the daemon's allocator reports them through the probe.
		variants_check_allocator "$name" || return 1
		;;
	esac
	events_add "$name" ready "addr=${V_ADDR[$name]}" "pid:=$pid"
}

# ports_pick_free : a UDP and TCP port free on 127.0.0.1 (for daemons that cannot take port 0).
ports_pick_free() {
	local p i
	for ((i = 0; i < 200; i++)); do
		p=$((20000 + RANDOM % 40000))
		[[ -z $(ss -Hlnu "sport = :$p" 2>/dev/null) && -z $(ss -Hlnt "sport = :$p" 2>/dev/null) ]] && {
			echo "$p"
			return 0
		}
	done
	sc_die "no free port found on 127.0.0.1"
}
