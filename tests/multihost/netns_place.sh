#!/bin/bash
# tests/multihost/netns_place.sh - issue 30's run across hosts driven by the controller: the hosts
# are network namespaces (tests/multihost/netns_lib.sh; docs/distributed.md, "Hosts as network
# namespaces"), "gen" running the hierarchy, the controller and the generator, "t1" and "t2" each an
# allocspike-agent started with --await-plan and no row. `allocspike-run place` reads a hosts file
# (t1: glibc, t2: jemalloc or the second row netns_lib.sh chooses), measures both agents' clocks,
# sends each its plan, waits for both rows to be ready (the barrier) and prints T0; the collector
# (its events counted from T0) and the generator start at T0 (--start-at), then the report:
#  1. at least 99 % of the expected reads arrive and the report finds a read in 99 % of each
#     variant's intervals; each variant's host is the hosts file's name; the generator started at
#     T0; each spike's onset in the reads is within one interval of its time in events.jsonl; the
#     placement is recorded in events.jsonl;
#  2. refusals, each with fresh agents: a resolver option off the agents' allow-list (both refuse,
#     both withdraw); a row not in t2's agent's table (t1's row started, then stopped when t2
#     refused); a wrong token (the host named, no plan sent); a hosts file with a bad line
#     (FILE:LINE, exit 2); an unreachable agent (named, exit 1, the other agent sent no plan);
#  3. (before 2, where kresd is installed) a daemon row on its own host, the run made by
#     `place --schedule` itself: t1's agent starts kresd-glibc through its definition (the
#     hierarchy is on port 53 in gen); run.json completed with each row's host, the generator at
#     T0, the reads arrive and carry its live bytes, both agents withdrawn and ended after the run;
#  4. (where unbound and pdns_recursor are installed) each on its own host answers the generator on
#     gen with NOERROR: their access control takes the network of the address they serve on.
# Skipped (exit 77, reason printed) when not root or when `ip netns add` fails.
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
NETNS_PREFIX=ap
source "$ALLOCSPIKE_SOURCE_DIR/tests/multihost/netns_lib.sh"

TABLE=$ALLOCSPIKE_SOURCE_DIR/variants.tsv
printf 'placement-token\n' >token
printf 'another-token\n' >wrong.token
chmod 600 token wrong.token
# start_agent I NAME [TABLE]: an agent in tI awaiting a plan, on the veth's address, its row to
# serve there; sets AGENT_ADDR[I], AGENT_PID[I]
declare -A AGENT_ADDR AGENT_PID
start_agent() {
	local i=$1 name=$2
	start_server "$name" "$TEST_TMP/$name.ready" ip netns exec "${NS_T[i]}" "$B/allocspike-agent" --await-plan \
		--variants-table "${3:-$TABLE}" --resolver-listen "$(t_addr "$i"):0" --root-hints "$TEST_TMP/root.hints" \
		--upstream-port "$UPORT" --upstream-source "$(t_addr "$i")" --control "$TEST_TMP/$name-row.ctl" \
		--listen "$(t_addr "$i"):0" --host "t$i" --token-file "$TEST_TMP/token" --record "$TEST_TMP/$name.record" \
		--duration 60s --ready-file "$TEST_TMP/$name.ready" >"$name.addr" || exit 1
	AGENT_ADDR[$i]=$(cat "$name.addr")
	AGENT_PID[$i]=${_test_pids[-1]}
}
# place NAME HOSTS-FILE [OPTION...] [-- RESOLVER-OPTION...]: allocspike-run place in gen, its output
# in NAME.out and NAME.err; its exit status
place() {
	local name=$1 hosts=$2
	shift 2
	nsx "$NS_GEN" "$B/allocspike-run" place --hosts "$hosts" --run "$name" --table "$TABLE" \
		--interval 50ms --lead 2s "$@" >"$name.out" 2>"$name.err"
}
# write_hosts FILE: the hosts file of the agents running now, t1 ROWS[0] and t2 ROWS[1]
write_hosts() {
	printf '# the two rows of the run\nt1 %s %s\nt2 %s %s\n' "${AGENT_ADDR[1]}" "${ROWS[0]}" \
		"${AGENT_ADDR[2]}" "${ROWS[1]}" >"$1"
}
# the rows answer the generator in gen: every gen end of the veths
ALLOW=(-- --allow 10.231.0.0/16)

