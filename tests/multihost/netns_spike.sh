#!/bin/bash
# tests/multihost/netns_spike.sh - `scenarios/spike.sh --hosts FILE --token-file F`, the operator's
# command for a run across hosts (docs/distributed.md, "spike.sh across hosts"): the hosts are
# network namespaces (tests/multihost/netns_lib.sh), "gen" running spike.sh (its hierarchy, its
# controller, the generator), "t1" and "t2" each an allocspike-agent --await-plan with no row, told
# the hierarchy's port (53) and the run folder's root hints on their command line.
#  1. the refusals, nothing started: a --variants that disagrees with the hosts file, --serial
#     (exit 2, each naming its options); --dry-run shows the placement (hosts, agents, rows) and
#     place's command (placing the run's rows) with no agent running;
#  2. a short run: exit 0, run.json completed, report.html, each variant's host its hosts-file
#     name in summary.json, reads from every row, the warm-up check recorded, both agents ended
#     (withdrawn) and nothing left in any namespace;
#  2b. --spike-rate auto over agents that take any number of plans (--plans unlimited): exit 0,
#     each calibration pass placed into its own folder under an id of its own (run-auto-cal1, ...),
#     the measured run under the run's id, the spikes at the multiple of the slowest row's
#     capacity, the agents up and awaiting between the passes and after the run (a plan taken and
#     withdrawn per pass), ending on SIGTERM with 0, nothing left in any namespace;
#  2c. --repeat 2 over agents of two plans (--plans 2): exit 0, both repeats completed, each placed
#     under an id of its own (run-repeat-rep1, run-repeat-rep2), the comparison made, each agent
#     ending by itself with 0 after its second plan, nothing left in any namespace;
#  3. SIGINT a second into the placed run's schedule: exit 130, run.json interrupted, a report all the
#     same, both agents withdrawn and ended, nothing left;
#  4. SIGKILL a second into the schedule (spike.sh, its controller and place die, nothing withdraws):
#     each agent's lease runs out and it stops its row and ends by itself, exit 3, within the lease
#     and a bound, nothing left;
#  5. the generator as two shards on generator hosts "s1" and "s2" (`@shard` lines, each an
#     allocspike-agent --await-plan --shard-dir): exit 0, run.json completed, both shards ran and
#     were merged into the run folder (_loadgen_1, _loadgen_2), the run's origin the shards' start
#     (the placement's T0), the report's figures for both rows, a read in 99 % of the intervals,
#     every agent ended and nothing left;
#  6. s2's agent SIGKILLed during the sharded run: exit 1, run.json failed with a reason naming
#     host s2 and its shard, every other agent withdrawn, nothing left;
#  7. the hierarchy on a routable block of gen's own addresses, reached from t1 and t2 by a plain
#     route (their loopback route gone): the rows answer through it; without --hosts it is refused.
# The agents' host caps their lease at LEASE_S (--lease): the healthy runs of 2 and 3 show it does
# not run out while the collector measures the clocks (place makes it measure 4 times a lease).
# Skipped (exit 77, reason printed) when not root, where `ip netns add` fails, and in the sanitizer
# build (netns_lib.sh says why).
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
NETNS_PREFIX=ah
NETNS_HIERARCHY=0 # spike.sh starts the run's own in gen
NETNS_SHARD_HOSTS=1
source "$ALLOCSPIKE_SOURCE_DIR/tests/multihost/netns_lib.sh"
command -v "$B/allocspike-querydata" >/dev/null || skip "allocspike-querydata is not built"

SPIKE=$ALLOCSPIKE_SOURCE_DIR/scenarios/spike.sh
LEASE_S=5
printf 'spike-token\n' >token
chmod 600 token
# A schedule of about 8 s at a fixed spike rate, a hierarchy that answers at once and loses nothing
# (tests/scenarios give scenarios a short schedule the same way).
SHORT=(--spike-rate 600 --baseline-rate 40 --warmup-rate 200 --warmup-len 3s --baseline-len 1s
	--spikes 2 --spike-len 1s --recovery-len 1s --world lan --latency-ms 1 --loss 0 --no-build)

# spike NAME OUT ARGS...: spike.sh in gen, its output in spike-NAME.out and .err; its exit status
spike() {
	local name=$1 out=$2
	shift 2
	nsx "$NS_GEN" bash "$SPIKE" --out "$out" "$@" >"spike-$name.out" 2>"spike-$name.err"
}

