#!/bin/bash
# tests/loadgen/cli.sh - bad options fail with a clear message; SIGTERM stops a run cleanly with
# what it recorded; control-socket stats land in the timeline every --slow-every intervals.
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
LG="$ALLOCSPIKE_BIN/allocspike-loadgen"
RESP="$ALLOCSPIKE_BIN/allocspike-test-responder"
cd "$TEST_TMP"
printf 'query * *\nanswer x. 60 IN A 192.0.2.1\n' >answers.txt
for i in $(seq 1 20); do echo "c$i.example.com A"; done >q.txt

# fails MESSAGE_PATTERN ARGS... : the run must fail and say MESSAGE_PATTERN on stderr
fails() {
	local pattern=$1
	shift
	"$LG" "$@" >/dev/null 2>err.txt
	local rc=$?
	local said
	said=$(head -c 150 err.txt | tr '\n' ' ')
	check "fails: $* ($said)" test $rc -ne 0
	check "says: $pattern" grep -q -F -e "$pattern" err.txt
}
fails "-d/--queries FILE is required" --schedule baseline:1s@10 -s 127.0.0.1
fails "no target" -d q.txt --schedule baseline:1s@10
fails "give --schedule TEXT or -Q RATE" -d q.txt -s 127.0.0.1
fails "schedule column 11: duration needs a unit" -d q.txt -s 127.0.0.1 --schedule baseline:1@10
fails "unknown key 'port'" -d q.txt --target name=a,addr=127.0.0.1:53,port=5 --schedule baseline:1s@10
fails "addr=IP:PORT is required" -d q.txt --target name=a --schedule baseline:1s@10
fails "not on loopback" -d q.txt --target name=a,addr=192.0.2.1:53 --schedule baseline:1s@10
fails "two targets named a" -d q.txt --target name=a,addr=127.0.0.1:53 --target name=a,addr=127.0.0.2:53 --schedule baseline:1s@10
fails "do not mix" -d q.txt -s 127.0.0.1 --schedule baseline:1s@10 -Q 5
fails "-Q: 'x' is not a number" -d q.txt -s 127.0.0.1 -Q x
fails "-l: '10x' is not a duration (e.g. 20s, 1.5m, 500ms)" -d q.txt -s 127.0.0.1 -Q 5 -l 10x
fails "nonexistent.txt" -d nonexistent.txt -s 127.0.0.1 -Q 5
fails "pid=N is required" -d q.txt -s 127.0.0.1 -Q 5 --watch name=_upstream

check "--version --json names the program and its allocator" bash -c \
	"'$LG' --version --json | jq -e '.program == \"allocspike-loadgen\" and (.allocator | length > 0)' >/dev/null"

start_server r r.ready "$RESP" --listen 127.56.3.1:0 --fixture answers.txt --ready-file r.ready >r.addr || exit 1
addr=$(cat r.addr)

# a target whose process is not there at the start is gone from the outset; the others run
"$LG" -d q.txt --schedule baseline:500ms@20 --target name=a,addr=127.56.3.9:53,pid=999999999 \
	--target "name=b,addr=$addr" --out run0 >out0.txt 2>err0.txt
check_eq "absent process: exit status" 0 $?
check "absent process: said on stderr" grep -q 'a is gone already: pid 999999999: no such process' err0.txt
check "absent process: gone event" grep -q '"variant":"a","event":"gone","pid":999999999' run0/events.jsonl
check "absent process: nothing sent to it" grep -q '"variant":"a","event":"summary","sent":0' run0/events.jsonl
check "absent process: the other target ran" grep -q '"variant":"b","event":"summary","sent":10,"answered":10' run0/events.jsonl

# SIGTERM mid-run: it stops at once, keeps what it recorded, and says so
"$LG" -d q.txt --schedule 'baseline:30s@50' --target "name=a,addr=$addr" --out run >out.txt 2>err.txt &
lg=$!
_test_pids+=($lg)
for ((i = 0; i < 200; i++)); do
	[[ $(grep -c ',a,' run/timeline.csv 2>/dev/null) -ge 5 ]] && break
	sleep 0.05
