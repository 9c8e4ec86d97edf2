#!/bin/bash
# tests/agent/pid_from_control.sh - allocspike-agent --pid-from-control, the way a sidecar finds the
# resolver it shares a Pod's process namespace with (deploy/kubernetes/): started before the
# resolver, it waits for the control socket, reads the process that serves it (its /proc figures
# are the resolver's), and refuses a resolver in a PID namespace it cannot see; usage errors exit 2.
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
NET=127.56.37
source "$ALLOCSPIKE_SOURCE_DIR/tests/resolver/hierarchy_lib.sh"
AGENT="$ALLOCSPIKE_BIN/allocspike-agent"
resolver_binary >/dev/null || skip "no resolver variant built"
cd "$TEST_TMP"

"$AGENT" --pid-from-control >/dev/null 2>err.txt
check_eq "--pid-from-control without --control: exit 2" 2 $?
check "says what it needs" grep -q -- '--pid-from-control needs --control and no --pid' err.txt
"$AGENT" --pid-from-control --pid 1 --control x.sock >/dev/null 2>err.txt
check_eq "--pid-from-control with --pid: exit 2" 2 $?

# The agent first: it waits for the resolver's socket.
lifeline_set
"${LIFELINE[@]}" "$AGENT" --pid-from-control --control "$TEST_TMP/resolver.ctl" --listen 127.0.0.1:0 \
	--variant glibc --ready-file agent.ready >agent.log 2>&1 &
_test_pids+=($!)
sleep 0.5
start_hierarchy "$NET" || exit 1
start_resolver resolver "$NET.10" --upstream-source "$NET.10" || exit 1
for ((i = 0; i < 100; i++)); do
	[[ -s agent.ready ]] && break
	sleep 0.1
done
check "the agent started before the resolver is ready once it answers" test -s agent.ready
URL="http://$(sed -n 's/^ready //p' agent.ready)/metrics"
ask www.example.test A >/dev/null
sleep 0.3
curl -sf "$URL" -o m.txt
check "the target is up" grep -q '^allocspike_target_up{.*} 1$' m.txt
rss_proc=$(awk '/^VmRSS:/ { print $2 * 1024 }' "/proc/$RPID/status")
check "its resident memory is the resolver's (within 10 % of /proc/$RPID)" awk -v b="$rss_proc" \
	'/^allocspike_resident_memory_bytes\{/ { a = $NF } END { exit !(a > 0 && a > b * 0.9 && a < b * 1.1) }' m.txt
check "its counters come from the socket" awk '/^allocspike_upstream_queries_total\{/ { n = $NF } END { exit !(n >= 1) }' m.txt

# An agent in a PID namespace of its own cannot see the resolver: refused, with the reason.
if unshare --pid --fork --mount-proc true 2>/dev/null; then
	unshare --pid --fork --mount-proc "$AGENT" --pid-from-control --control "$RCTL" \
		--listen 127.0.0.1:0 >/dev/null 2>err.txt
	check_eq "a resolver outside the agent's PID namespace: exit 1" 1 $?
	check "says why" grep -q 'another PID namespace (a Pod needs shareProcessNamespace: true)' err.txt
else
	echo "note: cannot create a PID namespace here; the refusal is not checked"
fi
finish
