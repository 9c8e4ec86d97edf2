# scenarios/lib/variants_table.sh - the one shell reader of the variants table (variants.tsv,
# docs/variants.md), for the scenarios (variants.sh), the daemon launcher (daemons/lib/run.sh) and the
# tests. Sourced; reading twice is harmless.

declare -gA V_KIND=() V_ALLOC=() V_LIBC=() V_LIB=() V_BASE=() V_ENV=() V_DEFAULT=() V_NOTE=()
declare -ga V_NAMES=() # every row, in table order
VARIANTS_TABLE_ERROR=

# variants_table_name_problem TEXT : why TEXT is not a name (docs/variants.md, "Names": 1 to 64
# characters of A-Z a-z 0-9 . _ -, the first not . or -; the rule and the words of
# common/identifier.c); nothing printed, status 0, when it is one.
variants_table_name_problem() {
	local LC_ALL=C # bytes, not characters, and ranges without the locale's letters
	local t=$1 i c
	if [[ -z $t ]]; then
		echo "empty name"
	elif ((${#t} > 64)); then
		echo "name of ${#t} characters (at most 64)"
	elif [[ $t == [.-]* ]]; then
		echo "name starting with '.' or '-'"
	else
		for ((i = 0; i < ${#t}; i++)); do
			c=${t:i:1}
			[[ $c == [ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-] ]] && continue
			if [[ $c == [[:graph:]] ]]; then
				echo "character '$c' at position $((i + 1)) of a name (allowed: A-Z a-z 0-9 . _ -)"
			else
				printf 'byte 0x%02x at position %d of a name (allowed: A-Z a-z 0-9 . _ -)\n' "'$c" $((i + 1))
			fi
			return 1
		done
		return 0
	fi
	return 1
}

# variants_table_env_problem CELL : why an `env` cell is not `-` or words NAME=value (NAME a shell
# variable name): any other word would be run as the command by env(1). Status 0 when it is.
variants_table_env_problem() {
	local LC_ALL=C word words
	[[ $1 != - ]] || return 0
	read -r -a words <<<"$1"
	((${#words[@]})) || {
		echo "empty (write - for no environment)"
		return 1
	}
	for word in "${words[@]}"; do
		[[ ! $word =~ ^[A-Za-z_][A-Za-z0-9_]*= ]] || continue
		echo "word '$word' is not NAME=value (NAME: letters, digits and _, not first a digit)"
		return 1
	done
}

# variants_table_read FILE : fills V_NAMES and V_KIND..V_NOTE (by name) from FILE. On a malformed
# table returns 1 with "FILE:LINE: reason" in VARIANTS_TABLE_ERROR. Every row is checked here, before
# anything runs: its name, base and allocator are names (variants_table_name_problem), since they
# become file names, paths of daemon definitions and command words; its env cell is NAME=value words.
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
		if ! variants_table_row_check "$file:$lineno" "${cols[@]}"; then
			return 1
		fi
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

# variants_table_row_check WHERE CELL... : the row's name, allocator, base and env cells (base may be -
# where the row has none); on a bad one sets VARIANTS_TABLE_ERROR to "WHERE: column 'cell': reason"
# and fails.
variants_table_row_check() {
	local where=$1 problem column cell shown
	shift
	for column in name allocator base env; do
		case $column in
		name) cell=$1 ;;
		allocator) cell=$3 ;;
		base) cell=$6 ;;
		env) cell=$7 ;;
		esac
		[[ $column != base || $cell != - ]] || continue
		if [[ $column == env ]]; then
			problem=$(variants_table_env_problem "$cell") && continue
		else
			problem=$(variants_table_name_problem "$cell") && continue
		fi
		# A control character is shown escaped, never sent to the terminal as it is.
		shown="'$cell'"
		[[ $cell != *[[:cntrl:]]* ]] || shown=$(printf '%q' "$cell")
		VARIANTS_TABLE_ERROR="$where: $column $shown: $problem"
		return 1
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
