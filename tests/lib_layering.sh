# tests/lib_layering.sh - the include graph of a source folder, for the layering tests
# (tests/resolver/layering.sh, tests/reports/layering.sh): X.c and X.h count as one module X.
# Sourced after tests/lib.sh ($TEST_TMP).

# include_edges DIR: "X Y" per module X including Y.h (another module of DIR).
include_edges() {
	local dir=$1
	(cd "$dir" && grep -oE '^#include "[a-z_]+\.h"' ./*.c ./*.h) |
		sed -E 's#^\./([a-z_]+)\.[ch]:\#include "([a-z_]+)\.h"$#\1 \2#' |
		while read -r m d; do
			if [[ -e $dir/$d.h && $d != "$m" ]]; then echo "$m $d"; fi
		done | sort -u
}

# acyclic DIR: tsort finds an order of the modules (else its complaint, naming a cycle, is printed).
acyclic() {
	include_edges "$1" | tsort >/dev/null 2>"$TEST_TMP/tsort.err"
	if [[ -s $TEST_TMP/tsort.err ]]; then
		cat "$TEST_TMP/tsort.err"
		return 1
	fi
}

# print_include_edges DIR: the graph, one "  X -> Y" a line.
print_include_edges() {
	include_edges "$1" | sed 's/ / -> /; s/^/  /'
}

# The checks are also run on copies broken on purpose, where they must fail.
# fails COMMAND...: COMMAND fails (its output dropped).
fails() { ! "$@" >/dev/null 2>&1; }
# fresh_copy SRC DEST: DEST is a fresh copy of the folder SRC.
fresh_copy() { rm -rf "$2" && cp -r "$1" "$2"; }
