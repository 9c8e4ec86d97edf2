#!/bin/bash
# tests/upstream/flat.sh - the flat world: one address serves the root and tld1..tldN, every name
# under a TLD answered by wildcard (A, AAAA, MX, TXT of 1-6 strings, NS), TTLs spread over 5 s to a
# day, NXDOMAIN outside the TLDs, the root's delegation of each TLD pointing at the same address;
# bad option values are usage errors.
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
command -v kdig >/dev/null || skip "kdig not installed (knot-dnsutils)"
U="$ALLOCSPIKE_BIN/allocspike-upstream"

# usage errors: exit 2 and a message naming the option
usage_error() { # DESCRIPTION PATTERN ARGS...
	local what=$1 pattern=$2
	shift 2
	"$U" "$@" --print-world >/dev/null 2>"$TEST_TMP/err"
	check_eq "$what: exit status" 2 $?
	check "$what: says why ($(head -1 "$TEST_TMP/err"))" grep -q -- "$pattern" "$TEST_TMP/err"
}
usage_error "--flat-tlds without the flat world" "only for --world flat" --flat-tlds 5
usage_error "--flat-tlds 0" "--flat-tlds" --world flat --flat-tlds 0
usage_error "--flat-tlds not a number" "--flat-tlds" --world flat --flat-tlds many
usage_error "--servers in the flat world" "one server" --world flat --servers 4:24:96

"$U" --world flat --flat-tlds 7 --print-world >"$TEST_TMP/world" || exit 1
check_eq "--print-world: one server" 1 "$(grep -c '^server ' "$TEST_TMP/world")"
check "--print-world: the TLD count" grep -qx 'tlds 7' "$TEST_TMP/world"

start_server up "$TEST_TMP/up.ready" "$U" --world flat --flat-tlds 5 --hierarchy-block 127.54.32.0/24 \
	--port 0 --no-latency --root-hints "$TEST_TMP/hints" --ready-file "$TEST_TMP/up.ready" \
	>"$TEST_TMP/up.addr" || exit 1
ADDR=$(cat "$TEST_TMP/up.addr")
PORT=${ADDR##*:}
ADDR=${ADDR%:*}
check_eq "ready names the one server" 127.54.32.1 "$ADDR"
check_eq "root hints: one name server at that address" "1 $ADDR" \
	"$(awk '$4 == "NS" {n++} $4 == "A" {a = $5} END {print n, a}' "$TEST_TMP/hints")"

ask() { kdig @"$ADDR" -p "$PORT" +norec +time=2 +retry=1 "$@"; }
section() { # OUTPUT SECTION: the records of one section, one per line
	awk -v s=";; $2 SECTION:" '$0 == s {on = 1; next} /^;; / || /^$/ {on = 0} on' <<<"$1"
}
status() { sed -n 's/.*status: \([A-Z]*\).*/\1/p' <<<"$1"; }
aa() { grep -q '^;; Flags: .*\baa\b' <<<"$1"; }

# the root: its name server and every TLD's delegation lead back to the same address
out=$(ask . NS)
check_eq "root NS: a.root-servers.net. at the one address" "a.root-servers.net. $ADDR" \
	"$(section "$out" ANSWER | awk '{print $5}') $(section "$out" ADDITIONAL | awk '$4 == "A" {print $5}')"
out=$(ask tld3. NS)
check_eq "tld3.'s name server" "ns1.nic.tld3." "$(section "$out" ANSWER | awk '$4 == "NS" {print $5}')"
check_eq "tld3.'s glue: the one address" "$ADDR" "$(section "$out" ADDITIONAL | awk '$4 == "A" {print $5}')"
out=$(ask ns1.nic.tld3. A)
check_eq "ns1.nic.tld3. is the one address" "$ADDR" "$(section "$out" ANSWER | awk '$4 == "A" {print $5}')"
out=$(ask tld3. DS)
check "DS tld3.: NODATA (nothing is signed)" test "$(status "$out")" = NOERROR -a -z "$(section "$out" ANSWER)"

# the wildcard: one record of each type at any name below a TLD, authoritative
for type in A AAAA MX TXT NS; do
	out=$(ask "some-name$RANDOM.tld3." "$type")
	check_eq "wildcard $type: NOERROR, one $type record" "NOERROR 1" \
		"$(status "$out") $(section "$out" ANSWER | awk -v t="$type" '$4 == t' | wc -l)"
	check "wildcard $type: authoritative" aa "$out"
done
out=$(ask deep.er.name.tld5. TXT)
strings=$(section "$out" ANSWER | awk '$4 == "TXT"' | grep -o '"[^"]*"' | wc -l)
check "TXT: 1 to 6 strings ($strings)" test "$strings" -ge 1 -a "$strings" -le 6
out=$(ask www.tld1. MX)
check_eq "MX: the exchanger in the TLD, its address added" "mx1.tld1. 1" \
	"$(section "$out" ANSWER | awk '{print $6}') $(section "$out" ADDITIONAL | awk '$1 == "mx1.tld1." && $4 == "A"' | wc -l)"
out=$(ask www.tld1. SRV)
check_eq "a type the wildcard lacks: NODATA with tld1.'s SOA" "NOERROR tld1." \
	"$(status "$out") $(section "$out" AUTHORITY | awk '$4 == "SOA" {print $1}')"

# NXDOMAIN outside the TLDs, from the root
for name in www.tld6. example.com. tld0. lkjhgfdsa. tld03.; do
	out=$(ask "$name" A)
	check_eq "$name: NXDOMAIN with the root's SOA" "NXDOMAIN ." \
		"$(status "$out") $(section "$out" AUTHORITY | awk '$4 == "SOA" {print $1}')"
done

# TTLs over 400 names: inside 5 s .. 1 day, spread over the range (one kdig, many questions)
names=()
for ((k = 0; k < 400; k++)); do names+=("n$k.tld$((1 + k % 5)).") ; done
kdig @"$ADDR" -p "$PORT" +norec +time=2 +retry=1 +noall +answer "${names[@]}" |
	awk '$4 == "A" {print $2}' >"$TEST_TMP/ttls"
check_eq "a TTL for every name" 400 "$(wc -l <"$TEST_TMP/ttls")"
read -r lo hi distinct below60 above3600 < <(sort -n "$TEST_TMP/ttls" |
	awk 'NR == 1 {lo = $1} {hi = $1; seen[$1]; n += $1 < 60; m += $1 > 3600}
	     END {print lo, hi, length(seen), n, m}')
check "TTLs from 5 s ($lo) to a day ($hi)" test "$lo" -ge 5 -a "$hi" -le 86400
check "TTLs not all equal ($distinct distinct values)" test "$distinct" -gt 100
# log-uniform: 25% below 60 s (102 of 400), 33% above an hour (130); the bounds are 3.5 standard
# deviations of a binomial count either way
check "TTLs below a minute: $below60 of 400" test "$below60" -ge 70 -a "$below60" -le 130
check "TTLs above an hour: $above3600 of 400" test "$above3600" -ge 95 -a "$above3600" -le 160
finish
