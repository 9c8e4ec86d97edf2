#!/bin/bash
# tests/agent/lease.sh - a plan's lease (docs/agent.md, "The lease"), over loopback: an agent that
# took a plan withdraws it by itself once no request carrying the token came for the lease.
#  1. --lease outside --await-plan, or under a second, and a plan's lease that is no duration: refused;
#  2. place --lease 2s over one agent: the answer names the lease; before the controller's first
#     request after the plan the agent waits longer (the barrier's time); after one request and
#     then silence (only open /metrics scrapes, which are no controller) it stops its row and ends
#     within the lease and a bound, exit 3, saying why on stderr;
#  3. an agent whose host caps the lease (--lease 2s) and a plan asking for an hour: the answer
#     names 2 s; kept in contact (GET /time twice a second, as the collector's clock exchange) it
#     outlives more than three leases, its row up, and a DELETE /plan still ends it with 0.
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
NET=127.56.61
source "$ALLOCSPIKE_SOURCE_DIR/tests/agent/plan_fixture.sh"

# 1: refusals
"$AGENT" --pid $$ --lease 5s >out.txt 2>err.txt
check_eq "--lease without --await-plan: exit 2" 2 $?
check "says it goes with --await-plan" grep -q -- "--lease goes with --await-plan" err.txt
"$AGENT" --await-plan --variants-table "$T" --control x.ctl --token-file token --lease 500ms >out.txt 2>err.txt
check_eq "--lease under a second: exit 2" 2 $?

# now_s: seconds since the epoch, to the millisecond
now_s() { date +%s.%N | cut -c1-14; }

start_agent a1 1 || exit 1
A1PID=${_test_pids[-1]} A1=$(cat a1.addr)
code=$(curl -s -o body.txt -w '%{http_code}' -H 'Authorization: Bearer the-token' --data '{"row":"glibc","run":"r1","lease":"0.5s"}' "http://$A1/plan")
check_eq "a plan's lease under a second: 400" 400 "$code"
check "names the lease" grep -q '"lease"' body.txt
code=$(curl -s -o body.txt -w '%{http_code}' -H 'Authorization: Bearer the-token' --data '{"row":"glibc","run":"r1","lease":5}' "http://$A1/plan")
check_eq "a plan's lease that is no duration string: 400" 400 "$code"

# 2: place --lease 2s, then one request and silence
printf 'host1 %s glibc\n' "$A1" >one.hosts
"$RUN" place --table "$T" --run r1 --token-file token --hosts one.hosts --lead 0s --lease 2s >place.out 2>place.err
check_eq "place --lease 2s: exit 0" 0 $?
check_eq "the answer names the plan's lease" 2 "$(jq '.rows[0].lease_s' place.out)"
RPID=$(jq -r '.rows[0].pid' place.out)
check "the agent says the lease it took" grep -q "plan taken: row glibc of run r1, .*; lease 2s" a1.log
sleep 3
check "no request since the plan, past the lease: still up (the barrier's grace)" alive "$A1PID"
check_eq "a request with the token: the controller heard from" 200 "$(authed /time "$A1")"
heard=$(now_s)
# open /metrics scrapes meanwhile (a dashboard's): no controller, no renewal
for _ in $(seq 1 40); do
	gone "$A1PID" && break
	curl -s -o /dev/null "http://$A1/metrics"
	sleep 0.2
done
wait_until 5 gone "$A1PID"
ended=$(now_s)
wait "$A1PID"
check_eq "the lease expired: exit 3" 3 $?
echo "ended $(echo "$ended - $heard" | bc) s after the last request (lease 2 s)"
check "ended after the lease, within 3 s more" bash -c "(( \$(echo '$ended - $heard >= 1.9 && $ended - $heard <= 5' | bc) ))"
check "says why on stderr" grep -q "lease expired: no request from the controller for 2\.[0-9] s (the lease: 2 s); plan withdrawn, its row stopped; ending" a1.log
check "its row is gone" gone "$RPID"

# 3: the host's cap, and a controller that keeps in contact
start_agent a2 2 --lease 2s || exit 1
A2PID=${_test_pids[-1]} A2=$(cat a2.addr)
code=$(curl -s -o body.txt -w '%{http_code}' -H 'Authorization: Bearer the-token' --data '{"row":"glibc","run":"r2","lease":"1h"}' "http://$A2/plan")
check_eq "a plan asking for an hour: 200" 200 "$code"
check_eq "the answer names the host's cap" 2 "$(jq .lease_s body.txt)"
RPID=$(jq -r .pid body.txt)
for _ in $(seq 1 16); do # 8 s: four leases
	authed /time "$A2" >/dev/null
	sleep 0.5
done
check "kept in contact for four leases: the agent is up" alive "$A2PID"
check "and its row" alive "$RPID"
check "nothing said of a lease" bash -c "! grep -q 'lease expired' a2.log"
check_eq "DELETE /plan: 200" 200 "$(authed /plan "$A2" -X DELETE)"
wait "$A2PID"
check_eq "withdrawn by its controller: exit 0" 0 $?
check "its row is gone" gone "$RPID"
finish
