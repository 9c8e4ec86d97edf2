#!/bin/bash
# tests/agent/systemd_unit.sh - allocspike-agent --systemd-unit, for a resolver systemd runs: the
# agent asks systemd for the unit's main process (here a stand-in systemctl on PATH that answers
# from a file, as `systemctl show --property=MainPID --value` does), reads it, and follows the unit
# through a restart (a new main PID), the restart's reads left down in the record. A unit name that
# is not one, a unit without a main process and a systemctl that fails are refused.
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
AGENT="$ALLOCSPIKE_BIN/allocspike-agent"
cd "$TEST_TMP"

# the stand-in: logs what it was asked, answers MainPID from main.pid (0: the unit is stopped);
# with hang present it answers nothing once (and removes hang), as a systemd that is stuck
mkdir bin
cat >bin/systemctl <<'SH'
#!/bin/bash
printf '%s\n' "$*" >>"$FAKE_DIR/asked.txt"
[[ ! -e $FAKE_DIR/fail ]] || exit 1
if [[ -e $FAKE_DIR/hang ]]; then
	rm "$FAKE_DIR/hang"
	exec sleep 30
fi
cat "$FAKE_DIR/main.pid"
SH
chmod +x bin/systemctl
export PATH=$TEST_TMP/bin:$PATH FAKE_DIR=$TEST_TMP

for bad in 'kresd 1.service' -H kresd 'a;b.service'; do
	"$AGENT" --systemd-unit "$bad" >/dev/null 2>err.txt
	check_eq "unit name '$bad': exit 2" 2 $?
done
check "says what a unit name is" grep -q 'not a unit name' err.txt
"$AGENT" --systemd-unit kresd@1.service --pid 1 >/dev/null 2>err.txt
check_eq "--systemd-unit with --pid: exit 2" 2 $?
check "says the unit names the process" grep -q -- '--systemd-unit takes no --pid' err.txt
check "nothing was asked of systemd for a refused command line" test ! -e asked.txt

echo 0 >main.pid
"$AGENT" --systemd-unit kresd@1.service --listen 127.0.0.1:0 >/dev/null 2>err.txt
check_eq "a stopped unit: exit 1" 1 $?
check "says it has no main process" grep -q 'unit kresd@1.service has no main process' err.txt
check_eq "systemd asked for the unit's main PID" "show --property=MainPID --value -- kresd@1.service" \
	"$(head -1 asked.txt)"
touch fail
"$AGENT" --systemd-unit kresd@1.service --listen 127.0.0.1:0 >/dev/null 2>err.txt
check_eq "systemctl failing: exit 1" 1 $?
check "says systemctl failed" grep -q 'systemctl show failed' err.txt
rm fail

lifeline_set
"${LIFELINE[@]}" sleep 300 &
first=$!
_test_pids+=("$first")
echo "$first" >main.pid
"${LIFELINE[@]}" "$AGENT" --systemd-unit kresd@1.service --listen 127.0.0.1:0 --interval 50ms \
	--record record.jsonl --ready-file agent.ready 2>agent.err &
_test_pids+=($!)
wait_until 10 test -s agent.ready
check "the agent serves" test -s agent.ready
URL="http://$(sed -n 's/^ready //p' agent.ready)/metrics"
curl -sf "$URL" -o m1.txt
check "the unit's main process is up" grep -q '^allocspike_target_up{.*} 1$' m1.txt
rss=$(awk '/^VmRSS:/ { print $2 * 1024 }' "/proc/$first/status")
check "its resident memory is the main process's (within 10 %)" awk -v b="$rss" \
	'/^allocspike_resident_memory_bytes\{/ { a = $NF } END { exit !(a > 0 && a > b * 0.9 && a < b * 1.1) }' m1.txt

# the unit restarts: a new main process, the old one gone; systemd's first answer never comes (the
# agent gives it up after 2 s and asks again), and the reads go on while it waits
touch hang
"${LIFELINE[@]}" sleep 300 &
second=$!
_test_pids+=("$second")
echo "$second" >main.pid
kill "$first"
wait_until 10 grep -q "its main process is now PID $second" agent.err
check "the agent follows the restart to the new main PID" grep -q "unit kresd@1.service: its main process is now PID $second" agent.err
sleep 0.3
curl -sf "$URL" -o m2.txt
check "the new main process is up" grep -q '^allocspike_target_up{.*} 1$' m2.txt
check "the restart left down reads in the record, then up ones" jq -s -e \
	'(map(.up) | index(0)) as $down | $down != null and (.[$down:] | map(.up) | index(1)) != null' record.jsonl
check "systemd that did not answer was asked again" test "$(grep -c . asked.txt)" -ge 5
check "the hung question was given up: no systemctl of the agent's left" \
	bash -c "! pgrep -fx 'sleep 30' >/dev/null"
# 2 s without an answer at a read every 50 ms: a loop that waited for systemd would have read once
down=$(jq -s 'map(select(.up == 0)) | length' record.jsonl)
check "the reads went on while systemd did not answer ($down down reads, at least 10)" test "$down" -ge 10
finish
