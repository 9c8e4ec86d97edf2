#!/bin/bash
# tests/build/same_flags.sh - every resolver variant, glibc ones and the musl sub-build's alike, is
# compiled with the same flags and defines (apart from its own name): only libc and allocator differ.
# The variants share allocspike_resolver_core, built once per libc world: the musl sub-builds compile
# it with the flags of the main build's.
set -euo pipefail
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"

build=$ALLOCSPIKE_BUILD_DIR
# flags.make of variant NAME in the main build or in its musl sub-build (Makefile generators only).
flags_file() {
	local f
	for f in "$build/resolver/CMakeFiles/allocspike-resolver-$1.dir/flags.make" \
		"$build/musl-world-$1/resolver/CMakeFiles/allocspike-resolver-$1.dir/flags.make"; do
		[[ -r $f ]] && { echo "$f"; return 0; }
	done
	return 1
}

reference= reference_name=
compared=0
while IFS=$'\t' read -r name kind _; do
	[[ $kind == build && -x $ALLOCSPIKE_BIN/allocspike-resolver-$name ]] || continue
	f=$(flags_file "$name") || skip "no flags.make for $name (not a Makefile generator build)"
	flags=$(grep -E '^C_(FLAGS|DEFINES) = ' "$f" | sed "s/ALLOCSPIKE_VARIANT_NAME=[^ ]*/ALLOCSPIKE_VARIANT_NAME=(name)/")
	check "$name has compile flags" test -n "$flags"
	if [[ -z $reference ]]; then
		reference=$flags reference_name=$name
		printf '%s\n' "$flags" | sed 's/^/  /'
	else
		check_eq "$name compiled like $reference_name" "$reference" "$flags"
		compared=$((compared + 1))
	fi
done < <(variants_rows)

# The resolver library of every musl sub-build against the main build's.
core_flags() { grep -E '^C_(FLAGS|DEFINES) = ' "$1/resolver/CMakeFiles/allocspike_resolver_core.dir/flags.make"; }
for world in "$build"/musl-world-*/; do
	[[ -r $world/resolver/CMakeFiles/allocspike_resolver_core.dir/flags.make ]] || continue
	check_eq "$(basename "$world") builds the resolver library like the main build" \
		"$(core_flags "$build")" "$(core_flags "$world")"
	compared=$((compared + 1))
done
((compared > 0)) || skip "fewer than two variants built"

# The static dependencies: each package configured the same way for every libc (the configure
# command from its config.log, with the libc's install prefix replaced by a placeholder).
for glibc_log in "$build"/deps/build/*-glibc/config.log; do
	[[ -r $glibc_log ]] || continue
	pkg=$(basename "$(dirname "$glibc_log")" -glibc)
	musl_log="$build/deps/build/$pkg-musl/config.log"
	[[ -r $musl_log ]] || continue
	cmd() { grep -m1 -E '^  \$ .*/configure' "$1" | sed -E 's#--prefix=[^ ]*/deps/(glibc|musl)#--prefix=(libc)#'; }
	check "$pkg configure command recorded" test -n "$(cmd "$glibc_log")"
	check_eq "$pkg configured for musl like for glibc" "$(cmd "$glibc_log")" "$(cmd "$musl_log")"
done
finish