done
kill -TERM $lg
wait $lg
check_eq "exit status after SIGTERM" 0 $?
check "interrupted event" grep -q '"event":"interrupted"' run/events.jsonl
check "interrupted on stderr" grep -q 'interrupted at t=' err.txt
check "summary printed" grep -q 'Queries sent:' out.txt
check "the timeline kept passes the check" bash "$ALLOCSPIKE_SOURCE_DIR/tests/loadgen/check_runfolder.sh" run

# control socket: a stand-in resolver answering `stats` with one JSON line
if command -v python3 >/dev/null; then
	cat >ctl.py <<'PY'
import os, socket, sys
path = sys.argv[1]
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.bind(path)
s.listen(8)
print("ready", path, flush=True)
n = 0
while True:
    c, _ = s.accept()
    line = c.makefile().readline()
    n += 1
    if line == "stats\n":
        c.sendall(('{"queries": %d, "cache_entries": %d, "cache_bytes": 4096, "inflight": 3, "inflight_max": 40, '
                   '"upstream_queries": 77, "alloc_allocated_bytes": null, '
                   '"alloc_resident_bytes": 123456, "live_bytes": 1000, "alloc": {"heap_bytes": 2000, '
                   '"free_trimmable_bytes": 300, "free_fragmented_bytes": null, "unmapped_bytes": 0, '
                   '"own": {"keepcost": 300}}}\n' % (n, 10 * n)).encode())
    c.close()
PY
	python3 ctl.py "$TEST_TMP/ctl.sock" >ctl.out 2>&1 &
	_test_pids+=($!)
	for ((i = 0; i < 100; i++)); do [[ -S ctl.sock ]] && break; sleep 0.05; done
	"$LG" -d q.txt --schedule 'baseline:1s@20' --target "name=r,addr=$addr,pid=${_test_pids[0]},control=$TEST_TMP/ctl.sock" \
		--out run2 --slow-every 5 >/dev/null 2>err2.txt
	check_eq "control run exit status" 0 $?
	# column numbers from the header
	col() { head -1 run2/timeline.csv | tr , '\n' | grep -nx "$1" | cut -d: -f1; }
	ce=$(col cache_entries) ar=$(col alloc_resident_bytes) aa=$(col alloc_allocated_bytes) pss=$(col pss_kb)
	check "stats every 5th interval" awk -F, -v ce="$ce" '$2 == "r" && $1 + 0 > 0 { n++; if ((n % 5 == 0) != ($ce != "")) bad++ } END { exit bad || n < 10 }' run2/timeline.csv
	check "stats values in their columns, null empty" awk -F, -v ce="$ce" -v ar="$ar" -v aa="$aa" \
		'$2 == "r" && $ce != "" { ok = ($ar == 123456 && $aa == "" && $ce % 10 == 0) } END { exit !ok }' run2/timeline.csv
	lb=$(col live_bytes) hb=$(col alloc_heap_bytes) tb=$(col alloc_free_trimmable_bytes)
	fb=$(col alloc_free_fragmented_bytes) ub=$(col alloc_unmapped_bytes)
	check "attribution columns from live_bytes and the alloc object, null empty" awk -F, -v ce="$ce" \
		-v lb="$lb" -v hb="$hb" -v tb="$tb" -v fb="$fb" -v ub="$ub" \
		'$2 == "r" && $ce != "" { n++; if (!($lb == 1000 && $hb == 2000 && $tb == 300 && $fb == "" && $ub == "0")) bad++ } END { exit bad || !n }' run2/timeline.csv
	im=$(col inflight_max) lm=$(col live_bytes_max)
	check "high-water marks in their columns, an absent one empty" awk -F, -v ce="$ce" -v im="$im" \
		-v lm="$lm" '$2 == "r" { if ($ce != "") n++; if (($ce != "" && $im != 40) || ($ce == "" && $im != "") || $lm != "") bad++ } END { exit bad || !n }' run2/timeline.csv
	check "Pss sampled with the stats" awk -F, -v ce="$ce" -v p="$pss" '$2 == "r" && ($ce != "") != ($p != "") { bad++ } END { exit bad }' run2/timeline.csv
else
	echo "note: python3 absent, control-socket part not run"
fi
finish
