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

# variants_program NAME : the resolver program a build or env row runs (an env row its base's).
variants_program() { echo "allocspike-resolver-$([[ ${V_KIND[$1]} == env ]] && echo "${V_BASE[$1]}" || echo "$1")"; }
