#!/bin/bash
# tests/controller/poll_sizes.sh - allocspike-run poll-sizes, footprint.sh's poller, against live
# samplers preloaded into `sleep`: one line per row and round with the keys in their order, the
# sampler's figures passed through, a build's inflight from its control socket (age 0.0); a socket
# that does not answer (its process stopped) or is not there is skipped without a hang; SIGTERM
# ends it with status 0 and whole lines; it goes with its parent; a bad target word exits 2.
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
RUN="$ALLOCSPIKE_BIN/allocspike-run"
SAMPLER="$ALLOCSPIKE_BIN/../lib/liballocspike-live-sampler.so"
[[ -f $SAMPLER ]] || skip "the live sampler is not built"
cd "$TEST_TMP" || exit 1
KEYS='["unix_s","live_bytes","live_blocks","inflight","inflight_age_s","size_classes"]'

# sampled NAME [DAEMON_STATS] : a sleeping process with the sampler answering at NAME.sock
sampled() {
	LD_PRELOAD=$SAMPLER ALLOCSPIKE_SAMPLER_SOCKET=$TEST_TMP/$1.sock \
		ALLOCSPIKE_SAMPLER_DAEMON_STATS=${2:-} sleep 120 &
	_test_pids+=($!)
}
echo '{"inflight":12,"cache_entries":3}' >daemon-stats.json
sampled daemon daemon-stats.json # a daemon's sampler: inflight and its age spliced in
sampled build                    # our build's sampler: no daemon figures ...
sampled control daemon-stats.json # ... its inflight from the control socket
sampled stalled
stalled_pid=$!
for s in daemon build control stalled; do
	for _ in $(seq 100); do [[ -S $s.sock ]] && break; sleep 0.05; done
done
kill -STOP "$stalled_pid" # it accepts connections (the backlog) but never answers

# usage errors: nothing written
for word in noequals =x.sock n= n=,c.sock; do
	"$RUN" poll-sizes bad 0.2 1 "$word" 2>err.txt
	check_eq "bad target '$word': exit 2" 2 $?
done
check "says which word" grep -q "bad target 'n=,c.sock'" err.txt
"$RUN" poll-sizes bad 0.2 1 2>/dev/null
check_eq "no target: exit 2" 2 $?
"$RUN" poll-sizes bad soon 1 d=daemon.sock 2>/dev/null
check_eq "a period that is no duration: exit 2" 2 $?
check "nothing written on a usage error" test ! -e bad

# a short run: every round's lines, the stalled and the missing socket skipped
timeout 20 "$RUN" poll-sizes out 0.2 2 daemon=daemon.sock build=build.sock,control.sock \
	stalled=stalled.sock missing=missing.sock 2>err.txt
check_eq "MAX reached: exit 0 (within the timeout)" 0 $?
check "the daemon row polled" test "$(wc -l <out/daemon.jsonl)" -ge 1
check "the build row polled" test "$(wc -l <out/build.jsonl)" -ge 1
check "the stalled socket skipped: no line" test ! -s out/stalled.jsonl
check "the missing socket skipped: no line" test ! -s out/missing.jsonl
for row in daemon build; do
	check "$row: the keys in their order" jq -se --argjson k "$KEYS" 'all(.[]; keys_unsorted == $k)' out/$row.jsonl
	check "$row: the sampler's figures" jq -se \
		'all(.[]; .live_bytes > 0 and .live_blocks > 0 and (.size_classes.le | length) > 1)' out/$row.jsonl
	check "$row: unix_s this wall clock's" jq -se --argjson now "$(date +%s)" \
		'all(.[]; (.unix_s - $now | fabs) < 600)' out/$row.jsonl
	check "$row: unix_s first, to the millisecond" bash -c "! grep -vqE '^[{]\"unix_s\":[0-9]+[.][0-9]{1,3},' out/$row.jsonl"
	check "$row: compact (no blank anywhere)" bash -c "! grep -qE '[[:space:]]' out/$row.jsonl"
done
check "daemon: inflight and its age from its sampler" jq -se \
	'all(.[]; .inflight == 12 and (.inflight_age_s | type) == "number")' out/daemon.jsonl
check "build: inflight from the control socket" jq -se 'all(.[]; .inflight == 12)' out/build.jsonl
check "build: its age written 0.0, as Python writes it" grep -qF '"inflight_age_s":0.0,' out/build.jsonl

# a build whose control socket does not answer: its line still written, inflight and age null
timeout 20 "$RUN" poll-sizes nocontrol 0.2 0.5 build=build.sock,missing.sock
check_eq "without its control socket: exit 0" 0 $?
check "without its control socket: inflight and age null" jq -se \
	'length >= 1 and all(.[]; .inflight == null and .inflight_age_s == null)' nocontrol/build.jsonl

# SIGTERM: status 0, whole lines
"$RUN" poll-sizes term 0.05 60 daemon=daemon.sock &
poller=$!
_test_pids+=("$poller")
for _ in $(seq 200); do [[ -s term/daemon.jsonl ]] && break; sleep 0.05; done
kill -TERM "$poller"
wait "$poller"
check_eq "SIGTERM: exit 0" 0 $?
check "SIGTERM: every line whole" jq -se 'length >= 1' term/daemon.jsonl
check "SIGTERM: the file ends with a line's end" test "$(tail -c1 term/daemon.jsonl | od -An -c | tr -d ' ')" = '\n'

# its parent gone, it goes too
bash -c '"$1" poll-sizes orphan 0.05 60 daemon=daemon.sock & echo $! >orphan.pid; sleep 0.5' _ "$RUN"
orphan=$(cat orphan.pid)
for _ in $(seq 100); do kill -0 "$orphan" 2>/dev/null || break; sleep 0.05; done
check "its parent gone: it exited" bash -c "! kill -0 $orphan 2>/dev/null"
kill -CONT "$stalled_pid"
finish