# 1: the placed run
start_agent 1 a1
start_agent 2 a2
write_hosts run.hosts
place place1 run.hosts --token-file "$TEST_TMP/token" --out "$TEST_TMP/pass1" "${ALLOW[@]}"
check_eq "place: both rows placed (exit 0)" 0 $?
cat place1.out
T0=$(jq -r .t0 place1.out)
targets=()
for i in 1 2; do
	row=${ROWS[i - 1]}
	check "place: $row on t$i, served on t$i's address" \
		jqe --arg r "$row" --arg h "t$i" --arg a "$(t_addr "$i")" '.rows[] | select(.row == $r) | .host == $h and (.resolver | startswith($a + ":"))' place1.out
	targets+=(--target "name=$row,addr=$(jq -r --arg r "$row" '.rows[] | select(.row == $r) | .resolver' place1.out)")
done
lifeline_set
"${LIFELINE[@]}" ip netns exec "$NS_GEN" "$B/allocspike-run" collect --agent "${ROWS[0]}=${AGENT_ADDR[1]}" \
	--agent "${ROWS[1]}=${AGENT_ADDR[2]}" --out "$TEST_TMP/pass1" --duration "$((SCHEDULE_S + 4))s" \
	--clock-every 1s --token-file "$TEST_TMP/token" --start-at "$T0" >collect1.out 2>collect1.err &
collector=$!
_test_pids+=("$collector")
pass_generate 1 "$T0" "${targets[@]}"
wait "$collector"
check_eq "pass 1: collector exit status" 0 $?
pass_report 1
echo "pass 1: the generator's start minus T0 (ms): $(jq -rs --arg t0 "$T0" 'map(select(.variant == "_loadgen" and .event == "started"))[0].start_realtime
	| (tonumber - ($t0 | tonumber)) * 1000' "$TEST_TMP/pass1/events.jsonl")"
check "the generator started at the placement's T0 (within 5 ms)" \
	jqe -s --arg t0 "$T0" 'map(select(.variant == "_loadgen" and .event == "started"))[0].start_realtime
		| (tonumber - ($t0 | tonumber)) | fabs < 0.005' "$TEST_TMP/pass1/events.jsonl"
for i in 1 2; do
	row=${ROWS[i - 1]}
	check_reads 1 "$row"
	check "pass 1 $row: the variant's host is the hosts file's name" jqe ".variants[\"$row\"].host == \"t$i\"" "$(S 1)"
	check "pass 1 $row: the placement recorded (host, agent, resolver, clock)" \
		jqe -s --arg r "$row" --arg h "t$i" 'any(.[]; .variant == $r and .event == "placed" and .host == $h
			and .agent and .resolver and (.offset_ms | fabs) < 5)' "$TEST_TMP/pass1/events.jsonl"
	check_onsets 1 "$row"
done
# The collector counts its events from T0 (--start-at), as place and the generator do: its first
# clock measurement, made during place's 2 s lead, is before the schedule's start.
check "pass 1: the collector's events on the schedule's clock (first clock measurement before T0)" \
	jqe -s '[.[] | select(.event == "clock")][0].t_s | . < 0 and . > -3' "$TEST_TMP/pass1/events.jsonl"
check "pass 1: T0 recorded" jqe -s --arg t0 "$T0" 'any(.[]; .event == "placement" and .t0 == $t0)' "$TEST_TMP/pass1/events.jsonl"
check "pass 1: no validity reason for missing reads or the clocks" \
	jqe '[.validity.reasons[].code] | (index("agent_reads_missing") == null and index("agent_clock_unbounded") == null)' "$(S 1)"
# the agents end on SIGTERM, their rows with them
for i in 1 2; do
	kill "${AGENT_PID[$i]}"
	wait "${AGENT_PID[$i]}"
	check_eq "t$i's agent ends on SIGTERM (exit 0)" 0 $?
done

# answered_never_refused PASS ROW : ROW answered NOERROR in pass PASS's timeline and nothing else
# (REFUSED and the other rcodes are rcode_other): its access list let the generator's host in.
answered_never_refused() {
	# shellcheck disable=SC2016 # awk's fields
	awk -F, -v v="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["variant"] == v { ok += $c["noerror"]; other += $c["rcode_other"] }
		END { exit !(ok > 0 && other == 0) }' "$TEST_TMP/pass$1/timeline.csv"
}

