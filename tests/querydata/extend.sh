#!/usr/bin/env bash
# tests/querydata/extend.sh - extension keeps the type mix and popular head; every pass has the original's once-seen share.
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
QD="$ALLOCSPIKE_BIN/allocspike-querydata"
command -v jq >/dev/null || skip "jq not installed"

# the real sample when present, else a generated file of the same shape (the property is the same)
orig=$(shared_querydata)
if [[ -n "$orig" ]]; then
	xz -dc "$orig" | head -n 40000 >"$TEST_TMP/orig.txt"
else
	echo "note: real sample absent, extending a generated file"
	"$QD" generate --seed 9 --count 40000 -o "$TEST_TMP/orig.txt"
fi
n=$(wc -l <"$TEST_TMP/orig.txt")
"$QD" extend --seed 2 --count $((n * 3 + n / 2)) -o "$TEST_TMP/ext.txt" "$TEST_TMP/orig.txt"
check_eq "length" $((n * 3 + n / 2)) "$(wc -l <"$TEST_TMP/ext.txt")"
check "pass 0 is the original" cmp -s "$TEST_TMP/orig.txt" <(head -n "$n" "$TEST_TMP/ext.txt")
"$QD" stats --json "$TEST_TMP/orig.txt" >"$TEST_TMP/orig.json"
"$QD" stats --json "$TEST_TMP/ext.txt" >"$TEST_TMP/ext.json"
within() {
	check "$1: $3 within $4 of $2" awk -v e="$2" -v a="$3" -v t="$4" 'BEGIN { d = a - e; exit !(d <= t && -d <= t) }'
}
o() { jq -r "$1" "$TEST_TMP/orig.json"; }
e() { jq -r "$1" "$TEST_TMP/ext.json"; }
for t in $(o '.type_shares | keys[]'); do
	within "$t share of the whole extension (points)" "$(o ".type_shares.$t * 100")" "$(e ".type_shares.$t * 100")" 0.2
done
# the popular head stays: each of the 50 most asked names is asked 3 times as often plus its
# count in the half pass
head -n $((n / 2)) "$TEST_TMP/orig.txt" >"$TEST_TMP/half.txt"
check "the 50 most popular names keep their counts pass after pass" awk -F'\t' '
	FILENAME == ARGV[1] { orig[$1]++; next }
	FILENAME == ARGV[2] { half[$1]++; next }
	{ ext[$1]++ }
	END {
		n = 0
		for (k in orig) names[++n] = k
		# 50 largest by simple selection (n is small enough for 50 passes)
		for (i = 1; i <= 50 && i <= n; i++) {
			best = ""
			for (j = 1; j <= n; j++)
				if (!(names[j] in done) && (best == "" || orig[names[j]] > orig[best])) best = names[j]
			done[best] = 1
			if (ext[best] != 3 * orig[best] + half[best]) { print "name " best ": " ext[best] " != 3 * " orig[best] " + " half[best]; exit 1 }
		}
	}' "$TEST_TMP/orig.txt" "$TEST_TMP/half.txt" "$TEST_TMP/ext.txt"

for pass in 1 2; do
	sed -n "$((pass * n + 1)),$(((pass + 1) * n))p" "$TEST_TMP/ext.txt" >"$TEST_TMP/pass$pass.txt"
	"$QD" stats --json "$TEST_TMP/pass$pass.txt" >"$TEST_TMP/pass$pass.json"
	check_eq "pass $pass: once-seen share of names" "$(o .once_seen_names_share)" \
		"$(jq -r .once_seen_names_share "$TEST_TMP/pass$pass.json")"
	check_eq "pass $pass: unique names" "$(o .unique_names)" "$(jq -r .unique_names "$TEST_TMP/pass$pass.json")"
	check_eq "pass $pass: median length and labels" \
		"$(o '[.name_length.median, .labels.median, (.reverse_share * 1000 | round)] | tojson')" \
		"$(jq -r '[.name_length.median, .labels.median, (.reverse_share * 1000 | round)] | tojson' "$TEST_TMP/pass$pass.json")"
done
# fresh names are fresh across passes too: unique names grow by the once-seen names each pass
once=$(o '.unique_names * .once_seen_names_share | round')
once_in_half=$(awk -F'\t' 'FILENAME == ARGV[1] { c[$1]++; next } c[$1] == 1' "$TEST_TMP/orig.txt" "$TEST_TMP/half.txt" | wc -l)
check_eq "unique names over 3.5 passes" $(($(o .unique_names) + once * 2 + once_in_half)) "$(e .unique_names)"
# same seed, same file
"$QD" extend --seed 2 --count $((n + 100)) "$TEST_TMP/orig.txt" >"$TEST_TMP/again.txt"
check "deterministic per seed" cmp -s "$TEST_TMP/again.txt" <(head -n $((n + 100)) "$TEST_TMP/ext.txt")
finish
