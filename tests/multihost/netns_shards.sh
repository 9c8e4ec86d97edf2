#!/bin/bash
# tests/multihost/netns_shards.sh - issue 30's generator as shards on generator hosts of their own
# (docs/distributed.md, "Generator shards across hosts"): the hosts are network namespaces
# (tests/multihost/netns_lib.sh), t1 and t2 each an allocspike-agent --await-plan for a row, s1 and
# s2 each an allocspike-agent --await-plan --shard-dir for a shard; gen runs the hierarchy and the
# controller. `allocspike-run place` places the rows (the hosts file's @shard lines are not rows)
# and prints T0; `allocspike-run shards` sends s1 and s2 their shard plans (1/2, 2/2, T0, the
# rows' addresses), watches them, fetches their fragments and merges them. Checks:
#  1. each shard's agent ran its shard (its own fragment on its host, completed); the union of what
#     the shards sent equals the one generator's stream query for query (ID, name, type: the rows'
#     veths captured with tcpdump against what one generator sends to two test responders); each
#     row received the identical set; every shard's first send within 100 ms of its planned instant
#     after T0; the merged run's offered queries are the stream's;
#  2. s2's agent SIGKILLed mid-run: the run fails (exit 1) naming host s2, s1's agent withdrawn;
#  3. s1's generator SIGKILLed mid-run: the run fails naming host s1 and the signal;
#     The generator hosts have no copy of the query file (a tmpfs over its folder in their agents'
#     mount namespaces): shards sends it (PUT /queries) and the plans name its SHA-256; the row
#     hosts have no --root-hints: place --root-hints carries them in each row plan;
#  4. `place --schedule` over the same hosts file: its generator is the shards (allocspike-run
#     shards), merged into the run folder beside the agents' reads; the report places the reads.
# Skipped (exit 77, reason printed) when not root, when `ip netns add` fails, and in the sanitizer
# build (netns_lib.sh says why).
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
NETNS_PREFIX=ah
NETNS_SHARD_HOSTS=1
source "$ALLOCSPIKE_SOURCE_DIR/tests/multihost/netns_lib.sh"
command -v tcpdump >/dev/null || skip "tcpdump not installed (what each row received is captured)"

