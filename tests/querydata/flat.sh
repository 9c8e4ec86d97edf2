#!/usr/bin/env bash
# tests/querydata/flat.sh - generate --world flat: the flat world's mix (a Zipf-popular pool under the
# TLDs, fresh names under them, names outside them) in the shares asked, deterministic per seed; bad
# option values are usage errors.
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
QD="$ALLOCSPIKE_BIN/allocspike-querydata"

# within WHAT EXPECTED ACTUAL TOLERANCE
within() {
	check "$1: $3 within $4 of $2" awk -v e="$2" -v a="$3" -v t="$4" 'BEGIN { d = a - e; exit !(d <= t && -d <= t) }'
}

# shares FILE TLDS: "nxdomain fresh pool fresh_unique outside_tlds top_pool_share A_share"; the
# classes by shape: one label (outside the TLDs), two labels below a TLD (fresh), one (pool)
shares() {
	awk -v tlds="$2" '
		{ n++; name = $1; k = split(name, l, ".") - 1
		  if (k == 1) { nx++; next }
		  tld = l[k]; num = substr(tld, 4) + 0
		  if (tld !~ /^tld[1-9][0-9]*$/ || num > tlds) bad++
		  under++; a += $2 == "A"
		  if (k == 3) { fresh++; seen[name]++ } else { pool++; count[name]++ } }
		END { for (x in seen) uniq += seen[x] == 1
		      for (x in count) if (count[x] > top) top = count[x]
		      printf "%.4f %.4f %.4f %d %d %.4f %.4f\n", nx / n, fresh / n, pool / n, fresh - uniq,
		             bad + 0, top / pool, a / under }' "$1"
}

"$QD" generate --world flat --seed 3 --count 20000 -o "$TEST_TMP/a.txt" || exit 1
"$QD" generate --seed 3 --world flat --count 20000 -o "$TEST_TMP/b.txt" || exit 1
"$QD" generate --world flat --seed 4 --count 20000 -o "$TEST_TMP/c.txt" || exit 1
check "same seed, same bytes" cmp -s "$TEST_TMP/a.txt" "$TEST_TMP/b.txt"
check "another seed, another file" bash -c "! cmp -s '$TEST_TMP/a.txt' '$TEST_TMP/c.txt'"
check_eq "lines written" 20000 "$(wc -l <"$TEST_TMP/a.txt")"
"$QD" stats --json "$TEST_TMP/a.txt" >"$TEST_TMP/a.json"
check "every line parses" grep -q '"lines_skipped": 0' "$TEST_TMP/a.json"

# the defaults: 20% outside the TLDs, 37% fresh, 43% from the pool of 3,109 names (Zipf 1.08)
read -r nx fresh pool repeats outside top a_share < <(shares "$TEST_TMP/a.txt" 20)
within "NXDOMAIN share (default 0.20)" 0.20 "$nx" 0.015
within "fresh share (default 0.37)" 0.37 "$fresh" 0.015
within "pool share (the rest, 0.43)" 0.43 "$pool" 0.015
check_eq "fresh names never repeat" 0 "$repeats"
check_eq "names under a TLD use tld1..tld20 only" 0 "$outside"
# Zipf 1.08 over 3,109 ranks: rank 1 has 1 / sum(r^-1.08) of the pool's queries
expected=$(awk 'BEGIN { for (r = 1; r <= 3109; r++) h += r ^ -1.08; printf "%.4f", 1 / h }')
within "the top pool name's share of the pool" "$expected" "$top" 0.02
within "A share under the TLDs" 0.742 "$a_share" 0.02
check_eq "every wildcard type asked" "A AAAA MX NS TXT" \
	"$(awk '$1 ~ /\.tld[0-9]+\.$/ {t[$2]} END {for (x in t) print x}' "$TEST_TMP/a.txt" | sort | xargs)"

# shares and TLD count as asked
"$QD" generate --world flat --seed 5 --count 20000 --flat-tlds 3 --fresh-share 0.5 \
	--nxdomain-share 0.1 --pool 100 --zipf 0.8 -o "$TEST_TMP/d.txt" || exit 1
read -r nx fresh pool repeats outside top a_share < <(shares "$TEST_TMP/d.txt" 3)
within "--nxdomain-share 0.1" 0.10 "$nx" 0.015
within "--fresh-share 0.5" 0.50 "$fresh" 0.015
within "pool share, the rest (0.4)" 0.40 "$pool" 0.015
check_eq "--flat-tlds 3: tld1..tld3 only" 0 "$outside"
check "--pool 100: at most 100 pool names" test "$(awk 'split($1, l, ".") == 3' "$TEST_TMP/d.txt" | cut -f1 | sort -u | wc -l)" -le 100
"$QD" generate --world flat --seed 5 --count 1000 --fresh-share 0 --nxdomain-share 0 -o "$TEST_TMP/e.txt" || exit 1
check_eq "shares 0: every query from the pool" 1000 "$(awk 'split($1, l, ".") == 3' "$TEST_TMP/e.txt" | wc -l)"

# bad values: exit 2 and the option named
usage_error() { # DESCRIPTION PATTERN ARGS...
	local what=$1 pattern=$2
	shift 2
	"$QD" "$@" >/dev/null 2>"$TEST_TMP/err"
	check_eq "$what: exit status" 2 $?
	check "$what: says why ($(head -1 "$TEST_TMP/err"))" grep -q -- "$pattern" "$TEST_TMP/err"
}
G=(generate --seed 1 --count 10)
usage_error "--fresh-share 1.5" "--fresh-share" "${G[@]}" --world flat --fresh-share 1.5
usage_error "--nxdomain-share -0.1" "--nxdomain-share" "${G[@]}" --world flat --nxdomain-share -0.1
usage_error "shares over 1" "add up to more than 1" "${G[@]}" --world flat --fresh-share 0.7 --nxdomain-share 0.5
usage_error "--pool 0" "--pool" "${G[@]}" --world flat --pool 0
usage_error "--zipf 9" "--zipf" "${G[@]}" --world flat --zipf 9
usage_error "--flat-tlds 0" "--flat-tlds" "${G[@]}" --world flat --flat-tlds 0
usage_error "a flat option without --world flat" "option of generate --world flat" "${G[@]}" --pool 10
usage_error "--world moon" "expected flat" "${G[@]}" --world moon
usage_error "extend --world flat" "option of generate" extend --count 10 --world flat "$TEST_TMP/a.txt"
finish
