#!/bin/bash
# tests/reports/cpu_costs.sh - allocspike-report cpu on a crafted cpu.sh run: instructions and the
# allocator's share from a callgrind_annotate listing (by the registry's objects, files and
# functions, and the malloc API's names), task-clock from perf stat's CSV, answers from each pass's
# timeline, ratios to the first row; a row without files is null, an unreadable run exits 2.
set -uo pipefail
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
source "$ALLOCSPIKE_SOURCE_DIR/tests/reports/crafted_timeline.sh"
R=$ALLOCSPIKE_BIN/allocspike-report
[[ -x $R ]] || skip "allocspike-report is not built yet"
run=$TEST_TMP/run
mkdir -p "$run/callgrind" "$run/perf"
jq '.variants = [{name: "g", allocator: "glibc"}, {name: "j", allocator: "jemalloc"},
	{name: "k", allocator: "glibc"}] | .parameters.schedule = "baseline:5s@200" | .status = "completed"' \
	"$ALLOCSPIKE_SOURCE_DIR/tests/fixtures/run-minimal/run.json" >"$run/run.json"

# listing LINES... : a callgrind_annotate listing with these function lines
listing() {
	printf '%s\n' '--------------------------------------------------------------------------------' \
		'Ir' '--------------------------------------------------------------------------------' \
		'1,000,000 (100.0%)  PROGRAM TOTALS' '' \
		'--------------------------------------------------------------------------------' \
		'Ir                  file:function' \
		'--------------------------------------------------------------------------------' "$@"
}
# glibc: its malloc.c by file (100,000 + 50,000), free by the API's name in our binary (25,000), a
# recursion level stripped (free'2: 5,000); the rest is not the allocator.
listing '100,000 (10.00%)  ./malloc/./malloc/malloc.c:_int_free [/usr/lib/x86_64-linux-gnu/libc.so.6]' \
	'50,000 ( 5.00%)  ./malloc/./malloc/malloc.c:_int_malloc [/usr/lib/x86_64-linux-gnu/libc.so.6]' \
	'25,000 ( 2.50%)  ???:free [/work/bin/allocspike-resolver-g]' \
	"5,000 ( 0.50%)  ???:free'2 [/work/bin/allocspike-resolver-g]" \
	'300,000 (30.00%)  resolver/dname.c:dname_hash [/work/bin/allocspike-resolver-g]' \
	'20,000 ( 2.00%)  ???:freeaddrinfo [/usr/lib/x86_64-linux-gnu/libc.so.6]' >"$run/callgrind/g.callgrind.txt"
# jemalloc: by its shared object (200,000), the rest not.
listing '200,000 (20.00%)  ???:je_arena_dalloc [/usr/lib/x86_64-linux-gnu/libjemalloc.so.2]' \
	'400,000 (40.00%)  resolver/cache.c:cache_find [/work/bin/allocspike-resolver-j]' >"$run/callgrind/j.callgrind.txt"
printf '# started\n\n250.50,msec,task-clock,250500000,100.00,0.036,CPUs utilized\n' >"$run/perf/g.perf.csv"
printf '# started\n\n500.00,msec,task-clock,500000000,100.00,0.036,CPUs utilized\n' >"$run/perf/j.perf.csv"
for pass in callgrind perf; do
	crafted_header >"$run/$pass/timeline.csv"
	{
		echo "t_s=1 variant=g phase=baseline answered=600"
		echo "t_s=2 variant=g phase=baseline answered=400"
		echo "t_s=1 variant=j phase=baseline answered=1000"
		echo "t_s=1 variant=_loadgen phase=baseline answered=99"
	} | crafted_rows >>"$run/$pass/timeline.csv"
done

"$R" cpu "$run"
check_eq "cpu exits 0" 0 $?
j=$run/cpu.json
check_eq "rows in run.json's order" "g j k" "$(jq -r '[.variants[].variant] | join(" ")' "$j")"
check_eq "glibc: allocator instructions (files, API names, recursion levels)" 180000 "$(jq '.variants[0].callgrind.allocator_instructions' "$j")"
check_eq "glibc: share" 0.18 "$(jq '.variants[0].callgrind.allocator_share' "$j")"
check_eq "glibc: answered, the harness row left out" 1000 "$(jq '.variants[0].callgrind.answered' "$j")"
check_eq "glibc: instructions per answer" 1000 "$(jq '.variants[0].callgrind.instructions_per_answer' "$j")"
check_eq "glibc: task-clock per answer (us)" 250.5 "$(jq '.variants[0].perf.cpu_us_per_answer' "$j")"
check_eq "jemalloc: by its object" 200000 "$(jq '.variants[1].callgrind.allocator_instructions' "$j")"
check_eq "a row without files: null" "null null" "$(jq -r '.variants[2] | "\(.callgrind) \(.perf)"' "$j")"
check "cpu.md: the first row" grep -qF '| g | 1000 | 18 % | 1 | 250.5 | 1 | 1000 / 1000 |' "$run/cpu.md"
check "cpu.md: ratios to the first" grep -qF '| j | 1000 | 20 % | 1 | 500 | 1.996 | 1000 / 1000 |' "$run/cpu.md"
check "cpu.md: a row without figures" grep -qF '| k | - | - | - | - | - | - / - |' "$run/cpu.md"
"$R" cpu "$TEST_TMP/none" 2>"$TEST_TMP/err"
check_eq "a folder without run.json: unreadable input" 2 $?
check "names the file" grep -q "run.json" "$TEST_TMP/err"
"$R" cpu >/dev/null 2>&1
check_eq "no folder: usage" 2 $?
finish