TABLE=$ALLOCSPIKE_SOURCE_DIR/variants.tsv
printf 'shards-token\n' >token
chmod 600 token
declare -A AGENT_ADDR AGENT_PID
# The query files live in QDIR, which the generator hosts' agents do not see: each runs in a mount
# namespace of its own (ip netns exec makes one) with an empty tmpfs over QDIR.
QDIR=$TEST_TMP/controller-only
mkdir -p "$QDIR"
# start_agent NS-ARRAY I NAME [OPTION...]: an agent awaiting a plan in ${NS-ARRAY[I]} on ADDR (its
# host's address), --host its namespace's short name; sets AGENT_ADDR[NAME], AGENT_PID[NAME]
start_agent() {
	local kind=$1 i=$2 name=$3 addr ns hide=()
	shift 3
	if [[ $kind == t ]]; then ns=${NS_T[i]} addr=$(t_addr "$i"); else ns=${NS_S[i]} addr=$(s_addr "$i"); fi
	[[ $kind == s ]] && hide=(sh -c 'mount -t tmpfs hidden "$0" && exec "$@"' "$QDIR")
	start_server "$name" "$TEST_TMP/$name.ready" ip netns exec "$ns" "${hide[@]}" "$B/allocspike-agent" --await-plan \
		--variants-table "$TABLE" --control "$TEST_TMP/$name-row.ctl" --listen "$addr:0" --host "$kind$i" \
		--token-file "$TEST_TMP/token" --duration 60s --ready-file "$TEST_TMP/$name.ready" "$@" >"$name.addr" || exit 1
	AGENT_ADDR[$name]=$(cat "$name.addr")
	AGENT_PID[$name]=${_test_pids[-1]}
}
# start_hosts PASS: fresh agents: rows on t1, t2; shards on s1, s2; PASS.hosts naming them
start_hosts() {
	local p=$1 i
	for i in 1 2; do
		start_agent t "$i" "$p-t$i" --resolver-listen "$(t_addr "$i"):0" \
			--upstream-port "$UPORT" --upstream-source "$(t_addr "$i")"
		start_agent s "$i" "$p-s$i" --shard-dir "$TEST_TMP/$p-s$i-fragments"
	done
	printf 't1 %s %s\nt2 %s %s\n# the generator hosts\ns1 %s @shard\ns2 %s @shard\n' \
		"${AGENT_ADDR[$p-t1]}" "${ROWS[0]}" "${AGENT_ADDR[$p-t2]}" "${ROWS[1]}" \
		"${AGENT_ADDR[$p-s1]}" "${AGENT_ADDR[$p-s2]}" >"$p.hosts"
}
# place_rows PASS: the rows placed (T0 2 s after both are ready); sets T0, TARGETS, RESOLVER[I]
declare -A RESOLVER
place_rows() {
	local p=$1 i
	nsx "$NS_GEN" "$B/allocspike-run" place --hosts "$p.hosts" --run "$p" --table "$TABLE" \
		--token-file "$TEST_TMP/token" --lead 2s --root-hints "$TEST_TMP/root.hints" -- --allow 10.231.0.0/16 \
		>"$p-place.out" 2>"$p-place.err"
	check_eq "$p: place: both rows placed, the @shard lines left to the shards (exit 0)" 0 $?
	T0=$(jq -r .t0 "$p-place.out")
	TARGETS=()
	for i in 1 2; do
		RESOLVER[$i]=$(jq -r --arg r "${ROWS[i - 1]}" '.rows[] | select(.row == $r) | .resolver' "$p-place.out")
		TARGETS+=(--target "${ROWS[i - 1]}=${RESOLVER[$i]}")
	done
}
# shards PASS SCHEDULE: allocspike-run shards in gen (in the background: SHARDS_PID), into PASS/
shards() {
	local p=$1 LIFELINE
	lifeline_set
	"${LIFELINE[@]}" timeout 60 ip netns exec "$NS_GEN" "$B/allocspike-run" shards --hosts "$p.hosts" --run "$p" \
		--table "$TABLE" --token-file "$TEST_TMP/token" --schedule "$2" --queries "$QDIR/queries$p.txt" \
		--start-at "$T0" "${TARGETS[@]}" --out "$TEST_TMP/$p" >"$p-shards.out" 2>"$p-shards.err" &
	SHARDS_PID=$!
	_test_pids+=("$SHARDS_PID")
}
# stop_rows PASS: the rows' agents ended (SIGTERM), their rows with them
stop_rows() {
	local i
	for i in 1 2; do kill "${AGENT_PID[$1-t$i]}" 2>/dev/null; done
}
# received CAPTURE: what a row received, one line per query: ID NAME TYPE (sorted; -T domain: the
# rows serve on ports tcpdump would not read as DNS)
received() {
	tcpdump -T domain -n -r "$1" 2>/dev/null | sed -n 's/.* \([0-9][0-9]*\)[+]* \([A-Z][A-Z0-9]*\)? \([^ ]*\)\. .*/\1 \3 \2/p' | sort
}

# hidden_queries PASS: pass_queries's file, moved where only the controller's host sees it
hidden_queries() {
	pass_queries "$1" && mv "queries$1.txt" "$QDIR/"
}
printf 'query * *\nanswer x. 60 IN A 192.0.2.1\n' >answers.txt
hidden_queries p1
# 1: the run, its rows' veths captured
start_hosts p1
for i in 1 2; do
	check "pass 1: s$i's host has no copy of the query file" bash -c \
		"test -e '$QDIR/queriesp1.txt' && test ! -e '/proc/${AGENT_PID[p1-s$i]}/root$QDIR/queriesp1.txt'"
	check "pass 1: t$i's agent has no --root-hints" bash -c "! tr '\\0' '\\n' </proc/${AGENT_PID[p1-t$i]}/cmdline | grep -qx -- --root-hints"
