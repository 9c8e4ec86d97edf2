#!/bin/bash
# upstream/benchmark.sh - queries per second of allocspike-upstream on one core (latency on and
# off) side by side with knotd serving a zone, measured with dnsperf. Not a test: prints a table.
#
# usage: upstream/benchmark.sh [BUILD_DIR] [SECONDS]   (default build/, 10 s per run)
# The server runs pinned to CPU 0 and dnsperf to CPU 1; besides the achieved rate (which the
# generator may limit on a busy machine) it prints the rate per CPU-second the server used, the
# figure that says how many queries one core can serve.
set -euo pipefail
SRC=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-$SRC/build}
SECONDS_PER_RUN=${2:-10}
U=${ALLOCSPIKE_BIN:-$BUILD/bin}/allocspike-upstream
source "$SRC/scripts/bench-lib.sh"
bench_require dnsperf knotd kdig taskset
[[ -x "$U" ]] || { echo "benchmark: $U not built (cmake --build $BUILD --target allocspike-upstream)" >&2; exit 1; }
bench_workdir bench
BLOCK=127.54.60.0/24
KNOT_ADDR=127.54.61.1

# measure NAME PID SERVER PORT QUERYFILE: one dnsperf run; prints a table row
measure() {
	local name=$1 pid=$2 server=$3 port=$4 queries=$5 t0 t1 out qps lost hz
	hz=$(getconf CLK_TCK)
	t0=$(cpu_ticks "$pid")
	out=$(taskset -c 1 dnsperf -s "$server" -p "$port" -d "$queries" -l "$SECONDS_PER_RUN" \
		-c 16 -q 4000 -t 1 2>&1)
	t1=$(cpu_ticks "$pid")
	qps=$(sed -n 's/.*Queries per second: *\([0-9.]*\).*/\1/p' <<<"$out")
	lost=$(sed -n 's/.*Queries lost: *[0-9]* (\([0-9.]*%\)).*/\1/p' <<<"$out")
	awk -v n="$name" -v q="$qps" -v l="$lost" -v c="$((t1 - t0))" -v hz="$hz" -v s="$SECONDS_PER_RUN" \
		'BEGIN {cpu = c / hz; printf "%-46s %8.0f %8s %6.0f%% %13.0f\n", n, q, l, 100 * cpu / s, (cpu > 0 ? q * s / cpu : 0)}'
}

# query sets: referrals (the sample at a root server), leaf answers (CDN names at their server),
# and the scenario's shape: every question four times (four variants ask the same stream)
SAMPLE="$SRC/../shared/querydata/queryfile-example-10million-201202_head100k.xz"
if [[ -r "$SAMPLE" ]]; then
	xz -dc "$SAMPLE" >"$WORK/referral.txt"
else
	for ((i = 0; i < 50000; i++)); do echo "www.site$i.com. A"; done >"$WORK/referral.txt"
fi
awk '{for (i = 0; i < 4; i++) print}' "$WORK/referral.txt" >"$WORK/fanout.txt"
for ((i = 0; i < 50000; i++)); do echo "e$i.simcdn-0.net. A"; done >"$WORK/leaf.txt"
sed 's/simcdn-0\.net\./example./' "$WORK/leaf.txt" >"$WORK/knot-leaf.txt"
awk '{n = split($1, l, "."); printf "www.%s.example. A\n", (n > 2 ? l[n - 2] : "x") NR % 50000}' \
	"$WORK/referral.txt" >"$WORK/knot-referral.txt"

# knotd: a zone with 50000 leaf names (1-4 addresses, a fifth of them CNAMEs in the zone) and
# 50000 delegations with glue, the two kinds of reply the hierarchy sends most
{
	echo '$ORIGIN example.'
	echo '$TTL 3600'
	echo '@ SOA ns1 hostmaster 1 7200 900 1209600 300'
	echo '@ NS ns1'
	echo '@ NS ns2'
	echo "ns1 A $KNOT_ADDR"
	echo "ns2 A $KNOT_ADDR"
	awk 'BEGIN {
		for (i = 0; i < 50000; i++) {
			if (i % 5 == 0) { printf "e%d 60 CNAME a%d\n", i, i; name = "a" i } else name = "e" i
			for (k = 0; k <= i % 4; k++) printf "%s 60 A 192.0.%d.%d\n", name, k, i % 250
			printf "d%d NS ns1.d%d\nd%d NS ns2.d%d\nns1.d%d A 192.0.2.1\nns2.d%d A 192.0.2.2\n", i, i, i, i, i, i
		}
	}'
} >"$WORK/example.zone"
# referral names: www.dN.example.
awk '{printf "www.d%d.example. A\n", NR % 50000}' "$WORK/referral.txt" >"$WORK/knot-referral.txt"
cat >"$WORK/knot.conf" <<EOF
server:
    rundir: "$WORK"
    listen: $KNOT_ADDR@5300
    udp-workers: 1
    tcp-workers: 1
    background-workers: 1
log:
  - target: stderr
    any: warning
database:
    storage: "$WORK/knotdb"
template:
  - id: default
    storage: "$WORK"
    semantic-checks: off
zone:
  - domain: example.
    file: example.zone
EOF

printf "%-46s %8s %8s %7s %13s\n" "server / query set" "qps" "lost" "cpu" "qps per core"
for mode in "latency off:--no-latency --no-loss" "latency on (defaults):"; do
	label=${mode%%:*}
	flags=${mode#*:}
	rm -f "$WORK/ready"
	# shellcheck disable=SC2086
	taskset -c 0 "$U" --block "$BLOCK" --port 0 $flags --ready-file "$WORK/ready" >/dev/null 2>&1 &
	pid=$!
	PIDS+=("$pid")
	wait_ready "$WORK/ready" "$pid"
	addr=$(sed 's/^ready //' "$WORK/ready")
	root=${addr%:*} port=${addr##*:}
	# the CDN zone's first server: two referrals down from the root
	net=$(kdig @"$root" -p "$port" +norec simcdn-0.net. NS | awk '/ADDITIONAL/ {on = 1; next} on && $4 == "A" {print $5; exit}')
	cdn=$(kdig @"$net" -p "$port" +norec simcdn-0.net. NS | awk '/ADDITIONAL/ {on = 1; next} on && $4 == "A" {print $5; exit}')
	measure "upstream $label: referrals" "$pid" "$root" "$port" "$WORK/referral.txt"
	measure "upstream $label: fan-out x4" "$pid" "$root" "$port" "$WORK/fanout.txt"
	measure "upstream $label: leaf answers" "$pid" "$cdn" "$port" "$WORK/leaf.txt"
	kill "$pid"
	wait "$pid" 2>/dev/null || true
done
taskset -c 0 knotd -c "$WORK/knot.conf" >"$WORK/knot.log" 2>&1 &
kpid=$!
PIDS+=("$kpid")
for ((i = 0; i < 300; i++)); do
	kdig @"$KNOT_ADDR" -p 5300 +time=1 +retry=0 example. SOA 2>/dev/null | grep -q 'status: NOERROR' && break
	sleep 0.1
done
measure "knotd: referrals" "$kpid" "$KNOT_ADDR" 5300 "$WORK/knot-referral.txt"
measure "knotd: leaf answers" "$kpid" "$KNOT_ADDR" 5300 "$WORK/knot-leaf.txt"
echo
echo "target: 3 x (4 variants x 3000 qps spike x 1.5 upstream queries per miss) = 54000 qps"
