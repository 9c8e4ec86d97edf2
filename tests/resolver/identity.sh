#!/bin/bash
# tests/resolver/identity.sh - each built variant really is what its variants.tsv row says: it reports
# its allocator and libc at run time, links (only) its allocator, the musl one is fully static with no
# glibc in it, and every variant carries the same ldns/libevent; LD_PRELOAD of jemalloc into the glibc
# variant changes the report (so it is not a compile-time macro).
set -euo pipefail
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"

# Were the static per-libc dependency builds used (the default)? Then no variant loads them shared.
static_deps=0
if grep -q '^ALLOCSPIKE_STATIC_DEPS:BOOL=ON' "$ALLOCSPIKE_BUILD_DIR/CMakeCache.txt" 2>/dev/null; then
	static_deps=1
fi
allocators_re='libjemalloc|libtcmalloc|libmimalloc'

checked=0
lib_versions=()
while IFS=$'\t' read -r name kind allocator libc library base env default note; do
	[[ "$kind" == build ]] || continue
	exe="$ALLOCSPIKE_BIN/allocspike-resolver-$name"
	[[ -x "$exe" ]] || { echo "note: $name not built here, not checked"; continue; }
	json=$("$exe" --version --json)
	check_eq "$name allocator" "$allocator" "$(jq -r .allocator <<<"$json")"
	check_eq "$name libc" "$libc" "$(jq -r .libc <<<"$json")"
	ldns=$(jq -r '.ldns // empty' <<<"$json")
	libevent=$(jq -r '.libevent // empty' <<<"$json")
	check "$name reports its ldns and libevent versions" test -n "$ldns" -a -n "$libevent"
	lib_versions+=("$name ldns=$ldns libevent=$libevent")
	if [[ $allocator == glibc ]]; then
		# a tunable nobody set is left out (the loader lists it as 0: "trim_threshold=0" read as
		# disabled); one GLIBC_TUNABLES names is listed, whatever its value
		check_eq "$name: no tunable set, none listed" 0 \
			"$(env -u GLIBC_TUNABLES "$exe" --version --json | jq '.allocator_settings | length')"
		check_eq "$name: the tunables GLIBC_TUNABLES names, and only those" \
			'{"glibc.malloc.trim_threshold":131072}' \
			"$(GLIBC_TUNABLES=glibc.malloc.trim_threshold=131072 "$exe" --version --json | jq -c .allocator_settings)"
	fi

	if [[ $libc == musl ]]; then
		# Fully static: no program interpreter, no dynamic section, and no glibc symbol versions.
		headers=$(readelf -lW "$exe")
		check "$name has no INTERP segment" bash -c '! grep -q INTERP <<<"$1"' _ "$headers"
		check "$name has no DYNAMIC segment" bash -c '! grep -q DYNAMIC <<<"$1"' _ "$headers"
		check "$name: file says statically linked" bash -c 'file -b "$1" | grep -q "statically linked"' _ "$exe"
		check "$name has no GLIBC_ symbol versions" bash -c '! grep -Eq "GLIBC_[0-9]" <(readelf -VW "$1"; strings -a "$1")' _ "$exe"
	else
		deps=$(ldd "$exe")
		if [[ $library == - ]]; then
			check "$name links no other allocator" bash -c "! grep -Eq '$allocators_re' <<<\"\$1\"" _ "$deps"
		else
			check "$name links lib$library" bash -c 'grep -q "lib$2\.so" <<<"$1"' _ "$deps" "$library"
			others=$(grep -Eo "$allocators_re" <<<"$deps" | grep -v "lib${library%%_*}" || true)
			check_eq "$name links no other allocator" "" "$others"
		fi
		if ((static_deps)); then
			check "$name has ldns, libevent, jansson linked in statically" \
				bash -c '! grep -Eq "libldns|libevent|libjansson" <<<"$1"' _ "$deps"
		fi
	fi
	checked=$((checked + 1))
done < <(variants_rows)
check "at least one variant checked" test "$checked" -gt 0

# Only libc and allocator may differ: the same ldns and libevent everywhere.
if ((${#lib_versions[@]} > 1)); then
	distinct=$(printf '%s\n' "${lib_versions[@]}" | cut -d' ' -f2- | sort -u | wc -l)
	printf '  %s\n' "${lib_versions[@]}"
	check_eq "variants with distinct ldns/libevent versions" 1 "$distinct"
fi

glibc_exe="$ALLOCSPIKE_BIN/allocspike-resolver-glibc"
jemalloc_so=$(ls /usr/lib/*/libjemalloc.so.2 2>/dev/null | head -1 || true)
if [[ -x "$glibc_exe" && -n "$jemalloc_so" ]]; then
	got=$(LD_PRELOAD="$jemalloc_so" "$glibc_exe" --version --json | jq -r .allocator)
	check_eq "glibc variant with jemalloc preloaded" jemalloc "$got"
fi
finish