done
place_rows p1
CAP=()
for i in 1 2; do
	lifeline_set
	"${LIFELINE[@]}" ip netns exec "${NS_T[i]}" tcpdump -i "${P}t$i$ID" -n -U -w "$TEST_TMP/p1-t$i.pcap" \
		"udp and dst host $(t_addr "$i") and dst port ${RESOLVER[$i]##*:}" 2>"p1-tcpdump$i.err" &
	CAP+=($!)
	_test_pids+=($!)
done
wait_until 5 grep -q 'listening on' p1-tcpdump1.err p1-tcpdump2.err
sleep 0.3 # the second's line
shards p1 "$SCHEDULE"
wait "$SHARDS_PID"
st=$?
check_eq "pass 1: allocspike-run shards: both shards ran and merged (exit 0)" 0 "$st"
((st == 0)) || tail -n 20 p1-shards.err p1-s1.log p1-s2.log
sleep 0.3 # the last queries captured
kill -INT "${CAP[@]}" 2>/dev/null
wait "${CAP[@]}" 2>/dev/null
# after the capture (T0 is 2 s after the placement: nothing in between may delay it)
for i in 1 2; do
	check "pass 1: t$i's agent kept the plan's root hints" cmp -s "$TEST_TMP/root.hints" "$TEST_TMP/p1-t$i-row.ctl.root.hints"
	check_eq "pass 1: t$i's row answers gen through the hierarchy (the plan's root hints)" NOERROR \
		"$(nsx "$NS_GEN" kdig @"${RESOLVER[$i]%:*}" -p "${RESOLVER[$i]##*:}" +time=4 +retry=0 www.example.com A 2>&1 |
			sed -n 's/.*status: \([A-Z]*\).*/\1/p')"
done
stop_rows p1
for i in 1 2; do
	frag=$TEST_TMP/p1-s$i-fragments/p1-shard-$i/fragment.json
	check "pass 1: s$i's agent was sent the query file, checked against its SHA-256" \
		grep -q "/queries: $(stat -c %s "$QDIR/queriesp1.txt") bytes kept (sha256 $(sha256sum "$QDIR/queriesp1.txt" | cut -d' ' -f1))" p1-s$i.log
	check "pass 1: s$i's agent took shard $i/2" grep -q "plan taken: shard $i/2 of run p1" p1-s$i.log
	check "pass 1: s$i's fragment on its host: shard $i of 2, completed" \
		jqe ".shard == $i and .shards == 2 and .status == \"completed\" and .exit_code == 0" "$frag"
	check "pass 1: s$i's fragment fetched by the controller as its agent served it" cmp -s "$frag" "$TEST_TMP/p1/shard-$i/fragment.json"
	echo "pass 1: s$i's first send minus its planned instant after T0 (ms): $(jq -r --arg t0 "$T0" \
		'(.first_send_realtime | tonumber) - ($t0 | tonumber) - .first_planned_s | . * 1000' "$frag")"
	check "pass 1: s$i started at T0 (start_realtime is T0's instant)" \
		jqe --arg t0 "$T0" '(.start_realtime | tonumber) - ($t0 | tonumber) | fabs < 0.000001' "$frag"
	check "pass 1: s$i's first send within 100 ms of its planned instant after T0" \
		jqe --arg t0 "$T0" '(.first_send_realtime | tonumber) - ($t0 | tonumber) - .first_planned_s | . > -0.001 and . < 0.1' "$frag"
	check "pass 1: s$i's agent withdrawn and ended" wait_until 5 gone "${AGENT_PID[p1-s$i]}"
	check "pass 1: s$i withdrawn by the controller" grep -q "host s$i (agent ${AGENT_ADDR[p1-s$i]}): withdrawn" p1-shards.err
	received "$TEST_TMP/p1-t$i.pcap" >"p1-t$i.received"
