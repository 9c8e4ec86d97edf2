#!/bin/bash
# tests/multihost/netns_run.sh - issue 30's run across hosts, on one machine: network namespaces
# joined by veth pairs stand for the hosts (docs/distributed.md, "Hosts as network namespaces").
# "gen" runs the simulated hierarchy on its loopback (127.53.0.0/16, as on one machine), the
# generator and the controller (allocspike-run collect); "t1" and "t2" each run one resolver row
# (glibc, jemalloc; where jemalloc is not built, another row of variants.tsv), listening on the namespace's veth address and answering the generator's
# (--allow), and an allocspike-agent attached to it through its control socket, serving on the same
# address. The resolvers reach the hierarchy in gen over the veth: route_localnet=1 in every
# namespace, a route to 127.53.0.0/16 via gen, t1's and t2's own loopback narrowed to 127.0.0.1/32
# (else 127.53.x.x would be their own), and the hierarchy's UDP served by one socket per address
# (--udp-sockets per-address: its shared socket is bound to lo and sees nothing from a veth).
# Four short passes (5 s of schedule, two spikes of 800 qps over 40 qps, names never asked before,
# so that every query costs the resolver an upstream query and a spike shows in the agent's reads):
#  1. both agents: at least 99 % of the expected reads arrive, the report finds a read in 99 % of
#     each variant's intervals and fills its memory from them, and each spike's onset in the reads
#     (placed on the timeline as the report places them) is within one interval of its time in
#     events.jsonl;
#  2. t1's agent SIGKILLed mid-run: the stream's drop recorded, no read after the kill (nothing
#     interpolated), the report's validity reason agent_reads_missing names that variant only;
#  3. t2's agent under faketime +250 ms: the controller measures 250 ms, places its reads on its own
#     clock, and the spikes' onsets are still within one interval.
#  4. the same rows restarted, pass 1's queries, sampled as on one machine (the generator reads /proc
#     and the control sockets itself, no agents): the peaks of anonymous and resident memory within
#     5 % of pass 1's, read by the agents (at this small load mostly each resolver's base memory).
# Skipped (exit 77, reason printed) when not root or when `ip netns add` fails. Every namespace
# (and the veths in them) is removed on every exit path; names carry the test's PID.
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
NETNS_PREFIX=as
source "$ALLOCSPIKE_SOURCE_DIR/tests/multihost/netns_lib.sh"

# t1, t2: one row each, as scenarios/lib/variants.sh launches a build row, on the veth's address
declare -A RADDR RCTL RPID
# start_resolver I: row I in tI, fresh (the one running stopped first); one name asked through it
start_resolver() {
	local i=$1 row=${ROWS[$1 - 1]} status
	if [[ -n ${RPID[$row]:-} ]]; then
		kill "${RPID[$row]}"
		wait "${RPID[$row]}"
	fi
	RCTL[$row]=$TEST_TMP/$row.ctl
	rm -f "$TEST_TMP/$row.ready"
	# shellcheck disable=SC2086 # RENV: VAR=value words
	start_server "$row" "$TEST_TMP/$row.ready" ip netns exec "${NS_T[i]}" env ${RENV[$row]} "${RBIN[$row]}" \
		--listen "$(t_addr "$i"):0" --root-hints "$TEST_TMP/root.hints" --upstream-port "$UPORT" \
		--upstream-source "$(t_addr "$i")" --allow "$(gen_addr "$i")" --control "${RCTL[$row]}" \
		--ready-file "$TEST_TMP/$row.ready" >"$row.addr" || exit 1
	RADDR[$row]=$(cat "$row.addr")
	RPID[$row]=${_test_pids[-1]} # ip netns exec and env exec in place: the resolver's own
	status=$(nsx "$NS_GEN" kdig @"${RADDR[$row]%:*}" -p "${RADDR[$row]##*:}" +time=4 +retry=0 \
		www.example.com A 2>&1 | sed -n 's/.*status: \([A-Z]*\).*/\1/p')
	check_eq "$row in ${NS_T[i]} answers gen through the hierarchy in gen" NOERROR "$status"
}
start_resolver 1
start_resolver 2

# start_agent I PASS [PREFIX...]: tI's agent on its row through the control socket, on the veth's
# address; sets AGENT_ADDR[I], AGENT_PID[I] (the process started: faketime's own when prefixed)
declare -A AGENT_ADDR AGENT_PID
start_agent() {
	local i=$1 pass=$2 row=${ROWS[$1 - 1]} name="agent$1-p$2"
	shift 2
	start_server "$name" "$TEST_TMP/$name.ready" ip netns exec "${NS_T[i]}" "$@" "$B/allocspike-agent" \
		--pid-from-control --control "${RCTL[$row]}" --listen "$(t_addr "$i"):0" --interval 50ms \
		--run "pass$pass" --host "${NS_T[i]}" --variant "$row" --record "$TEST_TMP/$name.record" \
		--duration 60s --ready-file "$TEST_TMP/$name.ready" >"$name.addr" || exit 1
	AGENT_ADDR[$i]=$(cat "$name.addr")
	AGENT_PID[$i]=${_test_pids[-1]}
}
# stop_agent I: the agent and what its wrapper started (faketime forks)
stop_agent() {
	local pid=${AGENT_PID[$1]} child
	for child in $(pgrep -P "$pid"); do kill "$child" 2>/dev/null; done
	kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
}

