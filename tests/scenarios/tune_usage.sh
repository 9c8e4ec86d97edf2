#!/bin/bash
# tests/scenarios/tune_usage.sh - scenarios/tune.sh: which rows an allocator's tuning runs, and bad
# options refused with status 2 before anything runs (no program needed).
set -uo pipefail
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
TUNE=$ALLOCSPIKE_SOURCE_DIR/scenarios/tune.sh

out=$(bash "$TUNE" --help 2>&1)
check_eq "--help status" 0 $?
check "--help lists --allocator" grep -q -- '--allocator' <<<"$out"

# The rows of an allocator: its glibc build row and every env row over it, in table order.
for a in glibc jemalloc tcmalloc mimalloc; do
	want=$(variants_rows | awk -F'\t' -v a="$a" '($2 == "build" && $3 == a && $4 == "glibc") || ($2 == "env" && $3 == a) { print $1 }')
	check_eq "$a: its rows" "$want" "$(bash "$TUNE" --allocator "$a" --list)"
	check "$a: more than the build row" test "$(wc -l <<<"$want")" -gt 1
done
check_eq "all: the four allocators' rows" \
	"$(for a in glibc jemalloc tcmalloc mimalloc; do bash "$TUNE" --allocator "$a" --list; done)" \
	"$(bash "$TUNE" --allocator all --list)"
check_eq "--variants: those rows" "kresd-glibc" "$(bash "$TUNE" --variants kresd-glibc --list)"

for bad in "" "--allocator musl" "--allocator" "--allocator glibc --variants glibc" "--variants nope" \
	"--allocator glibc --repeat 0" "--allocator glibc --batch x" "--allocator glibc --no-such-flag"; do
	# shellcheck disable=SC2086 # the flags are words
	bash "$TUNE" $bad --out "$TEST_TMP/out" >/dev/null 2>&1
	check_eq "'$bad' status" 2 $?
done
check "no folder for bad options" test ! -e "$TEST_TMP/out"
finish
