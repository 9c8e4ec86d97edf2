#!/bin/bash
# tests/scenarios/cpu.sh - cpu.sh end to end on two built rows, 300 queries each under perf stat and
# callgrind: the rows measured one at a time in each pass (drive's serial), perf's count written
# (the resolver stopped through perf's child), callgrind's profile and listing, cpu.json with every
# query answered, cpu.md's path on stdout, nothing left running. Skipped without perf or valgrind.
set -uo pipefail
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
source "$ALLOCSPIKE_SOURCE_DIR/tests/scenarios/scenario_lib.sh"
scenario_require_programs
command -v valgrind >/dev/null || skip "valgrind is not installed"
command -v perf >/dev/null || skip "perf is not installed"
perf stat -e task-clock -x , -o /dev/null -- true 2>/dev/null || skip "perf stat cannot count task-clock here"

variants=$(scenario_built_variants 2)
IFS=, read -r -a vs <<<"$variants"
((${#vs[@]} == 2)) || skip "two default build rows are not built ($variants)"
out=$TEST_TMP/run
bash "$ALLOCSPIKE_SOURCE_DIR/scenarios/cpu.sh" --no-build --variants "$variants" --count 300 --rate 150 \
	--tools perf,callgrind --hierarchy-block 127.57.224.0/20 --out "$out" >"$TEST_TMP/stdout" 2>"$TEST_TMP/stderr"
st=$?
check_eq "cpu.sh exit status" 0 "$st"
((st == 0)) || tail -n 20 "$TEST_TMP/stderr"
check_eq "run completed" completed "$(jq -r .status "$out/run.json")"
check_eq "stdout: cpu.md's path" "$out/cpu.md" "$(tail -n 1 "$TEST_TMP/stdout")"
check "no process of the run left" test -z "$(scenario_leftovers "$out")"
for tool in perf callgrind; do
	# one at a time: the second row starts after the first has exited
	check "$tool: ${vs[0]} exited before ${vs[1]} started" jq -se --arg a "${vs[0]}" --arg b "${vs[1]}" '
		(map(select(.variant == $a and .event == "exited")) | .[0].unix_s) as $gone
		| (map(select(.variant == $b and .event == "started")) | .[0].unix_s) as $came
		| $gone != null and $came != null and $gone <= $came' "$out/$tool/events.jsonl"
done
for v in "${vs[@]}"; do
	check "$v: perf stat's task-clock written" grep -q 'task-clock' "$out/perf/$v.perf.csv"
	check "$v: callgrind's profile" test -s "$out/callgrind/$v.callgrind.out"
	check "$v: its listing" test -s "$out/callgrind/$v.callgrind.txt"
	check "$v: cpu.json, every query answered under both tools" jq -e --arg v "$v" '
		.variants[] | select(.variant == $v)
		| .callgrind.answered == 300 and .perf.answered == 300
		and .callgrind.instructions_per_answer > 0 and .perf.cpu_us_per_answer > 0
		and .callgrind.allocator_share > 0 and .callgrind.allocator_share < 1' "$out/cpu.json"
done
finish
