#!/bin/bash
# tests/loadgen/fixture_check.sh - the run-folder check accepts tests/fixtures/run-minimal and
# rejects copies broken in each way the contract forbids.
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
command -v jq >/dev/null || skip "jq not installed"
CHECK="$ALLOCSPIKE_SOURCE_DIR/tests/loadgen/check_runfolder.sh"
FIXTURE="$ALLOCSPIKE_SOURCE_DIR/tests/fixtures/run-minimal"

check "the fixture passes" bash "$CHECK" "$FIXTURE"

# broken COPY_NAME SED_ON_TIMELINE SED_ON_EVENTS : a copy of the fixture with one edit must fail
broken() {
	local name=$1 tl_edit=$2 ev_edit=$3 d="$TEST_TMP/$1"
	mkdir -p "$d"
	sed -e "$tl_edit" "$FIXTURE/timeline.csv" >"$d/timeline.csv"
	sed -e "$ev_edit" "$FIXTURE/events.jsonl" >"$d/events.jsonl"
	check "rejects $name" bash -c "! bash '$CHECK' '$d' 2>'$d/why'"
}
broken "a column renamed" '1s/rss_kb/rss/' ''
broken "columns swapped" '1s/noerror,nxdomain/nxdomain,noerror/' ''
broken "a missing cell" '2s/,[^,]*$//' ''
broken "text in a count" '3s/,50,50,50,/,50,fifty,50,/' ''
broken "a fractional count" '3s/,50,50,50,/,50,50.5,50,/' ''
broken "an unknown phase" '2s/baseline/base/' ''
broken "t_s going back" '8s/^1.5,/0.7,/' ''
broken "t_s standing still" '8s/^1.5,/1.0,/' ''
broken "a bad event line" '' '3s/.*/{"t_s": "x", "variant": "glibc", "event": "ready"}/'
broken "a phase event without spike" '' '5s/, "spike": 0//'
broken "not JSON" '' '2s/}$//'
# attribution cells (the fixture leaves them empty): filled consistently they pass, a free kind
# larger than the allocator's heap does not
attributed() {
	local d="$TEST_TMP/$1"
	mkdir -p "$d"
	# the five attribution cells, then late_or_foreign, the request list's three and the
	# high-water marks' two
	sed -e "2s/,,,,,,,,,,,\$/,$2,,,,,,/" "$FIXTURE/timeline.csv" >"$d/timeline.csv"
	cp "$FIXTURE/events.jsonl" "$d/events.jsonl"
	echo "$d"
}
check "attribution cells filled consistently pass" bash "$CHECK" "$(attributed attributed-ok 900000,1500000,200000,300000,0)"
check "rejects trimmable + fragmented above the heap" bash -c "! bash '$CHECK' '$(attributed attributed-bad 900000,1500000,1000000,600000,0)' 2>/dev/null"
# phases.csv and latency_hist.csv: a copy with one edit to either must fail
broken_phases() {
	local name=$1 ph_edit=$2 lh_edit=$3 d="$TEST_TMP/phases-${1//[^a-z]/_}"
	mkdir -p "$d"
	cp "$FIXTURE/timeline.csv" "$FIXTURE/events.jsonl" "$d/"
	sed -e "$ph_edit" "$FIXTURE/phases.csv" >"$d/phases.csv"
	sed -e "$lh_edit" "$FIXTURE/latency_hist.csv" >"$d/latency_hist.csv"
	check "rejects phases: $name" bash -c "! bash '$CHECK' '$d' 2>'$d/why'"
}
broken_phases "a column missing" '1s/pending,//' ''
broken_phases "sent not answered + timeouts + pending" '3s/,1000,980,20,0,/,1000,980,10,0,/' ''
broken_phases "rcodes not adding up" '2s/,80,20,0,0,/,80,10,0,0,/' ''
broken_phases "a quantile outside its bucket" '2s/,10.093,/,12.000,/' ''
broken_phases "buckets not adding up to answered" '' '2s/,50$/,49/'
# consistent in itself, but one query more than the timeline sent
broken_phases "totals other than the timeline totals" '2s/,100,100,0,0,0,80,/,101,101,0,0,0,81,/' '2s/,50$/,51/'
check "the fixture's phases pass with the timeline" bash -c "cp -r '$FIXTURE' '$TEST_TMP/phases-ok' && bash '$CHECK' '$TEST_TMP/phases-ok'"
check "columns may be appended" bash -c "
	d='$TEST_TMP/appended'; mkdir -p \$d
	sed -e '1s/\$/,extra/' -e '2,\$s/\$/,1/' '$FIXTURE/timeline.csv' >\$d/timeline.csv
	cp '$FIXTURE/events.jsonl' \$d/ && bash '$CHECK' \$d"
finish
