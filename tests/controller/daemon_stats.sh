#!/bin/bash
# tests/controller/daemon_stats.sh - allocspike-run daemon-stats, the daemon definitions' figures
# from their daemons' counters (docs/daemons.md, "The figures"), on hand-written outputs of the
# shapes unbound-control stats_noreset, named's /json/v1/server and /json/v1/mem, kresd's control
# socket and rec_control get print: the sums, absent counters (required: an error; //0; //null),
# a value that is no number and an output that is no JSON refused (nothing on stdout, never a 0);
# the definitions' `stats` through it with stub tools (the same line, the same exit status and
# `<base>.sh: stats: ` message as before); unix-ask against a live sampler's socket.
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
RUN="$ALLOCSPIKE_BIN/allocspike-run"
F=$ALLOCSPIKE_SOURCE_DIR/tests/controller/fixtures/daemon-stats
D=$ALLOCSPIKE_SOURCE_DIR/scenarios/daemons
cd "$TEST_TMP" || exit 1

UNBOUND=(inflight=total.requestlist.current.all cache_entries=msg.cache.count//0+rrset.cache.count//0
	cache_bytes=mem.cache.message//0+mem.cache.rrset//0 request_list_current=total.requestlist.current.user
	request_list_exceeded=total.requestlist.exceeded request_list_overwritten=total.requestlist.overwritten)
