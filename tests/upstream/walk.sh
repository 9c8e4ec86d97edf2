#!/bin/bash
# tests/upstream/walk.sh - iterating from the root with kdig reaches answers through correct
# referrals (glue and glueless), TC over UDP and the full answer over TCP, bad packets counted,
# counters over the control socket, on SIGUSR1 and at exit, the same seed answering the same.
source "$ALLOCSPIKE_SOURCE_DIR/tests/lib.sh"
command -v kdig >/dev/null || skip "kdig not installed (knot-dnsutils)"
command -v jq >/dev/null || skip "jq not installed"
command -v python3 >/dev/null || skip "python3 not installed (the control-socket client)"
U="$ALLOCSPIKE_BIN/allocspike-upstream"

start_upstream() { # NAME SEED [args...]: prints ADDR:PORT into $TEST_TMP/NAME.addr
	local name=$1 seed=$2
	shift 2
	start_server "$name" "$TEST_TMP/$name.ready" "$U" --hierarchy-block 127.54.30.0/24 --port 0 \
		--seed "$seed" --no-latency --no-loss --ready-file "$TEST_TMP/$name.ready" \
		--control "$TEST_TMP/$name.ctl" --stats-file "$TEST_TMP/$name.stats" "$@" \
		>"$TEST_TMP/$name.addr"
}

