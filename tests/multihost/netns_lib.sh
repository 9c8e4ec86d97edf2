# tests/multihost/netns_lib.sh - the hosts of issue 30's runs as network namespaces, shared by the
# multihost tests (netns_run.sh: agents on rows started by hand; netns_place.sh: rows placed by
# allocspike-run place; netns_spike.sh: spike.sh --hosts). Sourced after tests/lib.sh with NETNS_PREFIX set (two letters, each test its
# own, so that tests in parallel never share a namespace name): skips (77) where namespaces cannot be
# made, chooses the two rows (ROWS, RBIN, RENV), makes "gen" and "t1", "t2" joined by veths
# (NS_GEN, NS_T, nsx, t_addr, gen_addr), with NETNS_SHARD_HOSTS=1 also "s1", "s2", generator
# hosts joined to gen, which routes between them and t1, t2 (NS_S, s_addr),
# removes them on every exit path, starts the hierarchy in gen
# (UPORT, $TEST_TMP/root.hints; not with NETNS_HIERARCHY=0), and holds the passes' schedule, generator, report and checks.
# How the namespaces are joined: docs/distributed.md, "Hosts as network namespaces"; in short,
# route_localnet=1 in every namespace, a route to 127.53.0.0/16 via gen, t1's and t2's own loopback
# narrowed to 127.0.0.1/32 (else 127.53.x.x would be their own), and the hierarchy's UDP served by one
# socket per address (--udp-sockets per-address: its shared socket is bound to lo and sees nothing
# from a veth).
: "${NETNS_PREFIX:?set by the test}"
command -v jq >/dev/null || skip "jq not installed"
command -v ip >/dev/null || skip "ip (iproute2) not installed"
command -v kdig >/dev/null || skip "kdig not installed (knot-dnsutils)"
((EUID == 0)) || skip "not root: network namespaces need CAP_SYS_ADMIN"
# Not in the sanitizer build: there one run in about five saw t2's resolver (ASan-built, asked 800
# new names a second) leave queries unanswered and its reads flat in pass 2, unexplained, and the
# suite must not fail by chance. The agent, the collector and the report's agent reads run under
# the sanitizers in their own tests (agent, controller_collect, report_agent_*).
[[ ${ALLOCSPIKE_SANITIZE:-0} != 1 ]] || skip "the sanitizer build (see the comment above this line)"
B=$ALLOCSPIKE_BIN
for p in allocspike-upstream allocspike-loadgen allocspike-agent allocspike-run allocspike-report; do
	[[ -x $B/$p ]] || skip "$p is not built"
