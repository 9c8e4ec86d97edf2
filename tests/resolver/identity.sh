#!/bin/bash
# tests/resolver/identity.sh - each built variant reports, at run time, the allocator its row names;
# LD_PRELOAD of jemalloc into the glibc variant changes the report (so it is not a compile-time macro).
set -euo pipefail
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"

checked=0
while IFS=$'\t' read -r name kind allocator libc library base env default note; do
	[[ "$kind" == build ]] || continue
	exe="$ALLOCSPIKE_BIN/allocspike-resolver-$name"
	[[ -x "$exe" ]] || { echo "note: $name not built here, not checked"; continue; }
	json=$("$exe" --version --json)
	got=$(jq -r .allocator <<<"$json")
	got_libc=$(jq -r .libc <<<"$json")
	check_eq "$name allocator" "$allocator" "$got"
	check_eq "$name libc" "$libc" "$got_libc"
	checked=$((checked + 1))
done < <(variants_rows)
check "at least one variant checked" test "$checked" -gt 0

glibc_exe="$ALLOCSPIKE_BIN/allocspike-resolver-glibc"
jemalloc_so=$(ls /usr/lib/*/libjemalloc.so.2 2>/dev/null | head -1 || true)
if [[ -x "$glibc_exe" && -n "$jemalloc_so" ]]; then
	got=$(LD_PRELOAD="$jemalloc_so" "$glibc_exe" --version --json | jq -r .allocator)
	check_eq "glibc variant with jemalloc preloaded" jemalloc "$got"
fi
finish