start_upstream a 1 || exit 1
ROOT=$(cat "$TEST_TMP/a.addr")
PORT=${ROOT##*:}
ROOT=${ROOT%:*}
check_eq "ready names the first root server" "127.54.30.1" "$ROOT"

ask() { kdig @"$1" -p "$PORT" +norec +time=2 +retry=1 "${@:2}"; }
section() { # OUTPUT SECTION: the records of one section, one per line
	awk -v s=";; $2 SECTION:" '$0 == s {on = 1; next} /^;; / || /^$/ {on = 0} on' <<<"$1"
}

# walk NAME TYPE: iterates from the root; prints "depth glueless final-status" and the last reply
# in $TEST_TMP/last; fails on a reply that is neither an answer nor a correct referral.
walk() {
	local name=$1 type=$2 server=$ROOT depth=0 glueless=0 out step ns glue
	for ((step = 0; step < 20; step++)); do
		out=$(ask "$server" "$name" "$type") || return 1
		local status=$(sed -n 's/.*status: \([A-Z]*\).*/\1/p' <<<"$out")
		local flags=$(sed -n 's/^;; Flags: \([a-z ]*\);.*/\1/p' <<<"$out")
		local answer=$(section "$out" ANSWER) authority=$(section "$out" AUTHORITY)
		if [[ -n "$answer" || "$status" != NOERROR || -z "$authority" ]] ||
			awk '$4 == "SOA"' <<<"$authority" | grep -q .; then
			[[ " $flags " == *" aa "* ]] || { echo "not authoritative: $out" >&2; return 1; }
			local last=$(tail -1 <<<"$answer")
			if [[ $(awk '{print $4}' <<<"$last") == CNAME && "$type" != CNAME ]] &&
				! awk -v t="$type" '$4 == t' <<<"$answer" | grep -q . && [[ $status == NOERROR ]]; then
				name=$(awk '{print $5}' <<<"$last")
				server=$ROOT
				continue
			fi
			echo "$out" >"$TEST_TMP/last"
			echo "$server" >"$TEST_TMP/last_server"
			echo "$depth $glueless $status"
			return 0
		fi
		# a referral: no AA, NS records of a zone closer to the name
		[[ " $flags " != *" aa "* ]] || { echo "referral with AA: $out" >&2; return 1; }
		local zone=$(awk '$4 == "NS" {print $1; exit}' <<<"$authority")
		[[ "${name,,}" == *"$zone" || "$zone" == . ]] || { echo "referral to $zone for $name" >&2; return 1; }
		depth=$((depth + 1))
		ns=$(awk '$4 == "NS" {print $5; exit}' <<<"$authority")
		glue=$(section "$out" ADDITIONAL | awk -v n="$ns" '$1 == n && $4 == "A" {print $5; exit}')
		if [[ -z "$glue" ]]; then
			glueless=$((glueless + 1))
			walk "$ns" A >/dev/null || return 1
			glue=$(section "$(cat "$TEST_TMP/last")" ANSWER | awk '$4 == "A" {print $5; exit}')
			[[ -n "$glue" ]] || { echo "glueless NS $ns has no address" >&2; return 1; }
		fi
		server=$glue
	done
	return 1
}

r=$(walk www.google.com. A)
check "www.google.com A resolves through referrals ($r)" test "$(awk '{print ($1 >= 2), $3}' <<<"$r")" = "1 NOERROR"
check "the final reply holds A records" grep -qE 'IN[[:space:]]+(A|CNAME)[[:space:]]' "$TEST_TMP/last"
r=$(walk www.bbc.co.uk. A)
check "co.uk is a registry of its own: three referrals ($r)" test "$(awk '{print $1}' <<<"$r")" -ge 3
r=$(walk 196.127.197.94.in-addr.arpa. PTR)
check "reverse names resolve via arpa and in-addr.arpa ($r)" test "$(awk '{print $1}' <<<"$r")" -ge 3
r=$(walk wpad.lan. A)
check_eq "unknown TLD: NXDOMAIN from the root" "0 0 NXDOMAIN" "$r"
check "NXDOMAIN carries the SOA" grep -q 'IN[[:space:]]*SOA' "$TEST_TMP/last"
r=$(walk mail.mobilni-telefony.biz. MX)
check "MX question answered ($r)" test -n "$r"

# a glueless delegation: hosted at a provider; the walk resolves the provider's name first
found=""
for i in $(seq 0 20); do
	r=$(walk "shop$i.org." A) || continue
	if [[ $(awk '{print $2}' <<<"$r") -ge 1 ]]; then
		found="shop$i.org. ($r)"
		break
	fi
done
check "a glueless delegation resolves: $found" test -n "$found"

# parent and child agree on the NS set
out=$(ask "$ROOT" google.com. NS)
tld=$(section "$out" ADDITIONAL | awk '$4 == "A" {print $5; exit}')
parent=$(section "$(ask "$tld" google.com. NS)" AUTHORITY | awk '$4 == "NS" {print $5}' | sort)
child_ns=$(head -1 <<<"$parent")
walk "$child_ns" A >/dev/null
child_addr=$(section "$(cat "$TEST_TMP/last")" ANSWER | awk '$4 == "A" {print $5; exit}')
child=$(section "$(ask "$child_addr" google.com. NS)" ANSWER | awk '$4 == "NS" {print $5}' | sort)
check "parent and child NS sets agree" test -n "$parent" -a "$parent" = "$child"

# TC: big0.net. has about 3 KB of TXT with seed 1 (found by test_answer's search)
walk big0.net. TXT >/dev/null
big_server=$(cat "$TEST_TMP/last_server")
udp=$(ask "$big_server" +ignore big0.net. TXT)
check "UDP without EDNS: TC set" grep -q 'Flags: qr aa tc;' <<<"$udp"
udp=$(ask "$big_server" +ignore +bufsize=1232 big0.net. TXT)
check "UDP with a 1232-byte buffer: TC set" grep -q 'Flags: qr aa tc;' <<<"$udp"
tcp=$(ask "$big_server" +tcp big0.net. TXT)
check "TCP: the whole TXT set" test "$(section "$tcp" ANSWER | wc -l)" -ge 2 -a \
	"$(grep -c 'Flags: qr aa;' <<<"$tcp")" -eq 1

# bad packets: not a query, too short, QR set; counted as malformed, server still answers
printf 'garbage' >/dev/udp/"$ROOT"/"$PORT"
printf '\x12\x34\x81\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00\x00\x01\x00\x01' >/dev/udp/"$ROOT"/"$PORT"
printf '\x12\x34\x01\x00\x00\x01\x00\x00\x00\x00\x00\x00\x05abc' >/dev/udp/"$ROOT"/"$PORT"
check "still answering after bad packets" grep -q 'status: NOERROR' <<<"$(ask "$ROOT" . NS)"
stats=$(control_send "$TEST_TMP/a.ctl" stats)
check_eq "malformed counted" 3 "$(jq .malformed <<<"$stats")"
check "per-source counters" test "$(jq '.sources["127.0.0.1"].queries' <<<"$stats")" -gt 10
check "per-tier counters" test "$(jq '.tier.root.queries > 0 and .tier.tld.queries > 0 and .tier.sld.queries > 0' <<<"$stats")" = true
check "per-rcode counters" test "$(jq '.rcode.NXDOMAIN >= 1 and .rcode.NOERROR > 10' <<<"$stats")" = true
check "truncated counted" test "$(jq .truncated <<<"$stats")" -ge 2
check "tcp counted" test "$(jq .tcp <<<"$stats")" -ge 1
pid=${_test_pids[-1]}
kill -USR1 "$pid"
for ((i = 0; i < 50; i++)); do grep -q '"malformed"' "$TEST_TMP/a.log" && break; sleep 0.1; done
check "SIGUSR1 prints the counters" grep -q '"malformed":3' "$TEST_TMP/a.log"
answers_a=$(for q in "www.google.com. A" "google.com. NS" "wpad.lan. A" "com. SOA"; do
	ask "$ROOT" $q | grep -vE '^;; (->>HEADER|Time|From|Received)'; done)
check_eq "shutdown over the control socket" ok "$(control_send "$TEST_TMP/a.ctl" shutdown)"
wait "$pid"
check "counters written at exit" test "$(jq .queries "$TEST_TMP/a.stats")" -gt 10

# the same seed answers the same; another seed differently
start_upstream b 1 || exit 1
PORT=$(cut -d: -f2 "$TEST_TMP/b.addr")
answers_b=$(for q in "www.google.com. A" "google.com. NS" "wpad.lan. A" "com. SOA"; do
	ask "$ROOT" $q | grep -vE '^;; (->>HEADER|Time|From|Received)'; done)
check "same seed, same answers" test "$answers_a" = "$answers_b"
kill "${_test_pids[-1]}"
wait "${_test_pids[-1]}" 2>/dev/null
start_upstream c 2 || exit 1
PORT=$(cut -d: -f2 "$TEST_TMP/c.addr")
answers_c=$(for q in "www.google.com. A" "google.com. NS" "wpad.lan. A" "com. SOA"; do
	ask "$ROOT" $q | grep -vE '^;; (->>HEADER|Time|From|Received)'; done)
check "another seed, other answers" test "$answers_a" != "$answers_c"

# bad options: clear errors
"$U" --hierarchy-block 10.0.0.0/8 --port 0 2>"$TEST_TMP/err"
check_eq "a block outside loopback on the shared socket: usage status" 2 $?
check "a block outside loopback needs a socket per address" \
	grep -q "a block outside 127.0.0.0/8 needs --udp-sockets per-address" "$TEST_TMP/err"
# per address, the block must be this host's: TEST-NET-1 (RFC 5737) is no host's
"$U" --hierarchy-block 192.0.2.0/24 --udp-sockets per-address --port 0 2>"$TEST_TMP/err"
check_eq "a block of no address of this host: status 1" 1 $?
check "the bind's failure names the address and what the block must be" \
	grep -q "cannot bind UDP 192.0.2.1:0: .*must be this host's addresses" "$TEST_TMP/err"
# the old names still work for one release, with a warning naming the new one
"$U" --block 10.0.0.0/8 --port 0 2>"$TEST_TMP/err"
check "old --block still read" grep -q -- "--hierarchy-block '10.0.0.0/8': a block outside" "$TEST_TMP/err"
check "old --block warned" grep -q -- "warning: --block is now --hierarchy-block" "$TEST_TMP/err"
"$U" --latency-median-ms 30 --latency-p99-ms 20 2>"$TEST_TMP/err"
check "old --latency-median-ms warned" grep -q -- "warning: --latency-median-ms is now --latency-ms" "$TEST_TMP/err"
check "old latency names still read" grep -q "99th percentile 20 ms is below the median 30 ms" "$TEST_TMP/err"
"$U" --tier leaf:1:2:0 2>"$TEST_TMP/err"
check "a bad --tier names the option" grep -q -- "--tier 'leaf:1:2:0'" "$TEST_TMP/err"
finish
