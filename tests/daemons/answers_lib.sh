# tests/daemons/answers_lib.sh - shared by the daemon tests: what each definition runs, where it can
# listen, the simulated hierarchy on port 53 and the comparison of two allocspike-test-answers
# outputs. Sourced after tests/lib.sh.

# daemon_executable BASE / daemon_package BASE : what a definition runs, and its Debian package.
daemon_executable() {
	case $1 in
	pdns-recursor) echo pdns_recursor ;;
	*) echo "$1" ;;
	esac
}
daemon_package() {
	case $1 in
	kresd) echo knot-resolver ;;
	named) echo bind9 ;;
	*) echo "$1" ;;
	esac
}

# daemon_listen BASE ADDR:PORT : the address a test gives the definition: ADDR:PORT, except for
# named, which listens only on interface addresses (docs/daemons.md): 127.0.0.1 on a random port.
daemon_listen() {
	if [[ $1 == named ]]; then
		echo "127.0.0.1:$((20000 + RANDOM % 40000))"
	else
		echo "$2"
	fi
}

# hierarchy_start ARGS... : allocspike-upstream on 127.58.128.0/17 port 53 (hold the port53 lock),
# root hints in $TEST_TMP/hints; skips when the program is not built.
hierarchy_start() {
	local upstream=$ALLOCSPIKE_BIN/allocspike-upstream
	[[ -x $upstream ]] || skip "allocspike-upstream not built"
	# start_server runs in this shell, not in $(...), so that its pid is recorded for the cleanup.
	start_server upstream "$TEST_TMP/upstream.ready" "$upstream" --hierarchy-block 127.58.128.0/17 --port 53 \
		--root-hints "$TEST_TMP/hints" --ready-file "$TEST_TMP/upstream.ready" "$@" \
		>"$TEST_TMP/upstream.addr" || exit 1
	HIERARCHY_ADDR=$(cat "$TEST_TMP/upstream.addr")
}

# answers_compare REF OTHER REF_NAME OTHER_NAME : lists every line where OTHER's rcode or answer
# differs from REF's (same queries, same order). A difference where either side answered from its
# own local data (AA set: special-use names such as localhost. or private reverse zones, which
# unbound, kresd, pdns_recursor and named answer without asking the hierarchy) is listed as
# "local" and not counted. Sets ANSWERS_COMPARED, ANSWERS_DIFFERENT and ANSWERS_LOCAL.
answers_compare() {
	local ref=$1 other=$2 ref_name=$3 other_name=$4 counts
	counts=$(paste "$ref" "$other" | awk -F'\t' -v r="$ref_name" -v o="$other_name" '
		{ n++ }
		$1 != $6 || $2 != $7 { print "MISMATCH line " NR ": queries differ (" $1 " " $2 " / " $6 " " $7 ")"; d++; next }
		$3 == $8 && $4 == $9 { next }
		{
			local_data = ($5 == "aa" || $10 == "aa")
			kind = local_data ? "local" : "DIFF "
			if (local_data) l++; else d++
			print kind " " $1 " " $2 ": " r "=" $3 " " $4 (($5 == "aa") ? " (aa)" : "") "  " o "=" $8 " " $9 (($10 == "aa") ? " (aa)" : "")
		}
		END { print "COUNTS " n + 0 " " d + 0 " " l + 0 }')
	grep -v '^COUNTS ' <<<"$counts" || true
	read -r _ ANSWERS_COMPARED ANSWERS_DIFFERENT ANSWERS_LOCAL < <(grep '^COUNTS ' <<<"$counts")
	echo "compared $ANSWERS_COMPARED answers of $other_name with $ref_name: $ANSWERS_DIFFERENT different," \
		"$ANSWERS_LOCAL from local data (AA on either side)"
}

# answers_rcodes FILE : "NOERROR=n NXDOMAIN=n ..." of an answers file.
answers_rcodes() {
	cut -f3 "$1" | sort | uniq -c | awk '{ printf "%s%s=%s", (NR > 1 ? " " : ""), $2, $1 }'
}