# 3: a daemon row on its own host (kresd, the case that drowned beside the harness on one machine),
# the run made by place itself (--schedule): t1's agent starts kresd-glibc through its definition,
# on a port it picks on t1's address; the collector and the generator are place's, from T0
if command -v kresd >/dev/null; then
	start_agent 1 k1
	start_agent 2 k2
	printf 't1 %s kresd-glibc\nt2 %s %s\n' "${AGENT_ADDR[1]}" "${AGENT_ADDR[2]}" "${ROWS[1]}" >daemon.hosts
	pass_queries 3
	place placed daemon.hosts --token-file "$TEST_TMP/token" --out "$TEST_TMP/pass3" \
		--schedule "$SCHEDULE" --queries "$TEST_TMP/queries3.txt" "${ALLOW[@]}"
	st=$?
	check_eq "pass 3: place --schedule: kresd-glibc on t1 beside ${ROWS[1]} on t2, placed and run (exit 0)" 0 "$st"
	((st == 0)) || tail -n 20 placed.err k1.log "$TEST_TMP/pass3/logs/"*.log
	T0=$(jq -r .t0 placed.out)
	check "pass 3: the daemon serves on t1's address" \
		jqe --arg a "$(t_addr 1)" '.rows[] | select(.row == "kresd-glibc") | .resolver | startswith($a + ":")' placed.out
	check "pass 3: run.json completed, each row with its host and agent" \
		jqe --arg b "${ROWS[1]}" '.status == "completed" and ([.variants[] | [.name, .host]] == [["kresd-glibc", "t1"], [$b, "t2"]])
			and all(.variants[]; .agent != null)' "$TEST_TMP/pass3/run.json"
	check "pass 3: the generator started at T0 (within 5 ms)" \
		jqe -s --arg t0 "$T0" 'map(select(.variant == "_loadgen" and .event == "started" and .start_realtime))[0]
			| .start_realtime | (tonumber - ($t0 | tonumber)) | fabs < 0.005' "$TEST_TMP/pass3/events.jsonl"
	check "pass 3: the generator's end ended the run, the collector stopped after it" \
		jqe -s '[.[] | select(.event == "exited") | .variant] == ["_loadgen", "_collect"]' "$TEST_TMP/pass3/events.jsonl"
	"$B/allocspike-report" "$TEST_TMP/pass3" >report3.out 2>report3.err
	check_eq "pass 3: report exit status" 0 $?
	for row in kresd-glibc "${ROWS[1]}"; do check_reads 3 "$row"; done
	check "pass 3 kresd-glibc: answered the generator on another host with NOERROR, never refused (its view rules)" \
		answered_never_refused 3 kresd-glibc
	check "pass 3 kresd-glibc: the daemon's host is t1" jqe '.variants["kresd-glibc"].host == "t1"' "$(S 3)"
	check "pass 3 kresd-glibc: its live bytes read through the preloaded sampler" \
		jqe -s 'map(.live_bytes // 0) | max > 0' "$TEST_TMP/pass3/agents/kresd-glibc.jsonl"
	check "pass 3: both agents withdrawn after the run, and ended" \
		bash -c "$(declare -f alive gone wait_until); wait_until 10 gone ${AGENT_PID[1]} && wait_until 10 gone ${AGENT_PID[2]}"
	check "pass 3: no kresd left on t1" bash -c "! ip netns pids ${NS_T[1]} | grep -q ."
else
	echo "skip pass 3: kresd not installed (apt-get install knot-resolver)"
fi

# 4: unbound and PowerDNS Recursor on their own hosts answer the generator's host: their access
# control takes the network of the address they serve on (definition_clients), not loopback alone
# (which REFUSED every query from gen before)
if command -v unbound >/dev/null && command -v pdns_recursor >/dev/null; then
	start_agent 1 u1
	start_agent 2 p2
	printf 't1 %s unbound\nt2 %s pdns-recursor\n' "${AGENT_ADDR[1]}" "${AGENT_ADDR[2]}" >remote.hosts
	pass_queries 4
	place placed4 remote.hosts --token-file "$TEST_TMP/token" --out "$TEST_TMP/pass4" \
		--schedule "$SCHEDULE" --queries "$TEST_TMP/queries4.txt" "${ALLOW[@]}"
	st=$?
	check_eq "pass 4: place --schedule: unbound on t1, pdns-recursor on t2 (exit 0)" 0 "$st"
	((st == 0)) || tail -n 20 placed4.err u1.log p2.log "$TEST_TMP/pass4/logs/"*.log
	for row in unbound pdns-recursor; do
		check "pass 4 $row: answered the generator on another host with NOERROR, never refused" \
			answered_never_refused 4 "$row"
	done
	check "pass 4: both agents withdrawn after the run, and ended" \
		bash -c "$(declare -f alive gone wait_until); wait_until 10 gone ${AGENT_PID[1]} && wait_until 10 gone ${AGENT_PID[2]}"
