#!/bin/bash
# tests/agent/await_plan.sh - allocspike-agent --await-plan: the agent serves with no row, takes one
# plan from a controller (POST /plan with the token) naming a build or env row of its own table,
# the run, the variant, the interval and resolver options from an allow-list, starts the row and
# answers once it is ready, with the address it serves DNS on; GET /plan says it, an identical
# plan gets the same answer, another is refused (409); DELETE /plan stops the row and ends the
# agent. Refused with the reason in the body and on stderr: no token or a wrong one (401), a row
# not in the table or a daemon row the agent cannot start (its upstream port is not 53: 422), an
# option off the allow-list, an unknown key, a body that is no JSON (400). Usage errors exit 2. `allocspike-run place` over loopback agents: the hosts
# file's errors (FILE:LINE, exit 2), a refused plan failing the placement and withdrawing the other
# agent's row, an unreachable agent named (exit 1), and a placement whose rows answer DNS.
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
NET=127.56.59
source "$ALLOCSPIKE_SOURCE_DIR/tests/resolver/hierarchy_lib.sh"
AGENT="$ALLOCSPIKE_BIN/allocspike-agent"
RUN="$ALLOCSPIKE_BIN/allocspike-run"
[[ -x $ALLOCSPIKE_BIN/allocspike-resolver-glibc ]] || skip "allocspike-resolver-glibc is not built"
for p in "$AGENT" "$RUN"; do [[ -x $p ]] || skip "$p is not built"; done
command -v curl >/dev/null || skip "curl not installed"
cd "$TEST_TMP" || exit 1
T=$TEST_TMP/variants.tsv
{
	printf 'name\tkind\tallocator\tlibc\tlibrary\tbase\tenv\tdefault\tnote\n'
	printf 'glibc\tbuild\tglibc\tglibc\t-\t-\t-\tyes\tthe build row\n'
	printf 'glibc-trim\tenv\tglibc\tglibc\t-\tglibc\tMALLOC_ARENA_MAX=2\tno\tan env row\n'
	printf 'kresd\texternal\tjemalloc\tglibc\t-\tkresd\t-\tno\ta daemon\n'
} >"$T"
printf 'the-token\n' >token
chmod 600 token
printf '. 3600 NS a.root.test.\na.root.test. 3600 A %s.1\n' "$NET" >root.hints

# usage errors, before anything listens
"$AGENT" --await-plan --variants-table "$T" --control x.ctl >out.txt 2>err.txt
check_eq "--await-plan without --token-file: exit 2" 2 $?
check "says a plan starts a process" grep -q "needs --token-file" err.txt
"$AGENT" --await-plan --start glibc --variants-table "$T" --control x.ctl --token-file token >out.txt 2>err.txt
check_eq "--await-plan with --start: exit 2" 2 $?
"$AGENT" --await-plan --variants-table "$T" --control x.ctl --token-file token --run r1 >out.txt 2>err.txt
check_eq "--await-plan with --run (the plan's): exit 2" 2 $?
printf 'name\tkind\n' >bad.tsv
"$AGENT" --await-plan --variants-table bad.tsv --control x.ctl --token-file token >out.txt 2>err.txt
check_eq "--await-plan with a table that does not read: exit 2" 2 $?
check "names the table" grep -q "bad.tsv" err.txt

start_hierarchy "$NET" || exit 1
# start_agent NAME I [TABLE]: an agent awaiting a plan, its row to serve on $NET.(10+I)
start_agent() {
	start_server "$1" "$TEST_TMP/$1.ready" "$AGENT" --await-plan --variants-table "${3:-$T}" \
		--resolver-listen "$NET.$((10 + $2)):0" --root-hints "$TEST_TMP/root.hints" \
		--upstream-port "$HPORT" --upstream-source "$NET.$((10 + $2))" --control "$TEST_TMP/$1-row.ctl" \
		--token-file "$TEST_TMP/token" --listen 127.0.0.1:0 --host "host$2" --duration 60s \
		--ready-file "$TEST_TMP/$1.ready" >"$1.addr"
}
# plan AGENT-ADDR BODY: POST /plan with the token ($TOKEN when set); the status and the body in
# status.txt and body.txt
plan() {
	curl -s -o body.txt -w '%{http_code}' -H "Authorization: Bearer ${TOKEN:-the-token}" \
		-H 'Content-Type: application/json' --data "$2" "http://$1/plan" >status.txt
}
start_agent a1 1 || exit 1
APID=${_test_pids[-1]}
A1=$(cat a1.addr)
check "serves /metrics before any plan, with no target" bash -c "curl -sf http://$A1/metrics | grep -q '^allocspike_agent_samples_total{.*} 0$'"
check_eq "no plan yet: GET /plan 404" 404 "$(curl -s -o /dev/null -w '%{http_code}' -H 'Authorization: Bearer the-token' "http://$A1/plan")"
check_eq "POST to /metrics: 405" 405 "$(curl -s -o /dev/null -w '%{http_code}' --data x "http://$A1/metrics")"

