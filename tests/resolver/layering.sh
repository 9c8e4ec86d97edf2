#!/bin/bash
# tests/resolver/layering.sh - the resolver's layers: iterator.c does no I/O (it neither includes
# upstream.h, server.h nor request.h, nor calls a function they declare), and no file includes
# another that, directly or not, includes it back (X.c and X.h count as one module X). Each check
# is also run on a copy of resolver/ broken on purpose, where it must fail.
set -euo pipefail
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib_layering.sh"

# The functions a header declares: identifiers followed by "(" at the start of a declaration.
declared_functions() {
	grep -hoE '^[a-z][a-z0-9_ *]*[ *]([a-z_][a-z0-9_]*)\(' "$@" | grep -oE '[a-z_][a-z0-9_]*\($' | tr -d '('
}

# iterator_is_pure DIR: no forbidden include, no call of a forbidden header's function.
iterator_is_pure() {
	local dir=$1 calls
	calls=$(declared_functions "$dir/upstream.h" "$dir/server.h" "$dir/request.h" | paste -sd'|')
	! grep -nE -e '^#include "(upstream|server|request)\.h"' -e "\\b($calls)[[:space:]]*\\(" "$dir/iterator.c"
}

src="$ALLOCSPIKE_SOURCE_DIR/resolver"
check "the functions of upstream.h, server.h and request.h are found" \
	test "$(declared_functions "$src/upstream.h" "$src/server.h" "$src/request.h" | wc -l)" -ge 10
check "iterator.c neither includes nor calls the I/O layers" iterator_is_pure "$src"
check "the resolver's modules include each other without a cycle" acyclic "$src"
print_include_edges "$src"

# The same checks on broken copies of resolver/ must fail.
broken=$TEST_TMP/resolver

fresh_copy "$src" "$broken"
sed -i '0,/^#include "cache.h"/s//#include "cache.h"\n#include "request.h"/' "$broken/iterator.c"
check "caught: iterator.c including request.h" fails iterator_is_pure "$broken"

fresh_copy "$src" "$broken"
echo 'size_t layering_probe(struct resolver *r) { return request_inflight (r); }' >>"$broken/iterator.c"
check "caught: iterator.c calling request_inflight" fails iterator_is_pure "$broken"

fresh_copy "$src" "$broken"
echo 'int layering_probe(void) { return upstream_pending(NULL); }' >>"$broken/iterator.c"
check "caught: iterator.c calling upstream_pending" fails iterator_is_pure "$broken"

fresh_copy "$src" "$broken"
sed -i '0,/^#include "cache.h"/s//#include "cache.h"\n#include "request.h"/' "$broken/stats.c"
check "caught: stats.c including request.h (request.c includes stats.h)" fails acyclic "$broken"
finish
