# scenarios/lib/common.sh - what every scenario module needs: messages, failing, clocks, finding programs.
# Sourced, never run. Globals are prefixed SC_; functions sc_*.

SC_ROOT=${SC_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
SC_PROG=${SC_PROG:-$(basename "$0" .sh)}

# sc_say TEXT... : progress for the person running the scenario (stderr, so stdout stays the report path).
sc_say() { printf '%s: %s\n' "$SC_PROG" "$*" >&2; }

# sc_die TEXT... : says why the run fails, tells the run's controller (in a run's steps: procs.sh),
# which records it as the run's failure, then stops everything and reports, and exits.
sc_die() {
	printf '%s: error: %s\n' "$SC_PROG" "$*" >&2
	[[ -z ${SC_PROCS_SOCKET:-} ]] || procs_ask failure "$*" || true
	exit 1
}

# sc_seconds_text S : whole seconds for a person ("45 s", "10 min 40 s"), as the controller says them.
sc_seconds_text() { "$(sc_bin_dir)/allocspike-run" seconds-text "$1"; }

# sc_source_tree : true when the scripts run from a checkout (not from `cmake --install`'s tree).
sc_source_tree() { [[ -f $SC_ROOT/CMakeLists.txt ]]; }

# sc_bin_dir : where the programs are: $ALLOCSPIKE_BIN (tests), the build folder of a checkout, or
# PREFIX/bin of an installed tree (the scripts live in PREFIX/share/allocspike/scenarios).
sc_bin_dir() {
	if [[ -n ${ALLOCSPIKE_BIN:-} ]]; then
		echo "$ALLOCSPIKE_BIN"
	elif sc_source_tree; then
		echo "${ALLOCSPIKE_BUILD_DIR:-$SC_ROOT/build}/bin"
	else
		(cd "$SC_ROOT/../.." && echo "$PWD/bin")
	fi
}

# sc_program NAME : full path of an allocspike program, or empty when it is not built.
sc_program() {
	local p
	p="$(sc_bin_dir)/$1"
	[[ -x $p ]] && echo "$p" || true
}

# sc_outdir [--check] DIR : DIR made a run's folder, new or an empty one of ours (allocspike-run
# outdir: docs/cli.md, "--out"); with --check only whether it can be. Prints why not and fails.
sc_outdir() {
	local run
	run=$(sc_program allocspike-run)
	[[ -n $run ]] || {
		echo "allocspike-run is missing from $(sc_bin_dir) (it checks the folder)"
		return 1
	}
	"$run" outdir "$@"
}

# sc_need VAR NAME WHY : sets VAR to the program's path, or fails the run naming what is missing (in
# the calling shell, not a $(...), so the run's end knows the reason).
sc_need() {
	local path
	path=$(sc_program "$2")
	[[ -n $path ]] || sc_die "$2 is missing from $(sc_bin_dir) (needed $3); build it (scripts/build.sh) or set ALLOCSPIKE_BIN"
	printf -v "$1" '%s' "$path"
}

# sc_build_missing PROGRAM... : where the scenario builds (a checkout, no $ALLOCSPIKE_BIN, no
# --no-build), installs the packages and builds (scripts/build.sh) when a PROGRAM is missing.
sc_build_missing() {
	local p
	[[ -z ${ALLOCSPIKE_BIN:-} ]] && ((!${OPT_no_build:-0})) && sc_source_tree || return 0
	for p; do
		[[ -z $(sc_program "$p") ]] || continue
		"$SC_ROOT/scripts/install-packages.sh" >&2 || sc_die "installing packages failed (scripts/install-packages.sh)"
		sc_say "building (scripts/build.sh); the first build also builds static ldns/libevent per libc"
		"$SC_ROOT/scripts/build.sh" >&2 || sc_die "the build failed (scripts/build.sh)"
		return 0
	done
}
