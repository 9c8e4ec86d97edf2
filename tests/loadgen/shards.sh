#!/bin/bash
# tests/loadgen/shards.sh - --shard I/N with a query file on a schedule, --start-at, and
# allocspike-report merge (docs/loadgen.md, "Shards"; docs/run-folder.md, "Fragments and merge"):
# two and three shards against two targets send, together, the one generator's stream query for
# query (every query has its own name here, so the responders' logs name each one), each target
# the same set; the merged offered and sent rates per 100 ms match the one generator's; the
# shards' first sends lie within a few ms of each other; the merged histograms are the sums of the
# shards'; a killed shard, a missing or a doubled one, and shards of another stream fail the merge;
# merge --into adds to a run folder without a generator's rows, and refuses one with them.
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
LG="$ALLOCSPIKE_BIN/allocspike-loadgen"
REPORT="$ALLOCSPIKE_BIN/allocspike-report"
RESP="$ALLOCSPIKE_BIN/allocspike-test-responder"
NET=127.56.44
cd "$TEST_TMP"
printf 'query * *\nanswer x. 60 IN A 192.0.2.1\n' >answers.txt
# more names than the schedule sends: no query file wrap, so a name is one query of the stream
for i in $(seq 1 1500); do echo "q$i.example.com A"; done >q.txt
SCHEDULE='baseline:1s@200,spike:1s@500,recovery:1s@200' # 900 queries
start_server a a.ready "$RESP" --listen "$NET.1:0" --fixture answers.txt --log a.log --ready-file a.ready >a.addr || exit 1
start_server b b.ready "$RESP" --listen "$NET.2:0" --fixture answers.txt --log b.log --ready-file b.ready >b.addr || exit 1
TARGETS=(--target "name=a,addr=$(cat a.addr)" --target "name=b,addr=$(cat b.addr)")
# the sanitizer build starts slowly: a later common start
LEAD=1.5
[[ "${ALLOCSPIKE_SANITIZE:-0}" == 1 ]] && LEAD=4
start_time() { python3 -c "import time; print('%.6f' % (time.time() + $LEAD))"; }

# run_shards NAME N [OPTION...] : N shards (N = 1: one generator, no --shard) started apart at one
# --start-at, folders NAME/1..N; the responders' logs kept as NAME.a and NAME.b
run_shards() {
	local name=$1 n=$2 t0 i pids=()
	shift 2
	: >a.log
	: >b.log
	t0=$(start_time)
	for ((i = 1; i <= n; i++)); do
		local shard=()
		((n > 1)) && shard=(--shard "$i/$n")
		"$LG" -d q.txt --schedule "${SCHED:-$SCHEDULE}" --timeout-ms 500 --no-progress "${shard[@]}" "$@" \
			--start-at "$t0" --out "$name/$i" "${TARGETS[@]}" >"$name.$i.out" 2>"$name.$i.err" &
		pids+=($!)
	done
	local rc=0
	for i in "${pids[@]}"; do wait "$i" || rc=1; done
	check_eq "$name: every generator's exit status 0" 0 $rc
	sleep 0.3 # the last answers' log lines
	cp a.log "$name.a"
	cp b.log "$name.b"
}

# queries LOG : what a responder received, one line per query: id name type (sorted)
queries() { awk '{ print $3, $4, $5 }' "$1" | sort; }

run_shards one 1
check_eq "one generator: target a got the schedule's queries" 900 "$(wc -l <one.a)"
check "one generator: both targets got the same queries" cmp -s <(queries one.a) <(queries one.b)

for n in 2 3; do
	run_shards s$n $n
	for t in a b; do
		check "$n shards: target $t got the one generator's stream, query for query (same names, types, IDs)" \
			cmp -s <(queries one.$t) <(queries s$n.$t)
	done
	check "$n shards: both targets got the same set" cmp -s <(queries s$n.a) <(queries s$n.b)
	# each shard sent its clients' queries only: no name from two shards
	total=0
	for ((i = 1; i <= n; i++)); do
		sent=$(awk -F, '$2 == "a" { s += $6 } END { print s + 0 }' s$n/$i/timeline.csv)
		total=$((total + sent))
		check "$n shards: shard $i sent about 1/$n of the stream ($sent of 900)" \
			test "$sent" -ge $((900 / n - 5)) -a "$sent" -le $((900 / n + 5))
	done
	check_eq "$n shards: the shards' sends add up to the stream" 900 "$total"

	# the first sends: each shard's lateness against its first query's planned instant
	python3 - s$n $n >first.$n.txt <<'PY'
