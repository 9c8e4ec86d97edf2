#!/bin/bash
# scripts/test.sh - the one test command: installs packages, builds, and runs every test in the
# release build and in the sanitizer (ASan/UBSan) build, printing how long each stage took.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
jobs=$(nproc)

stage_start=0
stage() { stage_start=$SECONDS; echo "=== stage: $1 ($(date -u +%H:%M:%S))"; }
stage_done() { echo "=== stage done: $1 in $((SECONDS - stage_start)) s"; }

stage install; scripts/install-packages.sh; stage_done install

stage build
ALLOCSPIKE_BUILD_DIR=$root/build scripts/build.sh >/dev/null
stage_done build

stage "tests (release build)"
ctest --test-dir build --output-on-failure -j "$jobs" --timeout 900
stage_done "tests (release build)"

stage "build (sanitizers)"
ALLOCSPIKE_BUILD_DIR=$root/build-sanitize scripts/build.sh --sanitize >/dev/null
stage_done "build (sanitizers)"

stage "tests (sanitizer build, all but identity and timing)"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	ctest --test-dir build-sanitize --output-on-failure -j "$jobs" -LE 'identity|timing|scenario' --timeout 900
stage_done "tests (sanitizer build, all but identity and timing)"
echo "=== all stages passed in $SECONDS s"
