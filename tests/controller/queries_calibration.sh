#!/bin/bash
# tests/controller/queries_calibration.sh - the served run's query file and calibration decision
# (docs/controller.md, "The query file", "The calibration"). `queries` with a stand-in
# allocspike-querydata: the default file generated from run.json's options (the flat world's mix)
# into the cache under the generator's digest, as a process of the run, its statistics taken and
# queryfile recorded; the cache reused on a second ask; a cache that cannot be made (the run folder
# then); a user's file; a missing or failing generator. `calibration-step` on a run folder whose ramps
# are crafted: the first pass extended, the second decided, run.json's calibration and the events;
# a slowest variant that answered nothing.
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
source "$ALLOCSPIKE_SOURCE_DIR/tests/reports/crafted_timeline.sh"
RUN="$ALLOCSPIKE_BIN/allocspike-run"
cd "$TEST_TMP" || exit 1
export ALLOCSPIKE_STATE_DIR=$TEST_TMP/state

# A stand-in allocspike-querydata: `generate` writes COUNT lines to --out (its words logged), `stats`
# writes a JSON object to --out; named -fail, its generate exits 3.
mkdir -p bin
cat >bin/allocspike-querydata <<'QD'
#!/bin/bash
echo "$*" >>"$0.calls"
cmd=$1
shift
while (($#)); do
	case $1 in --count) count=$2 ;; --out) out=$2 ;; esac
	shift
done
[[ $cmd != generate || $0 != *-fail ]] || exit 3
case $cmd in
generate) for ((i = 0; i < count; i++)); do echo "n$i.example. A"; done >"$out" ;;
stats) echo '{"queries": 5, "types": {"A": 5}}' >"$out" ;;
esac
QD
chmod +x bin/allocspike-querydata
ln -s allocspike-querydata bin/allocspike-querydata-fail
model=$(sha256sum bin/allocspike-querydata | cut -c1-12)

sock=$TEST_TMP/ctl/run.sock
ask() { "$RUN" ask "$sock" "$@"; }
serve_begin "$sock" spike "$TEST_TMP/run"
run=$TEST_TMP/run

# --- queries ---
ask queries 5 "$TEST_TMP/cache" "$TEST_TMP/bin/allocspike-querydata" 2>err.txt
check "before the options are recorded: refused, said" grep -q "error: queries: no options (run.json's parameters.options)" err.txt
options=$("$RUN" options --scenario spike -- --world flat --query-seed 7 | sed -n 's/^json\t//p')
ask runjson-set .parameters "{\"options\": $options}" >/dev/null
ask origin >/dev/null
out=$(ask queries 5 "$TEST_TMP/cache/q" "$TEST_TMP/bin/allocspike-querydata")
file=$TEST_TMP/cache/q/queries-flat20-seed7-5-$model.txt
check_eq "the answer: the cached file's path, named by the generator's digest" "ok $file" "$out"
check_eq "generated with the seed, count and the flat world's mix" \
	"generate --seed 7 --count 5 --world flat --flat-tlds 20 --out $file" "$(head -n 1 bin/allocspike-querydata.calls)"
check_eq "the file" 5 "$(wc -l <"$file")"
check "said on stderr" grep -q "^spike: generating 5 queries (seed 7, the flat world mix) into $file$" controller.err
check "queryfile recorded" jq_true --arg f "$file" \
	'.queryfile == {"path": $f, "generated": {"seed": 7, "count": 5, "mix": "flat"}, "stats": {"queries": 5, "types": {"A": 5}}}' run/run.json
check_eq "_querydata twice a process of the run (generate, stats)" 2 "$(grep -c '^_querydata' run/processes.tsv)"
check "their exits recorded" jq_true -s 'map(select(.variant == "_querydata" and .event == "exited" and .code == 0)) | length == 2' run/events.jsonl
out=$(ask queries 5 "$TEST_TMP/cache/q" "$TEST_TMP/bin/allocspike-querydata")
check_eq "asked again: the same file" "ok $file" "$out"
check_eq "the cache reused: generated once, statistics twice" "generate stats stats" \
	"$(cut -d' ' -f1 bin/allocspike-querydata.calls | paste -sd' ')"
: >afile
out=$(ask queries 5 "$TEST_TMP/afile/cache" "$TEST_TMP/bin/allocspike-querydata")
check_eq "a cache that cannot be made: the run folder" "ok $run/queries-flat20-seed7-5-$model.txt" "$out"
ask runjson-set .parameters.options.world '"internet"' >/dev/null
out=$(ask queries 5 "$TEST_TMP/cache/fail" "$TEST_TMP/bin/allocspike-querydata-fail")
check_eq "a generator that fails: said with its log" "failed allocspike-querydata generate failed (see $run/logs/querydata.log)" "$out"
check "no file under the cache's name" test ! -e "$TEST_TMP/cache/fail/queries-seed7-5-$model.txt"
out=$(ask queries 5 "$TEST_TMP/cache/q" "$TEST_TMP/nobin/allocspike-querydata")
check_eq "no generator and no file of the user's: said" \
	"failed allocspike-querydata is missing from $TEST_TMP/nobin (needed to generate the default query file); build it or pass --queries FILE" "$out"
