# tests/resolver/hierarchy_lib.sh - a five-server hierarchy of test responders and a resolver over it.
# Sourced by the resolver's integration tests after tests/lib.sh.
RESPONDER="$ALLOCSPIKE_BIN/allocspike-test-responder"
[[ -x "$RESPONDER" ]] || skip "allocspike-test-responder not built"
command -v kdig >/dev/null || skip "kdig not installed (knot-dnsutils)"
command -v jq >/dev/null || skip "jq not installed"

# resolver_binary : the glibc variant, or the first variant built.
resolver_binary() {
	local exe
	for exe in "$ALLOCSPIKE_BIN/allocspike-resolver-glibc" "$ALLOCSPIKE_BIN"/allocspike-resolver-*; do
		[[ -x "$exe" ]] && { echo "$exe"; return 0; }
	done
	return 1
}

# start_hierarchy NET : root NET.1, test. NET.2, example.test. NET.3, sub/victim NET.4, glueless NET.5,
# all on one port (HPORT), each logging its queries to $TEST_TMP/<name>.queries.
start_hierarchy() {
	local net=$1 i=1 name
	mkdir -p "$TEST_TMP/fix"
	HPORT=0
	for name in root tld example sub glueless; do
		sed "s/@NET@/$net/g" "$ALLOCSPIKE_SOURCE_DIR/tests/resolver/fixtures/$name.txt" >"$TEST_TMP/fix/$name.txt"
		start_server "$name" "$TEST_TMP/$name.ready" "$RESPONDER" --listen "$net.$i:$HPORT" \
			--fixture "$TEST_TMP/fix/$name.txt" --log "$TEST_TMP/$name.queries" \
			--ready-file "$TEST_TMP/$name.ready" >"$TEST_TMP/$name.addr" || return 1
		HPORT=$(sed 's/.*://' "$TEST_TMP/$name.addr")
		i=$((i + 1))
	done
}

# start_resolver NAME ADDR EXTRA_ARGS... : a resolver listening on ADDR:0 over the hierarchy;
# sets RADDR (ip), RPORT, RPID and RCTL (its control socket).
start_resolver() {
	local name=$1 addr=$2
	shift 2
	RCTL="$TEST_TMP/$name.ctl"
	start_server "$name" "$TEST_TMP/$name.ready" "$(resolver_binary)" --listen "$addr:0" \
		--root "$NET.1" --upstream-port "$HPORT" --upstream-timeout-ms 700 \
		--control "$RCTL" --ready-file "$TEST_TMP/$name.ready" "$@" >"$TEST_TMP/$name.addr" || return 1
	RPID=${_test_pids[-1]}
	RADDR=$(sed 's/:[0-9]*$//' "$TEST_TMP/$name.addr")
	RPORT=$(sed 's/.*://' "$TEST_TMP/$name.addr")
}

# ask NAME TYPE [kdig options] : full kdig output from the resolver.
ask() {
	local name=$1 type=$2
	shift 2
	kdig @"$RADDR" -p "$RPORT" +time=4 +retry=0 "$@" "$name" "$type" 2>&1
}

# answers NAME TYPE : just the answer section's rdata, sorted.
answers() {
	kdig @"$RADDR" -p "$RPORT" +time=4 +retry=0 +short "$1" "$2" 2>&1 | sort
}

# control CMD [SOCK] : one line command to the resolver's control socket; prints the reply line.
control() {
	control_send "${2:-$RCTL}" "$1"
}

# stat KEY : one counter from `stats`.
stat() {
	control stats | jq -r ".$1"
}

# logged SERVER NAME TYPE : how many queries SERVER's responder received for NAME TYPE.
logged() {
	grep -c " $2 $3 " "$TEST_TMP/$1.queries" || true
}
