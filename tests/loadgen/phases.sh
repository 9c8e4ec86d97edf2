#!/bin/bash
# tests/loadgen/phases.sh - phases.csv and latency_hist.csv count each query in the phase it was
# sent in: answers delayed past the spike's end and timeouts given up after it count in the spike;
# the totals equal the queries sent; the quantiles match the responder's known delay within the
# histogram's precision; an interrupted or killed run keeps a consistent pair of files.
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
command -v jq >/dev/null || skip "jq not installed"
LG="$ALLOCSPIKE_BIN/allocspike-loadgen"
RESP="$ALLOCSPIKE_BIN/allocspike-test-responder"
CHECK="$ALLOCSPIKE_SOURCE_DIR/tests/loadgen/check_runfolder.sh"
cd "$TEST_TMP"
# a quarter of the queries answered at once, a quarter 400 ms late, a quarter NXDOMAIN, a quarter
# never (timeouts)
cat >answers.txt <<'EOF'
query slow.test. A
delay 400
answer slow.test. 60 IN A 192.0.2.1
query lost.test. A
drop
query nx.test. A
rcode NXDOMAIN
query * *
answer x. 60 IN A 192.0.2.1
EOF
printf 'fast.test A\nslow.test A\nnx.test A\nlost.test A\n' >q.txt
start_server resp resp.ready "$RESP" --listen 127.56.15.1:0 --fixture answers.txt \
	--ready-file resp.ready >resp.addr || exit 1
addr=$(cat resp.addr)

"$LG" -d q.txt --schedule 'baseline:1s@40,spike:1s@80,recovery:1s@40' --timeout-ms 700 \
	--out run --no-progress --target "name=a,addr=$addr" >out.txt 2>err.txt
check_eq "loadgen exit status" 0 $?
check "the run folder passes the contract check (phases.csv against timeline.csv too)" \
	bash "$CHECK" run
cat run/phases.csv
# cell COLUMN PHASE : phases.csv's cell for variant a
cell() {
	awk -F, -v col="$1" -v phase="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$1 == "a" && $2 == phase { print $c[col] }' run/phases.csv
}
# timeline COLUMN PHASE : the timeline's sum of COLUMN over the phase's rows of variant a
timeline() {
	awk -F, -v col="$1" -v phase="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$2 == "a" && $3 == phase { s += $c[col] } END { print s + 0 }' run/timeline.csv
}
check_eq "one row per instance, in schedule order" "baseline recovery spike" \
	"$(cut -d, -f2 run/phases.csv | sed 1d | sort | paste -sd' ')"
check_eq "rows in schedule order" "baseline,0 spike,1 recovery,1" \
	"$(cut -d, -f2,3 run/phases.csv | sed 1d | paste -sd' ')"
check_eq "all 160 queries sent, each in one instance" 160 \
	"$(awk -F, 'NR > 1 { s += $4 } END { print s }' run/phases.csv)"
# near a boundary a busy machine may send a query a little late, into the next phase
within() { awk -v a="$1" -v b="$2" -v d="$3" 'BEGIN { exit !(a - b <= d && b - a <= d) }'; }
for p in baseline spike recovery; do
	sent=$(cell sent $p)
	want=$([[ $p == spike ]] && echo 80 || echo 40)
	check "$p: sent $sent, scheduled $want" within "$sent" "$want" 2
	check_eq "$p: answered + timeouts = sent, nothing pending after the drain" "$sent" \
		"$(($(cell answered $p) + $(cell timeouts $p) + $(cell pending $p)))"
	check_eq "$p: pending" 0 "$(cell pending $p)"
	check "$p: a quarter timed out (lost.test): $(cell timeouts $p) of $sent" \
		within "$(cell timeouts $p)" "$((sent / 4))" 1
	check "$p: a quarter NXDOMAIN: $(cell nxdomain $p)" within "$(cell nxdomain $p)" "$((sent / 4))" 1
	check_eq "$p: rcodes split answered" "$(cell answered $p)" \
		"$(($(cell noerror $p) + $(cell nxdomain $p) + $(cell servfail $p) + $(cell rcode_other $p)))"
	# a third of the answers are 400 ms late: p90 and above are that delay, within the histogram's
	# 1/64 (the bucket's middle), and at most 50 ms later on a busy machine (the responder's timer)
	for q in lat_p90_ms lat_p99_ms lat_max_ms; do
		v=$(cell $q $p)
		check "$p: $q $v ms is the 400 ms delay" awk -v v="$v" 'BEGIN { exit !(v >= 400 * 63 / 64 && v <= 400 * 65 / 64 + 50) }'
	done
	check "$p: lat_p50_ms $(cell lat_p50_ms $p) is an immediate answer" \
		awk -v v="$(cell lat_p50_ms $p)" 'BEGIN { exit !(v < 100) }'
	check "$p: the 400 ms buckets hold the slow quarter" within "$(awk -F, -v p=$p \
		'$2 == p && $4 > 390000 { s += $5 } END { print s + 0 }' run/latency_hist.csv)" "$((sent / 4))" 1