TOKEN=wrong plan "$A1" '{"row":"glibc","run":"r1"}'
check_eq "a wrong token: 401" 401 "$(cat status.txt)"
curl -s -o /dev/null -w '%{http_code}' --data '{"row":"glibc","run":"r1"}' "http://$A1/plan" >status.txt
check_eq "no token: 401" 401 "$(cat status.txt)"
plan "$A1" '{"row":"nope","run":"r1"}'
check_eq "a row not in the agent's table: 422" 422 "$(cat status.txt)"
check "says so, naming the table" grep -q "no variant 'nope' in $T" body.txt
check "on the agent's stderr too" grep -q "/plan: 422: no variant 'nope'" a1.log
plan "$A1" '{"row":"kresd","run":"r1"}'
check_eq "a daemon row on an agent whose upstream port is not 53: 422" 422 "$(cat status.txt)"
check "says a daemon sends upstream to port 53 only" grep -q "row kresd is a daemon, which sends upstream to port 53 only" body.txt
plan "$A1" '{"row":"glibc","run":"r1","resolver_options":["--control","/tmp/x"]}'
check_eq "a resolver option off the allow-list: 400" 400 "$(cat status.txt)"
check "names it and the allowed ones" grep -q "resolver option '--control' is not one a plan may set (allowed: --cache-size" body.txt

# A shard plan (docs/agent.md, "A generator shard"): refused by an agent without --shard-dir, then
# checked field by field by one with it; taken, its generator watched, its fragment served.
for i in $(seq 1 50); do echo "s$i.test A"; done >shard-queries.txt
shard_plan() { # SHARD QUERIES SCHEDULE [EXTRA-KEYS]: a shard plan's body, T0 a second ahead
	printf '{"kind":"shard","run":"s1","shard":"%s","schedule":"%s","queries":"%s","start_at":"%s","targets":[{"name":"glibc","addr":"%s.99:53"}]%s}' \
		"$1" "$3" "$2" "$(awk -v n="$(date +%s.%N)" 'BEGIN { printf "%.3f", n + 1 }')" "$NET" "${4:-}"
}
plan "$A1" "$(shard_plan 1/1 "$TEST_TMP/shard-queries.txt" baseline:1s@10)"
check_eq "a shard plan to an agent without --shard-dir: 422" 422 "$(cat status.txt)"
check "says it runs no shard" grep -q "started without --shard-dir" body.txt
start_server g1 "$TEST_TMP/g1.ready" "$AGENT" --await-plan --variants-table "$T" --control "$TEST_TMP/g1.ctl" \
	--token-file "$TEST_TMP/token" --listen 127.0.0.1:0 --host gen1 --shard-dir "$TEST_TMP/fragments" \
	--duration 60s --ready-file "$TEST_TMP/g1.ready" >g1.addr || exit 1
