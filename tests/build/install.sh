#!/bin/bash
# tests/build/install.sh - `cmake --install BUILD --prefix P` puts every program of the build in P/bin,
# and the installed resolver variants run from there.
set -euo pipefail
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"

prefix="$TEST_TMP/prefix"
check "cmake --install succeeds" bash -c 'cmake --install "$1" --prefix "$2" >"$3" 2>&1' _ \
	"$ALLOCSPIKE_BUILD_DIR" "$prefix" "$TEST_TMP/install.log"

# Programs are the allocspike-* executables of bin/; the test-only tools (allocspike-test-*,
# allocspike-bench-*) and unit-test drivers are not installed.
programs=0
for exe in "$ALLOCSPIKE_BIN"/allocspike-*; do
	[[ -f $exe && -x $exe ]] || continue
	name=$(basename "$exe")
	case $name in allocspike-test-* | allocspike-bench-*) continue ;; esac
	programs=$((programs + 1))
	check "$name installed in P/bin" test -x "$prefix/bin/$name"
done
check "the build has programs to install" test "$programs" -gt 0

for exe in "$prefix"/bin/allocspike-resolver-*; do
	[[ -x $exe ]] || continue
	check "installed $(basename "$exe") runs" bash -c '"$1" --version >/dev/null' _ "$exe"
done
finish
