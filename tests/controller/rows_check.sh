#!/bin/bash
# tests/controller/rows_check.sh - allocspike-run rows-check (docs/controller.md, "The rows a run can
# run"): a row whose program is missing, whose binary reports another allocator, or whose setting did
# not take is `failed` with its reason and message; the others are `runnable` with the report their
# binary gave under the row's environment and the run's options (or null when it gave none); run.json's
# rows carry the reports; --row judges a report got elsewhere; bad use is refused with status 2.
# Beside it, run.json's context: `machine` (this host as it is) and `programs` (each harness program's
# path and report, "" and null for one not built).
set -uo pipefail
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
RUN=$ALLOCSPIKE_BIN/allocspike-run
[[ -x $RUN ]] || skip "allocspike-run is not built"
BIN=$TEST_TMP/bin DAEMONS=$TEST_TMP/daemons
mkdir -p "$BIN" "$DAEMONS"
T=$TEST_TMP/v.tsv
{
	printf 'name\tkind\tallocator\tlibc\tlibrary\tbase\tenv\tdefault\tnote\n'
	printf 'glibc\tbuild\tglibc\tglibc\t-\t-\t-\tyes\tn\n'
	printf 'glibc-trim\tenv\tglibc\tglibc\t-\tglibc\tGLIBC_TUNABLES=glibc.malloc.trim_threshold=4096\tno\tn\n'
	printf 'jemalloc\tbuild\tjemalloc\tglibc\tjemalloc\t-\t-\tyes\tn\n'
	printf 'tcmalloc\tbuild\ttcmalloc\tglibc\ttcmalloc\t-\t-\tno\tn\n'
	printf 'mute\tbuild\tglibc\tglibc\t-\t-\t-\tno\tn\n'
	printf 'kresd\texternal\tjemalloc\tglibc\t-\tkresd\t-\tno\tn\n'
	printf 'unbound\texternal\tglibc\tglibc\t-\tunbound\t-\tno\tn\n'
} >"$T"
# A stand-in glibc resolver: reports its options and the trim threshold its environment sets (the
# real binary reads it from GLIBC_TUNABLES), honouring only 4096 (any other value does not take).
cat >"$BIN/allocspike-resolver-glibc" <<'SH'
#!/bin/bash
t=${GLIBC_TUNABLES#glibc.malloc.trim_threshold=}
[[ $t == 4096 ]] || t=0
printf '{"allocator":"glibc","allocator_settings":{"glibc.malloc.trim_threshold":%s},"args":"%s"}\n' "$t" "$*"
SH
printf '#!/bin/sh\necho %s\n' "'{\"allocator\":\"glibc\"}'" >"$BIN/allocspike-resolver-jemalloc" # not what the row says
printf '#!/bin/sh\necho not json\n' >"$BIN/allocspike-resolver-mute"
printf '#!/bin/sh\n' >"$DAEMONS/kresd.sh"
chmod +x "$BIN"/* "$DAEMONS/kresd.sh"

out=$("$RUN" rows-check --table "$T" --select glibc,glibc-trim,jemalloc,tcmalloc,mute,kresd,unbound \
	--bin-dir "$BIN" --daemons-dir "$DAEMONS" -- --cache-size 4096 2>"$TEST_TMP/err")
check_eq "status 0 with rows failed" 0 "$?"
check_eq "nothing on stderr" "" "$(cat "$TEST_TMP/err")"
line() { grep -P "^[a-z]+\t$1\t" <<<"$out"; }
check_eq "a build row: runnable, its report under the run's options" \
	$'runnable\tglibc\t{"allocator":"glibc","allocator_settings":{"glibc.malloc.trim_threshold":0},"args":"--cache-size 4096 --version --json"}' \
	"$(line glibc)"
check_eq "an env row: its base's binary under the row's environment, the setting taken" \
	$'runnable\tglibc-trim\t{"allocator":"glibc","allocator_settings":{"glibc.malloc.trim_threshold":4096},"args":"--cache-size 4096 --version --json"}' \
	"$(line glibc-trim)"
check_eq "another allocator reported: failed, with why" \
	$'failed\tjemalloc\tallocator is glibc, expected jemalloc\tvariant jemalloc: its binary reports allocator \'glibc\', the table says \'jemalloc\'; not run' \
	"$(line jemalloc)"
check_eq "no binary: failed, naming it and the folder" \
	$'failed\ttcmalloc\tmissing allocspike-resolver-tcmalloc in '"$BIN"$'\tvariant tcmalloc cannot run: missing allocspike-resolver-tcmalloc in '"$BIN" \
	"$(line tcmalloc)"
check_eq "no JSON from the binary: runnable, report null" $'runnable\tmute\tnull' "$(line mute)"
check_eq "a daemon with its definition: runnable, reported once started" $'runnable\tkresd\tnull' "$(line kresd)"
check_eq "a daemon without: failed" \
	$'failed\tunbound\tmissing daemon definition '"$DAEMONS"$'/unbound.sh\tvariant unbound cannot run: missing daemon definition '"$DAEMONS/unbound.sh" \
	"$(line unbound)"
rows=$(sed -n 's/^rows\t//p' <<<"$out")
check_eq "run.json's rows: every chosen row in order" "glibc glibc-trim jemalloc tcmalloc mute kresd unbound" \
	"$(jq -r '[.[].name] | join(" ")' <<<"$rows")"
check_eq "each with its report, also a failed row's" '[0,4096,"glibc",null,null,null,null]' \
	"$(jq -c '[.[0].version.allocator_settings["glibc.malloc.trim_threshold"], .[1].version.allocator_settings["glibc.malloc.trim_threshold"], .[2].version.allocator, .[3].version, .[4].version, .[5].version, .[6].version]' <<<"$rows")"

# The env row's setting not taken.
sed -i 's/trim_threshold=4096/trim_threshold=8192/' "$T"
check "a setting that did not take: failed, naming it" grep -qP \
	'^failed\tglibc-trim\tallocator setting did not take\tvariant glibc-trim: glibc.malloc.trim_threshold=8192 did not take' \
	<<<"$("$RUN" rows-check --table "$T" --select glibc-trim --bin-dir "$BIN" --daemons-dir "$DAEMONS")"
sed -i 's/trim_threshold=8192/trim_threshold=4096/' "$T"

# --row: a report got elsewhere (a daemon's allocator probe).
check_eq "--row: a report as the row says: nothing, status 0" "status 0" \
	"$("$RUN" rows-check --table "$T" --row kresd --version-json '{"allocator":"jemalloc"}'; echo "status $?")"
check_eq "--row: another allocator: the failed line, status 1" \
	$'failed\tkresd\tallocator is glibc, expected jemalloc\tvariant kresd: its binary reports allocator \'glibc\', the table says \'jemalloc\'; not run\nstatus 1' \
	"$("$RUN" rows-check --table "$T" --row kresd --version-json '{"allocator":"glibc"}'; echo "status $?")"
# --row with an allocator probe's evidence (preload/alloc_probe.c): each fact that contradicts the
# row refuses it, with its reason; the same facts agreeing pass.
probe() { # the probe of a jemalloc daemon, with the given JSON merged in
	jq -cn --argjson more "$1" '{allocator: "jemalloc", malloc_object: "/usr/lib/libjemalloc.so.2",
		release_matches_malloc: true, glibc_heap_serves_malloc: false} + $more'
}
row_verdict() { "$RUN" rows-check --table "$T" --row kresd --version-json "$(probe "$1")" | cut -f3; }
check_eq "--row: a probe whose facts agree: nothing, status 0" "status 0" \
	"$("$RUN" rows-check --table "$T" --row kresd --version-json "$(probe '{}')"; echo "status $?")"
check_eq "--row: free served by another object: refused" "free is not served by malloc's object" \
	"$(row_verdict '{"release_matches_malloc": false, "release_objects": {"free": "/lib/libc.so.6"}}')"
check_eq "--row: glibc's heap grows with malloc for a jemalloc row: refused" \
	"glibc's heap serves malloc, expected jemalloc" "$(row_verdict '{"glibc_heap_serves_malloc": true}')"
check_eq "--row: mallocx served by another object: refused" "mallocx is served by /lib/other.so, not jemalloc" \
	"$(row_verdict '{"mallocx_object": "/lib/other.so"}')"
check_eq "--row: mallocx through the adapter, glibc's heap not growing: accepted" "" \
	"$(row_verdict '{"mallocx_object": "/b/lib/liballocspike-mallocx.so", "glibc_heap_serves_mallocx": false}')"
check_eq "--row: mallocx growing glibc's heap for a jemalloc row: refused" \
	"glibc's heap serves mallocx, expected jemalloc" "$(row_verdict '{"glibc_heap_serves_mallocx": true}')"
check_eq "a daemon definition's knob is not an allocator setting: only the setting is expected" \
	"MALLOC_ARENA_MAX 2" "$("$RUN" settings expected 'ALLOCSPIKE_DAEMON_THREADS=1 MALLOC_ARENA_MAX=2')"
check_eq "--row: an unknown row: status 2" 2 \
	"$("$RUN" rows-check --table "$T" --row nope --version-json '{}' 2>/dev/null; echo $?)"
check_eq "--row without --version-json: status 2" 2 "$("$RUN" rows-check --table "$T" --row kresd 2>/dev/null; echo $?)"
check_eq "an unknown row chosen: status 2" 2 \
	"$("$RUN" rows-check --table "$T" --select nope --bin-dir "$BIN" 2>/dev/null; echo $?)"
check_eq "a word that is not after '--': status 2" 2 \
	"$("$RUN" rows-check --table "$T" --bin-dir "$BIN" stray 2>/dev/null; echo $?)"

# machine and programs: run.json's context.
m=$("$RUN" machine --open-files 4096)
check_eq "machine: every key, the limit as given, the cores this process may use" \
	"cores,memory_kb,kernel,thp,thp_defrag,open_files_limit,cpu_model,hostname,libc,overcommit_memory 4096 $(nproc) $(uname -n)" \
	"$(jq -r '[(keys_unsorted | join(",")), .open_files_limit, .cores, .hostname] | join(" ")' <<<"$m")"
check_eq "machine: its memory as /proc/meminfo says" "$(awk '/^MemTotal:/ { print $2 }' /proc/meminfo)" "$(jq .memory_kb <<<"$m")"
check_eq "machine: a limit that is no number: status 2" 2 "$("$RUN" machine --open-files many 2>/dev/null; echo $?)"
printf '#!/bin/sh\necho %s\n' "'{\"program\":\"allocspike-loadgen\"}'" >"$BIN/allocspike-loadgen"
printf '#!/bin/sh\nexit 3\n' >"$BIN/allocspike-report"
chmod +x "$BIN/allocspike-loadgen" "$BIN/allocspike-report"
check_eq "programs: a report, a program that gives none, programs not built" \
	'{"allocspike-upstream":{"path":"","version":null},"allocspike-loadgen":{"path":"'"$BIN"'/allocspike-loadgen","version":{"program":"allocspike-loadgen"}},"allocspike-querydata":{"path":"","version":null},"allocspike-report":{"path":"'"$BIN"'/allocspike-report","version":null}}' \
	"$("$RUN" programs --bin-dir "$BIN")"
finish
