#!/bin/bash
# scenarios/daemons/lib/preload.sh - turns a preload row's `library` cell into LD_PRELOAD, and refuses
# a daemon whose preload did not take (from the allocator probe's JSON); see docs/daemons.md.
#
#   preload.sh ld-preload --build DIR [--sampler] LIBRARY
#                                               prints the LD_PRELOAD value: the live sampler (with
#                                               --sampler), LIBRARY (one object, or several joined
#                                               by ':'), then the probe
#   preload.sh check --probe FILE --allocator NAME
#                                               exit 0 when FILE says NAME serves malloc (and
#                                               jemalloc's mallocx, where present), else 1
set -euo pipefail

preload_die() {
	echo "preload.sh: $*" >&2
	exit 2
}

# preload_resolve BUILD LIBRARY : a cell with a slash is relative to the build folder; a bare file
# name is a system library the dynamic linker finds (as LD_PRELOAD itself treats it).
preload_resolve() {
	local build=$1 lib=$2
	if [[ $lib == */* ]]; then
		[[ -r $build/$lib ]] || preload_die "$build/$lib not found (build the preload targets)"
		# The dynamic linker splits LD_PRELOAD on spaces and colons: no way to quote a path.
		[[ $build/$lib != *[[:space:]:]* ]] ||
			preload_die "$build/$lib: LD_PRELOAD cannot name a path with spaces or colons; build elsewhere"
		echo "$build/$lib"
	else
		# grep reads all of ldconfig's output: with pipefail, an early exit of grep -q made
		# ldconfig die of SIGPIPE and a present library look missing.
		grep -q "^[[:space:]]*$lib " <(/sbin/ldconfig -p) ||
			preload_die "$lib not found by the dynamic linker (scripts/install-packages.sh installs the allocators)"
		echo "$lib"
	fi
}

preload_ld_preload() {
	local build= lib= sampler=
	while (($#)); do
		case $1 in
		--build)
			build=${2:?--build needs a value}
			shift 2
			;;
		--sampler)
			sampler=yes
			shift
			;;
		*)
			[[ -z $lib ]] || preload_die "ld-preload: one LIBRARY only"
			lib=$1
			shift
			;;
		esac
	done
	[[ -n $build && -n $lib ]] || preload_die "usage: preload.sh ld-preload --build DIR [--sampler] LIBRARY"
	local probe value= one resolved
	# The sampler comes first: every allocation passes through it on its way to the allocator.
	if [[ -n $sampler ]]; then
		value=$(preload_resolve "$build" lib/liballocspike-live-sampler.so) || exit 2
		value+=:
	fi
	probe=$(preload_resolve "$build" lib/liballocspike-alloc-probe.so) || exit 2
	if [[ $lib != - ]]; then
		local -a objects
		IFS=: read -ra objects <<<"$lib"
		for one in "${objects[@]}"; do
			resolved=$(preload_resolve "$build" "$one") || exit 2
			value+=$resolved:
		done
	fi
	# The probe comes last: it must see the allocator the row preloads, not shadow it.
	echo "$value$probe"
}

preload_check() {
	local probe= want=
	while (($#)); do
		case $1 in
		--probe) probe=${2:?--probe needs a value} ;;
		--allocator) want=${2:?--allocator needs a value} ;;
		*) preload_die "check: unknown option $1" ;;
		esac
		shift 2
	done
	[[ -n $probe && -n $want ]] || preload_die "usage: preload.sh check --probe FILE --allocator NAME"
	if [[ ! -s $probe ]]; then
		echo "preload.sh: $probe missing: the allocator probe was not loaded (LD_PRELOAD not applied?)" >&2
		return 1
	fi
	local got object glibc_heap mallocx_object glibc_heap_mallocx
	got=$(jq -r .allocator "$probe") || preload_die "$probe: not JSON"
	object=$(jq -r .malloc_object "$probe")
	glibc_heap=$(jq -r .glibc_heap_serves_malloc "$probe")
	mallocx_object=$(jq -r '.mallocx_object | select(. != null)' "$probe")
	glibc_heap_mallocx=$(jq -r '.glibc_heap_serves_mallocx | select(. != null)' "$probe")
	if [[ $got != "$want" ]]; then
		echo "preload.sh: malloc is served by $got ($object), not $want: the preload did not take" >&2
		return 1
	fi
	# A block freed by another allocator than the one that made it corrupts both heaps.
	if [[ $(jq -r '.release_matches_malloc // true' "$probe") == false ]]; then
		echo "preload.sh: free, realloc or operator delete is not served by malloc's object ($object):" \
			"$(jq -c .release_objects "$probe"); refusing" >&2
		return 1
	fi
	# Independent evidence: a malloc() grows glibc's own heap exactly when glibc serves it.
	local want_glibc=no heap_glibc=no
	[[ $want != glibc ]] || want_glibc=yes
	[[ $glibc_heap != true ]] || heap_glibc=yes
	if [[ $glibc_heap != null && $want_glibc != "$heap_glibc" ]]; then
		echo "preload.sh: probe says $got but glibc_heap_serves_malloc=$glibc_heap: refusing" >&2
		return 1
	fi
	# jemalloc's own API (mallocx; BIND allocates through it) must reach the same allocator:
	# jemalloc itself, or the adapter that sends it to malloc (preload/mallocx.c).
	if [[ -n $mallocx_object && $mallocx_object != "$object" &&
		$(basename "$mallocx_object") != liballocspike-mallocx.so ]]; then
		echo "preload.sh: jemalloc's mallocx is served by $mallocx_object, not $want: preload" \
			"lib/liballocspike-mallocx.so after the allocator" >&2
		return 1
	fi
	local mallocx_glibc=no
	[[ $glibc_heap_mallocx != true ]] || mallocx_glibc=yes
	if [[ -n $glibc_heap_mallocx && $want_glibc != "$mallocx_glibc" ]]; then
		echo "preload.sh: row wants $want but glibc_heap_serves_mallocx=$glibc_heap_mallocx: refusing" >&2
		return 1
	fi
}

case ${1:-} in
ld-preload)
	shift
	preload_ld_preload "$@"
	;;
check)
	shift
	preload_check "$@"
	;;
*)
	sed -n '4,7p' "$0" | sed 's/^#//' >&2
	exit 2
	;;
esac
