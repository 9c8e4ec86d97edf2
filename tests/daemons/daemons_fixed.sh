#!/bin/bash
# tests/daemons/daemons_fixed.sh - every preload/external row of variants.tsv resolves a tiny fixed
# hierarchy (knotd serving fixtures/root.zone and fixtures/example.zone on port 53) with the
# allocator its row names, with the live sampler preloaded first (live bytes, the allocator's
# statistics and the daemon's own figures on its stats socket); a row whose preload does not take
# is refused.
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
source "$ALLOCSPIKE_SOURCE_DIR/scenarios/daemons/lib/run.sh"
source "$ALLOCSPIKE_SOURCE_DIR/tests/daemons/answers_lib.sh"
fixtures=$ALLOCSPIKE_SOURCE_DIR/tests/daemons/fixtures
command -v knotd >/dev/null || skip "knotd not installed (apt-get install knot)"
command -v kdig >/dev/null || skip "kdig not installed (apt-get install knot-dnsutils)"

# knotd on 127.58.0.53-54 port 53 (the port53 lock is held); readiness: it answers the root SOA.
if kdig @127.58.0.53 +norec +timeout=1 +retry=0 . SOA >/dev/null 2>&1; then
	echo "FAIL something already answers on 127.58.0.53:53 (a leftover knotd?)"
	exit 1
fi
sed -e "s|@DIR@|$TEST_TMP/knot|g" -e "s|@FIXTURES@|$fixtures|g" "$fixtures/knot.conf.in" >"$TEST_TMP/knot.conf"
mkdir -p "$TEST_TMP/knot"
knotd -c "$TEST_TMP/knot.conf" >"$TEST_TMP/knotd.log" 2>&1 &
_test_pids+=($!)
for ((i = 0; i < 100; i++)); do
	kdig @127.58.0.53 +norec +timeout=1 +retry=0 . SOA 2>/dev/null | grep -q 'status: NOERROR' && break
	sleep 0.1
done
((i < 100)) || { cat "$TEST_TMP/knotd.log"; echo "FAIL knotd did not start"; exit 1; }

# answer SERVER NAME TYPE : "RCODE sorted answer records without TTL" (one line).
answer() {
	local out
	out=$(kdig @"${1%:*}" -p "${1##*:}" +timeout=2 +retry=1 "$2" "$3" 2>&1)
	local rcode
	rcode=$(grep -o 'status: [A-Z]*' <<<"$out" | cut -d' ' -f2)
	echo "$rcode $(sed -n '/ANSWER SECTION/,/^$/p' <<<"$out" | grep -v '^;' | awk 'NF { $2 = ""; print }' | sort | tr -s ' ' | tr '\n' '|')"
}

expect_www="NOERROR www.example. IN A 192.0.2.1|www.example. IN A 192.0.2.2|"
expect_alias="NOERROR alias.example. IN CNAME www.example.|www.example. IN A 192.0.2.1|www.example. IN A 192.0.2.2|"
expect_mx="NOERROR mail.example. IN MX 10 www.example.|"
expect_nx="NXDOMAIN "

# daemon_sigterm_status BASE : pdns_recursor 4.8 installs no SIGTERM handler and dies by the
# signal (128 + 15); the others exit 0.
daemon_sigterm_status() {
	[[ $1 == pdns-recursor ]] && echo 143 || echo 0
}

# stats_check NAME BASE : the definition's stats command prints one JSON object with a numeric
# in-flight count and a cache that holds what was just resolved; required for the daemons that
# have a control channel definition (pdns-recursor, named), checked for others when they answer.
stats_check() {
	local name=$1 base=$2 def=$ALLOCSPIKE_SOURCE_DIR/scenarios/daemons/$2.sh out
	if ! out=$("$def" stats --workdir "$TEST_TMP/$name" --build "$ALLOCSPIKE_BUILD_DIR" 2>"$TEST_TMP/$name.stats.err"); then
		if [[ $base == pdns-recursor || $base == named ]]; then
			check "$name stats answers ($(cat "$TEST_TMP/$name.stats.err"))" false
		fi
		return 0
	fi
	check_eq "$name stats: one JSON object, inflight and cache_entries numbers ($out)" true \
		"$(jq -c 'type == "object" and (.inflight | type == "number") and (.cache_entries | type == "number")' <<<"$out")"
	check_eq "$name stats: the cache holds the names just resolved" true "$(jq -c '.cache_entries > 0' <<<"$out")"
	request_list_check "$name stats" "$base" "$out"
}

