# scenarios/lib/variants_table.sh - the variants table (variants.tsv, docs/variants.md) in bash arrays,
# for the scenarios (variants.sh), the daemon launcher (daemons/lib/run.sh) and the tests. The
# controller reads and checks it (allocspike-run variants, docs/controller.md); this only fills V_*
# from its lines. Sourced; reading twice is harmless.

declare -gA V_KIND=() V_ALLOC=() V_LIBC=() V_LIB=() V_BASE=() V_ENV=() V_DEFAULT=() V_NOTE=()
declare -ga V_NAMES=() # every row, in table order
VARIANTS_TABLE_ERROR=

# variants_table_read FILE [CONTROLLER] : fills V_NAMES and V_KIND..V_NOTE (by name) from FILE, read
# by CONTROLLER (default: allocspike-run of the scenarios' programs, else of $ALLOCSPIKE_BIN). On a
# malformed table returns 1 with "FILE:LINE: reason" in VARIANTS_TABLE_ERROR.
# shellcheck disable=SC2034 # V_* and VARIANTS_TABLE_ERROR are the callers'
variants_table_read() {
	local file=$1 run=${2:-} out cols
	V_NAMES=()
	V_KIND=() V_ALLOC=() V_LIBC=() V_LIB=() V_BASE=() V_ENV=() V_DEFAULT=() V_NOTE=()
	if [[ -z $run ]] && declare -F sc_bin_dir >/dev/null; then run=$(sc_bin_dir)/allocspike-run; fi
	run=${run:-${ALLOCSPIKE_BIN:-}/allocspike-run}
	if [[ ! -x $run ]]; then
		VARIANTS_TABLE_ERROR="$run is not built (it reads the variants table); build it (scripts/build.sh)"
		return 1
	fi
	# Rows only on success, the reason only on failure: each cell checked free of tabs and newlines.
	out=$("$run" variants --table "$file" 2>&1) || {
		VARIANTS_TABLE_ERROR=${out#allocspike-run variants: }
		return 1
	}
	while IFS=$'\t' read -r -a cols; do
		((${#cols[@]} == 9)) || continue
		V_NAMES+=("${cols[0]}")
		V_KIND[${cols[0]}]=${cols[1]} V_ALLOC[${cols[0]}]=${cols[2]} V_LIBC[${cols[0]}]=${cols[3]}
		V_LIB[${cols[0]}]=${cols[4]} V_BASE[${cols[0]}]=${cols[5]} V_ENV[${cols[0]}]=${cols[6]}
		V_DEFAULT[${cols[0]}]=${cols[7]} V_NOTE[${cols[0]}]=${cols[8]}
	done <<<"$out"
}
