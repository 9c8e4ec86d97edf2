# scenarios/lib/variants.sh - the variants table (variants.tsv, docs/variants.md) and the one way any
# row runs: build (its own binary), env (the base row's binary with the row's environment), preload
# and external (a daemon definition in scenarios/daemons/<base>.sh, see docs/variants.md), each
# started, waited for and targeted by the run's controller, which builds its command
# (docs/controller.md, "A run's rows").

# shellcheck source=scenarios/lib/variants_table.sh
source "$(dirname "${BASH_SOURCE[0]}")/variants_table.sh"
# shellcheck source=scenarios/daemons/lib/run.sh
source "$(dirname "${BASH_SOURCE[0]}")/../daemons/lib/run.sh"

SC_VARIANTS=()     # the rows this run uses
SC_VARIANTS_RUN=   # the controller that reads the table
SC_VARIANTS_TABLE= # and the table read
# V_WRAP: build/env rows: a command put before the binary, one argument a line (cpu.sh: valgrind, perf
# stat; footprint.sh: the live sampler preloaded), drive's wrap= of the row
declare -A V_WRAP=()
# seconds a build or env row has to print its ready line (rows-ready; a daemon's launcher has its own)
SC_READY_TIMEOUT=30

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
	local out name
	out=$("$SC_VARIANTS_RUN" variants --table "$SC_VARIANTS_TABLE" --select "$1" 2>&1) ||
		opts_fail "--variants: ${out#allocspike-run variants: --select: }"
	SC_VARIANTS=()
	while IFS=$'\t' read -r name _; do SC_VARIANTS+=("$name"); done <<<"$out"
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

# variants_rows_settings HINTS UPSTREAM_PORT : the settings the controller starts each row with, one a
# line (rows-setup's, row-command's and dry-run's words): the table, the programs, the run's rows in order (row N sends upstream from its own
# 127.0.1.N, so the hierarchy counts them apart), the root hints, the upstream port, the --clients
# run's test certificate, our resolver's settings.
variants_rows_settings() {
	local settings=()
	mapfile -t settings < <(variants_resolver_settings)
	printf '%s\n' "$SC_VARIANTS_TABLE" "$(sc_bin_dir)" "${DAEMON_RUN_DIR%/lib}" "$(
		IFS=,
		echo "${SC_VARIANTS[*]}"
	)" "$1" "$2" "${SC_TLS_DIR:-}" -- "${settings[@]}"
}