done

# The one generator's stream: the same queries, schedule and targets' names, sent by one
# allocspike-loadgen to two test responders on gen's loopback, which log ID, name and type.
for i in 1 2; do
	start_server "one$i" "$TEST_TMP/one$i.ready" ip netns exec "$NS_GEN" "$B/allocspike-test-responder" \
		--listen "127.0.0.$((i + 1)):0" --fixture "$TEST_TMP/answers.txt" \
		--log "$TEST_TMP/one$i.queries" --ready-file "$TEST_TMP/one$i.ready" >"one$i.addr" || exit 1
done
nsx "$NS_GEN" "$B/allocspike-loadgen" --queries "$QDIR/queriesp1.txt" --schedule "$SCHEDULE" --no-progress \
	--target "name=${ROWS[0]},addr=$(cat one1.addr)" --target "name=${ROWS[1]},addr=$(cat one2.addr)" \
	--out "$TEST_TMP/one" >one.out 2>one.err
check_eq "the one generator's run (exit 0)" 0 $?
sleep 0.3 # the last queries logged
for i in 1 2; do awk '{ sub(/[.]$/, "", $4); print $3, $4, $5 }' "one$i.queries" | sort >"one$i.received"; done
echo "pass 1: the one generator sent $(wc -l <one1.received) queries to each target; t1 received $(wc -l <p1-t1.received) from the shards, t2 $(wc -l <p1-t2.received)"
check "the one generator sent each target the same queries" cmp -s one1.received one2.received
for i in 1 2; do
	check "pass 1: t$i (${ROWS[i - 1]}) received from the shards the one generator's stream, query for query (ID, name, type)" \
		cmp -s one1.received "p1-t$i.received"
done
check "pass 1: both rows received the identical set" cmp -s p1-t1.received p1-t2.received
check "pass 1: the queries came from both generator hosts" \
	bash -c "tcpdump -n -r '$TEST_TMP/p1-t1.pcap' 2>/dev/null | grep -q ' $(s_addr 1)[.]' && tcpdump -n -r '$TEST_TMP/p1-t1.pcap' 2>/dev/null | grep -q ' $(s_addr 2)[.]'"
check "pass 1: the merged run offered each row the stream's queries" \
	bash -c "[[ \$(awk -F, -v v='${ROWS[0]}' 'NR > 1 && \$2 == v { n += \$5 } END { print n }' '$TEST_TMP/p1/merged/timeline.csv') == \$(wc -l <one1.received) ]]"
check "pass 1: the merged run names each shard's generator" \
	bash -c "grep -q ',_loadgen_1,' '$TEST_TMP/p1/merged/timeline.csv' && grep -q ',_loadgen_2,' '$TEST_TMP/p1/merged/timeline.csv'"

# 2 and 3: a shard that dies fails the run, naming its host; a longer schedule, killed 2 s in
LONG='baseline:8s@40'
# killed_run PASS: fresh hosts, the rows placed, the shards started on $LONG; returns 2 s into it
killed_run() {
	local p=$1
	start_hosts "$p"
	place_rows "$p"
	hidden_queries "$p"
	shards "$p" "$LONG"
	sleep "$(awk -v t0="$T0" -v now="$(date +%s.%N)" 'BEGIN { d = t0 - now + 2; print (d > 0 ? d : 0) }')"
}
killed_run p2
kill -KILL "${AGENT_PID[p2-s2]}"
wait "$SHARDS_PID"
check_eq "pass 2: s2's agent SIGKILLed: the run fails (exit 1)" 1 $?
check "pass 2: the failure names host s2 and its agent gone" grep -q "host s2 (agent ${AGENT_ADDR[p2-s2]}), shard 2/2: its agent is gone" p2-shards.err
check "pass 2: s1's agent withdrawn and ended" wait_until 5 gone "${AGENT_PID[p2-s1]}"
check "pass 2: no generator left on s1 or s2" bash -c "! ip netns pids ${NS_S[1]} | grep -q . && ! ip netns pids ${NS_S[2]} | grep -q ."
stop_rows p2

