#!/bin/bash
# tests/resolver/live_bytes_musl.sh - musl's live bytes (mallocng has no statistics of its own to
# compare with) cross-checked against the glibc build on the same deterministic input: both builds
# run tests/resolver/live_bytes.sh (same names, same hierarchy seed), and after each batch the two
# counts must agree within 15 %. The builds hold the same objects; the counts differ only by each
# allocator's rounding of a request to its usable size (mallocng's size classes are coarser than
# glibc's 16-byte steps) and by what each libc allocates for itself.
set -uo pipefail
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
for v in glibc musl; do
	[[ -x $ALLOCSPIKE_BIN/allocspike-resolver-$v ]] || skip "allocspike-resolver-$v not built (musl needs the static build)"
done
[[ $ALLOCSPIKE_SANITIZE != 1 ]] || skip "no live-bytes counter in the sanitizer build"

bash "$ALLOCSPIKE_SOURCE_DIR/tests/resolver/live_bytes.sh" glibc 127.56.70 >"$TEST_TMP/glibc.out" 2>&1
check_eq "glibc run passes" 0 $?
bash "$ALLOCSPIKE_SOURCE_DIR/tests/resolver/live_bytes.sh" musl 127.56.71 >"$TEST_TMP/musl.out" 2>&1
check_eq "musl run passes" 0 $?
mapfile -t glibc < <(awk '$1 == "live_bytes" { print $2 }' "$TEST_TMP/glibc.out")
mapfile -t musl < <(awk '$1 == "live_bytes" { print $2 }' "$TEST_TMP/musl.out")
check_eq "three batches each" "3 3" "${#glibc[@]} ${#musl[@]}"
for i in 0 1 2; do
	g=${glibc[i]:-0} m=${musl[i]:-0}
	check "batch $((i + 1)): musl $m within 15 % of glibc $g" \
		awk -v g="$g" -v m="$m" 'BEGIN { d = m - g; if (d < 0) d = -d; exit !(g > 0 && d <= g * 0.15) }'
done
# Both grow with the cache by about the same amount between the first and the last batch.
check "growth over the batches within 25 %: musl $((${musl[2]:-0} - ${musl[0]:-0})), glibc $((${glibc[2]:-0} - ${glibc[0]:-0}))" \
	awk -v g="$((${glibc[2]:-0} - ${glibc[0]:-0}))" -v m="$((${musl[2]:-0} - ${musl[0]:-0}))" \
	'BEGIN { d = m - g; if (d < 0) d = -d; exit !(g > 0 && d <= g * 0.25) }'
finish
