#!/bin/bash
# tests/loadgen/timing.sh - open loop, counted by the test responder: a target that never answers
# still receives exactly the scheduled number of queries in every second, and an answering target
# gets its low-rate schedule within 2% in every second (timing label: not under sanitizers).
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
# before the first query)
per_second() {
	awk 'NR == 1 { start = int($1) } { n[int($1 - start)]++ } END { for (s = 0; s < 4; s++) print n[s] + 0; print NR }' "$1"
}
mapfile -t silent < <(per_second silent.q)
mapfile -t answering < <(per_second answering.q)
for s in 0 1 2 3; do
	check_eq "silent target, second $s" "${want[$s]}" "${silent[$s]}"
	check "answering target, second $s: ${answering[$s]} within 2% of ${want[$s]}" \
		awk -v got="${answering[$s]}" -v want="${want[$s]}" 'BEGIN { d = got - want; exit !(d * d <= (want * 0.02) ^ 2) }'
done
check_eq "silent target, all" 700 "${silent[4]}"
check_eq "answering target, all" 700 "${answering[4]}"

# the generator's own record agrees: sent per second of the timeline within 2% of offered
check "timeline: sent within 2% of offered in every second" awk -F, '
	NR > 1 && $2 == "answering" && $1 <= 4.0001 { s = int(($1 - 0.0001)); off[s] += $5; sent[s] += $6 }
	END { for (s = 0; s < 4; s++) { d = sent[s] - off[s]; if (off[s] == 0 || d * d > (off[s] * 0.02) ^ 2) exit 1 } }' run/timeline.csv
check "no shortfall reported" bash -c "! grep -q shortfall err.txt"
finish
