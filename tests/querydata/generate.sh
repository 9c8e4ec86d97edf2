#!/usr/bin/env bash
# tests/querydata/generate.sh - the generator is deterministic per seed and its 100,000 queries match the sample's published statistics.
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
QD="$ALLOCSPIKE_BIN/allocspike-querydata"
command -v jq >/dev/null || skip "jq not installed"

# within WHAT EXPECTED ACTUAL TOLERANCE
within() {
	check "$1: $3 within $4 of $2" awk -v e="$2" -v a="$3" -v t="$4" 'BEGIN { d = a - e; exit !(d <= t && -d <= t) }'
}

"$QD" generate --seed 3 --count 20000 -o "$TEST_TMP/a.txt"
"$QD" generate --seed 3 --count 20000 -o "$TEST_TMP/b.txt"
"$QD" generate --seed 3 --count 20000 >"$TEST_TMP/stdout.txt"
"$QD" generate --seed 4 --count 20000 -o "$TEST_TMP/c.txt"
check "same seed, same bytes" cmp -s "$TEST_TMP/a.txt" "$TEST_TMP/b.txt"
check "-o and stdout write the same" cmp -s "$TEST_TMP/a.txt" "$TEST_TMP/stdout.txt"
check "another seed, another file" bash -c "! cmp -s '$TEST_TMP/a.txt' '$TEST_TMP/c.txt'"
check_eq "lines written" 20000 "$(wc -l <"$TEST_TMP/a.txt")"
for n in 0 1 7; do
	"$QD" generate --seed 1 --count "$n" -o "$TEST_TMP/n$n.txt"
	check_eq "--count $n" "$n" "$(wc -l <"$TEST_TMP/n$n.txt")"
done

# 100,000 queries against the numbers the real sample's README publishes (real.sh compares
# with the file itself when it is present)
"$QD" generate --seed 1 --count 100000 -o "$TEST_TMP/g.txt"
"$QD" stats --json "$TEST_TMP/g.txt" >"$TEST_TMP/g.json"
j() { jq -r "$1" "$TEST_TMP/g.json"; }
check_eq "every generated line parses" 0 "$(j .lines_skipped)"
check_eq "queries" 100000 "$(j .queries)"
within "A share" 0.6825 "$(j .type_shares.A)" 0.01
within "PTR share" 0.1534 "$(j .type_shares.PTR)" 0.01
within "MX share" 0.0843 "$(j .type_shares.MX)" 0.01
within "AAAA share" 0.0792 "$(j .type_shares.AAAA)" 0.01
within "names seen once" 0.948 "$(j .once_seen_names_share)" 0.02
within "Zipf exponent over the top 1000" 1.08 "$(j .zipf_exponent_top1000)" 0.05
within "median name length" 19 "$(j .name_length.median)" 1
within "reverse share" 0.158 "$(j .reverse_share)" 0.01
within "malformed share" 0.0036 "$(j .malformed_share)" 0.001
check "a few malformed names, not none" test "$(j '.malformed_share > 0')" = true
finish