C=views._default.resolver.cachestats
NAMED=(inflight=nsstats.RecursClients//0 cache_entries=$C.CacheNodes//0
	cache_bytes=$C.TreeMemInUse//0+$C.HeapMemInUse//0 malloced_bytes=memory.Malloced//null
	request_list_current=nsstats.RecursClients//0 request_list_overwritten=nsstats.RecLimitDropped//0)
REC_NAMES=concurrent-queries,cache-entries,negcache-entries,packetcache-entries,packetcache-bytes,over-capacity-drops
REC=(inflight=concurrent-queries cache_entries=cache-entries negcache_entries=negcache-entries
	packetcache_entries=packetcache-entries packetcache_bytes=packetcache-bytes
	request_list_current=concurrent-queries request_list_exceeded=over-capacity-drops)

unbound_line='{"inflight":9,"cache_entries":4700,"cache_bytes":1999999,"request_list_current":5,"request_list_exceeded":3,"request_list_overwritten":2}'
named_line='{"inflight":4,"cache_entries":321,"cache_bytes":123456,"malloced_bytes":5555555,"request_list_current":4,"request_list_overwritten":6}'
named_idle_line='{"inflight":0,"cache_entries":0,"cache_bytes":9216,"malloced_bytes":5555555,"request_list_current":0,"request_list_overwritten":0}'
kresd_line='{"inflight":3,"cache_entries":42,"cache_bytes":null}'
rec_line='{"inflight":7,"cache_entries":9000,"negcache_entries":12,"packetcache_entries":3000,"packetcache_bytes":1500000,"request_list_current":7,"request_list_exceeded":4}'

# refused STATUS WHAT MESSAGE ARGS... : daemon-stats ARGS exits STATUS, prints nothing on stdout
# and MESSAGE on stderr.
refused() {
	local status=$1 what=$2 message=$3 st=0
	shift 3
	"$RUN" daemon-stats "$@" >out.txt 2>err.txt || st=$?
	check_eq "$what: exit $status" "$status" "$st"
	check "$what: nothing on stdout (no made-up figure)" test ! -s out.txt
	check "$what: says '$message'" grep -qF -- "$message" err.txt
}

# the sums, the keys in the order asked, integers
check_eq "unbound: the sums, required and 0-when-absent" "$unbound_line" \
	"$("$RUN" daemon-stats --text unbound-control="$F/unbound.txt" "${UNBOUND[@]}")"
check_eq "unbound: stdin as the output" "$unbound_line" \
	"$("$RUN" daemon-stats --text unbound-control=- "${UNBOUND[@]}" <"$F/unbound.txt")"
check_eq "named: two documents, paths, //0 and //null" "$named_line" \
	"$("$RUN" daemon-stats --json server="$F/named-server.json" --json mem="$F/named-mem.json" "${NAMED[@]}")"
check_eq "named idle: counters named omits while 0 give 0" "$named_idle_line" \
	"$("$RUN" daemon-stats --json server="$F/named-server-idle.json" --json mem="$F/named-mem.json" "${NAMED[@]}")"
check_eq "named without /json/v1/mem's Malloced: null, not 0" '{"malloced_bytes":null}' \
	"$("$RUN" daemon-stats --json server="$F/named-server.json" malloced_bytes=memory.Malloced//null)"
check_eq "kresd: its object, cache_bytes null" "$kresd_line" \
	"$(grep -o '{.*}' "$F/kresd-reply.txt" | "$RUN" daemon-stats --json kresd=- inflight=inflight//null \
		cache_entries=cache_entries//null cache_bytes=null)"
check_eq "kresd without inflight: null" '{"inflight":null,"cache_entries":42,"cache_bytes":null}' \
	"$("$RUN" daemon-stats --json kresd="$F/kresd-no-inflight.json" inflight=inflight//null \
		cache_entries=cache_entries//null cache_bytes=null)"
check_eq "rec_control: values named in order, one used twice" "$rec_line" \
	"$("$RUN" daemon-stats --values rec_control="$F/rec_control.txt" "$REC_NAMES" "${REC[@]}")"
check_eq "a sum up to the largest JSON integer" '{"x":9223372036854775807}' \
	"$(printf 'a=9223372036854775806\nb=1\n' | "$RUN" daemon-stats --text t=- x=a+b)"

# what the daemon did not print, or printed wrong
refused 1 "a required counter absent" "unbound-control printed no total.requestlist.current.user" \
	--text unbound-control="$F/unbound-no-current-user.txt" "${UNBOUND[@]}"
refused 1 "a summed counter that is no number" "unbound-control: mem.cache.rrset: '12k' is not a whole number" \
	--text unbound-control="$F/unbound-not-a-number.txt" "${UNBOUND[@]}"
refused 1 "a line that is no NAME=VALUE" "t: line 2 is not NAME=VALUE" --text t=- x=a <<<$'a=1\nerror: no connection'
refused 1 "named's answer no JSON" "server is not JSON" \
	--json server="$F/not-json.txt" --json mem="$F/named-mem.json" "${NAMED[@]}"
refused 1 "a JSON array, no object" "server is not a JSON object" --json server=- x=a//0 <<<'[1,2]'
refused 1 "a JSON counter as a string" "server: nsstats.RecursClients: '\"4\"' is not a whole number" \
	--json server=- x=nsstats.RecursClients//0 <<<'{"nsstats":{"RecursClients":"4"}}'
refused 1 "a negative JSON counter" "is not a whole number" --json k=- x=a//0 <<<'{"a":-1}'
refused 1 "a JSON counter with a fraction" "'1.5' is not a whole number" --json k=- x=a//0 <<<'{"a":1.5}'
refused 1 "a path through a number" "a step of the path is not an object" --json k=- x=a.b//0 <<<'{"a":3}'
refused 1 "a required JSON counter absent" "k printed no inflight" --json k=- x=inflight <<<'{}'
refused 1 "rec_control with a line short" "rec_control answered 5 lines, not 6" \
	--values rec_control="$F/rec_control-five-lines.txt" "$REC_NAMES" "${REC[@]}"
refused 1 "rec_control's unknown statistic" "rec_control: negcache-entries: 'Unknown statistic negcache-entries' is not a whole number" \
	--values rec_control="$F/rec_control-unknown.txt" "$REC_NAMES" "${REC[@]}"
refused 1 "a sum past the largest JSON integer" "x: the sum outgrows a JSON integer" \
	--text t=- x=a+b <<<$'a=9223372036854775807\nb=1'
refused 1 "an output that cannot be read" "t: cannot read $TEST_TMP/none" --text t="$TEST_TMP/none" x=a

# words that are no such words
refused 2 "no figure" "at least one OUTPUT and one FIGURE" --text t=- <<<'a=1'
refused 2 "no output" "at least one OUTPUT and one FIGURE" x=a
refused 2 "a figure without EXPR" "'x' is not FIGURE=EXPR" --text t=- x <<<'a=1'
refused 2 "a default other than 0 or null" "x: 'a//7' is not COUNTER[//0|//null]" --text t=- x=a//7 <<<'a=1'
refused 2 "an empty term" "x: '' is not" --text t=- x=a++b <<<'a=1'
refused 2 "--values without its names" "--values needs LABEL=FILE NAME,NAME..." --values t=-
refused 2 "an unknown option" "unknown option --yaml" --yaml t=- x=a

# the definitions' stats through it, with stub tools on PATH printing the fixtures
mkdir -p stubs w
cat >stubs/unbound-control <<'SH'
#!/bin/bash
cat "$STUB_OUTPUT"
SH
cat >stubs/rec_control <<'SH'
#!/bin/bash
cat "$STUB_OUTPUT"
SH
cat >stubs/curl <<'SH'
#!/bin/bash
case ${!#} in
*/json/v1/server) cat "$STUB_OUTPUT" ;;
*/json/v1/mem) cat "$STUB_MEM" ;;
*) exit 22 ;;
esac
SH
chmod +x stubs/*
echo 127.0.0.1:1 >w/statistics-channel
echo "$TEST_TMP/w" >w/control-dir
# stats BASE OUTPUT [MEM] : the definition's stats with its stub printing OUTPUT; exit status in $st
stats() {
	st=0
	PATH=$TEST_TMP/stubs:$PATH STUB_OUTPUT=$2 STUB_MEM=${3:-} "$D/$1.sh" stats --workdir w \
		--build "$ALLOCSPIKE_BUILD_DIR" >out.txt 2>err.txt || st=$?
}
stats unbound "$F/unbound.txt"
check_eq "unbound.sh stats: the line as before" "$unbound_line" "$(cat out.txt)"
stats unbound "$F/unbound-no-current-user.txt"
check_eq "unbound.sh stats, a counter absent: exit 2 as before" 2 "$st"
check "unbound.sh stats: its message" grep -q "^unbound.sh: stats: .*unbound-control printed no total.requestlist.current.user" err.txt
stats named "$F/named-server.json" "$F/named-mem.json"
check_eq "named.sh stats: the line as before" "$named_line" "$(cat out.txt)"
stats named "$F/not-json.txt" "$F/named-mem.json"
check_eq "named.sh stats, no JSON: exit 1 as before" 1 "$st"
check "named.sh stats: its message" grep -q "^named.sh: stats: unexpected statistics from http://127.0.0.1:1/: .*server is not JSON" err.txt
stats pdns-recursor "$F/rec_control.txt"
check_eq "pdns-recursor.sh stats: the line as before" "$rec_line" "$(cat out.txt)"
stats pdns-recursor "$F/rec_control-unknown.txt"
check_eq "pdns-recursor.sh stats, no number: exit 1 as before" 1 "$st"
check "pdns-recursor.sh stats: its message" grep -q "^pdns-recursor.sh: stats: .*negcache-entries: 'Unknown statistic negcache-entries' is not a whole number" err.txt
"$D/unbound.sh" stats --workdir w >/dev/null 2>err.txt
check_eq "stats without --build: exit 2" 2 $?
check "says the usage" grep -q "usage: unbound.sh stats --workdir DIR --build DIR" err.txt
"$D/unbound.sh" stats --workdir w --build "$TEST_TMP/nobuild" >/dev/null 2>err.txt
check_eq "stats with a build lacking allocspike-run: exit 2" 2 $?
check "says so" grep -q "has no bin/allocspike-run" err.txt

# unix-ask: a line to a Unix stream socket, the answer up to '}' (a live sampler answers `stats`)
"$RUN" unix-ask "$TEST_TMP/none.sock" stats >out.txt 2>err.txt
check_eq "unix-ask, no socket: exit 1" 1 $?
check "says so" grep -q "allocspike-run unix-ask: $TEST_TMP/none.sock: connect:" err.txt
"$RUN" unix-ask only-one-word 2>/dev/null
check_eq "unix-ask with one word: exit 2" 2 $?
SAMPLER="$ALLOCSPIKE_BIN/../lib/liballocspike-live-sampler.so"
if [[ -f $SAMPLER ]]; then
	LD_PRELOAD=$SAMPLER ALLOCSPIKE_SAMPLER_SOCKET=$TEST_TMP/s.sock sleep 120 &
	_test_pids+=($!)
	LD_PRELOAD=$SAMPLER ALLOCSPIKE_SAMPLER_SOCKET=$TEST_TMP/stalled.sock sleep 120 &
	stalled=$!
	_test_pids+=($stalled)
	for s in s stalled; do
		for _ in $(seq 100); do [[ -S $s.sock ]] && break; sleep 0.05; done
	done
	kill -STOP "$stalled"
	"$RUN" unix-ask "$TEST_TMP/s.sock" stats >out.txt
	check_eq "unix-ask: exit 0" 0 $?
	check "unix-ask: the sampler's JSON object as it came" jq -e 'has("live_bytes")' out.txt
	timeout 10 "$RUN" unix-ask "$TEST_TMP/stalled.sock" stats >out.txt
	check_eq "unix-ask, a socket that never answers: what came (nothing), exit 0 within the bound" 0 $?
	check "nothing came" test ! -s out.txt
	kill -CONT "$stalled" # the cleanup's SIGTERM reaches it
else
	echo "the live sampler is not built: unix-ask's answers not checked"
fi
finish
