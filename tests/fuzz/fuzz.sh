#!/bin/bash
# tests/fuzz/fuzz.sh MODE EXE CORPUS REGRESSIONS - runs one fuzz target that CMake built
# (cmake/AllocspikeFuzz.cmake; ctest fuzz_<name>, label fuzz): every regression input and every seed
# once, then, in libfuzzer mode, fuzzing for this target's share of the time budget. A crash input is
# left in $TEST_TMP (kept); once the bug is fixed it goes into REGRESSIONS (tests/fuzz/README.md).
# Environment: FUZZ_SECONDS, the budget for all targets together (default 60; each target gets an
# equal share, at most 30 s); FUZZ_TARGETS, how many targets share it (set by CMake).
set -uo pipefail
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
mode=$1 exe=$2 corpus=$3 regressions=$4
check "$(basename "$exe") is built" test -x "$exe"
inputs=()
for dir in "$regressions" "$corpus"; do
	[[ -d $dir ]] || continue
	while IFS= read -r -d '' f; do inputs+=("$f"); done < <(find "$dir" -type f ! -name '*.md' -print0 | sort -z)
done
check "there are seed inputs" test "${#inputs[@]}" -gt 0
# Both kinds of binary run input files given by name once each and exit.
if "$exe" "${inputs[@]}" >"$TEST_TMP/replay.log" 2>&1; then
	check "${#inputs[@]} regression and seed inputs run without a crash" true
else
	tail -40 "$TEST_TMP/replay.log"
	check "${#inputs[@]} regression and seed inputs run without a crash" false
fi
[[ $mode == libfuzzer ]] || finish

budget=${FUZZ_SECONDS:-60}
share=$((budget / ${FUZZ_TARGETS:-1}))
((share <= 30)) || share=30
((share >= 2)) || share=2
mkdir -p "$TEST_TMP/corpus"
"$exe" -max_total_time="$share" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
	-artifact_prefix="$TEST_TMP/" "$TEST_TMP/corpus" "$corpus" >"$TEST_TMP/fuzz.log" 2>&1
rc=$?
grep -E '^stat::number_of_executed_units|^#[0-9]+.*DONE' "$TEST_TMP/fuzz.log" | head -2
if ((rc != 0)); then
	grep -A40 -E "ERROR|==[0-9]+==" "$TEST_TMP/fuzz.log" | head -60
	ls "$TEST_TMP"/crash-* "$TEST_TMP"/leak-* "$TEST_TMP"/timeout-* "$TEST_TMP"/oom-* 2>/dev/null
	echo "keep the input above under $regressions once fixed"
	KEEP_TEST_TMP=1
fi
check_eq "fuzzing for ${share}s found nothing" 0 "$rc"
finish