GPID=${_test_pids[-1]}
G1=$(cat g1.addr)
plan "$G1" "$(shard_plan 1/1 "$TEST_TMP/shard-queries.txt" baseline:1s@10 ',"row":"glibc"')"
check_eq "a shard plan with a row plan's key: 400" 400 "$(cat status.txt)"
check "names the key and a shard plan's keys" grep -q 'unknown key "row" (a shard plan has kind, run' body.txt
plan "$G1" "$(shard_plan 3/2 "$TEST_TMP/shard-queries.txt" baseline:1s@10)"
check_eq "shard 3/2: 400" 400 "$(cat status.txt)"
plan "$G1" "$(shard_plan 1/1 shard-queries.txt baseline:1s@10)"
check_eq "a relative query file path: 400" 400 "$(cat status.txt)"
plan "$G1" "$(shard_plan 1/1 "$TEST_TMP/shard-queries.txt" --help)"
check_eq "a schedule that would be an option: 400" 400 "$(cat status.txt)"
plan "$G1" "$(shard_plan 1/1 "$TEST_TMP/nothing-here.txt" baseline:1s@10)"
check_eq "a query file not on the agent's host: 422" 422 "$(cat status.txt)"
check "says the plan carries a path" grep -q "is not a readable file on this host (the plan carries its path" body.txt
check "no generator started by a refusal" bash -c "! grep -q 'plan taken' g1.log"
# The query file sent to the agent (PUT /queries) rather than named by a path on its host
put_queries() { # FILE DIGEST [AGENT]: PUT /queries, the status and the body in status.txt and body.txt
	curl -s -o body.txt -w '%{http_code}' -H 'Authorization: Bearer the-token' -H "X-Content-SHA256: $2" \
		-T "$1" "http://${3:-$G1}/queries" >status.txt
}
SUM=$(sha256sum shard-queries.txt | cut -d' ' -f1)
WRONG=$(printf 'other\n' | sha256sum | cut -d' ' -f1)
put_queries shard-queries.txt "$WRONG"
check_eq "a query file whose SHA-256 is not the one named: 400" 400 "$(cat status.txt)"
check "says the file was not received whole, naming both digests" grep -q "the body's SHA-256 is $SUM, not $WRONG" body.txt
put_queries shard-queries.txt ""
check_eq "a query file without its SHA-256: 400" 400 "$(cat status.txt)"
truncate -s $((128 * 1024 * 1024 + 1)) big-queries.txt
put_queries big-queries.txt "$SUM"
check_eq "a query file over the bound (128 MiB): 413" 413 "$(cat status.txt)"
check "nothing kept by the refusals" bash -c "! ls '$TEST_TMP/fragments'/queries-* 2>/dev/null | grep -q ."
put_queries shard-queries.txt "$SUM" "$A1"
check_eq "a query file to an agent without --shard-dir: 422" 422 "$(cat status.txt)"
check_eq "a query file without the token: 401" 401 "$(curl -s -o /dev/null -w '%{http_code}' -H "X-Content-SHA256: $SUM" -T shard-queries.txt "http://$G1/queries")"
plan "$G1" "$(shard_plan 1/1 "sha256:$SUM" baseline:1s@10)"
check_eq "a shard plan naming a query file not sent: 422" 422 "$(cat status.txt)"
check "says to send it first" grep -q "no query file with SHA-256 $SUM was sent to this agent (PUT /queries before the plan)" body.txt
put_queries shard-queries.txt "$SUM"
check_eq "the query file: 201" 201 "$(cat status.txt)"
check "answered with the name a plan gives it" jq_true --arg q "sha256:$SUM" '.queries == $q and .bytes == 541' body.txt
check "kept in --shard-dir under its digest, as sent" cmp -s shard-queries.txt "$TEST_TMP/fragments/queries-$SUM.txt"
put_queries shard-queries.txt "$SUM"
check_eq "the same file again: 200 (kept already)" 200 "$(cat status.txt)"
body=$(shard_plan 1/1 "sha256:$SUM" baseline:1s@10)
plan "$G1" "$body"
check_eq "a shard plan naming the query file sent: 200" 200 "$(cat status.txt)"
check "its generator replays the file kept" \
	wait_until 2 grep -qz -- "^$TEST_TMP/fragments/queries-$SUM.txt\$" "/proc/$(jq -r .pid body.txt)/cmdline"
check "answered running, its fragment's folder named" \
	jq_true --arg f "$TEST_TMP/fragments/s1-shard-1" '.kind == "shard" and .shard == "1/1" and .state == "running" and .fragment == $f and .host == "gen1"' body.txt
