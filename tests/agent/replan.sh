#!/bin/bash
# tests/agent/replan.sh - an agent that takes one plan after another (docs/agent.md, "One plan after
# another"), over loopback:
#  1. --plans without --await-plan, 0 and a word that is no count: refused, exit 2;
#  2. --plans 2: a plan of run r1 sampled and streamed; DELETE /plan stops its row and ends its
#     /samples stream, and the agent stays up, awaiting, with no run label and no target figure;
#     a plan of another run (r2) is then taken and sampled afresh (its stream, /record and /metrics
#     hold only r2's reads, numbered on after r1's), a third plan beside it is refused (409), and
#     the second DELETE ends the agent, exit 0;
#  3. --plans unlimited: a DELETE with no plan leaves it awaiting; a plan, its withdrawal, a second
#     plan, then silence: the lease runs out, the row is stopped and the agent ends, exit 3;
#  4. allocspike-run place --rows (a calibration's extension pass over the rows still answering):
#     of a hosts file's two rows only the one named is placed, the other agent left awaiting; a row
#     the file does not place is refused, exit 2.
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
NET=127.56.62
PLAN_TABLE_EXTRA='glibc1\tenv\tglibc\tglibc\t-\tglibc\tMALLOC_ARENA_MAX=1\tno\tone arena\n'
source "$ALLOCSPIKE_SOURCE_DIR/tests/agent/plan_fixture.sh"

# 1: refusals
"$AGENT" --pid $$ --plans 2 >out.txt 2>err.txt
check_eq "--plans without --await-plan: exit 2" 2 $?
check "says it goes with --await-plan" grep -q -- "--plans goes with --await-plan" err.txt
for bad in 0 many; do
	"$AGENT" --await-plan --variants-table "$T" --control x.ctl --token-file token --plans "$bad" >out.txt 2>err.txt
	check_eq "--plans $bad: exit 2" 2 $?
	check "--plans $bad: says what it takes" grep -q -- "--plans: '$bad' is .*, or unlimited" err.txt
done

# plan ADDR RUN: a row plan of run RUN, its answer in body.txt; its HTTP status
plan() { authed /plan "$1" --data "{\"row\":\"glibc\",\"run\":\"$2\",\"interval\":\"50ms\"}"; }
# stream ADDR FILE: /samples into FILE in the background; sets STREAM_PID
stream() {
	curl -s -N -H 'Authorization: Bearer the-token' "http://$1/samples" >"$2" &
	STREAM_PID=$!
	_test_pids+=("$STREAM_PID")
}
now_ns() { date +%s%N; }

# 2: two plans, one after the other
start_agent a1 1 --plans 2 --record "$TEST_TMP/a1.record" || exit 1
A1PID=${_test_pids[-1]} A1=$(cat a1.addr)
check_eq "plan 1 (run r1): 200" 200 "$(plan "$A1" r1)"
R1PID=$(jq -r .pid body.txt)
stream "$A1" s1.txt
S1PID=$STREAM_PID
sleep 1
curl -s "http://$A1/metrics" >m1.txt
check "plan 1's series carry run r1" grep -q 'allocspike_resident_memory_bytes{run="r1"' m1.txt
check_eq "DELETE /plan: 200" 200 "$(authed /plan "$A1" -X DELETE)"
deleted=$(now_ns)
sleep 0.5
check "the agent stays up after the withdrawal" alive "$A1PID"
check "plan 1's row is stopped" gone "$R1PID"
check "says it awaits the next plan" grep -q "plan withdrawn, its row stopped; awaiting the next plan (1 of 2 over)" a1.log
check "plan 1's /samples stream ended with it" wait_until 3 gone "$S1PID"
check_eq "GET /plan between plans: 404" 404 "$(authed /plan "$A1")"
curl -s "http://$A1/metrics" >m-between.txt
check "between plans: no run label, no target figure" \
	bash -c '! grep -q "run=\"r1\"" m-between.txt && ! grep -q "^allocspike_resident_memory_bytes" m-between.txt'
S1_LAST=$(tail -n 1 s1.txt | jq .seq)
echo "plan 1 streamed $(wc -l <s1.txt) reads, the last seq $S1_LAST"
check "plan 1 streamed reads" test "${S1_LAST:-0}" -gt 0