# request_list_keys BASE : the request_list_* keys whose counters BASE has (docs/daemons.md,
# "Request list"), as a sorted JSON array; a definition leaves the others out rather than invent them.
request_list_keys() {
	case $1 in
	unbound) echo '["request_list_current","request_list_exceeded","request_list_overwritten"]' ;;
	pdns-recursor) echo '["request_list_current","request_list_exceeded"]' ;;
	named) echo '["request_list_current","request_list_overwritten"]' ;;
	*) echo '[]' ;;
	esac
}

# request_list_check WHAT BASE JSON : JSON has exactly BASE's request_list_* keys, each a number.
request_list_check() {
	local what=$1 base=$2 json=$3 keys
	keys=$(request_list_keys "$base")
	check_eq "$what: the request_list_* keys $base has, as numbers" "$keys" \
		"$(jq -c '[to_entries[] | select(.key | startswith("request_list_")) |
			if .value | type == "number" then .key else "\(.key) is \(.value | type)" end] | sort' <<<"$json")"
}

mapfile -t rows < <(variants_rows | awk -F'\t' '$2 == "preload" || $2 == "external"')
((${#rows[@]} > 0)) || { echo "FAIL no preload/external rows in variants.tsv"; exit 1; }
n=0
for row in "${rows[@]}"; do
	IFS=$'\t' read -r name _ allocator _ _ base envcell _ _ <<<"$row"
	if ! command -v "$(daemon_executable "$base")" >/dev/null; then
		echo "skip row $name: $(daemon_executable "$base") not installed (apt-get install $(daemon_package "$base"))"
		continue
	fi
	n=$((n + 1))
	listen=$(daemon_listen "$base" "127.58.1.$n:5300")
	sock=$TEST_TMP/$name.sampler
	if ! daemon_start "$name" --listen "$listen" --root-hints "$fixtures/root.hints" --cache-size 16M \
		--workdir "$TEST_TMP/$name" --build "$ALLOCSPIKE_BUILD_DIR" --sampler "$sock"; then
		check "$name starts with $allocator serving malloc" false
		continue
	fi
	_test_pids+=("$DAEMON_PID")
	check_eq "$name allocator" "$allocator" "$(jq -r .allocator "$TEST_TMP/$name/alloc.json")"
	check_eq "$name www.example A" "$expect_www" "$(answer "$listen" www.example. A)"
	check_eq "$name alias.example A" "$expect_alias" "$(answer "$listen" alias.example. A)"
	check_eq "$name mail.example MX" "$expect_mx" "$(answer "$listen" mail.example. MX)"
	check_eq "$name nx.example A" "$expect_nx" "$(answer "$listen" nx.example. A)"
	# The row's thread count reaches the daemon (ALLOCSPIKE_DAEMON_THREADS in its env cell).
	if [[ $envcell == *ALLOCSPIKE_DAEMON_THREADS=1* ]]; then
		check "$name runs one worker thread" grep -qE '^threads=1$| -n 1 ' \
			<(cat "$TEST_TMP/$name"/*.conf; tr '\0' ' ' </proc/"$DAEMON_PID"/cmdline)
	fi
	stats_check "$name" "$base"
	# The sidecar's first `stats` lands within a few seconds; the sampler then carries it.
	for ((i = 0; i < 100; i++)); do
		[[ -s $TEST_TMP/$name/daemon-stats.json ]] && break
		sleep 0.1
	done
	stats=$(control_send "$sock" stats)
	check_eq "$name sampler: the row's allocator" "$allocator" "$(jq -r .alloc.allocator <<<"$stats")"
	# heap_bytes is the resident heap (docs/allocator-stats.md): a daemon's live blocks it never
	# touched (kresd's pools, unbound's preallocated caches) are live but not resident, so live may
	# exceed it; the resident heap is at most both measured bounds.
	check "$name sampler: live_bytes > 0, 0 < heap_bytes <= both bounds ($(jq -c '[.live_bytes, .alloc.heap_bytes, .alloc.own.heap_maps_bytes, .alloc.own.heap_uncapped_bytes]' <<<"$stats"))" \
		jq -e '.live_bytes > 0 and .alloc.heap_bytes > 0
			and .alloc.heap_bytes <= .alloc.own.heap_maps_bytes and .alloc.heap_bytes <= .alloc.own.heap_uncapped_bytes' <<<"$stats"
	check "$name sampler: the daemon's own inflight and cache_entries" \
		jq -e '(.inflight | type) == "number" and (.cache_entries | type) == "number"' <<<"$stats"
	request_list_check "$name sampler" "$base" "$stats"
	daemon_stop "$DAEMON_PID"
	status=$?
	check_eq "$name stops on SIGTERM (exit status)" "$(daemon_sigterm_status "$base")" "$status"
done
((n > 0)) || skip "none of kresd, unbound, pdns_recursor, named is installed"

# Refusal: a row claiming glibc whose shim is not preloaded (kresd keeps jemalloc) must not run.
if command -v kresd >/dev/null; then
	fake=$TEST_TMP/variants.tsv
	{ head -n 1 < <(grep -v '^#' "$ALLOCSPIKE_SOURCE_DIR/variants.tsv")
	  printf 'kresd-fake\tpreload\tglibc\tglibc\t-\tkresd\t-\tno\tclaims glibc, preloads nothing\n'; } >"$fake"
	if daemon_start kresd-fake --listen 127.58.1.99:5300 --root-hints "$fixtures/root.hints" \
		--cache-size 16M --workdir "$TEST_TMP/fake" --build "$ALLOCSPIKE_BUILD_DIR" \
		--variants "$fake" 2>"$TEST_TMP/fake.err"; then
		_test_pids+=("$DAEMON_PID")
		check "a glibc row without its shim is refused" false
	else
		check "a glibc row without its shim is refused" grep -q "the table says 'glibc'; not run" "$TEST_TMP/fake.err"
		check "the refused daemon is stopped" bash -c "! kdig @127.58.1.99 -p 5300 +timeout=1 +retry=0 localhost. A >/dev/null"
	fi
fi
# Refusal: named with glibc's shim but without the mallocx adapter keeps its memory contexts on
# jemalloc (libisc calls mallocx), so the row must not run.
if command -v named >/dev/null; then
	fake=$TEST_TMP/variants-named.tsv
	{ head -n 1 < <(grep -v '^#' "$ALLOCSPIKE_SOURCE_DIR/variants.tsv")
	  printf 'named-fake\tpreload\tglibc\tglibc\tlib/liballocspike-glibc-malloc.so\tnamed\t-\tno\tshim without the mallocx adapter\n'; } >"$fake"
	if daemon_start named-fake --listen "$(daemon_listen named -)" \
		--root-hints "$fixtures/root.hints" --cache-size 16M --workdir "$TEST_TMP/named-fake" \
		--build "$ALLOCSPIKE_BUILD_DIR" --variants "$fake" 2>"$TEST_TMP/named-fake.err"; then
		_test_pids+=("$DAEMON_PID")
		check "a named glibc row without the mallocx adapter is refused" false
	else
		check "a named glibc row without the mallocx adapter is refused" \
			grep -q "mallocx is served by .*libjemalloc" "$TEST_TMP/named-fake.err"
	fi
fi
# The answers tool (used by the differential test) on unbound and on our resolver: both must give
# exactly the expected normalised answers for the fixture queries.
answers_check() {
	local who=$1 addr=$2
	"$ALLOCSPIKE_BIN/allocspike-test-answers" -s "$addr" -d "$fixtures/queries.txt" --timeout-ms 2000 \
		>"$TEST_TMP/$who.answers" 2>"$TEST_TMP/$who.answers.err"
	check "$who answers the fixture queries as expected" \
		diff <(grep -v '^#' "$fixtures/answers.expected") "$TEST_TMP/$who.answers"
}
if command -v unbound >/dev/null && daemon_start unbound --listen 127.58.1.100:5300 \
	--root-hints "$fixtures/root.hints" --cache-size 16M --workdir "$TEST_TMP/unbound-answers" \
	--build "$ALLOCSPIKE_BUILD_DIR"; then
	_test_pids+=("$DAEMON_PID")
	answers_check unbound 127.58.1.100:5300
fi
resolver=$ALLOCSPIKE_BIN/allocspike-resolver-glibc
if [[ -x $resolver ]]; then
	start_server resolver "$TEST_TMP/resolver.ready" "$resolver" --listen 127.58.1.101:0 \
		--root-hints "$fixtures/root.hints" --upstream-port 53 --ready-file "$TEST_TMP/resolver.ready" \
		>"$TEST_TMP/resolver.addr"
	addr=$(cat "$TEST_TMP/resolver.addr")
	check "our resolver starts" test -n "$addr"
	[[ -z $addr ]] || answers_check resolver "$addr"
else
	echo "skip our resolver: $resolver not built"
fi
finish
