#!/bin/bash
# tests/loadgen/startup_cpu.sh - the generator's harness_saturated event measures the traffic, not
# its start-up: a query file of three million lines costs it more than half a core-second to read
# before the schedule begins, and a slow schedule after that is no saturation.
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
command -v jq >/dev/null || skip "jq not installed"
LG="$ALLOCSPIKE_BIN/allocspike-loadgen"
RESP="$ALLOCSPIKE_BIN/allocspike-test-responder"
cd "$TEST_TMP"

printf 'query * *\nanswer x. 60 IN A 192.0.2.1\n' >answers.txt
awk 'BEGIN { for (i = 0; i < 3000000; i++) printf "www%d.d%d.example.com. A\n", i, i % 997 }' >q.txt
start_server resp resp.ready "$RESP" --listen 127.56.16.1:0 --fixture answers.txt \
	--ready-file resp.ready >resp.addr || exit 1

"$LG" -d q.txt --schedule 'baseline:3s@50' --out run --no-progress \
	--target "name=a,addr=$(cat resp.addr)" >out.txt 2>err.txt
check_eq "loadgen exit status" 0 $?
# the generator's first row: the CPU it had used by then, nearly all of it reading the file
startup=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$2 == "_loadgen" { print $c["cpu_user_s"] + $c["cpu_sys_s"]; exit }' run/timeline.csv)
echo "CPU seconds at the first row: $startup"
# the start-up alone must have been enough to read as saturation, or this shows nothing
awk -v s="$startup" 'BEGIN { exit !(s > 0.5) }' ||
	skip "the file was read in $startup CPU seconds, under the saturation rule's half a core"
check_eq "no harness_saturated event at 50 qps" 0 \
	"$(grep -c '"harness_saturated"' run/events.jsonl)"
finish
