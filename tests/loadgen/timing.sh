#!/bin/bash
# tests/loadgen/timing.sh - open loop, counted by the test responder: a target that never answers
# and an answering one receive the scheduled number of queries in every second (but for queries
# the responder stamps late, across a second boundary, on a busy machine) and all of them
# (timing label: not under sanitizers; run alone).
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
[[ "${ALLOCSPIKE_SANITIZE:-0}" == 1 ]] && skip "timing test: release build only"
LG="$ALLOCSPIKE_BIN/allocspike-loadgen"
RESP="$ALLOCSPIKE_BIN/allocspike-test-responder"
cd "$TEST_TMP"
printf 'query * *\nanswer x. 60 IN A 192.0.2.1\n' >answers.txt
for i in $(seq 1 97); do echo "host$i.example.com A"; done >q.txt

start_server silent silent.ready "$RESP" --listen 127.56.2.1:0 --silent --log silent.q \
	--ready-file silent.ready >silent.addr || exit 1
start_server answering answering.ready "$RESP" --listen 127.56.2.2:0 --fixture answers.txt \
	--log answering.q --ready-file answering.ready >answering.addr || exit 1

# --align starts the schedule on a whole wall-clock second, so the responder's wall-clock
# timestamps fall into the schedule's seconds; queries sit mid-slot (docs/schedule.md), so a
# query would have to be half a slot late (5 ms at 100/s, 1.25 ms at 400/s) to change second.
want=(100 100 400 100)
"$LG" -d q.txt --schedule 'baseline:2s@100,spike:1s@400,recovery:1s@100' --align \
	--timeout-ms 300 --out run --target "name=silent,addr=$(cat silent.addr)" \
	--target "name=answering,addr=$(cat answering.addr)" >out.txt 2>err.txt
check_eq "loadgen exit status" 0 $?

# per_second LOG : queries per whole second counted from the schedule's start (the whole second
# before the first query), then the total
per_second() {
	awk 'NR == 1 { start = int($1) } { n[int($1 - start)]++ } END { for (s = 0; s < 4; s++) print n[s] + 0; print NR }' "$1"
}
mapfile -t silent < <(per_second silent.q)
mapfile -t answering < <(per_second answering.q)
echo "per second: scheduled ${want[*]}; silent target got ${silent[*]:0:4}; answering got ${answering[*]:0:4}"
# The responder stamps a query when it reads it, so on a busy machine (CI shares 2 cores) a query
# sent on time can be stamped late, past a second boundary. The test accepts a stamp up to
# LATE_MS late: at every boundary the count so far may fall short of the schedule's by the
# queries due in the last LATE_MS (at the faster of the two seconds' rates), never run ahead of it
# by more than one, and each second's count is bounded by its two boundaries. A generator that
# ignored the spike (100 instead of 400) still fails by hundreds.
LATE_MS=50
# window SECOND : the queries due in the last LATE_MS before the end of SECOND
window() {
	local rate=${want[$1]}
	(($1 + 1 < ${#want[@]} && want[$1 + 1] > rate)) && rate=${want[$1 + 1]}
	echo $((rate * LATE_MS / 1000 + 1))
}
# check_second NAME COUNTS... : the per-second counts of one target against the schedule
check_second() {
	local name=$1 before=0 due=0 lag_in=0 lag_out s
	shift
	local got=("$@")
	for s in 0 1 2 3; do
		before=$((before + got[s])) due=$((due + want[s])) lag_out=$(window "$s")
		check "$name target, second $s: ${got[$s]} of ${want[$s]} (up to the boundary: $before of $due, late allowance $lag_out)" \
			test $((before - due)) -ge "-$lag_out" -a $((before - due)) -le 1 \
			-a $((got[s] - want[s])) -ge $((-lag_out - 1)) -a $((got[s] - want[s])) -le $((lag_in + 1))
		lag_in=$lag_out
	done
}
check_second silent "${silent[@]:0:4}"
check_second answering "${answering[@]:0:4}"
check_eq "silent target, all queries" 700 "${silent[4]}"
check_eq "answering target, all queries" 700 "${answering[4]}"
# and by the generator's own record: every query scheduled left for the silent target although it
# never answered (open loop), and every target got within 2% of the schedule in every second
check "timeline: silent target sent all 700 scheduled" awk -F, '
	NR > 1 && $2 == "silent" { off += $5; sent += $6 } END { exit !(off == 700 && sent == 700) }' run/timeline.csv
check "timeline: sent within 2% of offered in every second" awk -F, '
	NR > 1 && $2 != "_loadgen" && $1 <= 4.0001 { s = $2 " " int($1 - 0.0001); off[s] += $5; sent[s] += $6 }
	END { for (s in off) { d = sent[s] - off[s]; if (off[s] == 0 || d * d > (off[s] * 0.02) ^ 2) exit 1 } }' run/timeline.csv
check "no shortfall reported" bash -c "! grep -q shortfall err.txt"
finish
