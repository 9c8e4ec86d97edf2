#!/bin/bash
# tests/daemons/footprint_table.sh - allocspike-report footprint on a made-up run folder
# whose answers are known: bytes per request in flight (rise and drain), peak in flight, traffic
# sums and the size mix of the increase between the idle and the peak polls.
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
TABLE=$ALLOCSPIKE_BIN/allocspike-report
run=$TEST_TMP/run
mkdir -p "$run/sizes"

# One row a second: baseline 0-9 s (live 1,000,000 B, 10 in flight), spike 1 10-19 s (live rising
# to 3,000,000 at 15 s, 1,010 in flight at 16 s: the two maxima apart, as the daemons' lag gives),
# recovery 20-39 s (live 1,200,000, 10 in flight). Each spike second: 100 offered, 80 answered,
# 15 timeouts, 5 SERVFAIL.
{
	echo "t_s,variant,phase,spike,offered,sent,answered,timeouts,noerror,nxdomain,servfail,live_bytes,inflight"
	for ((t = 1; t <= 40; t++)); do
		if ((t <= 10)); then
			echo "$t,row,baseline,0,10,10,10,0,10,0,0,1000000,10"
		elif ((t <= 20)); then
			live=2000000 inf=500
			((t == 15)) && live=3000000
			((t == 16)) && inf=1010
			echo "$t,row,spike,1,100,100,80,15,75,0,5,$live,$inf"
		else
			echo "$t,row,recovery,1,10,10,10,0,10,0,0,1200000,10"
		fi
		echo "$t,_loadgen,,,,,,,,,,,"
	done
} >"$run/timeline.csv"

# Polls on the wall clock (origin 1000): idle at 8 s (the quietest outside the spikes, from the
# baseline on), the peak at 15 s. The increase is 1,000,000 B in the 128 B class, 3,000,000 in the
# 4 KiB class and 4,000,000 above 4 KiB: 12.5 / 37.5 / 50 %. Twelve recovery polls at 24-35 s lie
# on live = 1,000,100 + 2,500 x inflight with fresh inflight figures; the others, off the line, have
# stale ones (left out): the fit gives 2,500 B per request from 12 polls.
classes() { # LE128 LE4096 LE16384 : a size_classes object with these live bytes in those classes
	python3 -c 'import json,sys
le=[16<<i for i in range(23)]+[None]
b=[0]*24; b[3],b[8],b[10]=map(int,sys.argv[1:4])
print(json.dumps({"le":le,"live_blocks":[0]*24,"live_bytes":b,"allocs":[0]*24}))' "$@"
}
idle=$(classes 500000 500000 0) peak=$(classes 1500000 3500000 4000000) calm=$(classes 500000 500100 0)
echo 1000 >"$run/sizes/origin_unix_s"
{
	printf '{"unix_s":1008,"live_bytes":1000000,"inflight":10,"inflight_age_s":2,"size_classes":%s}\n' "$idle"
	printf '{"unix_s":1015,"live_bytes":3000000,"inflight":900,"inflight_age_s":2,"size_classes":%s}\n' "$peak"
	for ((k = 1; k <= 12; k++)); do
		printf '{"unix_s":%d,"live_bytes":%d,"inflight":%d,"inflight_age_s":0.2,"size_classes":%s}\n' \
			$((1023 + k)) $((1000100 + 2500 * k * 7)) $((k * 7)) "$calm"
	done
	printf '{"unix_s":1036,"live_bytes":2900000,"inflight":1,"inflight_age_s":1.5,"size_classes":%s}\n' "$calm"
	printf '{"unix_s":1037,"live_bytes":1000500,"inflight":500,"inflight_age_s":3,"size_classes":%s}\n' "$calm"
} >"$run/sizes/row.jsonl"

check "the table is written" "$TABLE" footprint "$run"
j=$run/footprint.json
check_eq "one spike" 1 "$(jq '.row.spikes | length' "$j")"
check_eq "rise: (3,000,000 - 1,000,000) / (1,010 - 10)" 2000 "$(jq '.row.spikes[0].bytes_per_req_rise' "$j")"
check_eq "drain: (3,000,000 - 1,200,000) / (1,010 - 10)" 1800 "$(jq '.row.spikes[0].bytes_per_req_drain' "$j")"
check_eq "peak in flight" 1010 "$(jq '.row.spikes[0].inflight_peak' "$j")"
check_eq "answered over the spike and its 3 s tail (10 x 80 + 3 x 10)" 830 "$(jq '.row.spikes[0].answered' "$j")"
check_eq "timeouts over the spike" 150 "$(jq '.row.spikes[0].timeouts' "$j")"
check_eq "SERVFAIL over the spike" 50 "$(jq '.row.spikes[0].servfail' "$j")"
check_eq "size mix of the increase" '{"le256":0.125,"le4k":0.375,"gt4k":0.5}' \
	"$(jq -c '.row.spikes[0].size_mix_increase' "$j")"
check_eq "fit: bytes per request" 2500 "$(jq '.row.fit.bytes_per_req' "$j")"
check_eq "fit: polls with a fresh inflight figure" 12 "$(jq '.row.fit.polls' "$j")"
check_eq "size mix at idle" '{"le256":0.5,"le4k":0.5,"gt4k":0}' "$(jq -c '.row.size_mix_idle' "$j")"
check "the markdown row names the row" grep -q "^| row | 2000 (2000-2000, 1) | 1800 (1800-1800) | 2500 (12, 1.0) " "$run/footprint.md"
check "the generator's rows are left out" bash -c "! grep -q _loadgen '$run/footprint.md'"
if "$TABLE" footprint 2>/dev/null; then st=0; else st=$?; fi
check_eq "usage error exits 2" 2 "$st"
mkdir -p "$TEST_TMP/empty"
if "$TABLE" footprint "$TEST_TMP/empty" 2>"$TEST_TMP/err.txt"; then st=0; else st=$?; fi
check_eq "a folder without a timeline exits 2" 2 "$st"
check "and names the file" grep -q 'timeline.csv' "$TEST_TMP/err.txt"
finish