# 1: refusals and the dry run (the hosts file names agents that do not run: nothing is contacted)
printf '# two rows\nt1 %s:9110 %s\nt2 %s %s\n' "$(t_addr 1)" "${ROWS[0]}" "$(t_addr 2)" "${ROWS[1]}" >dry.hosts
spike disagree "$TEST_TMP/disagree" --hosts dry.hosts --token-file token --spike-rate 100 --variants "${ROWS[0]}"
check_eq "a --variants that disagrees with the hosts file: exit 2" 2 $?
check "the refusal names both and the file's rows" \
	grep -q -- "--variants ${ROWS[0]} disagrees with --hosts dry.hosts, whose rows are ${ROWS[0]},${ROWS[1]}" spike-disagree.err
spike serial "$TEST_TMP/serial" --hosts dry.hosts --token-file token --spike-rate 100 --serial
check_eq "--serial with --hosts: exit 2" 2 $?
check "the refusal says why" grep -q -- "--serial and --hosts exclude each other: placed rows run at once" spike-serial.err
check "no run folder made by a refusal" bash -c "[[ ! -e $TEST_TMP/disagree && ! -e $TEST_TMP/serial ]]"
nsx "$NS_GEN" bash "$SPIKE" --hosts dry.hosts --token-file token --spike-rate 100 --variants "${ROWS[1]},${ROWS[0]}" \
	--dry-run >spike-dry.out 2>spike-dry.err
check_eq "--dry-run with --hosts (the same rows in another order): exit 0" 0 $?
for i in 1 2; do
	check "the dry run shows t$i's placement" grep -qx "placement: host t$i, agent $(t_addr "$i"):9110, row ${ROWS[i - 1]}" spike-dry.out
done
check "the dry run's process is place, not the rows" \
	bash -c "grep -q '^process 2: _place (its exit ends the run)' spike-dry.out && ! grep -q '^process .*: ${ROWS[0]}\$' spike-dry.out"
check "place's command places the run's rows (--rows)" grep -q -- "--in-run --rows [a-z0-9_-]*,[a-z0-9_-]* " spike-dry.out
check "the hierarchy on port 53 with a socket per address" grep -q -- '--port 53 .*--udp-sockets per-address' spike-dry.out

# start_agent I NAME OUT [AGENT-OPTION...]: an agent in tI awaiting a plan, its row to serve on the
# veth's address and to ask the hierarchy spike.sh starts in gen (port 53; no --root-hints: the
# plan carries OUT/root.hints); sets AGENT_ADDR[I], AGENT_PID[I]
declare -A AGENT_ADDR AGENT_PID
start_agent() {
	local i=$1 name=$2 out=$3
	shift 3
	start_server "$name" "$TEST_TMP/$name.ready" ip netns exec "${NS_T[i]}" "$B/allocspike-agent" --await-plan \
		--variants-table "$ALLOCSPIKE_SOURCE_DIR/variants.tsv" --resolver-listen "$(t_addr "$i"):0" \
		--upstream-port 53 --upstream-source "$(t_addr "$i")" \
		--control "$TEST_TMP/$name-row.ctl" --listen "$(t_addr "$i"):0" --host "t$i" --token-file "$TEST_TMP/token" \
		--record "$TEST_TMP/$name.record" --duration "${AGENT_DURATION:-90s}" --lease "${LEASE_S}s" --ready-file "$TEST_TMP/$name.ready" "$@" >"$name.addr" || exit 1
	AGENT_ADDR[$i]=$(cat "$name.addr")
	AGENT_PID[$i]=${_test_pids[-1]}
}
# hosts_file FILE: the agents running now, t1 ROWS[0] and t2 ROWS[1]
hosts_file() {
	printf 't1 %s %s\nt2 %s %s\n' "${AGENT_ADDR[1]}" "${ROWS[0]}" "${AGENT_ADDR[2]}" "${ROWS[1]}" >"$1"
}
# nothing_left: both agents ended (a withdrawal ends them) and no process in any namespace
nothing_left() {
	wait_until 10 gone "${AGENT_PID[1]}" && wait_until 10 gone "${AGENT_PID[2]}" &&
		wait_until 5 bash -c "[[ -z \$(ip netns pids $NS_GEN; ip netns pids ${NS_T[1]}; ip netns pids ${NS_T[2]}) ]]"
}

