#!/bin/bash
# scripts/test.sh - the one test command: installs packages, builds, and runs every test in the
# release build and in the sanitizer (ASan/UBSan) build, then the fuzz targets, printing how long
# each stage took and a table of all stages at the end. A failed build stops at once; failed tests
# are reported and the later stages still run, so one run shows every failure; the exit status is
# non-zero if anything failed.
# Environment: FUZZ_SECONDS (default 60: the fuzzing time of all targets together, tests/fuzz/README.md),
# ALLOCSPIKE_JOBS (default nproc).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
jobs=${ALLOCSPIKE_JOBS:-$(nproc)}
logs=$(mktemp -d "${TMPDIR:-/tmp}/allocspike-test-logs.XXXXXX")

stage_name= stage_start=0
stage_table=()
failed_stages=()
stage() {
	stage_name=$1 stage_start=$SECONDS
	echo "=== stage: $1 ($(date -u +%H:%M:%S))"
}
stage_done() {
	local took=$((SECONDS - stage_start)) result=passed
	[[ " ${failed_stages[*]} " != *" $stage_name "* ]] || result=FAILED
	echo "=== stage done: $stage_name in $took s ($result)"
	stage_table+=("$(printf '%5d s  %-6s  %s' "$took" "$result" "$stage_name")")
}
# tests_failed : marks the current stage failed (its tests failed; the script goes on).
tests_failed() { failed_stages+=("$stage_name"); }
# On any failure: say which stage failed and after how long.
trap 'rc=$?; ((rc == 0)) || echo "=== FAILED in stage: $stage_name after $((SECONDS - stage_start)) s (logs in $logs)"' EXIT

# build_quiet LOG ARGS... : scripts/build.sh with its output in LOG, shown (the end) only on failure.
build_quiet() {
	local log=$1
	shift
	if ! scripts/build.sh "$@" >"$log" 2>&1; then
		grep -E 'error|Error' "$log" | head -40 || true
		echo "--- last lines of $log:"
		tail -60 "$log"
		return 1
	fi
}

stage install
scripts/install-packages.sh
stage_done

stage "build (release: every variant, static deps per libc)"
ALLOCSPIKE_BUILD_DIR=$root/build build_quiet "$logs/build-release.log"
ls build/bin | grep '^allocspike-resolver-' | sed 's/^/  built /'
stage_done

stage "tests (release build)"
ctest --test-dir build --output-on-failure -j "$jobs" -LE 'fuzz' --timeout 900 || tests_failed
stage_done

stage "build (sanitizers: clang, glibc variant and tools)"
ALLOCSPIKE_BUILD_DIR=$root/build-sanitize build_quiet "$logs/build-sanitize.log" --sanitize
stage_done

stage "tests (sanitizer build, all but identity, timing, scenario, fuzz)"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	ctest --test-dir build-sanitize --output-on-failure -j "$jobs" -LE 'identity|timing|scenario|fuzz' \
	--timeout 900 || tests_failed
stage_done

# The release build's fuzz targets replay their seeds and regression inputs (gcc: no libFuzzer); the
# sanitizer build's (clang) do that, then fuzz, FUZZ_SECONDS shared by all of them.
stage "fuzz (ctest label fuzz: replay in the release build, libFuzzer in the sanitizer build)"
ctest --test-dir build --output-on-failure -j "$jobs" -L fuzz --timeout 300 || tests_failed
FUZZ_SECONDS=${FUZZ_SECONDS:-60} ctest --test-dir build-sanitize --output-on-failure -j "$jobs" -L fuzz \
	--timeout 300 || tests_failed
stage_done

echo "=== stage times"
printf '%s\n' "${stage_table[@]}"
if ((${#failed_stages[@]})); then
	trap - EXIT
	echo "=== tests failed in: ${failed_stages[*]} (total $SECONDS s)"
	exit 1
fi
echo "=== all stages passed in $SECONDS s"