echo "mine. A" >mine.txt
ask runjson-set .parameters.options.queries '"mine.txt"' >/dev/null
out=$(ask queries 5 "$TEST_TMP/cache/q" "$TEST_TMP/nobin/allocspike-querydata")
check_eq "the user's file, its real path" "ok $TEST_TMP/mine.txt" "$out"
check "recorded: not generated, no statistics without the program" jq_true --arg f "$TEST_TMP/mine.txt" \
	'.queryfile == {"path": $f, "generated": null, "stats": null}' run/run.json
ask queries 5 x 2>err.txt
check "a word missing: the form said" grep -q "queries COUNT CACHE_DIR QUERYDATA is expected" err.txt

# --- calibration-step ---
# ramp DIR TOP NAME=CAPACITY... : the ramp's timeline a variant of that capacity gives (everything
# answered up to it, 8 % of the rate above it).
ramp() {
	local dir=$1 top=$2 i rate off ans name cap
	shift 2
	mkdir -p "$dir"
	crafted_header >"$dir/timeline.csv"
	for ((i = 1; i <= 100; i++)); do
		rate=$((300 + (top - 300) * i / 100))
		off=$((rate / 10))
		for v in "$@"; do
			name=${v%=*} cap=${v#*=}
			ans=$off
			((rate <= cap)) || ans=$((cap * 8 / 100 / 10))
			echo "t_s=$((i / 10)).$((i % 10)) variant=$name phase=calibrate spike=0 offered=$off sent=$off answered=$ans"
		done
	done | crafted_rows >>"$dir/timeline.csv"
}
cal=$TEST_TMP/cal
mkdir -p "$cal"
ask runjson "$cal/run.json" spike >/dev/null
ask events "$cal/events.jsonl" >/dev/null
ramp "$cal/calibration" 6000 slow=9000 quick=40000
out=$(ask calibration-step "$cal" 1.5 3 6000 calibration "calibrate:10s@300..6000")
check_eq "both still answer at the top: ramp again with them" "extend slow quick" "$out"
check "nothing recorded yet" jq_true '.calibration == null' "$cal/run.json"
ramp "$cal/calibration/extend-1" 12000 slow=9000 quick=40000
out=$(ask calibration-step "$cal" 1.5 3 12000 calibration/extend-1 "calibrate:10s@300..12000")
read -r word rate capacity slowest limit <<<"$out"
check_eq "decided: a rate" rate "$word"
check_eq "the slowest" slow "$slowest"
check "its capacity below 9000, above 7000: $capacity" test "$capacity" -gt 7000 -a "$capacity" -le 9000
check_eq "spikes at 1.5 x its capacity" $((capacity * 3 / 2)) "$rate"
check_eq "not at the extension limit" "" "$limit"
check_eq "run.json's calibration keys" \
	'["schedule","window_s","capacity_qps","peak_answered_qps","still_answering_at_top","slowest","capacity_of_slowest_qps","multiple","spike_rate_qps","folder","passes"]' \
	"$(jq -c '.calibration | keys_unsorted' "$cal/run.json")"
check "its values" jq_true --argjson c "$capacity" --argjson r "$rate" '.calibration |
	.schedule == "calibrate:10s@300..6000" and .window_s == 1 and .capacity_qps.slow == $c and
	.still_answering_at_top == {"slow": false, "quick": true} and .slowest == "slow" and
	.capacity_of_slowest_qps == $c and .multiple == 1.5 and .spike_rate_qps == $r and .folder == "calibration" and
	.passes == [{"folder": "calibration", "schedule": "calibrate:10s@300..6000", "top_qps": 6000},
	            {"folder": "calibration/extend-1", "schedule": "calibrate:10s@300..12000", "top_qps": 12000}]' "$cal/run.json"
ask events-close >/dev/null
check "the calibrated event" jq_true -s --argjson c "$capacity" --argjson r "$rate" \
	'map(select(.event == "calibrated")) == [.[] | select(.event == "calibrated")] and
	 (map(select(.event == "calibrated"))[0] | .variant == "_scenario" and .rate_qps == $r and .capacity_qps == $c and .slowest == "slow" and .multiple == 1.5)' "$cal/events.jsonl"
# A slowest variant that answered nothing: its rate 0, nothing recorded (the scenario ends the run).
dead=$TEST_TMP/dead
mkdir -p "$dead"
ask runjson "$dead/run.json" spike >/dev/null
ramp "$dead/calibration" 6000 mute=0 quick=40000
out=$(ask calibration-step "$dead" 1.5 3 6000 calibration "calibrate:10s@300..6000")
check_eq "answered nothing: capacity 0" "rate 0 0 mute" "$out"
check "no calibration recorded" jq_true '.calibration == null' "$dead/run.json"
ask calibration-step "$TEST_TMP/nothing" 1.5 3 6000 calibration x 2>err.txt
check_eq "no pass to read: exit 1" 1 $?
check "said" grep -q "error: calibration-step: calibration: no variant was sampled" err.txt
ask calibration-step "$cal" 1.5 3 6000 2>err.txt
check "a word missing: the form said" grep -q "calibration-step RUN MULTIPLE EXTENSIONS TOP FOLDER SCHEDULE is expected" err.txt
ask shutdown >/dev/null
finish