done
# The rows: glibc and jemalloc; where jemalloc is not built (the sanitizer build makes only the
# glibc variant) the first other row of variants.tsv that is and preloads nothing (a preloaded
# allocator would displace the sanitizers'): an env row over glibc's binary there.
declare -A RBIN RENV
while IFS=$'\t' read -r name kind _ _ _ base env _; do
	case $kind in
	build) bin=$B/allocspike-resolver-$name ;;
	env) bin=$B/allocspike-resolver-$base ;;
	*) continue ;;
	esac
	[[ -x $bin && $env != *LD_PRELOAD* ]] || continue
	RBIN[$name]=$bin
	RENV[$name]=${env#-}
done < <(variants_rows)
[[ -n ${RBIN[glibc]:-} ]] || skip "allocspike-resolver-glibc is not built"
ROWS=(glibc)
for name in jemalloc $(variants_rows | cut -f1); do
	[[ $name != glibc && -n ${RBIN[$name]:-} ]] && ROWS+=("$name") && break
done
((${#ROWS[@]} == 2)) || skip "no second resolver row is built"
echo "rows: t1 ${ROWS[0]}, t2 ${ROWS[1]} (${RBIN[${ROWS[1]}]##*/}${RENV[${ROWS[1]}]:+ with ${RENV[${ROWS[1]}]}})"
cd "$TEST_TMP" || exit 1

# The hosts. Killing what runs in a namespace before deleting it: a process left in one would keep
# it (and its veth) alive after its name is gone.
ID=$$
P=$NETNS_PREFIX
NS_GEN=${P}gen$ID
NS_T=("" "${P}t1$ID" "${P}t2$ID") # t1, t2: ROWS[0], ROWS[1]
NS_S=()
((${NETNS_SHARD_HOSTS:-0})) && NS_S=("" "${P}s1$ID" "${P}s2$ID") # s1, s2: the generator's shards
MADE_NETNS=()
netns_cleanup() {
	local ns pid
	for ns in "${MADE_NETNS[@]}"; do
		for pid in $(ip netns pids "$ns" 2>/dev/null); do kill -KILL "$pid" 2>/dev/null; done
	done
	for ns in "${MADE_NETNS[@]}"; do ip netns del "$ns" 2>/dev/null; done
}
trap '_test_cleanup; netns_cleanup' EXIT
trap 'exit 143' TERM INT HUP # the EXIT trap then runs; long waits are `wait`, which a signal ends
# a run SIGKILLed (ctest's timeout) could not remove its namespaces: those of a PID that is gone
while read -r prefix pid; do
	[[ -d /proc/$pid ]] || ip netns del "$prefix$pid" 2>/dev/null
done < <(ip netns list 2>/dev/null | sed -n "s/^\\(${P}gen\\|${P}[ts][12]\\)\\([0-9][0-9]*\\)\\( .*\\)\\{0,1\\}\$/\\1 \\2/p")
for ns in "$NS_GEN" "${NS_T[1]}" "${NS_T[2]}" "${NS_S[@]:1}"; do
	ip netns add "$ns" 2>netns.err || skip "ip netns add failed: $(cat netns.err)"
	MADE_NETNS+=("$ns")
done
nsx() {
	local ns=$1
	shift
	ip netns exec "$ns" "$@"
}
# t_addr I, gen_addr I: the two ends of gen's veth to tI; s_addr I: sI's end of its veth to gen
# (gen's end: gen_addr $((I + 2)))
t_addr() { echo "10.231.$1.2"; }
gen_addr() { echo "10.231.$1.1"; }
s_addr() { echo "10.231.$(($1 + 2)).2"; }
setup_hosts() {
	ip -n "$NS_GEN" link set lo up &&
		nsx "$NS_GEN" sysctl -qw net.ipv4.conf.all.route_localnet=1 || return 1
	local i ns
	for i in 1 2; do
		ns=${NS_T[i]}
		ip link add "${P}g$i$ID" netns "$NS_GEN" type veth peer name "${P}t$i$ID" netns "$ns" &&
			ip -n "$NS_GEN" addr add "$(gen_addr "$i")/24" dev "${P}g$i$ID" &&
			ip -n "$NS_GEN" link set "${P}g$i$ID" up &&
			ip -n "$ns" addr add "$(t_addr "$i")/24" dev "${P}t$i$ID" &&
			ip -n "$ns" link set "${P}t$i$ID" up &&
			ip -n "$ns" link set lo up &&
			ip -n "$ns" addr del 127.0.0.1/8 dev lo &&
			ip -n "$ns" addr add 127.0.0.1/32 dev lo &&
			nsx "$ns" sysctl -qw net.ipv4.conf.all.route_localnet=1 &&
			ip -n "$ns" route add 127.53.0.0/16 via "$(gen_addr "$i")" || return 1
	done
	((${#NS_S[@]})) || return 0
	# the generator hosts: gen routes between them and t1, t2, which answer them through gen
	nsx "$NS_GEN" sysctl -qw net.ipv4.ip_forward=1 || return 1
	for i in 1 2; do
		ns=${NS_S[i]}
		ip link add "${P}h$i$ID" netns "$NS_GEN" type veth peer name "${P}s$i$ID" netns "$ns" &&
			ip -n "$NS_GEN" addr add "$(gen_addr $((i + 2)))/24" dev "${P}h$i$ID" &&
			ip -n "$NS_GEN" link set "${P}h$i$ID" up &&
			ip -n "$ns" addr add "$(s_addr "$i")/24" dev "${P}s$i$ID" &&
			ip -n "$ns" link set "${P}s$i$ID" up &&
			ip -n "$ns" link set lo up &&
			ip -n "$ns" route add 10.231.0.0/16 via "$(gen_addr $((i + 2)))" &&
			ip -n "${NS_T[i]}" route add 10.231.0.0/16 via "$(gen_addr "$i")" || return 1
	done
}
setup_hosts 2>setup.err || {
	echo "FAIL the namespaces could not be joined: $(cat setup.err)"
	exit 1
}
check "t1 routes the hierarchy's block through gen" \
	bash -c "ip -n ${NS_T[1]} route get 127.53.0.1 | grep -q 'via $(gen_addr 1) dev ${P}t1$ID'"

# gen: the hierarchy, no loss (a lost upstream query would hold a spike's queries up to the timeout),
# on port 53, which a daemon row cannot change (gen's own port space: no other test's); not with
# NETNS_HIERARCHY=0 (netns_spike.sh: spike.sh starts its own there)
if ((${NETNS_HIERARCHY:-1})); then
	start_server upstream "$TEST_TMP/upstream.ready" ip netns exec "$NS_GEN" "$B/allocspike-upstream" \
		--udp-sockets per-address --port 53 --seed 30 --no-loss --root-hints "$TEST_TMP/root.hints" \
		--control "$TEST_TMP/upstream.ctl" --ready-file "$TEST_TMP/upstream.ready" >upstream.addr || exit 1
	UPORT=$(sed 's/.*://' upstream.addr)
fi

# The passes: 5 s of schedule, two spikes of 800 qps over 40 qps, names never asked before (so that
# every query costs the resolver an upstream query and a spike shows in the agent's reads).
SCHEDULE='baseline:1s@40,spike:1s@800,recovery:1s@40,spike:1s@800,recovery:1s@40'
SCHEDULE_S=5
INTERVAL_S=0.1 # the run's (the generator's timeline); the agents read twice as often
# pass_start_at: a schedule start 1.5 s ahead, as --start-at takes it
pass_start_at() { awk -v now="$(date +%s.%N)" 'BEGIN { printf "%.3f", now + 1.5 }'; }
# pass_queries PASS: queries$PASS.txt, names no pass asked before (those of pass $QUERIES_OF when set)
pass_queries() {
	awk -v p="${QUERIES_OF:-$1}" 'BEGIN { for (i = 0; i < 2000; i++) printf "n%dp%d.com A\n", i, p }' >"queries$1.txt"
}
# pass_generate PASS START TARGET-OPTION...: the generator in gen for the schedule starting at START
# (--start-at), into $TEST_TMP/passPASS; queries: names no pass asked before (those of pass
# $QUERIES_OF when set). Checks its exit status.
pass_generate() {
	local pass=$1 start=$2 LIFELINE
	shift 2
	pass_queries "$pass"
	lifeline_set
	"${LIFELINE[@]}" timeout 30 ip netns exec "$NS_GEN" "$B/allocspike-loadgen" -d "queries$pass.txt" \
		--schedule "$SCHEDULE" "$@" --allow-remote \
		--out "$TEST_TMP/pass$pass" --start-at "$start" --no-progress >"lg$pass.out" 2>"lg$pass.err" &
	_test_pids+=($!)
	wait "$!"
	check_eq "pass $pass: generator exit status" 0 $?
}
# pass_report PASS: run.json as a scenario writes it (a row the fixture has not: its glibc row
# renamed), then the report
pass_report() {
	local out=$TEST_TMP/pass$1
	jq --arg s "$SCHEDULE" --arg a "${ROWS[0]}" --arg b "${ROWS[1]}" '.parameters.interval_ms = 100
		| .parameters.schedule = $s | .status = "completed"
		| .variants as $v | .variants = [$a, $b | . as $n | ($v | map(select(.name == $n)))[0] // ($v[0] + {name: $n})]' \
		"$ALLOCSPIKE_SOURCE_DIR/tests/fixtures/run-minimal/run.json" >"$out/run.json"
	"$B/allocspike-report" "$out" >"report$1.out" 2>"report$1.err"
	check_eq "pass $1: report exit status" 0 $?
}

# reads_share DIR ROW: the reads that arrived of those the agent was to make between its first
# and last (one per 50 ms)
reads_share() {
	jq -s 'map(.t_start_ns) | ((length) / (((.[-1] - .[0]) / 5e7 | round) + 1))' "$1/agents/$2.jsonl"
}
# check_reads PASS ROW: at least 99 % of the agent's reads arrived, and the report finds one in 99 %
# of the intervals
check_reads() {
	local share
	share=$(reads_share "$TEST_TMP/pass$1" "$2")
	echo "pass $1 $2: reads $(wc -l <"$TEST_TMP/pass$1/agents/$2.jsonl"), share of expected $share," \
		"the report's $(jq -c ".agents[\"$2\"] | {share, gaps}" "$(S "$1")" 2>/dev/null)"
	check "pass $1 $2: at least 99 % of the expected reads arrived" jqe -n "$share >= 0.99"
	check "pass $1 $2: the report finds a read in 99 % of the intervals" jqe ".agents[\"$2\"].share >= 0.99" "$(S "$1")"
}
# onsets DIR ROW [FIELD]: per spike of events.jsonl, "SPIKE_T_S ONSET_MINUS_SPIKE_S": the onset is the first
# read from 0.5 s before the spike on whose upstream queries grew at 300/s or more since the read
# before (the baseline's names cost at most 80/s, a spike's at least 800/s), the read placed on the
# timeline as the report places it: (t_start_ns - start_realtime) / 1e9 (FIELD: another stamp
# than t_start_ns, the controller's).
onsets() {
	jq -rs --arg f "${3:-t_start_ns}" --slurpfile ev "$1/events.jsonl" '
		($ev | map(select(.variant == "_loadgen" and .event == "started"))[0].start_realtime
			| split(".") | (.[0] | tonumber) * 1e9 + (.[1] | tonumber)) as $start
		| [.[] | select(.upstream_queries != null) | {t: ((.[$f] - $start) / 1e9), q: .upstream_queries}]
		| sort_by(.t) as $r
		| [range(1; $r | length) | {t: $r[.].t, rate: (($r[.].q - $r[. - 1].q) / ($r[.].t - $r[. - 1].t))}] as $d
		| $ev[] | select(.variant == "_loadgen" and .event == "phase" and .phase == "spike") | .t_s as $s
		| ([$d[] | select(.t >= $s - 0.5 and .rate >= 300)][0].t) as $o
		| "\($s) \(if $o == null then "none" else $o - $s end)"' "$1/agents/$2.jsonl"
}
# check_onsets PASS ROW: both spikes found, each onset within one interval of its event
check_onsets() {
	local dir=$TEST_TMP/pass$1 row=$2 lines
	lines=$(onsets "$dir" "$row")
	echo "pass $1 $row: spike and onset - spike (s): ${lines//$'\n'/; }"
	check_eq "pass $1 $row: two spikes in events.jsonl, each with an onset in the reads" 2 \
		"$(awk '$2 != "none"' <<<"$lines" | wc -l)"
	# shellcheck disable=SC2016 # awk's fields
	check "pass $1 $row: each onset within one interval ($INTERVAL_S s) of its event" \
		awk -v i="$INTERVAL_S" '$2 == "none" || $2 < -i || $2 > i { exit 1 }' <<<"$lines"
}
S() { echo "$TEST_TMP/pass$1/summary.json"; }
jqe() { jq -e "$@" >/dev/null; }
# netns_show_failures: what a failure needs to be understood where the folder is gone (CI)
netns_show_failures() {
	local f
	((_test_failures)) || return 0
	for f in collect*.err lg*.err report*.err place*.err spike-*.err; do
		[[ -s $f ]] && echo "--- $f" && tail -15 "$f"
	done
}
