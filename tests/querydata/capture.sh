#!/usr/bin/env bash
# tests/querydata/capture.sh - allocspike-querydata capture: the queries of crafted pcap and pcapng
# captures (every link type read, IPv4 and IPv6, UDP and TCP: pipelined, split, retransmitted, cut
# by a missing segment) exactly, with their times and transports; truncated and garbage files refused
# with the frame; the statistics.
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
QD="$ALLOCSPIKE_BIN/allocspike-querydata"
MAKE="$ALLOCSPIKE_SOURCE_DIR/tests/querydata/make_capture.py"

for link in ethernet sll sll2 null raw; do
	for format in pcap pcap-ns pcapng; do
		cap="$TEST_TMP/$link-$format.cap"
		python3 "$MAKE" "$format" "$link" "$cap" >"$TEST_TMP/expected.plan"
		"$QD" capture --plan "$TEST_TMP/got.plan" --queries "$TEST_TMP/got.txt" "$cap" \
			>"$TEST_TMP/stats.txt" 2>"$TEST_TMP/err"
		check_eq "$link $format: exit status" 0 $?
		check "$link $format: the plan's queries, times, clients and transports exact" \
			cmp -s <(grep -v '^#' "$TEST_TMP/got.plan") "$TEST_TMP/expected.plan"
		check "$link $format: the query file is the plan's names and types" \
			cmp -s "$TEST_TMP/got.txt" <(cut -d' ' -f4- "$TEST_TMP/expected.plan")
	done
done

# the last capture's plan: header, source and each client's address before its first query
check_eq "plan header" "# allocspike replay plan 1" "$(head -1 "$TEST_TMP/got.plan")"
check "client 1 is the IPv6 address" grep -qx "# client 1 2001:db8::1" "$TEST_TMP/got.plan"
check "the plan reads back as a query file" "$QD" stats <(cut -d' ' -f4- "$TEST_TMP/expected.plan")

python3 "$MAKE" pcap ethernet "$TEST_TMP/c.pcap" >/dev/null
"$QD" capture --json "$TEST_TMP/c.pcap" >"$TEST_TMP/stats.json"
check_eq "json statistics" \
	"15 6 3 3 4 2 1 1 1 1 1 3 0.011" \
	"$(jq -r '[.frames, .queries, .transports.udp, .transports.tcp, .families.ipv4, .families.ipv6,
		.responses, .not_dns, .malformed, .tcp_gaps, .tcp_retransmissions, .clients,
		.queries_duration_s] | map(tostring) | join(" ")' "$TEST_TMP/stats.json")"
"$QD" capture "$TEST_TMP/c.pcap" >"$TEST_TMP/stats.txt"
check "text statistics" grep -q "^queries: 6 (udp 3, tcp 3; ipv4 4, ipv6 2) over 0.011000 s" "$TEST_TMP/stats.txt"
check "skips counted" grep -q "^skipped: 1 responses, 1 not DNS, 1 malformed" "$TEST_TMP/stats.txt"
"$QD" capture --port 5353 --queries "$TEST_TMP/none.txt" "$TEST_TMP/c.pcap" >"$TEST_TMP/stats.txt"
check "another --port: no queries" grep -q "^queries: 0 " "$TEST_TMP/stats.txt"
check_eq "another --port: an empty query file" 0 "$(wc -c <"$TEST_TMP/none.txt")"
"$QD" capture --port 0 --plan - "$TEST_TMP/c.pcap" >"$TEST_TMP/any.plan" 2>"$TEST_TMP/any.stats"
check "--port 0: the same queries" cmp -s <(grep -v '^#' "$TEST_TMP/any.plan") "$TEST_TMP/expected.plan"
check "--plan -: the statistics go to stderr" grep -q "^queries: 6 " "$TEST_TMP/any.stats"

# a capture cut inside its last frame, in both formats: exit 1, the frame named, no file written
for format in pcap pcapng; do
	python3 "$MAKE" "$format" sll "$TEST_TMP/whole.cap" >/dev/null
	head -c $(($(stat -c %s "$TEST_TMP/whole.cap") - 20)) "$TEST_TMP/whole.cap" >"$TEST_TMP/cut.cap"
	"$QD" capture --plan "$TEST_TMP/cut.plan" "$TEST_TMP/cut.cap" >/dev/null 2>"$TEST_TMP/cut.err"
	check_eq "truncated $format: exit status" 1 $?
	check "truncated $format: the frame named" grep -q "cut.cap: frame 15: truncated" "$TEST_TMP/cut.err"
	check "truncated $format: no plan written" test ! -e "$TEST_TMP/cut.plan"
done
head -c 4096 /dev/urandom | tr '\324\241\012\115' 'xxxx' >"$TEST_TMP/garbage.cap"
"$QD" capture "$TEST_TMP/garbage.cap" >/dev/null 2>"$TEST_TMP/garbage.err"
check_eq "garbage: exit status" 1 $?
check "garbage: says it is not a capture" grep -q "garbage.cap: not a capture libpcap reads (pcap or pcapng)" \
	"$TEST_TMP/garbage.err"
"$QD" capture "$TEST_TMP/missing.cap" >/dev/null 2>"$TEST_TMP/missing.err"
check_eq "missing file: exit status" 1 $?

# usage errors: exit 2
"$QD" capture --port 70000 "$TEST_TMP/c.pcap" >/dev/null 2>&1
check_eq "bad --port: exit status" 2 $?
"$QD" capture >/dev/null 2>&1
check_eq "no capture: exit status" 2 $?
"$QD" capture --queries "$TEST_TMP/x" --plan "$TEST_TMP/x" "$TEST_TMP/c.pcap" >/dev/null 2>&1
check_eq "--queries and --plan the same file: exit status" 2 $?
finish