plan "$G1" "$body"
check_eq "the identical shard plan again: 200" 200 "$(cat status.txt)"
plan "$G1" "$(shard_plan 1/1 "$TEST_TMP/shard-queries.txt" baseline:2s@10)"
check_eq "another plan (a path on the host): 409" 409 "$(cat status.txt)"
fragment_status() { curl -s -o "fragment.$2" -w '%{http_code}' -H 'Authorization: Bearer the-token' "http://$G1/fragment?file=$1"; }
check_eq "GET /fragment of a file that is no fragment's: 404" 404 "$(fragment_status ../token x)"
check_eq "GET /fragment without the token: 401" 401 "$(curl -s -o /dev/null -w '%{http_code}' "http://$G1/fragment?file=fragment.json")"
shard_exited() { curl -s -H 'Authorization: Bearer the-token' "http://$G1/plan" | jq -e '.state == "exited" and .exit_code == 0' >/dev/null; }
check "GET /plan says the generator exited (0) after its 1 s schedule" wait_until 10 shard_exited
check_eq "GET /fragment?file=fragment.json: 200" 200 "$(fragment_status fragment.json json)"
check "the fragment served is the shard's own, completed" cmp -s fragment.json "$TEST_TMP/fragments/s1-shard-1/fragment.json"
check "shard 1 of 1, completed" jq_true '.shard == 1 and .shards == 1 and .status == "completed"' fragment.json
curl -s -o /dev/null -X DELETE -H 'Authorization: Bearer the-token' "http://$G1/plan"
check "DELETE /plan: the shard's agent ends" wait_until 5 gone "$GPID"
plan "$A1" '{"row":"glibc","run":"r1","resolver_options":["--cache-size"]}'
check_eq "an allowed option without its value: 400" 400 "$(cat status.txt)"
plan "$A1" '{"row":"glibc","run":"r1","resolver_options":["--cache-size","1M","x"]}'
check_eq "a word that is no option: 400" 400 "$(cat status.txt)"
plan "$A1" '{"row":"glibc","run":"r1","command":"sh"}'
check_eq "an unknown key: 400" 400 "$(cat status.txt)"
check "names it" grep -q 'unknown key "command"' body.txt
plan "$A1" 'not json'
check_eq "a body that is no JSON: 400" 400 "$(cat status.txt)"
check "nothing was started by the refusals" test ! -e "$TEST_TMP/a1-row.ctl.ready"