else
	echo "skip pass 4: unbound or pdns_recursor not installed"
fi

# 2: refusals
# agents_ended I...: each agent ended by itself within 5 s (a withdrawal ends it)
agents_ended() {
	local i
	for i in "$@"; do
		wait_until 5 gone "${AGENT_PID[$i]}" || return 1
	done
}
start_agent 1 b1
start_agent 2 b2
write_hosts b.hosts
place place2 b.hosts --token-file "$TEST_TMP/token" -- --allow 10.231.0.0/16 --control /tmp/elsewhere
check_eq "a resolver option off the allow-list: exit 1" 1 $?
for i in 1 2; do
	check "t$i's agent refused it (400), named" grep -q "host t$i (agent ${AGENT_ADDR[$i]}), row ${ROWS[i - 1]}: plan refused (HTTP 400): resolver option '--control' is not one a plan may set" place2.err
done
check "both withdrawn and ended" agents_ended 1 2

# t2's table without its row (nor the env rows over it)
awk -F'\t' -v r="${ROWS[1]}" '$1 != r && !($2 == "env" && $6 == r)' "$TABLE" >small.tsv
start_agent 1 c1
start_agent 2 c2 "$TEST_TMP/small.tsv"
write_hosts c.hosts
place place3 c.hosts --token-file "$TEST_TMP/token" "${ALLOW[@]}"
check_eq "a row not in t2's agent's table: exit 1" 1 $?
check "t2 named with the agent's reason (422)" grep -q "host t2 (agent ${AGENT_ADDR[2]}), row ${ROWS[1]}: plan refused (HTTP 422): no variant '${ROWS[1]}' in $TEST_TMP/small.tsv" place3.err
check "t1's row had started" grep -q "plan taken: row ${ROWS[0]} of run place3" c1.log
check "and was stopped: t1 withdrawn" grep -q "host t1 (agent ${AGENT_ADDR[1]}): withdrawn, its row stopped" place3.err
check "t1's agent ended" agents_ended 1
check "no resolver left on t1's row socket" bash -c "! pgrep -f '$TEST_TMP/c1-row[.]ctl' >/dev/null"

start_agent 1 d1
start_agent 2 d2
write_hosts d.hosts
place place4 d.hosts --token-file "$TEST_TMP/wrong.token" "${ALLOW[@]}"
check_eq "a wrong token: exit 1" 1 $?
check "t1 named, the agent's 401" grep -q "host t1 (agent ${AGENT_ADDR[1]}): GET /time: HTTP/1.1 401" place4.err
check "no plan sent" bash -c "! grep -q 'plan taken' d1.log d2.log"

printf 't1 %s %s\nt2 %s\n' "${AGENT_ADDR[1]}" "${ROWS[0]}" "${AGENT_ADDR[2]}" >bad.hosts
place place5 bad.hosts --token-file "$TEST_TMP/token" "${ALLOW[@]}"
check_eq "a hosts file with a bad line: exit 2" 2 $?
check "FILE:LINE named" grep -q "bad.hosts:2: too few fields: a line is HOST AGENT-ADDR\[:PORT\] ROW" place5.err

kill "${AGENT_PID[2]}"
wait "${AGENT_PID[2]}"
place place6 d.hosts --token-file "$TEST_TMP/token" "${ALLOW[@]}"
check_eq "an unreachable agent: exit 1" 1 $?
check "t2 named" grep -q "host t2 (agent ${AGENT_ADDR[2]}): connect: Connection refused; the placement is refused" place6.err
check "t1 sent no plan" bash -c "! grep -q 'plan taken' d1.log"
netns_show_failures
finish