# run_pass PASS [KILL_AGENT_I KILL_AFTER_S]: collector and generator in gen, both started for the
# schedule's start 1.5 s ahead, then the report. Queries: names no pass asked before (those of pass
# $QUERIES_OF when set). A kill SIGKILLs that agent KILL_AFTER_S into the schedule and writes the
# instant to PASS.killed_ns. With LOCAL=1 no agents: the generator samples the resolvers itself
# (pid= and control=, as on one machine) and there is no collector.
run_pass() {
	local pass=$1 kill_i=${2:-} kill_after=${3:-} out=$TEST_TMP/pass$1 start killer collector='' i
	start=$(pass_start_at)
	local targets=()
	for i in 1 2; do
		row=${ROWS[i - 1]}
		targets+=(--target "name=$row,addr=${RADDR[$row]}${LOCAL:+,pid=${RPID[$row]},control=${RCTL[$row]}}")
	done
	lifeline_set
	if [[ -z ${LOCAL:-} ]]; then
		"${LIFELINE[@]}" ip netns exec "$NS_GEN" "$B/allocspike-run" collect --agent "${ROWS[0]}=${AGENT_ADDR[1]}" \
			--agent "${ROWS[1]}=${AGENT_ADDR[2]}" --out "$out" --duration "$((SCHEDULE_S + 4))s" \
			--clock-every 1s >"collect$pass.out" 2>"collect$pass.err" &
		collector=$!
		_test_pids+=("$collector")
	fi
	if [[ -n $kill_i ]]; then
		(
			sleep "$(awk -v s="$start" -v a="$kill_after" -v now="$(date +%s.%N)" 'BEGIN { print s + a - now }')"
			kill -KILL "${AGENT_PID[$kill_i]}"
			date +%s%N >"$TEST_TMP/pass$pass.killed_ns"
		) &
		killer=$!
	fi
	pass_generate "$pass" "$start" "${targets[@]}"
	[[ -z ${killer:-} ]] || wait "$killer"
	if [[ -n $collector ]]; then
		wait "$collector"
		check_eq "pass $pass: collector exit status" 0 $?
	fi
	pass_report "$pass"
	local row
	for row in "${ROWS[@]}"; do
		kill -0 "${RPID[$row]}" 2>/dev/null && continue
		check "pass $pass: $row's resolver still running" false
		echo "its log's end:"
		tail -30 "$TEST_TMP/$row.log"
	done
}

# pass 1: both agents
start_agent 1 1
start_agent 2 1
run_pass 1
for i in 1 2; do
	row=${ROWS[i - 1]}
	check_reads 1 "$row"
	check "pass 1 $row: the report fills its memory from the agent" \
		jqe ".variants[\"$row\"].max_anon_kb > 0 and .variants[\"$row\"].max_rss_kb > 0" "$(S 1)"
	check "pass 1 $row: its host's clock measured, near ours (one kernel), within the bound" \
		jqe -s "[.[] | select(.variant == \"$row\" and .event == \"clock\")]
			| length >= 3 and all(.within_bound and (.offset_ms | fabs) < 5)" "$TEST_TMP/pass1/events.jsonl"
	check "pass 1 $row: the report names the agent's address" \
		jqe ".agents[\"$row\"].host == \"${AGENT_ADDR[$i]}\"" "$(S 1)"
	check "pass 1 $row: the variant's host is its agent's --host, as the collector saw it" \
		jqe ".variants[\"$row\"].host == \"${NS_T[i]}\"" "$(S 1)"
	check_onsets 1 "$row"
done
check "pass 1: no validity reason for missing reads" \
	jqe '[.validity.reasons[].code] | index("agent_reads_missing") == null' "$(S 1)"
check "pass 1: nor for the agents' clocks (every measurement within the bound, none moved)" \
	jqe '[.validity.reasons[].code] | index("agent_clock_unbounded") == null' "$(S 1)"
check "pass 1: summary.md names each variant's host" \
	grep -q "^- ${ROWS[0]} ran on ${NS_T[1]}\$" "$TEST_TMP/pass1/summary.md"
stop_agent 1
stop_agent 2

# pass 2: t1's agent SIGKILLed 2.5 s into the schedule (between the spikes)
start_agent 1 2
start_agent 2 2
run_pass 2 1 2.5
K=${ROWS[0]}
killed_ns=$(cat "$TEST_TMP/pass2.killed_ns")
check_eq "pass 2: no read of $K after the kill (nothing made up)" 0 \
	"$(jq -s --argjson k "$killed_ns" 'map(select(.t_start_ns > $k)) | length' "$TEST_TMP/pass2/agents/$K.jsonl")"
