#!/bin/bash
# tests/scenarios/tune_usage.sh - scenarios/tune.sh: which rows an allocator's tuning runs, and bad
# options refused with status 2 before anything runs (no program but the controller, which reads
# variants.tsv).
set -uo pipefail
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
[[ -x $ALLOCSPIKE_BIN/allocspike-run ]] || skip "allocspike-run is not built (it reads variants.tsv)"
mkdir -p "$TEST_TMP/controller-only"
ln -s "$ALLOCSPIKE_BIN/allocspike-run" "$TEST_TMP/controller-only/"
TUNE=$ALLOCSPIKE_SOURCE_DIR/scenarios/tune.sh

out=$(bash "$TUNE" --help 2>&1)
check_eq "--help status" 0 $?
check "--help lists --allocator" grep -q -- '--allocator' <<<"$out"

# An allocator's runs: every one carries its build row (the default) beside batch-1 of the env rows
# over it that keep its allocator; together they run every one of those rows once.
for a in glibc jemalloc tcmalloc mimalloc; do
	want=$(variants_rows | awk -F'\t' -v a="$a" '$2 == "env" && $6 == a && $3 == a { print $1 }')
	plan=$(bash "$TUNE" --allocator "$a" --batch 3 --list)
	check "$a: every run carries the default" bash -c "! grep -v '^$a,' <<<'$plan'"
	check_eq "$a: every setting once" "$want" "$(cut -d, -f2- <<<"$plan" | tr , '\n')"
	check "$a: two settings a run with --batch 3" bash -c "! awk -F, 'NF > 3' <<<'$plan' | grep -q ."
	check "$a: settings to tune" test "$(wc -l <<<"$want")" -gt 1
done
check_eq "all: the four allocators' runs" \
	"$(for a in glibc jemalloc tcmalloc mimalloc; do bash "$TUNE" --allocator "$a" --list; done)" \
	"$(bash "$TUNE" --allocator all --list)"
check_eq "--variants: the one row without settings is the default" $'kresd-glibc,kresd-glibc-trim4k\nkresd-glibc,kresd-glibc-mmap32k' \
	"$(bash "$TUNE" --variants kresd-glibc,kresd-glibc-trim4k,kresd-glibc-mmap32k --batch 2 --list)"
check_eq "--batch 03 --repeat 08: base 10, as 3 and 8" 8 \
	"$(bash "$TUNE" --variants glibc,jemalloc,glibc-trim --batch 03 --repeat 08 --list 2>&1 >/dev/null | grep -oE '^tune: [0-9]+' | grep -oE '[0-9]+')"
check_eq "--variants: two rows without settings, plain batches" $'glibc,jemalloc\nglibc-trim' \
	"$(bash "$TUNE" --variants glibc,jemalloc,glibc-trim --batch 2 --list)"

for bad in "" "--allocator musl" "--allocator" "--allocator glibc --variants glibc" "--variants nope" \
	"--allocator glibc --repeat 0" "--allocator glibc --batch x" "--allocator glibc --no-such-flag" "--allocator glibc --spike-len 20" \
	"--allocator glibc --count 5" "--allocator glibc --batch 0" "--allocator glibc --margin-mb x"; do
	# shellcheck disable=SC2086 # the flags are words
	bash "$TUNE" $bad --out "$TEST_TMP/out" >/dev/null 2>&1
	check_eq "'$bad' status" 2 $?
done
check "no folder for bad options" test ! -e "$TEST_TMP/out"
# --hosts: an agent takes one plan, and tune.sh makes several runs (refused up front, said why)
printf 't1 127.0.0.1:9 glibc\n' >"$TEST_TMP/one.hosts"
bash "$TUNE" --allocator glibc --hosts "$TEST_TMP/one.hosts" --out "$TEST_TMP/out" >/dev/null 2>"$TEST_TMP/hosts.err"
check_eq "--hosts: status 2" 2 $?
check "--hosts: not taken, said why" grep -qF -- "tune: --hosts is not taken: tune.sh makes several spike.sh runs and an agent takes one plan" "$TEST_TMP/hosts.err"
check "--hosts: no folder" test ! -e "$TEST_TMP/out"

# The plan's length, said before anything starts (on stderr, so --list's runs stay one a line).
# the controller alone makes the schedules and tells their length (allocspike-run schedule)
line=$(ALLOCSPIKE_BIN=$TEST_TMP/controller-only bash "$TUNE" --allocator jemalloc --list 2>&1 >/dev/null)
check "--list: the runs and how long they take" \
	grep -qE '^tune: 6 spike runs, 1 of them calibrating first \(about [0-9]+ min [0-9]+ s\), .* about [0-9 hmins]+ in all$' <<<"$line"
total=$(plan_total_s <<<"$line")
check "more spikes, a longer plan" test "$(bash "$TUNE" --allocator jemalloc --list --spikes 12 2>&1 >/dev/null | plan_total_s)" -gt "$total"
check "shorter spikes, a shorter plan" test "$(bash "$TUNE" --allocator jemalloc --list --spike-len 5s 2>&1 >/dev/null | plan_total_s)" -lt "$total"
check "a given spike rate: no calibration" grep -qE '^tune: 12 spike runs of about .* each: about .* in all$' \
	<<<"$(bash "$TUNE" --allocator jemalloc --list --repeat 2 --spike-rate 3000 2>&1 >/dev/null)"
finish