killed_run p3
gen_pid=$(sed -n 's/.*plan taken: shard 1\/2 of run p3, its generator PID \([0-9]*\) .*/\1/p' p3-s1.log)
kill -KILL "$gen_pid"
wait "$SHARDS_PID"
check_eq "pass 3: s1's generator SIGKILLed: the run fails (exit 1)" 1 $?
check "pass 3: the failure names host s1 and the signal" grep -q "host s1 (agent ${AGENT_ADDR[p3-s1]}), shard 1/2: its generator was killed (signal 9)" p3-shards.err
check "pass 3: s1's agent withdrawn and ended" wait_until 5 gone "${AGENT_PID[p3-s1]}"
check "pass 3: s2's agent withdrawn and ended, its generator stopped" wait_until 5 gone "${AGENT_PID[p3-s2]}"
check "pass 3: s2 withdrawn by the controller" grep -q "host s2 (agent ${AGENT_ADDR[p3-s2]}): withdrawn" p3-shards.err
stop_rows p3

# 4: place --schedule with the generator hosts: the shards are the run's generator (allocspike-run
# shards as its _loadgen), merged into the run folder, beside the agents' reads
start_hosts p4
hidden_queries 4
nsx "$NS_GEN" "$B/allocspike-run" place --hosts p4.hosts --run p4 --table "$TABLE" --token-file "$TEST_TMP/token" \
	--interval 50ms --lead 2s --out "$TEST_TMP/pass4" --schedule "$SCHEDULE" --queries "$QDIR/queries4.txt" \
	--root-hints "$TEST_TMP/root.hints" \
	-- --allow 10.231.0.0/16 >p4-place.out 2>p4-place.err
st=$?
check_eq "pass 4: place --schedule with two generator hosts: run and merged (exit 0)" 0 "$st"
((st == 0)) || tail -n 20 p4-place.err "$TEST_TMP/pass4/logs/"*.log
check "pass 4: run.json completed" jqe '.status == "completed"' "$TEST_TMP/pass4/run.json"
check "pass 4: the run's generator is the two shards (their rows in the run's timeline)" \
	bash -c "grep -q ',_loadgen_1,' '$TEST_TMP/pass4/timeline.csv' && grep -q ',_loadgen_2,' '$TEST_TMP/pass4/timeline.csv'"
for i in 1 2; do
	check "pass 4: s$i ran shard $i/2" grep -q "plan taken: shard $i/2 of run p4" p4-s$i.log
	check "pass 4: ${ROWS[i - 1]} offered the stream's queries by the shards together" \
		bash -c "[[ \$(awk -F, -v v='${ROWS[i - 1]}' 'NR > 1 && \$2 == v { n += \$5 } END { print n }' '$TEST_TMP/pass4/timeline.csv') == \$(wc -l <one1.received) ]]"
done
"$B/allocspike-report" "$TEST_TMP/pass4" >report4.out 2>report4.err
check_eq "pass 4: report exit status" 0 $?
for i in 1 2; do
	check_reads 4 "${ROWS[i - 1]}"
	check "pass 4: t$i's agent withdrawn and ended" wait_until 5 gone "${AGENT_PID[p4-t$i]}"
	check "pass 4: s$i's agent withdrawn and ended" wait_until 5 gone "${AGENT_PID[p4-s$i]}"
done

for f in p*-shards.err; do [[ -s $f ]] && ((_test_failures)) && echo "--- $f" && tail -15 "$f"; done
netns_show_failures
finish