# 2: the run
OUT=$TEST_TMP/run
start_agent 1 a1 "$OUT"
start_agent 2 a2 "$OUT"
hosts_file run.hosts
spike run "$OUT" --hosts run.hosts --token-file token "${SHORT[@]}"
st=$?
check_eq "spike.sh --hosts: exit 0" 0 "$st"
((st == 0)) || tail -n 20 spike-run.err "$OUT/logs/place.log" a1.log a2.log
check "report.html made" test -s "$OUT/report.html"
check_eq "run.json status" completed "$(jq -r .status "$OUT/run.json" 2>/dev/null)"
for i in 1 2; do
	row=${ROWS[i - 1]}
	check "$row: its host in summary.json is the hosts file's name (t$i)" jqe --arg r "$row" --arg h "t$i" '.variants[$r].host == $h' "$OUT/summary.json"
	check "$row: the report names its host and clock" grep -q "host t$i (agent at ${AGENT_ADDR[$i]}); reads in .* clock offset" "$OUT/report.html"
	check "$row: placed on t$i (events.jsonl)" jqe -s --arg r "$row" --arg h "t$i" 'any(.[]; .variant == $r and .event == "placed" and .host == $h)' "$OUT/events.jsonl"
	echo "$row: $(wc -l <"$OUT/agents/$row.jsonl" 2>/dev/null) reads, the report's $(jq -c --arg r "$row" '.agents[$r] | {share, gaps}' "$OUT/summary.json" 2>/dev/null)"
	check "$row: its agent's reads arrived and the report finds one in 90 % of the intervals" \
		jqe --arg r "$row" '.agents[$r].share >= 0.9' "$OUT/summary.json"
	check "$row: answered the generator" awk -F, -v v="$row" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["variant"] == v { ok += $c["noerror"] + $c["nxdomain"] } END { exit !(ok > 0) }' "$OUT/timeline.csv"
done
check "run.json's rows on their hosts and agents" jqe --arg a "${ROWS[0]}" --arg b "${ROWS[1]}" --arg x "${AGENT_ADDR[1]}" --arg y "${AGENT_ADDR[2]}" \
	'[.variants[] | [.name, .host, .agent]] == [[$a, "t1", $x], [$b, "t2", $y]]' "$OUT/run.json"
# the warm-up check on the agents' reads (their cache figures placed on the timeline)
check "the warm-up check ran on both rows' cache figures (run.json's warmup)" \
	jqe --arg a "${ROWS[0]}" --arg b "${ROWS[1]}" '[.warmup[$a, $b].cache_entries_end] | all(. > 0)' "$OUT/run.json"
check "the generator started at the placement's T0" jqe -s '(map(select(.event == "placement"))[0].t0 | tonumber) as $t0
	| map(select(.variant == "_loadgen" and .event == "started" and .start_realtime))[0].start_realtime
	| (tonumber - $t0) | fabs < 0.005' "$OUT/events.jsonl"
check "both agents withdrawn and ended, nothing left in any namespace" nothing_left
check_eq "place withdrew both (their leases never ran out)" 2 "$(grep -c ': withdrawn, its row stopped' "$OUT/logs/place.log")"
check "no agent's lease ran out in the healthy run" bash -c "! grep -q 'lease expired' a1.log a2.log"
check "the collector kept the leases: clocks every lease/4" \
	jqe '.processes[] | select(.name == "_collect").argv | (index("--clock-every") as $i | .[$i + 1]) == "1250ms"' "$OUT/place/plan.json"

