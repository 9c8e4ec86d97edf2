#!/bin/bash
# tests/agent/start_daemon.sh - allocspike-agent --start of a daemon row (issue 30: a resolver on its
# own host is often kresd or unbound): the agent starts the project's kresd-glibc row through its
# definition's launcher (scenarios/daemons/lib/row.sh: prepare, the preloaded live sampler and
# allocator probe, the probe until it answers, the allocator check), on a port it picks on the
# --resolver-listen address, against the simulated hierarchy on port 53; it samples the daemon (the
# ready file's pid), whose live sampler serves the agent's control socket; the daemon answers
# through the hierarchy, and ends with the agent (SIGTERM) or dies with it (SIGKILL). A daemon row asked to send upstream to another
# port than 53 is refused (exit 2), as is one without root hints.
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
source "$ALLOCSPIKE_SOURCE_DIR/tests/daemons/answers_lib.sh"
AGENT=$ALLOCSPIKE_BIN/allocspike-agent
[[ -x $AGENT ]] || skip "allocspike-agent is not built"
[[ ${ALLOCSPIKE_SANITIZE:-0} != 1 ]] || skip "the sanitizer build has no preload libraries"
command -v kresd >/dev/null || skip "kresd not installed (apt-get install knot-resolver)"
command -v kdig >/dev/null || skip "kdig not installed (apt-get install knot-dnsutils)"
command -v curl >/dev/null || skip "curl not installed"
cd "$TEST_TMP" || exit 1
T=$ALLOCSPIKE_SOURCE_DIR/variants.tsv
LISTEN=127.58.3.1

"$AGENT" --start kresd-glibc --variants-table "$T" --control "$TEST_TMP/x.ctl" --upstream-port 5353 \
	--root-hints /dev/null >out.txt 2>err.txt
check_eq "a daemon row sending upstream to port 5353: exit 2" 2 $?
check "says a daemon sends to port 53 only" grep -q "row kresd-glibc is a daemon, which sends upstream to port 53 only" err.txt
"$AGENT" --start kresd-glibc --variants-table "$T" --control "$TEST_TMP/x.ctl" >out.txt 2>err.txt
check_eq "a daemon row without root hints: exit 2" 2 $?
check "says it needs them" grep -q "row kresd-glibc is a daemon: it needs the hierarchy's root hints" err.txt

hierarchy_start --seed 5 --no-loss
LIFELINE=()
lifeline_set
"${LIFELINE[@]}" "$AGENT" --start kresd-glibc --variants-table "$T" --root-hints "$TEST_TMP/hints" \
	--upstream-source 127.0.1.7 --resolver-listen "$LISTEN" --control "$TEST_TMP/row.ctl" \
	--listen 127.0.0.1:0 --interval 100ms --variant kresd-glibc --duration 120s \
	--ready-file "$TEST_TMP/agent.ready" -- --cache-size 16M >agent.log 2>&1 &
APID=$!
_test_pids+=("$APID")
wait_until 60 test -s "$TEST_TMP/agent.ready"
check "the agent is ready once its daemon is (within 60 s)" test -s "$TEST_TMP/agent.ready" || {
	cat agent.log
	finish
}
ready=$TEST_TMP/row.ctl.ready
RADDR=$(sed -n 's/^ready \(.*\):[0-9]*$/\1/p' "$ready")
RPORT=$(sed -n 's/^ready .*:\([0-9]*\)$/\1/p' "$ready")
DPID=$(sed -n 's/^pid //p' "$ready")
check_eq "the daemon serves on the address given, on a port picked for it" "$LISTEN" "$RADDR"
check "its port is not 0" test "${RPORT:-0}" -gt 0
check_eq "the pid sampled is kresd's" kresd "$(cat "/proc/$DPID/comm" 2>/dev/null)"
check "its allocator preloaded with the live sampler" grep -qz '^LD_PRELOAD=.*sampler' "/proc/$DPID/environ"
# names of the simulated hierarchy's world (the generator's model)
"$ALLOCSPIKE_BIN/allocspike-querydata" generate --seed 5 --count 8 -o names.txt
statuses=$(while read -r name type; do
	kdig @"$RADDR" -p "$RPORT" +time=4 +retry=1 "$name" "$type" 2>&1 | sed -n 's/.*status: \([A-Z]*\).*/\1/p'
done <names.txt | sort | uniq -c)
echo "the daemon's answers: $(echo $statuses)"
check "it answers through the hierarchy (NOERROR among 8 names of its world)" grep -q NOERROR <<<"$statuses"
sleep 0.5
curl -sf "http://$(cat "$TEST_TMP/agent.ready" | sed -n 's/^ready //p')/metrics" -o m.txt
check "the agent samples it: up" grep -q '^allocspike_target_up{.*} 1$' m.txt
check "its live bytes come from the preloaded sampler's socket" \
	awk '/^allocspike_live_bytes\{/ { n = $NF } END { exit !(n > 0) }' m.txt
kill -TERM "$APID"
wait "$APID"
check_eq "the agent ends on SIGTERM: exit 0" 0 $?
wait_until 15 gone "$DPID"
check "and the daemon with it" gone "$DPID"

# the agent SIGKILLed: its launcher dies by its death signal, and the daemon by the launcher's
rm -f "$TEST_TMP/agent.ready"
"${LIFELINE[@]}" "$AGENT" --start kresd-glibc --variants-table "$T" --root-hints "$TEST_TMP/hints" \
	--resolver-listen "$LISTEN" --control "$TEST_TMP/row2.ctl" --listen 127.0.0.1:0 --duration 120s \
	--ready-file "$TEST_TMP/agent.ready" >agent2.log 2>&1 &
APID=$!
_test_pids+=("$APID")
wait_until 60 test -s "$TEST_TMP/agent.ready"
DPID=$(sed -n 's/^pid //p' "$TEST_TMP/row2.ctl.ready")
check "a second daemon started" alive "${DPID:-0}"
kill -KILL "$APID"
wait "$APID" 2>/dev/null
wait_until 15 gone "$DPID"
check "the agent SIGKILLed: its daemon killed too" gone "$DPID"
finish
