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
	sed -e "2s/,,,,,,\$/,$2,/" "$FIXTURE/timeline.csv" >"$d/timeline.csv"
	cp "$FIXTURE/events.jsonl" "$d/events.jsonl"
	echo "$d"
}
check "attribution cells filled consistently pass" bash "$CHECK" "$(attributed attributed-ok 900000,1500000,200000,300000,0)"
check "rejects trimmable + fragmented above the heap" bash -c "! bash '$CHECK' '$(attributed attributed-bad 900000,1500000,1000000,600000,0)' 2>/dev/null"
check "columns may be appended" bash -c "
	d='$TEST_TMP/appended'; mkdir -p \$d
	sed -e '1s/\$/,extra/' -e '2,\$s/\$/,1/' '$FIXTURE/timeline.csv' >\$d/timeline.csv
	cp '$FIXTURE/events.jsonl' \$d/ && bash '$CHECK' \$d"
finish
