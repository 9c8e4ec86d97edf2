# scenarios/lib/variants_table.sh - the one shell reader of the variants table (variants.tsv,
# docs/variants.md), for the scenarios (variants.sh), the daemon launcher (daemons/lib/run.sh) and the
# tests. Sourced; reading twice is harmless.

declare -gA V_KIND=() V_ALLOC=() V_LIBC=() V_LIB=() V_BASE=() V_ENV=() V_DEFAULT=() V_NOTE=()
declare -ga V_NAMES=() # every row, in table order
VARIANTS_TABLE_ERROR=

# variants_table_read FILE : fills V_NAMES and V_KIND..V_NOTE (by name) from FILE. On a malformed
# table returns 1 with "FILE:LINE: reason" in VARIANTS_TABLE_ERROR.
variants_table_read() {
	local file=$1 lineno=0 header_seen=0 line cols name
	V_NAMES=()
	V_KIND=() V_ALLOC=() V_LIBC=() V_LIB=() V_BASE=() V_ENV=() V_DEFAULT=() V_NOTE=()
	if [[ ! -r $file ]]; then
		VARIANTS_TABLE_ERROR="cannot read the variants table $file"
		return 1
	fi
	while IFS= read -r line || [[ -n $line ]]; do
		lineno=$((lineno + 1))
		[[ -z $line || $line == \#* ]] && continue
		IFS=$'\t' read -r -a cols <<<"$line"
		if ((${#cols[@]} != 9)); then
			VARIANTS_TABLE_ERROR="$file:$lineno: ${#cols[@]} columns, expected 9 (tab-separated)"
			return 1
		fi
		if ((!header_seen)); then
			header_seen=1
			continue
		fi
		name=${cols[0]}
		if [[ -n ${V_KIND[$name]:-} ]]; then
			VARIANTS_TABLE_ERROR="$file:$lineno: variant '$name' appears twice"
			return 1
		fi
		case ${cols[1]} in
		build | env | preload | external) ;;
		*)
			VARIANTS_TABLE_ERROR="$file:$lineno: kind '${cols[1]}' is not build, env, preload or external"
			return 1
			;;
		esac
		if [[ ${cols[1]} != build && ${cols[5]} == - ]]; then
			VARIANTS_TABLE_ERROR="$file:$lineno: a row of kind ${cols[1]} needs a base"
			return 1
		fi
		V_NAMES+=("$name")
		V_KIND[$name]=${cols[1]}
		V_ALLOC[$name]=${cols[2]}
		V_LIBC[$name]=${cols[3]}
		V_LIB[$name]=${cols[4]}
		V_BASE[$name]=${cols[5]}
		V_ENV[$name]=${cols[6]}
		V_DEFAULT[$name]=${cols[7]}
		V_NOTE[$name]=${cols[8]}
	done <"$file"
	for name in "${V_NAMES[@]}"; do
		if [[ ${V_KIND[$name]} == env && ${V_KIND[${V_BASE[$name]}]:-} != build ]]; then
			VARIANTS_TABLE_ERROR="$file: env row '$name' has base '${V_BASE[$name]}', which is not a build row"
			return 1
		fi
	done
}

# variants_table_rows : every row read, its 9 cells tab-separated, in table order.
variants_table_rows() {
	local n
	for n in "${V_NAMES[@]}"; do
		printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$n" "${V_KIND[$n]}" "${V_ALLOC[$n]}" "${V_LIBC[$n]}" \
			"${V_LIB[$n]}" "${V_BASE[$n]}" "${V_ENV[$n]}" "${V_DEFAULT[$n]}" "${V_NOTE[$n]}"
	done
}