done
# The timeline counts by arrival: the spike's last 400 ms of slow answers arrive in the recovery,
# and the last 700 ms of its lost queries are given up there. By the sending phase they are the
# spike's.
check "spike: more answered by sending phase ($(cell answered spike)) than received in it ($(timeline answered spike))" \
	test "$(cell answered spike)" -gt "$(timeline answered spike)"
check "spike: more timeouts by sending phase ($(cell timeouts spike)) than given up in it ($(timeline timeouts spike))" \
	test "$(cell timeouts spike)" -gt "$(timeline timeouts spike)"
check_eq "answered by sending phase: the queries sent, less those lost" \
	"$(($(cell sent spike) - $(cell timeouts spike)))" "$(cell answered spike)"
check "no temporary file left" bash -c "! ls run/*.tmp 2>/dev/null"

# Serial runs: the next generator, for variant b, into the same folder keeps a's rows as they were.
cp run/phases.csv a-phases.csv
"$LG" -d q.txt --schedule 'baseline:1s@40' --timeout-ms 700 --out run --no-progress \
	--target "name=b,addr=$addr" >serial.out 2>serial.err
check_eq "serial: exit status" 0 $?
check_eq "serial: a's rows kept" "$(sed 1d a-phases.csv)" "$(grep '^a,' run/phases.csv)"
check_eq "serial: b's row after them" "b,baseline,0,40" "$(tail -1 run/phases.csv | cut -d, -f1-4)"
check "serial: the folder passes the check" bash "$CHECK" run

# Interrupted (SIGTERM) in the spike: the rows of the instances begun, the queries still awaited
# pending, and the pair still consistent with the timeline.
"$LG" -d q.txt --schedule 'baseline:1s@40,spike:3s@80,recovery:1s@40' --timeout-ms 3000 \
	--out stopped --no-progress --target "name=a,addr=$addr" >stopped.out 2>stopped.err &
lg=$!
for ((i = 0; i < 100; i++)); do
	grep -q '"phase":"spike"' stopped/events.jsonl 2>/dev/null && break
	sleep 0.1
done
sleep 0.3
kill -TERM $lg
wait $lg
check_eq "interrupted: exit status" 0 $?
check "interrupted: the folder passes the check" bash "$CHECK" stopped
check_eq "interrupted: the instances begun" "baseline spike" \
	"$(cut -d, -f2 stopped/phases.csv | sed 1d | paste -sd' ')"
check "interrupted: the lost queries of the last 3 s are pending" awk -F, \
	'NR > 1 { p += $7 } END { exit !(p > 0) }' stopped/phases.csv

# Killed (SIGKILL) in the spike: no exit to write at, the pair written when the spike began stays.
"$LG" -d q.txt --schedule 'baseline:1s@40,spike:3s@80,recovery:1s@40' --timeout-ms 3000 \
	--out killed --no-progress --target "name=a,addr=$addr" >killed.out 2>killed.err &
lg=$!
for ((i = 0; i < 100; i++)); do
	grep -q '"phase":"spike"' killed/events.jsonl 2>/dev/null && break
	sleep 0.1
done
sleep 0.3
kill -KILL $lg
wait $lg 2>/dev/null
check "killed: phases.csv has the baseline, written when the spike began" \
	grep -q '^a,baseline,0,' killed/phases.csv
check "killed: its counts add up" awk -F, \
	'NR > 1 { if ($4 != $5 + $6 + $7) bad = 1 } END { exit bad }' killed/phases.csv
finish