# 2b: --spike-rate auto: the calibration's passes placed one after the other on the same agents
OUT=$TEST_TMP/auto
AGENT_DURATION=300s start_agent 1 c1 "$OUT" --plans unlimited
AGENT_DURATION=300s start_agent 2 c2 "$OUT" --plans unlimited
hosts_file auto.hosts
AUTO=("${SHORT[@]/#600/auto}")
spike auto "$OUT" --hosts auto.hosts --token-file token "${AUTO[@]}" --calibrate-len 3s --calibrate-max 400
st=$?
check_eq "spike.sh --hosts --spike-rate auto: exit 0" 0 "$st"
((st == 0)) || tail -n 20 spike-auto.err "$OUT/logs/place.log" c1.log c2.log
check_eq "run.json status" completed "$(jq -r .status "$OUT/run.json" 2>/dev/null)"
PASSES=$(jq '.calibration.passes | length' "$OUT/run.json" 2>/dev/null)
echo "the calibration: $PASSES passes, $(jq -c '.calibration | {slowest, capacity_of_slowest_qps, multiple, spike_rate_qps}' "$OUT/run.json" 2>/dev/null)"
check "the calibration ran passes" test "${PASSES:-0}" -ge 1
for ((k = 1; k <= ${PASSES:-0}; k++)); do
	folder=$(jq -r --argjson k "$k" '.calibration.passes[$k - 1].folder' "$OUT/run.json")
	check "pass $k ($folder): placed under the id run-auto-cal$k" jqe -s --arg r "run-auto-cal$k" \
		'any(.[]; .event == "placement" and .run == $r) and any(.[]; .event == "placed")' "$OUT/$folder/events.jsonl"
	# the pass's rows: all of them first, then those the scenario says still answered at the top
	want="${ROWS[*]}"
	((k > 1)) && want=$(grep 'still answered at the top; ramping again' spike-auto.err | sed -n "$((k - 1))p" |
		sed 's/.*calibration: \(.*\) still answered.*/\1/')
	placed=$(jq -r 'select(.event == "placed") | .variant' "$OUT/$folder/events.jsonl" | sort | xargs)
	check_eq "pass $k: placed the pass's rows, no other" "$(tr ' ' '\n' <<<"$want" | sort | xargs)" "$placed"
	check "pass $k: a timeline of the ramp" test -s "$OUT/$folder/timeline.csv"
done
check "the measured run placed under the run's id (run-auto)" \
	jqe -s 'any(.[]; .event == "placement" and .run == "run-auto")' "$OUT/events.jsonl"
check "the spikes at the multiple of the slowest row's capacity" \
	jqe '.calibration as $c | ($c.spike_rate_qps - ($c.multiple * $c.capacity_of_slowest_qps)) | fabs <= 1' "$OUT/run.json"
check "the measured run spiked at the calibrated rate" \
	jqe '.parameters.spike_rate_qps == .calibration.spike_rate_qps' "$OUT/run.json"
for i in 1 2; do
	taken=$(grep -c "plan taken: row ${ROWS[i - 1]} of run run-auto" "c$i.log")
	echo "t$i's agent took $taken plans: $(grep -o 'of run run-auto[a-z0-9-]*' "c$i.log" | cut -d' ' -f3 | tr '\n' ' ')"
	check "t$i's agent took a plan per pass it was in and one for the measured run" test "$taken" -ge 2
	check_eq "t$i's agent: each plan withdrawn, the agent awaiting the next" "$taken" \
		"$(grep -c 'plan withdrawn, its row stopped; awaiting the next plan' "c$i.log")"
	check "t$i's agent awaits after the run (--plans unlimited)" alive "${AGENT_PID[$i]}"
	check "t$i's agent's rows all stopped" bash -c "[[ -z \$(ip netns pids ${NS_T[i]} | grep -vx ${AGENT_PID[$i]}) ]]"
	kill -TERM "${AGENT_PID[$i]}"
	wait "${AGENT_PID[$i]}"
	check_eq "t$i's agent ends on SIGTERM: exit 0" 0 $?
done
check "nothing left in any namespace" nothing_left

# 2c: --repeat 2: each repeat placed on the same agents, each agent ending after its second plan
OUT=$TEST_TMP/repeat
start_agent 1 rp1 "$OUT/run-1" --plans 2
start_agent 2 rp2 "$OUT/run-1" --plans 2
hosts_file repeat.hosts
spike repeat "$OUT" --hosts repeat.hosts --token-file token "${SHORT[@]}" --repeat 2
st=$?
check_eq "spike.sh --hosts --repeat 2: exit 0" 0 "$st"
((st == 0)) || tail -n 20 spike-repeat.err rp1.log rp2.log
for k in 1 2; do
	check_eq "repeat $k: run.json status" completed "$(jq -r .status "$OUT/run-$k/run.json" 2>/dev/null)"
	check "repeat $k: placed under the id run-repeat-rep$k" \
		jqe -s --arg r "run-repeat-rep$k" 'any(.[]; .event == "placement" and .run == $r)' "$OUT/run-$k/events.jsonl"
