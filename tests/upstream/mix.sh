#!/bin/bash
# tests/upstream/mix.sh - over the real DNS-OARC sample, the mix the hierarchy serves (walked from
# the root in-process) falls in the ranges upstream/README.md documents; prints the table.
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
command -v jq >/dev/null || skip "jq not installed"
sample=$(shared_querydata)
[[ -n "$sample" ]] || skip "the DNS-OARC sample ../shared/querydata is not beside the checkout"
# the sanitizer build is about four times slower: the first tenth of the sample is enough there
count=100000
[[ "${ALLOCSPIKE_SANITIZE:-0}" == 1 ]] && count=10000
"$ALLOCSPIKE_BIN/allocspike-upstream" --hierarchy-block 127.54.50.0/24 --seed 1 --mix "$sample" \
	--mix-limit "$count" --mix-json "$TEST_TMP/mix.json" | tee "$TEST_TMP/mix.txt"
check_eq "every sample query walked" "$count" "$(jq .queries "$TEST_TMP/mix.json")"

in_range() { # DESCRIPTION JQ-EXPRESSION LOW HIGH  (the ranges of upstream/README.md)
	local v
	v=$(jq "$2" "$TEST_TMP/mix.json")
	check "$1 = $v in [$3, $4]" awk -v v="$v" -v lo="$3" -v hi="$4" 'BEGIN {exit !(v >= lo && v <= hi)}'
}
in_range "NXDOMAIN share" '.outcome.nxdomain' 0.10 0.30
in_range "NODATA share" '.outcome.noerror_nodata' 0.03 0.15
in_range "unresolvable share" '.outcome.fail' 0 0.005
in_range "CNAME share" '.cname_share' 0.10 0.35
in_range "CNAME chains of 2 or more" '.cname_chain["2"] + .cname_chain["3"] + .cname_chain["4+"]' 0.01 0.10
in_range "TTL under 300 s" '.ttl["<60"] + .ttl["60-299"]' 0.10 0.35
in_range "TTL 300 s to 1 h" '.ttl["300-3599"]' 0.25 0.55
in_range "TTL of a day or more" '.ttl["86400"] + .ttl[">86400"]' 0.05 0.25
in_range "single-address A sets" '.a_set_size["1"]' 0.50 0.75
in_range "A sets of 3 or more" '.a_set_size["3-4"] + .a_set_size["5-8"]' 0.10 0.25
in_range "referral depth 2 or more" '.referral_depth["2"] + .referral_depth["3"] + .referral_depth["4"]' 0.75 1
in_range "referral depth 3 (public suffixes, reverse)" '.referral_depth["3"]' 0.10 0.30
in_range "glueless NS lookups" '.glueless_share' 0.30 0.70
in_range "answers of 128 bytes or more" '1 - .answer_size["<128"]' 0.03 0.20

# --mix-steps: every question the walk asks, to the server it asks (benchmark.sh's spread load)
"$ALLOCSPIKE_BIN/allocspike-upstream" --hierarchy-block 127.54.50.0/24 --seed 1 --mix "$sample" \
	--mix-limit 200 --mix-json "$TEST_TMP/steps.json" --mix-steps "$TEST_TMP/steps" >/dev/null
check_eq "one step line per packet of the walk" \
	"$(jq '(.packets_per_query * .queries + 0.5) | floor' "$TEST_TMP/steps.json")" "$(wc -l <"$TEST_TMP/steps")"
check_eq "each line: a server's address, a name, a type number" 0 \
	"$(grep -cvE '^127\.54\.50\.[0-9]+ [^ ]+\.? [0-9]+$' "$TEST_TMP/steps")"
check_eq "the walk starts at the first root server" 127.54.50.1 "$(head -1 "$TEST_TMP/steps" | cut -d' ' -f1)"
check "steps reach many servers" test "$(cut -d' ' -f1 "$TEST_TMP/steps" | sort -u | wc -l)" -gt 20
finish
