#!/bin/bash
# tests/loadgen/faults.sh - a run folder that cannot be written: a full disk (/dev/full, also
# under phases.csv's rewrite) or a file-size limit stops appending at once, is said on stderr and in
# events.jsonl when that still takes a line, stops the run and exits 1; what was written reads back; a cut-off timeline is not
# appended to. Meta query types are refused with their line numbers unless --allow-meta; a query
# file over --queries-memory-mb is streamed from disk (stdin then refused).
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
LG="$ALLOCSPIKE_BIN/allocspike-loadgen"
RESP="$ALLOCSPIKE_BIN/allocspike-test-responder"
cd "$TEST_TMP"
printf 'query * *\nanswer x. 60 IN A 192.0.2.1\n' >answers.txt
for i in $(seq 1 20); do echo "f$i.example.com A"; done >q.txt
start_server r r.ready "$RESP" --listen 127.56.4.1:0 --fixture answers.txt --ready-file r.ready >r.addr || exit 1
addr=$(cat r.addr)

# a new timeline on a full disk: its header fails, nothing is sent
mkdir full1 && ln -s /dev/full full1/timeline.csv
"$LG" -d q.txt --schedule baseline:1s@20 --target "name=a,addr=$addr" --out full1 >out1.txt 2>err1.txt
check "full disk at the start: fails" test $? -ne 0
check "full disk at the start: says so" grep -q 'full1/timeline.csv: No space left on device' err1.txt

# events.jsonl on a full disk: the first event fails, the run stops at its next interval, exit 1 (a run failure)
mkdir full2 && ln -s /dev/full full2/events.jsonl
timeout 20 "$LG" -d q.txt --schedule baseline:10s@20 --target "name=a,addr=$addr" --out full2 >out2.txt 2>err2.txt
check_eq "full events.jsonl: exit status" 1 $?
check "full events.jsonl: said with the file" grep -q 'writing the run folder failed at t=.*full2/events.jsonl: No space left on device; stopping' err2.txt
check "full events.jsonl: said incomplete at the end" grep -q 'the run folder full2 is incomplete' err2.txt
last=$(tail -1 full2/timeline.csv | cut -d, -f1)
check "full events.jsonl: stopped early (last row t=$last)" awk -v t="$last" 'BEGIN { exit !(t < 5) }'

# a link planted where the writer's temporary phases.csv would once have been (phases.csv.tmp):
# nothing is written through it, the run goes on (a failed phases.csv rewrite, a full disk, is
# tests/common/test_runfolder_writer.c's)
mkdir full3 && echo precious >victim && ln -s "$PWD/victim" full3/phases.csv.tmp
timeout 20 "$LG" -d q.txt --schedule baseline:3s@20 --target "name=a,addr=$addr" --out full3 >out10.txt 2>err10.txt
check_eq "planted phases.csv.tmp: exit status" 0 $?
check_eq "planted phases.csv.tmp: its target untouched" precious "$(cat victim)"
check "planted phases.csv.tmp: phases.csv written" grep -q '^a,baseline,0,' full3/phases.csv

# a file-size limit hit mid-run (EFBIG, like a disk filling up): the timeline stops at the limit,
# the failure is an event, the run stops, exit 1
(
	ulimit -f 8 # KiB
	exec timeout 30 "$LG" -d q.txt --schedule baseline:20s@200 --target "name=a,addr=$addr" \
		--watch "name=_w,pid=$$" --interval-ms 20 --out limit >out3.txt 2>err3.txt
)
check_eq "file-size limit: exit status" 1 $?
check "file-size limit: said" grep -q 'limit/timeline.csv: File too large' err3.txt
check "file-size limit: write_failed event" grep -q '"event":"write_failed","error":".*timeline.csv: File too large"' limit/events.jsonl
check_eq "file-size limit: nothing past the limit" 8192 "$(stat -c %s limit/timeline.csv)"
last=$(grep -c . limit/timeline.csv)
check "file-size limit: stopped early ($last lines)" test "$last" -lt 400
check "file-size limit: summary still printed" grep -q 'Queries sent:' out3.txt
# the reader keeps every whole row and drops a cut-off last one
if [[ -x "$ALLOCSPIKE_BIN/allocspike-report" ]]; then
	echo '{"status":"failed"}' >limit/run.json
	check "file-size limit: the report reads what was written" "$ALLOCSPIKE_BIN/allocspike-report" limit
fi
# appending to a timeline whose last row was cut off would join rows: refused, with the line
if [[ $(tail -c 1 limit/timeline.csv) != "" ]]; then
	"$LG" -d q.txt --schedule baseline:1s@20 --target "name=a,addr=$addr" --out limit >out4.txt 2>err4.txt
	check_eq "cut-off timeline: exit status" 1 $?
	check "cut-off timeline: says where" grep -q "limit/timeline.csv:$last: the last line was cut off" err4.txt
fi

# meta and transfer types: skipped with their line numbers, fatal with --strict, sent with --allow-meta
printf 'ok.example. A\nz.example. AXFR\nopt.example. OPT\nlast.example. A\n' >meta.txt
"$LG" -d meta.txt --schedule baseline:1s@4 --target "name=a,addr=$addr" >out5.txt 2>err5.txt
check_eq "meta types: exit status" 0 $?
check "meta types: line 2 reported" grep -q 'meta.txt:2: meta or transfer type' err5.txt
check "meta types: line 3 reported" grep -q 'meta.txt:3: meta or transfer type' err5.txt
"$LG" -d meta.txt --strict --schedule baseline:1s@4 --target "name=a,addr=$addr" >out6.txt 2>err6.txt
check "meta types, --strict: fails" test $? -ne 0
check "meta types, --strict: line 2" grep -q 'meta.txt:2: meta or transfer type' err6.txt
"$LG" -d meta.txt --allow-meta --schedule baseline:1s@4 --target "name=a,addr=$addr" >out7.txt 2>err7.txt
check_eq "meta types, --allow-meta: exit status" 0 $?
check "meta types, --allow-meta: nothing skipped" test ! -s err7.txt

# a query file over --queries-memory-mb is streamed from disk: the same queries, wrapping round
"$LG" -d q.txt --queries-memory-mb 0 --schedule baseline:1s@50 --target "name=a,addr=$addr" >out8.txt 2>err8.txt
check_eq "streamed: exit status" 0 $?
check "streamed: said" grep -q 'q.txt: 20 queries, more than the 0.0 MiB allowed in memory (--queries-memory-mb): streamed from the file' err8.txt
check "streamed: every query answered, twice round the file" grep -q 'Queries completed:    50 (100.00%)' out8.txt
"$LG" -d - --queries-memory-mb 0 --schedule baseline:1s@50 --target "name=a,addr=$addr" <q.txt >out9.txt 2>err9.txt
check "streamed stdin: fails" test $? -ne 0
check "streamed stdin: says why" grep -q 'stdin cannot be streamed' err9.txt
finish