done
check "the repeats compared" test -s "$OUT/compare.html"
for i in 1 2; do
	wait_until 10 gone "${AGENT_PID[$i]}"
	wait "${AGENT_PID[$i]}"
	check_eq "t$i's agent: its second plan withdrawn, it ended by itself, exit 0" 0 $?
	check "t$i's agent took both repeats' plans" bash -c "grep -q 'of run run-repeat-rep1' rp$i.log && grep -q 'of run run-repeat-rep2' rp$i.log"
done
check "nothing left in any namespace" nothing_left

# spike_signalled SIG NAME OUT: fresh agents (NAME1 on t1, NAME2 on t2), spike.sh in gen over them
# with a schedule of eight spikes, and SIG to it a second into the schedule (the generator's
# timeline has rows past t = 1 s), SIGNALLED_AT its time; spike.sh's exit status
spike_signalled() {
	local sig=$1 name=$2 out=$3 pid
	start_agent 1 "${name}1" "$out"
	start_agent 2 "${name}2" "$out"
	hosts_file "$name.hosts"
	# job control on: a background job of a script otherwise starts with SIGINT ignored; `ip netns
	# exec` execs spike.sh's bash, so $! is the scenario's own
	set -m
	ip netns exec "$NS_GEN" bash "$SPIKE" --out "$out" --hosts "$name.hosts" --token-file token "${SHORT[@]}" \
		--spikes 8 >"spike-$name.out" 2>"spike-$name.err" &
	pid=$!
	set +m
	_test_pids+=("$pid")
	if wait_until 40 bash -c "awk -F, 'NR > 1 && \$1 >= 1 { f = 1 } END { exit !f }' '$out/timeline.csv' 2>/dev/null"; then
		kill "-$sig" "$pid"
		SIGNALLED_AT=$(date +%s.%N)
	fi
	wait "$pid"
}

# 3: Ctrl-C during the placed run's schedule
OUT=$TEST_TMP/interrupted
spike_signalled INT b "$OUT"
check_eq "SIGINT during the placed run: exit 130" 130 $?
check_eq "run.json status" interrupted "$(jq -r .status "$OUT/run.json" 2>/dev/null)"
check "a report made all the same" test -s "$OUT/report.html"
check "both agents withdrawn and ended, nothing left in any namespace" nothing_left
check "place stopped by the run's end exited 130 (interrupted)" \
	jqe -s 'any(.[]; .variant == "_place" and .event == "exited" and .code == 130 and .requested)' "$OUT/events.jsonl"
check_eq "place withdrew both agents itself (DELETE /plan)" 2 "$(grep -c ': withdrawn, its row stopped' "$OUT/logs/place.log")"

# 4: spike.sh SIGKILLed during the placed run: nobody withdraws the agents, their leases do
OUT=$TEST_TMP/killed
spike_signalled KILL k "$OUT"
check_eq "spike.sh SIGKILLed during the placed run" 137 $?
for i in 1 2; do
	wait_until $((LEASE_S + 10)) gone "${AGENT_PID[$i]}"
	ended=$(date +%s.%N)
	wait "${AGENT_PID[$i]}"
	check_eq "t$i's agent: its lease ran out, exit 3" 3 $?
	check "t$i's agent says why" grep -q "lease expired: no request from the controller for .* (the lease: $LEASE_S s); plan withdrawn, its row stopped; ending" "k$i.log"
	echo "t$i's agent ended $(echo "$ended - ${SIGNALLED_AT:-0}" | bc) s after the SIGKILL (lease $LEASE_S s)"
