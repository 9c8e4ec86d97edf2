#!/bin/bash
# scripts/build.sh - configures and builds allocspike into build/ (or $ALLOCSPIKE_BUILD_DIR).
# Usage: scripts/build.sh [--sanitize] [extra cmake -D options...]
# Environment: ALLOCSPIKE_JOBS (default nproc: the parallel compile jobs, as scripts/test.sh takes it).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${ALLOCSPIKE_BUILD_DIR:-$root/build}
args=()
if [[ ${1:-} == --sanitize ]]; then
	shift
	build=${ALLOCSPIKE_BUILD_DIR:-$root/build-sanitize}
	# Sanitizers replace malloc, so only the glibc variant, against the system's shared libraries.
	args+=(-DALLOCSPIKE_SANITIZE=ON -DALLOCSPIKE_VARIANTS=glibc -DALLOCSPIKE_STATIC_DEPS=OFF -DCMAKE_C_COMPILER=clang)
fi
cmake -S "$root" -B "$build" "${args[@]}" "$@" >/dev/null
cmake --build "$build" -j "${ALLOCSPIKE_JOBS:-$(nproc)}"
echo "$build"