check "pass 2: the drop of $K's stream recorded" \
	jqe -s "any(.[]; .variant == \"$K\" and .event == \"stream_dropped\")" "$TEST_TMP/pass2/events.jsonl"
check "pass 2: and that its record could not be had" \
	jqe -s "any(.[]; .variant == \"$K\" and .event == \"record_unavailable\")" "$TEST_TMP/pass2/events.jsonl"
check "pass 2: the report counts $K's reads under 99 % with a gap from the kill on" \
	jqe ".agents[\"$K\"].share < 0.99 and .agents[\"$K\"].longest_gap.length_s >= 2" "$(S 2)"
check "pass 2: the validity reason agent_reads_missing names $K and only $K" \
	jqe ".validity.reasons | map(select(.code == \"agent_reads_missing\")) | length == 1 and .[0].variants == [\"$K\"]" "$(S 2)"
check "pass 2: the killed agent's failed clock measurements a validity reason naming $K only" \
	jqe ".validity.reasons | map(select(.code == \"agent_clock_unbounded\")) | length == 1 and .[0].variants == [\"$K\"] and .[0].clocks[\"$K\"].kind == \"failed\"" "$(S 2)"
check "pass 2: ${ROWS[1]} still complete" jqe ".agents[\"${ROWS[1]}\"].share >= 0.99" "$(S 2)"
check_onsets 2 "${ROWS[1]}"
echo "pass 2 $K: $(jq -c ".agents[\"$K\"] | {intervals, intervals_with_read, longest_gap}" "$(S 2)")"
stop_agent 2

# pass 3: t2's agent 250 ms ahead (faketime wraps it)
start_agent 1 3
if command -v faketime >/dev/null && timeout 5 faketime -f +0.25 "$B/allocspike-agent" --version >/dev/null 2>&1; then
	start_agent 2 3 faketime -f +0.25
	F=${ROWS[1]}
	run_pass 3
	check "pass 3 $F: the controller measured the agent 250 ms ahead (within 5 ms), every time" \
		jqe -s "[.[] | select(.variant == \"$F\" and .event == \"clock\")]
			| length >= 3 and all(.within_bound and (.offset_ms - 250 | fabs) < 5)" "$TEST_TMP/pass3/events.jsonl"
	check "pass 3 $F: each read placed on the controller's clock by that offset" \
		jqe -s 'length > 50 and all(.[]; ((.agent_t_start_ns - .t_start_ns) / 1e6 - 250 | fabs) < 5)' \
		"$TEST_TMP/pass3/agents/$F.jsonl"
	check "pass 3 $F: the report names the offsets" \
		jqe ".agents[\"$F\"].clock.offset_ms_min > 245 and .agents[\"$F\"].clock.offset_ms_max < 255" "$(S 3)"
	for row in "${ROWS[@]}"; do
		check "pass 3 $row: the report finds a read in 99 % of the intervals" jqe ".agents[\"$row\"].share >= 0.99" "$(S 3)"
		check_onsets 3 "$row"
	done
	# the check above can fail: by the agent's own stamps the onsets would be 250 ms late
	unplaced=$(onsets "$TEST_TMP/pass3" "$F" agent_t_start_ns)
	echo "pass 3 $F: by the agent's own clock, spike and onset - spike (s): ${unplaced//$'\n'/; }"
	# shellcheck disable=SC2016 # awk's fields
	check "pass 3 $F: by the agent's own stamps each onset would be 0.2 to 0.35 s late" \
		awk '$2 == "none" || $2 < 0.2 || $2 > 0.35 { bad = 1 } END { exit bad || NR != 2 }' <<<"$unplaced"
	echo "pass 3 $F: clock $(jq -c ".agents[\"$F\"].clock" "$(S 3)")"
	stop_agent 2
else
	echo "note: faketime is not installed or does not run the agent here; pass 3 not run"
fi
stop_agent 1

# pass 4: the same rows fresh, pass 1's queries, sampled on one machine's way (the generator reads
# /proc and the control sockets itself): the memory figures within 5 % of pass 1's, by the agents
start_resolver 1
start_resolver 2
LOCAL=1 QUERIES_OF=1 run_pass 4
for row in "${ROWS[@]}"; do
	for fig in max_anon_kb max_rss_kb; do
		remote=$(jq ".variants[\"$row\"].$fig" "$(S 1)")
		local_=$(jq ".variants[\"$row\"].$fig" "$(S 4)")
		echo "$row $fig: by the agent $remote, sampled locally $local_"
		check "$row $fig: by the agent within 5 % of the local sampler's" \
			awk -v r="$remote" -v l="$local_" 'BEGIN { exit !(l > 0 && r > 0 && (r - l) / l <= 0.05 && (l - r) / l <= 0.05) }'
	done
done

netns_show_failures
finish