done
check "both ended within the lease and a bound of the SIGKILL" bash -c "(( \$(echo '$ended - ${SIGNALLED_AT:-0} <= $LEASE_S + 5' | bc) ))"
check "nothing left in any namespace (the rows stopped by their agents)" nothing_left
# start_shard_agent I NAME: an agent in sI awaiting a shard plan (its fragments in NAME-fragments);
# sets AGENT_ADDR[sI], AGENT_PID[sI]
start_shard_agent() {
	local i=$1 name=$2
	start_server "$name" "$TEST_TMP/$name.ready" ip netns exec "${NS_S[i]}" "$B/allocspike-agent" --await-plan \
		--variants-table "$ALLOCSPIKE_SOURCE_DIR/variants.tsv" --control "$TEST_TMP/$name-row.ctl" \
		--listen "$(s_addr "$i"):0" --host "s$i" --token-file "$TEST_TMP/token" --shard-dir "$TEST_TMP/$name-fragments" \
		--duration 90s --lease "${LEASE_S}s" --ready-file "$TEST_TMP/$name.ready" >"$name.addr" || exit 1
	AGENT_ADDR[s$i]=$(cat "$name.addr")
	AGENT_PID[s$i]=${_test_pids[-1]}
}
# sharded_hosts NAME OUT: fresh agents, rows on t1 and t2, shards on s1 and s2; NAME.hosts names them
sharded_hosts() {
	local name=$1 out=$2 i
	for i in 1 2; do
		start_agent "$i" "$name$i" "$out"
		start_shard_agent "$i" "${name}s$i"
	done
	hosts_file "$name.hosts"
	printf 's1 %s @shard\ns2 %s @shard\n' "${AGENT_ADDR[s1]}" "${AGENT_ADDR[s2]}" >>"$name.hosts"
}
# nothing_left_sharded: the shards' agents ended too, nothing in their namespaces
nothing_left_sharded() {
	nothing_left && wait_until 10 gone "${AGENT_PID[s1]}" && wait_until 10 gone "${AGENT_PID[s2]}" &&
		wait_until 5 bash -c "[[ -z \$(ip netns pids ${NS_S[1]}; ip netns pids ${NS_S[2]}) ]]"
}

# 5: the generator as two shards on the generator hosts; s1 has a second address, which its route
# toward the rows chooses as the source: the rows answer it because s1's agent names it (GET
# /sources), not only the address it listens on
S1_OTHER=10.231.13.2
ip -n "${NS_S[1]}" addr add "$S1_OTHER/32" dev "${P}s1$ID" &&
	ip -n "${NS_S[1]}" route replace 10.231.0.0/16 via "$(gen_addr 3)" src "$S1_OTHER" &&
	ip -n "$NS_GEN" route add "$S1_OTHER/32" via "$(s_addr 1)"
check "s1 sends toward t1 from its second address" \
	bash -c "ip -n ${NS_S[1]} route get $(t_addr 1) | grep -q 'src $S1_OTHER'"
OUT=$TEST_TMP/shards
sharded_hosts h "$OUT"
spike shards "$OUT" --hosts h.hosts --token-file token "${SHORT[@]}"
st=$?
check_eq "spike.sh --hosts with two @shard hosts: exit 0" 0 "$st"
((st == 0)) || tail -n 20 spike-shards.err "$OUT/logs/place.log" "$OUT/logs/loadgen.log" hs1.log hs2.log
check_eq "run.json status" completed "$(jq -r .status "$OUT/run.json" 2>/dev/null)"
check "report.html made" test -s "$OUT/report.html"
for i in 1 2; do
	check "s$i's agent ran shard $i/2 of the run" grep -q "plan taken: shard $i/2 of run run-shards" "hs$i.log"
	check "the run's timeline has shard $i's generator (_loadgen_$i), merged" grep -q ",_loadgen_$i," "$OUT/timeline.csv"
	check "shard $i started at the placement's T0, the run's origin" jqe -s --arg g "_loadgen_$i" \
		'(map(select(.event == "placement"))[0].t0 | tonumber) as $t0
		| map(select(.variant == $g and .event == "started" and .start_realtime))[0].start_realtime
		| (tonumber - $t0) | fabs < 0.000001' "$OUT/events.jsonl"
done
check "the schedule's first phase at t_s 0 (the origin is T0)" \
	jqe -s 'map(select(.event == "phase"))[0].t_s | fabs < 0.01' "$OUT/events.jsonl"
for i in 1 2; do
	row=${ROWS[i - 1]}
	check "$row: the report's figures (answered, its host t$i)" \
		jqe --arg r "$row" --arg h "t$i" '.variants[$r] | .answered > 0 and .host == $h' "$OUT/summary.json"
	check "$row: no query refused (REFUSED is rcode_other): both shards' sources answered" \
		bash -c "[[ \$(awk -F, -v v='$row' 'NR == 1 { for (c = 1; c <= NF; c++) if (\$c == \"rcode_other\") k = c } NR > 1 && \$2 == v { n += \$k } END { print n + 0 }' '$OUT/timeline.csv') == 0 ]]"
	echo "$row (sharded): $(wc -l <"$OUT/agents/$row.jsonl" 2>/dev/null) reads, the report's $(jq -c --arg r "$row" '.agents[$r] | {share, gaps}' "$OUT/summary.json" 2>/dev/null)"
	check "$row: the report finds a read in 99 % of the intervals" jqe --arg r "$row" '.agents[$r].share >= 0.99' "$OUT/summary.json"