import json, sys
from decimal import Decimal
d, n = sys.argv[1], int(sys.argv[2])
late, first = [], []
for i in range(1, n + 1):
    f = json.load(open("%s/%d/fragment.json" % (d, i)))
    since = float(Decimal(f["first_send_realtime"]) - Decimal(f["start_realtime"]))
    first.append(since)
    late.append(since - f["first_planned_s"])
print("%.3f|%s|%s" % ((max(late) - min(late)) * 1000, " ".join("%.3f" % (x * 1000) for x in late),
                      " ".join("%.3f" % (x * 1000) for x in first)))
PY
	IFS='|' read -r spread lateness first <first.$n.txt
	echo "$n shards: first sends at $first ms after the common start, late by $lateness ms after their planned instants (spread $spread ms; load $(cut -d' ' -f1-3 /proc/loadavg))"
	# loose: a shared 2-core machine can wake a process late by tens of ms
	check "$n shards: the first sends within 30 ms of each other (spread $spread ms)" \
		python3 -c "import sys; sys.exit(0 if $spread <= 30 else 1)"

	"$REPORT" merge --out m$n $(for ((i = 1; i <= n; i++)); do echo s$n/$i; done) >merge.$n.out 2>merge.$n.err
	check_eq "$n shards: merge exit status" 0 $?
	# per 100 ms interval: offered is the schedule's (exact); sent as the one generator's, within
	# 1 % or the queries due in 20 ms (a process woken late moves a query to the next interval).
	# Pacing, so not under the sanitizers (the suite's timing tests are left out there too): under
	# ASan one generator fell behind by 17 queries at an interval's edge while the totals agreed.
	if [[ ${ALLOCSPIKE_SANITIZE:-0} == 1 ]]; then
		echo "skip (sanitizer build): $n shards: merged sent per 100 ms against the one generator's"
		sent_total() { awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $2 !~ /^_/ { s += $c["sent"] } END { print s + 0 }' "$1"; }
		check_eq "$n shards: merged sent in all equals the one generator's" "$(sent_total one/1/timeline.csv)" "$(sent_total m$n/timeline.csv)"
	else
	check "$n shards: merged offered and sent per 100 ms match the one generator's" \
		python3 - one/1/timeline.csv m$n/timeline.csv <<'PY'
import csv, sys
import math
def rows(path):
    # by interval (a last, partial row joins the interval it ends in, as the merge does)
    out = {}
    for r in csv.DictReader(open(path)):
        if r["variant"] in ("a", "b"):
            key = (r["variant"], math.ceil(float(r["t_s"]) / 0.1 - 1e-6))
            if key in out:
                for col in ("offered", "sent"):
                    out[key][col] = str(float(out[key][col]) + float(r[col]))
            else:
                out[key] = r
    return out
one, merged = rows(sys.argv[1]), rows(sys.argv[2])
bad, worst = 0, 0
for key, r in one.items():
    m = merged.get(key)
    if m is None:
        if float(r["sent"] or 0) > 0:
            print("no merged row for", key); bad += 1
        continue
    if r["offered"] != m["offered"]:
        print("offered", key, r["offered"], m["offered"]); bad += 1
    o, s = float(r["sent"]), float(m["sent"])
    rate = float(r["offered"]) / 0.1 if float(r["offered"]) else 500
    worst = max(worst, abs(o - s))
    if abs(o - s) > max(0.01 * o, rate * 0.020 + 1):
        print("sent", key, o, s); bad += 1
tot_one = sum(float(r["sent"]) for r in one.values())
tot_m = sum(float(r["sent"]) for r in merged.values())
print("sent per interval: most apart %d queries; totals %d and %d" % (worst, tot_one, tot_m))
sys.exit(1 if bad or not tot_one == tot_m == 1800 else 0)
PY
	fi
	# latency: the merged histograms are the shards' added; the quantiles are read from them
	check "$n shards: merged latency_hist.csv is the bucket-wise sum of the shards'" \
		python3 - m$n $(for ((i = 1; i <= n; i++)); do echo s$n/$i; done) <<'PY'
import csv, sys
from collections import Counter
def hist(d):
    c = Counter()
    for r in csv.DictReader(open(d + "/latency_hist.csv")):
        c[(r["variant"], r["phase"], r["spike"], r["upper_us"])] += int(r["count"])
    return c
merged = hist(sys.argv[1])
total = Counter()
for d in sys.argv[2:]:
    total.update(hist(d))
answered = sum(int(r["answered"]) for r in csv.DictReader(open(sys.argv[1] + "/phases.csv")))
sys.exit(0 if merged == total and answered == sum(merged.values()) == 1800 else 1)
PY
	# the timeline's latency: each interval's histograms added, its quantiles from the sum; the
	# median of a union lies between the parts' medians
	check "$n shards: merged per-interval latency from the shards' interval histograms" \
		python3 - m$n $(for ((i = 1; i <= n; i++)); do echo s$n/$i; done) <<'PY'
import csv, math, sys
from collections import Counter
def key(r):
    return (r["variant"], math.ceil(float(r["t_s"]) / 0.1 - 1e-6))
merged = {key(r): r for r in csv.DictReader(open(sys.argv[1] + "/timeline.csv")) if r["variant"] in ("a", "b")}
counts, p50s = Counter(), {}
for d in sys.argv[2:]:
    for r in csv.DictReader(open(d + "/interval_hist.csv")):
        counts[key(r)] += int(r["count"])
    for r in csv.DictReader(open(d + "/timeline.csv")):
        if r["variant"] in ("a", "b") and r["lat_p50_ms"]:
            p50s.setdefault(key(r), []).append(float(r["lat_p50_ms"]))
bad = 0
for k, r in merged.items():
    answered = int(float(r["answered"] or 0))
    if counts[k] != answered:
        print("answers", k, answered, "histogram", counts[k]); bad += 1
    if answered and not r["lat_p50_ms"]:
        print("no p50", k); bad += 1
    if answered and not min(p50s[k]) <= float(r["lat_p50_ms"]) <= max(p50s[k]):
        print("p50", k, r["lat_p50_ms"], "not between the shards'", p50s[k]); bad += 1
sys.exit(1 if bad else 0)
PY
	check "$n shards: each shard's generator is a row of its own" grep -q "_loadgen_$n," m$n/timeline.csv
done

# TCP clients: a client's queries come from one shard, so its connection stays one connection
SCHED='baseline:1s@200'
run_shards tcp1 1 --tcp-share 0.5 --clients 10
run_shards tcp2 2 --tcp-share 0.5 --clients 10
unset SCHED
for t in a b; do
	check "TCP clients, 2 shards: target $t got the one generator's stream" \
		cmp -s <(queries tcp1.$t) <(queries tcp2.$t)
	check_eq "TCP clients, 2 shards: target $t saw as many TCP connections as from one generator" \
		"$(awk '$6 == "tcp" { print $2 }' tcp1.$t | sort -u | wc -l)" \
		"$(awk '$6 == "tcp" { print $2 }' tcp2.$t | sort -u | wc -l)"
done
check_eq "TCP clients: one generator's connections to a (5 TCP clients)" 5 \
	"$(awk '$6 == "tcp" { print $2 }' tcp1.a | sort -u | wc -l)"

# --into: a run folder with other files (a run across hosts': events, agents' reads) and a
# timeline.csv holding only its header takes the merge, its events added to and its run.json kept;
# one that holds a generator's rows already is refused
mkdir -p into/agents
head -1 m2/timeline.csv >into/timeline.csv
echo '{"t_s": -1, "variant": "_controller", "event": "placement"}' >into/events.jsonl
echo '{"format": 1, "scenario": "place"}' >into/run.json
: >into/agents/a.jsonl
"$REPORT" merge --into into s2/1 s2/2 >/dev/null 2>err.txt
check_eq "merge --into a run folder without a generator's rows: exit status" 0 $?
check "merge --into: the merged timeline's rows, the same as --out's" cmp -s m2/timeline.csv into/timeline.csv
check "merge --into: the folder's own events kept, the shards' added" \
	bash -c "head -1 into/events.jsonl | grep -q placement && (( \$(wc -l <into/events.jsonl) == \$(wc -l <m2/events.jsonl) + 1 ))"
check "merge --into: its run.json kept" jq_true '.scenario == "place"' into/run.json
"$REPORT" merge --into into s2/1 s2/2 >/dev/null 2>err.txt
check_eq "merge --into a folder with a generator's rows: exit status" 2 $?
check "merge --into: says so" grep -q "holds a generator's rows already" err.txt

# refusals: a missing shard, a doubled one, shards of two counts, another schedule
"$REPORT" merge --out r1 s3/1 s3/2 >/dev/null 2>err.txt
check_eq "merge without shard 3 of 3: exit status" 2 $?
check "merge without shard 3 of 3: names it" grep -q "shard 3 of 3 is missing" err.txt
"$REPORT" merge --out r2 s2/1 s2/1 >/dev/null 2>err.txt
check_eq "merge of a shard twice: exit status" 2 $?
check "merge of a shard twice: says so" grep -q "are both shard 1 of 2" err.txt
"$REPORT" merge --out r3 s2/1 s3/2 s3/3 >/dev/null 2>err.txt
check_eq "merge of shards of 2 and of 3: exit status" 2 $?
check "merge of shards of 2 and of 3: not one stream" grep -q "not shards of one stream" err.txt
cp -r s2/2 other
python3 - other/fragment.json <<'PY'
import json, sys
f = json.load(open(sys.argv[1]))
f["stream"]["schedule"] = "baseline:3s@300"
json.dump(f, open(sys.argv[1], "w"))
PY
"$REPORT" merge --out r4 s2/1 other >/dev/null 2>err.txt
check_eq "merge with another schedule: exit status" 2 $?
check "merge with another schedule: names the key" grep -q 'differ in "schedule"' err.txt
cp -r s2/2 late
python3 - late/fragment.json <<'PY'
import json, sys
f = json.load(open(sys.argv[1]))
f["start_realtime"] = "1000.000000000"
json.dump(f, open(sys.argv[1], "w"))
PY
"$REPORT" merge --out r5 s2/1 late >/dev/null 2>err.txt
check_eq "merge of shards started apart: exit status" 2 $?
check "merge of shards started apart: says so" grep -q "shards must start together" err.txt
mkdir -p nofrag bad
cp s2/1/timeline.csv nofrag/
echo '{"format": 1, "shard": "1"}' >bad/fragment.json
"$REPORT" merge --out r6 s2/1 nofrag >/dev/null 2>err.txt
check_eq "merge of a folder without fragment.json: exit status" 2 $?
check "merge of a folder without fragment.json: names it" grep -q "nofrag: not a shard's run folder" err.txt
"$REPORT" merge --out r7 bad s2/2 >/dev/null 2>err.txt
check_eq "merge of a malformed fragment.json: exit status" 2 $?
check "merge of a malformed fragment.json: names it" grep -q "bad/fragment.json: not a fragment.json of format 1" err.txt
"$REPORT" merge --out m2 s2/1 s2/2 >/dev/null 2>err.txt
check_eq "merge into a folder that is not empty: exit status" 2 $?
"$REPORT" m2 >/dev/null 2>err.txt
check_eq "the merged run folder makes a report" 0 $?

# a shard killed mid-run: its fragment stays "running", the merge fails naming it
t0=$(start_time)
"$LG" -d q.txt --schedule 'baseline:4s@200' --timeout-ms 500 --no-progress --shard 1/2 \
	--start-at "$t0" --out k/1 "${TARGETS[@]}" >k1.out 2>k1.err &
p1=$!
"$LG" -d q.txt --schedule 'baseline:4s@200' --timeout-ms 500 --no-progress --shard 2/2 \
	--start-at "$t0" --out k/2 "${TARGETS[@]}" >k2.out 2>k2.err &
p2=$!
sleep "$(python3 -c "print($LEAD + 1.5)")"
kill -KILL $p2
wait $p1
check_eq "shard 1 of a killed pair: exit status" 0 $?
wait $p2 2>/dev/null
"$REPORT" merge --out km k/1 k/2 >/dev/null 2>err.txt
check_eq "merge with a killed shard: exit status" 1 $?
check "merge with a killed shard: names the shard" grep -q "shard 2 of 2 (k/2) did not finish: status running" err.txt
cat err.txt

# usage
"$LG" -d q.txt --schedule "$SCHEDULE" --align --start-at 1 "${TARGETS[@]}" >/dev/null 2>err.txt
check_eq "--align with --start-at: exit status" 2 $?
"$LG" -d q.txt --schedule "$SCHEDULE" --start-at 1000 --no-progress "${TARGETS[@]}" >/dev/null 2>err.txt
check_eq "--start-at in the past: exit status" 1 $?
check "--start-at in the past: says so" grep -q "passed" err.txt

finish
