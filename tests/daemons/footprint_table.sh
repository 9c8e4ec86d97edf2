#!/bin/bash
# tests/daemons/footprint_table.sh - scenarios/daemons/lib/footprint_table.py on a made-up run folder
# whose answers are known: bytes per request in flight (rise and drain), peak in flight, traffic
# sums and the size mix of the increase between the idle and the peak polls.
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
TABLE=$ALLOCSPIKE_SOURCE_DIR/scenarios/daemons/lib/footprint_table.py
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

# Polls on the wall clock (origin 1000): idle at 5 s, the peak at 15 s. The increase is 1,000,000 B
# in the 128 B class, 3,000,000 in the 4 KiB class and 4,000,000 above 4 KiB: 12.5 / 37.5 / 50 %.
classes() { # LE128 LE4096 LE16384 : live_bytes per class
	python3 -c 'import json,sys
le=[16<<i for i in range(23)]+[None]
b=[0]*24; b[3],b[8],b[10]=map(int,sys.argv[1:4])
print(json.dumps({"le":le,"live_blocks":[0]*24,"live_bytes":b,"allocs":[0]*24}))' "$@"
}
echo 1000 >"$run/sizes/origin_unix_s"
{
	printf '{"unix_s":1005,"live_bytes":1000000,"inflight":10,"size_classes":%s}\n' "$(classes 500000 500000 0)"
	printf '{"unix_s":1015,"live_bytes":3000000,"inflight":900,"size_classes":%s}\n' "$(classes 1500000 3500000 4000000)"
	printf '{"unix_s":1030,"live_bytes":1200000,"inflight":10,"size_classes":%s}\n' "$(classes 600000 600000 0)"
} >"$run/sizes/row.jsonl"

check "the table is written" python3 "$TABLE" "$run"
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
check_eq "size mix at idle" '{"le256":0.5,"le4k":0.5,"gt4k":0}' "$(jq -c '.row.size_mix_idle' "$j")"
check "the markdown row names the row" grep -q '^| row | 2000 (2000-2000, 1) | 1800 ' "$run/footprint.md"
check "the generator's rows are left out" bash -c "! grep -q _loadgen '$run/footprint.md'"
if python3 "$TABLE" 2>/dev/null; then st=0; else st=$?; fi
check_eq "usage error exits 2" 2 "$st"
finish
