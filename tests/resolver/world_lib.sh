# tests/resolver/world_lib.sh - the simulated hierarchy (allocspike-upstream) and a resolver build
# over it. Sourced by the resolver's integration tests after tests/lib.sh.
UPSTREAM="$ALLOCSPIKE_BIN/allocspike-upstream"
[[ -x $UPSTREAM ]] || skip "allocspike-upstream not built"
command -v jq >/dev/null || skip "jq not installed"

# start_world NAME ARGS... : allocspike-upstream on port 0 with the world ARGS give (its
# --hierarchy-block among them); sets HPORT and HINTS (its root hints file).
start_world() {
	local name=$1
	shift
	HINTS="$TEST_TMP/$name.hints"
	start_server "$name" "$TEST_TMP/$name.ready" "$UPSTREAM" --port 0 "$@" --root-hints "$HINTS" \
		--ready-file "$TEST_TMP/$name.ready" >"$TEST_TMP/$name.addr" || return 1
	HPORT=$(sed 's/.*://' "$TEST_TMP/$name.addr")
}

# start_world_resolver NAME BINARY IP ARGS... : BINARY listening on IP:0 over the world started
# last, with ARGS; sets RADDR, RPORT, RPID and RCTL (its control socket).
start_world_resolver() {
	local name=$1 binary=$2
	RADDR=$3
	shift 3
	RCTL="$TEST_TMP/$name.ctl"
	start_server "$name" "$TEST_TMP/$name.ready" "$binary" --listen "$RADDR:0" --root-hints "$HINTS" \
		--upstream-port "$HPORT" --control "$RCTL" --ready-file "$TEST_TMP/$name.ready" "$@" \
		>"$TEST_TMP/$name.addr" || return 1
	RPID=${_test_pids[-1]}
	RPORT=$(sed 's/.*://' "$TEST_TMP/$name.addr")
}
