#!/bin/bash
# tests/agent/plan_fixture.sh - what the loopback tests of an agent's plans share (sourced after
# tests/lib.sh with NET set, the rows' block): the programs (the test skipped when one is not
# built), and in $TEST_TMP, where it goes, the variants table $T (the glibc build row, then the
# lines of PLAN_TABLE_EXTRA), the token file `token` (the-token) and root hints naming $NET.1 (the
# rows never ask upstream here: the hints only let them start).
AGENT="$ALLOCSPIKE_BIN/allocspike-agent"
RUN="$ALLOCSPIKE_BIN/allocspike-run"
[[ -x $ALLOCSPIKE_BIN/allocspike-resolver-glibc ]] || skip "allocspike-resolver-glibc is not built"
for p in "$AGENT" "$RUN"; do [[ -x $p ]] || skip "$p is not built"; done
command -v curl >/dev/null || skip "curl not installed"
command -v jq >/dev/null || skip "jq not installed"
cd "$TEST_TMP" || exit 1
T=$TEST_TMP/variants.tsv
{
	printf 'name\tkind\tallocator\tlibc\tlibrary\tbase\tenv\tdefault\tnote\n'
	printf 'glibc\tbuild\tglibc\tglibc\t-\t-\t-\tyes\tthe build row\n'
	printf '%b' "${PLAN_TABLE_EXTRA:-}"
} >"$T"
printf 'the-token\n' >token
chmod 600 token
printf '. 3600 NS a.root.test.\na.root.test. 3600 A %s.1\n' "$NET" >root.hints

# start_agent NAME I [AGENT-OPTION...]: an agent awaiting a plan, its row to serve on $NET.(10+I)
start_agent() {
	local name=$1 i=$2
	shift 2
	start_server "$name" "$TEST_TMP/$name.ready" "$AGENT" --await-plan --variants-table "$T" \
		--resolver-listen "$NET.$((10 + i)):0" --root-hints "$TEST_TMP/root.hints" --upstream-port 53 \
		--control "$TEST_TMP/$name-row.ctl" --token-file "$TEST_TMP/token" --listen 127.0.0.1:0 \
		--host "host$i" --duration 120s --ready-file "$TEST_TMP/$name.ready" "$@" >"$name.addr"
}
# authed PATH ADDR [CURL-OPTION...]: a request with the token, its body into body.txt; its HTTP
# status
authed() {
	local path=$1 addr=$2
	shift 2
	curl -s -o body.txt -w '%{http_code}' -H 'Authorization: Bearer the-token' "$@" "http://$addr$path"
}
# jqe ARGS...: jq -e, its output dropped: a check of a JSON file
jqe() { jq -e "$@" >/dev/null; }
