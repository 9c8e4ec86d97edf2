#!/bin/bash
# tests/reports/limits.sh - a run folder is untrusted input (docs/run-folder.md, "Limits"): a huge
# spike number, a spike of 1e300 in phases.csv, a variant name that is not UTF-8 and 20,000
# variants are refused with the file, line and column; a variant with rows but no figure is a
# validity reason; 40,000 spikes are summed up in time linear in the rows. Each report is bounded
# by `timeout 60`, so a hang fails instead of stalling the suite.
set -uo pipefail
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
source "$ALLOCSPIKE_SOURCE_DIR/tests/reports/crafted_timeline.sh"
R=$ALLOCSPIKE_BIN/allocspike-report
[[ -x $R ]] || skip "allocspike-report is not built yet"

# base DIR : a valid run of two variants over three spikes (two rows a phase).
base() {
	mkdir -p "$1"
	echo '{"status": "completed", "parameters": {"interval_ms": 100}}' >"$1/run.json"
	: >"$1/events.jsonl"
	crafted_header >"$1/timeline.csv"
	local i t k ph
	for ((i = 1; i <= 12; i++)); do
		k=$(((i - 1) / 4 + 1))
		ph=spike
		(((i - 1) % 4 < 2)) || ph=recovery
		t=$((i / 10)).$((i % 10))
		echo "t_s=$t variant=glibc phase=$ph spike=$k offered=100 answered=100 anon_kb=$((1000 + i))"
		echo "t_s=$t variant=jemalloc phase=$ph spike=$k offered=100 answered=100 anon_kb=900"
	done | crafted_rows >>"$1/timeline.csv"
}

# fresh NAME : d is a new base run $TEST_TMP/NAME, to be spoiled.
fresh() {
	d=$TEST_TMP/$1
	base "$d"
}

# refused DESCRIPTION DIR NEEDLE... : the report exits 2 (bad input) within 60 s, and its message
# holds every NEEDLE (fixed strings).
refused() {
	local what=$1 dir=$2 rc needle
	shift 2
	timeout 60 "$R" "$dir" >/dev/null 2>"$dir.err"
	rc=$?
	check_eq "$what: exit status" 2 "$rc"
	for needle in "$@"; do
		check "$what: message holds '$needle'" grep -qF -- "$needle" "$dir.err"
	done
}

ok=$TEST_TMP/ok
base "$ok"
timeout 60 "$R" "$ok" >/dev/null
check_eq "the base run reads" 0 $?
check "the base run is valid" jq_true '.validity.valid' "$ok/summary.json"

# --- item: numbers size allocations and loops ---
fresh huge-spike
echo "t_s=9.9 variant=glibc phase=spike spike=2147483647 anon_kb=1" | crafted_rows >>"$d/timeline.csv"
refused "spike 2147483647 in timeline.csv" "$d" 'timeline.csv:26: column "spike"' '"2147483647" is out of range'

fresh phases-spike
printf '%s\n' 'variant,phase,spike,sent,answered' 'glibc,spike,1,100,100' 'glibc,spike,1e300,100,100' >"$d/phases.csv"
refused "spike 1e300 in phases.csv" "$d" 'phases.csv:3: column "spike"' 'out of range'

fresh interval
echo '{"status": "completed", "parameters": {"interval_ms": 1e-300}}' >"$d/run.json"
refused "interval_ms 1e-300 in run.json" "$d" 'run.json' 'parameters.interval_ms'

# --- item: names are identifiers; rows never vanish ---
fresh not-utf8
printf 't_s=1.3 variant=gl\xe9bc phase=spike spike=3 anon_kb=5000\n' | crafted_rows >>"$d/timeline.csv"
refused "a variant name that is not UTF-8" "$d" 'timeline.csv:26: column "variant"' 'byte 0xe9'

fresh path-name
echo '{"t_s": 0, "variant": "../glibc", "event": "started"}' >"$d/events.jsonl"
refused "a path as a variant of events.jsonl" "$d" 'events.jsonl:1' '"variant"'

# A variant that recorded rows but never a memory sample: no figure stands for it, so a gate over
# the figures would pass on nothing; the run is not valid.
fresh no-figures
for ((i = 1; i <= 12; i++)); do
	echo "t_s=$((i / 10)).$((i % 10)) variant=ghost phase=spike spike=1"
done | crafted_rows >>"$d/timeline.csv"
timeout 60 "$R" "$d" >/dev/null
check_eq "a variant without figures: the report is made" 0 $?
check "it is a validity reason naming the variant" \
	jq_true '[.validity.reasons[] | select(.code == "variant_without_figures") | .variants] == [["ghost"]]' \
	"$d/summary.json"
timeout 60 "$R" check "$d" --fail-if 'not validity.valid' >/dev/null
check_eq "check --fail-if 'not validity.valid' holds" 1 $?

# --- item: many variants, many spikes ---
fresh variants
awk 'BEGIN { for (i = 0; i < 20000; i++) printf "t_s=1.3 variant=v%05d phase=spike spike=3 anon_kb=5000\n", i }' |
	crafted_rows >>"$d/timeline.csv"
refused "20,000 variants" "$d" 'timeline.csv:280: column "variant"' 'at most 256'

# 40,000 spikes of two rows a phase for two variants: the summary used to scan the run for each
# spike (minutes); `check` builds the whole summary.
d=$TEST_TMP/spikes
mkdir -p "$d"
echo '{"status": "completed", "parameters": {"interval_ms": 100}}' >"$d/run.json"
awk -v ev="$d/events.jsonl" 'BEGIN {
	print "t_s,variant,phase,spike,offered,answered,anon_kb"
	t = 0
	for (k = 1; k <= 40000; k++)
		for (p = 0; p < 2; p++) {
			ph = p ? "recovery" : "spike"
			printf "{\"t_s\": %.1f, \"variant\": \"_loadgen\", \"event\": \"phase\", \"phase\": \"%s\", \"spike\": %d}\n", t / 10, ph, k > ev
			for (r = 0; r < 2; r++) {
				t++
				printf "%.1f,a,%s,%d,100,100,%d\n", t / 10, ph, k, 1000 + k % 7
				printf "%.1f,b,%s,%d,100,100,%d\n", t / 10, ph, k, 2000 + k % 5
			}
		}
}' >"$d/timeline.csv"
timeout 60 "$R" check "$d" --fail-if 'spike_count != 40000' >/dev/null 2>"$d.err"
check_eq "40,000 spikes are summed up" 0 $?

finish