check_eq "plan 2 (another run, r2) after the withdrawal: 200" 200 "$(plan "$A1" r2)"
check_eq "its answer names run r2" r2 "$(jq -r .run body.txt)"
R2PID=$(jq -r .pid body.txt)
check "a row of its own" bash -c "[[ '$R2PID' != '$R1PID' ]] && kill -0 '$R2PID'"
check_eq "a third plan beside it: 409" 409 "$(plan "$A1" r3)"
check "the refusal says one at a time" grep -q "and takes one at a time" body.txt
stream "$A1" s2.txt
sleep 1
curl -s "http://$A1/metrics" >m2.txt
check "plan 2's series carry run r2 and none r1" bash -c 'grep -q "allocspike_resident_memory_bytes{run=\"r2\"" m2.txt && ! grep -q "run=\"r1\"" m2.txt'
check_eq "GET /record?from=0 during plan 2: 200" 200 "$(authed '/record?from=0' "$A1")"
cp body.txt record2.txt
echo "plan 2: $(wc -l <s2.txt) reads streamed, $(wc -l <record2.txt) served by /record?from=0, $(wc -l <a1.record) in the record file"
check "plan 2's stream: only reads made after plan 1's withdrawal, numbered on" \
	jqe -s --argjson d "$deleted" --argjson l "$S1_LAST" 'length > 0 and all(.[]; .t_start_ns > $d and .seq > $l)' s2.txt
check "/record?from=0: plan 2's reads only, from its first on" \
	jqe -s --argjson d "$deleted" --argjson l "$S1_LAST" 'length > 0 and all(.[]; .t_start_ns > $d and .seq > $l)' record2.txt
check "the record file keeps both plans' reads" \
	jqe -s --argjson l "$S1_LAST" 'any(.[]; .seq <= $l) and any(.[]; .seq > $l)' a1.record
check_eq "the second DELETE /plan: 200" 200 "$(authed /plan "$A1" -X DELETE)"
wait "$A1PID"
check_eq "its last plan withdrawn: the agent ends, exit 0" 0 $?
check "says it ends" grep -q "plan withdrawn, its row stopped; ending" a1.log
check "plan 2's row is stopped" gone "$R2PID"

# 3: --plans unlimited, then a lost controller
start_agent a2 2 --plans unlimited --lease 2s || exit 1
A2PID=${_test_pids[-1]} A2=$(cat a2.addr)
check_eq "DELETE /plan before any plan: 200" 200 "$(authed /plan "$A2" -X DELETE)"
sleep 0.5
check "nothing withdrawn: the agent awaits on" alive "$A2PID"
check_eq "plan 1: 200" 200 "$(plan "$A2" u1)"
check_eq "DELETE /plan: 200" 200 "$(authed /plan "$A2" -X DELETE)"
check_eq "plan 2 of another run: 200" 200 "$(plan "$A2" u2)"
R2PID=$(jq -r .pid body.txt)
check "says the plans over so far" grep -q "awaiting the next plan (1 of unlimited over)" a2.log
check_eq "one request after the plan (the controller heard from)" 200 "$(authed /time "$A2")"
heard=$(date +%s.%N)
wait_until 8 gone "$A2PID"
ended=$(date +%s.%N)
wait "$A2PID"
check_eq "the lease ran out with plans left: the agent ends, exit 3" 3 $?
echo "ended $(echo "$ended - $heard" | bc) s after the last request (lease 2 s)"
check "says why, and that it ends" grep -q "lease expired: no request from the controller for 2\.[0-9] s (the lease: 2 s); plan withdrawn, its row stopped; ending" a2.log
check "its row is gone" gone "$R2PID"

# 4: place --rows
start_agent a3 3 --plans unlimited || exit 1
A3PID=${_test_pids[-1]} A3=$(cat a3.addr)
start_agent a4 4 --plans unlimited || exit 1
A4PID=${_test_pids[-1]} A4=$(cat a4.addr)
printf 'host3 %s glibc\nhost4 %s glibc1\n' "$A3" "$A4" >two.hosts
"$RUN" place --table "$T" --run p1 --token-file token --hosts two.hosts --lead 0s --rows nope >place.out 2>place.err
check_eq "place --rows naming a row the file does not place: exit 2" 2 $?
check "says which" grep -q -- "--rows nope: row 'nope' is not placed by the hosts file" place.err
"$RUN" place --table "$T" --run p1 --token-file token --hosts two.hosts --lead 0s --rows glibc1 >place.out 2>place.err
check_eq "place --rows glibc1: exit 0" 0 $?
check_eq "the placement has the one row" glibc1 "$(jq -r '[.rows[].row] | join(",")' place.out)"
check_eq "host4's agent took its plan" 200 "$(authed /plan "$A4")"
check_eq "host3's agent was sent none" 404 "$(authed /plan "$A3")"
for a in "$A3" "$A4"; do authed /plan "$a" -X DELETE >/dev/null; done
sleep 0.5
check "both agents await on (--plans unlimited)" bash -c "kill -0 $A3PID && kill -0 $A4PID"
finish
