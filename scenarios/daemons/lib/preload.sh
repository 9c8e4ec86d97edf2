#!/bin/bash
# scenarios/daemons/lib/preload.sh - turns a preload row's `library` cell into LD_PRELOAD (the
# allocator probe's JSON is judged by `allocspike-run rows-check --row`: run.sh); see docs/daemons.md.
#
#   preload.sh ld-preload --build DIR [--sampler] LIBRARY
#                                               prints the LD_PRELOAD value: the live sampler (with
#                                               --sampler), LIBRARY (one object, or several joined
#                                               by ':'), then the probe
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

case ${1:-} in
ld-preload)
	shift
	preload_ld_preload "$@"
	;;
*)
	sed -n '4,8p' "$0" | sed 's/^#//' >&2
	exit 2
	;;
esac
