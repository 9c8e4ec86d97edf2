#!/bin/bash
# tests/build/install.sh - `cmake --install BUILD --prefix P` puts every program of the build in P/bin
# and the documents in P/share/doc/allocspike, and the installed resolver variants run from there.
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

# the documents: every docs/*.md, the report's figures and the README
for doc in "$ALLOCSPIKE_SOURCE_DIR"/docs/*.md; do
	check "$(basename "$doc") installed" cmp -s "$doc" "$prefix/share/doc/allocspike/docs/$(basename "$doc")"
done
check "the report's figures installed" cmp -s "$ALLOCSPIKE_SOURCE_DIR/reports/README.md" \
	"$prefix/share/doc/allocspike/reports/README.md"
check "the command lines' contract installed" test -s "$prefix/share/doc/allocspike/docs/cli.md"

for exe in "$prefix"/bin/allocspike-resolver-*; do
	[[ -x $exe ]] || continue
	check "installed $(basename "$exe") runs" bash -c '"$1" --version >/dev/null' _ "$exe"
done
finish
