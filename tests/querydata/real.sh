#!/usr/bin/env bash
# tests/querydata/real.sh - stats on the real DNS-OARC sample reproduce its README; 100,000 generated queries match it.
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
QD="$ALLOCSPIKE_BIN/allocspike-querydata"
command -v jq >/dev/null || skip "jq not installed"
real=$(shared_querydata)
[[ -n "$real" ]] || skip "real sample absent (../shared/querydata beside the checkout); nothing to compare with"

within() {
	check "$1: $3 within $4 of $2" awk -v e="$2" -v a="$3" -v t="$4" 'BEGIN { d = a - e; exit !(d <= t && -d <= t) }'
}

"$QD" stats --json "$real" >"$TEST_TMP/real.json"
r() { jq -r "$1" "$TEST_TMP/real.json"; }
# the README's numbers, as it rounds them
check_eq "queries" 100000 "$(r .queries)"
check_eq "unique names" 60126 "$(r .unique_names)"
check_eq "unique (name, type)" 61194 "$(r .unique_name_type)"
# the README rounds 7.925 down: compare to a hundredth of a point
for ts in A:68.25 PTR:15.34 MX:8.43 AAAA:7.92 SRV:0.05; do
	within "${ts%%:*} share (points, as the README gives it)" "${ts#*:}" "$(r ".type_shares.${ts%%:*} * 100")" 0.006
done
check_eq "no other types" 5 "$(r '.type_shares | length')"
check_eq "names seen once" 94.8 "$(r '.once_seen_names_share * 1000 | round / 10')"
check_eq "queries of names seen once" 57 "$(r '.once_seen_queries_share * 100 | round')"
check_eq "top 1% of names" 35.1 "$(r '.top1pct_names_query_share * 1000 | round / 10')"
check_eq "top 10% of names" 45.9 "$(r '.top10pct_names_query_share * 1000 | round / 10')"
check_eq "Zipf exponent" 1.08 "$(r '.zipf_exponent_top1000 * 100 | round / 100')"
check_eq "name length median p99 max" "19 40 101" "$(r '"\(.name_length.median) \(.name_length.p99) \(.name_length.max)"')"
check_eq "labels max, 3-label share" "34 48" "$(r '"\(.labels.max) \(.labels.shares."3" * 100 | round)"')"
check_eq "reverse share" 15.8 "$(r '.reverse_share * 1000 | round / 10')"
check_eq "malformed share" 0.36 "$(r '.malformed_share * 10000 | round / 100')"
check_eq "root queries" 324 "$(r .root_queries)"

# the generator against the file itself, within the issue's tolerances
"$QD" generate --seed 1 --count 100000 -o "$TEST_TMP/g.txt"
"$QD" stats --json "$TEST_TMP/g.txt" >"$TEST_TMP/g.json"
g() { jq -r "$1" "$TEST_TMP/g.json"; }
for t in A PTR MX AAAA SRV; do
	within "$t share (points)" "$(r ".type_shares.$t * 100")" "$(g "(.type_shares.$t // 0) * 100")" 1
done
within "names seen once (points)" "$(r '.once_seen_names_share * 100')" "$(g '.once_seen_names_share * 100')" 2
within "Zipf exponent" "$(r .zipf_exponent_top1000)" "$(g .zipf_exponent_top1000)" 0.05
within "median name length" "$(r .name_length.median)" "$(g .name_length.median)" 1
finish
