#!/bin/bash
# tests/loadgen/stream.sh - every target gets the same queries in the same order; a target killed
# mid-run is reported gone while the others go on; latency is measured (a 50 ms target); malformed
# lines are reported with their line numbers; .xz and .gz read the same as plain; the run folder
# passes the contract check.
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
command -v xz >/dev/null || skip "xz not installed"
command -v jq >/dev/null || skip "jq not installed"
LG="$ALLOCSPIKE_BIN/allocspike-loadgen"
RESP="$ALLOCSPIKE_BIN/allocspike-test-responder"
cd "$TEST_TMP"

printf 'query * *\nanswer x. 60 IN A 192.0.2.1\n' >answers.txt
{
	for i in $(seq 1 30); do
		case $((i % 3)) in
		0) echo "www$i.example.com. A" ;;
		1) echo "mail$i.example.org AAAA" ;;
		2) echo "n$i.example.net	MX" ;;
		esac
		[[ $i == 10 ]] && echo "bad..name.example. A"          # line 11
		[[ $i == 20 ]] && echo "ok.example. NOSUCHTYPE"        # line 22
	done
} >q.txt
xz -k q.txt
gzip -k q.txt

# three answering targets logging every query; the third one is killed mid-run, plus a silent one
# (start_server runs in this shell, not in $(...), so that its pid is recorded for the cleanup)
for n in 1 2 3; do
	start_server "r$n" "r$n.ready" "$RESP" --listen "127.56.1.$n:0" --fixture answers.txt \
		--log "q$n.log" --ready-file "r$n.ready" >"r$n.addr" || exit 1
	addr[$n]=$(cat "r$n.addr")
	pid[$n]=${_test_pids[${#_test_pids[@]} - 1]}
done
start_server r4 r4.ready "$RESP" --listen 127.56.1.4:0 --silent --log q4.log --ready-file r4.ready >r4.addr || exit 1
addr[4]=$(cat r4.addr)
# and one that answers everything 50 ms late (latency is measured, not assumed)
printf 'query * *\ndelay 50\nanswer x. 60 IN A 192.0.2.1\n' >slow.txt
start_server r5 r5.ready "$RESP" --listen 127.56.1.5:0 --fixture slow.txt --ready-file r5.ready >r5.addr || exit 1
addr[5]=$(cat r5.addr)

# rates low enough that a responder slowed by sanitizers on a busy machine keeps up
"$LG" -d q.txt --schedule 'baseline:1s@100,spike:1s@200,recovery:1s@100' --timeout-ms 1000 --out run \
	--target "name=a,addr=${addr[1]},pid=${pid[1]}" --target "name=b,addr=${addr[2]}" \
	--target "name=c,addr=${addr[3]},pid=${pid[3]}" --target "name=s,addr=${addr[4]}" \
	--target "name=d,addr=${addr[5]}" \
	--watch "name=_upstream,pid=${pid[2]}" >out.txt 2>err.txt &
lg=$!
_test_pids+=($lg)
# kill c once the timeline has passed one second
for ((i = 0; i < 200; i++)); do
	awk -F, '$2 == "c" && $1 >= 1.0 { found = 1 } END { exit !found }' run/timeline.csv 2>/dev/null && break
	sleep 0.05
done
kill -9 "${pid[3]}"
wait "$lg"
check_eq "loadgen exit status" 0 $?

# every query of the schedule reached the targets that stayed, in the same order with the same IDs
total=400
check_eq "queries at a" $total "$(wc -l <q1.log)"
check_eq "queries at b" $total "$(wc -l <q2.log)"
check_eq "queries at silent s" $total "$(wc -l <q4.log)"
awk '{ print $3, $4, $5 }' q1.log >seq1
awk '{ print $3, $4, $5 }' q2.log >seq2
awk '{ print $3, $4, $5 }' q4.log >seq4
check "a and b got the same queries in the same order" cmp -s seq1 seq2
check "a and s got the same queries in the same order" cmp -s seq1 seq4
# and they are the file's valid queries, replayed in order and wrapped round
grep -v -e 'bad\.\.name' -e NOSUCHTYPE q.txt | awk '{ n = $1; sub(/\.$/, "", n); print n, $2 }' >valid
for ((r = 0; r < 30; r++)); do cat valid; done | head -$total | sort >expected
awk '{ n = $4; sub(/\.$/, "", n); print n, $5 }' q1.log | sort >got
check "the stream is the file's valid lines, wrapped" cmp -s expected got
check "c got part of the stream" test "$(wc -l <q3.log)" -lt $total

check "c is reported gone in events.jsonl" grep -q '"variant":"c","event":"gone"' run/events.jsonl
check "c is reported gone on stderr" grep -q 'c (pid .*) is gone' err.txt
check "the others continued after c was gone" \
	awk -F, '$2 == "a" && $1 > 2.5 && $6 > 0 { ok = 1 } END { exit !ok }' run/timeline.csv
check "a answered everything" grep -q '"variant":"a","event":"summary","sent":400,"answered":400' run/events.jsonl
check "s answered nothing and timed out" grep -q '"variant":"s","event":"summary","sent":400,"answered":0,"timeouts":400' run/events.jsonl
check "the 50 ms target: all answered, median latency about 50 ms (45 ms to 1 s: its timers may fire a little early)" \
	jq -e -s 'map(select(.variant == "d" and .event == "summary"))[0] | .answered == 400 and .lat_p50_ms >= 45 and .lat_p50_ms < 1000' run/events.jsonl
check "the 50 ms target's timeline latencies" awk -F, '$2 == "d" && $13 != "" { n++; if ($13 < 45) bad++ } END { exit bad || n < 20 }' run/timeline.csv
check "phase events with spike numbers" grep -q '"event":"phase","phase":"spike","spike":1' run/events.jsonl
check "_loadgen and _upstream rows" bash -c "grep -q ',_loadgen,' run/timeline.csv && grep -q ',_upstream,' run/timeline.csv"
check "the timeline passes the contract check" bash "$ALLOCSPIKE_SOURCE_DIR/tests/loadgen/check_runfolder.sh" run
check "malformed line 11 reported" grep -q '^q.txt:11: ' err.txt
check "malformed line 22 reported" grep -q '^q.txt:22: ' err.txt
check "the summary speaks dnsperf" bash -c "grep -q '^  Queries sent: *400' out.txt && grep -q '^  Queries completed:' out.txt &&
	grep -q '^  Queries lost:' out.txt && grep -q '^  Queries per second:' out.txt && grep -q '^  Average Latency (s):' out.txt"

# .xz and .gz read the same as plain, dnsperf style (-s -p -d -Q -l)
host=${addr[1]%:*}
port=${addr[1]##*:}
for f in q.txt q.txt.xz q.txt.gz; do
	: >q1.log
	"$LG" -s "$host" -p "$port" -d "$f" -Q 100 -l 0.5 -t 0.3 >"out-$f" 2>"err-$f"
	check_eq "$f: exit status" 0 $?
	awk '{ print $4, $5 }' q1.log | sort >"got-$f"
	sed -e "s/$f/FILE/g" "err-$f" >"why-$f"
done
check_eq "plain: queries" 50 "$(wc -l <got-q.txt)"
check ".xz gives the same queries as plain" cmp -s got-q.txt got-q.txt.xz
check ".gz gives the same queries as plain" cmp -s got-q.txt got-q.txt.gz
check ".xz reports the same malformed lines" cmp -s why-q.txt why-q.txt.xz
check "-s/-p run completed everything" grep -q 'Queries completed: *50 (100.00%)' out-q.txt.xz

# --strict: the first malformed line is fatal, with its line number
"$LG" -s "$host" -p "$port" -d q.txt.xz -Q 100 -l 0.5 --strict >/dev/null 2>strict.err
check "--strict fails" test $? -ne 0
check "--strict names file and line" grep -q 'q.txt.xz:11' strict.err
finish