GOOD='{"row":"glibc-trim","run":"r1","variant":"trim","interval":"50ms","resolver_options":["--cache-size","4M","--allow=127.0.0.0/8","--upstream-timeout-ms","700"]}'
plan "$A1" "$GOOD"
check_eq "the plan: 200 once the row is ready" 200 "$(cat status.txt)"
echo "answer: $(cat body.txt)"
RESOLVER=$(jq -r .resolver body.txt)
check_eq "the answer names the row's DNS address" "$NET.11" "${RESOLVER%:*}"
RPID=$(jq -r .pid body.txt)
check_eq "the row is the agent's child" "$APID" "$(ps -o ppid= -p "$RPID" | tr -d ' ')"
check "with the row's environment" grep -qz '^MALLOC_ARENA_MAX=2$' "/proc/$RPID/environ"
check "and the plan's options" grep -qz -- '^--upstream-timeout-ms$' "/proc/$RPID/cmdline"
check_eq "it answers through the hierarchy" NOERROR \
	"$(kdig @"$NET.11" -p "${RESOLVER##*:}" +time=4 +retry=0 www.example.test A 2>&1 | sed -n 's/.*status: \([A-Z]*\).*/\1/p')"
sleep 0.3
curl -sf "http://$A1/metrics" -o m.txt
check "the agent samples it with the plan's labels" grep -q '^allocspike_target_up{run="r1",host="host1",variant="trim"} 1$' m.txt
check_eq "GET /plan: the same answer" "$(cat body.txt)" "$(curl -s -H 'Authorization: Bearer the-token' "http://$A1/plan")"
cp body.txt first.txt
plan "$A1" "$GOOD"
check_eq "the identical plan again: 200" 200 "$(cat status.txt)"
check_eq "with the same answer" "$(cat first.txt)" "$(cat body.txt)"
plan "$A1" '{"row":"glibc","run":"r1"}'
check_eq "another plan: 409" 409 "$(cat status.txt)"
check "names the plan taken" grep -q "took a plan already (row glibc-trim of run r1)" body.txt
check_eq "DELETE /plan: 200" 200 "$(curl -s -o /dev/null -w '%{http_code}' -X DELETE -H 'Authorization: Bearer the-token' "http://$A1/plan")"
wait "$APID"
check_eq "the agent ends: exit 0" 0 $?
check "its row stopped" gone "$RPID"

# a row that ends before it is ready (its DNS address cannot be bound): 500, and the agent serves on
start_server e1 "$TEST_TMP/e1.ready" "$AGENT" --await-plan --variants-table "$T" \
	--resolver-listen 192.0.2.1:0 --root-hints "$TEST_TMP/root.hints" --control "$TEST_TMP/e1-row.ctl" \
	--token-file "$TEST_TMP/token" --listen 127.0.0.1:0 --duration 60s --ready-file "$TEST_TMP/e1.ready" >e1.addr || exit 1
plan "$(cat e1.addr)" '{"row":"glibc","run":"r1"}'
check_eq "a row that ends before it is ready: 500" 500 "$(cat status.txt)"
check "says so" grep -q "row glibc ended before it was ready" body.txt
check_eq "the agent serves on, no plan taken" 404 "$(curl -s -o /dev/null -w '%{http_code}' -H 'Authorization: Bearer the-token' "http://$(cat e1.addr)/plan")"

# allocspike-run place over two loopback agents
place() { "$RUN" place --table "$T" --run r2 --token-file token --interval 50ms --lead 1s "$@" >place.out 2>place.err; }
printf 'host1 127.0.0.1:1 glibc\nhost1 bad-address glibc-trim\n' >bad.hosts
place --hosts bad.hosts
check_eq "place: a hosts file with a bad address: exit 2" 2 $?
check "names FILE:LINE" grep -q "bad.hosts:2: agent address 'bad-address'" place.err
printf '# two rows\nhost1 127.0.0.1:1 glibc\nhost2 127.0.0.1:2 glibc\n' >bad.hosts
place --hosts bad.hosts
check_eq "place: a row on two hosts: exit 2" 2 $?
check "names FILE:LINE and the first" grep -q "bad.hosts:3: row glibc is placed already, on host host1 (line 2)" place.err
printf 'host1 127.0.0.1:1 nope\n' >bad.hosts
place --hosts bad.hosts
check_eq "place: a row not in the table: exit 2" 2 $?
check "names FILE:LINE" grep -q "bad.hosts:1: no variant 'nope' in $T" place.err
printf 'host1 127.0.0.1:1\n' >bad.hosts
place --hosts bad.hosts
check_eq "place: a line without its row: exit 2" 2 $?
check "names FILE:LINE" grep -q "bad.hosts:1: too few fields" place.err

start_agent b1 1 || exit 1
B1PID=${_test_pids[-1]}
# b2's table lacks glibc-trim: its plan is refused, and b1's row must be stopped
grep -v '^glibc-trim' "$T" >small.tsv
start_agent b2 2 "$TEST_TMP/small.tsv" || exit 1
B2PID=${_test_pids[-1]}
printf 'host1 %s glibc\nhost2 %s glibc-trim\n' "$(cat b1.addr)" "$(cat b2.addr)" >b.hosts
place --hosts b.hosts
check_eq "place: a plan one agent refuses: exit 1" 1 $?
cat place.err
check "names that host and the reason" grep -q "host host2 (agent $(cat b2.addr)), row glibc-trim: plan refused (HTTP 422): no variant 'glibc-trim'" place.err
check "the other host withdrawn" grep -q "host host1 (agent $(cat b1.addr)): withdrawn, its row stopped" place.err
wait "$B1PID"
check_eq "the other agent ended (exit 0)" 0 $?
check "its row was started, then stopped" grep -q "plan taken: row glibc of run r2" b1.log
check "and is gone" bash -c "! pgrep -f 'allocspike-resolver-glibc.*b1-row[.]ctl' >/dev/null"
wait "$B2PID"

start_agent c1 1 || exit 1
printf 'host1 %s glibc\nhost2 127.0.0.1:1 glibc-trim\n' "$(cat c1.addr)" >c.hosts
place --hosts c.hosts
check_eq "place: an agent that cannot be reached: exit 1" 1 $?
check "names it" grep -q "host host2 (agent 127.0.0.1:1): connect: Connection refused; the placement is refused" place.err
check "the other was sent no plan" bash -c "! grep -q 'plan taken' c1.log"

# an agent lost between its clock and its plan: the stand-in answers the exchange and goes; the
# placement is refused naming it and the other host's row is stopped
start_agent f1 1 || exit 1
F1PID=${_test_pids[-1]}
python3 "$ALLOCSPIKE_SOURCE_DIR/tests/agent/clock_then_gone.py" "$TEST_TMP/f2.addr" host2 &
_test_pids+=($!)
wait_until 10 test -s "$TEST_TMP/f2.addr"
printf 'host1 %s glibc\nhost2 %s glibc-trim\n' "$(cat f1.addr)" "$(cat "$TEST_TMP/f2.addr")" >f.hosts
place --hosts f.hosts
check_eq "place: an agent gone after its clock: exit 1" 1 $?
# a "row ...:" reason comes from the plans, after every clock was taken
check "names it and the failed plan" grep -q "host host2 (agent $(cat "$TEST_TMP/f2.addr")), row glibc-trim: no answer (cannot connect" place.err
check "and that it could not be told to withdraw" grep -q "host host2 (agent $(cat "$TEST_TMP/f2.addr")): could not be told to withdraw" place.err
check "the other host withdrawn" grep -q "host host1 (agent $(cat f1.addr)): withdrawn, its row stopped" place.err
wait "$F1PID"
check_eq "the other agent ended (exit 0)" 0 $?
check "its row was started, then stopped" grep -q "plan taken: row glibc of run r2" f1.log

start_agent d2 2 || exit 1
printf 'host1 %s glibc\nhost2 %s glibc-trim\n' "$(cat d2.addr)" "$(cat c1.addr)" >swapped.hosts
place --hosts swapped.hosts
check_eq "place: a hosts file with two agents' addresses swapped: exit 1" 1 $?
check "names the host and the agent's own name" grep -q "host host1 (agent $(cat d2.addr)): the agent there names its host host2 (its --host), not host1; the placement is refused" place.err
printf 'host1 %s glibc\nhost2 %s glibc-trim # the env row\n' "$(cat c1.addr)" "$(cat d2.addr)" >d.hosts
before=$(date +%s%N)
place --hosts d.hosts --out "$TEST_TMP/run" -- --allow 127.0.0.0/8
check_eq "place: both rows placed: exit 0" 0 $?
cat place.out
check_eq "two rows" 2 "$(jq '.rows | length' place.out)"
check "each with its host and a resolver address" jq -e '[.rows[] | [.row, .host]] == [["glibc", "host1"], ["glibc-trim", "host2"]] and all(.rows[]; .resolver | test(":[0-9]+$"))' place.out
check "each row's lease: the agents' default (60 s)" jq -e 'all(.rows[]; .lease_s == 60)' place.out
check "t0 is the lead after the barrier, in --start-at's form" jq -e --argjson b "$before" '(.t0 | test("^[0-9]+\\.[0-9]{9}$")) and .t0_ns > $b + 1e9 and .t0_ns < $b + 30e9' place.out
for i in 0 1; do
	addr=$(jq -r ".rows[$i].resolver" place.out)
	check_eq "row $i answers DNS" NOERROR \
		"$(kdig @"${addr%:*}" -p "${addr##*:}" +time=4 +retry=0 www.example.test A 2>&1 | sed -n 's/.*status: \([A-Z]*\).*/\1/p')"
done
check "the placement recorded as events" jq -se 'map(select(.event == "placed")) | length == 2 and (map(.variant) == ["glibc", "glibc-trim"]) and all(.[]; .host and .agent and .resolver and (.offset_ms | type) == "number")' "$TEST_TMP/run/events.jsonl"
check "and T0" jq -se --slurpfile p place.out 'any(.[]; .event == "placement" and .t0 == $p[0].t0)' "$TEST_TMP/run/events.jsonl"
cp place.out first-place.out
place --hosts d.hosts -- --allow 127.0.0.0/8
check_eq "place again, the same plans: every agent answers as before (exit 0)" 0 $?
check_eq "the same rows" "$(jq -c '[.rows[] | [.resolver, .pid]]' first-place.out)" "$(jq -c '[.rows[] | [.resolver, .pid]]' place.out)"
place --hosts d.hosts -- --allow 127.0.0.0/8 --cache-size 1M
check_eq "place with other resolver options: the agents refuse (exit 1)" 1 $?
check "409 from each" bash -c "grep -c 'plan refused (HTTP 409)' place.err | grep -qx 2"

# The root hints carried in the plan: an agent started without --root-hints, place --root-hints
start_server h1 "$TEST_TMP/h1.ready" "$AGENT" --await-plan --variants-table "$T" \
	--resolver-listen "$NET.13:0" --upstream-port "$HPORT" --upstream-source "$NET.13" --control "$TEST_TMP/h1-row.ctl" \
	--token-file "$TEST_TMP/token" --listen 127.0.0.1:0 --host host1 --duration 60s \
	--ready-file "$TEST_TMP/h1.ready" >h1.addr || exit 1
H1PID=${_test_pids[-1]}
H1=$(cat h1.addr)
plan "$H1" '{"row":"glibc","run":"r3","root_hints":"a\u0001b"}'
check_eq "root hints that are not text: 400" 400 "$(cat status.txt)"
check "says so" grep -q '"root_hints": text only (byte 1 is 0x01)' body.txt
plan "$H1" '{"row":"glibc","run":"r3","root_hints":7}'
check_eq "root hints that are no string: 400" 400 "$(cat status.txt)"
printf 'host1 %s glibc\n' "$H1" >h.hosts
place --hosts h.hosts --root-hints root.hints -- --allow 127.0.0.0/8
check_eq "place --root-hints to an agent without them: exit 0" 0 $?
check "the agent kept them beside its row's socket, as sent" cmp -s root.hints "$TEST_TMP/h1-row.ctl.root.hints"
check "its row was started with them" grep -qz -- "^$TEST_TMP/h1-row.ctl.root.hints\$" \
	"/proc/$(jq -r '.rows[0].pid' place.out)/cmdline"
addr=$(jq -r '.rows[0].resolver' place.out)
check_eq "its row answers through the hierarchy" NOERROR \
	"$(kdig @"${addr%:*}" -p "${addr##*:}" +time=4 +retry=0 www.example.test A 2>&1 | sed -n 's/.*status: \([A-Z]*\).*/\1/p')"
check "GET /sources: this host's addresses but loopback" \
	bash -c "curl -sf -H 'Authorization: Bearer the-token' http://$H1/sources | jq -e '.host == \"host1\" and (.sources | type == \"array\") and all(.sources[]; startswith(\"127.\") | not)'"
check_eq "GET /sources without the token: 401" 401 "$(curl -s -o /dev/null -w '%{http_code}' "http://$H1/sources")"
curl -s -o /dev/null -X DELETE -H 'Authorization: Bearer the-token' "http://$H1/plan"
wait "$H1PID"

# A row whose program is not on its agent's host: the agent says so (GET /rows), place refuses it
# before any plan, naming the host and the row
cp "$T" ghost.tsv
printf 'ghost\tbuild\tglibc\tglibc\t-\t-\t-\tno\tnot built anywhere\n' >>ghost.tsv
start_agent k1 1 "$TEST_TMP/ghost.tsv" || exit 1
K1PID=${_test_pids[-1]}
curl -s -H 'Authorization: Bearer the-token' "http://$(cat k1.addr)/rows" >rows.json
check "GET /rows: the built row runnable" jq_true '.host == "host1" and any(.rows[]; .row == "glibc" and .runnable)' rows.json
check "GET /rows: the row not built, with what is missing" \
	jq_true '.rows[] | select(.row == "ghost") | (.runnable | not) and (.missing | test("^allocspike-resolver-ghost in /"))' rows.json
printf 'host1 %s ghost\n' "$(cat k1.addr)" >k.hosts
place --table "$TEST_TMP/ghost.tsv" --hosts k.hosts
check_eq "place: a row whose program is missing on its agent's host: exit 1" 1 $?
check "names the host, the row and what is missing" \
	grep -q "host host1 (agent $(cat k1.addr)), row ghost: the row cannot run on that host: missing allocspike-resolver-ghost in /.*; the placement is refused" place.err
check "no plan was sent" bash -c "! grep -q '/plan' k1.log"
kill "$K1PID"
finish