done
check "the warm-up check ran on both rows (run.json's warmup)" \
	jqe --arg a "${ROWS[0]}" --arg b "${ROWS[1]}" '[.warmup[$a, $b].cache_entries_end] | all(. > 0)' "$OUT/run.json"
check "every agent withdrawn and ended, nothing left in any namespace" nothing_left_sharded

# 6: a shard's agent killed during the sharded run fails it, naming the host
OUT=$TEST_TMP/shard-dead
sharded_hosts d "$OUT"
spike shard-dead "$OUT" --hosts d.hosts --token-file token "${SHORT[@]}" --spikes 4 &
spike_pid=$!
_test_pids+=("$spike_pid")
# the plan is taken before T0, which is place's lead (3 s) away at most: 4 s later the shards send
wait_until 40 grep -q "plan taken: shard 2/2" ds2.log && sleep 4
kill -KILL "${AGENT_PID[s2]}"
wait "$spike_pid"
check_eq "s2's agent SIGKILLed during the sharded run: exit 1" 1 $?
check_eq "run.json status" failed "$(jq -r .status "$OUT/run.json" 2>/dev/null)"
echo "the sharded run's failure: $(jq -r .failure "$OUT/run.json" 2>/dev/null)"
check "its failure names host s2, its agent and shard" jqe --arg a "${AGENT_ADDR[s2]}" \
	'.failure | contains("host s2 (agent \($a)), shard 2/2: its agent is gone")' "$OUT/run.json"
check "the other agents withdrawn and ended, nothing left in any namespace" nothing_left_sharded

# 7: the hierarchy on a routable block of gen's own addresses (10.231.53.0/24 on gen's lo: every
# address of a prefix on lo is local), which t1 and t2 reach by a plain route through gen: their
# route to 127.53.0.0/16 is gone, so the rows can iterate only through the routable block
BLOCK=10.231.53
ip -n "$NS_GEN" addr add "$BLOCK.1/24" dev lo
for i in 1 2; do
	ip -n "${NS_T[i]}" route del 127.53.0.0/16
	ip -n "${NS_T[i]}" route add "$BLOCK.0/24" via "$(gen_addr "$i")"
done
check "t1 has no route to the loopback block any more" bash -c "! ip -n ${NS_T[1]} route get 127.53.0.1 >/dev/null 2>&1"
OUT=$TEST_TMP/block
start_agent 1 r1 "$OUT"
start_agent 2 r2 "$OUT"
hosts_file block.hosts
spike block "$OUT" --hosts block.hosts --token-file token "${SHORT[@]}" --hierarchy-block "$BLOCK.0/24"
st=$?
check_eq "spike.sh --hosts --hierarchy-block $BLOCK.0/24: exit 0" 0 "$st"
((st == 0)) || tail -n 20 spike-block.err "$OUT/logs/upstream.log" "$OUT/logs/place.log" r1.log r2.log
check "the root hints name the routable block's first address" grep -q "A[[:space:]]*$BLOCK.1\$" "$OUT/root.hints"
for i in 1 2; do
	row=${ROWS[i - 1]}
	check "$row on t$i: answered through the routable hierarchy (NOERROR)" awk -F, -v v="$row" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["variant"] == v { ok += $c["noerror"] } END { exit !(ok > 0) }' "$OUT/timeline.csv"
done
check "both agents withdrawn and ended, nothing left in any namespace" nothing_left
spike loopback-block "$TEST_TMP/loopback-block" --token-file token "${SHORT[@]}" --hierarchy-block "$BLOCK.0/24"
check_eq "a routable --hierarchy-block without --hosts: exit 2" 2 $?
check "its refusal says only a run across hosts takes it" grep -q "is outside 127.0.0.0/8, which only a run across hosts (--hosts) takes" spike-loopback-block.err
netns_show_failures
finish
